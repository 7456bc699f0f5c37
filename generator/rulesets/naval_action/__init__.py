"""NAVAL ACTION (WWII tactical miniatures, d6): the first ruleset plugged into quarterdeck.

The ruleset and its names (``RULESET``, ``NAME``, ``side_matchup_pages``...) live in
``ruleset`` and are loaded when first asked for here. The package itself imports
nothing, so a module that needs no schema (the cached answers of ``asking``, which
``quarterdeck odds`` reads) loads without pydantic and the ruleset's models.
"""

import importlib
from pathlib import Path
from typing import Any

_HERE = Path(__file__).parent


def __getattr__(name: str) -> Any:
    """A submodule, or a name of the ruleset module, imported on first use."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # `from generator.rulesets.naval_action import odds` asks here first: a submodule is
    # imported alone, not behind the whole ruleset.
    if (_HERE / f"{name}.py").is_file() or (_HERE / name / "__init__.py").is_file():
        return importlib.import_module(f"{__name__}.{name}")
    ruleset = importlib.import_module(f"{__name__}.ruleset")
    try:
        return getattr(ruleset, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
