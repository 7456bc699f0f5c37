"""Issue 33: no name on a set-up map covers another name, a ship, an arrow, a ring or a coast.

Every bundled scenario's referee map and each side's map are read back from the packets:
each piece of text the table holds (its tight glyph box from pdfium) and every path
drawn over the table (curves flattened from their Bézier control points, each with its
page transform). Grid lines and the water are background; filled marks (ships,
arrowheads, dots) may not touch a name at all; lines (arrows, rings, arcs, land
outlines, leaders) may not pass through one; no two names may overlap; and every name
stays at least 1 mm inside the table's edge. The placer itself is checked on small
made-up maps: a blocked label goes to a free spot with a leader line, and the same input
places the same way.
"""

from __future__ import annotations

import ctypes
import math
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from generator.aids.maplabels import AROUND, GAPS, LabelPlacer, Request
from generator.aids.setupmap import GRID, LAND, WATER
from generator.core.units import MM
from tests.builds import kit

Point = tuple[float, float]
Box = tuple[float, float, float, float]

MAPS = {
    "savo-island": ["referee", "japanese", "allied"],
    "second-sirte": ["referee", "british", "italian"],
    "komandorski": ["referee", "american", "japanese"],
    "sunda-strait": ["referee", "allied", "japanese"],
    "river-plate": ["referee", "british", "german"],
    "guadalcanal-battleships": ["referee", "american", "japanese"],
    "latakia-1973": ["umpire", "israel", "syria"],
    "sheffield-1982": ["umpire", "uk", "argentina"],
}
SHOAL = (0.8, 0.88, 0.9)


def _near(rgb: tuple[float, ...] | None, want: tuple[float, float, float]) -> bool:
    return rgb is not None and all(abs(a - b) < 1.5 / 255 for a, b in zip(rgb, want,
                                                                           strict=True))


def _colour(obj: Any, get: Any) -> tuple[float, float, float] | None:
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    if not get(obj, ctypes.byref(r), ctypes.byref(g), ctypes.byref(b), ctypes.byref(a)):
        return None
    return r.value / 255, g.value / 255, b.value / 255


def _bezier(p0: Point, p1: Point, p2: Point, p3: Point, steps: int = 16) -> list[Point]:
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        out.append((u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0]
                    + t ** 3 * p3[0],
                    u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1]
                    + t ** 3 * p3[1]))
    return out


def _subpaths(obj: Any) -> list[tuple[list[Point], bool]]:
    """A path object's subpaths in page points (curves flattened), each with its closing."""
    matrix = pdfium_c.FS_MATRIX()
    pdfium_c.FPDFPageObj_GetMatrix(obj, ctypes.byref(matrix))
    x, y = ctypes.c_float(), ctypes.c_float()
    subs: list[tuple[list[Point], bool]] = []
    controls: list[Point] = []
    for i in range(pdfium_c.FPDFPath_CountSegments(obj)):
        seg = pdfium_c.FPDFPath_GetPathSegment(obj, i)
        kind = pdfium_c.FPDFPathSegment_GetType(seg)
        pdfium_c.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y))
        point = (matrix.a * x.value + matrix.c * y.value + matrix.e,
                 matrix.b * x.value + matrix.d * y.value + matrix.f)
        if kind == pdfium_c.FPDF_SEGMENT_MOVETO or not subs:
            subs.append(([point], False))
        elif kind == pdfium_c.FPDF_SEGMENT_BEZIERTO:
            controls.append(point)
            if len(controls) == 3:
                subs[-1][0].extend(_bezier(subs[-1][0][-1], *controls))
                controls = []
        else:
            subs[-1][0].append(point)
        if pdfium_c.FPDFPathSegment_GetClose(seg):
            subs[-1] = (subs[-1][0], True)
    return subs


def _text(obj: Any, textpage: Any) -> str:
    n = pdfium_c.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
    buffer = ctypes.create_string_buffer(n * 2)
    pdfium_c.FPDFTextObj_GetText(obj.raw, textpage.raw,
                                 ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)), n * 2)
    return buffer.raw.decode("utf-16-le").split("\x00", 1)[0]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(a: Point, b: Point, box: Box) -> bool:
    """Whether segment a-b has a point inside the box (sampled finely: 0.02 pt steps)."""
    if max(a[0], b[0]) < box[0] or min(a[0], b[0]) > box[2] or \
            max(a[1], b[1]) < box[1] or min(a[1], b[1]) > box[3]:
        return False
    steps = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 0.02))
    return any(box[0] < a[0] + (b[0] - a[0]) * i / steps < box[2]
               and box[1] < a[1] + (b[1] - a[1]) * i / steps < box[3]
               for i in range(steps + 1))


def _inside(point: Point, polygon: list[Point]) -> bool:
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _map(scenario: str, reader: str,
         paper: str = "a4") -> tuple[Box, list[tuple[str, Box]], list[Any]]:
    """The table, the names on it, and every mark drawn over it, read from the packet."""
    pdf = pdfium.PdfDocument(kit(scenario, paper=paper).files[f"{reader}.pdf"])
    page = next(p for p in pdf if "Map scale" in p.get_textpage().get_text_range())
    textpage = page.get_textpage()
    frame: Box | None = None
    paths = []
    for obj in page.get_objects():
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        fill = _colour(obj.raw, pdfium_c.FPDFPageObj_GetFillColor)
        stroke = _colour(obj.raw, pdfium_c.FPDFPageObj_GetStrokeColor)
        mode, stroked = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(mode), ctypes.byref(stroked))
        subs = _subpaths(obj.raw)
        if mode.value and _near(fill, (WATER.red, WATER.green, WATER.blue)):
            xs = [p[0] for s in subs for p in s[0]]
            ys = [p[1] for s in subs for p in s[0]]
            frame = (min(xs), min(ys), max(xs), max(ys))
            continue
        if not mode.value and _near(stroke, (GRID.red, GRID.green, GRID.blue)):
            continue
        land = _near(fill, (LAND.red, LAND.green, LAND.blue)) or _near(fill, SHOAL)
        kind = "line" if not mode.value or land else "mark"
        paths.extend((kind, points, closed) for points, closed in subs)
    assert frame is not None
    names = []
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT]):
        box = obj.get_bounds()
        if _overlap(box, frame):
            names.append((_text(obj, textpage), box))
    return frame, names, paths


@pytest.mark.parametrize(("scenario", "reader", "paper"),
                         [(s, r, "a4") for s, readers in MAPS.items() for r in readers]
                         # The most crowded maps again on letter paper (another map scale).
                         + [(s, "referee", "letter") for s in ("savo-island", "second-sirte")])
def test_no_name_on_a_map_is_covered_or_crossed(scenario: str, reader: str,
                                                paper: str) -> None:
    frame, names, paths = _map(scenario, reader, paper)
    assert names, f"{scenario}/{reader}: no names on the map"
    inset = 1 * MM - 0.01 * MM
    for text, box in names:
        assert (box[0] >= frame[0] + inset and box[1] >= frame[1] + inset
                and box[2] <= frame[2] - inset and box[3] <= frame[3] - inset), \
            f"{scenario}/{reader}: '{text}' not 1 mm inside the table"
    for i, (text, box) in enumerate(names):
        for other, second in names[i + 1:]:
            assert not _overlap(box, second), f"{scenario}/{reader}: '{text}' on '{other}'"
    for text, box in names:
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        for kind, points, closed in paths:
            edges = list(zip(points, [*points[1:], points[0]] if closed or kind == "mark"
                             else points[1:], strict=False))
            crossed = any(_crosses(a, b, box) for a, b in edges)
            covered = kind == "mark" and (_inside(middle, points) or any(
                box[0] < x < box[2] and box[1] < y < box[3] for x, y in points))
            assert not crossed and not covered, (
                f"{scenario}/{reader}: '{text}' at {tuple(round(v, 1) for v in box)} is "
                f"{'crossed by a line' if crossed else 'covered by a mark'} "
                f"near {tuple(round(v, 1) for v in points[0])}")


def _placer() -> LabelPlacer:
    return LabelPlacer((0.0, 0.0, 200 * MM, 150 * MM))


def test_a_label_takes_the_first_free_side_of_its_anchor() -> None:
    placer = _placer()
    anchor = (100 * MM, 75 * MM)
    request = Request("Force H", "QD-Narrow", 7, WATER, [anchor])
    # A ship right of the anchor: the label goes to the left, the second side tried.
    placer.polygon([(101 * MM, 74 * MM), (130 * MM, 74 * MM), (130 * MM, 76 * MM),
                    (101 * MM, 76 * MM)])
    label = placer.near(request, 20 * MM, 5.0, -1.5)
    assert label is not None and label.leader is None
    assert AROUND[1] == (-1, 0)
    assert label.box == pytest.approx((anchor[0] - GAPS[0] - 20 * MM, anchor[1] - 3.25,
                                       anchor[0] - GAPS[0], anchor[1] + 3.25))
    assert label.baseline == pytest.approx((label.box[0], label.box[1] + 1.5))


def test_a_boxed_in_label_goes_to_a_free_spot_with_a_leader_line() -> None:
    placer = _placer()
    anchor = (100 * MM, 75 * MM)
    # A ring close round the anchor: nothing beside it is free, inside or out.
    placer.circle(anchor, 6 * MM)
    request = Request("Picket", "QD-Narrow", 7, WATER, [anchor])
    assert placer.near(request, 20 * MM, 5.0, -1.5) is None
    label = placer.far(request, 20 * MM, 5.0, -1.5)
    assert label.leader is not None and label.leader[0] == anchor
    assert placer.free(label.box) is False  # now taken by itself
    others = LabelPlacer(placer.frame, circles=list(placer.circles))
    assert others.free(label.box)
    # The leader stops short of the label's box and the ring does not cross the label.
    end = label.leader[1]
    assert not (label.box[0] <= end[0] <= label.box[2] and label.box[1] <= end[1] <= label.box[3])
    centre = ((label.box[0] + label.box[2]) / 2, (label.box[1] + label.box[3]) / 2)
    assert math.hypot(centre[0] - anchor[0], centre[1] - anchor[1]) > 6 * MM
    # The same marks and labels place the same way every time (byte-identical builds).
    again = _placer()
    again.circle(anchor, 6 * MM)
    assert again.far(request, 20 * MM, 5.0, -1.5) == label


def test_no_label_leaves_the_table_even_at_its_edge() -> None:
    placer = _placer()
    corner = (199.5 * MM, 149.5 * MM)
    label = placer.near(Request("North-east", "QD-Narrow", 7, WATER, [corner]), 20 * MM,
                        5.0, -1.5)
    assert label is not None
    assert label.box[2] <= 199 * MM and label.box[3] <= 149 * MM
