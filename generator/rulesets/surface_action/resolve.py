"""Cross-file checks for Surface Action: rosters, weapons tables, formations, flagships."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from generator.core.errors import Problem
from generator.core.suggest import did_you_mean
from generator.data.roster import Loc, check_roster, check_scenarios
from generator.data.setup import setup_problems
from generator.rulesets.surface_action.charts import load_charts
from generator.rulesets.surface_action.components.aids import table_scale
from generator.rulesets.surface_action.schema import CARRIERS, Scenario, ShipClass, ShipRef

if TYPE_CHECKING:
    from generator.data.library import Entry, Library

RULESET = "surface-action"


def check_scenario(entry: Entry, library: Library) -> tuple[list[Problem], list[str]]:
    """Check one scenario: its roster, its weapons table and its formations.

    Returns:
        Problems (errors) and warnings (text).

    """
    scenario: Scenario = entry.model
    doc = entry.doc
    weapons = scenario.weapons
    missing: dict[tuple[str, str], list[str]] = {}

    def ship_checks(ref: ShipRef, cls: ShipClass, loc: Loc) -> list[Problem]:
        for battery in cls.guns:
            if battery.weapon not in weapons.guns:
                missing.setdefault(("guns", battery.weapon), []).append(ref.name)
        if cls.torpedoes and cls.torpedoes.weapon not in weapons.torpedoes:
            missing.setdefault(("torpedoes", cls.torpedoes.weapon), []).append(ref.name)
        if ref.special and ref.special.readied_planes and cls.type not in CARRIERS:
            return [doc.problem((*loc, "special", "readied_planes"), f"found true for "
                                f"{ref.name} ({cls.type.value}), expected readied planes only "
                                "on a carrier (CV, CVL, CVE)")]
        return []

    problems, warnings = check_roster(entry, library, RULESET, ship_checks)
    for (kind, weapon), ships in missing.items():
        table = getattr(weapons, kind)
        problems.append(doc.problem(("weapons", kind), f"found no '{weapon}' (carried by "
                                    f"{', '.join(ships)}), expected every weapon type in play "
                                    f"in the weapons table{did_you_mean(weapon, table)}",
                                    key=True))
    bands = len(weapons.bands_in)
    for kind in ("guns", "torpedoes"):
        for key, weapon in getattr(weapons, kind).items():
            if len(weapon.hit) > bands:
                problems.append(doc.problem(("weapons", kind, key, "hit"), f"found "
                                            f"{len(weapon.hit)} hit values, expected at most "
                                            f"{bands} (one per range band)"))
    night = load_charts().sighting
    if scenario.time == "night" and not night.night_min_in <= scenario.sighting_in \
            <= night.night_max_in:
        problems.append(doc.problem(("sighting_in",), f"found {scenario.sighting_in}, expected "
                                    f"a night sighting range of {night.night_min_in:g} to "
                                    f"{night.night_max_in:g} inches"))
    problems.extend(_formations(entry))
    if scenario.setup is not None:
        rosters = {s.id: [ref.name for ref in s.ships] for s in scenario.sides}
        problems.extend(setup_problems(scenario.setup, doc, table_scale(load_charts()),
                                       rosters))
    return problems, warnings


def _formations(entry: Entry) -> list[Problem]:
    scenario: Scenario = entry.model
    limit = load_charts().movement.formation_max
    problems = []
    for si, side in enumerate(scenario.sides):
        sizes = Counter(ref.formation for ref in side.ships if ref.formation)
        for ri, ref in enumerate(side.ships):
            if ref.formation and sizes[ref.formation] > limit:
                problems.append(entry.doc.problem(
                    ("sides", si, "ships", ri, "formation"), f"found {sizes[ref.formation]} "
                    f"ships in formation '{ref.formation}', expected at most {limit}"))
                sizes[ref.formation] = 0  # one message per formation
        flagships = [ri for ri, ref in enumerate(side.ships) if ref.flagship]
        for ri in flagships[1:]:
            problems.append(entry.doc.problem(
                ("sides", si, "ships", ri, "flagship"), f"found a second fleet flagship "
                f"({side.ships[ri].name}), expected one per side "
                f"({side.ships[flagships[0]].name} is already)"))
    return problems


def check_library(library: Library) -> tuple[list[Problem], list[str]]:
    """Check every Surface Action scenario in the library."""
    problems, warnings = check_scenarios(library, RULESET, check_scenario)
    return problems, warnings
