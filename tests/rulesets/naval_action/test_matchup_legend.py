"""The letter O in a matchup's armor value is explained on the page that prints it (issue 29)."""

from __future__ import annotations

from generator.data.library import load_library
from generator.kit.pipeline import compose
from generator.kit.seam import Request
from tests.pdftext import open_pages

LEGEND = ("The letter O before an armor value (O4): armor on an old, thin deck, which "
          "shells falling at long range pierce more easily; the rows already allow for it.")


def test_every_page_printing_old_deck_armor_explains_it() -> None:
    """Second Sirte's Italian matchups print "O4" (a British C class cruiser): every page
    with an O4 row carries the legend, and the British pages, with no O, carry none."""
    kit = compose(Request("tables", scenario="second-sirte"), library=load_library(),
                  only={"matchups-italian.pdf", "matchups-british.pdf"})
    italian = open_pages(kit.files["matchups-italian.pdf"])
    printing = [p for p in italian if "armor O4" in p.text]
    assert printing
    for page in printing:
        assert LEGEND in " ".join(page.text.split()), page.text[:200]
    for page in open_pages(kit.files["matchups-british.pdf"]):
        assert "armor O" not in page.text
        assert "The letter O" not in page.text
