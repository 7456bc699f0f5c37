"""Surface Action (WWII tactical, three-step d6 pools): the second ruleset."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from generator.errors import UsageError
from generator.rulesets.surface_action import resolve
from generator.rulesets.surface_action.schema import Scenario, ShipClass

if TYPE_CHECKING:
    from generator.errors import Problem
    from generator.library import Library

NAME = "surface-action"


class SurfaceAction:
    """The Surface Action plug (see ``generator.rulesets.base.Ruleset``)."""

    name = NAME
    title = "Surface Action"
    class_model: type[BaseModel] = ShipClass
    scenario_model: type[BaseModel] = Scenario

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Cross-file problems and warnings of every Surface Action scenario."""
        return resolve.check_library(library)

    def describe_class(self, entry: Any) -> tuple[str, str, str, str]:
        """(id, name, nation, type) for listings."""
        cls: ShipClass = entry.model
        return cls.id, cls.name, cls.nation.value, cls.type.value

    def __getattr__(self, name: str) -> Any:
        raise UsageError(f"Surface Action has no '{name}' yet")


RULESET = SurfaceAction()
