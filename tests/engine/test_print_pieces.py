"""Pieces survive a slightly-off cut (issue 18, printing item 3).

Every marker and counter of a NAVAL ACTION and a Surface Action scenario is imposed
through the shared engine; the slots (trim boxes) come from the layout, the text is read
back from the PDF. Labels keep 1 mm inside the cut, no text on a piece is below 6 pt,
crop marks cross no heading, footer or piece, and with ``--duplex off`` each front has
its back beside it on the same row.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.core import fonts
from generator.core.units import MM
from generator.kit.pipeline import run
from generator.kit.seam import Request
from generator.pages.autofit import LABEL_FLOOR, SAFE_INSET
from generator.pages.layout import page_size
from generator.pieces.cropmarks import crop_marks, sheet_margin
from generator.pieces.imposition import (
    FOOTER,
    ID_SIZE,
    Imposed,
    Options,
    cut_boxes,
    cut_mode,
    fold_lines,
    impose,
)
from generator.pieces.pieces import Piece
from generator.pieces.sprue import Sprue, load_sprue
from tests.paths import ROOT
from tests.pdftext import Page, open_pages

CASES = {
    "savo-island": ROOT / "generator/rulesets/naval_action/sprues/markers.yaml",
    "guadalcanal-battleships": ROOT / "generator/rulesets/surface_action/sprues",
}


def sprue_for(path: Path, piece_groups: set[str]) -> Sprue:
    files = [path] if path.is_file() else sorted(path.glob("*.yaml"))
    for one in files:
        sprue = load_sprue(one)
        if piece_groups <= {g for r in sprue.regions for g in r.groups}:
            return sprue
    raise AssertionError(f"no sprue for {piece_groups}")


@pytest.fixture(scope="module")
def pieces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Piece]]:
    out = tmp_path_factory.mktemp("pieces")
    return {s: run(Request("markers", scenario=s), out=out, export=True).pieces
            for s in CASES}


def imposed_sets(pieces: dict[str, list[Piece]],
                 options: Options) -> list[tuple[Imposed, Sprue]]:
    out = []
    for scenario, every in pieces.items():
        sprues: dict[str, Sprue] = {}
        groups: dict[str, list[Piece]] = {}
        for piece in every:
            sprue = sprue_for(CASES[scenario], {piece.group})
            sprues.setdefault(sprue.id, sprue)
            groups.setdefault(sprue.id, []).append(piece)
        for sid, sprue in sprues.items():
            out.append((impose(groups[sid], sprue, options, "t", "footer"), sprue))
    return out


@pytest.fixture(scope="module")
def plain(pieces: dict[str, list[Piece]]) -> list[tuple[Imposed, Sprue]]:
    return imposed_sets(pieces, Options())


def test_labels_keep_1mm_inside_the_cut_and_6pt_unless_reported(
        plain: list[tuple[Imposed, Sprue]]) -> None:
    inset = SAFE_INSET * MM
    checked = 0
    below: set[str] = set()
    for imposed, _ in plain:
        # pdfminer's character boxes (origin to advance), read through pypdfium2.
        pages = open_pages(imposed.pdf, advance=True)
        for sheet, page in zip(imposed.sheets, pages, strict=True):
            for ch in page.chars:
                if abs(ch["size"] - ID_SIZE) < 1e-6 or not ch["text"].strip():
                    continue
                x0, x1 = ch["x0"], ch["x1"]
                y0, y1 = page.height - ch["bottom"], page.height - ch["top"]
                cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                slot = next((s for s in sheet.slots if s.x <= cx <= s.x + s.width
                             and s.y <= cy <= s.y + s.height), None)
                if slot is None:
                    continue  # headings and the footer
                checked += 1
                where = (slot.piece.id, ch["text"])
                # Below the floor only as the fitter's last resort, which the piece reports.
                if ch["size"] < LABEL_FLOOR - 1e-6:
                    assert any(f"at {ch['size']:.2f} pt" in w
                               for w in slot.piece.warnings), where
                    below.add(slot.piece.id)
                assert x0 >= slot.x + inset - 0.01 * MM, where
                assert x1 <= slot.x + slot.width - inset + 0.01 * MM, where
                assert y0 >= slot.y + inset - 0.01 * MM, where
                assert y1 <= slot.y + slot.height - inset + 0.01 * MM, where
    assert checked > 1000
    # Savo Island's ship markers have an honest form at 6 pt for every label ("Bagl. DD");
    # only Guadalcanal's fire counters' note, with no word to cut, prints smaller
    assert below == {"fire.american", "fire.japanese"}


def _crosses(seg: tuple[float, float, float, float],
             box: tuple[float, float, float, float]) -> bool:
    """Does an axis-parallel segment touch a box (x0, y0, x1, y1)?"""
    x0, y0, x1, y1 = seg
    return (min(x0, x1) <= box[2] and max(x0, x1) >= box[0]
            and min(y0, y1) <= box[3] and max(y0, y1) >= box[1])


def test_crop_marks_cross_no_heading_footer_or_piece(pieces: dict[str, list[Piece]]) -> None:
    for imposed, sprue in imposed_sets(pieces, Options(bleed=True)):
        assert cut_mode(Options(bleed=True), sprue) == "marks"
        bleed = imposed.bleed
        for sheet in imposed.sheets:
            page_w, page_h = page_size("a4", sprue.orientation == "landscape")
            marks = crop_marks(cut_boxes(sheet.slots), page_w, page_h)
            assert marks or not sheet.slots
            boxes = [(s.x - bleed, s.y - bleed, s.x + s.width + bleed,
                      s.y + s.height + bleed) for s in sheet.slots]
            for hx, hy, text in sheet.headings:
                width = fonts.string_width(text, fonts.BOLD, 9)
                boxes.append((hx, hy - 0.3 * 9, hx + width, hy + 9))
            margin = sheet_margin("marks", sprue.margin, bleed)
            boxes.append((0, margin, 1000, margin + FOOTER - 0.5 * MM))  # the footer line
            for seg in marks:
                for box in boxes:
                    assert not _crosses(seg, (box[0] + 0.05, box[1] + 0.05,
                                              box[2] - 0.05, box[3] - 0.05)), (seg, box)
        # every front sheet has its heading, so headings were checked against the marks
        assert all(s.headings for s in imposed.sheets if s.face == "front"), sprue.id


def test_duplex_off_puts_each_back_beside_its_front(pieces: dict[str, list[Piece]]) -> None:
    pairs = 0
    for imposed, _ in imposed_sets(pieces, Options(duplex="off")):
        for sheet in imposed.sheets:
            backs = [s for s in sheet.slots if s.piece.id.endswith(".back")]
            assert len(fold_lines(sheet.slots)) == len(backs)  # a fold line for each pair
            by_id = {(s.piece.id, s.copy): s for s in sheet.slots}
            for slot in sheet.slots:
                if not slot.piece.id.endswith(".back"):
                    continue
                front = by_id[(slot.piece.id[:-len(".back")], slot.copy)]
                # the same row (tops level), touching it: the fold is the shared trim edge
                assert abs((front.y + front.height) - (slot.y + slot.height)) < 0.01 * MM
                assert abs(slot.x - (front.x + front.width)) < 0.01 * MM
                assert (front.x + front.width, front.y, front.y + front.height) in \
                    fold_lines(sheet.slots)
                pairs += 1
    assert pairs > 10


# ---- tapes, rulers and gauge strips: no tick or knot line through a label ----------------


@pytest.fixture(scope="module")
def aid_pdfs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("aids")
    for command, scenario in (("strings", "savo-island"), ("strings", "second-sirte"),
                              ("rulers", "savo-island"), ("gauges", "savo-island"),
                              ("rulers", "river-plate")):
        run(Request(command, scenario=scenario), out=out)  # type: ignore[arg-type]
    return sorted(p for p in out.rglob("*.pdf") if not p.name.startswith("strings-"))


@pytest.fixture(scope="module")
def aid_pages(aid_pdfs: list[Path]) -> list[tuple[Path, list[Page]]]:
    """Each aid PDF's pages with their geometry, read back once for the tests below."""
    return [(path, open_pages(path, geometry=True, advance=True)) for path in aid_pdfs]


def test_no_tick_or_knot_line_runs_through_a_label(
        aid_pages: list[tuple[Path, list[Page]]]) -> None:
    crossings = []
    checked = 0
    for path, pages in aid_pages:
        for number, page in enumerate(pages):
            chars = [c for c in page.chars if c["text"].strip()]
            for line in page.lines:
                if abs(line["x0"] - line["x1"]) > 0.01:
                    continue  # ticks and knot lines are vertical
                checked += 1
                x = line["x0"]
                for ch in chars:
                    if (ch["x0"] + 0.1 < x < ch["x1"] - 0.1
                            and line["top"] < ch["bottom"] - 0.1
                            and line["bottom"] > ch["top"] + 0.1):
                        crossings.append((path.name, number + 1, ch["text"], round(x, 1)))
    assert checked > 1000
    assert crossings == [], crossings


def test_strip_labels_keep_1mm_inside_the_cut_and_clear_of_the_colour_bars(
        aid_pages: list[tuple[Path, list[Page]]]) -> None:
    """Every label on a strip (ticks, knots, bands, the title along its foot) lies 1 mm
    inside the segment's cut outline, and none is hidden under a colour-code bar."""
    from generator.aids.strips import BAR_WIDTH

    near, under = [], []
    labels = bars = 0
    for path, pages in aid_pages:
        for number, page in enumerate(pages):
            chars = [c for c in page.chars if c["text"].strip()]
            cuts = [r for r in page.rects if r["stroke"] and not r["fill"]
                    and abs(r["linewidth"] - 0.5) < 0.01 and r["width"] > 30 * MM]
            coded = [r for r in page.rects if r["fill"] and abs(r["width"] - BAR_WIDTH) < 0.01]
            bars += len(coded)
            for cut in cuts:
                for ch in chars:
                    if not (cut["x0"] < ch["x1"] and ch["x0"] < cut["x1"]
                            and cut["top"] < ch["bottom"] and ch["top"] < cut["bottom"]):
                        continue
                    labels += 1
                    room = min(ch["x0"] - cut["x0"], cut["x1"] - ch["x1"],
                               ch["top"] - cut["top"], cut["bottom"] - ch["bottom"])
                    if room < SAFE_INSET * MM - 0.01 * MM:  # to 0.01 mm
                        near.append((path.name, number + 1, ch["text"], round(room / MM, 2)))
            for bar in coded:
                under += [(path.name, number + 1, ch["text"]) for ch in chars
                          if bar["x0"] < ch["x1"] and ch["x0"] < bar["x1"]
                          and bar["top"] < ch["bottom"] and ch["top"] < bar["bottom"]]
    assert labels > 5000 and bars > 100
    assert near == [], near
    assert under == [], under
