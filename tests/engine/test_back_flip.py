"""A back matches its front after the flip; a folded back keeps the piece's size.

Issue 29, items 1 and 2. Every two-sided piece of a NAVAL ACTION, a Surface Action, a
modern naval, a Naval Warfare and a Rule 27 scenario is imposed in every duplex mode, on portrait
and landscape sheets. The PDF is read back: each piece's *end bars* (filled rectangles
running the full width or height of the piece against one of its edges, like a ship
marker's bow bar) are located on the front page and on the back page, the back's are
carried through the physical flip (over the long or short edge, or the fold of
``--duplex off``) and they must lie exactly behind the front's, to 0.01 mm.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.core.units import MM
from generator.kit.pipeline import run
from generator.kit.seam import Request
from generator.pieces.imposition import (
    Duplex,
    Imposed,
    Options,
    Slot,
    back_bleed,
    fold_lines,
    impose,
)
from generator.pieces.pieces import Piece
from generator.pieces.sprue import Sprue
from tests.engine.test_imposition import sprue as small_sprue
from tests.engine.test_print_pieces import CASES, sprue_for
from tests.paths import ROOT
from tests.pdftext import Page, open_pages

TOL = 0.01 * MM
FLIP_CASES = {**CASES,
              "latakia-1973": ROOT / "generator/rulesets/modern_naval/sprues/markers.yaml",
              "balance-1942": ROOT / "generator/rulesets/naval_warfare/sprues",
              "mediterranean-1940": ROOT / "generator/rulesets/rule27/sprues"}
"""Every ruleset whose ``markers`` command prints two-sided pieces, and its sprues."""
Box = tuple[float, float, float, float]
"""x0, x1, top, bottom in points (top measured from the page's top edge)."""


@pytest.fixture(scope="module")
def two_sided(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Sprue, list[Piece]]]:
    """Each sprue with the scenario's two-sided pieces that go on it."""
    out = tmp_path_factory.mktemp("flip")
    sets = []
    for scenario, path in FLIP_CASES.items():
        pieces = [p for p in run(Request("markers", scenario=scenario), out=out,
                                 export=True).pieces
                  if p.back is not None]
        by_sprue: dict[str, tuple[Sprue, list[Piece]]] = {}
        for piece in pieces:
            sprue = sprue_for(path, {piece.group})
            by_sprue.setdefault(sprue.id, (sprue, []))[1].append(piece)
        sets.extend(by_sprue.values())
    return sets


def _end_bars(page: Page, slot: Slot, bleed: float = 0.0) -> list[Box]:
    """Filled rectangles running the slot's full width or height from one of its edges.

    What runs into the bleed (up to ``bleed`` past the trim) is cut off: the part
    inside the trim is what the player keeps.
    """
    x0, x1 = slot.x, slot.x + slot.width
    top, bottom = page.height - slot.y - slot.height, page.height - slot.y
    out = []
    for whole in page.rects:
        if not whole["fill"] or whole["x0"] < x0 - bleed - TOL \
                or whole["x1"] > x1 + bleed + TOL or whole["top"] < top - bleed - TOL \
                or whole["bottom"] > bottom + bleed + TOL:
            continue
        r = {"x0": max(whole["x0"], x0), "x1": min(whole["x1"], x1),
             "top": max(whole["top"], top), "bottom": min(whole["bottom"], bottom)}
        full_h = abs(r["top"] - top) < TOL and abs(r["bottom"] - bottom) < TOL
        full_w = abs(r["x0"] - x0) < TOL and abs(r["x1"] - x1) < TOL
        at_side = abs(r["x0"] - x0) < TOL or abs(r["x1"] - x1) < TOL
        at_end = abs(r["top"] - top) < TOL or abs(r["bottom"] - bottom) < TOL
        if full_h and not full_w and at_side or full_w and not full_h and at_end:
            out.append((r["x0"], r["x1"], r["top"], r["bottom"]))
    return out


def _flip(box: Box, duplex: Duplex, page: Page, fold: float) -> Box:
    """Where a box printed on the back lies on the front's side of the paper."""
    x0, x1, top, bottom = box
    across = duplex == "off" or (duplex == "long") == (page.height >= page.width)
    if duplex == "off":
        return (2 * fold - x1, 2 * fold - x0, top, bottom)
    if across:
        return (page.width - x1, page.width - x0, top, bottom)
    return (x0, x1, page.height - bottom, page.height - top)


def _same(a: list[Box], b: list[Box]) -> bool:
    key = sorted
    return len(a) == len(b) and all(
        all(abs(p - q) < TOL for p, q in zip(u, v, strict=True))
        for u, v in zip(key(a), key(b), strict=True))


def _landscape(sprue: Sprue) -> Sprue:
    turned = "landscape" if sprue.orientation == "portrait" else "portrait"
    return sprue.model_copy(update={"orientation": turned})


def _compare(imposed: Imposed, duplex: Duplex, ground: float) -> tuple[int, int, set[str]]:
    """(pieces compared, pieces with ends checked, kinds seen); asserts as it goes.

    ``ground`` is how far a back's art may run past its trim on a back page.
    """
    pages = open_pages(imposed.pdf, geometry=True)
    compared = directed = 0
    kinds: set[str] = set()
    for number, sheet in enumerate(imposed.sheets):
        if sheet.face != "front":
            continue
        page = pages[number]
        backs: dict[tuple[str, int], tuple[Page, Slot]] = {}
        if duplex == "off":
            backs = {(s.piece.id.removesuffix(".back"), s.copy): (page, s)
                     for s in sheet.slots if s.piece.id.endswith(".back")}
        else:
            backs = {(s.piece.id, s.copy): (pages[number + 1], s)
                     for s in imposed.sheets[number + 1].slots}
        for slot in sheet.slots:
            if slot.piece.id.endswith(".back") or slot.piece.back is None:
                continue
            back_page, back = backs[(slot.piece.id, slot.copy)]
            fold = slot.x + slot.width
            front_bars = _end_bars(page, slot)
            back_bars = [_flip(b, duplex, back_page, fold)
                         for b in _end_bars(back_page, back, ground)]
            where = (slot.piece.id, duplex, page.width > page.height, front_bars, back_bars)
            if slot.piece.ends is not None:
                # a ship's bow bar, a previous-turn marker's stern bar: on both sides
                assert front_bars and _same(front_bars, back_bars), where
                directed += 1
            elif front_bars and back_bars:
                assert _same(front_bars, back_bars), where
            compared += 1
            kinds.add(slot.piece.group)
    return compared, directed, kinds


@pytest.mark.parametrize("duplex", ["long", "short", "off"])
def test_each_back_lies_behind_its_front_after_the_flip(
        two_sided: list[tuple[Sprue, list[Piece]]], duplex: Duplex) -> None:
    compared = directed = 0
    kinds: set[str] = set()
    for sprue, pieces in two_sided:
        for turned in (sprue, _landscape(sprue)):
            options = Options(duplex=duplex)
            imposed = impose(pieces, turned, options, "t", "footer")
            # with duplex off the back is printed beside its front, without bleed
            ground = 0.0 if duplex == "off" else back_bleed(options, turned)
            one, two, seen = _compare(imposed, duplex, ground)
            compared, directed, kinds = compared + one, directed + two, kinds | seen
    assert {"ship", "previous-turn"} <= kinds
    assert directed >= 2 * 24  # Savo Island's ships and previous-turn markers, twice
    # Surface Action's hidden counters, modern contacts, Naval Warfare units and Rule 27's
    # ship, task-force, cargo and hit counters compared too
    assert {"blank", "contact", "unit", "half", "tf", "cargo", "hit"} <= kinds


def test_a_piece_with_ends_is_mirrored_only_where_the_flip_turns_them() -> None:
    """The bar moves to the other end of the back only when the flip swaps the ends."""

    def art(c: Any, w: float, h: float, bleed: float) -> None:
        c.rect(w - 2 * MM, 0, 2 * MM, h, stroke=0, fill=1)

    for ends, duplex, moved in (("x", "long", True), ("x", "short", False),
                                (None, "long", False), ("y", "long", False)):
        piece = Piece("bar", "Bar", 30 * MM, 10 * MM, art, art, group="big", ends=ends)
        imposed = impose([piece], small_sprue(), Options(duplex=duplex), "t", "f")
        pages = open_pages(imposed.pdf, geometry=True)
        back = imposed.sheets[1].slots[0]
        (bar,) = _end_bars(pages[1], back, 1.5 * MM)
        assert (abs(bar[0] - back.x) < TOL) == moved, (ends, duplex)
        assert abs(bar[1] - bar[0] - 2 * MM) < TOL


def test_duplex_off_folds_on_the_shared_cut_edge(
        two_sided: list[tuple[Sprue, list[Piece]]]) -> None:
    folds = 0
    for sprue, pieces in two_sided:
        for bleed in (False, True):
            options = Options(duplex="off", bleed=bleed)
            imposed = impose(pieces, sprue, options, "t", "footer")
            pages = open_pages(imposed.pdf, geometry=True)
            for number, sheet in enumerate(imposed.sheets):
                lines = fold_lines(sheet.slots)
                fronts = {(s.piece.id, s.copy): s for s in sheet.slots}
                for back in sheet.slots:
                    if not back.piece.id.endswith(".back"):
                        continue
                    front = fronts[(back.piece.id.removesuffix(".back"), back.copy)]
                    edge = front.x + front.width
                    # the back starts where the front ends: folded, the piece is its size
                    assert abs(back.x - edge) < TOL
                    assert (edge, front.y, front.y + front.height) in lines
                    # and the dashed fold is drawn on that edge, not in a gutter
                    page = pages[number]
                    drawn = [ln for ln in page.lines if abs(ln["x0"] - edge) < TOL
                             and abs(ln["x1"] - edge) < TOL
                             and abs(ln["bottom"] - (page.height - front.y)) < TOL]
                    assert drawn, (front.piece.id, bleed)
                    folds += 1
    assert folds > 50


def test_a_face_layout_declares_its_ends(tmp_path: Path) -> None:
    """``ends: x`` in a YAML face layout makes the piece's back flip end for end: the
    bar at the front's right end is drawn at the back's left end for a long-edge flip."""
    from generator.pieces.faces import face_piece, load_faces

    (tmp_path / "boat.yaml").write_text("""
kind: faces
faces:
  boat:
    size: 30mm x 10mm
    ends: x
    fields:
      - {icon: rectangle, x: 28mm, y: 0mm, width: 2mm, height: 10mm, colour: "#000000"}
    back:
      from: front
""")
    layout = load_faces(tmp_path / "boat.yaml")["boat"]
    assert layout.ends == "x"
    piece = face_piece(layout, {}, "boat.1", "Boat", 1, "big")
    assert piece.ends == "x"
    imposed = impose([piece], small_sprue(), Options(duplex="long"), "t", "f")
    pages = open_pages(imposed.pdf, geometry=True)
    front, back = imposed.sheets[0].slots[0], imposed.sheets[1].slots[0]
    (front_bar,) = _end_bars(pages[0], front)
    (back_bar,) = _end_bars(pages[1], back, 1.5 * MM)
    assert abs(front_bar[1] - (front.x + front.width)) < TOL  # the front's right end
    assert abs(back_bar[0] - back.x) < TOL  # drawn at the back's left end
    assert _same([front_bar], [_flip(back_bar, "long", pages[1], 0.0)])
