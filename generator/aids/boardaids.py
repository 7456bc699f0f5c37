"""Board aids for hex-and-counter and strategic games: hex overlays, tracks, sea boxes.

Next to the strips and gauges, these are the printed helpers a board game needs:

- a **hex grid overlay**: flat-top or pointy-top hexes of an exact size across the
  flats, numbered in the usual XXYY scheme (column, then row), filling the page's safe
  box above the calibration bars; thin lines on request, for printing on transparency;
- **tracks**: a row of numbered boxes (a turn track, a step-loss track) with a label;
- **sea boxes**: named rectangles at given positions, for a strategic map's sea zones.

All sizes are points inside, unit strings (``16mm``, ``0.625in``) in the YAML file, and
everything is placed exactly: a hex's centre and corners are where ``HexGrid`` says,
so a test can read them back from the PDF. Text is always set inside its hex or box
with a clearance, so no line ever crosses a number or a name.

The parts are laid out and drawn by ``generator.aids.boardparts``; here is the file that
asks for them (its schema, its checks, loading it) and the pages it renders to.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator
from reportlab.lib.colors import HexColor

from generator.aids.boardparts import (
    HEX_LINE,
    THIN_LINE,
    TRACK_GAP,
    AidError,
    HexGrid,
    Orientation,
    SeaBox,
    Track,
    TrackBox,
    check_sea_boxes,
    draw_hex_grid,
    draw_sea_boxes,
    draw_track,
    hex_grid,
    number_place,
    track_boxes,
    track_height,
    track_text,
)
from generator.aids.strips import HEADER, NOTES_GAP, start_page
from generator.core.errors import Problem
from generator.core.units import MM
from generator.data.datamodel import Strict, once
from generator.data.validation import describe, load_model
from generator.data.yamlsource import Loc, SourceDoc
from generator.pages.calibration import calibration_height
from generator.pages.component import Bookmark, Component
from generator.pages.layout import Paper, SafeBox, new_canvas, page_size, safe_box
from generator.pieces.sprue import length_between

# -- the YAML file ----------------------------------------------------------------------

HexSize = Annotated[float, length_between(5, 60)]
BoxSize = Annotated[float, length_between(6, 40)]
Offset = Annotated[float, length_between(0, 270)]
Side = Annotated[float, length_between(10, 270)]


class HexSpec(Strict):
    """A hex overlay page."""

    size: HexSize = Field(description="Hex size across the flats, e.g. '16mm' (5-60mm).")
    orientation: Orientation = Field("flat",
                                     description="flat (flat top) or pointy (corner on top).")
    thin: bool = Field(False, description="Hairline black lines, for transparency film.")
    numbers: bool = Field(True, description="Print XXYY hex numbers.")
    first_column: int = Field(1, ge=0, le=99, description="Number of the first column.")
    first_row: int = Field(1, ge=0, le=99, description="Number of the first row.")


class TrackSpec(Strict):
    """A track: numbered boxes from ``first`` to ``last``."""

    label: str = Field(min_length=1, max_length=60, description="Printed above the boxes.")
    first: int = Field(0, ge=-99, le=999, description="Number of the first box.")
    last: int = Field(ge=-99, le=999, description="Number of the last box.")
    box: BoxSize = Field(description="Side of each square box, e.g. '14mm' (6-40mm).")
    notes: dict[int, str] = Field(default_factory=dict,
                                  description="Small text in some boxes, by box number.")

    @model_validator(mode="after")
    def _range(self) -> TrackSpec:
        if self.last < self.first:
            raise ValueError(f"expected 'last' ({self.last}) at or after 'first' ({self.first})")
        if self.last - self.first >= 200:
            raise ValueError("expected at most 200 boxes")
        return self

    @field_validator("notes")
    @classmethod
    def _short_notes(cls, notes: dict[int, str]) -> dict[int, str]:
        for number, text in notes.items():
            if not 1 <= len(text) <= 60:
                raise ValueError(f"expected notes of 1 to 60 characters (box {number})")
        return notes

    @model_validator(mode="after")
    def _notes_on_the_track(self) -> TrackSpec:
        outside = sorted(n for n in self.notes if not self.first <= n <= self.last)
        if outside:
            raise ValueError(f"expected notes only on boxes {self.first} to {self.last} "
                             f"(not {', '.join(map(str, outside))})")
        return self

    def track(self) -> Track:
        """The drawing description."""
        return Track(self.label, self.first, self.last, self.box, dict(self.notes))


class SeaBoxSpec(Strict):
    """One sea box, placed from the map's top-left corner."""

    name: str = Field(min_length=1, max_length=40, description="Printed at the top of the box.")
    x: Offset = Field(description="Left edge, right of the map's left edge, e.g. '12mm'.")
    y: Offset = Field(description="Top edge, below the map's top edge, e.g. '30mm'.")
    width: Side = Field(description="Width, e.g. '60mm'.")
    height: Side = Field(description="Height, e.g. '40mm'.")
    colour: str = Field("#dfeaf3", pattern=r"^#[0-9A-Fa-f]{6}$", description="Fill, '#rrggbb'.")
    note: str | None = Field(None, min_length=1, max_length=200,
                             description="Small text under the name.")

    def box(self) -> SeaBox:
        """The drawing description."""
        return SeaBox(self.name, self.x, self.y, self.width, self.height,
                      HexColor(self.colour), self.note or "")


class SeaSpec(Strict):
    """A page of sea boxes."""

    title: str = Field("Sea areas", min_length=1, max_length=80, description="Page heading.")
    landscape: bool = Field(False, description="Turn the page.")
    boxes: list[SeaBoxSpec] = Field(min_length=1, max_length=100, description="The boxes.")

    @field_validator("boxes")
    @classmethod
    def _unique(cls, boxes: list[SeaBoxSpec]) -> list[SeaBoxSpec]:
        once([b.name for b in boxes], "sea box name")
        return boxes


class BoardAids(Strict):
    """A board-aids file: any of a hex overlay, tracks and a sea-box map."""

    kind: Literal["board-aids"] = Field(description="Always 'board-aids'.")
    title: str = Field(min_length=1, max_length=80, description="Title of the pages.")
    hexes: HexSpec | None = Field(None, description="A hex overlay page.")
    tracks: list[TrackSpec] = Field(default_factory=list, max_length=40,
                                    description="Tracks, on as many pages as they need.")
    sea: SeaSpec | None = Field(None, description="A page of sea boxes.")

    @model_validator(mode="after")
    def _something(self) -> BoardAids:
        if self.hexes is None and not self.tracks and self.sea is None:
            raise ValueError("expected at least one of hexes, tracks and sea")
        return self


def content_area(landscape: bool = False, notes: int = 0) -> SafeBox:
    """The room a board-aids page leaves under its heading and above the calibration bars.

    The safe box is the same on A4 and Letter, so a sea map laid out for one fits both.
    ``notes`` counts the lines under the heading (see ``strips.start_page``).
    """
    box = safe_box("a4", landscape)
    floor = box.y + calibration_height(box.width) + 2 * MM
    top = box.top - HEADER - notes * 4 * MM - (NOTES_GAP if notes else 0.0)
    return SafeBox(box.x, floor, box.width, top - floor)


def check_board_aids(aids: BoardAids, doc: SourceDoc) -> list[Problem]:
    """What only laying the aids out can tell, located in the file.

    That is: hex numbers or track numbers and notes that do not fit, sea boxes off the
    map or overlapping, names too long for their box.
    """
    problems: list[Problem] = []
    if aids.hexes is not None:
        spec = aids.hexes
        try:
            grid = hex_grid(content_area(notes=1), spec.size, spec.orientation, spec.first_column,
                            spec.first_row)
            if spec.numbers:
                number_place(grid, THIN_LINE if spec.thin else HEX_LINE)
        except AidError as exc:
            problems.append(_located(doc, ("hexes",), exc))
    for index, spec_track in enumerate(aids.tracks):
        try:
            track_text(spec_track.track())
            track_boxes(spec_track.track(), 0.0, 0.0, content_area().width)
        except AidError as exc:
            problems.append(_located(doc, ("tracks", index), exc))
    if aids.sea is not None:
        area = content_area(aids.sea.landscape)
        try:
            check_sea_boxes([b.box() for b in aids.sea.boxes], area.width, area.height)
        except AidError as exc:
            problems.append(_located(doc, ("sea", "boxes"), exc))
    return problems


def _located(doc: SourceDoc, entry: Loc, exc: AidError) -> Problem:
    loc = (*entry, *exc.field)
    return doc.problem(loc, f"found {describe(_raw(doc, loc))}, expected {exc.expected}")


def _raw(doc: SourceDoc, loc: Loc) -> object:
    """The value the user wrote at ``loc`` (unit strings as written)."""
    value: object = doc.data
    for part in loc:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and part < len(value):
            value = value[part]
        else:
            return None
    return value


def load_board_aids(path: Path, display: str | None = None) -> BoardAids:
    """Load a board-aids file and check that everything in it can be drawn.

    Raises:
        DataError: With every problem, each located by line and column.

    """
    return load_model(BoardAids, path, display, check=check_board_aids)


@dataclass(frozen=True)
class Rendered:
    """Board aids as a component, with where everything landed (for checks and tests)."""

    component: Component
    grid: HexGrid | None
    tracks: list[list[TrackBox]]
    sea_origin: tuple[float, float] | None


def hex_note(spec: HexSpec) -> str:
    """The line under the hex page's heading: the size to check and, if printed, the numbering."""
    size = f"Hexes {spec.size / MM:.4g} mm ({spec.size / 72:.4g} in) across the flats"
    # Only a sheet that prints hex numbers says how to read them.
    return f"{size}; numbers are column then row (XXYY)." if spec.numbers else f"{size}."


def render_board_aids(aids: BoardAids, paper: Paper, footer: str, key: str = "board-aids",
                      label: str = "Aids-") -> Rendered:
    """Draw a board-aids file: hex overlay, tracks, then sea map, each on its own page(s).

    Every page has the heading, footer and calibration bars of ``strips.start_page``.

    Args:
        aids: The loaded file.
        paper: ``a4`` or ``letter``.
        footer: Small print at the top right of every page.
        key: Component key.
        label: Page-label prefix.

    Returns:
        The component and where the hexes, track boxes and sea map landed.

    """
    buffer = io.BytesIO()
    c = new_canvas(buffer, paper, aids.title)
    bookmarks: list[Bookmark] = []
    page = -1
    grid: HexGrid | None = None
    placed: list[list[TrackBox]] = []
    origin: tuple[float, float] | None = None

    def new_page(title: str, landscape: bool = False,
                 notes: Sequence[str] = ()) -> tuple[SafeBox, float, float]:
        nonlocal page
        if page >= 0:
            c.showPage()
        page += 1
        c.setPageSize(page_size(paper, landscape))
        box = safe_box(paper, landscape)
        top, floor = start_page(c, box, title, footer, notes)
        return box, top, floor

    if aids.hexes is not None:
        spec = aids.hexes
        box, top, floor = new_page(f"{aids.title}: hex grid", notes=[hex_note(spec)])
        bookmarks.append(Bookmark("Hex grid", page))
        grid = hex_grid(SafeBox(box.x, floor, box.width, top - floor), spec.size,
                        spec.orientation, spec.first_column, spec.first_row)
        draw_hex_grid(c, grid, spec.thin, spec.numbers)
    if aids.tracks:
        box, top, floor = new_page(f"{aids.title}: tracks")
        bookmarks.append(Bookmark("Tracks", page))
        y = top
        for spec_track in aids.tracks:
            track = spec_track.track()
            if y - track_height(track, box.width) < floor:
                box, top, floor = new_page(f"{aids.title}: tracks (continued)")
                y = top
            placed.append(draw_track(c, track, box.x, y, box.width))
            y -= track_height(track, box.width) + TRACK_GAP
    if aids.sea is not None:
        box, top, floor = new_page(f"{aids.title}: {aids.sea.title}", aids.sea.landscape)
        bookmarks.append(Bookmark(aids.sea.title, page))
        origin = (box.x, top)
        draw_sea_boxes(c, [b.box() for b in aids.sea.boxes], box.x, top)
    c.showPage()
    c.save()
    component = Component(key, aids.title, label, buffer.getvalue(), page + 1, bookmarks)
    return Rendered(component, grid, placed, origin)
