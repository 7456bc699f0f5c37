"""The Action Card read back from its PDF: two pages, legible, and every table as data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.core.errors import DataError
from generator.core.units import MM
from generator.rulesets.naval_action.cardtables import Tables, load_tables
from generator.rulesets.naval_action.components.action_card import (
    layout_card,
    render_action_card,
)
from generator.rulesets.naval_action.components.card_back import back_sections
from tests.paths import ROOT
from tests.pdftext import Page, lines_of, open_pages

RULE_TEXT = ROOT.parent / "shared" / "rules" / "naval-action.txt"

# The ANTIAIRCRAFT RESULTS TABLE as the rule text prints it, die 6 down to 1.
AA_COLUMNS = ["3", "7", "12", "18", "27", "42"]
AA_EXPECTED = {
    6: "X X X X 2X 3X".split(),
    5: "- X X X X 2X".split(),
    4: "- - X X X X".split(),
    3: "- - - X X X".split(),
    2: "- - - - - X".split(),
    1: "- - - - - -".split(),
}

# What the card prints for "no effect" and negative numbers, read back as the YAML's "-".
DASHES = str.maketrans({"–": "-", "−": "-"})


def render(tables: Tables, paper: str, folder: Path) -> Path:
    component = render_action_card(tables, paper)  # type: ignore[arg-type]
    assert component.key == "card" and component.label == "Card-"
    path = folder / f"card-{paper}.pdf"
    path.write_bytes(component.pdf)
    return path


@pytest.fixture(scope="module")
def bundled_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return render(load_tables(), "a4", tmp_path_factory.mktemp("card"))


@pytest.fixture(scope="module")
def bundled(bundled_pdf: Path) -> list[Page]:
    """The bundled card's pages, read back once (pypdfium2) for every test."""
    return open_pages(bundled_pdf)


def columns(page: Page) -> list[Page]:
    """The card's two columns, left then right (they share baselines, so lines must not
    be read across the page; the gutter is centred on the page)."""
    middle = page.width / 2
    return [page.crop(0, middle), page.crop(middle, page.width)]


def column_of(page: Page, word: str) -> Page:
    """The first column (reading order) in which ``word`` appears."""
    for column in columns(page):
        if any(w["text"] == word for w in column.extract_words()):
            return column
    raise AssertionError(f"no {word!r} on the page")


def read_grid(page: Page, after: str, header: list[str],
              labels: list[str]) -> dict[str, list[str]]:
    """Cells of a printed table, found by its column headings below the word ``after``.

    Each word right of the label column is put under the nearest heading; every cell
    must hold exactly one word.
    """
    words = column_of(page, after).extract_words()
    start = min(w["top"] for w in words if w["text"] == after)
    lines = [line for line in lines_of(words) if line[0]["top"] > start]
    at, heads = find_header(lines, header)
    centres = [(h["x0"] + h["x1"]) / 2 for h in heads]
    pitch = centres[1] - centres[0]
    label_right = heads[0]["x0"] - pitch / 3
    grid: dict[str, list[str]] = {}
    for label, line in zip(labels, lines[at + 1:at + 1 + len(labels)], strict=True):
        assert line[0]["text"] == label, (label, [w["text"] for w in line])
        cells: list[list[str]] = [[] for _ in heads]
        for word in line:
            centre = (word["x0"] + word["x1"]) / 2
            if centre < label_right:
                continue
            nearest = min(range(len(centres)), key=lambda k: abs(centres[k] - centre))
            assert abs(centres[nearest] - centre) < pitch / 2, word
            cells[nearest].append(word["text"].translate(DASHES))
        assert all(len(c) == 1 for c in cells), (label, cells)
        grid[label] = [c[0] for c in cells]
    return grid


def find_header(lines: list[list[dict]], header: list[str]) -> tuple[int, list[dict]]:
    """The first line holding ``header`` as a run of words: its index and those words."""
    for at, line in enumerate(lines):
        texts = [w["text"].translate(DASHES) for w in line]
        for i in range(len(texts) - len(header) + 1):
            if texts[i:i + len(header)] == header:
                return at, line[i:i + len(header)]
    raise AssertionError(f"no heading row {header}")


def heading_line(page: Page, title: str) -> str:
    """The text of the heading bar that starts with ``title`` (tags included)."""
    for column in columns(page):
        for line in lines_of(column.extract_words()):
            text = " ".join(w["text"] for w in line)
            if text.startswith(title):
                return text
    raise AssertionError(f"no heading {title!r}")


# -- 1. two pages, type size, margins ---------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_two_pages_legible_and_inside_the_margin(paper: str, tmp_path: Path) -> None:
    path = render(load_tables(), paper, tmp_path)
    margin = 10 * MM - 0.01
    pages = open_pages(path)
    assert len(pages) == 2
    for page in pages:
        chars = page.chars
        assert len(chars) > 2000  # both sides are full reference pages, not stubs
        # Sizes read back as floats: 7 pt may come back a hair under 7.
        small = [c["text"] for c in chars if c["size"] < 7.0 - 1e-6]
        assert not small, f"text below 7 pt: {''.join(small)[:60]}"
        outside = [c["text"] for c in chars
                   if c["x0"] < margin or c["x1"] > page.width - margin
                   or c["top"] < margin or c["bottom"] > page.height - margin]
        assert not outside, f"text in the margin: {''.join(outside)[:60]}"


def test_bookmarks_name_every_section_on_its_page() -> None:
    layout = layout_card(load_tables(), "a4")
    by_title = {m.title: m.page for m in layout.bookmarks}
    assert by_title["Sequence of play"] == 0
    assert by_title["Gunfire / torpedo penetration"] == 0
    assert by_title["Antiaircraft results"] == 1
    assert by_title["Damage control"] == 1
    assert all(m.top is not None and 0 < m.top < 842 for m in layout.bookmarks)
    # Every column keeps some room: the bundled tables must never be near overflowing.
    assert all(room >= 1 for page in layout.room_mm for room in page), layout.room_mm


# -- 2. the AA Results table, cell for cell ------------------------------------------------------

def rule_text_aa_table(text: str) -> dict[int, list[str]]:
    """Parse the ANTIAIRCRAFT RESULTS TABLE out of the rule text."""
    after = text[text.index("ANTIAIRCRAFT RESULTS TABLE"):]
    header = re.search(r"Die Roll((?:\s+\d+)+)\s+Die Roll", after)
    assert header is not None and header.group(1).split() == AA_COLUMNS
    grid: dict[int, list[str]] = {}
    for line in after[header.end():].splitlines():
        row = re.match(r"^\s*([1-6])\s+(.+?)\s+\1\s*$", line)
        if row:
            grid[int(row.group(1))] = row.group(2).split()
        elif grid:
            break
    return grid


def test_aa_results_read_back_as_the_rule_text(bundled: list[Page]) -> None:
    printed = read_grid(bundled[1], "ANTIAIRCRAFT", AA_COLUMNS,
                        [str(face) for face in range(6, 0, -1)])
    assert {int(face): cells for face, cells in printed.items()} == AA_EXPECTED
    if not RULE_TEXT.is_file():  # said, not passed in silence (as the SA rule-text tests)
        pytest.skip(f"rule text not available: {RULE_TEXT}")
    assert rule_text_aa_table(RULE_TEXT.read_text(encoding="utf-8")) == AA_EXPECTED


def test_aa_results_heading_is_not_default(bundled: list[Page]) -> None:
    """The AA table is transcribed from the text, so it carries no DEFAULT tag."""
    assert "DEFAULT" not in heading_line(bundled[1], "ANTIAIRCRAFT RESULTS")


# -- 3. penetration and torpedo hits, cell for cell ------------------------------------------------

def penetration_heads(columns: list[int]) -> list[str]:
    heads = [f"+{c}" if c > 0 else str(c) for c in columns]
    heads[0], heads[-1] = f"≤{heads[0]}", f"≥{heads[-1]}"
    return heads


def test_penetration_table_reads_back_as_the_yaml(bundled: list[Page]) -> None:
    pen = load_tables().card.penetration
    faces = sorted(pen.rows, reverse=True)
    labels = [str(f) for f in faces] + [str(pen.dud_face)]
    printed = read_grid(bundled[0], "PENETRATION", penetration_heads(pen.columns), labels)
    for face in faces:
        assert printed[str(face)] == list(pen.rows[face]), face
    assert printed[str(pen.dud_face)] == list(pen.gunfire_dud)
    assert penetration_heads(pen.columns)[0] == "≤-4"
    assert penetration_heads(pen.columns)[-1] == "≥+7"


def test_torpedo_hits_table_reads_back_as_the_yaml(bundled: list[Page]) -> None:
    torp = load_tables().card.torpedo_hits
    printed = read_grid(bundled[1], "TORPEDO", [str(c) for c in torp.columns],
                        [str(f) for f in range(1, 7)])
    assert printed == {str(f): [str(n) for n in torp.rows[f]] for f in range(1, 7)}


def test_every_default_table_is_tagged_default(bundled: list[Page]) -> None:
    tables = load_tables()
    default = {name for name in type(tables.card).model_fields
               if getattr(tables.card, name).default}
    assert default >= {"penetration", "torpedo_hits", "damage_control", "accuracy"}
    text = "\n".join(page.extract_text() for page in bundled)
    # The torpedo runs are a line in the torpedo section, tagged where they stand.
    assert "yd a turn (DEFAULT)" in bundled[1].extract_text()
    for name in default - {"torpedo_runs"}:
        page, title = HEADINGS[name]
        assert heading_line(bundled[page], title).endswith("DEFAULT"), name
    # The card says what DEFAULT means, and, being a player's page, names no option.
    assert "DEFAULT: a table the rule text uses but does not print" in text
    assert "--tables" not in text


# Where each quarterdeck-designed card table is printed: (page, heading).
HEADINGS = {"accuracy": (0, "GUNFIRE ACCURACY MODIFIERS"),
            "penetration": (0, "GUNFIRE / TORPEDO PENETRATION"),
            "torpedo_hits": (1, "TORPEDO FIRE RESOLUTION"),
            "damage_control": (1, "DAMAGE CONTROL")}


# -- 4. a user's tables file changes the card ---------------------------------------------------

USER_TORPEDO_HITS = {
    1: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    2: [1, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    3: [0, 1, 1, 2, 3, 4, 5, 6, 7, 8],
    4: [0, 0, 1, 1, 2, 3, 4, 5, 6, 7],
    5: [0, 0, 0, 1, 1, 2, 3, 4, 5, 6],
    6: [0, 0, 0, 0, 1, 1, 2, 3, 4, 5],
}


def user_file(folder: Path) -> Path:
    rows = "\n".join(f"    {face}: {cells}" for face, cells in USER_TORPEDO_HITS.items())
    path = folder / "house-card.yaml"
    path.write_text(
        "torpedo_hits:\n"
        "  columns: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
        f"  rows:\n{rows}\n"
        "  wild_face: 6\n"
        "  bow_stern_arc_deg: 45\n"
        "  halve_rounding: up\n"
        "  automatic_within_yd: 2500\n"
        "  slow_target_kn: 4\n"
        "  extra_duds: []\n"
        "  spread_width_yd: {one_turn: 1000, two_turn: 2000}\n",
        encoding="utf-8")
    return path


def test_a_users_tables_change_the_card(tmp_path: Path) -> None:
    tables = load_tables(user_file(tmp_path))
    assert tables.replaced == ("torpedo_hits",)
    path = render(tables, "letter", tmp_path)
    back = open_pages(path)[1]
    printed = read_grid(back, "TORPEDO", [str(c) for c in range(1, 11)],
                        [str(f) for f in range(1, 7)])
    torpedo = heading_line(back, "TORPEDO FIRE RESOLUTION")
    damage = heading_line(back, "DAMAGE CONTROL")
    text = back.extract_text()
    assert printed == {str(f): [str(n) for n in cells]
                       for f, cells in USER_TORPEDO_HITS.items()}
    # The replaced table is credited to the user's file, no longer DEFAULT...
    assert "house-card.yaml" in torpedo and "DEFAULT" not in torpedo
    # ...while the bundled default tables keep their tag.
    assert damage.endswith("DEFAULT")
    assert "From house-card.yaml: torpedo_hits" in text
    # Numbers in the notes follow the user's table too.
    assert "within 45°" in text and "2,500 yd" in text
    assert "3,333" not in text


def test_tables_too_long_for_the_card_are_an_error_not_a_cut(tmp_path: Path) -> None:
    mods = "\n".join(f"    - {{number: {n}, label: \"House rule number {n}\", value: -1}}"
                     for n in range(1, 41))
    path = tmp_path / "long.yaml"
    base = load_tables().card.accuracy
    path.write_text(
        "accuracy:\n  default: true\n"
        f"  start: {base.start}\n  automatic_miss: {base.automatic_miss}\n"
        f"  below_one_needs: {base.below_one_needs}\n"
        f"  modifiers:\n{mods}\n"
        f"  multi_hits: {dict(base.multi_hits)}\n"
        f"  switch_fire_on: {base.switch_fire_on}\n"
        f"  second_target_max_hits: {base.second_target_max_hits}\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        render_action_card(load_tables(path), "a4")
    assert "long.yaml" in str(err.value.problems[0])


# -- 5. determinism -----------------------------------------------------------------------

def test_rendering_is_byte_identical() -> None:
    tables = load_tables()
    assert render_action_card(tables, "a4").pdf == render_action_card(tables, "a4").pdf
    assert render_action_card(tables, "letter").pdf == render_action_card(tables,
                                                                          "letter").pdf


def test_back_lists_what_the_brief_requires() -> None:
    titles = [s.title for s in back_sections(load_tables(), 92.5)]
    for needed in ("TORPEDO FIRE RESOLUTION", "DAMAGE CONTROL", "ANTIAIRCRAFT RESULTS",
                   "NIGHT DETECTION AND RADAR", "VISIBILITY AND SEAS", "TURNING",
                   "AIRCRAFT", "SUBMARINES"):
        assert needed in titles
