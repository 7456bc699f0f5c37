"""Cross-file checks for NAVAL ACTION: scenarios name real classes, ships and batteries."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.errors import Problem
from generator.core.scales import parse_scale
from generator.core.suggest import fold
from generator.data.images import class_image_problems
from generator.data.images import class_images as images_of
from generator.data.roster import Loc, check_roster, check_scenarios, check_side_ref, find_ship
from generator.data.setup import setup_problems
from generator.rulesets.naval_action.schema import Scenario, ShipClass, ShipRef

if TYPE_CHECKING:
    from generator.data.library import Entry, Library

RULESET = "naval-action"

__all__ = ["check_library", "check_scenario", "class_images", "find_ship", "fold"]


def check_scenario(entry: Entry, library: Library) -> tuple[list[Problem], list[str]]:
    """Check one scenario's references.

    Returns:
        Problems (errors) and warnings (text).

    """
    scenario: Scenario = entry.model
    doc = entry.doc

    def special(ref: ShipRef, cls: ShipClass, loc: Loc) -> list[Problem]:
        return _check_special(ref, cls, doc, loc)

    problems, warnings = check_roster(entry, library, RULESET, special)
    side_ids = [s.id for s in scenario.sides]
    for gi, group in enumerate(scenario.air_groups):
        problems.extend(check_side_ref(doc, ("air_groups", gi, "side"), group.side, side_ids))
    if scenario.setup is not None:
        rosters = {s.id: [ref.name for ref in s.ships] for s in scenario.sides}
        problems.extend(setup_problems(scenario.setup, doc, parse_scale(scenario.scale), rosters))
    return problems, warnings


def _check_special(ref: ShipRef, cls: ShipClass, doc: object,
                   loc: Loc) -> list[Problem]:
    if ref.special is None:
        return []
    have = {b.position for b in cls.guns}
    problems = []
    for field_name, positions in (("rounds_per_gun", list(ref.special.rounds_per_gun)),
                                  ("disabled", list(ref.special.disabled))):
        for pos in positions:
            if pos not in have:
                problems.append(doc.problem(  # type: ignore[attr-defined]
                    (*loc, "special", field_name), f"found battery '{pos.value}', expected one "
                    f"of the {cls.name} class's batteries "
                    f"({', '.join(sorted(p.value for p in have))})"))
    return problems


def check_library(library: Library) -> tuple[list[Problem], list[str]]:
    """Check every NAVAL ACTION scenario in the library."""
    problems, warnings = check_scenarios(library, RULESET, check_scenario)
    return problems + class_image_problems(library, RULESET), warnings


def class_images(library: Library) -> dict[str, Path]:
    """Class id to its checked marker image, for classes that supply one."""
    return images_of(library, RULESET)
