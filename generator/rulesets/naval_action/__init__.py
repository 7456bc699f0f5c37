"""NAVAL ACTION (WWII tactical miniatures, d6): the first ruleset plugged into quarterdeck.

The ruleset and its names (``RULESET``, ``NAME``, ``side_matchup_pages``...) live in
``ruleset`` and are loaded when first asked for here. The package itself imports
nothing, so a module that needs no schema (the cached odds index of ``ask``, which
``quarterdeck odds`` reads) loads without pydantic and the ruleset's models.
"""

from generator.rulesets.lazy import package_getattr

__getattr__ = package_getattr(__name__, __file__)
