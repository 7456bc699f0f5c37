"""The shared imposition engine: cells, cut guides, backs, sprues and label fitting."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from generator.core import fonts
from generator.core.errors import DataError, RenderError
from generator.core.units import MM
from generator.kit.assemble import assemble_drawn
from generator.kit.packets import PacketSpec, packet_pages
from generator.pages.autofit import LABEL_FLOOR, abbreviations, fit_label
from generator.pages.component import Component
from generator.pages.layout import page_size
from generator.pieces.imposition import CUT_GREY, Options, back_piece, impose, layout
from generator.pieces.pieces import Piece
from generator.pieces.sprue import Sprue, load_sprue
from tests.pdftext import Page, open_pages

TOL = 0.01 * MM
COLOUR_TOL = 0.6 / 255
"""pypdfium2 reports colours in 8 bits (the cut grey 0.55 comes back as 140/255)."""


def read(pdf: bytes) -> list[Page]:
    """Every page with its chars, rects and lines (pypdfium2)."""
    return open_pages(pdf, geometry=True)


def colour_art(rgb: tuple[float, float, float]):
    def art(c, w, h, bleed):
        c.setFillColorRGB(*rgb)
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    return art


FRONT = (0.2, 0.6, 0.2)
BACK = (0.6, 0.2, 0.6)


def sprue(**changes) -> Sprue:
    data = {"kind": "sprue", "id": "test", "title": "Test", "regions": [
        {"title": "Big", "groups": ["big"]}, {"title": "Small", "groups": ["small"]}]}
    data.update(changes)
    return Sprue.model_validate(data)


def pieces(back: bool = True) -> list[Piece]:
    out = [Piece(f"big.{i}", f"Big {i}", 40 * MM, 25 * MM, colour_art(FRONT),
                 colour_art(BACK) if back else None, 1 + i % 2, "big") for i in range(9)]
    out += [Piece(f"small.{i}", f"Small {i}", (9 + i) * MM, 8 * MM, colour_art(FRONT),
                  colour_art(BACK) if back and i % 2 else None, 3, "small") for i in range(12)]
    return out


def grey(colour) -> float:
    if isinstance(colour, (list, tuple)):
        return colour[0] if len(colour) == 1 else -1.0
    return -1.0 if colour is None else float(colour)


def rects(pdf: bytes, page: int, rgb: tuple[float, float, float]) -> list[tuple[float, ...]]:
    doc = read(pdf)
    p = doc[page]
    found = []
    for r in p.rects:
        colour = r.get("non_stroking_color")
        if r["fill"] and colour and all(abs(a - b) < COLOUR_TOL for a, b in zip(colour, rgb,
                                                                         strict=True)):
            found.append((r["x0"], p.height - r["bottom"], r["width"], r["height"]))
    return sorted(found)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_every_copy_is_placed_inside_the_area_without_overlap(paper, orientation):
    sp = sprue(orientation=orientation)
    sheets = layout(pieces(), sp, Options(paper=paper, bleed=True))
    fronts = [s for sheet in sheets if sheet.face == "front" for s in sheet.slots]
    expected = sum(p.quantity for p in pieces())
    assert len(fronts) == expected
    page_w, page_h = page_size(paper, orientation == "landscape")
    bleed = sp.bleed
    lo = sp.margin - 1e-6
    for s in fronts:
        assert s.x - bleed >= lo and s.x + s.width + bleed <= page_w - lo
        assert s.y - bleed >= lo and s.y + s.height + bleed <= page_h - lo
    for sheet in sheets:
        slots = sheet.slots
        for i, a in enumerate(slots):
            for b in slots[i + 1:]:
                # bleed boxes plus the gutter never touch
                apart_x = (a.x + a.width + 2 * bleed + sp.gutter <= b.x + 1e-6
                           or b.x + b.width + 2 * bleed + sp.gutter <= a.x + 1e-6)
                apart_y = (a.y + a.height + 2 * bleed + sp.gutter <= b.y + 1e-6
                           or b.y + b.height + 2 * bleed + sp.gutter <= a.y + 1e-6)
                assert apart_x or apart_y, (a.piece.id, b.piece.id)


def test_art_lies_in_its_cell_and_cut_lines_on_cell_edges():
    imposed = impose(pieces(back=False), sprue(), Options(duplex="off"), "t", "foot")
    doc = read(imposed.pdf)
    for number, sheet in enumerate(imposed.sheets):
        page = doc[number]
        h = page.height
        cells = [(s.x, s.y, s.x + s.width, s.y + s.height) for s in sheet.slots]
        art = rects(imposed.pdf, number, FRONT)
        assert len(art) == len(sheet.slots)
        for x, y, w, hh in art:
            assert any(abs(x - c[0]) < TOL and abs(y - c[1]) < TOL
                       and abs(x + w - c[2]) < TOL and abs(y + hh - c[3]) < TOL
                       for c in cells)
        cut = [r for r in page.rects if not r["fill"]
               and abs(grey(r.get("stroking_color")) - CUT_GREY) < COLOUR_TOL]
        assert len(cut) == len(cells)
        for r in cut:
            box = (r["x0"], h - r["bottom"], r["x1"], h - r["top"])
            assert any(all(abs(a - b) < TOL for a, b in zip(box, c, strict=True))
                       for c in cells)


def test_crop_marks_continue_the_trim_edges_outside_the_bleed():
    """Every mark 5 mm long, on a trim edge's line, 3 mm clear of every trim, outside
    every bleed box, and 3 mm in from the paper's edge; two at each distinct edge."""
    sp = sprue(gutter="6mm")
    imposed = impose(pieces(back=False)[:3], sp, Options(bleed=True, cut="marks"), "t", "")
    sheet = imposed.sheets[0]
    page = read(imposed.pdf)[0]
    marks = [ln for ln in page.lines if grey(ln.get("stroking_color")) == 0.0]
    xs = {round(e, 2) for s in sheet.slots for e in (s.x, s.x + s.width)}
    ys = {round(e, 2) for s in sheet.slots for e in (s.y, s.y + s.height)}
    assert len(marks) == 2 * (len(xs) + len(ys))
    b = imposed.bleed
    for ln in marks:
        x0, x1 = ln["x0"], ln["x1"]
        y0, y1 = page.height - ln["bottom"], page.height - ln["top"]
        assert abs(max(x1 - x0, y1 - y0) - 5 * MM) < TOL
        if abs(y0 - y1) < TOL:  # horizontal: left or right of the block
            assert any(abs(y0 - e) < TOL for e in ys)
            assert min(x0, page.width - x1) >= 3 * MM - TOL
        else:
            assert any(abs(x0 - e) < TOL for e in xs)
            assert min(y0, page.height - y1) >= 3 * MM - TOL
        for s in sheet.slots:
            gap_x = max(s.x - x1, x0 - (s.x + s.width), 0.0)
            gap_y = max(s.y - y1, y0 - (s.y + s.height), 0.0)
            assert max(gap_x, gap_y) >= 3 * MM - TOL  # clear of the trim
            assert max(gap_x, gap_y) > b  # outside the bleed


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize("offset_mm", [(0.0, 0.0), (0.8, -1.3)])
def test_backs_land_behind_their_fronts(duplex, orientation, offset_mm):
    offset = (offset_mm[0] * MM, offset_mm[1] * MM)
    imposed = impose(pieces(), sprue(orientation=orientation),
                     Options(duplex=duplex, back_offset=offset), "t", "")
    page_w, page_h = page_size("a4", orientation == "landscape")
    # Turning the sheet over its long edge mirrors across the long axis.
    mirror_x = (duplex == "long") == (orientation == "portrait")
    assert [s.face for s in imposed.sheets] == ["front", "back"] * (len(imposed.sheets) // 2)
    for number in range(0, len(imposed.sheets), 2):
        fronts = {(s.piece.id, s.copy): s for s in imposed.sheets[number].slots}
        backs_read = rects(imposed.pdf, number + 1, BACK)
        expected = []
        for s in fronts.values():
            if s.piece.back is None:
                continue
            x = page_w - s.x - s.width if mirror_x else s.x
            y = s.y if mirror_x else page_h - s.y - s.height
            # a back's ground runs past its trim even without --bleed (half the 3 mm
            # gutter): printed a millimetre off, it still reaches the cut
            ground = 1.5 * MM
            expected.append((x + offset[0] - ground, y + offset[1] - ground,
                             s.width + 2 * ground, s.height + 2 * ground))
        assert len(backs_read) == len(expected) > 0
        for got, want in zip(sorted(backs_read), sorted(expected), strict=True):
            assert all(abs(a - b) < TOL for a, b in zip(got, want, strict=True))


def test_duplex_off_prints_each_back_beside_its_front():
    imposed = impose(pieces(), sprue(), Options(duplex="off"), "t", "")
    assert all(s.face == "front" for s in imposed.sheets)
    ids = [s.piece.id for sheet in imposed.sheets for s in sheet.slots]
    assert ids[:2] == ["big.0", "big.0.back"]
    assert ids.count("small.1.back") == 3 and "small.0.back" not in ids


def test_piece_too_big_and_group_without_region_are_named():
    big = Piece("poster", "Poster", 300 * MM, 100 * MM, colour_art(FRONT), group="big")
    with pytest.raises(RenderError, match="piece 'poster' .300.0 x 100.0 mm. is larger"):
        layout([big], sprue(), Options())
    stray = Piece("x", "X", 10 * MM, 10 * MM, colour_art(FRONT), group="cards")
    with pytest.raises(RenderError, match="sprue 'test' has no region for piece group.s. cards"):
        layout([stray], sprue(), Options())


def test_sprue_yaml_errors_are_located(tmp_path: Path):
    path = tmp_path / "s.yaml"
    path.write_text("kind: sprue\nid: mine\ntitle: Mine\ngutter: 3 furlongs\nbleed: 9mm\n"
                    "guttr: 2mm\nregions:\n  - title: A\n    groups: []\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_sprue(path, "s.yaml")
    messages = [str(p) for p in err.value.problems]
    assert messages == [
        "s.yaml:4:9: gutter: found '3 furlongs', expected a length such as '3mm' or '0.125in'",
        "s.yaml:5:8: bleed: found '9mm', expected a length from 0.5mm to 6mm",
        "s.yaml:6:1: guttr: found unknown key 'guttr', expected one of kind, id, title, "
        "orientation, margin, gutter, bleed, cut, regions; did you mean 'gutter'?",
        "s.yaml:9:13: regions.0.groups: found a list, expected at least 1 item(s)",
    ]


def test_sprue_lengths_take_units():
    sp = sprue(margin="0.5in", gutter="2.5mm", bleed="0.125in")
    assert sp.margin == pytest.approx(36.0)
    assert sp.gutter == pytest.approx(2.5 * MM)
    assert sp.bleed == pytest.approx(9.0)


def test_recto_components_start_on_an_odd_page():
    from generator.pages import kitdoc
    from generator.pages.layout import new_canvas
    from generator.pieces.imposition import as_component

    # Drawn and written as a build does: on one document, then a packet from its pages.
    with kitdoc.drawing() as kit:
        one = impose(pieces()[:1], sprue(), Options(), "t", "")
        sheets = as_component(one, "markers", "Markers", "M-")
        assert sheets.recto and sheets.pages == 2
        sheets.drawn = kit.drawn_since(0, sheets.pages, "markers")
        c = new_canvas(io.BytesIO(), "a4", "x")
        c.showPage()
        c.save()
        single = Component("cover", "Cover", "C-", b"", 1,
                           drawn=kit.drawn_since(2, 1, "cover"))
        spec = PacketSpec("p.pdf", "P", ["cover", "markers"])
        pdf = assemble_drawn(kit, [spec], {"cover": single, "markers": sheets})["p.pdf"]
    doc = read(pdf)
    assert len(doc) == 4 == packet_pages(spec, {"cover": single, "markers": sheets})
    # the front of the sheet is page 3 (a right-hand page), its back page 4
    assert "big.0" in "".join(ch["text"] for ch in doc[2].chars)
    # the inserted left-hand page says why it is blank
    assert "".join(ch["text"] for ch in doc[1].chars) == \
        "This page is intentionally blank"


def test_labels_never_overflow_and_abbreviate_readably():
    width = 9 * MM
    for text in ["Hatsushimo", "Salt Lake City", "Giovanni delle Bande Nere", "Ōshio", "Y"]:
        fitted = fit_label(text, fonts.NARROW_BOLD, 7, width)
        assert fitted.width <= width + 1e-9
        assert fonts.string_width(fitted.text, fonts.NARROW_BOLD, fitted.size) <= width + 1e-9
        # below the floor only as the reported last resort ("Salt Lake City" has no word
        # long enough to cut, the Italian name too many letters left after cutting)
        assert fitted.failed == (text in ("Salt Lake City", "Giovanni delle Bande Nere"))
        assert (fitted.size >= LABEL_FLOOR) != fitted.failed
    assert abbreviations("Salt Lake City") == []  # no word long enough to cut
    assert abbreviations("Giovanni delle Bande Nere")[:3] == [
        "Giovan. delle Bande Nere", "Giova. delle Bande Nere", "Giov. delle Bande Nere"]
    tight = fit_label("Giovanni delle Bande Nere", fonts.NARROW_BOLD, 7, 18 * MM)
    assert (tight.text, tight.failed) == ("Giov. delle Bande Nere", False)
    assert fit_label("Hatsushimo", fonts.NARROW_BOLD, 7, 30 * MM).text == "Hatsushimo"
    # the last resort: the whole label below the floor, still inside the room
    forced = fit_label("WWW", fonts.BOLD, 7, 0.5 * MM)
    assert forced.failed and forced.text == "WWW" and forced.size < LABEL_FLOOR
    assert forced.width <= 0.5 * MM
    assert fit_label("WWW", fonts.BOLD, 7, 0.0).text == ""  # no room at all


def test_back_piece_keeps_size_and_names_itself():
    p = pieces()[0]
    b = back_piece(p)
    assert (b.id, b.width, b.height, b.back) == ("big.0.back", p.width, p.height, None)
