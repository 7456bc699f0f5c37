"""Rule 27 counters through ``quarterdeck markers`` with every sheet option (issue 29, item 6).

Each option is read back from the PDF (to 0.01 mm) or the exported files: the counters
are the kit's, long-edge duplex puts the half sides on a page of their own, ``off`` beside
the fronts, ``--bleed`` runs the grounds past the cut, ``--cut`` draws lines, crop marks
or both, ``--png`` and ``--tts`` write every face at the dpi asked.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli.main import main
from generator.core.units import MM
from tests.pdftext import Page, open_pages

SCENARIO = "mediterranean-1940"
PIECES = 51
"""The British sheet's pieces: 17 counters, 18 hit, 8 Task Force and 8 cargo markers."""
SIZE = 12.7
"""The scenario's counter size, mm (half an inch)."""
BLEED = 1.5
"""The Rule 27 counter sprue's bleed, mm."""


def _markers(out: Path, *args: str) -> Path:
    """Run ``quarterdeck markers`` on the scenario; the folder its counters went to."""
    run = CliRunner().invoke(main, ["markers", SCENARIO, "--out", str(out), *args])
    assert run.exit_code == 0, run.output
    return out / SCENARIO / "counters"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("r27markers")


def _squares(page: Page) -> Counter[float]:
    """Side (mm, to 0.01) of every square rectangle on the page, counted."""
    return Counter(round(r["width"] / MM, 2) for r in page.rects
                   if abs(r["width"] - r["height"]) < 0.01 * MM)


def _crop_marks(page: Page) -> int:
    """Straight strokes 5 mm long: the crop marks."""
    return sum(1 for line in page.lines
               if abs(max(abs(line["x1"] - line["x0"]), abs(line["bottom"] - line["top"]))
                      - 5 * MM) < 0.01 * MM)


def _edges(page: Page) -> int:
    """Distinct trim edges of the counters (the counter-sized squares), across and down."""
    squares = [r for r in page.rects if abs(r["width"] - SIZE * MM) < 0.01 * MM]
    xs = {round(e, 1) for r in squares for e in (r["x0"], r["x1"])}
    ys = {round(e, 1) for r in squares for e in (r["top"], r["bottom"])}
    return len(xs) + len(ys)


def test_default_long_edge_duplex_with_cut_lines_and_an_offset_check(out: Path) -> None:
    folder = _markers(out / "long")
    assert sorted(p.name for p in folder.glob("*.pdf")) == [
        "back-offset-check.pdf", "counters-british.pdf", "counters-italian.pdf"]
    front, back = open_pages(folder / "counters-british.pdf", geometry=True)
    # each piece: its ground and its cut line, both exactly half an inch
    assert _squares(front) == Counter({SIZE: 2 * PIECES})
    assert _crop_marks(front) == 0
    assert "CL 4" in front.text and "CL 2" not in front.text  # Orion, Neptune at full
    assert "CL 2" in back.text  # ... and their half side behind them


def test_the_markers_are_the_kits_counters(out: Path, kits: object) -> None:
    """The same counters as the kit's side packet prints; the packet's sheet also has
    the naval-step tracks in the room they leave, the counters alone have not."""
    folder = _markers(out / "same")
    kit = kits.build(SCENARIO)  # type: ignore[attr-defined]
    packet = open_pages(kit.folder / "british.pdf")
    fronts = [(n, p.text) for n, p in enumerate(packet, 1) if "Cut on the grey lines" in p.text]
    # Each file numbers the sheet by its own place (the packet's page n).
    number, front = fronts[0]
    alone = open_pages(folder / "counters-british.pdf")[0].text
    assert front.endswith(f"page {number}") and alone.endswith("page 1")
    ids = re.compile(r"\b(?:counter|hit|tf|cargo|track)\.[\w.-]+")
    assert sorted(ids.findall(alone)) + ["track.exploitation", "track.movement"] == sorted(
        ids.findall(front))
    assert "Naval-step tracks" in front and "Naval-step tracks" not in alone


def test_duplex_off_prints_the_backs_beside_the_fronts(out: Path) -> None:
    folder = _markers(out / "off", "--duplex", "off")
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["counters-british.pdf",
                                                            "counters-italian.pdf"]
    (page,) = open_pages(folder / "counters-british.pdf")
    assert "CL 4" in page.text and "CL 2" in page.text


def test_bleed_runs_the_grounds_past_the_cut_and_cut_both_adds_marks(out: Path) -> None:
    folder = _markers(out / "bleed", "--bleed", "--cut", "both")
    front = open_pages(folder / "counters-british.pdf", geometry=True)[0]
    squares = _squares(front)
    assert squares[round(SIZE + 2 * BLEED, 2)] == PIECES  # grounds, bleed on every side
    assert squares[SIZE] == PIECES  # cut lines, at the counter's size
    assert _crop_marks(front) == 2 * _edges(front)  # each trim edge, at both ends


def test_cut_marks_alone_draw_no_cut_lines(out: Path) -> None:
    folder = _markers(out / "marks", "--cut", "marks", "--duplex", "short")
    front = open_pages(folder / "counters-british.pdf", geometry=True)[0]
    assert _squares(front) == Counter({SIZE: PIECES})  # grounds only
    assert _crop_marks(front) == 2 * _edges(front)


def test_png_and_tts_exports_hold_every_face_at_the_dpi(out: Path) -> None:
    png, tts = out / "png", out / "tts"
    _markers(out / "export", "--png", str(png), "--tts", str(tts), "--dpi", "200")
    side = round(SIZE / 25.4 * 200)
    images = sorted(png.glob("*.png"))
    for image in images:
        with Image.open(image) as im:
            assert im.size == (side, side), image.name
    faces = {p.name.removesuffix(".png") for p in images}
    # every ship counter of either side has a front; a CA, CL, DD or CVE its half side too
    counters = {f for f in faces if f.startswith("counter.") and not f.endswith(".back")}
    halves = {f.removesuffix(".back") for f in faces
              if f.startswith("counter.") and f.endswith(".back")}
    assert halves and halves < counters
    assert {c.split(".")[1] for c in counters} == {"british", "italian"}
    manifest = json.loads((tts / "tts.json").read_text())
    assert manifest["dpi"] == 200
    slots = {s["id"] for sheet in manifest["sheets"] for s in sheet["slots"]}
    assert counters <= slots
    assert all(sheet["card_width_px"] == side for sheet in manifest["sheets"])
