"""The parts of a board-aids sheet, laid out exactly and drawn: hex grids, tracks, sea boxes.

- a **hex grid**: flat-top or pointy-top hexes of an exact size across the flats,
  numbered in the usual XXYY scheme (column, then row);
- a **track**: a row of numbered boxes (a turn track, a step-loss track) with a label;
- **sea boxes**: named rectangles at given positions, for a strategic map's sea zones.

Sizes are points. A hex's centre and corners are where ``HexGrid`` says, so a test can
read them back from the PDF; text is always set inside its hex or box with a clearance,
so no line ever crosses a number or a name. What cannot be drawn as asked is an
``AidError`` naming the field, for ``generator.aids.boardaids`` to locate in the file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.errors import RenderError
from generator.core.units import MM
from generator.data.yamlsource import Loc
from generator.pages.autofit import LABEL_FLOOR, fit_label
from generator.pages.layout import SafeBox
from generator.pages.wordwrap import wrap

Orientation = Literal["flat", "pointy"]
SQRT3 = math.sqrt(3.0)

CLEAR = 0.4 * MM
"""Room kept between any text and the nearest line (beyond half the line's width)."""
HEX_LINE, THIN_LINE = 0.5, 0.25
"""Hex outline widths (points): normal, and thin for printing on transparency (0.25 pt,
the thinnest line a print shop's preflight lets through)."""
HEX_INK = Color(0.25, 0.25, 0.25)
NUMBER_SIZE = 7.0
"""Preferred size of hex numbers; smaller hexes get smaller numbers, down to the floor."""
TRACK_LINE = 0.6
TRACK_LABEL = 9.0
"""Size of a track's label, set above its first row."""
TRACK_LABEL_ROW = 5.0 * MM
TRACK_ROW_GAP = 2.0 * MM
TRACK_GAP = 6.0 * MM
NOTE_SIZE, NOTE_FLOOR = 7.0, 5.0
SEA_LINE = 0.8
SEA_INK = HexColor("#1d3a5f")
NAME_SIZE, NAME_FLOOR = 9.0, 6.0


class AidError(RenderError):
    """An aid that cannot be drawn as asked.

    Attributes:
        field: Where the cause is, inside the aid's entry in the file.
        expected: What would do instead, for a located ``found X, expected Y`` problem.

    """

    def __init__(self, message: str, field: Loc, expected: str) -> None:
        super().__init__(message)
        self.field = field
        self.expected = expected


# -- hexes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HexGrid:
    """A block of hexes on a page.

    Attributes:
        flats: Size across the flats (points).
        orientation: ``flat`` (flat top and bottom, columns of hexes; even-numbered
            columns sit half a hex lower) or ``pointy`` (a corner on top, rows of hexes;
            even-numbered rows sit half a hex to the right).
        columns: Number of columns.
        rows: Number of rows.
        left: Page x of the block's bounding box.
        top: Page y of the top of the bounding box.
        first_column: Number of the first column (the XX of ``XXYY``).
        first_row: Number of the first row (the YY).

    """

    flats: float
    orientation: Orientation
    columns: int
    rows: int
    left: float
    top: float
    first_column: int = 1
    first_row: int = 1

    @property
    def radius(self) -> float:
        """Centre to corner (also the length of a side)."""
        return self.flats / SQRT3

    @property
    def width(self) -> float:
        """Width of the bounding box."""
        if self.orientation == "flat":
            return 2 * self.radius + (self.columns - 1) * 1.5 * self.radius
        return self.columns * self.flats + (self.flats / 2 if self.rows > 1 else 0.0)

    @property
    def height(self) -> float:
        """Height of the bounding box."""
        if self.orientation == "flat":
            return self.rows * self.flats + (self.flats / 2 if self.columns > 1 else 0.0)
        return 2 * self.radius + (self.rows - 1) * 1.5 * self.radius

    def _shifted(self, number: int) -> bool:
        # By the printed number, so a second sheet starting at column 12 tiles on.
        return number % 2 == 0

    def centre(self, column: int, row: int) -> tuple[float, float]:
        """Page position of a hex's centre; ``column`` and ``row`` count from 0."""
        r, f = self.radius, self.flats
        if self.orientation == "flat":
            low = f / 2 if self._shifted(self.first_column + column) else 0.0
            return self.left + r + column * 1.5 * r, self.top - f / 2 - row * f - low
        right = f / 2 if self._shifted(self.first_row + row) else 0.0
        return self.left + f / 2 + column * f + right, self.top - r - row * 1.5 * r

    def vertices(self, column: int, row: int) -> list[tuple[float, float]]:
        """The hex's six corners, anticlockwise from the right-hand one (or the upper right)."""
        cx, cy = self.centre(column, row)
        start = 0.0 if self.orientation == "flat" else 30.0
        return [(cx + self.radius * math.cos(math.radians(start + 60 * k)),
                 cy + self.radius * math.sin(math.radians(start + 60 * k))) for k in range(6)]

    def number(self, column: int, row: int) -> str:
        """The hex's number, XXYY: column then row, each at least two digits."""
        return f"{self.first_column + column:02d}{self.first_row + row:02d}"

    def cells(self) -> list[tuple[int, int]]:
        """Every (column, row), column by column."""
        return [(c, r) for c in range(self.columns) for r in range(self.rows)]


def hex_grid(area: SafeBox, flats: float, orientation: Orientation = "flat",
             first_column: int = 1, first_row: int = 1) -> HexGrid:
    """As many whole hexes as fit in ``area``, the block centred in it.

    Raises:
        AidError: Not even one hex fits.

    """
    r = flats / SQRT3
    if orientation == "flat":
        columns = int((area.width - 2 * r) / (1.5 * r) + 1e-9) + 1
        rows = int((area.height - (flats / 2 if columns > 1 else 0.0)) / flats + 1e-9)
    else:
        rows = int((area.height - 2 * r) / (1.5 * r) + 1e-9) + 1
        columns = int((area.width - (flats / 2 if rows > 1 else 0.0)) / flats + 1e-9)
    if 2 * r > min(area.width, area.height) or columns < 1 or rows < 1:
        raise AidError(f"a hex {flats / MM:g} mm across the flats does not fit the page",
                       ("size",), f"a hex size that fits {area.width / MM:.0f} x "
                                  f"{area.height / MM:.0f} mm")
    grid = HexGrid(flats, orientation, columns, rows, 0.0, 0.0, first_column, first_row)
    return HexGrid(flats, orientation, columns, rows,
                   area.x + (area.width - grid.width) / 2,
                   area.top - (area.height - grid.height) / 2, first_column, first_row)


def _inside(polygon: Sequence[tuple[float, float]], x: float, y: float, clear: float) -> bool:
    """True when (x, y) lies inside an anticlockwise convex polygon, ``clear`` from its edges."""
    for (ax, ay), (bx, by) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / math.hypot(bx - ax, by - ay) < clear:
            return False
    return True


@dataclass(frozen=True)
class NumberPlace:
    """Where hex numbers go: type size and baseline height above the hex centre."""

    size: float
    baseline: float


def number_place(grid: HexGrid, line: float = HEX_LINE) -> NumberPlace:
    """The largest size and highest place at which every hex number fits inside its hex.

    Raises:
        AidError: Not even the label floor fits (hexes too small to number).

    """
    shape = [(x - grid.centre(0, 0)[0], y - grid.centre(0, 0)[1]) for x, y in grid.vertices(0, 0)]
    widest = max(fonts.string_width(grid.number(c, r), fonts.NARROW, 1.0)
                 for c, r in ((grid.columns - 1, grid.rows - 1), (0, 0)))
    clear = CLEAR + line / 2
    reach = grid.flats / 2 if grid.orientation == "flat" else grid.radius
    size = min(NUMBER_SIZE, max(LABEL_FLOOR, grid.flats / MM * 0.45))
    while size >= LABEL_FLOOR - 1e-9:
        half = widest * size / 2
        ascent = float(pdfmetrics.getAscent(fonts.NARROW, size))
        descent = float(pdfmetrics.getDescent(fonts.NARROW, size))
        top = reach - clear
        while top - ascent + descent > -reach:
            low = top - ascent + descent
            if all(_inside(shape, x, y, clear) for x in (-half, half) for y in (low, top)):
                return NumberPlace(size, top - ascent)
            top -= 0.1 * MM
        size -= 0.25
    raise AidError(f"hexes {grid.flats / MM:g} mm across are too small to number at "
                   f"{LABEL_FLOOR:g} pt", ("size",),
                   f"hexes large enough to number at {LABEL_FLOOR:g} pt (or numbers: false)")


def draw_hex_grid(c: Canvas, grid: HexGrid, thin: bool = False, numbers: bool = True) -> None:
    """Draw every hex as a closed outline and, optionally, its XXYY number near the top.

    Args:
        c: The canvas.
        grid: The hexes.
        thin: Hairline black outlines, for printing on transparency film.
        numbers: Print the hex numbers.

    Raises:
        AidError: The hexes are too small to number.

    """
    line = THIN_LINE if thin else HEX_LINE
    place = number_place(grid, line) if numbers else None
    c.saveState()
    c.setLineWidth(line)
    # Film is read against the map under it: pure black shows best there.
    c.setStrokeColor(Color(0, 0, 0) if thin else HEX_INK)
    c.setLineJoin(1)
    for column, row in grid.cells():
        corners = grid.vertices(column, row)
        path = c.beginPath()
        path.moveTo(*corners[0])
        for x, y in corners[1:]:
            path.lineTo(x, y)
        path.close()
        c.drawPath(path, stroke=1, fill=0)
    if place is not None:
        c.setFillColor(HEX_INK)
        c.setFont(fonts.NARROW, place.size)
        for column, row in grid.cells():
            cx, cy = grid.centre(column, row)
            c.drawCentredString(cx, cy + place.baseline, grid.number(column, row))
    c.restoreState()


# -- tracks -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Track:
    """A row of numbered boxes, ``first`` to ``last``, under a label.

    Attributes:
        label: Printed above the first row (``Turn``, ``Steps``).
        first: Number of the first box.
        last: Number of the last box.
        box: Side of each (square) box, in points.
        notes: Small text inside some boxes, by box number (``{4: "Reinforce"}``).

    """

    label: str
    first: int
    last: int
    box: float
    notes: dict[int, str] | None = None


@dataclass(frozen=True)
class TrackBox:
    """Where one box of a track landed: its number and page rectangle."""

    number: int
    x: float
    y: float
    size: float


def track_boxes(track: Track, x: float, top: float, width: float) -> list[TrackBox]:
    """Lay a track's boxes out in rows ``width`` wide under its label (no drawing).

    Raises:
        AidError: The box is wider than the row.

    """
    per_row = int((width + 1e-6) // track.box)
    if per_row < 1:
        raise AidError(f"track '{track.label}': a box {track.box / MM:g} mm wide does not fit "
                       "the page", ("box",), f"a box at most {width / MM:.0f} mm wide")
    boxes: list[TrackBox] = []
    for index, number in enumerate(range(track.first, track.last + 1)):
        row, column = divmod(index, per_row)
        y = top - TRACK_LABEL_ROW - (row + 1) * track.box - row * TRACK_ROW_GAP
        boxes.append(TrackBox(number, x + column * track.box, y, track.box))
    return boxes


def track_height(track: Track, width: float) -> float:
    """Height a track takes, label included, in rows ``width`` wide."""
    boxes = track_boxes(track, 0.0, 0.0, width)
    return -min(b.y for b in boxes)


@dataclass(frozen=True)
class _BoxText:
    size: float
    note_size: float
    notes: dict[int, list[str]]


def track_text(track: Track) -> _BoxText:
    """Set the numbers and notes of a track's boxes, checking they fit inside.

    All notes of a track share one size, the largest at which the longest fits.
    """
    inner = track.box - 2 * (CLEAR + TRACK_LINE / 2)
    widest = max(fonts.string_width(str(n), fonts.BOLD, 1.0) for n in (track.first, track.last))
    size = min(10.0, track.box * 0.4, inner / widest)
    if size < LABEL_FLOOR:
        raise AidError(f"track '{track.label}': box numbers do not fit a box "
                       f"{track.box / MM:g} mm wide at {LABEL_FLOOR:g} pt", ("box",),
                       f"a box wide enough for its numbers at {LABEL_FLOOR:g} pt")
    room = inner - float(pdfmetrics.getAscent(fonts.BOLD, size)) - CLEAR
    note_size = NOTE_SIZE
    for number, note in (track.notes or {}).items():
        while True:
            lines = wrap(note, fonts.NARROW, note_size, inner)
            if lines is not None and len(lines) * note_size * 1.15 <= room:
                break
            note_size -= 0.25
            if note_size < NOTE_FLOOR - 1e-9:
                raise AidError(f"track '{track.label}': the note on box {number} does not fit "
                               f"the box at {NOTE_FLOOR:g} pt", ("notes", number),
                               f"a note that fits its box at {NOTE_FLOOR:g} pt")
    return _BoxText(size, note_size, {n: wrap(t, fonts.NARROW, note_size, inner) or []
                                      for n, t in (track.notes or {}).items()})


def draw_track(c: Canvas, track: Track, x: float, top: float, width: float,
               inset: float = 0.0) -> list[TrackBox]:
    """Draw a track: its label, then its boxes edge to edge, numbered at the top.

    Args:
        c: The canvas.
        track: The track.
        x: Left edge.
        top: Top of the label row.
        width: Room across; the boxes wrap into more rows when they need to.
        inset: How far the label keeps inside ``x`` and ``top`` (a track cut out as a
            piece keeps its label inside the cut).

    Returns:
        Where every box landed.

    Raises:
        AidError: A box, number or note does not fit.

    """
    boxes = track_boxes(track, x, top, width)
    text = track_text(track)
    label = fit_label(track.label, fonts.BOLD, TRACK_LABEL, width - 2 * inset,
                      floor=fonts.MIN_SIZE)
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    label.draw(c, x + inset, label.bottom_baseline(top - TRACK_LABEL_ROW + CLEAR + TRACK_LINE))
    c.setLineWidth(TRACK_LINE)
    for box in boxes:
        c.rect(box.x, box.y, box.size, box.size, stroke=1, fill=0)
    inset = CLEAR + TRACK_LINE / 2
    ascent = float(pdfmetrics.getAscent(fonts.BOLD, text.size))
    for box in boxes:
        baseline = box.y + box.size - inset - ascent
        c.setFont(fonts.BOLD, text.size)
        c.drawCentredString(box.x + box.size / 2, baseline, str(box.number))
        c.setFont(fonts.NARROW, text.note_size)
        y = baseline - CLEAR - text.note_size
        for line in text.notes.get(box.number, []):
            c.drawCentredString(box.x + box.size / 2, y, line)
            y -= text.note_size * 1.15
    c.restoreState()
    return boxes


# -- sea boxes --------------------------------------------------------------------------


@dataclass(frozen=True)
class SeaBox:
    """A named area of a strategic map: a rectangle measured from the map's top-left.

    Attributes:
        name: Printed at the top of the box.
        x: Distance of the left edge from the map's left edge (points).
        y: Distance of the top edge below the map's top edge (points).
        width: Width (points).
        height: Height (points).
        colour: Fill colour.
        note: Small text under the name, or "".

    """

    name: str
    x: float
    y: float
    width: float
    height: float
    colour: Color
    note: str = ""


def check_sea_boxes(boxes: Sequence[SeaBox], width: float, height: float) -> None:
    """Refuse boxes off a ``width`` x ``height`` map, overlaps, and text that does not fit.

    Raises:
        AidError: The first problem, with ``field`` = (index, key).

    """
    for index, box in enumerate(boxes):
        if box.x + box.width > width + 1e-6:
            raise AidError(f"sea box '{box.name}' runs {(box.x + box.width - width) / MM:.1f} "
                           f"mm past the map's right edge", (index, "width"),
                           f"a box that ends inside the map ({width / MM:.1f} mm wide)")
        if box.y + box.height > height + 1e-6:
            raise AidError(f"sea box '{box.name}' runs {(box.y + box.height - height) / MM:.1f}"
                           f" mm below the map's bottom edge", (index, "height"),
                           f"a box that ends inside the map ({height / MM:.1f} mm tall)")
        for other in boxes[:index]:
            if (box.x < other.x + other.width - 1e-6 and other.x < box.x + box.width - 1e-6
                    and box.y < other.y + other.height - 1e-6
                    and other.y < box.y + box.height - 1e-6):
                raise AidError(f"sea box '{box.name}' overlaps '{other.name}'", (index, "x"),
                               f"a box clear of '{other.name}'")
        _sea_text(box, index)


@dataclass(frozen=True)
class _SeaText:
    name: str
    size: float
    note: list[str]


def _sea_text(box: SeaBox, index: int) -> _SeaText:
    inner = box.width - 2 * (CLEAR + SEA_LINE / 2 + 0.6 * MM)
    name = fit_label(box.name, fonts.BOLD, NAME_SIZE, inner, floor=NAME_FLOOR)
    if name.failed or name.abbreviated:
        raise AidError(f"sea box '{box.name}': the name does not fit a box "
                       f"{box.width / MM:g} mm wide at {NAME_FLOOR:g} pt", (index, "name"),
                       f"a name that fits the box at {NAME_FLOOR:g} pt")
    note: list[str] = []
    if box.note:
        room = box.height - 2 * (CLEAR + SEA_LINE / 2) - name.size * 1.3 - CLEAR
        lines = wrap(box.note, fonts.NARROW, NOTE_SIZE, inner)
        if lines is None or len(lines) * NOTE_SIZE * 1.15 > room:
            raise AidError(f"sea box '{box.name}': the note does not fit the box",
                           (index, "note"), f"a note that fits the box at {NOTE_SIZE:g} pt")
        note = lines
    return _SeaText(name.text, name.size, note)


def draw_sea_boxes(c: Canvas, boxes: Sequence[SeaBox], left: float, top: float) -> None:
    """Draw sea boxes on a map whose top-left corner is at page (``left``, ``top``).

    Raises:
        AidError: A name or note does not fit its box.

    """
    texts = [_sea_text(box, index) for index, box in enumerate(boxes)]
    inset = CLEAR + SEA_LINE / 2
    c.saveState()
    c.setLineWidth(SEA_LINE)
    c.setStrokeColor(SEA_INK)
    for box, text in zip(boxes, texts, strict=True):
        x, y = left + box.x, top - box.y - box.height
        c.setFillColor(box.colour)
        c.rect(x, y, box.width, box.height, stroke=1, fill=1)
        c.setFillColor(SEA_INK)
        ascent = float(pdfmetrics.getAscent(fonts.BOLD, text.size))
        baseline = y + box.height - inset - ascent
        c.setFont(fonts.BOLD, text.size)
        c.drawCentredString(x + box.width / 2, baseline, text.name)
        c.setFont(fonts.NARROW, NOTE_SIZE)
        line_y = baseline - CLEAR - NOTE_SIZE
        for line in text.note:
            c.drawCentredString(x + box.width / 2, line_y, line)
            line_y -= NOTE_SIZE * 1.15
    c.restoreState()
