"""Rule 27's counter sheet and naval-step page are not three quarters empty (issue 29, item 4).

Read back from the packets: a side's naval-step tracks are cut out of its counter sheet,
in the room its counters leave, and the pieces then cover more than half the sheet between
its margins; the referee, who has no counters, gets the tracks on a page whose boxes
are the largest a track takes (40 mm, to 0.01 mm) and run down half its height.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.core.units import MM
from tests.pdftext import Page, open_pages

if TYPE_CHECKING:
    from tests.conftest import Kits

SCENARIO = "mediterranean-1940"
MARGIN = 10 * MM
"""The counter sprue's and the page's margin."""


def _track_boxes(page: Page) -> list[dict[str, float]]:
    """The 40 mm squares of the naval-step tracks (6 movement and 4 exploitation steps)."""
    boxes = [r for r in page.rects if abs(r["width"] - r["height"]) < 0.01 * MM
             and r["width"] > 20 * MM]
    assert len(boxes) == 10
    assert all(abs(r["width"] / MM - 40) <= 0.01 for r in boxes)
    return boxes


def test_the_referees_naval_step_boxes_fill_half_the_page(kits: Kits) -> None:
    kit = kits.build(SCENARIO)
    pages = open_pages(kit.folder / "referee.pdf", geometry=True)
    (page,) = [p for p in pages if "Naval steps: tracks" in p.text]
    boxes = _track_boxes(page)
    heading = min(w["top"] for w in page.extract_words() if w["text"] == "Naval")
    lowest = max(r["bottom"] for r in boxes)
    room = page.height - 2 * MARGIN  # the page between 10 mm margins
    assert (lowest - heading) / room >= 0.5


def test_a_sides_counter_sheet_carries_its_tracks(kits: Kits) -> None:
    """Counters and tracks together cover more than half the sheet inside its margins."""
    kit = kits.build(SCENARIO)
    for side in ("british", "italian"):
        pages = open_pages(kit.folder / f"{side}.pdf", geometry=True)
        assert not any("Naval steps: tracks" in p.text for p in pages)
        (front,) = [p for p in pages if "Cut on the grey lines" in p.text]
        boxes = _track_boxes(front)
        counters = [r for r in front.rects if abs(r["width"] - r["height"]) < 0.01 * MM
                    and abs(r["width"] - 12.7 * MM) < 0.01 * MM]
        # each piece once: its cut outline (the ground drawn under it has the same box)
        cut = {(round(r["x0"], 2), round(r["top"], 2)) for r in counters}
        area = len(cut) * (12.7 * MM) ** 2
        left = min(r["x0"] for r in boxes)
        top = min(r["top"] for r in boxes) - 5 * MM  # the track's label row
        tracks = {(r["x0"], r["top"]) for r in boxes}
        # the two track pieces: 4 boxes wide, two rows and one row of boxes, plus labels
        area += 160 * MM * (2 * 40 * MM + 5 * MM) + 160 * MM * (40 * MM + 5 * MM)
        assert len(tracks) == 10 and left >= MARGIN - 0.01 and top >= MARGIN
        room = (front.width - 2 * MARGIN) * (front.height - 2 * MARGIN)
        assert area / room > 0.5, (side, area / room)


def test_a_side_packet_wastes_at_most_a_tenth_of_its_pages(kits: Kits) -> None:
    """The packet prints run by run: reading pages, then the counters front and back
    (the tracks on the front, nothing behind them); no page of it is blank."""
    kit = kits.build(SCENARIO)
    for side in ("british", "italian"):
        pages = open_pages(kit.folder / f"{side}.pdf")
        blank = [n for n, p in enumerate(pages, 1)
                 if p.text.startswith("This page is intentionally blank")]
        assert (len(pages), blank) == (9, []), side
        # the counter fronts on a front page (7), their backs behind them (8)
        assert "Cut on the grey lines" in pages[6].text
        assert "Movement phase: naval steps" in pages[6].text
        assert "Backs of sheet" in pages[7].text
        assert "Movement phase" not in pages[7].text
