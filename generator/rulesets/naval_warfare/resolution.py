"""The Naval Warfare resolution tables: exact odds for naval combat and the merchant war.

Every chance is exact (fractions from the shared dice engine), worked from the tables
in force (``tables/combat.yaml``, ``tables/merchant.yaml`` or a ``--tables`` file),
the same data the reference card prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.safetext import text
from generator.core.units import MM
from generator.kit.seam import Context
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.pages.pages import Recorded
from generator.rules.dice import percent
from generator.rulesets.naval_warfare import combat
from generator.rulesets.naval_warfare.merchant import Calculator
from generator.rulesets.naval_warfare.merchanttables import COLOURS
from generator.rulesets.naval_warfare.registry import COMPONENTS
from generator.rulesets.naval_warfare.ruletables import RuleTables
from generator.rulesets.naval_warfare.units import UnitType

if TYPE_CHECKING:
    from generator.rulesets.naval_warfare.ruleset import Derived

NONE = "–"
BATTLE_CVS = (2, 4, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60)
LARGE_CVS = (21, 25, 30, 35, 40, 45, 50, 55, 60, 70, 80, 100)
LARGE_MODIFIERS = range(-4, 5)
MERCHANT_MODIFIERS = range(-11, 12)


def _pct(p: Fraction) -> str:
    """A chance as a bare per cent with one decimal ("16.7"), "–" when impossible."""
    return percent(p, 1).rstrip("%") if p else NONE


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def modifier_label(value: int, span: range) -> str:
    """A net modifier as printed; the ends of the span stand for everything beyond."""
    if value == span.start:
        return f"{value:+d} or less"
    if value == span.stop - 1:
        return f"{value:+d} or more"
    return _signed(value)


def steps_grid(table: combat.DamageTable, modifier: int, most: int) -> Grid:
    """Chance of each count of steps inflicted, by CV, for one net modifier."""
    rows = []
    for cv in range(1, table.cv_per_die + 1):
        dist = combat.steps_distribution(table, cv, modifier)
        mean = sum((n * p for n, p in dist.items()), Fraction(0))
        rows.append([str(cv), *[_pct(dist.get(n, Fraction(0))) for n in range(most + 1)],
                     f"{float(mean):.2f}"])
    header: list[list[str | None]] = [["CV", *[str(n) for n in range(most + 1)], "Mean"]]
    widths = [6.5 * MM, *[7.6 * MM] * (most + 1), 8.5 * MM]
    return Grid(widths, header, rows, aligned(0, len(widths)), size=7)


def side_by_side(grids: Sequence[tuple[str, Grid]], gap: float = 3 * MM) -> Recorded:
    """Grids drawn next to each other, each under its own small heading."""
    def paint(canvas: Canvas, width: float) -> float:
        x = 0.0
        tallest = 0.0
        for title, grid in grids:
            canvas.setFont(fonts.BOLD, 8)
            canvas.drawString(x, -8, title)
            height = grid.draw(canvas, x, -11)
            tallest = max(tallest, height + 11)
            x += grid.width + gap
        return tallest + 3 * MM

    return Recorded(paint)


def large_grid(table: combat.DamageTable) -> Grid:
    """Mean steps inflicted by large forces (one die per 20 CV or part) by net modifier."""
    rows = []
    for cv in LARGE_CVS:
        split = "+".join(map(str, combat.dice_rows(cv, table.cv_per_die)))
        rows.append([str(cv), split,
                     *[f"{float(combat.expected_steps(table, cv, m)):.2f}"
                       for m in LARGE_MODIFIERS]])
    header: list[list[str | None]] = [["CV", "Dice on rows",
                                       *[_signed(m) for m in LARGE_MODIFIERS]]]
    widths = [10 * MM, 26 * MM, *[12 * MM] * len(LARGE_MODIFIERS)]
    return Grid(widths, header, rows, aligned(2, len(widths)), size=7.5)


def battle_grid(rules: RuleTables) -> Grid:
    """Chance each side inflicts more steps, by both CVs (ratio modifiers applied)."""
    rows = []
    for own in BATTLE_CVS:
        row = [str(own)]
        for enemy in BATTLE_CVS:
            odds = combat.battle_between(rules.combat, combat.Side(own), combat.Side(enemy))
            row.append(f"{_whole(odds.first_more)}/{_whole(odds.second_more)}")
        rows.append(row)
    header: list[list[str | None]] = [["CV", *[str(cv) for cv in BATTLE_CVS]]]
    widths = [10 * MM, *[13.5 * MM] * len(BATTLE_CVS)]
    return Grid(widths, header, rows, aligned(1, len(widths)), size=7.5)


def _whole(p: Fraction) -> str:
    """A chance in whole per cent; '<1' and '>99' where rounding would say 0 or 100."""
    if p == 0:
        return "0"
    if p == 1:
        return "100"
    value = round(float(p) * 100)
    return "<1" if value == 0 else ">99" if value == 100 else str(value)


def merchant_grid(calc: Calculator, column: int) -> Grid:
    """One odds column: chance of each colour and the expected rates, by net modifier."""
    rows = []
    for modifier in MERCHANT_MODIFIERS:
        chances = calc.colour_odds(column, modifier)
        rates = calc.expected_rates(chances)
        rows.append([modifier_label(modifier, MERCHANT_MODIFIERS),
                     *[_pct(chances.get(c, Fraction(0))) for c in COLOURS],
                     f"{float(rates['tonnage_german_subs']):.2f}",
                     f"{float(rates['tonnage_other']):.2f}",
                     f"{float(rates['escort']):.1f}",
                     f"{float(rates['raider_surface']):.1f}",
                     f"{float(rates['raider_subs']):.1f}"])
    header: list[list[str | None]] = [
        ["Die", "Chance of each colour, %", None, None, None, None, "Tonnage per unit", None,
         "Escort steps", "Raider steps", None],
        ["modifier", *COLOURS, "German subs", "Others", "% raider CV", "% (surface)",
         "% (subs)"]]
    widths = [18 * MM, *[12 * MM] * 5, *[17 * MM] * 2, *[18 * MM] * 3]
    return Grid(widths, header, rows, aligned(1, len(widths)), size=7.5,
                spans=[(0, 1, 5), (0, 6, 7), (0, 9, 10)])


def render_resolution(rules: RuleTables, units: dict[str, UnitType], paper: Paper,
                      footer: str) -> Component:
    """The resolution tables (key ``resolution-tables``)."""
    table = rules.combat.damage_table
    doc = CanvasDoc(paper, "Naval Warfare resolution tables", footer)
    doc.anchor("Resolution tables")
    doc.paragraph("Naval Warfare 1942-45: resolution tables", "h1")
    doc.paragraph(
        "Every chance below is exact, worked from the damage table, the colour table and "
        "the loss table printed on the reference card (or the tables you supplied). "
        "Chances are per cent; – means it cannot happen.")

    doc.anchor("Naval combat: steps inflicted")
    doc.paragraph("Naval combat: steps inflicted by one side", "h2")
    span = combat.modifier_span(table)
    doc.paragraph(
        f"Total the Task Force's CV and add up its die modifiers (the net modifier). Each "
        f"grid gives, for one net modifier, the chance of inflicting each number of steps "
        f"with one die (CV {table.cv_per_die} or less), and the mean. Past "
        f"{modifier_label(span.start, span)} and {modifier_label(span.stop - 1, span)} "
        "every roll reads the end column, so the ends stand for everything beyond.")
    doc.space(2)
    most = max(max(r) for r in table.rows.values())
    titled = [(f"Net modifier {modifier_label(m, span)}", steps_grid(table, m, most))
              for m in span]
    for start in range(0, len(titled), 3):
        doc.add(side_by_side(titled[start:start + 3]))

    doc.anchor("Naval combat: more than 20 CV")
    doc.paragraph(f"Naval combat: more than {table.cv_per_die} CV", "h2")
    doc.paragraph(
        f"One die for each full {table.cv_per_die} CV, read on the {table.cv_per_die} row, and "
        "one more for what is left over, read on its own row; every die takes the same net "
        "modifier and the steps are added (quarterdeck's reading of the text's rule). Mean "
        "steps inflicted, by net modifier:")
    doc.space(1.5)
    doc.grid(large_grid(table))
    doc.space(3)

    doc.anchor("Naval combat: battles")
    doc.paragraph("Naval combat: which side inflicts more", "h2")
    doc.paragraph(
        "Both Task Forces roll at once. A cell reads <b>more/less</b>: the chance in per "
        "cent that the side on the left inflicts more steps than the side across the top, "
        "then the chance it inflicts fewer (the rest is a tie). The outnumbering modifiers "
        "that follow from the two CVs are applied; add no others.")
    doc.space(1.5)
    doc.grid(battle_grid(rules))
    doc.space(3)

    calc = Calculator(rules.merchant, units)
    colours = rules.merchant.colour_table
    grids = [merchant_grid(calc, index) for index in range(len(colours.column_labels))]
    doc.ensure(grids[0].height() + 40 * MM)
    doc.anchor("Merchant warfare")
    doc.paragraph("Merchant warfare: colours and losses", "h2")
    doc.paragraph(
        "One grid per odds column, read after column shifts. Die modifier: the raiders' "
        "Advantage Card bonus less the escorts'. Tonnage per unit: the Tonnage Points "
        "each interdicting unit costs the route on average, before rounding down. Steps: "
        "the average loss rate, as a per cent of the enemy's CV, before rounding down.")
    for label, grid in zip(colours.column_labels, grids, strict=True):
        doc.ensure(grid.height() + 10 * MM)
        doc.anchor(f"Odds {label}")
        doc.paragraph(f"Odds {text(label)}", "h3")
        doc.grid(grid)
        doc.space(2)
    pdf, pages = doc.finish()
    return Component("resolution-tables", "Resolution tables", "Odds-", pdf, pages,
                     doc.bookmarks)


@COMPONENTS("resolution-tables")
def resolution_tables(ctx: Context[Derived], arg: str | None) -> Component:
    """The exact resolution tables, from the tables in force (``--tables``)."""
    from generator.rulesets.naval_warfare import ruletables
    from generator.rulesets.naval_warfare.units import load_units

    rules = ruletables.load(ctx.options.tables)
    return render_resolution(rules, load_units(), ctx.paper, ctx.data.foot)
