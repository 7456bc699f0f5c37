"""A club's branding never prints where a measuring page's cut lines may run (issue 29, item 5).

Measuring pages (turn guides, tapes, gauges, board aids) have no footer of their own,
but a club's ``branding.yaml`` puts its name (and logo) on their bottom line. The floor
``strips.start_page`` gives the content must lie above that line: a page is started
with a club's branding, its floor taken, and the club's words read back from the PDF.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from generator.aids.strips import start_page
from generator.core.units import MM
from generator.pages import branding
from generator.pages.layout import Paper, new_canvas, safe_box
from tests.pdftext import open_pages

CLUB = "Harbour Wargames Club of the Northern Reaches"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_floor_of_a_measuring_page_is_above_the_clubs_line(
        tmp_path: Path, paper: Paper) -> None:
    (tmp_path / "branding.yaml").write_text(f"club: {CLUB}\n", encoding="utf-8")
    with branding.branded(tmp_path):
        buffer = io.BytesIO()
        c = new_canvas(buffer, paper, "t", landscape=True)
        box = safe_box(paper, landscape=True)
        _, floor = start_page(c, box, "Turn guides", "kit", ["a note"])
        c.showPage()
        c.save()
    (page,) = open_pages(buffer.getvalue())
    words = page.extract_words()
    (first,) = [w for w in words if w["text"] == "Harbour"]
    club = [w for w in words if abs(w["top"] - first["top"]) < 1]
    assert " ".join(w["text"] for w in club) == CLUB
    # content (cut lines included) may come down to the floor: the club's line is below it
    top_of_club = page.height - min(w["top"] for w in club)
    assert top_of_club < floor - 0.5 * MM
