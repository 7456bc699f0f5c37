"""NAVAL ACTION precision aids on paper: rulers, range strings and tapes, gauges."""

from __future__ import annotations

import io
from collections.abc import Sequence
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle

from generator.aids.gauges import draw_protractor, draw_turn_gauge
from generator.aids.strips import SegmentView, max_strip_height, render_strips, start_page
from generator.core.scales import Scale
from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Bookmark, Component
from generator.pages.layout import Paper, Pen, new_canvas, safe_box
from generator.rulesets.naval_action.aids import (
    RangeString,
    gauge_strips,
    movement_ruler,
    protractor_rings,
    range_ruler,
    tape,
)
from generator.rulesets.naval_action.cardtables import Tables

TIE_ALLOWANCE_CM = 10
"""Extra thread at each end to hold and to tie off, in cm (4 in on inch scales)."""
ASSEMBLY = ("Cut along the outer lines. Glue each numbered piece's grey tab under the end "
            "of the piece before it, edges on the join line and triangles meeting.")


def render_rulers(scale: Scale, longest_yd: int, top_speed: float, tables: Tables,
                  paper: Paper, footer: str) -> tuple[Component, list[SegmentView]]:
    """Range ruler and movement ruler at one scale (component ``rulers``)."""
    strips = [range_ruler(scale, longest_yd), movement_ruler(scale, top_speed, tables)]
    return render_strips(strips, paper, f"Rulers · {scale.describe()}", footer, "rulers",
                         "Rulers-", [ASSEMBLY])


def render_tapes(strings: Sequence[RangeString], scale: Scale, paper: Paper, footer: str,
                 key: str, title: str, label: str) -> tuple[Component, list[SegmentView]]:
    """Range tapes: each string's knots on a strip, to knot thread against or use as is."""
    strips = [tape(s, scale) for s in strings]
    notes = [ASSEMBLY, "Lay a thread along a tape and tie a knot at each dot, or measure "
             "with the tape itself; the colour bar at each end matches the string sheet."]
    return render_strips(strips, paper, title, footer, key, label, notes)


def _allowance(scale: Scale) -> str:
    return f"{TIE_ALLOWANCE_CM} cm" if scale.unit == "cm" else "4 in"


def render_string_sheet(strings: Sequence[RangeString], scale: Scale, side_name: str,
                        paper: Paper, footer: str, key: str, label: str) -> Component:
    """One side's range strings: colour, use, knots and cutting length of each."""
    doc = CanvasDoc(paper, f"Range strings: {side_name}", footer, calibration=True)
    doc.anchor(f"Range strings: {side_name}")
    doc.paragraph(f"Range strings · {escape(side_name)}", "h1")
    doc.paragraph(
        f"Scale <b>{escape(scale.describe())}</b>. One thread per colour. Measure every knot from "
        "the end you hold at the firing ship's bow point. Knots sit at whole "
        f"{'centimetres' if scale.unit == 'cm' else 'inches'}: the rules round every range "
        "limit and every measurement up, so a target short of a knot, or level with it, is "
        f"inside that band. Leave {_allowance(scale)} of spare thread beyond each end for "
        "holding and tying. The matching range tapes follow in this packet.")
    doc.space(2)
    indent = ParagraphStyle("indented", parent=doc.styles["small"], leftIndent=22 * MM)
    head = ParagraphStyle("indented-head", parent=doc.styles["h3"], leftIndent=22 * MM,
                          spaceBefore=0)
    c = doc.canvas
    pen = Pen(c)
    for string in strings:
        doc.ensure(24 * MM)
        top = doc.y
        knots = " · ".join(f"<b>{escape(k.label)} {k.units} {scale.unit}</b> ({escape(k.note)}, "
                           f"{k.yards:,} yd)" for k in string.knots)
        doc.paragraph(f"{escape(string.color_name)}: {escape(string.what)}, {string.length_units} "
                      f"{scale.unit} to the last knot", head)
        doc.paragraph(f"Knots: {knots}", indent)
        doc.paragraph(f"Used by: {escape(', '.join(string.users))}", indent)
        if string.default:
            doc.paragraph("Run from the <b>DEFAULT</b> torpedo_runs table (the rules give no "
                          "torpedo ranges): a class's <i>run_yd</i> or a --tables file "
                          "replaces it.", indent)
        c.setFillColor(string.color)
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.5)
        c.rect(doc.box.x, top - 10 * MM, 18 * MM, 8 * MM, stroke=1, fill=1)
        c.setFillColor(colors.black)
        pen.text(doc.box.x, top - 13.6 * MM, string.color_name, size=8, bold=True,
                 width=20 * MM)
        doc.y = min(doc.y, top - 16 * MM) - 2 * MM
        c.setStrokeColor(colors.Color(0.7, 0.7, 0.7))
        c.setLineWidth(0.3)
        c.line(doc.box.x, doc.y + 1 * MM, doc.box.right, doc.y + 1 * MM)
    pdf, pages = doc.finish()
    return Component(key, f"Range strings: {side_name}", label, pdf, pages, doc.bookmarks[1:])


def render_gauges(tables: Tables, scale: Scale, paper: Paper, footer: str,
                  ) -> Component:
    """The firing-arc protractor and the turn gauge, one page each (component ``gauges``)."""
    box = safe_box(paper)
    buffer = io.BytesIO()
    c = new_canvas(buffer, paper, "Gauges")
    rules = tables.rules
    bookmarks = [Bookmark("Firing-arc protractor", 0), Bookmark("Turn gauge", 1)]
    top, bottom = start_page(c, box, "Firing-arc protractor", footer, [
        "Print on card or transparency. Put the centre on the firing ship's bow point with "
        "0° along its course.",
        "Each ring is one battery position: tinted where it may fire, red where the rules "
        "forbid it (the angle is from the",
        "nearer centreline). L and R share a ring. Bearings count clockwise from the bow.",
    ])
    radius = min(box.width / 2 - 10 * MM, (top - bottom) / 2 - 10 * MM)
    draw_protractor(c, box.x + box.width / 2, bottom + (top - bottom) / 2, radius,
                    protractor_rings(rules))
    c.showPage()
    costs = tables.card.turn_costs
    lost = costs.lost(scale.yards_per_unit)
    top, bottom = start_page(c, box, f"Turn gauge · {scale.describe()}", footer, [
        "Put the centre on the point of the turn with COURSE along the ship's heading. A turn "
        f"ending in a sector costs that much of the move: {lost:g} {scale.unit} for each "
        f"{costs.per_degrees}°",
        "or any part of it.",
    ])
    radius = min(box.width / 2 - 12 * MM, (top - bottom) / 2 - 12 * MM)
    steps = 180 // costs.per_degrees + (1 if 180 % costs.per_degrees else 0)
    draw_turn_gauge(c, box.x + box.width / 2, bottom + (top - bottom) / 2, radius,
                    costs.per_degrees,
                    [f"−{lost * (i + 1):g} {scale.unit}" for i in range(steps)])
    c.showPage()
    c.save()
    return Component("gauges", "Gauges", "Gauge-", buffer.getvalue(), 2, bookmarks,
                     cut_out=True)


def render_gauge_strips(tables: Tables, scale: Scale, torpedoes: Sequence[tuple[int, int, bool]],
                        paper: Paper, footer: str) -> tuple[Component, list[SegmentView]]:
    """Torpedo-spread fans, aerial torpedo, night-detection and radar gauges."""
    strips = gauge_strips(scale, tables, torpedoes, max_strip_height(paper))
    notes = [ASSEMBLY, "Spread gauges: launch point at 0, the dashed line along the torpedo "
             "track; the outline is the spread's width as it runs."]
    return render_strips(strips, paper, f"Gauge strips · {scale.describe()}", footer,
                         "gauge-strips", "Strips-", notes)
