"""Naval Warfare 1942-45: the strategic campaign game (fleet operations and the merchant war).

Skeleton: the ruleset class, its registration and recipe come with the kit work.
"""
