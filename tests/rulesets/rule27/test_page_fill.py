"""Rule 27's naval-step page is not three quarters empty (issue 29, item 4).

Read back from the side packet: the track boxes are the largest a track takes (40 mm,
to 0.01 mm) and the tracks cover at least half the page's height between its margins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.core.units import MM
from tests.pdftext import open_pages

if TYPE_CHECKING:
    from tests.conftest import Kits

SCENARIO = "mediterranean-1940"


def test_naval_step_boxes_fill_half_the_page(kits: Kits) -> None:
    kit = kits.build(SCENARIO)
    pages = open_pages(kit.folder / "british.pdf", geometry=True)
    (page,) = [p for p in pages if "Naval steps: tracks" in p.text]
    boxes = [r for r in page.rects if abs(r["width"] - r["height"]) < 0.01 * MM
             and r["width"] > 20 * MM]
    # 6 movement steps and 4 exploitation steps, each box 40 mm square
    assert len(boxes) == 10
    assert all(abs(r["width"] / MM - 40) <= 0.01 for r in boxes)
    heading = min(w["top"] for w in page.extract_words() if w["text"] == "Naval")
    lowest = max(r["bottom"] for r in boxes)
    room = page.height - 2 * 10 * MM  # the page between 10 mm margins
    assert (lowest - heading) / room >= 0.5


def test_a_side_packet_wastes_at_most_a_tenth_of_its_pages(kits: Kits) -> None:
    """The packet prints run by run: reading pages, then the counters front and back,
    then the one-sided track; no page of it is blank."""
    kit = kits.build(SCENARIO)
    for side in ("british", "italian"):
        pages = open_pages(kit.folder / f"{side}.pdf")
        blank = [n for n, p in enumerate(pages, 1)
                 if p.text.startswith("This page is intentionally blank")]
        assert (len(pages), blank) == (10, []), side
        # the counter fronts on a front page (7), their backs behind them (8)
        assert "Cut on the grey lines" in pages[6].text
        assert "Movement phase: naval steps" in pages[8].text
