"""The comparative-strength sheet: what every loss is worth, and a tally to fill in."""

from __future__ import annotations

from fractions import Fraction
from xml.sax.saxutils import escape

from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.rulesets.naval_action.derive import ShipView
from generator.rulesets.naval_action.rules import load_rules
from generator.rulesets.naval_action.schema import Scenario
from generator.rulesets.naval_action.victory import (
    cs_fraction,
    loss_multipliers,
    number,
    points,
    ship_values,
    strength_totals,
)


def render_victory(scenario: Scenario, views: dict[str, list[ShipView]],
                   hd_share: tuple[int, int], paper: Paper, footer: str) -> Component:
    """The referee's victory sheet.

    Args:
        scenario: The scenario.
        views: Ships by side id.
        hd_share: Share of a ship's value scored for heavy damage (numerator, denominator).
        paper: Paper size.
        footer: Footer text.

    Returns:
        The component (key ``victory``).

    """
    share = Fraction(*hd_share)
    leave_out = [t.value for t in load_rules().strength_leaves_out]
    totals = strength_totals({s.id: views[s.id] for s in scenario.sides}, leave_out)
    mult = loss_multipliers(totals, scenario.strength_ratio)
    doc = CanvasDoc(paper, "Victory", footer)
    doc.anchor("Victory")
    doc.paragraph(f"{escape(scenario.name)}: victory points", "h1")
    strengths = "; ".join(f"{escape(s.name)} {number(totals[s.id])}" for s in scenario.sides)
    left_out = ", ".join(leave_out)
    if scenario.strength_ratio:
        how = ("This scenario uses the strength ratio: each ship the stronger side loses is "
               "worth its CS times the ratio to the other side, while the weaker side's "
               "losses count at their plain CS.")
    else:
        how = ("This scenario does not use the strength ratio: every loss scores its plain "
               "CS.")
    doc.paragraph(
        f"Comparative strength (CS) of the fighting ships ({left_out} left out): "
        f"{strengths}. {how} A heavily damaged (HD) ship scores "
        f"{share.numerator}/{share.denominator} of its value. Decide before play whether HD "
        "counts as a loss (a cripple deep in enemy waters may be doomed). Values the "
        "scenario agreed for single ships, such as transports, are scored as they stand. "
        "Tick each loss; add up at the end.", "body")
    ex = loss_multipliers({"a": Fraction(10), "b": Fraction(4)})
    doc.paragraph(
        f"Check: 10 CS of cruisers against 4 of destroyers is a ratio of {number(ex['a'])}; "
        f"one ship sunk on each side scores {number(Fraction(5) * ex['a'])} for the "
        f"destroyers and {number(Fraction(2) * ex['b'])} for the cruisers.")
    for side in scenario.sides:
        agreed = {v.name: cs_fraction(v.victory_value) for v in views[side.id]
                  if v.victory_value is not None}
        values = ship_values([(v.name, v.cls.name, v.cls.type.value,
                               cs_fraction(v.comparative_strength))
                              for v in views[side.id]], mult[side.id], share, agreed)
        enemy = " and ".join(escape(s.name) for s in scenario.sides if s.id != side.id)
        doc.space(2)
        doc.anchor(side.name)
        doc.paragraph(f"{escape(side.name)}: losses score for {enemy} (× {number(mult[side.id])})",
                      "h2")
        # A left-out type's CS is shown as a dash so the column adds up to the total.
        rows = [[v.name, f"{v.cls} {v.type}",
                 "–" if v.type in leave_out else number(v.cs), number(v.if_sunk),
                 number(v.if_hd), "", ""] for v in values]
        rows.append(["Total", "", number(totals[side.id]),
                     number(points(values, [v.name for v in values], [])), "", "", ""])
        header: list[list[str | None]] = [["Ship", "Class", "CS", "If sunk", "If HD",
                                           "Sunk", "HD"]]
        aligns = aligned(2, 7)
        doc.grid(Grid([w * MM for w in [42, 52, 14, 20, 20, 20, 20]], header, rows, aligns,
                      size=8))
        doc.space(2)
        doc.paragraph(f"Points {enemy} scored from these losses: ______________", "body")
    pdf, pages = doc.finish()
    return Component("victory", "Victory points", "Victory-", pdf, pages, doc.bookmarks[1:])
