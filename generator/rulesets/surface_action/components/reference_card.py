"""The Surface Action reference card: the charts exactly as printed, then the rules in brief.

The charts come from ``charts.yaml`` (the calculator reads the same data); the small
print under them is ``templates/surface_action/chart-notes.md.j2`` and the rules summary
is quarterdeck's own text in ``templates/surface_action/reference.md.j2``, with every
number filled in from the charts in force (``--tables``).
"""

from __future__ import annotations

from reportlab.platypus import Flowable, Paragraph, Spacer

from generator.core.safetext import text as plain_text
from generator.core.units import MM
from generator.data.datamodel import NATION_NAMES
from generator.pages.component import Bookmark, Component
from generator.pages.layout import Paper
from generator.pages.markup import markup_to_flowables, safe_markup
from generator.pages.pages import Block
from generator.pages.tablestyle import Anchor, data_table, render_flow, styles
from generator.pages.templating import render_blocks, render_text
from generator.rulesets.surface_action.charts import Chart, Charts

BLANK = "—"
"""Printed for a blank chart cell (no effect apart from a fire on a natural 6)."""


def chart_rows(chart: Chart) -> list[list[str]]:
    """A damage chart's body rows as printed: the roll, then each column's cell."""
    return [[str(roll), *[cell or BLANK for cell in row]]
            for roll, row in enumerate(chart.rows, 1)]


NOTES = "surface_action/chart-notes.md.j2"
NOTE_BLOCKS = ("long_range", "floor", "blank", "fires", "thresholds", "checks_title", "night",
               "turning")


def chart_notes(charts: Charts, chart: Chart | None = None) -> dict[str, str]:
    """The small print under the charts, by block name, as paragraph markup."""
    return {key: safe_markup(text.strip()) for key, text in
            render_blocks(NOTES, NOTE_BLOCKS, charts=charts, chart=chart, blank=BLANK,
                          nations=NATION_NAMES).items()}


def _chart(charts: Charts, chart: Chart, note: str) -> list[Flowable | Block]:
    st = styles()
    widths = [10, *[24] * len(chart.columns)]
    out: list[Flowable | Block] = [Paragraph(plain_text(chart.title), st["h3"]),
                                   data_table(["Roll", *chart.columns], chart_rows(chart),
                                              widths)]
    text = " ".join(t for t in (chart_notes(charts, chart)["long_range"], note) if t)
    if text:
        out.append(Paragraph(text, st["small"]))
    return out


def chart_flowables(charts: Charts) -> list[Flowable | Block]:
    """Every chart and table of numbers the card prints, in reading order."""
    st = styles()
    out: list[Flowable | Block] = [Anchor("Damage charts"),
                                   Paragraph("Surface Action: charts", st["h1"])]
    notes = chart_notes(charts)
    torpedo_note = plain_text(charts.columns.torpedo_default_note)
    for key, chart in charts.damage_charts.items():
        note = notes["floor"] if chart.long_range else torpedo_note
        out += _chart(charts, chart, note if key != "carrier" else notes["floor"])
        out.append(Spacer(1, 1.5 * MM))
    out.append(Paragraph(notes["blank"], st["small"]))
    legend = [[letter, text] for letter, text in charts.results.items()]
    out += [Paragraph("Hit results", st["h3"]),
            data_table(["Hit", "Effect"], legend, [14, 110])]
    out.append(Paragraph(notes["fires"], st["small"]))
    out.append(Paragraph(notes["thresholds"], st["small"]))
    checks = charts.hit_checks
    out += [Paragraph(notes["checks_title"], st["h3"]),
            data_table(["Hit", "Explosion, ship sinks", "Fire starts"],
                       [[letter, _faces(check.explosion), _faces(check.fire)]
                        for letter, check in (("M", checks.M), ("S", checks.S))],
                       [14, 50, 50])]
    movement = charts.random_movement
    out += [Anchor("Random Movement Chart"), Paragraph(plain_text(movement.title), st["h3"]),
            data_table(["Roll (2D6)", "Result"], [[r.roll, r.result] for r in movement.rows],
                       [24, 50])]
    night = charts.night_sighting
    values = [[NATION_NAMES.get(code, code),
               str(value) + (" (default)" if code in night.defaults else "")]
              for code, value in night.values.items()]
    values.append(["All other navies", str(night.other)])
    out += [Paragraph("Night sighting value by navy", st["h3"]),
            data_table(["Navy", "Roll at or under"], values, [40, 40]),
            Paragraph(notes["night"], st["small"])]
    rows = []
    for generation, rule in charts.maneuver.items():
        half = "any turn" if rule.half_on_any_turn else f"{rule.half:.0%} of the move"
        none = f"{rule.none:.0%} of the move" if rule.none is not None else "never"
        rows.append([generation, half, none])
    out += [Paragraph("Turning and gunfire", st["h3"]),
            data_table(["Fire control", "Half strength from", "No gunfire from"], rows,
                       [26, 40, 40]),
            Paragraph(notes["turning"], st["small"])]
    return out


def _faces(faces: list[int]) -> str:
    return ", ".join(map(str, faces)) if faces else BLANK


def render_reference_card(charts: Charts, paper: Paper, footer: str) -> Component:
    """The charts, then the rules summary, as one component (key ``card``)."""
    story = chart_flowables(charts)
    text = render_text("surface_action/reference.md.j2", charts=charts)
    story += [Anchor("Rules in brief"), *markup_to_flowables(text)]
    result = render_flow(story, paper, "Surface Action reference card", footer)
    marks = [Bookmark(title, page, top) for title, page, top in result.anchors]
    return Component("card", "Reference card", "Card-", result.pdf, result.pages, marks,
                     two_sided=True)
