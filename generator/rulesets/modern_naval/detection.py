"""Radar detection and visual identification: how far a unit may try, and its chance.

The distance comes from the searcher's size (a ship) or altitude (an aircraft), plus the
bonus against an aircraft contact, halved in fog for a visual attempt; the chance is one
d10 plus the table's modifiers reaching the success score, both from ``rules.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from generator.rulesets.modern_naval.model import Conditions, UnitView
from generator.rulesets.modern_naval.modifiers import Breakdown, at_least, evaluate, total
from generator.rulesets.modern_naval.tables import Match, Search, Tables, die_sides

Method = Literal["radar", "visual"]
Altitude = Literal["low", "medium", "high"]
AIR = ("aircraft", "helicopter")


def table(tables: Tables, method: Method) -> Search:
    """The radar-detection or visual-identification table."""
    return tables.radar_detection if method == "radar" else tables.visual_identification


def limit_cm(search: Search, searcher: UnitView, *, target_aircraft: bool = False,
             fog: bool = False, altitude: Altitude | None = None) -> float:
    """The farthest a searcher may attempt, in cm.

    Args:
        search: The radar or visual table.
        searcher: The detecting or identifying unit (an aircraft reads its altitude's row
            when ``altitude`` is given, else its size's).
        target_aircraft: The contact is an aircraft (the table's bonus applies).
        fog: Foggy conditions (halve the final distance where the table says so).
        altitude: The searching aircraft's altitude.

    """
    row = search.limit_row(searcher.size,
                           altitude if searcher.category in AIR else None)
    distance = row.cm + (search.bonus.cm if target_aircraft else 0)
    return distance / 2 if fog and search.fog_halves else distance


def facts(searcher: UnitView, conditions: Conditions, *, land_behind: bool = False,
          vessels_between: int = 0) -> dict[str, Match | None]:
    """The factors the detection tables read, for one attempt."""
    surface = searcher.category not in AIR
    return {"crew": searcher.crew, "land_behind": land_behind,
            "vessels_between": vessels_between, "sea_state": conditions.sea_state,
            "fcs": searcher.fcs if searcher.fcs is not None else "none",
            # The speed-marker penalty is the searching vessel's; aircraft carry none.
            "own_speed": conditions.shooter_speed if surface else None}


@dataclass(frozen=True)
class Attempt:
    """One detection or identification attempt, worked out."""

    method: Method
    limit_cm: float
    modifiers: Breakdown
    total: int
    chance: Fraction


def success_chance(search: Search, modifier: int) -> Fraction:
    """Chance that the die plus ``modifier`` reaches the table's success score."""
    return at_least(die_sides(search.die), modifier, search.success)


def attempt(tables: Tables, method: Method, searcher: UnitView, conditions: Conditions, *,
            target_aircraft: bool = False, range_cm: float | None = None,
            altitude: Altitude | None = None, land_behind: bool = False,
            vessels_between: int = 0) -> Attempt | None:
    """An attempt worked out, or None when the target lies beyond the searcher's limit."""
    search = table(tables, method)
    limit = limit_cm(search, searcher, target_aircraft=target_aircraft, fog=conditions.fog,
                     altitude=altitude)
    if range_cm is not None and range_cm > limit:
        return None
    breakdown = evaluate(search.modifiers, facts(searcher, conditions, land_behind=land_behind,
                                                 vessels_between=vessels_between))
    modifier = total(breakdown)
    return Attempt(method, limit, breakdown, modifier, success_chance(search, modifier))
