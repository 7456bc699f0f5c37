"""Benchmark the imposition engine and the PNG export on 1,200 markers.

Usage: ``python bench/markers.py [--repeat N]``

1. quarterdeck: 1,200 battery-target markers (a filled rectangle, a pointer and two
   auto-fitted labels each) made from the bundled classes and imposed on A4 with cut
   lines and invisible ids.
2. The floor: a bare ReportLab script drawing the same rectangles, pointers, labels and
   cut lines at the same positions, with no fitting, no ids and no layout logic.
3. 1,200 PNGs at 300 dpi of the same markers.

Targets (see README.md): (1) within 1.3 x (2); (3) under 10 s.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.kit.pipeline import validated_library
from generator.pieces.imposition import CUT_GREY, CUT_WIDTH, Options, impose, layout
from generator.pieces.pieces import Piece
from generator.pieces.sprue import load_sprue
from generator.rulesets.naval_action import NAME, SPRUE
from generator.rulesets.naval_action.cardtables import load_tables
from generator.rulesets.naval_action.components.markers import MarkerMaker
from generator.rulesets.naval_action.derive import ship_view

COUNT = 1200
RATIO = 1.3
PNG_S = 10.0


def views() -> list[Any]:
    """One view per ship of every bundled class (enough batteries for 1,200 markers)."""
    library = validated_library([])
    out = []
    for entry in library.classes_of(NAME).values():
        for ship in entry.model.ships:
            out.append(ship_view(entry.model, ship, None, None, "x", "x", 0.5, "cm"))
    return out


def make_pieces(all_views: list[Any]) -> list[Piece]:
    """quarterdeck's own work: build 1,200 target pieces (labels fitted)."""
    maker = MarkerMaker(load_tables().markers)
    pieces: list[Piece] = []
    for view in all_views:
        pieces.extend(maker.target_pieces(view))
        if len(pieces) >= COUNT:
            break
    if len(pieces) < COUNT:
        sys.exit(f"only {len(pieces)} battery markers in the bundled data")
    return pieces[:COUNT]


def ours(all_views: list[Any]) -> bytes:
    pieces = make_pieces(all_views)
    sprue = load_sprue(SPRUE)
    return impose(pieces, sprue, Options(duplex="off"), "bench", "bench").pdf


def floor(boxes: list[tuple[int, float, float, str, str, Any, Any]], width: float,
          height: float) -> bytes:
    """The same drawing with bare ReportLab: rectangles, pointers, labels, cut lines."""
    fonts.register()
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, pageCompression=0)
    page = 0
    for number, x, y, name, what, fill, ink in boxes:
        while number > page:
            c.showPage()
            page += 1
        c.saveState()
        c.translate(x, y)
        c.setFillColor(fill)
        c.rect(0, 0, width, height, stroke=0, fill=1)
        c.setFillColor(ink)
        path = c.beginPath()
        path.moveTo(0, height / 2)
        path.lineTo(3.4, height)
        path.lineTo(3.4, 0)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        c.setFont(fonts.NARROW_BOLD, 6)
        c.drawRightString(width - 1.3, height - 7.4, name)
        c.setFont(fonts.NARROW, 5.5)
        c.drawRightString(width - 1.3, 2.8, what)
        c.restoreState()
        c.setLineWidth(CUT_WIDTH)
        c.setStrokeGray(CUT_GREY)
        c.rect(x, y, width, height, stroke=1, fill=0)
    c.showPage()
    c.save()
    return buf.getvalue()


def floor_boxes(all_views: list[Any]) -> tuple[list[Any], float, float]:
    """Positions, texts and colours for the floor, the same as quarterdeck's (not timed)."""
    pieces = make_pieces(all_views)
    sheets = layout(pieces, load_sprue(SPRUE), Options(duplex="off"))
    tables = load_tables().markers
    texts = []
    for view in all_views:
        colours = tables.nation_colours[view.cls.nation.value]
        for battery in view.batteries:
            texts.append((view.name, f"{battery.position} {battery.guns} × "
                          f"{battery.bore_in:g}in", HexColor(colours.fill),
                          HexColor(colours.ink)))
    slots = [slot for sheet in sheets for slot in sheet.slots]
    boxes = [(slot.page, slot.x, slot.y, *text) for slot, text in zip(slots, texts,
                                                                       strict=False)]
    width, height = tables.marker_sizes.battery_target
    return boxes, width, height


def best(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    all_views = views()
    boxes, width, height = floor_boxes(all_views)
    ours(all_views)  # warm caches (fonts, tables) for both sides alike
    floor(boxes, width, height)
    # Interleaved, so a burst of load on the machine hits both sides alike.
    t_ours, t_floor = [], []
    for _ in range(args.repeat):
        t_ours.append(best(lambda: ours(all_views), 1))
        t_floor.append(best(lambda: floor(boxes, width, height), 1))
    ratio = min(t_ours) / min(t_floor)
    pages = len({b[0] for b in boxes})
    print(f"{COUNT} markers on {pages} A4 pages: quarterdeck {min(t_ours):.3f} s "
          f"(median {statistics.median(t_ours):.3f}), floor {min(t_floor):.3f} s "
          f"(median {statistics.median(t_floor):.3f}): {ratio:.2f} x "
          f"[{'ok' if ratio <= RATIO else 'MISSED'} <= {RATIO}]")
    from generator.pieces.export import export_pngs

    pieces = make_pieces(all_views)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        written = export_pngs(pieces, Path(tmp), 300)
        took = time.perf_counter() - t0
    print(f"{len(written)} PNGs at 300 dpi: {took:.2f} s "
          f"[{'ok' if took < PNG_S else 'MISSED'} < {PNG_S:.0f} s]")


if __name__ == "__main__":
    main()
