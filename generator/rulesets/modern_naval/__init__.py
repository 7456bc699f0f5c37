"""Modern naval (missile-era tactical, d10/d20, centimetres).

The ruleset and its names (``RULESET``, ``NAME``...) live in ``ruleset`` and are
loaded when first asked for here, as in every ruleset folder: a submodule that
needs no schema imports alone.
"""

from generator.rulesets.lazy import package_getattr

__getattr__ = package_getattr(__name__, __file__)
