"""Every sheet of pieces cut to scale carries a bar to measure first (issue 29, item 6).

Ship markers at 1:12,000, counters matched to hexes and cards all go through the shared
imposition engine: each front sheet's footer has a solid 50 mm bar, labelled, clear of
every other character on the page; back sheets (printed behind) carry none.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.core.units import MM
from generator.pages.calibration import FOOTER_BAR_LABEL, FOOTER_BAR_THICKNESS
from generator.pieces.imposition import Options
from generator.pieces.pieces import Piece
from tests.engine.test_print_pieces import imposed_sets
from tests.engine.test_print_pieces import pieces as pieces  # noqa: F401 (the fixture)
from tests.pdftext import open_pages

TOL = 0.01 * MM


def _bars(page: Any) -> list[dict[str, Any]]:
    return [r for r in page.rects if r["fill"] and abs(r["width"] - 50 * MM) < TOL
            and abs(r["height"] - FOOTER_BAR_THICKNESS) < TOL]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_front_sheet_has_a_50mm_bar_clear_of_all_text(
        pieces: dict[str, list[Piece]], paper: str) -> None:  # noqa: F811
    fronts = 0
    for imposed, sprue in imposed_sets(pieces, Options(paper=paper)):  # type: ignore[arg-type]
        pages = open_pages(imposed.pdf, geometry=True)
        for sheet, page in zip(imposed.sheets, pages, strict=True):
            bars = _bars(page)
            if sheet.face == "back":
                assert bars == []
                continue
            fronts += 1
            (bar,) = bars
            # inside the margins, below every piece
            assert bar["x0"] >= sprue.margin - TOL
            assert bar["x1"] <= page.width - sprue.margin + TOL
            assert page.height - bar["top"] < min(s.y for s in sheet.slots)
            assert FOOTER_BAR_LABEL in page.text
            for ch in page.chars:
                if ch["text"].isspace() or ch["size"] < 2:  # the invisible piece ids
                    continue
                clear = (ch["x1"] <= bar["x0"] + TOL or ch["x0"] >= bar["x1"] - TOL
                         or ch["bottom"] <= bar["top"] + TOL or ch["top"] >= bar["bottom"] - TOL)
                assert clear, (ch["text"], ch["x0"], bar)
    assert fronts >= 4
