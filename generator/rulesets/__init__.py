"""The ruleset registry: every rule system found through the ``quarterdeck.rulesets`` group.

A ruleset is plugged in by an entry point, so a club or designer can ship one as a pip
package of its own::

    [project.entry-points."quarterdeck.rulesets"]
    my-game = "my_game:RULESET"

The bundled rulesets register the same way (see ``pyproject.toml``). When quarterdeck
runs from a source tree that was never installed there is no entry-point metadata, so
the bundled ones are then found by their module names below.
"""

from __future__ import annotations

import importlib
from importlib import metadata

from generator.rulesets.base import Ruleset

GROUP = "quarterdeck.rulesets"
BUNDLED = {"naval-action": "generator.rulesets.naval_action:RULESET",
           "surface-action": "generator.rulesets.surface_action:RULESET",
           "rule-27": "generator.rulesets.rule27:RULESET",
           "modern-naval": "generator.rulesets.modern_naval:RULESET",
           "naval-warfare": "generator.rulesets.naval_warfare:RULESET"}
"""Fallback when the package metadata is missing (a checkout run without installing)."""


def _load(target: str) -> Ruleset:
    module, _, attr = target.partition(":")
    found = getattr(importlib.import_module(module), attr)
    if not isinstance(found, Ruleset):
        raise TypeError(f"{target} is not a quarterdeck Ruleset")
    return found


def discover() -> dict[str, Ruleset]:
    """Every registered ruleset, by name, in listing order (``order``, then name)."""
    found: dict[str, Ruleset] = {}
    for point in metadata.entry_points(group=GROUP):
        ruleset = point.load()
        if isinstance(ruleset, Ruleset) and ruleset.name not in found:
            found[ruleset.name] = ruleset
    for name, target in BUNDLED.items():
        if name not in found:
            found[name] = _load(target)
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


REGISTRY: dict[str, Ruleset] = discover()


def register(ruleset: Ruleset) -> None:
    """Add a ruleset at run time (tests, or a program embedding quarterdeck)."""
    REGISTRY[ruleset.name] = ruleset


def default_ruleset() -> Ruleset:
    """The ruleset listed first: the one ``build`` without a scenario serves."""
    return next(iter(REGISTRY.values()))


def default_scenario() -> str | None:
    """The scenario ``quarterdeck build`` builds when none is named."""
    return default_ruleset().default_scenario


__all__ = ["GROUP", "REGISTRY", "Ruleset", "default_ruleset", "default_scenario", "register"]
