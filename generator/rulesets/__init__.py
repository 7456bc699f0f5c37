"""The ruleset registry: the one place a ruleset is plugged in."""

from __future__ import annotations

from generator.rulesets.base import Ruleset
from generator.rulesets.naval_action import RULESET as NAVAL_ACTION
from generator.rulesets.surface_action import RULESET as SURFACE_ACTION

REGISTRY: dict[str, Ruleset] = {
    NAVAL_ACTION.name: NAVAL_ACTION,
    SURFACE_ACTION.name: SURFACE_ACTION,
}

__all__ = ["REGISTRY", "Ruleset"]
