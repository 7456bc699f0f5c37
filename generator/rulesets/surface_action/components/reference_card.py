"""The Surface Action reference card: the charts exactly as printed, then the rules in brief.

The charts come from ``charts.yaml`` (the calculator reads the same data); the rules
summary is quarterdeck's own text in ``templates/surface_action/reference.md.j2``, with
every number filled in from the same data.
"""

from __future__ import annotations

from reportlab.platypus import Flowable, Paragraph, Spacer

from generator.datamodel import NATION_NAMES
from generator.layout import Paper
from generator.packets import Bookmark, Component
from generator.rulesets.surface_action.charts import Chart, Charts
from generator.tablestyle import Anchor, data_table, render_flow, styles
from generator.templating import markup_to_flowables, render_text
from generator.units import MM

BLANK = "—"
"""Printed for a blank chart cell (no effect apart from a fire on a natural 6)."""


def chart_rows(chart: Chart) -> list[list[str]]:
    """A damage chart's body rows as printed: the roll, then each column's cell."""
    return [[str(roll), *[cell or BLANK for cell in row]]
            for roll, row in enumerate(chart.rows, 1)]


def _chart(chart: Chart, note: str) -> list[Flowable]:
    st = styles()
    widths = [10, *[24] * len(chart.columns)]
    out: list[Flowable] = [Paragraph(chart.title, st["h3"]),
                           data_table(["Roll", *chart.columns], chart_rows(chart), widths)]
    if chart.long_range is not None:
        out.append(Paragraph(f"{chart.long_range.modifier:+d} to the die roll at ranges beyond "
                             f"{chart.long_range.beyond_in:g} inches. {note}", st["small"]))
    elif note:
        out.append(Paragraph(note, st["small"]))
    return out


def chart_flowables(charts: Charts) -> list[Flowable]:
    """Every chart and table of numbers the card prints, in reading order."""
    st = styles()
    out: list[Flowable] = [Anchor("Damage charts"),
                           Paragraph("Surface Action: charts", st["h1"])]
    floor = (f"A modified roll below {charts.lowest_roll} reads row {charts.lowest_roll} "
             "(quarterdeck default).")
    for key, chart in charts.damage_charts.items():
        note = floor if chart.long_range else charts.columns.torpedo_default_note
        out += _chart(chart, note if key != "carrier" else floor)
        out.append(Spacer(1, 1.5 * MM))
    out.append(Paragraph(f"{BLANK}: no effect (a natural 6 still starts a fire).", st["small"]))
    legend = [[letter, text] for letter, text in charts.results.items()]
    out += [Paragraph("Hit results", st["h3"]), data_table(["Hit", "Effect"], legend, [14, 110])]
    fires = charts.fires
    readied = ", ".join(f"{n} on a {roll}" for roll, n in sorted(fires.readied_planes.items()))
    out.append(Paragraph(
        f"Fires: natural {', '.join(map(str, fires.natural))} on any chart; carriers "
        f"{' or '.join(map(str, fires.carriers))}; carriers with readied planes: {readied}. "
        f"A fire roll of {' or '.join(map(str, fires.spread_on))} also rolls on the gunfire "
        "chart.", st["small"]))
    limits = charts.thresholds
    out.append(Paragraph(
        f"{limits.crippled.get('P')} P or {limits.crippled.get('F')} F hits: no guns, torpedoes "
        f"or aircraft. {limits.sinks.get('P')} P hits: sinks. {limits.abandoned.get('F')} F "
        "hits: abandoned.", st["small"]))
    checks = charts.hit_checks
    out += [Paragraph("Checks after M and S hits" + (" (quarterdeck default; a scenario may "
                                                   "set its own by navy)" if checks.default
                                                   else ""), st["h3"]),
            data_table(["Hit", "Explosion, ship sinks", "Fire starts"],
                       [[letter, _faces(check.explosion), _faces(check.fire)]
                        for letter, check in (("M", checks.M), ("S", checks.S))],
                       [14, 50, 50])]
    movement = charts.random_movement
    out += [Anchor("Random Movement Chart"), Paragraph(movement.title, st["h3"]),
            data_table(["Roll (2D6)", "Result"], [[r.roll, r.result] for r in movement.rows],
                       [24, 50])]
    night = charts.night_sighting
    values = [[NATION_NAMES.get(code, code),
               str(value) + (" (default)" if code in night.defaults else "")]
              for code, value in night.values.items()]
    values.append(["All other navies", str(night.other)])
    out += [Paragraph("Night sighting value by navy", st["h3"]),
            data_table(["Navy", "Roll at or under"], values, [40, 40]),
            Paragraph(night.default_note + " Commonwealth navies use the Royal Navy line.",
                      st["small"])]
    rows = []
    for generation, rule in charts.maneuver.items():
        half = "any turn" if rule.half_on_any_turn else f"{rule.half:.0%} of the move"
        none = f"{rule.none:.0%} of the move" if rule.none is not None else "never"
        rows.append([generation, half, none])
    move = charts.movement
    small, small_cost = move.small_circle_in, move.small_cost_in
    large, large_cost = move.large_circle_in, move.large_cost_in
    out += [Paragraph("Turning and gunfire", st["h3"]),
            data_table(["Fire control", "Half strength from", "No gunfire from"], rows,
                       [26, 40, 40]),
            Paragraph(f"Turning circle {small:g} in, {small_cost:g} in of movement per 30° or "
                      f"part; BB and BC {large:g} in, {large_cost:g} in per 30°.", st["small"])]
    return out


def _faces(faces: list[int]) -> str:
    return ", ".join(map(str, faces)) if faces else BLANK


def render_reference_card(charts: Charts, paper: Paper, footer: str) -> Component:
    """The charts, then the rules summary, as one component (key ``card``)."""
    story = chart_flowables(charts)
    text = render_text("surface_action/reference.md.j2", escape=False,
                       t=charts.model_dump(mode="python"))
    story += [Anchor("Rules in brief"), *markup_to_flowables(text)]
    result = render_flow(story, paper, "Surface Action reference card", footer)
    marks = [Bookmark(title, page, top) for title, page, top in result.anchors]
    return Component("card", "Reference card", "Card-", result.pdf, result.pages, marks)
