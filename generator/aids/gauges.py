"""Gauges drawn on one page: firing-arc protractors, turn gauges, and torpedo-spread fans.

Angles are bearings in degrees clockwise from the bow, which points up the page. Every
boundary a player lines up against is drawn as a straight radial line from the centre,
so the angle printed is the angle a protractor (or a test reading the PDF) measures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.aids.strips import Extra, Mark, SegmentView, Strip
from generator.core import fonts
from generator.core.units import MM
from generator.pages.layout import Pen

FAN_BELOW = 5 * MM
"""Room under a fan for the strip's title line."""
FAN_MARGIN = 17 * MM
"""Room above and below a fan: ticks and knot labels on top, the title below."""
ZONE_TINT = colors.Color(0.93, 0.35, 0.3)
ARC_TINTS = (colors.Color(0.62, 0.78, 0.93), colors.Color(0.68, 0.87, 0.68))
SCALE_ROOM = 10 * MM
"""From a gauge's rim to its cut outline: the degree ticks and numbers lie between."""
LABEL_RING = 5.4 * MM
"""From a gauge's rim to the centres of its degree numbers (just past the longest tick)."""
CUT_LINE = 0.6
RING_NAME_SIZE = 6.5
"""Type size of a ring's battery name at its sector edges."""


@dataclass(frozen=True)
class Ring:
    """One ring of a protractor: where something may fire, and where it may not.

    Attributes:
        label: Short name printed in the ring (``BOW``, ``L/R``).
        arcs: ``(from, to)`` bearings, clockwise, that the battery covers.
        zones: ``(from, to)`` bearings the rules forbid, shaded and labelled.
        zone_labels: Text for each zone (``35°``).

    """

    label: str
    arcs: Sequence[tuple[float, float]]
    zones: Sequence[tuple[float, float]] = ()
    zone_labels: Sequence[str] = field(default_factory=tuple)


def point(cx: float, cy: float, radius: float, bearing: float) -> tuple[float, float]:
    """Page point at ``radius`` from the centre on a bearing (0 = up, clockwise)."""
    rad = math.radians(bearing)
    return cx + radius * math.sin(rad), cy + radius * math.cos(rad)


def _sector(c: Canvas, cx: float, cy: float, inner: float, outer: float, start: float,
            end: float, fill: colors.Color) -> None:
    """Fill an annular sector from bearing ``start`` clockwise to ``end``."""
    path = c.beginPath()
    # ReportLab's arcs run anticlockwise from the x axis: bearing b is angle 90 - b.
    path.arc(cx - outer, cy - outer, cx + outer, cy + outer, 90 - start, -(end - start))
    path.arcTo(cx - inner, cy - inner, cx + inner, cy + inner, 90 - end, end - start)
    path.close()
    c.setFillColor(fill)
    c.drawPath(path, stroke=0, fill=1)


def _radial(c: Canvas, cx: float, cy: float, inner: float, outer: float, bearing: float) -> None:
    x0, y0 = point(cx, cy, inner, bearing)
    x1, y1 = point(cx, cy, outer, bearing)
    c.line(x0, y0, x1, y1)


def _centred(pen: Pen, x: float, y: float, text: str, size: float, bold: bool = False) -> None:
    pen.text(x, y - size * 0.35, text, size=size, bold=bold, align="center")


def cut_radius(radius: float) -> float:
    """Radius of a gauge's cut outline: clear of its degree ticks and their numbers."""
    return radius + SCALE_ROOM


def _cut_outline(c: Canvas, cx: float, cy: float, radius: float) -> None:
    """The circle to cut along, round everything the gauge prints."""
    c.setStrokeColor(colors.black)
    c.setLineWidth(CUT_LINE)
    c.circle(cx, cy, cut_radius(radius), stroke=1, fill=0)


def _along_ring(c: Canvas, pen: Pen, cx: float, cy: float, radius: float, bearing: float,
                text: str, size: float) -> None:
    """Text centred on a ring at a bearing, along the ring and never upside down."""
    x, y = point(cx, cy, radius, bearing)
    c.saveState()
    c.translate(x, y)
    # Tangent to the ring, its top outwards; on the lower half turned to read upright.
    turn = -bearing if math.cos(math.radians(bearing)) >= 0 else 180 - bearing
    c.rotate(turn)
    pen.text(0, -size * 0.35, text, size=size, bold=True, align="center")
    c.restoreState()


def _edge_names(c: Canvas, pen: Pen, cx: float, cy: float, mid: float, ring: Ring) -> None:
    """The ring's battery name just inside each edge of each sector it may fire in."""
    width = fonts.string_width(ring.label, fonts.BOLD, RING_NAME_SIZE)
    # The name's half width and a millimetre of air, as an angle on this ring.
    inset = math.degrees((width / 2 + 1 * MM) / mid)
    c.setFillColor(colors.black)
    for start, end in ring.arcs:
        if end - start < 4 * inset:
            _along_ring(c, pen, cx, cy, mid, (start + end) / 2, ring.label, RING_NAME_SIZE)
            continue
        for bearing in (start + inset, end - inset):
            _along_ring(c, pen, cx, cy, mid, bearing, ring.label, RING_NAME_SIZE)


LEGEND: tuple[tuple[tuple[colors.Color, ...], str], ...] = (
    (ARC_TINTS, "battery may fire"), ((ZONE_TINT,), "rules forbid"),
    ((), "battery named at edges"))
"""The protractor's legend: swatches (or none) and their words, one row each."""
LEGEND_SIZE = 6.5
_LEGEND_ROW = 3.4 * MM


def _legend(c: Canvas, pen: Pen, cx: float, cy: float, inner: float) -> None:
    """What the colours mean, in the lower-left quarter of the innermost ring's disc.

    Left out when that quarter is too small to hold it (the rings then say it).
    """
    swatch = 3.5 * MM
    width = max(fonts.string_width(text, fonts.REGULAR, LEGEND_SIZE) + len(tints) * swatch
                + (0.5 * MM if tints else 0) for tints, text in LEGEND)
    depth = 2 * MM + len(LEGEND) * _LEGEND_ROW
    x = cx - 2 * MM - width
    # Its far corner (left, lowest) must stay 1 mm inside the innermost circle.
    if math.hypot(cx - x, depth) > inner - 1 * MM:
        return
    for i, (tints, text) in enumerate(LEGEND):
        line = cy - 2 * MM - (i + 1) * _LEGEND_ROW + 0.8 * MM
        for k, tint in enumerate(tints):
            c.setFillColor(tint)
            c.setStrokeColor(colors.black)
            c.setLineWidth(0.3)
            c.rect(x + k * swatch, line - 0.3 * MM, 3 * MM, 2.4 * MM, stroke=1, fill=1)
        c.setFillColor(colors.black)
        pen.text(x + len(tints) * swatch + (0.5 * MM if tints else 0), line, text,
                 size=LEGEND_SIZE)


def draw_protractor(c: Canvas, cx: float, cy: float, radius: float, rings: Sequence[Ring],
                    ring_width: float = 6.5 * MM) -> None:
    """A 360° protractor with one ring per battery position, outermost first.

    Args:
        c: The canvas.
        cx: Centre x.
        cy: Centre y.
        radius: Radius of the degree scale's inner edge; rings lie inside it.
        rings: Arcs and forbidden zones, outermost first.
        ring_width: Radial width of each ring.

    """
    pen = Pen(c)
    c.saveState()
    # degree scale: a tick every 5°, numbers every 30°
    c.setStrokeColor(colors.black)
    for deg in range(0, 360, 5):
        length = 3.5 * MM if deg % 30 == 0 else (2.5 * MM if deg % 15 == 0 else 1.5 * MM)
        c.setLineWidth(0.6 if deg % 15 == 0 else 0.35)
        _radial(c, cx, cy, radius, radius + length, deg)
        if deg % 30 == 0:
            x, y = point(cx, cy, radius + LABEL_RING, deg)
            _centred(pen, x, y, f"{deg}°", 8, bold=deg % 90 == 0)
    c.setLineWidth(0.6)
    c.circle(cx, cy, radius, stroke=1, fill=0)
    outer = radius
    for i, ring in enumerate(rings):
        inner = outer - ring_width
        for start, end in ring.arcs:
            _sector(c, cx, cy, inner, outer, start, end, ARC_TINTS[i % 2])
        for start, end in ring.zones:
            _sector(c, cx, cy, inner, outer, start, end, ZONE_TINT)
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.5)
        for start, end in ring.arcs:
            _radial(c, cx, cy, inner, outer, start)
            _radial(c, cx, cy, inner, outer, end)
        c.setLineWidth(0.3)
        c.circle(cx, cy, inner, stroke=1, fill=0)
        mid = (inner + outer) / 2
        for (start, end), text in zip(ring.zones, ring.zone_labels, strict=False):
            x, y = point(cx, cy, mid, (start + end) / 2)
            c.setFillColor(colors.black)
            _centred(pen, x, y, text, 7, bold=True)
        _edge_names(c, pen, cx, cy, mid, ring)
        outer = inner
    _crosshair(c, pen, cx, cy, outer)
    _legend(c, pen, cx, cy, outer)
    _cut_outline(c, cx, cy, radius)
    c.restoreState()


def _crosshair(c: Canvas, pen: Pen, cx: float, cy: float, radius: float) -> None:
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.4)
    c.line(cx, cy - radius, cx, cy + radius)
    c.line(cx - radius, cy, cx + radius, cy)
    c.circle(cx, cy, 1.5 * MM, stroke=1, fill=0)
    c.setFillColor(colors.black)
    # Which way the ship points, in words no battery is called by.
    pen.text(cx + 1.5 * MM, cy + radius - 8 * MM, "ship's head (0°)", size=7)


def draw_turn_gauge(c: Canvas, cx: float, cy: float, radius: float, step: int,
                    costs: Sequence[str]) -> None:
    """A turning gauge: sectors of ``step`` degrees each side of the course, with costs.

    Args:
        c: The canvas.
        cx: Pivot x (the turning point).
        cy: Pivot y.
        radius: Radius of the gauge.
        step: Degrees per cost step (60 for a 60-degree turn step).
        costs: Label of each successive sector from dead ahead (``−1 cm``, ``−2 cm``...).

    """
    pen = Pen(c)
    c.saveState()
    for side in (1, -1):
        for i, cost in enumerate(costs):
            start, end = i * step, min((i + 1) * step, 180)
            lo, hi = (start, end) if side == 1 else (-end, -start)
            _sector(c, cx, cy, 0, radius, lo, hi, ARC_TINTS[i % 2])
            c.setFillColor(colors.black)
            x, y = point(cx, cy, radius * 0.62, side * (start + end) / 2)
            _centred(pen, x, y + 2.2 * MM, f"{start}–{end}°", 8)
            _centred(pen, x, y - 2.2 * MM, cost, 9, bold=True)
    c.setStrokeColor(colors.black)
    for deg in range(-180, 181, 10):
        major = deg % step == 0
        c.setLineWidth(0.8 if major else 0.35)
        if major:
            _radial(c, cx, cy, 0, radius + 3 * MM, deg)
        else:
            _radial(c, cx, cy, radius - (2.5 if deg % 30 == 0 else 1.5) * MM, radius, deg)
        if deg % 30 == 0 and -180 < deg <= 180:
            x, y = point(cx, cy, radius + LABEL_RING, deg)
            c.setFillColor(colors.black)
            _centred(pen, x, y, f"{abs(deg)}°", 8, bold=major)
    c.setLineWidth(0.6)
    c.circle(cx, cy, radius, stroke=1, fill=0)
    c.circle(cx, cy, 1.5 * MM, stroke=1, fill=0)
    _cut_outline(c, cx, cy, radius)
    c.setFillColor(colors.black)
    pen.text(cx + 1.5 * MM, cy + radius - 5 * MM, "COURSE", size=8, bold=True)
    pen.text(cx - radius * 0.9, cy + 2 * MM, "LEFT", size=8, bold=True)
    pen.text(cx + radius * 0.9, cy + 2 * MM, "RIGHT", size=8, bold=True, align="right")
    c.restoreState()


def fan_half_width(widths: Sequence[tuple[float, float]], at: float) -> float:
    """Half the spread's width at ``at``, interpolating between ``(distance, width)`` points.

    The fan opens from nothing at the launch point; past the last point it stays put.
    """
    points = [(0.0, 0.0), *widths]
    for (d0, w0), (d1, w1) in zip(points, points[1:], strict=False):
        if at <= d1:
            return (w0 + (w1 - w0) * (at - d0) / (d1 - d0)) / 2 if d1 > d0 else w1 / 2
    return points[-1][1] / 2


def fan_strips(key: str, title: str, widths: Sequence[tuple[float, float]],
               marks: list[Mark], max_height: float, stages: Sequence[str] = ()) -> list[Strip]:
    """A torpedo-spread gauge: a strip along the track whose outline is the spread.

    Args:
        key: Strip key.
        title: Printed on every segment.
        widths: ``(distance, width)`` pairs in points along the track, in order.
        marks: Ticks and knots along the track.
        stages: How each width is named on a crossbar (``at 4,000 yd: 667 yd wide``).
        max_height: The tallest strip a page row holds. A fan too wide for it is
            printed as its right half against the strip's edge (turn it over for the
            left); too wide even for that, as a track strip plus one crossbar per
            width, to lay square across the track at its knot.

    Returns:
        The strips.

    """
    widest = max(w for _, w in widths)
    if widest + FAN_MARGIN <= max_height:
        return [Strip(key, title, widths[-1][0], marks, height=widest + FAN_MARGIN,
                      extra=_fan_drawer(widths, half=False))]
    if widest / 2 + FAN_MARGIN <= max_height:
        return [Strip(key, title + " · half spread: turn over for the other side",
                      widths[-1][0], marks, height=widest / 2 + FAN_MARGIN,
                      extra=_fan_drawer(widths, half=True))]
    strips = [Strip(key, title + " · track: lay each crossbar square across it at its knot",
                    widths[-1][0], marks)]
    for i, (_, width) in enumerate(widths):
        centre = Mark(width / 2, "knot", "track", "centre on the track")
        stage = stages[i] if i < len(stages) else f"width {i + 1}"
        strips.append(Strip(f"{key}-bar{i + 1}", f"{title} · crossbar {stage}", width,
                            [Mark(0, "major"), centre, Mark(width, "major")]))
    return strips


def fan_axis(view: SegmentView, half: bool) -> float:
    """Page y of a fan's track: mid-fan, or just above the title line for a half fan."""
    return view.bottom + FAN_BELOW + (0 if half else (view.height - FAN_MARGIN) / 2)


def _fan_drawer(widths: Sequence[tuple[float, float]], half: bool) -> Extra:
    """The fan's outline (both edges, or one edge and the centreline) for each segment."""
    def draw(c: Canvas, view: SegmentView, start: float, end: float) -> None:
        axis = fan_axis(view, half)
        stops = sorted({max(start, 0.0), min(end, widths[-1][0]),
                        *[d for d, _ in widths if start < d < end]})
        if len(stops) < 2:
            return
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.8)
        for sign in ((1,) if half else (1, -1)):
            path = c.beginPath()
            for i, d in enumerate(stops):
                y = axis + sign * fan_half_width(widths, d)
                if i == 0:
                    path.moveTo(view.x(d), y)
                else:
                    path.lineTo(view.x(d), y)
            c.drawPath(path, stroke=1, fill=0)
        c.setLineWidth(0.4)
        c.setDash(3, 2)
        c.line(view.x(stops[0]), axis, view.x(stops[-1]), axis)
        c.setDash()
        for d, w in widths:
            if start <= d <= end:
                c.setLineWidth(0.6)
                c.line(view.x(d), axis - (0 if half else w / 2), view.x(d), axis + w / 2)
    return draw
