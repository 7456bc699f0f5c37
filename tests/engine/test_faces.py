"""Face layouts: geometry read back from the PDF, derived backs, located errors, the fit rule."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from generator.core import fonts
from generator.core.errors import DataError, RenderError
from generator.core.units import MM
from generator.pages.autofit import LABEL_FLOOR, LabelFitter, abbreviations, fit_label
from generator.pieces.faces import (
    derived_values,
    face_piece,
    fill_template,
    load_faces,
    template_names,
)
from generator.pieces.imposition import Options, impose
from generator.pieces.pieces import piece_warnings
from generator.pieces.sprue import Sprue
from generator.rulesets.surface_action.countertables import COUNTERS_FILE, bundled_counters
from tests.pdftext import open_pages
from tests.rulesets.surface_action.test_sa_counters import read_cells

TOL = 0.01 * MM

LAYOUT = """\
kind: faces
faces:
  infantry:
    size: 16mm x 16mm
    background: "{fill}"
    values: {name: text, attack: number, defence: number, move: number, fill: colour}
    fields:
      - text: "{name}"
        x: 1mm
        y: 1mm
        width: 14mm
        height: 3mm
        font: narrow-bold
        font_size: 6.5pt
        align: left
        valign: top
      - icon: star
        x: 5.5mm
        y: 4.5mm
        width: 5mm
        height: 5mm
        colour: "#ffffff"
      - text: "{attack}-{defence}-{move}"
        x: 1mm
        y: 11mm
        width: 14mm
        height: 4mm
        font: bold
        font_size: 9pt
        fill: "#ffffff"
        valign: bottom
    back:
      from: front
      attack: half
      defence: {minus: 1}
      round: down
      set: {fill: "#e04a3a"}
      add:
        - icon: bar
          y: 10mm
          height: 0.8mm
          colour: "#ffffff"
"""

VALUES = {"name": "Guards Rifle", "attack": 5, "defence": 3, "move": 4, "fill": "#336699"}


@pytest.fixture(scope="module")
def layouts(tmp_path_factory: pytest.TempPathFactory) -> dict:
    path = tmp_path_factory.mktemp("faces") / "faces.yaml"
    path.write_text(LAYOUT, encoding="utf-8")
    return load_faces(path)


def sprue() -> Sprue:
    return Sprue(kind="sprue", id="t", title="T", regions=[{"title": "Units",
                                                            "groups": ["unit"]}])


def read_back(pdf: bytes, tmp: Path) -> list[dict]:
    """Per placed copy: id, page, cut box (x0, top, x1, bottom) and the glyphs in it."""
    cells, _ = read_cells(pdf, tmp)
    return [{"id": c.id, "page": c.page, "box": c.box, "chars": c.chars} for c in cells]


def text_of(chars: list[dict]) -> str:
    rows: dict[int, list[dict]] = {}
    for ch in chars:
        rows.setdefault(round(ch["bottom"]), []).append(ch)
    return " / ".join("".join(c["text"] for c in sorted(row, key=lambda c: c["x0"]))
                      for _, row in sorted(rows.items()))


def assert_safe(cell: dict) -> None:
    """Every glyph box of the cell lies at least 1 mm inside its cut line (to 0.01 mm)."""
    x0, top, x1, bottom = cell["box"]
    for ch in cell["chars"]:
        assert ch["x0"] >= x0 + 1 * MM - TOL, (cell["id"], ch["text"])
        assert ch["x1"] <= x1 - 1 * MM + TOL, (cell["id"], ch["text"])
        assert ch["top"] >= top + 1 * MM - TOL, (cell["id"], ch["text"])
        assert ch["bottom"] <= bottom - 1 * MM + TOL, (cell["id"], ch["text"])


# -- geometry ----------------------------------------------------------------------------


def test_every_label_stays_a_millimetre_inside_the_cut_front_and_back(layouts, tmp_path):
    names = ["Guards Rifle", "3rd Guards Rifle Regiment of the Line", "W" * 300]
    pieces = [face_piece(layouts["infantry"], {**VALUES, "name": name}, f"unit.{i}", name,
                         group="unit") for i, name in enumerate(names)]
    imposed = impose(pieces, sprue(), Options(duplex="long"), "Units", "test")
    cells = read_back(imposed.pdf, tmp_path)
    assert len(cells) == 6 and {c["page"] for c in cells} == {0, 1}
    for cell in cells:
        x0, top, x1, bottom = cell["box"]
        assert abs(x1 - x0 - 16 * MM) <= TOL and abs(bottom - top - 16 * MM) <= TOL
        assert cell["chars"], cell["id"]
        assert_safe(cell)
    front = next(c for c in cells if c["id"] == "unit.0")
    # the name is left-aligned in its box: its first glyph starts on the box's left edge
    first = min(front["chars"], key=lambda c: c["x0"])
    assert first["text"] == "G" and abs(first["x0"] - front["box"][0] - 1 * MM) <= TOL
    # the value box is bottom-aligned: the descent sits on the box's bottom (1 mm up)
    digits = [c for c in front["chars"] if c["text"].isdigit()]
    size = digits[0]["size"]
    descent = -0.276 * size
    baseline = front["box"][3] - 1 * MM + descent
    # pdfplumber's glyph box runs from baseline + descent up one em
    assert all(abs(c["bottom"] - (baseline - descent)) <= TOL for c in digits)


def test_the_derived_back_halves_rounds_and_reads_unmirrored(layouts, tmp_path):
    piece = face_piece(layouts["infantry"], VALUES, "unit.0", "Unit", group="unit")
    imposed = impose([piece], sprue(), Options(duplex="long"), "Units", "test")
    cells = {(c["id"], c["page"]): c for c in read_back(imposed.pdf, tmp_path)}
    front, back = cells[("unit.0", 0)], cells[("unit.0.back", 1)]
    assert text_of(front["chars"]) == "Guards Rifle / 5-3-4"
    assert text_of(back["chars"]) == "Guards Rifle / 2-2-4"  # 5 halved down, 3 minus 1
    # the back sits mirrored across the long edge; its text reads left to right, and each
    # glyph keeps its place inside the cut box, as on the front
    width = open_pages(tmp_path / "read.pdf")[0].width  # where read_cells left it
    assert abs(back["box"][0] - (width - front["box"][2])) <= TOL
    for f, b in zip(sorted(front["chars"], key=lambda c: (c["top"], c["x0"]))[:5],
                    sorted(back["chars"], key=lambda c: (c["top"], c["x0"]))[:5], strict=True):
        assert f["text"] == b["text"] and abs(f["upright"] - b["upright"]) < 1e-9
        assert abs((f["x0"] - front["box"][0]) - (b["x0"] - back["box"][0])) <= TOL


@pytest.mark.parametrize("rounding, odd, even", [("down", 2, 3), ("up", 3, 3),
                                                 ("nearest", 3, 3)])
def test_derived_values_round_as_told(layouts, rounding, odd, even):
    layout = layouts["infantry"]
    back = layout.back.model_copy(update={"round": rounding})
    derived = layout.model_copy(update={"back": back})
    assert derived_values(derived, {**VALUES, "attack": 5})["attack"] == odd
    assert derived_values(derived, {**VALUES, "attack": 6})["attack"] == even
    assert derived_values(derived, {**VALUES, "defence": 0})["defence"] == 0  # minus stops at 0
    assert derived_values(derived, VALUES)["fill"] == "#e04a3a"
    assert VALUES["attack"] == 5  # the front's values are left alone


def test_nearest_rounds_halves_up_and_plus_adds(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text("kind: faces\nfaces:\n  s:\n    size: 10mm x 10mm\n"
                    "    values: {a: number, b: number}\n"
                    "    back: {from: front, a: half, b: {plus: 2}, round: nearest}\n",
                    encoding="utf-8")
    layout = load_faces(path)["s"]
    assert [derived_values(layout, {"a": a, "b": 1})["a"] for a in range(6)] == [0, 1, 1, 2, 2, 3]
    assert derived_values(layout, {"a": 1, "b": 1})["b"] == 3


# -- located errors ----------------------------------------------------------------------


def problems_of(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_faces(path, "bad.yaml")
    return [str(p) for p in err.value.problems]


LOCATED = {
    # types first: a bad icon and a bad length
    "types": ([("icon: star", "icon: stra"), ("x: 5.5mm", "x: 5.5mmm")], [
        "bad.yaml:17:15: faces.infantry.fields.1.icon: found 'stra', expected one of bar, "
        "circle, flame, rectangle, star, triangle; did you mean 'star'?",
        "bad.yaml:18:12: faces.infantry.fields.1.x: found '5.5mmm', expected a length "
        "such as '3mm' or '0.125in'"]),
    # then the layout: names, a box past the safe zone, a box too short for its floor
    "layout": ([('"{name}"', '"{nmae}"'),
                ("width: 14mm\n        height: 4mm", "width: 14.5mm\n        height: 4mm"),
                ("defence: {minus: 1}", "defense: {minus: 1}"),
                ('set: {fill: "#e04a3a"}', 'set: {fill: "#e04a3a", move: x}'),
                ("height: 3mm", "height: 1mm")], [
        "bad.yaml:8:15: faces.infantry.fields.0.text: found unknown value 'nmae', expected "
        "one of name, attack, defence, move, fill; did you mean 'name'?",
        "bad.yaml:12:17: faces.infantry.fields.0.height: found 1.00mm, expected at least "
        "2.74mm (one line at the 6pt floor)",
        "bad.yaml:26:16: faces.infantry.fields.2.width: found x + width = 15.50mm, expected "
        "at most 15.00mm (the trim less the 1.00mm safe zone)",
        "bad.yaml:35:16: faces.infantry.back.defense: found unknown value 'defense', expected "
        "one of name, attack, defence, move, fill; did you mean 'defence'?",
        "bad.yaml:37:36: faces.infantry.back.set.move: found 'x', expected a whole number"]),
    # the safe zone's near edge, templates that try more than a name, kinds that differ
    "kinds": ([("x: 1mm\n        y: 1mm", "x: 0.5mm\n        y: 1mm"),
               ('"{attack}-{defence}-{move}"', '"{attack.__class__}"'),
               ('colour: "#ffffff"\n      - text', 'colour: "{name}"\n      - text'),
               ("attack: half", "name: half")], [
        "bad.yaml:9:12: faces.infantry.fields.0.x: found 0.50mm, expected at least 1.00mm "
        "(the safe zone inside the cut)",
        "bad.yaml:22:17: faces.infantry.fields.1.colour: found '{name}' (a text value), "
        "expected a colour value or '#rrggbb'",
        "bad.yaml:23:15: faces.infantry.fields.2.text: found '{attack.__class__}', expected "
        "a value name in braces such as {name} (no expressions, attributes or formats)",
        "bad.yaml:34:13: faces.infantry.back.name: found 'name' (a text value), expected a "
        "number value to change"]),
    # icons may reach the cut line, not cross it
    "icons": ([("x: 5.5mm\n        y: 4.5mm", "x: 11.5mm\n        y: 0mm")], [
        "bad.yaml:20:16: faces.infantry.fields.1.width: found x + width = 16.50mm, expected "
        "at most 16.00mm (the trim)"]),
}


@pytest.mark.parametrize("case", LOCATED)
def test_problems_are_located_with_exact_messages(tmp_path, case):
    edits, expected = LOCATED[case]
    text = LAYOUT
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    assert problems_of(tmp_path, text) == expected


def test_a_ruleset_tables_file_locates_face_problems(tmp_path):
    text = COUNTERS_FILE.read_text(encoding="utf-8")
    mark = '{text: "{legend}", x: 1mm, y: 11mm'
    assert mark in text
    bad = tmp_path / "counters.yaml"
    bad.write_text(text.replace(mark, mark.replace("{legend}", "{legnd}")), encoding="utf-8")
    with pytest.raises(DataError) as err:
        bundled_counters(bad)
    line = text[:text.index(mark)].count("\n") + 1
    column = text.splitlines()[line - 1].index("{legend}")  # the value's quote, 1-based
    assert [str(p) for p in err.value.problems] == [
        f"{bad}:{line}:{column}: faces.turn.fields.1.text: found unknown value 'legnd', "
        "expected one of number, legend, fill, ink; did you mean 'legend'?"]


def test_templates_are_names_only():
    assert template_names("{attack}-{defence}") == ["attack", "defence"]
    assert fill_template("{{a}} {a}", {"a": 5}) == "{a} 5"
    assert template_names("{0}") == ("found '{0}', expected a value name in braces such as "
                                     "{name} (no expressions, attributes or formats)")
    assert template_names("a } b") == "found a lone '}', expected {{ or }} for a brace"


def test_a_piece_without_a_declared_value_names_itself(layouts):
    with pytest.raises(RenderError, match=r"^piece unit\.9: the face needs the value 'move'$"):
        face_piece(layouts["infantry"], {k: v for k, v in VALUES.items() if k != "move"},
                   "unit.9", "Unit")
    with pytest.raises(RenderError, match=r"value 'fill': found 'blue', expected a colour"):
        face_piece(layouts["infantry"], {**VALUES, "fill": "blue"}, "unit.9", "Unit")


# -- the fit rule ------------------------------------------------------------------------


def test_shrink_first_then_abbreviate_then_warn():
    shrunk = fit_label("Salt Lake City", fonts.BOLD, 9, 15 * MM)
    assert shrunk.text == "Salt Lake City" and LABEL_FLOOR <= shrunk.size < 9
    assert shrunk.width <= 15 * MM
    short = fit_label("14th Squadriglia", fonts.BOLD, 9, 12 * MM)
    assert short.abbreviated and not short.failed and short.size >= LABEL_FLOOR
    # grown back from the floor as far as the shorter form allows
    assert (short.text, short.size) == ("14th Squadr.", 6.16) and short.width <= 12 * MM
    fitter = LabelFitter()
    forced = fitter.fit("unit.7", "Wotan", fonts.BOLD, 9, 0.8 * MM)
    # a label the fitter knows nothing about keeps every word whole, even below the floor
    assert forced.failed and forced.text == "Wotan" and forced.width <= 0.8 * MM
    assert fitter.warnings == ["piece unit.7: label 'Wotan' printed as 'Wotan' at 0.81 pt "
                               "(below 6 pt)"]


def test_a_face_piece_carries_its_warnings(layouts):
    layout = layouts["infantry"]
    field = layout.fields[0].model_copy(update={"width": 0.8 * MM})
    narrow = layout.model_copy(update={"fields": [field, *layout.fields[1:]]})
    piece = face_piece(narrow, {**VALUES, "name": "Wotan"}, "unit.7", "Unit")
    assert piece_warnings([piece, piece]) == [
        "piece unit.7: label 'Wotan' printed as 'Wotan' at 0.97 pt (below 6 pt)"]


def test_bisection_finds_the_same_form_as_trying_every_one():
    names = ["Salt Lake City", "Giovanni delle Bande Nere", "Hatsushimo", "Chōkai", "I-58",
             "De Ruyter", "Z 23", "a b c d e", "HMAS Canberra", "Ōshio"]
    for name in names:
        forms = abbreviations(name)
        for tenths in range(1, 300, 7):
            room = tenths / 10 * MM
            got = fit_label(name, fonts.NARROW_BOLD, 7, room)
            if fonts.string_width(name, fonts.NARROW_BOLD, LABEL_FLOOR) <= room:
                continue  # shrinking suffices
            want = next((f for f in forms
                         if fonts.string_width(f, fonts.NARROW_BOLD, LABEL_FLOOR) <= room), None)
            if want is None:
                assert got.failed
            else:
                assert got.text == want and not got.failed, (name, room)


def test_a_ten_thousand_character_label_is_quick():
    for text in ["abcdefghij" * 1000, "word " * 2000, "W" * 10_000]:
        start = time.perf_counter()
        fitted = fit_label(text, fonts.BOLD, 8, 20 * MM)
        assert time.perf_counter() - start < 0.5
        assert fitted.width <= 20 * MM and fitted.text
    fitter = LabelFitter()
    fitter.fit("long", "W" * 10_000, fonts.BOLD, 8, 0.3 * MM, abbreviate=False)
    # not to be abbreviated, and too long to print at any size: said so, naming the piece
    assert fitter.warnings == ["piece long: label 'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW...' "
                               "not printed (no room)"]


def test_naval_action_damage_marker_derives_its_heavy_damage_back(tmp_path):
    from generator.rulesets.naval_action.components.markers import MarkerMaker
    from generator.rulesets.naval_action.markertables import bundled_markers

    piece = MarkerMaker(bundled_markers()).damage_piece(2)
    assert (piece.id, round(piece.width / MM, 2), piece.quantity) == ("damage", 10.0, 2)
    imposed = impose([piece], Sprue(kind="sprue", id="t", title="T", regions=[
        {"title": "Damage", "groups": ["damage"]}]), Options(duplex="long"), "D", "test")
    cells = read_back(imposed.pdf, tmp_path)
    said = sorted((c["id"], text_of(c["chars"])) for c in cells)
    assert said == [("damage", "D"), ("damage", "D"), ("damage.back", "HD"),
                    ("damage.back", "HD")]
    for cell in cells:
        assert_safe(cell)
