"""The Naval Warfare catalog: every unit type with its game values.

Naval Warfare rates no ship classes: its pieces are unit types (a Heavy Ship Group is
four ships and their escorts). ``quarterdeck catalog --ruleset naval-warfare`` prints
each type's three combat values, its damaged values, its steps, its range and what it
carries, then the land units a minor invasion fights with, all from the tables in force.
"""

from __future__ import annotations

from generator.core.safetext import text
from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.rulesets.naval_warfare.units import UnitType

TITLE = "Naval Warfare 1942–45: unit types and their game values"


def _steps(unit: UnitType) -> str:
    return "2" if unit.kind == "ship" else "1"


def catalog_rows(units: dict[str, UnitType]) -> list[list[str]]:
    """One row per unit type, in the text's order."""
    rows = []
    for u in units.values():
        reach = str(u.range) + (f", later {u.later_range}" if u.later_range is not None else "")
        air = units.get(u.carries or "")
        carries = f"1 Air Point ({air.fleet}-{air.attack}-{air.defence})" if air else "—"
        damaged = f"{u.fleet // 2}-{u.attack // 2}-{u.defence // 2}" if u.kind == "ship" else "—"
        rows.append([u.name, u.code, str(u.fleet), str(u.attack), str(u.defence), damaged,
                     _steps(u), reach, carries])
    return rows


def land_rows(manpower: int, tank: int, garrison: int) -> list[list[str]]:
    """The land units of a minor invasion: fleet CV and steps."""
    return [["Manpower point", str(manpower), "1", "lands from a Landing Craft Group"],
            ["Tank point", str(tank), "1", "lands from a Landing Craft Group"],
            ["Garrison", str(garrison), "1", "fights as one manpower point; static"]]


def render_catalog(units: dict[str, UnitType], manpower: int, tank: int, garrison: int,
                   japan_air: int, paper: Paper) -> Component:
    """The catalog page (key ``catalog``)."""
    doc = CanvasDoc(paper, TITLE, f"quarterdeck · {TITLE}")
    doc.anchor(TITLE)
    doc.paragraph(text(TITLE), "h1")
    doc.paragraph(text(
        "Naval Warfare counts fleets, not single ships: each counter is a unit type with "
        "three combat values (fleet operations, commerce attack, commerce defence). A "
        "damaged ship unit fights at half of each, rounded down; Air Points, garrisons and "
        "land troops are removed at their first step. Range is in sea areas from the "
        f"unit's fleet base; Japan's land-based Air Points reach {japan_air}."), "body")
    doc.space(2)
    header: list[list[str | None]] = [["Unit type", "Code", "Fleet", "Attack", "Defence",
                                       "Damaged", "Steps", "Range", "Carries"]]
    widths = [w * MM for w in (58, 14, 12, 13, 14, 16, 11, 17, 31)]
    doc.grid(Grid(widths, header, catalog_rows(units), aligned(1, len(widths)), size=8,
                  wrap=frozenset({0, 8})))
    doc.space(3)
    doc.paragraph("Land units in a minor invasion", "h2")
    doc.grid(Grid([w * MM for w in (58, 20, 14, 94)], [["Unit", "Fleet CV", "Steps", "Note"]],
                  land_rows(manpower, tank, garrison), aligned(1, 3) + ["left"], size=8))
    pdf, pages = doc.finish()
    return Component("catalog", "Unit types", "Units-", pdf, pages, [])
