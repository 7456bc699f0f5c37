"""The shared die-table model: reading, exact odds against enumeration, errors, printing."""

from __future__ import annotations

import itertools
import textwrap
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pypdfium2
import pytest

from generator.core.errors import DataError, UsageError
from generator.pages.canvasdoc import CanvasDoc
from generator.rules import dice, dietable
from generator.rules.dietable import DieTable, load_die_table
from generator.rulesets.naval_action.cardtables import load_tables
from generator.rulesets.surface_action.charts import bundled_charts

CRT = DieTable(
    title="Combat results", die="d6", axis="ratio", columns=["1:2", "1:1", "2:1", "3:1"],
    rows={1: ["AE", "AR", "DR", "DR"], "2-3": ["AR", "DR", "DR", "DE"],
          "4-5": ["AR", "EX", "DE", "DE"], 6: ["EX", "DE", "DE", "DE"]},
    legend={"AE": "attacker eliminated", "AR": "attacker retreats", "EX": "exchange",
            "DR": "defender retreats", "DE": "defender eliminated"},
    shifts={"river": -1, "surprise": 1})


def enumerate_faces(count: int, sides: int) -> Counter[int]:
    """How many ways each total of ``count`` dice of ``sides`` faces comes up."""
    return Counter(sum(r) for r in itertools.product(range(1, sides + 1), repeat=count))


def brute(rows: dict[int, list[str]], count: int, sides: int, column: int,
          modifier: int = 0) -> dict[str, Fraction]:
    """Every face of every die, the modified roll held to the rows, tallied exactly."""
    low, high = min(rows), max(rows)
    ways = enumerate_faces(count, sides)
    total = sides ** count
    tally: Counter[str] = Counter()
    for face, n in ways.items():
        tally[rows[max(low, min(high, face + modifier))][column]] += n
    return {k: Fraction(n, total) for k, n in tally.items()}


def table_of(die: str, rows: dict[int, list[str]], columns: list[str]) -> DieTable:
    return DieTable(die=die, columns=[*columns], rows={**rows})


# -- reading and exact odds ----------------------------------------------------------------


@pytest.mark.parametrize(("die", "count", "sides"), [("d6", 1, 6), ("d10", 1, 10),
                                                     ("d20", 1, 20), ("2d6", 2, 6)])
@pytest.mark.parametrize("modifier", [-3, 0, 2])
def test_odds_equal_enumeration(die: str, count: int, sides: int, modifier: int) -> None:
    # Results that depend on the face in irregular ways, so a slip in any row shows.
    rows = {face: [f"r{face * 7 % 5}", "hit" if face % 3 == 0 else "miss"]
            for face in range(count, count * sides + 1)}
    table = table_of(die, rows, ["A", "B"])
    for column in (0, 1):
        got = dietable.odds(table, column, modifier=modifier)
        assert got == brute(rows, count, sides, column, modifier)
        assert sum(got.values()) == 1


def test_2d6_ranges_and_the_order_of_results() -> None:
    table = DieTable(die="2d6", columns=["result"],
                     rows={"2-3": ["left"], "4-10": ["straight"], "11-12": ["right"]})
    assert table.span == (2, 12) and table.row_labels() == ["2-3", "4-10", "11-12"]
    assert dietable.odds(table, 0) == {"left": Fraction(3, 36), "straight": Fraction(30, 36),
                                       "right": Fraction(3, 36)}
    assert list(dietable.odds(table, 0)) == ["left", "straight", "right"]  # roll order
    assert table.cell(7, 0) == "straight" and table.cell(12, 0, modifier=5) == "right"
    assert table.cell(2, 0, modifier=-9) == "left"  # held at the lowest row


def test_odds_ratio_rounds_in_the_defenders_favour() -> None:
    assert [CRT.ratio_column(a, d) for a, d in [(3, 6), (6, 6), (5, 2), (11, 4), (12, 4),
                                                (40, 1)]] == [0, 1, 2, 2, 3, 3]
    assert CRT.ratio_column(2, 6) == 0              # under 1:2 holds the first column
    assert CRT.ratio_column(5, 0) == 3              # nothing defends: the best odds
    strict = CRT.model_copy(update={"below_first": "none"})
    assert strict.ratio_column(2, 6) is None


def test_column_shifts_hold_at_the_edges() -> None:
    assert [CRT.shifted(3, s) for s in (-5, -1, 0, 1, 4)] == [0, 2, 3, 3, 3]
    assert CRT.shifted(0, -2) == 0
    # 5:2 reads 2:1; a surprise shift reads 3:1, and a second is held there.
    column = CRT.ratio_column(5, 2)
    assert column is not None
    assert dietable.odds(CRT, column, shift=CRT.shifts["surprise"]) == \
        brute({1: ["DR"], 2: ["DE"], 3: ["DE"], 4: ["DE"], 5: ["DE"], 6: ["DE"]}, 1, 6, 0)
    assert dietable.odds(CRT, column, shift=2) == dietable.odds(CRT, 3)


def test_a_shift_past_a_forbidding_edge_is_refused() -> None:
    strict = DieTable(die="d6", axis="ratio", past_edge="error", columns=["1:1", "2:1"],
                      rows={"1-6": ["NE", "D"]})
    assert strict.shifted(0, 1) == 1
    with pytest.raises(UsageError) as caught:
        dietable.odds(strict, 1, shift=1)
    assert str(caught.value) == ("found a shift of +1 from column '2:1', expected one that "
                                 "stays within '1:1' to '2:1'")


def test_thresholds_read_the_last_heading_reached() -> None:
    diff = DieTable(die="d10", axis="threshold", columns=[-2, 0, 3],
                    rows={"1-5": ["-", "-", "D"], "6-10": ["-", "D", "X"]})
    assert [diff.column_for(v) for v in (-9, -2, -1, 0, 2, 3, 50)] == [0, 0, 0, 1, 1, 2, 2]
    fire = diff.model_copy(update={"below_first": "none"})
    assert fire.column_for(-3) is None and fire.column_for(Fraction(1, 2)) == 1
    assert diff.index("3") == 2 and diff.index(3) == 2
    with pytest.raises(UsageError, match="found column '4', expected one of -2, 0, 3"):
        diff.index(4)
    named = DieTable(die="d6", columns=["CA", "DD"], rows={"1-6": ["P", "M"]})
    with pytest.raises(UsageError, match="expected a heading"):
        named.column_for(2)


def test_rows_beyond_the_die_are_reached_by_modifiers() -> None:
    # A d6 table printed from -1 to 8: natural rolls never read -1, 0, 7 or 8.
    rows = {r: [str(r)] for r in range(-1, 9)}
    table = DieTable(die="d6", rolls="-1-8", columns=["x"], rows={**rows})
    assert table.span == (-1, 8) and list(table.faces()) == [1, 2, 3, 4, 5, 6]
    assert dietable.odds(table, 0, modifier=-4) == {"-1": Fraction(3, 6), "0": Fraction(1, 6),
                                                    "1": Fraction(1, 6), "2": Fraction(1, 6)}
    assert dietable.odds(table, 0, modifier=3) == {"4": Fraction(1, 6), "5": Fraction(1, 6),
                                                   "6": Fraction(1, 6), "7": Fraction(1, 6),
                                                   "8": Fraction(2, 6)}


def test_labels_and_results() -> None:
    assert CRT.results() == ["AE", "AR", "DR", "DE", "EX"]
    assert CRT.label == ""
    assert CRT.model_copy(update={"default": True}).label == "DEFAULT"
    assert CRT.dice == (1, 6) and DieTable(die="3d6", columns=["a"],
                                           rows={"3-18": ["x"]}).dice == (3, 6)


def test_dice_helpers() -> None:
    assert [dice.clamp(v, 1, 6) for v in (-2, 1, 4, 6, 9)] == [1, 1, 4, 6, 6]
    reading = dice.read_table(dice.d(6), {f: "hit" if f >= 5 else "miss" for f in range(1, 7)})
    assert dice.distribution(reading) == {"hit": Fraction(1, 3), "miss": Fraction(2, 3)}


# -- both rulesets read through the model ------------------------------------------------


def test_naval_action_tables_are_die_tables() -> None:
    card = load_tables().card
    pen = card.penetration.table
    assert pen.span == (1, 7) and pen.column_for(-9) == 0 and pen.column_for(99) == 11
    assert pen.column_for(3) == 7  # differential +3: the eighth column, from -4
    assert pen.cell(6, 7, modifier=1) == card.penetration.rows[7][7] == "S"
    assert pen.cell(1, 0) == card.penetration.gunfire_dud[0]
    aa = card.aa_results.table
    assert aa.column_for(2) is None and aa.column_for(20) == 3
    assert dietable.odds(aa, 5, shift=2) == dietable.odds(aa, 5)
    hits = card.torpedo_hits
    assert [hits.hits(1, n) for n in (1, 10, 14)] == [1, 5, 5]


def test_surface_action_charts_are_die_tables() -> None:
    charts = bundled_charts()
    chart = charts.damage_charts["gunfire"]
    table = chart.table()
    assert table.headings == chart.columns and table.cell(3, table.index("CA")) == "M"
    # A lowest roll of 3 merges rows 1-3 into row 3's cells.
    floor = chart.table(3)
    assert floor.row_labels()[0] == "1-3" and floor.cell(1, 0) == chart.rows[2][0]
    movement = charts.random_movement.table
    assert movement.die == "2d6" and movement.cell(7, 0) == charts.random_movement.result(7)


def test_a_ruleset_table_with_a_gap_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match=r"expected a valid die table \(rows: found no row "
                                         r"for roll 5, expected rows covering 2 to 12\)"):
        dietable.build(die="2d6", columns=["x"], rows={"2-4": ["a"], "6-12": ["b"]})


# -- located errors ----------------------------------------------------------------------


GOOD = """\
title: Fire combat
die: d6
axis: ratio
past_edge: error
columns: ["1:2", "1:1", "2:1"]
rows:
  1: [NE, NE, D]
  2-5: [NE, D, D]
  6: [D, X, X]
legend: {NE: no effect, D: disrupted, X: eliminated}
shifts: {surprise: 1}
"""


def load(tmp_path: Path, text: str) -> DieTable:
    path = tmp_path / "crt.yaml"
    path.write_text(text, encoding="utf-8")
    return load_die_table(path, "crt.yaml")


def problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(DataError) as caught:
        load(tmp_path, text)
    return [str(p) for p in caught.value.problems]


def test_a_good_file_loads(tmp_path: Path) -> None:
    table = load(tmp_path, GOOD)
    assert table.title == "Fire combat" and table.row_labels() == ["1", "2-5", "6"]
    assert dietable.odds(table, 1) == {"NE": Fraction(1, 6), "D": Fraction(4, 6),
                                       "X": Fraction(1, 6)}


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("  2-5: [NE, D, D]", "  2-5: [NE, D]",
     ["crt.yaml:8:8: rows.2-5: found 2 cells, expected 3 (one per column)"]),
    ("  6: [D, X, X]", "  7: [D, X, X]",
     ["crt.yaml:9:3: rows.7: found roll 7, expected rolls 1 to 6 (a d6 table)"]),
    ("  2-5: [NE, D, D]", "  1-5: [NE, D, D]",
     ["crt.yaml:8:3: rows.1-5: found roll 1 in rows '1' and '1-5', expected each roll in "
      "one row"]),
    ("  2-5: [NE, D, D]", "  2-4: [NE, D, D]",
     ["crt.yaml:7:3: rows: found no row for roll 5, expected rows covering 1 to 6"]),
    ("shifts: {surprise: 1}", "shifts: {surprise: 3}",
     ["crt.yaml:11:20: shifts.surprise: found a shift of 3 columns, expected at most 2 either "
      "way (the table has 3 columns and allows no shift past its edge)"]),
    ("  6: [D, X, X]", "  6: [D, X, XX]",
     ["crt.yaml:9:13: rows.6.2: found result 'XX', expected one of the legend's keys: NE, D, "
      "X"]),
    ("die: d6", "die: 2d6",
     ["crt.yaml:7:3: rows.1: found roll 1, expected rolls 2 to 12 (a 2d6 table)"]),
    ("die: d6", 'die: d6\nrolls: "one to six"',
     ["crt.yaml:3:8: rolls: found 'one to six', expected a span of rolls like '1-6' or "
      "'-1-8', at most 1000 rolls"]),
    ("die: d6", "die: d7x",
     ["crt.yaml:2:6: die: found 'd7x', expected a die like d6, d10, d20 or 2d6"]),
    ('columns: ["1:2", "1:1", "2:1"]', 'columns: ["1:2", "2:1", "1:1"]',
     ["crt.yaml:5:25: columns.2: found '1:1', expected headings in increasing order"]),
    ("  2-5: [NE, D, D]", "  two: [NE, D, D]",
     ["crt.yaml:8:3: rows.two: found row 'two', expected a roll or a range of rolls like "
      "'3-4'"]),
])
def test_each_bad_table_is_located(tmp_path: Path, old: str, new: str,
                                   expected: list[str]) -> None:
    assert old in GOOD
    assert problems(tmp_path, GOOD.replace(old, new)) == expected


def test_a_table_inside_a_ruleset_file_is_located(tmp_path: Path) -> None:
    from generator.data.yamlsource import load_yaml
    path = tmp_path / "rules.yaml"
    path.write_text("tables:\n  fire:\n" + textwrap.indent(GOOD.replace("2-5: [NE, D, D]",
                                                                        "2-5: [NE]"), "    "),
                    encoding="utf-8")
    doc, _ = load_yaml(path, "rules.yaml")
    assert [str(p) for p in dietable.table_problems(doc, ("tables", "fire"))] == [
        "rules.yaml:10:12: tables.fire.rows.2-5: found 1 cells, expected 3 (one per column)"]


# -- printing ----------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_printed_grid_reads_back(paper: str) -> None:
    grid = dietable.die_grid(CRT, percentages=True)
    assert [row[0] for row in grid.rows] == ["1", "2-3", "4-5", "6", "Chance per roll",
                                             "AE", "AR", "DR", "DE", "EX"]
    doc = CanvasDoc(paper, "Die table", "footer")  # type: ignore[arg-type]
    doc.grid(grid)
    data, pages = doc.finish()
    assert pages == 1
    page = pypdfium2.PdfDocument(data)[0]
    lines = [line.strip() for line in page.get_textpage().get_text_range().splitlines()]
    words = " ".join(lines).split()
    assert words[:5] == ["d6", "1:2", "1:1", "2:1", "3:1"]
    # Row by row as printed, then the exact chances (AR at 1:2 is 4 in 6).
    body = " ".join(words)
    assert "1 AE AR DR DR 2-3 AR DR DR DE 4-5 AR EX DE DE 6 EX DE DE DE" in body
    assert "AR 66.7% 16.7% – –" in body and "DE – 16.7% 50.0% 83.3%" in body
