"""Print-on-demand exports (issue 31 item 4): ``quarterdeck markers SCENARIO --pod DIR``.

Read back: each set's PDF has one face a page, fronts and backs alternating, each page
the card plus 3 mm of bleed with its TrimBox on the cut (to 0.01 mm); each face's PNG
is that page at 300 dpi; a deck's shared back is one ``back.png``; the listing's copies
are the pieces' quantities; a file the user keeps in the folder is left alone.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from generator.cli.main import main
from generator.core.units import INCH, MM
from generator.kit.pipeline import compose
from generator.kit.seam import Request

TOL = 0.01 * MM


def _px(points: float) -> int:
    return round(points / INCH * 300)


@pytest.fixture(scope="module")
def pod(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pod")
    folder = out / "upload"
    folder.mkdir()
    (folder / "mine.txt").write_text("kept")
    result = CliRunner().invoke(main, ["markers", "river-plate", "--pod", str(folder),
                                       "--out", str(out / "kit")])
    assert result.exit_code == 0, result.output
    return folder


def test_a_deck_is_one_face_a_page_with_bleed(pod: Path) -> None:
    deck = pod / "surface-action-event-deck"
    reader = PdfReader(deck / "cards.pdf")
    fronts = sorted(deck.glob("front-*.png"))
    assert len(reader.pages) == 2 * len(fronts) and sorted(p.name for p in deck.glob(
        "back*.png")) == ["back.png"]  # one shared back for the whole deck
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        trim = [float(v) for v in page.trimbox]
        assert abs(media[2] - (2.5 * INCH + 6 * MM)) < TOL
        assert abs(media[3] - (3.5 * INCH + 6 * MM)) < TOL
        assert all(abs(a - b) < TOL for a, b in zip(trim, [3 * MM, 3 * MM, media[2] - 3 * MM,
                                                          media[3] - 3 * MM], strict=True))
    # fronts and backs alternate: the back's text on every even page
    texts = [page.extract_text() for page in reader.pages]
    assert all("SURFACE ACTION" in t for t in texts[1::2])
    assert not any("SURFACE ACTION" in t for t in texts[0::2])
    image = Image.open(fronts[0])
    assert image.size == (_px(2.5 * INCH + 6 * MM), _px(3.5 * INCH + 6 * MM)) == (821, 1121)
    assert round(image.info["dpi"][0]) == 300


def test_the_listing_counts_every_copy(pod: Path) -> None:
    kit = compose(Request("markers", scenario="river-plate"), export=True)
    with (pod / "listing.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    listed = Counter({row["id"]: int(row["copies"]) for row in rows})
    distinct = {p.id: p for p in kit.pieces}
    assert listed == Counter({pid: p.quantity for pid, p in distinct.items()})
    for row in rows:  # every file the listing names is there
        assert (pod / row["front"]).is_file()
        assert not row["back"] or (pod / row["back"]).is_file()
    assert (pod / "mine.txt").read_text() == "kept"
