"""Rule 27: naval counters and aids for a hex-and-counter strategic wargame.

Skeleton: the ruleset class, its registration and recipe come with the kit work.
"""
