"""Board aids read back from the PDF: exact hexes, exact track boxes, sea boxes, errors."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from generator.aids.boardaids import (
    BoardAids,
    Rendered,
    content_area,
    load_board_aids,
    render_board_aids,
)
from generator.core.errors import DataError
from generator.core.units import INCH, MM
from generator.pages.layout import safe_box
from tests.pdftext import Page, open_pages

TOL = 0.01 * MM
Point = tuple[float, float]


@dataclass
class Read:
    """The rendered PDF's pages, read back with pdfminer's boxes (through pypdfium2)."""

    pages: list[Page]


def render(data: dict[str, Any], paper: str = "a4") -> tuple[Rendered, Any]:
    aids = BoardAids.model_validate({"kind": "board-aids", "title": "Test", **data})
    rendered = render_board_aids(aids, paper, "test")  # type: ignore[arg-type]
    return rendered, Read(open_pages(rendered.component.pdf, geometry=True, advance=True))


def outlines(page: Any) -> list[list[Point]]:
    """Every closed path on the page, its corners in PDF coordinates (y up)."""
    shapes = []
    for curve in page.curves:
        points = [(x, page.height - top) for x, top in curve["pts"]]
        if len(points) == 7 and math.dist(points[0], points[-1]) < 1e-3:
            shapes.append(points[:6])
    return shapes


def crosses(segment: tuple[Point, Point], box: tuple[float, float, float, float]) -> bool:
    """True when a straight segment passes through a rectangle (x0, y0, x1, y1)."""
    (ax, ay), (bx, by) = segment
    x0, y0, x1, y1 = box
    # Liang-Barsky clipping: the segment crosses the box if some part survives.
    low, high = 0.0, 1.0
    for p, q in ((-(bx - ax), ax - x0), (bx - ax, x1 - ax), (-(by - ay), ay - y0),
                 (by - ay, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
    return low <= high


def word_boxes(page: Any) -> dict[str, tuple[float, float, float, float]]:
    return {w["text"]: (w["x0"], page.height - w["bottom"], w["x1"], page.height - w["top"])
            for w in page.extract_words()}


@pytest.mark.parametrize(("size", "orientation", "flats"), [
    ("16mm", "flat", 16 * MM), ("0.75in", "pointy", 0.75 * INCH), ("9mm", "flat", 9 * MM)])
def test_hexes_are_where_and_as_large_as_asked(size: str, orientation: str,
                                                flats: float) -> None:
    rendered, pdf = render({"hexes": {"size": size, "orientation": orientation}})
    grid = rendered.grid
    assert grid is not None and abs(grid.flats - flats) < 1e-9
    shapes = outlines(pdf.pages[0])
    assert len(shapes) == grid.columns * grid.rows >= 12
    r = flats / math.sqrt(3)
    by_centre = {(round(sum(x for x, _ in s) / 6, 2), round(sum(y for _, y in s) / 6, 2)): s
                 for s in shapes}
    for column, row in grid.cells():
        cx, cy = grid.centre(column, row)
        shape = by_centre[(round(cx, 2), round(cy, 2))]
        for (x, y), (ex, ey) in zip(shape, grid.vertices(column, row), strict=True):
            assert abs(x - ex) <= TOL and abs(y - ey) <= TOL
        # independent of HexGrid: every corner is r from the centre, every side r long
        for k in range(6):
            assert abs(math.dist(shape[k], (cx, cy)) - r) <= TOL
            assert abs(math.dist(shape[k], shape[(k + 1) % 6]) - r) <= TOL
    # neighbours across a flat side are exactly one hex size apart
    first = grid.centre(0, 0)
    if orientation == "flat":
        assert abs(grid.centre(0, 1)[1] - (first[1] - flats)) <= TOL
        assert abs(math.dist(grid.centre(1, 0), first) - flats) <= TOL
        top = max(y for s in shapes for _, y in s)
        assert abs(top - (first[1] + flats / 2)) <= TOL  # column 01 sits up
    else:
        assert abs(grid.centre(1, 0)[0] - (first[0] + flats)) <= TOL
        assert abs(math.dist(grid.centre(0, 1), first) - flats) <= TOL


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_grid_fills_the_safe_box_above_the_calibration_bars(orientation: str) -> None:
    rendered, pdf = render({"hexes": {"size": "15mm", "orientation": orientation}})
    grid = rendered.grid
    assert grid is not None
    area = content_area(notes=1)
    xs = [x for s in outlines(pdf.pages[0]) for x, _ in s]
    ys = [y for s in outlines(pdf.pages[0]) for _, y in s]
    assert area.x - TOL <= min(xs) and max(xs) <= area.right + TOL
    assert area.y - TOL <= min(ys) and max(ys) <= area.top + TOL
    # one more column or row would not fit
    more_columns = grid.__class__(grid.flats, grid.orientation, grid.columns + 1, grid.rows,
                                  0, 0)
    more_rows = grid.__class__(grid.flats, grid.orientation, grid.columns, grid.rows + 1, 0, 0)
    assert more_columns.width > area.width and more_rows.height > area.height
    text = pdf.pages[0].extract_text()
    assert "100 mm" in text and "4 in" in text and "15 mm (0.5906 in) across the flats" in text


@pytest.mark.parametrize(("size", "orientation"), [("16mm", "flat"), ("12mm", "pointy"),
                                                   ("7mm", "flat")])
def test_hex_numbers_sit_in_their_hex_and_no_line_crosses_them(size: str,
                                                               orientation: str) -> None:
    rendered, pdf = render({"hexes": {"size": size, "orientation": orientation}})
    grid = rendered.grid
    assert grid is not None
    page = pdf.pages[0]
    words = word_boxes(page)
    shapes = outlines(page)
    for column, row in grid.cells():
        number = grid.number(column, row)
        box = words[number]
        cx, cy = grid.centre(column, row)
        assert abs((box[0] + box[2]) / 2 - cx) <= 0.05 * MM, number
        # only sides of this hex and its neighbours can come near the number
        near = [(s[k], s[(k + 1) % 6]) for s in shapes
                if math.dist(s[0], (cx, cy)) < 2 * grid.flats for k in range(6)]
        assert len(near) >= 6 * 3  # a corner hex has two neighbours
        assert not any(crosses(seg, box) for seg in near), number
    assert grid.number(0, 0) == "0101" and grid.number(2, 9) == "0310"


def test_thin_lines_for_film_are_hairlines_in_black() -> None:
    _, thin = render({"hexes": {"size": "16mm", "thin": True}})
    _, normal = render({"hexes": {"size": "16mm"}})
    # pdfium reads widths as 32-bit floats: to 1e-6 pt
    assert {round(c["linewidth"], 6) for c in thin.pages[0].curves} == {0.25}
    # black (pdfium reports a colour whose components are equal as one grey value)
    assert {tuple(c["stroking_color"]) for c in thin.pages[0].curves} == {(0.0,)}
    assert {round(c["linewidth"], 6) for c in normal.pages[0].curves} == {0.5}


def test_numbering_can_start_anywhere_and_tiles_on() -> None:
    rendered, _ = render({"hexes": {"size": "20mm", "first_column": 12, "first_row": 5}})
    grid = rendered.grid
    assert grid is not None
    assert grid.number(0, 0) == "1205" and grid.number(1, 2) == "1307"
    # column 12 is even, so it sits half a hex below column 13
    assert abs(grid.centre(0, 0)[1] - (grid.centre(1, 0)[1] - grid.flats / 2)) <= TOL


def test_track_boxes_are_exact_and_labels_clear() -> None:
    rendered, pdf = render({"tracks": [
        {"label": "Turn", "first": 1, "last": 12, "box": "15mm",
         "notes": {4: "Winter", 9: "Convoy arrives"}},
        {"label": "Steps lost", "first": 0, "last": 30, "box": "0.4in"}]})
    page = pdf.pages[0]
    floor = content_area().y  # the calibration bars below are rectangles too
    rects = sorted((r for r in page.rects if page.height - r["bottom"] > floor),
                   key=lambda r: (round(r["top"]), r["x0"]))
    turn = [r for r in rects if abs(r["width"] - 15 * MM) <= TOL]
    steps = [r for r in rects if abs(r["width"] - 0.4 * INCH) <= TOL]
    assert len(turn) == 12 and len(steps) == 31 and len(rects) == 43
    for track, side in ((turn, 15 * MM), (steps, 0.4 * INCH)):
        for r in track:
            assert abs(r["height"] - side) <= TOL
    for a, b in zip(turn, turn[1:], strict=False):
        assert abs(b["x0"] - a["x1"]) <= TOL  # boxes edge to edge
    placed = rendered.tracks
    assert [b.number for b in placed[0]] == list(range(1, 13))
    assert [b.number for b in placed[1]] == list(range(31))
    assert len({round(b.y, 3) for b in placed[1]}) == 2  # 31 boxes of 0.4 in take two rows
    area = safe_box("a4")
    assert abs(placed[0][0].x - area.x) <= TOL
    assert abs(placed[0][0].x - turn[0]["x0"]) <= TOL
    # every number and note lies inside its box, and no box edge crosses the labels
    chars = page.chars
    edges = []
    for r in rects:
        x0, y0, x1, y1 = r["x0"], page.height - r["bottom"], r["x1"], page.height - r["top"]
        edges += [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)),
                  ((x0, y1), (x0, y0))]
    for ch in chars:
        box = (ch["x0"], page.height - ch["bottom"], ch["x1"], page.height - ch["top"])
        if box[1] < area.y + 30 * MM:
            continue  # the calibration block's own text
        assert not any(crosses(e, box) for e in edges), ch["text"]
    text = page.extract_text()
    assert "Turn" in text and "Steps lost" in text and "Winter" in text


def test_sea_boxes_are_placed_from_the_maps_corner() -> None:
    rendered, pdf = render({"sea": {"title": "Zones", "boxes": [
        {"name": "Denmark Strait", "x": "10mm", "y": "5mm", "width": "60mm",
         "height": "35mm", "note": "Pack ice in winter"},
        {"name": "Norwegian Sea", "x": "75mm", "y": "5mm", "width": "60mm",
         "height": "50mm", "colour": "#cfe0ee"}]}})
    assert rendered.sea_origin is not None
    left, top = rendered.sea_origin
    page = pdf.pages[0]
    rects = sorted((r for r in page.rects if page.height - r["bottom"] > content_area().y),
                   key=lambda r: r["x0"])
    assert len(rects) == 2
    for rect, (x, y, w, h) in zip(rects, ((10, 5, 60, 35), (75, 5, 60, 50)), strict=True):
        assert abs(rect["x0"] - (left + x * MM)) <= TOL
        assert abs((page.height - rect["top"]) - (top - y * MM)) <= TOL
        assert abs(rect["width"] - w * MM) <= TOL and abs(rect["height"] - h * MM) <= TOL
    words = word_boxes(page)
    for word, rect in (("Denmark", rects[0]), ("Strait", rects[0]), ("Norwegian", rects[1])):
        x0, y0, x1, y1 = words[word]
        # inside the box, at least the clearance away from its outline
        assert rect["x0"] + 0.4 * MM < x0 and x1 < rect["x1"] - 0.4 * MM, word
        assert y1 < page.height - rect["top"] - 0.4 * MM, word
    assert "Pack ice in winter" in page.extract_text()


AIDS = """\
kind: board-aids
title: Test aids
"""


def problems(tmp_path: Path, body: str) -> tuple[Path, list[str]]:
    path = tmp_path / "aids.yaml"
    path.write_text(AIDS + body, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_board_aids(path)
    return path, [str(p) for p in caught.value.problems]


def test_bad_fields_are_located(tmp_path: Path) -> None:
    path, found = problems(tmp_path, """\
hexes:
  size: 3mm
  orientation: flat-top
  first_column: 100
tracks:
  - label: Turn
    first: 5
    last: 3
    box: 15 mm
""")
    assert found == [
        f"{path}:4:9: hexes.size: found '3mm', expected a length from 5mm to 60mm",
        f"{path}:5:16: hexes.orientation: found 'flat-top', expected one of flat, pointy; "
        "did you mean 'flat'?",
        f"{path}:6:17: hexes.first_column: found 100, expected a number of at most 99",
        f"{path}:8:5: tracks.0: found a mapping, expected 'last' (3) at or after 'first' (5)",
    ]


def test_what_cannot_be_drawn_is_located(tmp_path: Path) -> None:
    path, found = problems(tmp_path, """\
tracks:
  - label: Turn
    last: 8
    box: 8mm
    notes:
      3: Reinforcements from Scapa Flow
sea:
  boxes:
    - name: Denmark Strait
      x: 10mm
      y: 5mm
      width: 60mm
      height: 35mm
    - name: Norwegian Sea
      x: 65mm
      y: 20mm
      width: 60mm
      height: 30mm
""")
    assert found == [
        f"{path}:8:10: tracks.0.notes.3: found 'Reinforcements from Scapa Flow', expected "
        "a note that fits its box at 5 pt",
        f"{path}:17:10: sea.boxes.1.x: found '65mm', expected a box clear of 'Denmark Strait'",
    ]
    path, found = problems(tmp_path, """\
sea:
  boxes:
    - name: Barents Sea
      x: 150mm
      y: 5mm
      width: 45mm
      height: 30mm
""")
    assert found == [
        f"{path}:8:14: sea.boxes.0.width: found '45mm', expected a box that ends inside the "
        "map (190.0 mm wide)",
    ]


def test_an_empty_file_says_what_it_needs(tmp_path: Path) -> None:
    path, found = problems(tmp_path, "tracks: []\n")
    assert found == [
        f"{path}:1:1: found a mapping, expected at least one of hexes, tracks and sea",
    ]


def test_hex_note_speaks_of_numbers_only_when_they_are_printed() -> None:
    from generator.aids.boardaids import HexSpec, hex_note

    numbered = HexSpec.model_validate({"size": "25.4mm", "numbers": True})
    bare = HexSpec.model_validate({"size": "25.4mm", "numbers": False})
    assert hex_note(numbered) == ("Hexes 25.4 mm (1 in) across the flats; numbers are "
                                  "column then row (XXYY).")
    assert hex_note(bare) == "Hexes 25.4 mm (1 in) across the flats."
