"""The bundled rulesets, one folder each, and the registry every ruleset is found through.

The registry itself lives below every layer that reads it (``generator.data.registry``,
seen whole by the kit layer as ``generator.kit.registry``): rulesets are plugged in by
entry points of the ``quarterdeck.rulesets`` group, the bundled ones too. The names here
are kept for code that imported them from this package.
"""

from __future__ import annotations

from typing import Any

from generator.data.registry import (
    GROUP,
    RulesetImportError,
    cache_key,
    discover,
    source_points,
)
from generator.data.registry import distributions_stamp as _distributions_stamp
from generator.data.registry import targets as _targets
from generator.kit.registry import REGISTRY, default_ruleset, default_scenario, register


def __getattr__(name: str) -> Any:
    """``Ruleset`` and ``BUNDLED``, made when asked for."""
    if name == "Ruleset":
        from generator.kit.seam import Ruleset

        return Ruleset
    if name == "BUNDLED":  # the bundled rulesets, as the source tree declares them
        return source_points()
    raise AttributeError(name)


__all__ = ["GROUP", "REGISTRY", "Ruleset", "RulesetImportError", "_distributions_stamp",
           "_targets", "cache_key", "default_ruleset", "default_scenario", "discover",
           "register"]
