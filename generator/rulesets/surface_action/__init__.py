"""Surface Action (WWII tactical, three-step d6 pools): the second ruleset.

The ruleset and its names (``RULESET``, ``NAME``...) live in ``ruleset`` and are loaded
when first asked for here. The package itself imports nothing, so the cached odds index
of ``ask``, which ``quarterdeck odds`` reads, loads without pydantic and the schema.
"""

from generator.rulesets.lazy import package_getattr

__getattr__ = package_getattr(__name__, __file__)
