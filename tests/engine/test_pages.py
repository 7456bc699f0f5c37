"""The page engine: every block is drawn at the height it measured, furniture on every page.

Heights and positions are read back from the PDF with pypdfium2 page objects and
compared to 0.01 mm.
"""

from __future__ import annotations

import ctypes
import io
from collections.abc import Iterator
from dataclasses import dataclass

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph

from generator.core import fonts
from generator.core.units import MM
from generator.kit.pipeline import validated_library
from generator.pages import wordwrap
from generator.pages.calibration import calibration_height
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.furniture import FOOTER_BASELINE, Furniture
from generator.pages.grid import Grid
from generator.pages.layout import Paper, SafeBox, new_canvas, safe_box
from generator.pages.pages import (
    Block,
    Columns,
    Document,
    Flow,
    GridBlock,
    KeepTogether,
    ParagraphBlock,
    Recorded,
    Spacer,
)
from generator.pages.tablestyle import Anchor, data_table, render_flow, styles
from generator.pieces.duplexcheck import render_duplex_check
from generator.rulesets.naval_action import RULESET as NAVAL
from generator.rulesets.naval_action import cardtables
from generator.rulesets.naval_action.cardtables import load_tables
from generator.rulesets.naval_action.components.action_card import render_action_card
from generator.rulesets.naval_action.components.status_sheet import (
    render_master,
    render_sheets,
    ship_block,
    ship_height,
)
from generator.rulesets.naval_action.derive import ShipView
from generator.rulesets.surface_action import RULESET as SURFACE
from generator.rulesets.surface_action.charts import load_charts
from generator.rulesets.surface_action.components.data_sheet import render_data_sheet

TOL = 0.01 * MM


# ------------------------------------------------------------------ reading PDFs back


@dataclass(frozen=True)
class Run:
    """One text object: its text and origin (x, baseline) in points."""

    text: str
    x: float
    y: float


def pages(pdf: bytes) -> Iterator[pypdfium2.PdfPage]:
    doc = pypdfium2.PdfDocument(pdf)
    for i in range(len(doc)):
        yield doc[i]


def runs(page: pypdfium2.PdfPage) -> list[Run]:
    textpage = page.get_textpage()
    out = []
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT]):
        size = pdfium_c.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
        buffer = (ctypes.c_ushort * (size // 2))()
        pdfium_c.FPDFTextObj_GetText(obj.raw, textpage.raw, buffer, size)
        text = bytes(buffer)[:size - 2].decode("utf-16-le")
        matrix = obj.get_matrix()
        out.append(Run(text.strip(), matrix.e, matrix.f))
    return out


def extent(page: pypdfium2.PdfPage) -> tuple[float, float]:
    """Lowest and highest point of everything drawn on the page."""
    bounds = [obj.get_bounds() for obj in page.get_objects()]
    return min(b[1] for b in bounds), max(b[3] for b in bounds)


def bare_flow(paper: Paper = "a4") -> tuple[io.BytesIO, Flow]:
    """A flow whose pages carry no furniture at all (so every mark is content)."""
    buffer = io.BytesIO()
    return buffer, Flow(new_canvas(buffer, paper, "test"), safe_box(paper),
                        Furniture(numbered=False))


def close(buffer: io.BytesIO, flow: Flow) -> bytes:
    flow.end()
    flow.canvas.save()
    return buffer.getvalue()


def bar(height: float) -> Recorded:
    """A custom block: a filled bar ``height`` tall (exact bounds in pdfium)."""
    def paint(c: Canvas, width: float) -> float:
        c.rect(0, -height, width / 2, height, stroke=0, fill=1)
        return height
    return Recorded(paint)


# ------------------------------------------------------------------ ship data


@pytest.fixture(scope="module")
def naval_views() -> dict[str, list[ShipView]]:
    library = validated_library([])
    return NAVAL._views(library, library.scenarios["savo-island"].model)


# ------------------------------------------------------------------ blocks


@pytest.mark.parametrize("which", ["Chōkai", "Astoria", None])
def test_ship_block_is_as_tall_as_drawn(naval_views: dict[str, list[ShipView]],
                                        which: str | None) -> None:
    every = [v for vs in naval_views.values() for v in vs]
    view = next(v for v in every if v.name == which) if which else None
    box = safe_box("a4")
    block = ship_block(view, "Savo Island")
    height = block.wrap(box.width)
    buffer, flow = bare_flow()
    placed = flow.add(block)
    (page,) = list(pages(close(buffer, flow)))
    low, high = extent(page)
    assert abs(high - box.top) < TOL
    assert abs((high - low) - height) < TOL
    assert placed.height == height
    assert abs(ship_height(view, box.width) - height) < TOL
    # The old estimate was 3.5 mm short of the drawn block; these blocks are 100+ mm.
    assert height > 100 * MM


def test_recorded_block_replays_exactly_what_it_painted() -> None:
    def paint(c: Canvas, width: float) -> float:
        c.setLineWidth(0.7)
        c.line(0, -3 * MM, width, -3 * MM)
        text = c.beginText(2 * MM, -8 * MM)
        text.setFont(fonts.REGULAR, 9)
        text.textOut("recorded")
        c.drawText(text)
        c.rect(0, -20 * MM, 10 * MM, 5 * MM, stroke=0, fill=1)
        return 20 * MM

    direct, replayed = io.BytesIO(), io.BytesIO()
    c1, c2 = new_canvas(direct, "a4", "t"), new_canvas(replayed, "a4", "t")
    c1.saveState()
    c1.translate(30, 700)
    paint(c1, 100)
    c1.restoreState()
    block = Recorded(paint)
    assert block.wrap(100) == 20 * MM
    block.draw(c2, 30, 700)
    for c in (c1, c2):
        c.showPage()
        c.save()
    assert direct.getvalue() == replayed.getvalue()


def test_grid_block_height_is_what_grid_draws_and_it_splits_with_the_header() -> None:
    rows = [[f"row {i}", str(i)] for i in range(140)]
    grid = Grid([40 * MM, 20 * MM], [["Name", "N"]], rows)
    box = safe_box("a4")
    buffer, flow = bare_flow()
    whole = GridBlock(grid)
    height = whole.wrap(box.width)
    scratch = new_canvas(io.BytesIO(), "a4", "t")
    assert abs(grid.draw(scratch, 0, 800) - height) < 1e-9
    flow.add(bar(10 * MM))
    flow.add(whole)
    flow.add(bar(3 * MM))
    pdf = close(buffer, flow)
    seen = [r.text for page in pages(pdf) for r in runs(page) if r.text.startswith("row")]
    assert seen == [f"row {i}" for i in range(140)]  # every row once, in order
    heads = [sum(r.text == "Name" for r in runs(page)) for page in pages(pdf)]
    assert len(heads) >= 2 and all(n == 1 for n in heads)
    # The probe after the grid sits exactly where the rows' measured heights end.
    last = list(pages(pdf))[-1]
    last_rows = [r for r in runs(last) if r.text.startswith("row")]
    first = int(last_rows[0].text.split()[1])
    rest = grid.header_height + sum(grid.row_height(i) for i in range(first, 140))
    probes = [b for b in (o.get_bounds() for o in last.get_objects())
              if abs(b[0] - box.x) < TOL and abs(b[2] - (box.x + box.width / 2)) < TOL]
    assert len(probes) == 1
    probe_top = probes[0][3]
    assert abs(probe_top - (box.top - rest)) < TOL


def test_paragraph_block_height_ends_at_the_last_line() -> None:
    style = styles()["body"]
    text = " ".join(["Measured once and drawn at the height measured."] * 12)
    box = safe_box("a4")
    block = ParagraphBlock(text, style)
    height = block.wrap(box.width)
    buffer, flow = bare_flow()
    top = flow.y
    flow.add(block)
    lines = sorted({round(r.y, 3) for page in pages(close(buffer, flow)) for r in runs(page)},
                   reverse=True)
    assert len(lines) >= 3
    assert abs(height - style.spaceBefore - len(lines) * style.leading) < TOL
    assert abs(lines[0] - (top - style.spaceBefore - style.fontSize)) < TOL
    # Below the last baseline the block keeps the rest of the line's leading.
    assert abs(lines[-1] - (style.leading - style.fontSize) - (top - height)) < TOL


def test_spacer_and_keep_together_move_the_cursor_by_their_measured_heights() -> None:
    box = safe_box("a4")
    buffer, flow = bare_flow()
    flow.add(bar(110 * MM))
    flow.add(Spacer(7 * MM))
    group: list[Block] = [bar(60 * MM), Spacer(2 * MM), bar(90 * MM)]
    together = KeepTogether(group)
    assert together.wrap(box.width) == 152 * MM
    placed = flow.add(together)
    assert placed.page == 1 and placed.top == box.top  # 117 + 152 mm is more than a page
    flow.add(bar(5 * MM))
    first, second = (sorted((o.get_bounds() for o in page.get_objects()), key=lambda b: -b[3])
                     for page in pages(close(buffer, flow)))
    assert len(first) == 1 and abs(first[0][1] - (box.top - 110 * MM)) < TOL
    tops = [b[3] for b in second]
    expected = [box.top, box.top - 62 * MM, box.top - 152 * MM]
    assert all(abs(a - b) < TOL for a, b in zip(tops, expected, strict=True))


def test_a_gap_never_starts_a_page() -> None:
    box = safe_box("a4")
    buffer, flow = bare_flow()
    flow.add(bar(box.height - 1 * MM))
    flow.add(Spacer(5 * MM))
    assert flow.page == 0
    placed = flow.add(bar(1 * MM))
    assert (placed.page, placed.top) == (1, box.top)


# ------------------------------------------------------------------ furniture


def footer_runs(pdf: bytes, box: SafeBox, baseline: float) -> list[list[Run]]:
    """Per page, the text objects on the footer's baseline."""
    return [[r for r in runs(page) if abs(r.y - baseline) < TOL] for page in pages(pdf)]


def assert_footer(pdf: bytes, box: SafeBox, text: str | list[str], numbers: list[str],
                  lift: float = 0.0) -> None:
    """Footer text at the box's left and the number flush right, same baseline, every page."""
    baseline = box.y + FOOTER_BASELINE + lift
    found = footer_runs(pdf, box, baseline)
    assert len(found) == len(numbers)
    texts = text if isinstance(text, list) else [text] * len(numbers)
    for page_runs, want, number in zip(found, texts, numbers, strict=True):
        left = [r for r in page_runs if abs(r.x - box.x) < TOL]
        assert [r.text for r in left] == [want]
        right = [r for r in page_runs if r.text == number]
        assert len(right) == 1
        end = right[0].x + fonts.string_width(number, fonts.NARROW, 7)
        assert abs(end - box.right) < TOL


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_canvasdoc_pages_carry_footer_and_number(paper: Paper) -> None:
    for calibration in (False, True):
        doc = CanvasDoc(paper, "t", "quarterdeck · test footer", calibration=calibration)
        doc.grid(Grid([40 * MM], [["Row"]], [[str(i)] for i in range(200)]))
        pdf, count = doc.finish()
        assert count >= 2
        lift = calibration_height(doc.box.width) if calibration else 0.0
        assert_footer(pdf, doc.box, "quarterdeck · test footer",
                      [str(i + 1) for i in range(count)], lift)


def test_platypus_pages_carry_the_same_footer() -> None:
    story: list[Flowable] = [Paragraph("Flowing text on several pages. " * 40,
                                       styles()["body"]) for _ in range(12)]
    result = render_flow(story, "a4", "t", "quarterdeck · flowing")
    assert result.pages >= 2
    assert_footer(result.pdf, safe_box("a4"), "quarterdeck · flowing",
                  [str(i + 1) for i in range(result.pages)])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_status_sheets_and_master_carry_the_footer(naval_views: dict[str, list[ShipView]],
                                                   paper: Paper) -> None:
    box = safe_box(paper)
    sheets = render_sheets(naval_views["allied"], paper, "Ship status: Allies", "Savo",
                           "sheets:allied", "AL-")
    assert sheets.pages >= 2
    assert_footer(sheets.pdf, box, "quarterdeck · NAVAL ACTION · Ship status: Allies",
                  [str(i + 1) for i in range(sheets.pages)])
    assert [b.title for b in sheets.bookmarks] == [v.name for v in naval_views["allied"]]
    master = render_master(paper)
    assert master.pages == 1
    assert_footer(master.pdf, box, "Blank ship status master — copy, or slide into a sleeve "
                  "and use a washable marker", ["1"])


def test_status_sheet_blocks_never_reach_the_footer(
        naval_views: dict[str, list[ShipView]]) -> None:
    box = safe_box("letter")
    sheets = render_sheets(naval_views["japanese"], "letter", "S", "Savo", "k", "L-")
    for page in pages(sheets.pdf):
        content = [r for r in runs(page) if r.y > box.y + 5 * MM]
        low = min(o.get_bounds()[1] for o in page.get_objects()
                  if o.get_bounds()[1] > box.y + 4 * MM)
        assert content and low >= box.y + 6 * MM - TOL


def test_status_sheet_legends_come_from_the_tables_in_force(
        naval_views: dict[str, list[ShipView]]) -> None:
    bundled = load_tables()
    rules = bundled.rules.model_copy(update={"torpedo_penetration": {18: 5, 21: 9, 24: 11}})
    card = bundled.card.model_copy(update={"victory": bundled.card.victory.model_copy(
        update={"heavy_damage_share": (1, 3)})})
    mine = bundled.model_copy(update={"rules": rules, "card": card})
    view = naval_views["japanese"][:1]
    with cardtables.using(mine):
        pdf = render_sheets(view, "a4", "S", "Savo", "k", "L-").pdf
    text = " ".join(r.text for page in pages(pdf) for r in runs(page))
    assert "penetration 5/9/11 for 18/21/24in" in text
    assert "1/3 CS for HD" in text
    plain = " ".join(r.text for page in pages(render_sheets(view, "a4", "S", "Savo", "k",
                                                              "L-").pdf) for r in runs(page))
    assert "penetration 6/7/8 for 18/21/24in" in plain and "½ CS for HD" in plain


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_data_sheet_carries_heading_and_footer(paper: Paper) -> None:
    library = validated_library([])
    charts = load_charts(None)
    scenario, _ = SURFACE._scenario(library, "guadalcanal-battleships")
    views = SURFACE._views(library, scenario, charts)
    side = next(s for s in scenario.sides if len(views[s.id]) > 12)
    box = safe_box(paper, landscape=True)
    sheet = render_data_sheet(views[side.id], charts, paper, "Data sheet: X", "qd · footer",
                              "k", "L-")
    assert sheet.pages == 2
    assert_footer(sheet.pdf, box, "qd · footer", ["1", "2"])
    names = [v.name for v in views[side.id]]
    seen = [r.text for page in pages(sheet.pdf) for r in runs(page) if r.text in names]
    assert seen == names
    for page in pages(sheet.pdf):
        heading = [r for r in runs(page) if r.text == "Data sheet: X"]
        assert len(heading) == 1
        assert abs(heading[0].x - box.x) < TOL and abs(heading[0].y - (box.top - 5 * MM)) < TOL
        # Every row and note stays above the footer's reserved band.
        assert min(r.y for r in runs(page) if r.text not in ("qd · footer", "1", "2")) > \
            box.y + 6 * MM


def test_action_card_and_duplex_check_use_the_shared_footer() -> None:
    box = safe_box("a4")
    card = render_action_card(load_tables(), "a4")
    assert_footer(card.pdf, box, "All tables as bundled with quarterdeck.",
                  ["Card-1 · front", "Card-2 · back"])
    check = render_duplex_check("a4", "long", (0.0, 0.0), "kit")
    front, back = (footer_runs(check.pdf, box, box.y + FOOTER_BASELINE + lift)
                   for lift in (calibration_height(box.width), 0.0))
    assert [r.text for r in front[0]] == ["kit · back-offset check, front", "1"]
    assert [r.text for r in back[1]] == ["kit · back-offset check, back", "2"]


def test_document_component_carries_label_and_bookmarks() -> None:
    doc = Document("a4", "t", Furniture("foot", label="Q-"))
    doc.anchor("here")
    doc.add(bar(10 * MM))
    comp = doc.component("k", "T", "Q-")
    assert (comp.pages, comp.label, [b.title for b in comp.bookmarks]) == (1, "Q-", ["here"])
    assert_footer(comp.pdf, safe_box("a4"), "foot", ["Q-1"])


def test_a_painter_cannot_read_state_from_the_recorder() -> None:
    def paint(c: Canvas, width: float) -> float:
        return float(c.stringWidth("x", fonts.REGULAR, 9))

    with pytest.raises(AttributeError, match="cannot record 'stringWidth'"):
        Recorded(paint).wrap(100)


# ---------------------------------------------------------------- the word-wrapper


def _width(line: str, font: str = fonts.NARROW, size: float = 8.0) -> float:
    return fonts.string_width(line, font, size)


def test_lines_fill_each_line_greedily_and_never_lose_a_word() -> None:
    text = "the quick brown fox jumps over the lazy dog " * 3
    width = 30 * MM
    out = wordwrap.lines(text, fonts.NARROW, 8.0, width)
    assert " ".join(out).split() == text.split()
    assert all(_width(line) <= width for line in out)
    # Greedy: the next line's first word would not have fitted on the line before it.
    for line, after in zip(out, out[1:], strict=False):
        assert _width(f"{line} {after.split()[0]}") > width


def test_lines_keep_newlines_and_give_an_overlong_word_its_own_line() -> None:
    long = "Supercalifragilisticexpialidocious"
    out = wordwrap.lines(f"a b\n{long} c", fonts.NARROW, 8.0, _width(long) / 2)
    assert out == ["a b", long, "c"]
    # A long dotted name breaks after its punctuation instead of running out of its cell.
    path = "ratings.surface-action.guns.0.factor"
    cut = wordwrap.lines(path, fonts.NARROW, 8.0, _width(path) / 2)
    assert "".join(cut) == path and len(cut) > 1
    assert all(_width(line) <= _width(path) / 2 for line in cut)
    assert wordwrap.lines(" \n ", fonts.NARROW, 8.0, 50.0) == []
    # The strict wrapper refuses the same text instead (its callers shrink and retry).
    assert wordwrap.wrap(long, fonts.NARROW, 8.0, _width(long) / 2) is None


def test_wrap_list_breaks_only_between_items_and_keeps_the_commas() -> None:
    items = ["Aoba class CA", "Kako class CA", "Myoko class CA", "Takao class CA"]
    pairs = ["Aoba class CA, Kako class CA", "Myoko class CA, Takao class CA"]
    width = max(map(_width, pairs)) + 0.01
    # Three items never fit on one line at this width.
    assert _width(", ".join(items[:3])) > width
    out = wordwrap.wrap_list(", ".join(items), width, 8.0)
    assert out == ["Aoba class CA, Kako class CA,", "Myoko class CA, Takao class CA"]
    assert wordwrap.wrap_list("", width, 8.0) == [""]


def test_wrap_list_measures_each_line_with_its_comma() -> None:
    width = max(_width("SC Jun 1943"), _width("SG Jun 1944")) + 0.01
    assert _width("SC Jun 1943,") > width
    out = wordwrap.wrap_list("SC Jun 1943, SG Jun 1944", width, 8.0)
    # The first item fits alone but not with its comma: it wraps by words instead of
    # letting the comma run past the cell (where it used to be clipped away).
    assert out == ["SC Jun", "1943,", "SG Jun 1944"]
    assert all(_width(line) <= width for line in out)


def test_a_group_heading_row_never_ends_a_page() -> None:
    rows = [[f"row {i}", str(i)] for i in range(40)]
    grid = Grid([40 * MM, 20 * MM], [["Name", "N"]], rows, group_rows=frozenset({5, 20}))
    # Room for exactly six rows: the sixth (index 5) is a group heading.
    height = grid.header_height + sum(grid.row_height(i) for i in range(6)) + 0.001
    parts = GridBlock(grid).split(grid.width, height, fresh=True)
    assert parts is not None
    first, rest = parts
    assert isinstance(first, GridBlock) and isinstance(rest, GridBlock)
    assert (first.start, first.end, rest.start) == (0, 5, 5)
    # Without the heading in the way the same room takes all six rows.
    plain = Grid(grid.widths, grid.header, rows)
    cut = GridBlock(plain).split(plain.width, height, fresh=True)
    assert cut is not None and isinstance(cut[0], GridBlock) and cut[0].end == 6


def test_render_flow_keeps_a_heading_with_its_table_and_repeats_the_header() -> None:
    box = safe_box("a4")
    room = box.height - Furniture().bottom(box)
    heading = Paragraph("Table heading", styles()["h3"])
    _, high = heading.wrap(box.width, 1e6)
    # A bar leaves room for the heading but not for the heading and the table's start.
    story: list[Flowable | Block] = [
        bar(room - heading.getSpaceBefore() - high - 5 * MM), Anchor("Table"), heading,
        data_table(["Roll", "Result"], [[str(i), f"result {i}"] for i in range(120)],
                   [20, 40])]
    result = render_flow(story, "a4", "t", "quarterdeck · flowing")
    texts = [[r.text for r in runs(page)] for page in pages(result.pdf)]
    assert "Table heading" not in texts[0]
    assert "Table heading" in texts[1] and "result 0" in texts[1]
    assert result.anchors[0][:2] == ("Table", 1)
    # The table runs over several pages, its header on each, no row lost or repeated.
    rows = [t for page in texts for t in page if t.startswith("result ")]
    assert rows == [f"result {i}" for i in range(120)]
    assert result.pages >= 3
    assert all("Roll" in page for page in texts[1:])


def test_columns_place_blocks_whole_at_their_measured_tops_and_say_when_full() -> None:
    box = SafeBox(20 * MM, 20 * MM, 100 * MM, 50 * MM)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, "a4", "test")
    columns = Columns(canvas, box, 2, 10 * MM)
    assert abs(columns.width - 45 * MM) < TOL
    first = columns.place(bar(30 * MM), gap=5 * MM)
    # 15 mm are left in the first column: a 20 mm block goes whole to the second.
    second = columns.place(bar(20 * MM))
    assert first is not None and second is not None
    assert (first.page, second.page) == (0, 1)
    assert abs(second.top - box.top) < TOL
    assert abs(columns.room(0) - 15 * MM) < TOL and abs(columns.room(1) - 30 * MM) < TOL
    # A block no column has room for is refused, and nothing is drawn for it.
    assert columns.place(bar(40 * MM)) is None
    canvas.save()
    drawn = sorted((round(b[0] / MM, 2), round(b[3] / MM, 2), round(b[1] / MM, 2))
                   for page in pages(buffer.getvalue()) for b in
                   (o.get_bounds() for o in page.get_objects()))
    assert drawn == [(20.0, 70.0, 40.0), (75.0, 70.0, 50.0)]


# --- template markup reaches a page one way ----------------------------------------------

def test_markup_onto_sets_each_kind_of_block_and_bookmarks_headings() -> None:
    from generator.pages.canvasdoc import CanvasDoc
    from generator.pages.markup import markup_onto
    from tests.pdftext import page_texts

    doc = CanvasDoc("a4", "Markup", "foot")
    markup_onto(doc, "# The <b>title</b>\n@ Mark here\n- a bullet\n| a line\n\nsome body\n"
                     "text & more\n### Sub\n", body="small", bookmark_headings=True)
    pdf, _ = doc.finish()
    lines = page_texts(pdf)[0].splitlines()
    assert [line for line in lines if line != "foot" and "Page" not in line][:5] == [
        "The title", "• a bullet", "a line", "some body text & more", "Sub"]
    assert [b.title for b in doc.bookmarks] == ["The title", "Mark here"]
    plain = CanvasDoc("a4", "Markup", "foot")
    markup_onto(plain, "# The title\n")
    assert plain.bookmarks == []  # a heading is a bookmark only when the document says so


def test_no_ruleset_sets_template_markup_by_hand() -> None:
    from tests.paths import ROOT

    # markup_blocks is read where markup is set and where a template's text is checked
    # (templating); a ruleset sets prose with markup_onto (drawn documents) or
    # markup_to_flowables (flows), never block by block itself.
    readers = sorted(path.relative_to(ROOT).as_posix()
                     for path in (ROOT / "generator").rglob("*.py")
                     if "markup_blocks(" in path.read_text(encoding="utf-8"))
    assert readers == ["generator/pages/markup.py", "generator/pages/templating.py"]
