"""The Naval Warfare reference card: the rules in brief and every table, cell for cell.

The prose is quarterdeck's own (``templates/naval_warfare/reference.md.j2``), with
every number filled in from the tables in force; the tables (units, combat modifiers,
damage table, colour table, loss table, supply and transport) are drawn from the same
YAML the calculators read. Readings of what the text garbles are marked DEFAULT.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from reportlab.lib import colors

from generator.core.units import MM
from generator.kit.seam import Context
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.pages.markup import markup_onto
from generator.pages.templating import render_text
from generator.rules.defaults import LABEL
from generator.rules.defaults import note as default_note
from generator.rulesets.naval_warfare.merchanttables import rate
from generator.rulesets.naval_warfare.registry import COMPONENTS
from generator.rulesets.naval_warfare.ruletables import RuleTables
from generator.rulesets.naval_warfare.units import UnitType

if TYPE_CHECKING:
    from generator.rulesets.naval_warfare.ruleset import Derived

TEMPLATE = "naval_warfare/reference.md.j2"
MARK = "*"
_SLOT = re.compile(r"^%% ([a-z]+)\s*$", re.MULTILINE)
TINTS = {
    "Red": colors.Color(0.96, 0.72, 0.72), "Orange": colors.Color(0.98, 0.84, 0.66),
    "Yellow": colors.Color(0.99, 0.95, 0.62), "Blue": colors.Color(0.74, 0.84, 0.97),
    "Green": colors.Color(0.75, 0.92, 0.75),
}


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def unit_grid(units: dict[str, UnitType]) -> Grid:
    """The unit table: the three values, the damaged values, the range, the Air Point carried."""
    # Only ship units have a damaged side: an Air Point goes at its first step.
    rows = [[u.name, str(u.fleet), str(u.attack), str(u.defence),
             f"{u.fleet // 2}-{u.attack // 2}-{u.defence // 2}" if u.kind == "ship" else "—",
             str(u.range),
             "1 Air Point" if u.carries else ""]
            for u in units.values()]
    header: list[list[str | None]] = [["Unit type", "Fleet operations", "Commerce attack",
                                       "Commerce defence", "Damaged", "Range", "Carries"]]
    widths = [62 * MM, 22 * MM, 22 * MM, 24 * MM, 18 * MM, 14 * MM, 28 * MM]
    return Grid(widths, header, rows, aligned(1, len(widths)), size=7.5)


def modifier_grid(rules: RuleTables) -> tuple[Grid, bool]:
    """The damage roll's modifiers; True when one of them is a DEFAULT reading."""
    mods = rules.combat.combat_modifiers
    rows = [[m.label, _signed(m.value) + (f" {LABEL} {MARK}" if m.default else "")]
            for m in mods.values()]
    header: list[list[str | None]] = [["Die-roll modifier (each side)", "Value"]]
    return (Grid([80 * MM, 22 * MM], header, rows, ["left", "center"], size=7.5),
            any(m.default for m in mods.values()))


def damage_grid(rules: RuleTables) -> Grid:
    """The damage table as the text prints it: CV down, modified roll across."""
    table = rules.combat.damage_table
    rows = [[str(cv), *[str(c) for c in cells]] for cv, cells in sorted(table.rows.items())]
    header: list[list[str | None]] = [["CV", "Modified d6 roll: steps inflicted",
                                       *[None] * (len(table.headings) - 1)],
                                      ["", *table.headings]]
    width = (190 - 12) / len(table.headings)
    widths = [12 * MM, *[width * MM] * len(table.headings)]
    return Grid(widths, header, rows, aligned(0, len(widths)), size=7.5,
                spans=[(0, 1, len(table.headings))])


def colour_grid(rules: RuleTables) -> tuple[Grid, bool]:
    """The colour result table, cell for cell; DEFAULT cells carry the mark."""
    colours = rules.merchant.colour_table
    headings = colours.table.headings
    rows = []
    marked = False
    for key, label, cells in colours.ordered_rows():
        row = [label]
        for heading, cell in zip(headings, cells, strict=True):
            if colours.is_default(key, heading):
                marked = True
                row.append(f"{cell} {MARK}")
            else:
                row.append(cell)
        rows.append(row)
    tints = {**TINTS, **{f"{k} {MARK}": v for k, v in TINTS.items()}}
    header: list[list[str | None]] = [["Dice", "Odds, raiders : escorts",
                                       *[None] * (len(headings) - 1)],
                                      ["difference", *colours.column_labels]]
    widths = [20 * MM, *[18 * MM] * len(headings)]
    return (Grid(widths, header, rows, aligned(1, len(widths)), size=7.5, tints=tints,
                 spans=[(0, 1, len(headings))]), marked)


def _percent(value: int) -> str:
    return f"{value}%" if value else "Nil"


def _tonnage(text: str) -> str:
    value = rate(text)
    if value == 0:
        return "Nil"
    if value.denominator != 1:
        return f"{value.numerator} per {value.denominator} units (round down)"
    return f"{value.numerator} per unit"


def loss_grid(rules: RuleTables) -> Grid:
    """The loss table, cell for cell."""
    rows = [[line.name, _percent(line.raider_surface), _percent(line.raider_subs),
             _percent(line.escort), _tonnage(line.tonnage_german_subs),
             _tonnage(line.tonnage_other)]
            for line in rules.merchant.losses.values()]
    header: list[list[str | None]] = [
        ["Colour", "Raider steps, % of escort CV", None, "Escort steps,",
         "Tonnage Points lost", None],
        ["", "Surface", "Submarines", "% of raider CV", "German submarines",
         "All other raiders"]]
    widths = [24 * MM, 22 * MM, 22 * MM, 24 * MM, 46 * MM, 46 * MM]
    tints = {line.name: TINTS[key] for key, line in rules.merchant.losses.items()
             if key in TINTS}
    return Grid(widths, header, rows, aligned(1, len(widths)), size=7.5, tints=tints,
                spans=[(0, 1, 2), (0, 4, 5)])


def supply_grid(rules: RuleTables) -> Grid:
    """Supply effectiveness by route length."""
    rows = [[s.length, s.name, f"× {s.factor}"] for s in rules.merchant.supply_effectiveness]
    header: list[list[str | None]] = [["Route length", "Route chart", "Tonnage carried"]]
    return Grid([70 * MM, 20 * MM, 30 * MM], header, rows, ["left", "center", "center"],
                size=7.5)


def transport_grid(rules: RuleTables) -> Grid:
    """What one Tonnage Point on a route carries."""
    rows = [[t.cargo, t.per_point] for t in rules.merchant.transport]
    header: list[list[str | None]] = [["Cargo", "Moved by one Tonnage Point"]]
    return Grid([90 * MM, 60 * MM], header, rows, ["left", "left"], size=7.5)


def render_reference(rules: RuleTables, units: dict[str, UnitType], paper: Paper,
                     footer: str) -> Component:
    """The reference card (key ``reference-card``)."""
    naval = max((u.range for u in units.values() if u.fleet and u.range), default=0)
    text = render_text(TEMPLATE, combat=rules.combat, merchant=rules.merchant, units=units,
                       naval_range=naval)
    doc = CanvasDoc(paper, "Naval Warfare reference card", footer)
    mods, mods_default = modifier_grid(rules)
    colours, colours_default = colour_grid(rules)
    note = {
        "modifiers": (default_note("the text lost the sign of these modifiers; each is read "
                                   "as a penalty; game control may replace them.", MARK)
                      if mods_default else ""),
        "colours": (default_note("this cell is blank in the text; read as the 1:1 column one "
                                 "row lower, which the 3:2 column matches everywhere else. "
                                 "Game control may replace it.", MARK)
                    if colours_default else ""),
    }
    grids = {"units": unit_grid(units), "modifiers": mods, "damage": damage_grid(rules),
             "colours": colours, "losses": loss_grid(rules), "supply": supply_grid(rules),
             "transport": transport_grid(rules)}
    parts = _SLOT.split(text)
    for index, part in enumerate(parts):
        if index % 2:
            grid = grids.get(part)
            if grid is None:
                continue
            doc.ensure(grid.height() + 6 * MM)
            doc.space(1.5)
            doc.grid(grid)
            if note.get(part):
                doc.space(0.8)
                doc.paragraph(note[part])
            doc.space(2)
            continue
        markup_onto(doc, part, body="small", bookmark_headings=True)
    pdf, pages = doc.finish()
    return Component("reference-card", "Reference card", "Ref-", pdf, pages, doc.bookmarks)


@COMPONENTS("reference-card")
def reference_card(ctx: Context[Derived], arg: str | None) -> Component:
    """The reference card, from the tables in force (``--tables``)."""
    from generator.rulesets.naval_warfare import ruletables
    from generator.rulesets.naval_warfare.units import load_units

    rules = ruletables.load(ctx.options.tables)
    return render_reference(rules, load_units(), ctx.paper, ctx.data.foot)
