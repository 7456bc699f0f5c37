"""Example Skirmish: a ruleset invented for the tests, the size of a bundled one.

Its names (``RULESET``...) live in ``ruleset`` and load on first use, as in every ruleset
folder (``generator.rulesets.lazy``): ``commands`` and ``rating`` import alone.
"""

from generator.rulesets.lazy import package_getattr

__getattr__ = package_getattr(__name__, __file__)
