"""Long measuring strips (rulers, range tapes, detection and spread gauges) on paper.

A strip is a length with marks, bands and optional extra drawing, all in points from its
zero line. Strips longer than the page are split into numbered segments: every segment
after the first starts with a glue tab that repeats the last ``OVERLAP`` of the previous
segment, so the previous segment's cut edge lands on the join line and the marks run on.
Rulesets describe strips; this module alone decides where they fall on paper, so every
ruleset's rulers are split, labelled and calibrated the same way.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator import fonts
from generator.layout import Paper, Pen, SafeBox, new_canvas, safe_box
from generator.packets import Bookmark, Component
from generator.pages import Furniture
from generator.units import MM

LEAD = 6 * MM
"""Paper before the zero line on the first segment (a cut edge is never the zero)."""
TAIL = 8 * MM
"""Paper after the last mark (room for a colour bar clear of the last knot)."""
OVERLAP = 12 * MM
"""Glue tab at the start of every later segment; the previous segment covers it."""
CLEAR = 4 * MM
"""No cut falls this close to a knot."""
GAP = 5 * MM
"""Space between strips on a page (room to cut)."""
HEADER = 7 * MM

BAND_Y = 4.2 * MM
BAND_HEIGHT = 3.0 * MM
TICK_LENGTH = {"major": 6.0 * MM, "mid": 4.0 * MM, "minor": 2.2 * MM, "knot": 0.0}
TICK_WIDTH = {"major": 0.6, "mid": 0.45, "minor": 0.35, "knot": 0.9}
GLUE_TINT = colors.Color(0.88, 0.88, 0.88)
TAB_TICK = colors.Color(0.55, 0.55, 0.55)

MarkSize = Literal["major", "mid", "minor", "knot"]


@dataclass(frozen=True)
class Mark:
    """A graduation or knot on a strip.

    Attributes:
        at: Distance from the zero line, in points.
        size: ``major``/``mid``/``minor`` ticks hang from the top edge; a ``knot`` crosses
            the whole strip.
        label: Printed beside the tick (major ticks and knots).
        note: Second, smaller line under a knot's label.

    """

    at: float
    size: MarkSize = "minor"
    label: str = ""
    note: str = ""


@dataclass(frozen=True)
class Band:
    """A coloured stretch along the bottom of a strip (a range band or detection zone)."""

    start: float
    end: float
    color: colors.Color
    label: str = ""


@dataclass(frozen=True)
class SegmentView:
    """Where one segment of a strip landed, for drawing and for checking.

    Attributes:
        strip: The strip's key.
        index: 0-based segment number.
        count: Segments in the strip.
        page: 0-based page in the component.
        origin: Page x of the strip's zero line (may lie off this segment).
        bottom: Page y of the strip's bottom edge.
        height: Strip height.
        start: First strip coordinate on the segment's body (after any glue tab).
        end: Last strip coordinate on the segment.
        tab: Width of the glue tab before ``start`` (0 on the first segment).

    """

    strip: str
    index: int
    count: int
    page: int
    origin: float
    bottom: float
    height: float
    start: float
    end: float
    tab: float

    def x(self, at: float) -> float:
        """Page x of a strip coordinate."""
        return self.origin + at

    @property
    def top(self) -> float:
        """Page y of the strip's top edge."""
        return self.bottom + self.height


Extra = Callable[[Canvas, SegmentView, float, float], None]
"""Extra drawing for a segment, given the strip coordinates to cover (tab included)."""


@dataclass
class Strip:
    """A measuring strip described in its own coordinates.

    Attributes:
        key: Stable id (used in bookmarks and tests).
        title: Printed on every segment, e.g. ``Range ruler · 333 yd per cm``.
        length: Distance from the zero line to the last mark, in points.
        marks: Ticks and knots.
        bands: Coloured stretches.
        height: Strip height in points.
        color: A colour code shown at both ends (range strings), or None.
        color_name: The colour's name, printed with it.
        extra: Additional drawing (a torpedo fan), called for each segment.

    """

    key: str
    title: str
    length: float
    marks: list[Mark] = field(default_factory=list)
    bands: list[Band] = field(default_factory=list)
    height: float = 18 * MM
    color: colors.Color | None = None
    color_name: str = ""
    extra: Extra | None = None


def split(length: float, width: float, avoid: Sequence[float] = ()) -> list[tuple[float, float]]:
    """Cut a strip's span into segment bodies that fit a row ``width`` wide.

    Args:
        length: The strip's length (zero line to last mark).
        width: Usable row width on the page.
        avoid: Positions (knots) a cut must not fall within ``CLEAR`` of; the cut moves
            back so the knot starts the next piece instead of straddling a join.

    Returns:
        ``(start, end)`` strip coordinates of each body, from ``-LEAD`` to
        ``length + TAIL``; every body after the first leaves room for its glue tab.

    """
    start, end = -LEAD, length + TAIL
    total = end - start
    pieces = 1 if total <= width else 1 + math.ceil((total - width) / (width - OVERLAP))
    spans: list[tuple[float, float]] = []
    while start < end - 1e-6:
        room = width - (OVERLAP if spans else 0)
        if end - start <= room + 1e-6:
            spans.append((start, end))
            break
        # Even pieces rather than full ones and a stub; a cut moved off a knot shares
        # the difference among the pieces still to come (adding one only if it must).
        left = max(pieces - len(spans), 2)
        while (end - start) / left > width - OVERLAP:
            left += 1
            pieces += 1
        stop = start + (end - start) / left
        floor = start + room / 2
        near = [a for a in avoid if stop - CLEAR < a < stop + CLEAR]
        while near and min(near) - CLEAR > floor:  # knots in a row: step back past all
            stop = min(near) - CLEAR
            near = [a for a in avoid if stop - CLEAR < a < stop + CLEAR]
        spans.append((start, stop))
        start = stop
    return spans


def render_strips(strips: Sequence[Strip], paper: Paper, title: str, footer: str, key: str,
                  label: str, notes: Sequence[str] = ()) -> tuple[Component, list[SegmentView]]:
    """Lay strips out on landscape pages, segment by segment, with calibration bars.

    Args:
        strips: What to print, in order.
        paper: ``a4`` or ``letter``.
        title: The component's bookmark title and page heading.
        footer: Small print at the top right of every page (kit and scale).
        key: Component key.
        label: Page-label prefix.
        notes: Lines printed once, under the first page's heading (how to assemble).

    Returns:
        The component and where every segment landed.

    """
    box = safe_box(paper, landscape=True)
    buffer = io.BytesIO()
    c = new_canvas(buffer, paper, title, landscape=True)
    pen = Pen(c)
    views: list[SegmentView] = []
    bookmarks: list[Bookmark] = []
    page = 0
    y, floor = start_page(c, box, title, footer, notes)
    for strip in strips:
        if strip.height > max_strip_height(paper):
            raise ValueError(f"strip {strip.key} is {strip.height / MM:.0f} mm tall; no page "
                             "holds it")
        spans = split(strip.length, box.width,
                      [m.at for m in strip.marks if m.size == "knot"])
        for index, (start, end) in enumerate(spans):
            if y - strip.height < floor:
                c.showPage()
                page += 1
                y, floor = start_page(c, box, f"{title} (continued)", footer)
            if index == 0:
                bookmarks.append(Bookmark(strip.title, page, y))
            tab = 0.0 if index == 0 else OVERLAP
            view = SegmentView(strip.key, index, len(spans), page, box.x + tab - start,
                               y - strip.height, strip.height, start, end, tab)
            _draw_segment(c, pen, strip, view)
            views.append(view)
            y -= strip.height + GAP
    c.showPage()
    c.save()
    return Component(key, title, label, buffer.getvalue(), page + 1, bookmarks,
                     cut_out=True), views


def start_page(c: Canvas, box: SafeBox, title: str, footer: str,
               notes: Sequence[str] = ()) -> tuple[float, float]:
    """Start a measuring page: heading, footer text, notes and the calibration bars.

    Args:
        c: The canvas, on a fresh page.
        box: The page's safe box.
        title: Heading at the top left.
        footer: Small print at the top right (kit and scale).
        notes: Lines under the heading.

    Returns:
        The highest and lowest y the page's content may use.

    """
    pen = Pen(c)
    furniture = Furniture(heading=title, running=footer, calibration=True, numbered=False)
    furniture.draw(c, box, 0)
    for i, line in enumerate(notes):
        pen.text(box.x, box.top - HEADER - (i + 0.75) * 4 * MM, line, size=8, width=box.width)
    return box.top - HEADER - len(notes) * 4 * MM, box.y + furniture.bottom(box) + 2 * MM


def max_strip_height(paper: Paper) -> float:
    """The tallest strip ``render_strips`` places (a row under a heading and two notes)."""
    return safe_box(paper, landscape=True).height - HEADER - 30 * MM


def _draw_segment(c: Canvas, pen: Pen, strip: Strip, view: SegmentView) -> None:
    """One segment: outline, glue tab, bands, ticks, knots, labels and join marks."""
    low, top, h = view.bottom, view.top, view.height
    left = view.x(view.start - view.tab)
    body_left, right = view.x(view.start), view.x(view.end)
    c.saveState()
    # Everything printed stays on the piece that is cut out.
    clip = c.beginPath()
    clip.rect(left, low, right - left, h)
    c.clipPath(clip, stroke=0, fill=0)
    if view.tab:
        c.setFillColor(GLUE_TINT)
        c.rect(left, low, view.tab, h, stroke=0, fill=1)
    for band in strip.bands:
        _draw_band(c, pen, band, view)
    # marks on the tab repeat the previous segment's, in grey (it will be covered)
    for mark in strip.marks:
        if view.start - view.tab - 1e-6 <= mark.at <= view.end + 1e-6:
            on_tab = mark.at < view.start - 1e-6
            _draw_mark(c, pen, mark, view, grey=on_tab)
    if strip.extra is not None:
        strip.extra(c, view, view.start - view.tab, view.end)
    # cut outline around tab and body
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.5)
    c.rect(left, low, right - left, h, stroke=1, fill=0)
    if view.tab:
        c.setFillColor(colors.black)
        pen.text(left + view.tab / 2, low + h / 2 - 1.2 * MM, "GLUE", size=7, bold=True,
                 align="center")
        pen.text(left + view.tab / 2, low + 1.2 * MM, f"under {view.index}", size=7,
                 narrow=True, align="center")
        _join_marks(c, body_left, low, top)
    if view.index < view.count - 1:
        _join_marks(c, right, low, top, inside_only=True)
    # colour code at both ends, then the segment's title and number
    text_left = body_left + 1.5 * MM
    if strip.color is not None:
        c.setFillColor(strip.color)
        c.rect(body_left + 0.6 * MM, low + 0.6 * MM, 3 * MM, h - 1.2 * MM, stroke=0, fill=1)
        c.rect(right - 3.6 * MM, low + 0.6 * MM, 3 * MM, h - 1.2 * MM, stroke=0, fill=1)
        text_left += 3.5 * MM
    c.setFillColor(colors.black)
    name = f"{strip.title}" + (f" · {strip.color_name}" if strip.color_name else "")
    if view.count > 1:
        name += f" · {view.index + 1}/{view.count}"
    pen.text(text_left, low + 1.3 * MM, name, size=7, narrow=True,
             width=max(right - text_left - 5 * MM, 10 * MM))
    c.restoreState()


def _draw_band(c: Canvas, pen: Pen, band: Band, view: SegmentView) -> None:
    start = max(band.start, view.start - view.tab)
    end = min(band.end, view.end)
    if end <= start:
        return
    c.setFillColor(band.color)
    c.rect(view.x(start), view.bottom + BAND_Y, end - start, BAND_HEIGHT, stroke=0, fill=1)
    if band.label and fonts.string_width(band.label, fonts.NARROW, 7) < end - start - 2 * MM:
        c.setFillColor(colors.black)
        pen.text(view.x(start) + 1 * MM, view.bottom + BAND_Y + 0.8 * MM, band.label, size=7,
                 narrow=True)


def _draw_mark(c: Canvas, pen: Pen, mark: Mark, view: SegmentView, grey: bool) -> None:
    x, top = view.x(mark.at), view.top
    ink = TAB_TICK if grey else colors.black
    c.setStrokeColor(ink)
    c.setFillColor(ink)
    c.setLineWidth(TICK_WIDTH[mark.size])
    # Text must lie wholly on the piece: clipping hides the rest from the eye but not from
    # a reader of the PDF, and a tab's labels are hidden under the previous piece anyway.
    low, high = view.x(view.start - view.tab) + 0.5 * MM, view.x(view.end) - 0.5 * MM
    if mark.size == "knot":
        c.line(x, view.bottom, x, top)
        c.circle(x, top - 2.2 * MM, 1.1 * MM, stroke=0, fill=1)
        if grey:
            return
        wide = max(fonts.string_width(mark.label, fonts.BOLD, 8),
                   fonts.string_width(mark.note, fonts.NARROW, 7))
        # Labels go right of the knot unless that runs off the piece (the last knot).
        if x + 1.6 * MM + wide <= high:
            lx, align = x + 1.6 * MM, "left"
        elif x - 1.6 * MM - wide >= low:
            lx, align = x - 1.6 * MM, "right"
        else:
            return
        pen.text(lx, top - 3.2 * MM, mark.label, size=8, bold=True, align=align)
        if mark.note:
            pen.text(lx, top - 6.4 * MM, mark.note, size=7, narrow=True, align=align)
        return
    c.line(x, top, x, top - TICK_LENGTH[mark.size])
    if mark.label and not grey:
        size = 8 if mark.size == "major" else 7
        font = fonts.BOLD if mark.size == "major" else fonts.REGULAR
        half = fonts.string_width(mark.label, font, size) / 2
        if low <= x - half and x + half <= high:
            pen.text(x, top - TICK_LENGTH[mark.size] - 3.0 * MM, mark.label, size=size,
                     bold=mark.size == "major", align="center")


def _join_marks(c: Canvas, x: float, low: float, top: float, inside_only: bool = False) -> None:
    """Alignment triangles at a join, pointing at the join line.

    At a piece's own cut edge (``inside_only``) only the half on the piece is drawn.
    """
    c.setFillColor(colors.black)
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.3)
    c.line(x, low, x, top)
    right = 0.0 if inside_only else 1.2 * MM
    for y, d in ((top, -1), (low, 1)):
        path = c.beginPath()
        path.moveTo(x, y)
        path.lineTo(x - 1.2 * MM, y + d * 1.8 * MM)
        path.lineTo(x + right, y + d * 1.8 * MM)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
