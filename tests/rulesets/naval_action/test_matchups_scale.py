"""Matchups at scale (issue 21, item 5): grids computed once, repeated pieces drawn once.

A matchup grid is computed once per firing fit and target set (``Calculator.remember``);
the pages draw their repeated pieces (grid headers, rules, legends, recurring rows) as
form XObjects (``generator.pages.gridforms``) and must look and read exactly as the plain
``Grid.draw`` pages did.
"""

from __future__ import annotations

import io
import re
from collections import Counter

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops
from pypdf import PdfReader
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core.units import MM
from generator.kit.pipeline import validated_library
from generator.kit.seam import Context, KitOptions, Request
from generator.pages.grid import Grid, aligned
from generator.pages.gridforms import FormGrid, form_name
from generator.rulesets.naval_action import RULESET, side_matchup_pages
from generator.rulesets.naval_action.components.matchup_sheet import gun_grid, render_matchups
from generator.rulesets.naval_action.matchups import share_pages, ship_matchups
from generator.rulesets.naval_action.odds import Calculator


@pytest.fixture(scope="module")
def sirte() -> Context:
    """Second Sirte prepared as a kit: 26 British ships, 14 Italian, many sisters."""
    return RULESET.prepare(validated_library([]), Request("kit", scenario="second-sirte"),
                           "a4", KitOptions())


def _printed(page: object) -> list[list[str]]:
    """What a matchup page prints in its gun grid (rows of cell text)."""
    return [list(r) for r in gun_grid(page).rows]  # type: ignore[arg-type]


# -- 1. grids computed once per fit and target set ---------------------------------------

def test_sirte_computes_one_grid_per_fit(sirte: Context) -> None:
    d = sirte.data
    d.__dict__.pop("calculator", None)  # a fresh calculator, whatever ran before
    british = side_matchup_pages(d, "british")
    italian = side_matchup_pages(d, "italian")
    counts = d.calculator.counts
    # 40 ships ask; 19 distinct fits (12 British, 7 Italian) are computed: the Dido
    # sisters, the J/K destroyers, the Italian Soldati... share theirs.
    assert (counts.requested["grid"], counts.computed["grid"]) == (40, 19)
    # One computed grid is one printed page: sisters with one fit share it.
    assert len(share_pages(british)) + len(share_pages(italian)) == 19
    # A second component with the same calculator (the tables' matchups) computes nothing.
    side_matchup_pages(d, "british")
    assert (counts.requested["grid"], counts.computed["grid"]) == (66, 19)


def test_remembered_grids_print_what_a_fresh_computation_prints(sirte: Context) -> None:
    d = sirte.data
    assert d.scenario is not None
    enemies = d.views["italian"]
    remembered = side_matchup_pages(d, "british")
    for view, page in zip(d.views["british"], remembered, strict=True):
        fresh = ship_matchups(Calculator(d.tables), view, enemies, d.scenario.sea_state,
                              d.scenario.date.year, known=d.scenario.enemy_known)
        assert page.firer is view
        assert _printed(page) == _printed(fresh)
        assert [(t.mounts, t.sides, t.faces, t.beam, t.bow_stern) for t in page.torpedoes] \
            == [(t.mounts, t.sides, t.faces, t.beam, t.bow_stern) for t in fresh.torpedoes]
        assert page.applied == fresh.applied


def test_a_disabled_battery_makes_another_grid(sirte: Context) -> None:
    from dataclasses import replace

    d = sirte.data
    assert d.scenario is not None
    calc = Calculator(d.tables)
    view = next(v for v in d.views["british"] if len(v.batteries) > 1)
    hit = replace(view, batteries=[replace(view.batteries[0], disabled=True),
                                   *view.batteries[1:]])
    args = (d.views["italian"], d.scenario.sea_state, d.scenario.date.year)
    ship_matchups(calc, view, *args)
    ship_matchups(calc, hit, *args)
    ship_matchups(calc, view, *args)
    assert (calc.counts.requested["grid"], calc.counts.computed["grid"]) == (3, 2)


# -- 2. repeated pieces drawn once -------------------------------------------------------

@pytest.fixture(scope="module")
def british_pdf(sirte: Context) -> tuple[bytes, list]:
    d = sirte.data
    pages = side_matchup_pages(d, "british")
    comp = render_matchups(pages, d.calculator, "a4", "matchups:british", "B-", "foot")
    armed = share_pages([p for p in pages if p.guns or p.torpedoes])
    return comp.pdf, armed


def test_the_gun_header_form_is_defined_once_and_used_on_every_page(
        british_pdf: tuple[bytes, list]) -> None:
    pdf, armed = british_pdf
    name = form_name("head", FormGrid(gun_grid(armed[0])).style)
    reader = PdfReader(io.BytesIO(pdf))
    holders, uses, ids = 0, 0, set()
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        key = f"/FormXob.{name}"
        if key in xobjects:
            holders += 1
            ids.add(xobjects.raw_get(key).idnum)
        uses += page.get_contents().get_data().count(f"/FormXob.{name} Do".encode())
    # Every armed British ship has guns: one gun header per fit, the 12 fits sharing
    # 4 pages (issue 29: firers fill a page), each page naming the one form.
    assert len(armed) == 12 and all(p.guns for p in armed)
    assert uses == 12
    assert holders == len(reader.pages) == 4
    assert len(ids) == 1  # one object, named by every page
    form = reader.get_object(ids.pop())
    data = form.get_data()  # type: ignore[union-attr]
    assert b"Battery" in data and b"Medium range" in data
    assert pdf.count(data) == 1  # its content stream is in the file once


def test_every_form_is_placed_and_stored_once(british_pdf: tuple[bytes, list]) -> None:
    pdf, armed = british_pdf
    reader = PdfReader(io.BytesIO(pdf))
    uses: Counter[str] = Counter()
    for page in reader.pages:
        uses.update(n.decode() for n in re.findall(rb"/FormXob\.(qd-f-[0-9a-f]{16}) Do",
                                                   page.get_contents().get_data()))
    defined = {k for page in reader.pages
               for k in page["/Resources"].get("/XObject", {})}
    assert {f"/FormXob.{n}" for n in uses} == defined
    # Headers, legends and rule skeletons recur: the 4 pages place 7 forms 46 times
    # (the gun header for all 12 fits; the reading note, said once a sheet, is no form).
    assert (len(reader.pages), len(armed)) == (4, 12)
    assert (len(uses), sum(uses.values()), max(uses.values())) == (7, 46, 12)
    for name in defined:
        stream = reader.get_object(next(
            page["/Resources"]["/XObject"].raw_get(name).idnum for page in reader.pages
            if name in page["/Resources"].get("/XObject", {})))
        assert pdf.count(stream.get_data()) == 1  # type: ignore[union-attr]


def test_matchup_pages_are_byte_identical_across_renders(sirte: Context) -> None:
    d = sirte.data
    pages = side_matchup_pages(d, "italian")
    first = render_matchups(pages, d.calculator, "a4", "m", "I-", "foot").pdf
    again = render_matchups(pages, d.calculator, "a4", "m", "I-", "foot").pdf
    assert first == again


# -- 3. the forms draw what Grid.draw drew -----------------------------------------------

def _sample_grid() -> Grid:
    """Wrapped labels, tints, zebra rows, a group row and a header span."""
    tints = {"HD": colors.Color(0.98, 0.8, 0.6), "S": colors.Color(0.93, 0.62, 0.6)}
    rows = [["Group heading", "", "", "", ""],
            ["BOW 2×5in", "Aoba class CA, Kako class CA, Furutaka class CA", "HD", "S", "1"],
            ["STN 2×5in", "any target of armor 4", "HD", "S", "1"],
            ["BOW 2×5in", "Aoba class CA, Kako class CA, Furutaka class CA", "HD", "S", "1"],
            ["L/R 4×4in", "any target of armor 2", "–", "HD", "0.25"]]
    return Grid([w * MM for w in (20, 34, 8, 8, 10)],
                [["Battery", "Target", "Faces", None, "E"]], rows, aligned(2, 5),
                spans=[(0, 2, 3)], group_rows=frozenset({0}), tints=tints, size=7,
                wrap=frozenset({0, 1}))


def _render(draw: object) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(120 * MM, 140 * MM), invariant=1)
    draw(canvas)  # type: ignore[operator]
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_form_grid_pages_look_and_read_like_grid_draw() -> None:
    grid = _sample_grid()
    tops = (130 * MM, 80 * MM)

    def plain(canvas: Canvas) -> None:
        for top in tops:
            grid.draw(canvas, 10 * MM, top)

    def formed(canvas: Canvas) -> None:
        forms = FormGrid(grid, split=[2])
        for top in tops:
            forms.draw(canvas, 10 * MM, top)

    a, b = pdfium.PdfDocument(_render(plain)), pdfium.PdfDocument(_render(formed))
    assert a[0].get_textpage().get_text_range() == b[0].get_textpage().get_text_range()
    diff = ImageChops.difference(a[0].render(scale=3).to_pil().convert("RGB"),
                                 b[0].render(scale=3).to_pil().convert("RGB"))
    assert max(high for _, high in diff.getextrema()) <= 1
    # Per copy: the header, the group row, two parts for each of 4 rows, the rules: 11
    # placements. Rows 1 and 3 are alike (and both odd), and the second copy reuses
    # every form of the first: 9 forms.
    reader = PdfReader(io.BytesIO(_render(formed)))
    content = reader.pages[0].get_contents().get_data()
    placed = re.findall(rb"/FormXob\.(qd-f-[0-9a-f]{16}) Do", content)
    assert (len(placed), len(set(placed))) == (22, 9)
    assert len(reader.pages[0]["/Resources"]["/XObject"]) == 9
