"""Modern naval: missile-era tactical play on d10/d20, measured in centimetres.

Skeleton: the ruleset class, its registration and recipe come with the kit work.
"""
