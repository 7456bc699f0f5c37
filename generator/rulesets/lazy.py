"""A ruleset package that imports nothing until one of its names is asked for.

A ruleset whose module (``ruleset.py``) loads its schema keeps its package's
``__init__`` bare with ``__getattr__ = package_getattr(__name__, __file__)``: a submodule
that needs no schema (a cached odds index, say) then imports alone, and the ruleset's
names (``RULESET``...) still read from the package as before.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any


def package_getattr(package: str, init_file: str,
                    module: str = "ruleset") -> Callable[[str], Any]:
    """The package's ``__getattr__``: a submodule, or a name of ``module``, on first use."""
    here = Path(init_file).parent

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook's own name
        if name.startswith("__"):
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        # `from package import odds` asks here first: a submodule is imported alone, not
        # behind the whole ruleset.
        if (here / f"{name}.py").is_file() or (here / name / "__init__.py").is_file():
            return importlib.import_module(f"{package}.{name}")
        try:
            return getattr(importlib.import_module(f"{package}.{module}"), name)
        except AttributeError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None

    return __getattr__
