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

from generator.core import fonts
from generator.core.units import MM
from generator.pages.autofit import SAFE_INSET, shrunk_size
from generator.pages.component import Bookmark, Component
from generator.pages.furniture import Furniture
from generator.pages.layout import Paper, Pen, SafeBox, new_canvas, safe_box

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
NOTES_GAP = 2 * MM
"""Room between the notes under a page's heading and the first strip's cut line."""

BAND_Y = 4.2 * MM
BAND_HEIGHT = 3.0 * MM
FOOT_BASELINE = 1.8 * MM
"""Baseline of the labels along a strip's foot: 7 pt descenders end 1.25 mm above the cut."""
TICK_LENGTH = {"major": 6.0 * MM, "mid": 4.0 * MM, "minor": 2.2 * MM, "knot": 0.0}
TICK_WIDTH = {"major": 0.6, "mid": 0.45, "minor": 0.35, "knot": 0.9}
LABEL_AIR = 0.3 * MM
"""Clear space kept between a label and any tick or knot line."""
CUT_INSET = SAFE_INSET * MM
"""Labels keep this far inside the cut line, so a slightly-off cut leaves them whole."""
BAR_INSET = 0.6 * MM
BAR_WIDTH = 3.0 * MM
"""The colour code's bars at both ends of a segment: their inset from the end, width."""
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
    # The last note's descenders reach 0.7 mm under its baseline, 1 mm above the notes'
    # room: the first strip starts a cutting gap lower, so no scissors pass through them.
    below_notes = NOTES_GAP if notes else 0.0
    return (box.top - HEADER - len(notes) * 4 * MM - below_notes,
            box.y + furniture.bottom(box) + 2 * MM)


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
        _draw_band(c, band, view)
    # Labels are placed first so that no tick or knot line runs through one.
    shown = [m for m in strip.marks if view.start - view.tab - 1e-6 <= m.at <= view.end + 1e-6]
    title = _title(strip, view)
    tab = _tab_labels(view)
    bands = [b for b in (_band_label(band, view) for band in strip.bands) if b is not None]
    labels = _clear_labels(shown, view, strip.color is not None,
                           [label.box for label in [*tab, *bands, title]])
    boxes = [label.box for label in [*labels, *tab, *bands, title]]
    # marks on the tab repeat the previous segment's, in grey (it will be covered)
    last: tuple[bool, str] | None = None
    for mark in shown:
        last = _draw_mark(c, mark, view, mark.at < view.start - 1e-6, boxes, last)
    if strip.extra is not None:
        strip.extra(c, view, view.start - view.tab, view.end)
    c.setFillColor(colors.black)
    for label in [*bands, *labels]:
        label.draw(pen)
    # cut outline around tab and body
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.5)
    c.rect(left, low, right - left, h, stroke=1, fill=0)
    if view.tab:
        c.setFillColor(colors.black)
        for label in tab:
            label.draw(pen)
        _join_marks(c, body_left, low, top)
    if view.index < view.count - 1:
        _join_marks(c, right, low, top, inside_only=True)
    # colour code at both ends, then the segment's title and number
    if strip.color is not None:
        c.setFillColor(strip.color)
        high = bar_top(view)
        c.rect(body_left + BAR_INSET, low + BAR_INSET, BAR_WIDTH, high - low - BAR_INSET,
               stroke=0, fill=1)
        c.rect(right - BAR_INSET - BAR_WIDTH, low + BAR_INSET, BAR_WIDTH,
               high - low - BAR_INSET, stroke=0, fill=1)
    c.setFillColor(colors.black)
    title.draw(pen)
    c.restoreState()


def bar_top(view: SegmentView) -> float:
    """Top of the colour code's bars: under the longest tick, so no tick is hidden."""
    return min(view.top - BAR_INSET, view.top - TICK_LENGTH["major"] - LABEL_AIR)


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _clear_labels(marks: Sequence[Mark], view: SegmentView, bars: bool,
                  taken: Sequence[tuple[float, float, float, float]]) -> list[_Label]:
    """Every mark's labels that overlap no other label, knots first.

    A knot (a range limit) matters more than a graduation: its label and note go right
    of it, or left when that side is taken, and a graduation's number that would print
    over either is left out (its tick still shows where it is).
    """
    placed = list(taken)
    out: list[_Label] = []
    ordered = [m for m in marks if m.size == "knot"] + [m for m in marks if m.size != "knot"]
    for mark in ordered:
        for option in _mark_labels(mark, view, bars):
            if not any(_overlaps(label.box, box) for label in option for box in placed):
                out.extend(option)
                placed.extend(label.box for label in option)
                break
    return out


def _title(strip: Strip, view: SegmentView) -> _Label:
    """The segment's title and number along its foot, fitted to the piece."""
    body_left, right = view.x(view.start), view.x(view.end)
    text_left = body_left + 1.5 * MM + (3.5 * MM if strip.color is not None else 0.0)
    name = f"{strip.title}" + (f" · {strip.color_name}" if strip.color_name else "")
    if view.count > 1:
        name += f" · {view.index + 1}/{view.count}"
    width = max(right - text_left - 5 * MM, 10 * MM)
    size = shrunk_size(name, fonts.NARROW, 7, width)
    # The baseline sits high enough that the descenders keep 1 mm inside the cut line.
    return _Label(text_left, view.bottom + FOOT_BASELINE,
                  fonts.clip_text(name, fonts.NARROW, size, width), size, narrow=True)


def _draw_band(c: Canvas, band: Band, view: SegmentView) -> None:
    start = max(band.start, view.start - view.tab)
    end = min(band.end, view.end)
    if end <= start:
        return
    c.setFillColor(band.color)
    c.rect(view.x(start), view.bottom + BAND_Y, end - start, BAND_HEIGHT, stroke=0, fill=1)


def _band_label(band: Band, view: SegmentView) -> _Label | None:
    """A band's label at its start on the body (never on the glue tab), if it fits."""
    start, end = max(band.start, view.start), min(band.end, view.end)
    if not band.label or fonts.string_width(band.label, fonts.NARROW, 7) >= end - start - 2 * MM:
        return None
    return _Label(view.x(start) + 1 * MM, view.bottom + BAND_Y + 0.8 * MM, band.label, 7,
                  narrow=True)


def _tab_labels(view: SegmentView) -> list[_Label]:
    """"GLUE" and which piece the tab goes under, on a continued segment's tab."""
    if not view.tab:
        return []
    x = view.x(view.start - view.tab) + view.tab / 2
    return [_Label(x, view.bottom + view.height / 2 - 1.2 * MM, "GLUE", 7, bold=True,
                   align="center"),
            _Label(x, view.bottom + FOOT_BASELINE, f"under {view.index}", 7, narrow=True,
                   align="center")]


@dataclass(frozen=True)
class _Label:
    """A label on a strip and the box it covers (which no tick or knot line crosses)."""

    x: float
    y: float
    text: str
    size: float
    bold: bool = False
    narrow: bool = False
    align: str = "left"

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the line box, with a little air."""
        font = (fonts.NARROW_BOLD if self.bold else fonts.NARROW) if self.narrow else (
            fonts.BOLD if self.bold else fonts.REGULAR)
        width = fonts.string_width(self.text, font, self.size)
        x0 = {"left": self.x, "right": self.x - width}.get(self.align, self.x - width / 2)
        air = LABEL_AIR
        return (x0 - air, self.y - 0.25 * self.size - air, x0 + width + air,
                self.y + 0.75 * self.size + air)

    def draw(self, pen: Pen) -> None:
        pen.text(self.x, self.y, self.text, size=self.size, bold=self.bold,
                 narrow=self.narrow, align=self.align)


def _mark_labels(mark: Mark, view: SegmentView, bars: bool = False) -> list[list[_Label]]:
    """Where a mark's labels may go, best first (none where covered or cut off).

    None on the glue tab, none within 1 mm of the cut, none under the colour code's bars
    (``bars``) at the segment's ends. A knot's label and note may go right or left of it.
    """
    x, top = view.x(mark.at), view.top
    if mark.at < view.start - 1e-6:
        return []
    # Text must lie wholly on the piece's body: clipping hides the rest from the eye but
    # not from a reader of the PDF, and the glue tab is hidden under the previous piece
    # (a label across the join line would be half covered). A label that does not fit is
    # left out rather than hidden under a bar: the tick still shows where it is.
    bar = BAR_INSET + BAR_WIDTH if bars else 0.0
    low = view.x(view.start) + max(LABEL_AIR if view.tab else CUT_INSET, bar)
    high = view.x(view.end) - max(CUT_INSET, bar)
    if mark.size == "knot":
        wide = max(fonts.string_width(mark.label, fonts.BOLD, 8),
                   fonts.string_width(mark.note, fonts.NARROW, 7))
        # Labels go right of the knot unless that runs off the piece (the last knot) or
        # is taken by a neighbour's; then left.
        sides = []
        if x + 1.6 * MM + wide <= high:
            sides.append((x + 1.6 * MM, "left"))
        if x - 1.6 * MM - wide >= low:
            sides.append((x - 1.6 * MM, "right"))
        options = []
        for lx, align in sides:
            out = [_Label(lx, top - 3.2 * MM, mark.label, 8, bold=True, align=align)]
            if mark.note:
                out.append(_Label(lx, top - 6.4 * MM, mark.note, 7, narrow=True, align=align))
            options.append(out)
        return options
    if not mark.label:
        return []
    size = 8 if mark.size == "major" else 7
    font = fonts.BOLD if mark.size == "major" else fonts.REGULAR
    width = fonts.string_width(mark.label, font, size)
    # Centred under its tick; near an end, moved along just enough to clear the bar or
    # the cut, as long as it still stands under the tick (else the reader could not
    # tell which tick it names).
    left = min(max(x - width / 2, low), high - width)
    if left < low - 1e-6 or not left <= x <= left + width:
        return []
    return [[_Label(left, top - TICK_LENGTH[mark.size] - 3.0 * MM, mark.label, size,
                    bold=mark.size == "major", align="left")]]


def _vline(c: Canvas, x: float, y0: float, y1: float,
           boxes: Sequence[tuple[float, float, float, float]]) -> None:
    """A vertical line from y0 to y1, broken where it would cross a label's box."""
    cuts = sorted((b[1], b[3]) for b in boxes if b[0] <= x <= b[2] and b[1] < y1 and b[3] > y0)
    y = y0
    for low, high in cuts:
        if low > y:
            c.line(x, y, x, low)
        y = max(y, high)
    if y < y1:
        c.line(x, y, x, y1)


def _draw_mark(c: Canvas, mark: Mark, view: SegmentView, grey: bool,
               boxes: Sequence[tuple[float, float, float, float]],
               last: tuple[bool, str] | None = None) -> tuple[bool, str]:
    """A mark's tick or knot line (broken around labels) and its knot dot.

    ``last`` is the (grey, size) the previous mark set; the colours and line width are
    set only when they change (a tape has thousands of marks, mostly alike).
    """
    x, top = view.x(mark.at), view.top
    if last != (grey, mark.size):
        ink = TAB_TICK if grey else colors.black
        c.setStrokeColor(ink)
        c.setFillColor(ink)
        c.setLineWidth(TICK_WIDTH[mark.size])
    if mark.size == "knot":
        _vline(c, x, view.bottom, top, boxes)
        c.circle(x, top - 2.2 * MM, 1.1 * MM, stroke=0, fill=1)
    else:
        _vline(c, x, top - TICK_LENGTH[mark.size], top, boxes)
    return grey, mark.size


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
