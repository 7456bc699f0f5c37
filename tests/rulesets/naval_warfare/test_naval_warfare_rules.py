"""Naval Warfare 1942-45 rules: the tables as the text gives them, exact odds, the merchant
command and its three worked examples, the reference card and the resolution tables.

Every probability is checked against a brute-force count over the dice
(``itertools.product``) in exact fractions; the printed tables are read back from the PDF.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from generator.pages.component import Component
from generator.rulesets.naval_warfare import combat, merchant, merchanttables, ruletables
from generator.rulesets.naval_warfare.commands import commands
from generator.rulesets.naval_warfare.units import load_units
from tests.paths import ROOT

# The damage table as the text prints it: CV, then steps for rolls -2 or less .. 12 +.
DAMAGE_TEXT = """\
1 0 0 0 0 0 0 0 0 0 0 1 1 1 1 1
2 0 0 0 0 0 0 0 0 1 1 1 1 1 1 1
3 0 0 0 0 0 0 0 1 1 1 1 1 1 1 1
4 0 0 0 0 0 0 1 1 1 1 1 1 2 2 2
5 0 0 0 0 0 1 1 1 1 1 2 2 2 2 2
6 0 0 0 0 1 1 1 1 1 2 2 2 2 2 2
7 0 0 0 0 1 1 1 1 2 2 2 2 2 2 2
8 0 0 0 1 1 1 1 2 2 2 2 2 2 3 3
9 0 0 0 1 1 1 2 2 2 2 2 3 3 3 3
10 0 0 1 1 1 2 2 2 2 2 3 3 3 3 3
11 0 0 1 1 1 2 2 2 2 3 3 3 3 3 3
12 0 1 1 1 2 2 2 2 3 3 3 3 3 3 3
13 0 1 1 1 2 2 2 3 3 3 3 3 3 4 4
14 0 1 1 2 2 2 2 3 3 3 3 4 4 4 4
15 0 1 1 2 2 2 3 3 3 3 3 4 4 4 4
16 1 1 2 2 2 3 3 3 3 3 4 4 4 4 4
17 1 1 2 2 2 3 3 3 3 4 4 4 4 4 5
18 1 2 2 2 3 3 3 3 4 4 4 4 4 5 5
19 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5
20 2 2 2 3 3 3 3 4 4 4 4 4 5 5 5
"""
DAMAGE = {int(line.split()[0]): [int(c) for c in line.split()[1:]]
          for line in DAMAGE_TEXT.splitlines()}

# The colour table as the text prints it, a row's cells by initial ("_" is the blank cell),
# rows -6 or less .. +6 or more.
COLOUR_TEXT = """\
-6 RRRROOOYY
-5/-4 RRROOOYYB
-3/-2 RROO_YYBB
-1 ROOYYYBBG
0 OOYYYBBGG
+1 OYYYBBGGG
+2/+3 YYBBBGGGG
+4/+5 YBBBGGGGG
+6 BBBGGGGGG
"""
COLOUR_ROWS = [list(line.split()[1]) for line in COLOUR_TEXT.splitlines()]
NAMES = {"R": "Red", "O": "Orange", "Y": "Yellow", "B": "Blue", "G": "Green"}
ODDS = ["1:3", "1:2", "2:3", "1:1", "3:2", "2:1", "5:2", "3:1", "4:1"]
# The loss table: raider surface %, raider subs %, escort %, tonnage per unit from German
# subs and from all other attackers ("1 per 2 units, round down" is 1/2).
LOSSES = {
    "Red": (40, 20, 10, Fraction(0), Fraction(0)),
    "Orange": (30, 10, 20, Fraction(1, 2), Fraction(0)),
    "Yellow": (20, 10, 20, Fraction(1), Fraction(1, 2)),
    "Blue": (10, 10, 20, Fraction(2), Fraction(1)),
    "Green": (10, 0, 30, Fraction(3), Fraction(2)),
}


@pytest.fixture(scope="module")
def rules() -> ruletables.RuleTables:
    return ruletables.bundled()


@pytest.fixture(scope="module")
def calc(rules: ruletables.RuleTables) -> merchant.Calculator:
    return merchant.Calculator(rules.merchant, load_units())


@pytest.fixture(scope="module")
def cli() -> click.Group:
    return click.Group(commands={c.name: c for c in commands() if c.name})


def run(cli: click.Group, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.stdout, result.stderr


# -- the tables are the text's ---------------------------------------------------------


def test_damage_table_is_the_texts(rules: ruletables.RuleTables) -> None:
    table = rules.combat.damage_table
    assert table.rows == DAMAGE
    assert table.headings[0] == "-2 or less" and table.headings[-1] == "12 +"
    assert table.cv_per_die == 20


def test_colour_table_is_the_texts_with_the_blank_read_as_yellow(
        rules: ruletables.RuleTables) -> None:
    colours = rules.merchant.colour_table
    assert colours.table.headings == ODDS
    rows = [list(map(str, r)) for r in colours.table.rows.values()]
    for got, text in zip(rows, COLOUR_ROWS, strict=True):
        assert [g if t != "_" else "_" for g, t in zip(got, text, strict=True)] == [
            NAMES.get(t, t) for t in text]
    blank = [(r, c) for r, row in enumerate(COLOUR_ROWS) for c, cell in enumerate(row)
             if cell == "_"]
    assert blank == [(2, 4)]
    assert rows[2][4] == "Yellow"
    assert colours.table.defaults == ["-3--2 @ 3:2"]  # the shared die-table mark
    assert [(k, h) for k in map(str, colours.table.rows) for h in ODDS
            if colours.is_default(k, h)] == [("-3--2", "3:2")]
    # The reading: column 3:2 is column 1:1 one row lower, in every row the text gives.
    for r in range(len(rows) - 1):
        assert rows[r][4] == rows[r + 1][3]


def test_loss_table_is_the_texts(rules: ruletables.RuleTables) -> None:
    got = {c: (x.raider_surface, x.raider_subs, x.escort,
               merchanttables.rate(x.tonnage_german_subs), merchanttables.rate(x.tonnage_other))
           for c, x in rules.merchant.losses.items()}
    assert got == LOSSES


def test_modifiers_with_lost_signs_are_penalties_marked_default(
        rules: ruletables.RuleTables) -> None:
    mods = rules.combat.combat_modifiers
    assert {k: m.value for k, m in mods.items()} == {
        "outnumbered-2": -1, "outnumbered-3": -2, "air-supremacy": 2, "air-inferiority": -2,
        "fleet-base": 1, "no-lsp": -3, "no-landing-craft": -2, "outnumbering-2": 1,
        "outnumbering-3": 2, "lsp-per-unit": 2}
    assert {k for k, m in mods.items() if m.default} == {
        "outnumbered-2", "outnumbered-3", "air-inferiority", "no-lsp", "no-landing-craft"}
    assert rules.combat.land_troops.manpower == 8 and rules.combat.land_troops.tank == 6


# -- naval combat: exact odds against brute force ---------------------------------------


def brute_steps(cv: int, modifier: int) -> dict[int, Fraction]:
    rows = [20] * (cv // 20) + ([cv % 20] if cv % 20 else [])
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=len(rows)):
        total = sum(DAMAGE[row][min(max(face + modifier, -2), 12) + 2]
                    for row, face in zip(rows, faces, strict=True))
        counts[total] = counts.get(total, 0) + 1
    whole = 6 ** len(rows)
    return {n: Fraction(c, whole) for n, c in counts.items()}


def test_every_cv_row_and_modifier_matches_brute_force(rules: ruletables.RuleTables) -> None:
    table = rules.combat.damage_table
    span = combat.modifier_span(table)
    assert (span.start, span.stop) == (-8, 12)
    for cv in range(1, 21):
        for modifier in range(span.start - 2, span.stop + 2):
            got = {n: p for n, p in combat.steps_distribution(table, cv, modifier).items() if p}
            assert got == brute_steps(cv, modifier), (cv, modifier)


@pytest.mark.parametrize("cv", [21, 39, 40, 45, 60])
def test_cv_above_20_rolls_one_die_per_20_or_part(rules: ruletables.RuleTables,
                                                  cv: int) -> None:
    table = rules.combat.damage_table
    assert combat.dice_rows(cv) == [20] * (cv // 20) + ([cv % 20] if cv % 20 else [])
    for modifier in (-3, 0, 2):
        got = {n: p for n, p in combat.steps_distribution(table, cv, modifier).items() if p}
        assert got == brute_steps(cv, modifier)


def test_no_cv_inflicts_nothing(rules: ruletables.RuleTables) -> None:
    assert combat.steps_distribution(rules.combat.damage_table, 0, 3) == {0: Fraction(1)}


@pytest.mark.parametrize(("a", "ma", "b", "mb"), [(25, 1, 12, -1), (8, 0, 8, 0), (3, 2, 17, -2),
                                                  (41, 0, 20, 0)])
def test_battle_odds_match_brute_force(rules: ruletables.RuleTables, a: int, ma: int, b: int,
                                       mb: int) -> None:
    first, second = brute_steps(a, ma), brute_steps(b, mb)
    more = less = tie = Fraction(0)
    for (x, p), (y, q) in itertools.product(first.items(), second.items()):
        if x > y:
            more += p * q
        elif x < y:
            less += p * q
        else:
            tie += p * q
    got = combat.battle(rules.combat.damage_table, a, ma, b, mb)
    assert (got.first_more, got.second_more, got.equal) == (more, less, tie)
    assert more + less + tie == 1


def test_strength_ratios_set_their_modifiers(rules: ruletables.RuleTables) -> None:
    c = rules.combat
    big, small = combat.Side(cv=30, air=3), combat.Side(cv=10, air=1)
    assert combat.side_modifiers(c, big, small) == [("outnumbering-3", 2), ("air-supremacy", 2)]
    assert combat.side_modifiers(c, small, big) == [("outnumbered-3", -2),
                                                    ("air-inferiority", -2)]
    assert combat.side_modifiers(c, combat.Side(cv=20), combat.Side(cv=10)) == [
        ("outnumbering-2", 1)]
    assert combat.side_modifiers(c, combat.Side(cv=19), combat.Side(cv=10)) == []
    assert combat.side_modifiers(c, combat.Side(cv=5, situational=("no-lsp",), bonus=2),
                                 combat.Side(cv=5)) == [("no-lsp", -3), ("advantage", 2)]
    odds = combat.battle_between(c, big, small)
    assert odds == combat.battle(c.damage_table, 30, 4, 10, -4)


# -- merchant warfare: exact odds against brute force -----------------------------------


def brute_colours(column: int, modifier: int) -> dict[str, Fraction]:
    bands = [(-99, -6), (-5, -4), (-3, -2), (-1, -1), (0, 0), (1, 1), (2, 3), (4, 5), (6, 99)]
    rows = [list(r) for r in COLOUR_ROWS]
    rows[2][4] = "Y"  # the DEFAULT reading of the blank
    counts: dict[str, int] = {}
    for raider, escort in itertools.product(range(1, 7), repeat=2):
        diff = raider - escort + modifier
        row = next(i for i, (lo, hi) in enumerate(bands) if lo <= diff <= hi)
        colour = NAMES[rows[row][column]]
        counts[colour] = counts.get(colour, 0) + 1
    return {c: Fraction(n, 36) for c, n in counts.items()}


def test_every_odds_column_and_modifier_matches_brute_force(
        calc: merchant.Calculator) -> None:
    for column in range(len(ODDS)):
        for modifier in range(-12, 13):
            got = {c: p for c, p in calc.colour_odds(column, modifier).items() if p}
            assert got == brute_colours(column, modifier), (column, modifier)


def brute_engagement(raider_cv: int, escort_cv: int, column: int, german: int, other: int,
                     subs_only: bool, escort_room: int, raider_room: int, modifier: int = 0,
                     ) -> dict[tuple[int, int, int], Fraction]:
    out: dict[tuple[int, int, int], Fraction] = {}
    for colour, p in brute_colours(column, modifier).items():
        surface, subs, escort, g_rate, o_rate = LOSSES[colour]
        tonnage = math.floor(german * g_rate) + math.floor(other * o_rate)
        escort_steps = min(escort * raider_cv // 100, escort_room)
        raider_steps = min((subs if subs_only else surface) * escort_cv // 100, raider_room)
        key = (tonnage, escort_steps, raider_steps)
        out[key] = out.get(key, Fraction(0)) + p
    return out


@pytest.mark.parametrize(("raiders", "nation", "escorts", "column", "german", "other", "subs"), [
    ("4 submarine", "DE", "2 escort", 7, 4, 0, True),
    ("3 submarine", "US", "1 escort", 8, 0, 3, True),
    ("1 heavy-ship, 2 submarine", "DE", "3 escort", 6, 2, 1, False),  # 3:2, outclassed
    ("1 air, 1 fleet-carrier", "UK", "1 light-cruiser, 1 escort", 2, 0, 1, False),
])
def test_engagement_distribution_matches_brute_force(calc: merchant.Calculator, raiders: str,
                                                     nation: str, escorts: str, column: int,
                                                     german: int, other: int,
                                                     subs: bool) -> None:
    r, problems = calc.force(raiders, nation, "--raiders")
    e, more = calc.force(escorts, "UK", "--escorts")
    assert problems == more == []
    engagement = merchant.Engagement(r, e)
    setup, chances, outcomes = calc.distribution(engagement)
    assert (setup.column, setup.german, setup.other, setup.subs_only) == (column, german,
                                                                          other, subs)
    got: dict[tuple[int, int, int], Fraction] = {}
    for colour, p in chances.items():
        o = outcomes[colour]
        key = (o.tonnage, o.escort_steps, o.raider_steps)
        got[key] = got.get(key, Fraction(0)) + p
    air = calc.tables.air_points
    assert got == brute_engagement(setup.raider_cv, setup.escort_cv, column, german, other,
                                   subs, e.steps(air), r.steps(air))


def test_odds_columns_round_for_the_escorts_and_shift(calc: merchant.Calculator) -> None:
    def column(raiders: str, escorts: str, **kw: object) -> str | None:
        r, _ = calc.force(raiders, "UK", "r")
        e, _ = calc.force(escorts, "UK", "e")
        setup = calc.setup(merchant.Engagement(r, e, **kw))  # type: ignore[arg-type]
        return None if setup.column is None else ODDS[setup.column]

    assert column("1 escort", "1 light-cruiser") is None           # 1:4, under 1:3: no combat
    assert column("1 escort", "3 escort") is None                   # 1:6
    assert column("2 escort", "3 escort") == "1:3"
    assert column("8 submarine", "1 escort-carrier-air, 1 light-cruiser, 4 escort") == "1:1"
    assert column("4 submarine", "") == "4:1"                      # unescorted: the top
    assert column("4 submarine", "2 escort", air_supremacy="escorts") == "2:1"
    assert column("4 submarine", "2 escort", shift=5) == "4:1"      # held at the edge
    assert column("1 heavy-ship", "1 light-cruiser") == "2:1"       # 4:4 then outclassed +2
    assert column("1 light-cruiser", "1 heavy-ship, 1 escort") == "1:1"  # 4:4, not outclassed


def test_a_damaged_unit_counts_half_and_one_step(calc: merchant.Calculator) -> None:
    force, problems = calc.force("2 damaged light-cruiser, 1 escort", "UK", "--escorts")
    assert problems == []
    assert force.cv("defence") == 2 * 2 + 2
    assert force.steps(calc.tables.air_points) == 2 + 2


def test_japanese_submarines_by_nation(calc: merchant.Calculator) -> None:
    force, _ = calc.force("4 submarine", "JP", "--raiders")
    assert [g.unit.id for g in force.groups] == ["japanese-submarine"]
    assert force.cv("attack") == 0
    setup = calc.setup(merchant.Engagement(force, merchant.Force()))
    assert not setup.combat


# -- the three worked examples ----------------------------------------------------------

EXAMPLES = {
    1: {"raider CV": "12", "escort CV": "4", "odds": "3:1", "difference": "-1", "colour": "Blue",
        "tonnage lost": "8", "escort loss before rounding": "2.4", "escort steps lost": "2",
        "raider loss before rounding": "0.4", "raider steps lost": "0"},
    2: {"raider CV": "24", "escort CV": "18", "odds": "1:1", "difference": "+2",
        "colour": "Blue", "tonnage lost": "16", "escort loss before rounding": "4.8",
        "escort steps lost": "4", "raider loss before rounding": "1.8",
        "raider steps lost": "1"},
    3: {"raider CV": "12", "escort CV": "0", "odds": "4:1", "difference": "+3", "colour": "Green",
        "tonnage lost": "8", "escort steps lost": "0", "raider steps lost": "0"},
}
# Where the text's arithmetic is not the unit table's: its escort carriers count 6, where
# an Escort Carrier Group (0) and its escort-carrier Air Point (5) make 5.
DIFFERS = {2: {"escort CV": "17", "raider loss before rounding": "1.7"}}


@pytest.mark.parametrize("number", [1, 2, 3])
def test_worked_examples_figure_for_figure(calc: merchant.Calculator, number: int) -> None:
    example = next(e for e in calc.tables.examples if e.number == number)
    worked = merchant.work_example(calc, example)
    assert {f.name: f.text for f in worked.figures} == EXAMPLES[number]
    ours = {**EXAMPLES[number], **DIFFERS.get(number, {})}
    assert {f.name: f.ours for f in worked.figures} == ours
    assert {f.name for f in worked.disagreements} == set(DIFFERS.get(number, {}))


def test_example_command_says_where_the_text_differs(cli: click.Group) -> None:
    code, out, _ = run(cli, "merchant", "--example", "2")
    assert code == 0
    assert "Odds column: 1:1 (24:17, rounded in the escorts' favour)" in out
    assert "Dice: raiders 3 - escorts 1 = +2, row +2 / +3" in out
    assert "Tonnage lost: 16 Tonnage Points (8 German submarine flotillas × 2 = 16)" in out
    assert "Escort step losses: 4 (20% × raider CV 24 = 4.8, rounded down to 4)" in out
    assert ("Raider step losses: 1 (10% (submarine rate) × escort CV 17 = 1.7, rounded down "
            "to 1)") in out
    assert ("The text's escort CV (18) disagrees with the unit table (17); the text counts 1 "
            "escort-carrier, 1 escort-carrier-air as 6; the unit table gives 1 escort-carrier "
            "0 + 1 escort-carrier-air 5 = 5") in out
    for number in (1, 3):
        code, out, _ = run(cli, "merchant", "--example", str(number))
        assert code == 0 and "Every figure agrees with the unit table." in out


def test_example_one_by_the_command(cli: click.Group) -> None:
    code, out, _ = run(cli, "merchant", "--raiders", "4 submarine", "--raider-nation", "DE",
                       "--escorts", "2 escort", "--raider-roll", "1", "--escort-roll", "2")
    assert code == 0
    assert out.splitlines()[2:] == [
        "Odds column: 3:1 (12:4, rounded in the escorts' favour)",
        "Dice: raiders 1 - escorts 2 = -1, row -1",
        "Colour: Blue",
        "Tonnage lost: 8 Tonnage Points (4 German submarine flotillas × 2 = 8)",
        "Escort step losses: 2 (20% × raider CV 12 = 2.4, rounded down to 2)",
        "Raider step losses: 0 (10% (submarine rate) × escort CV 4 = 0.4, rounded down to 0)",
    ]


def test_example_three_by_the_command(cli: click.Group) -> None:
    code, out, _ = run(cli, "merchant", "--raiders", "4 submarines", "--raider-nation", "USA",
                       "--escort-nation", "JP", "--raider-roll", "5", "--escort-roll", "2")
    assert code == 0
    assert "Colour: Green (good)" in out
    assert "Tonnage lost: 8 Tonnage Points (4 other interdicting units × 2 = 8)" in out
    assert "Raider step losses: 0" in out and "Escort step losses: 0" in out


def test_distribution_command(cli: click.Group, calc: merchant.Calculator) -> None:
    code, out, _ = run(cli, "merchant", "--raiders", "4 submarine", "--raider-nation", "DE",
                       "--escorts", "2 escort")
    assert code == 0
    chances = brute_colours(ODDS.index("3:1"), 0)
    assert chances == {"Yellow": Fraction(3, 36), "Blue": Fraction(12, 36),
                       "Green": Fraction(21, 36)}
    lines = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
             for line in out.splitlines() if line.startswith("│")}
    assert lines["Yellow"] == ["8.3%", "4", "2", "0"]
    assert lines["Blue"] == ["33.3%", "8", "2", "0"]
    assert lines["Green (good)"] == ["58.3%", "12", "3", "0"]
    mean = Fraction(3, 36) * 4 + Fraction(12, 36) * 8 + Fraction(21, 36) * 12
    assert lines["Expected"][1] == f"{float(mean):.2f}"


def test_blank_cell_reading_is_said(cli: click.Group) -> None:
    # 6 against 4 is 3:2; raiders 1, escorts 4: -3, the blank cell.
    code, out, _ = run(cli, "merchant", "--raiders", "2 submarine", "--raider-nation", "UK",
                       "--escorts", "2 escort", "--raider-roll", "1", "--escort-roll", "4")
    assert code == 0
    assert "Colour: Yellow (DEFAULT: the text leaves this cell blank" in out


# -- bad input ------------------------------------------------------------------------


def test_bad_input_is_explained_all_at_once(cli: click.Group) -> None:
    code, out, err = run(cli, "merchant", "--raiders", "4 submarin, 0 escort",
                         "--raider-nation", "GE", "--escorts", "2 escrot", "--raider-roll",
                         "3")
    assert code == 2 and out == ""
    assert "Traceback" not in err
    assert err.splitlines() == [
        "error: --raider-nation: found 'GE', expected a nation code: US, UK, AU, CA, NZ, IN, "
        "JP, DE, IT, FR, FF, VF, NL, SU, PL, GR, NO",
        "--raiders: found unit 'submarin' in '4 submarin', expected a unit type: "
        "fleet-carrier, escort-carrier, heavy-ship, light-cruiser, escort, submarine, "
        "japanese-submarine, landing-craft, air, escort-carrier-air, strategic-bomber; did "
        "you mean 'submarine'?",
        "--raiders: found a count of 0 in '0 escort', expected 1 or more",
        "--escorts: found unit 'escrot' in '2 escrot', expected a unit type: fleet-carrier, "
        "escort-carrier, heavy-ship, light-cruiser, escort, submarine, japanese-submarine, "
        "landing-craft, air, escort-carrier-air, strategic-bomber; did you mean 'escort'?",
        "--escort-roll: found nothing, expected a d6 roll from 1 to 6 with --raider-roll",
    ]


def test_user_text_cannot_break_a_line_or_the_markup(cli: click.Group) -> None:
    code, out, err = run(cli, "merchant", "--raiders", "1 [bold]x\x1b[31m\nboom")
    assert code == 2
    assert "\x1b" not in err and len(err.splitlines()) == 1
    assert "'[bold]x\\x1b[31m\\nboom'" in err


def test_out_of_range_rolls_and_missing_raiders(cli: click.Group) -> None:
    code, _, err = run(cli, "merchant", "--raiders", "1 escort", "--raider-roll", "7",
                       "--escort-roll", "1")
    assert code == 2 and "Traceback" not in err and "--raider-roll" in err
    code, _, err = run(cli, "merchant", "--escorts", "1 escort")
    assert code == 2
    assert err.strip() == ('error: --raiders: found nothing, expected the interdicting force, '
                           'e.g. "4 submarine"')
    code, _, err = run(cli, "merchant", "--example", "4")
    assert (code, err.strip()) == (2, "error: --example: found 4, expected one of 1, 2, 3")


def test_tables_file_replaces_the_default_cell(cli: click.Group, tmp_path: Path,
                                               rules: ruletables.RuleTables) -> None:
    import yaml

    table = rules.merchant.colour_table.model_dump(mode="json")
    table["table"]["rows"]["-3--2"][4] = "Orange"
    table["table"]["defaults"] = []
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump({"colour_table": table}), encoding="utf-8")
    code, out, _ = run(cli, "merchant", "--raiders", "2 submarine", "--raider-nation", "US",
                       "--escorts", "2 escort", "--raider-roll", "1", "--escort-roll", "4",
                       "--tables", str(path))
    assert code == 0 and "Colour: Orange\n" in out
    loaded = ruletables.load(path)
    assert loaded.combat == rules.combat and loaded.replaced


def test_a_bad_tables_file_is_located(cli: click.Group, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("losses:\n  R: {name: Red, raider_surface: 140, raider_subs: 20, escort: 10,"
                    " tonnage_german_subs: '0', tonnage_other: '0'}\ncolour_tabel: {}\n",
                    encoding="utf-8")
    code, out, err = run(cli, "merchant", "--raiders", "1 escort", "--tables", str(path))
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert any(line.startswith(f"{path}:2:") and "losses.R.raider_surface: found 140" in line
               for line in lines), err
    assert any(f"{path}:3:1: colour_tabel:" in line and "did you mean 'colour_table'" in line
               for line in lines), err


# -- own words ------------------------------------------------------------------------

HOOK = Path("/work/shared/hooks/own_words.py")


@pytest.mark.skipif(not HOOK.exists(), reason="the own-words hook is not on this machine")
def test_own_words_hook_is_clean_for_these_files() -> None:
    found = subprocess.run([sys.executable, str(HOOK), str(ROOT)], capture_output=True,
                           text=True, check=False).stdout
    mine = [line for line in found.splitlines() if "naval_warfare" in line
            or "naval-warfare" in line]
    assert mine == []


# -- the printed reference card and resolution tables, read back -----------------------


def _context(tables: Path | None = None) -> object:
    from generator.kit.seam import Context, KitOptions, Request
    from generator.rulesets.naval_warfare.ruleset import Derived
    from generator.rulesets.naval_warfare.ruletables import tables_in_force
    from generator.rulesets.naval_warfare.units import load_units

    # No campaign: the footer is blank, as on a card printed from the rules alone.
    derived = Derived(load_units(), *tables_in_force(tables), foot="")
    return Context(Request("kit"), "a4", KitOptions(tables=tables), data=derived)


def _text(pdf: bytes) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    return [doc[i].get_textpage().get_text_range().replace("\r\n", "\n")
            for i in range(len(doc))]


@pytest.fixture(scope="module")
def card() -> list[str]:
    import generator.rulesets.naval_warfare.reference  # noqa: F401  (registers it)
    from generator.rulesets.naval_warfare.registry import COMPONENTS

    component = COMPONENTS.get("reference-card")(_context(), None)  # type: ignore[arg-type]
    assert isinstance(component, Component)
    return _text(component.pdf)


@pytest.fixture(scope="module")
def odds_pages() -> list[str]:
    import generator.rulesets.naval_warfare.resolution  # noqa: F401  (registers it)
    from generator.rulesets.naval_warfare.registry import COMPONENTS

    component = COMPONENTS.get("resolution-tables")(_context(), None)  # type: ignore[arg-type]
    assert isinstance(component, Component)
    return _text(component.pdf)


def test_card_damage_table_reads_back_as_the_text(card: list[str]) -> None:
    lines = "\n".join(card).splitlines()
    assert "-2 or less -1 0 1 2 3 4 5 6 7 8 9 10 11 12 +" in lines
    start = lines.index("-2 or less -1 0 1 2 3 4 5 6 7 8 9 10 11 12 +") + 1
    assert lines[start:start + 20] == DAMAGE_TEXT.splitlines()


def test_card_colour_table_reads_back_as_the_text(card: list[str]) -> None:
    lines = "\n".join(card).splitlines()
    labels = ["-6 or less", "-5 / -4", "-3 / -2", "-1", "0", "+1", "+2 / +3", "+4 / +5",
              "+6 or more"]
    start = lines.index("difference 1:3 or less 1:2 2:3 1:1 3:2 2:1 5:2 3:1 4:1 or more") + 1
    expected = [" ".join([label, *["Yellow *" if c == "_" else NAMES[c] for c in row]])
                for label, row in zip(labels, COLOUR_ROWS, strict=True)]
    assert lines[start:start + 9] == expected
    assert lines[start + 9].startswith("* DEFAULT: this cell is blank in the text")


def test_card_loss_table_reads_back_as_the_text(card: list[str]) -> None:
    lines = "\n".join(card).splitlines()
    start = lines.index("Surface Submarines % of raider CV German submarines All other raiders")
    assert lines[start + 1:start + 6] == [
        "Red (bad) 40% 20% 10% Nil Nil",
        "Orange 30% 10% 20% 1 per 2 units (round down) Nil",
        "Yellow 20% 10% 20% 1 per unit 1 per 2 units (round down)",
        "Blue 10% 10% 20% 2 per unit 1 per unit",
        "Green (good) 10% Nil 30% 3 per unit 2 per unit",
    ]


def test_card_units_modifiers_and_prose_come_from_the_data(card: list[str]) -> None:
    text = "\n".join(card)
    for unit in load_units().values():
        # Air Points have no damaged side ("removed at the first step").
        damaged = (f"{unit.fleet // 2}-{unit.attack // 2}-{unit.defence // 2}"
                   if unit.kind == "ship" else "—")
        assert (f"{unit.name} {unit.fleet} {unit.attack} {unit.defence} {damaged} "
                f"{unit.range}") in text
    assert "Outnumbered 2:1 (CV) -1 DEFAULT *" in text
    assert "No LSP allocated to the Task Force -3 DEFAULT *" in text
    assert "Air supremacy (3:1 or more in Air Points) +2\n" in text
    assert "landing troops add 8 CV per manpower point and 6 per tank point" in text
    assert "Ships operate up to 4 sea areas" in text
    for step in range(1, 11):
        assert f"• {step}. " in text
    assert "Logistic Support Point 1/2 (2 Tonnage Points per LSP)" in text


def test_card_follows_a_tables_file(tmp_path: Path, rules: ruletables.RuleTables) -> None:
    import yaml

    import generator.rulesets.naval_warfare.reference  # noqa: F401
    from generator.rulesets.naval_warfare.registry import COMPONENTS

    mods = {k: m.model_dump(mode="json", exclude_none=True)
            for k, m in rules.combat.combat_modifiers.items()}
    for m in mods.values():
        m["default"] = False
    mods["no-lsp"]["value"] = -4
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump({"combat_modifiers": mods,
                                    "land_troops": {"manpower": 7, "tank": 5}}),
                    encoding="utf-8")
    component = COMPONENTS.get("reference-card")(_context(path), None)  # type: ignore[arg-type]
    assert isinstance(component, Component)
    text = "\n".join(_text(component.pdf))
    assert "No LSP allocated to the Task Force -4\n" in text
    assert "the text lost the sign" not in text
    assert "landing troops add 7 CV per manpower point and 5 per tank point" in text


def test_resolution_steps_grids_read_back_exactly(odds_pages: list[str]) -> None:
    from generator.rules.dice import percent

    text = "\n".join(odds_pages)
    for modifier, label in ((-3, "-3"), (0, "0"), (4, "+4")):
        block = text.split(f"Net modifier {label}\n", 1)[1].splitlines()
        assert block[0] == "CV 0 1 2 3 4 5 Mean"
        for cv in (1, 9, 14, 20):
            dist = brute_steps(cv, modifier)
            cells = [percent(dist[n], 1).rstrip("%") if dist.get(n) else "–" for n in range(6)]
            mean = sum((n * p for n, p in dist.items()), Fraction(0))
            assert block[cv] == " ".join([str(cv), *cells, f"{float(mean):.2f}"])


def test_resolution_merchant_grids_read_back_exactly(odds_pages: list[str]) -> None:
    from generator.rules.dice import percent

    text = "\n".join(odds_pages)
    for column, label in ((7, "3:1"), (3, "1:1"), (0, "1:3 or less")):
        block = text.split(f"Odds {label}\n", 1)[1].splitlines()
        rows = {line.split(" ")[0]: line for line in block[2:25]}
        for modifier in (-2, 0, 3):
            chances = brute_colours(column, modifier)
            cells = [percent(chances[c], 1).rstrip("%") if chances.get(c) else "–"
                     for c in ("Red", "Orange", "Yellow", "Blue", "Green")]
            german = sum((p * LOSSES[c][3] for c, p in chances.items()), Fraction(0))
            key = f"{modifier:+d}" if modifier else "0"
            assert rows[key].startswith(" ".join([key, *cells, f"{float(german):.2f}"]))


def test_resolution_battle_grid_reads_back(odds_pages: list[str],
                                           rules: ruletables.RuleTables) -> None:
    text = "\n".join(odds_pages)
    row = next(line for line in text.splitlines() if line.startswith("12 100/0 100/0 100/0"))
    cells = row.split()[1:]
    # 12 against 12: no outnumbering; brute force over both dice.
    mine = brute_steps(12, 0)
    more = sum((p * q for (x, p), (y, q) in itertools.product(mine.items(), mine.items())
                if x > y), Fraction(0))
    assert cells[5] == f"{round(float(more) * 100)}/{round(float(more) * 100)}"


# -- the naval-combat command ---------------------------------------------------------


def test_naval_combat_command_matches_brute_force(cli: click.Group) -> None:
    code, out, _ = run(cli, "naval-combat", "--force", "2 heavy-ship, 1 fleet-carrier, 1 air",
                       "--enemy", "3 heavy-ship, 1 light-cruiser", "--with", "fleet-base")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == ("You: 2 heavy-ship, 1 fleet-carrier, 1 air; fleet CV 21, 1 Air Point; "
                        "modifiers air-supremacy +2, fleet-base +1; net +3; dice on rows 20+1")
    assert lines[1] == ("Enemy: 3 heavy-ship, 1 light-cruiser; fleet CV 18, 0 Air Points; "
                        "modifiers air-inferiority -2 (DEFAULT); net -2; dice on rows 18")
    mine, theirs = brute_steps(21, 3), brute_steps(18, -2)
    more = sum((p * q for (x, p), (y, q) in itertools.product(mine.items(), theirs.items())
                if x > y), Fraction(0))
    tie = sum((p * q for (x, p), (y, q) in itertools.product(mine.items(), theirs.items())
               if x == y), Fraction(0))
    from generator.rules.dice import percent

    assert lines[-2] == (f"You inflict more: {percent(more, 1)}; the enemy inflicts more: –; "
                         f"equal: {percent(tie, 1)}")


def test_naval_combat_one_result(cli: click.Group) -> None:
    code, out, _ = run(cli, "naval-combat", "--force", "5 heavy-ship, 1 fleet-carrier, 1 air",
                       "--enemy", "12", "--rolls", "4,2", "--enemy-rolls", "3")
    assert code == 0
    assert out.splitlines()[2:] == [
        "You inflict 7 steps (row 20: 4 +4 = 8 -> 4; row 16: 2 +4 = 6 -> 3)",
        "The enemy inflicts 1 step (row 12: 3 -4 = -1 -> 1)",
    ]


def test_naval_combat_bad_input(cli: click.Group) -> None:
    code, out, err = run(cli, "naval-combat", "--force", "2 heavyship", "--enemy", "",
                         "--with", "fleetbase,air-supremacy", "--rolls", "9")
    assert code == 2 and out == ""
    assert err.splitlines()[1:] == [
        "--enemy: found nothing, expected a Task Force such as \"2 heavy-ship, 1 "
        "fleet-carrier, 1 air\" or a CV such as \"25\"",
        "--with: found 'fleetbase', expected one of fleet-base, no-lsp, no-landing-craft, "
        "lsp-per-unit; did you mean 'fleet-base'?",
        "--with: found 'air-supremacy', expected a modifier the forces do not set (it follows "
        "from the CVs or Air Points): fleet-base, no-lsp, no-landing-craft, lsp-per-unit",
        "--rolls: found '9', expected d6 rolls from 1 to 6, separated by commas",
        "--enemy-rolls: found nothing, expected both sides' rolls to resolve one result",
    ]
    assert "did you mean 'heavy-ship'?" in err.splitlines()[0]
    code, _, err = run(cli, "naval-combat", "--force", "45", "--enemy", "3", "--rolls", "1,2",
                       "--enemy-rolls", "1")
    assert (code, err.strip()) == (2, "error: --rolls: found 2 rolls, expected 3 (one die per "
                                      "20 CV or part)")


def test_a_broken_colour_table_is_located(tmp_path: Path, rules: ruletables.RuleTables) -> None:
    import yaml

    from generator.core.errors import DataError

    table = rules.merchant.colour_table.model_dump(mode="json")
    table["table"]["rows"]["0"] = table["table"]["rows"]["0"][:8]
    table["table"]["rows"]["1"][2] = "Purple"
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump({"colour_table": table}, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        ruletables.load(path)
    messages = [f"{p.path}: {p.message}" for p in caught.value.problems]
    assert messages == [
        "colour_table.table.rows.0: found 8 cells, expected 9 (one per column)",
        "colour_table.table.rows.1.2: found result 'Purple', expected one of the legend's keys: "
        "Red, "
        "Orange, Yellow, Blue, Green",
    ]
    assert all(p.file == str(path) and p.line > 0 for p in caught.value.problems)


def test_a_default_cell_must_name_a_cell_of_the_table(tmp_path: Path,
                                                     rules: ruletables.RuleTables) -> None:
    import yaml

    from generator.core.errors import DataError

    table = rules.merchant.colour_table.model_dump(mode="json")
    table["table"]["defaults"] = ["-3--2 @ 3:2", "-3--2 @ 7:2"]
    path = tmp_path / "mismatch.yaml"
    path.write_text(yaml.safe_dump({"colour_table": table}, sort_keys=False), encoding="utf-8")
    line = path.read_text(encoding="utf-8").splitlines().index("    - -3--2 @ 7:2") + 1
    with pytest.raises(DataError) as caught:
        ruletables.load(path)
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:{line}:7: colour_table.table.defaults.1: found '-3--2 @ 7:2', expected a "
        "cell as 'ROW @ COLUMN': a row (-6, -5--4, -3--2, -1, 0, 1, 2-3, 4-5, 6) and a "
        "column (1:3, 1:2, 2:3, 1:1, 3:2, 2:1, 5:2, 3:1, 4:1)"]


def test_odds_headings_from_a_tables_file_are_text(tmp_path: Path,
                                                    rules: ruletables.RuleTables) -> None:
    import yaml

    import generator.rulesets.naval_warfare.resolution  # noqa: F401
    from generator.rulesets.naval_warfare.registry import COMPONENTS

    table = rules.merchant.colour_table.model_dump(mode="json")
    table["column_labels"][0] = "<b>1:3</b> & <img>"
    path = tmp_path / "markup.yaml"
    path.write_text(yaml.safe_dump({"colour_table": table}), encoding="utf-8")
    component = COMPONENTS.get("resolution-tables")(_context(path), None)  # type: ignore[arg-type]
    assert isinstance(component, Component)
    assert "Odds <b>1:3</b> & <img>" in "\n".join(_text(component.pdf))
