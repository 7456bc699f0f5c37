"""The NAVAL ACTION calculator against an independent brute-force enumeration.

The reference below reads the raw ``action-card.yaml`` with ``yaml.safe_load`` (not the
pydantic models) and counts every die combination with ``itertools.product`` and exact
fractions; it never touches icepool or ``generator.rules.dice`` for its own numbers. Every
probability the calculator gives must equal the count exactly.
"""

from __future__ import annotations

import copy
import functools
from collections import defaultdict
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.core.errors import DataError
from generator.rules import dice
from generator.rulesets.naval_action.cardtables import TABLES, load_tables
from generator.rulesets.naval_action.odds import Calculator, Damage, Face

CARD_FILE = TABLES / "action-card.yaml"
RAW: dict[str, Any] = yaml.safe_load(CARD_FILE.read_text(encoding="utf-8"))
BANDS = ("close", "medium", "long")
MODES = ("gun", "torpedo", "bomb")
DUD_SETS = (frozenset({1}), frozenset({1, 2}))
ZERO = Fraction(0)


@pytest.fixture(scope="module")
def calc() -> Calculator:
    return Calculator(load_tables())


# -- the independent reference ---------------------------------------------------------

def d6(k: int) -> product[tuple[int, ...]]:
    """Every roll of ``k`` six-sided dice, each equally likely."""
    return product(range(1, 7), repeat=k)


def white_rolls(accuracy: int, acc: dict[str, Any] = RAW["accuracy"]
                ) -> list[tuple[Fraction, int, bool]]:
    """Every white-die roll for an accuracy: (probability, hits, may switch fire)."""
    out = []
    if accuracy >= 1:
        for (r,) in d6(1):
            hit = r != acc["automatic_miss"] and r <= accuracy
            hits = acc["multi_hits"].get(r, 1) if hit else 0
            out.append((Fraction(1, 6), hits, hit and r in acc["switch_fire_on"]))
    else:
        needs = list(acc["below_one_needs"])
        for roll in d6(len(needs)):
            hit = list(roll) == needs
            out.append((Fraction(1, 6 ** len(needs)), 1 if hit else 0,
                        hit and roll[0] in acc["switch_fire_on"]))
    return out


def ref_hits(accuracy: int) -> dict[int, Fraction]:
    dist: dict[int, Fraction] = defaultdict(Fraction)
    for p, hits, _ in white_rolls(accuracy):
        dist[hits] += p
    return {k: v for k, v in dist.items() if v}


def ref_switch(accuracy: int) -> Fraction:
    return sum((p for p, _, switch in white_rolls(accuracy) if switch), ZERO)


def ref_faces(pen: dict[str, Any], differential: int, mode: str, band: str, old: bool,
              duds: frozenset[int]) -> list[tuple[int, str, int]]:
    """(face, label, steps) for the six coloured faces, read straight off the raw table."""
    columns = pen["columns"]
    col = columns.index(min(max(differential, columns[0]), columns[-1]))
    up = pen["shift_up"]
    shift = 0
    if mode == "gun" and band == "close":
        shift += up["close_range"]
    if mode == "gun" and band == "long" and old:
        shift += up["long_range_vs_old"]
    if mode == "bomb" and old:
        shift += up["bomb_vs_old"]
    bracket_counts = mode in ("torpedo", "bomb") or (mode == "gun" and band == "close")
    top = max(pen["rows"])
    out = []
    for face in range(1, 7):
        if face in duds:
            cell = "-" if mode == "torpedo" else pen["gunfire_dud"][col]
        else:
            cell = pen["rows"][min(face + shift, top)][col]
        if cell == "-" or (cell == "(D)" and not bracket_counts):
            label, steps = "–", 0
        else:
            label, steps = ("D" if cell == "(D)" else cell), pen["steps"][cell]
        if face in duds and steps == 0:
            label = "dud"
        out.append((face, label, steps))
    return out


def ref_cap(pen: dict[str, Any], differential: int) -> int:
    cap = pen["sunk_at"]
    for rule in pen["inferior_limits"]:
        if differential <= rule["max_differential"]:
            cap = min(cap, pen["steps"][rule["worst"]])
    return cap


@functools.cache
def ref_damage(rolls: tuple[tuple[Fraction, int], ...], steps: tuple[int, ...],
               cap: int) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """Enumerate each white roll (probability, hits), then every coloured die per hit."""
    dist: dict[int, Fraction] = defaultdict(Fraction)
    for p, hits in rolls:
        each = p / 6 ** hits
        for colours in d6(hits):
            dist[min(cap, sum(steps[c - 1] for c in colours))] += each
    dist = {k: v for k, v in sorted(dist.items()) if v}
    at_least_one = sum((v for k, v in dist.items() if k >= 1), ZERO)
    expected = sum((k * v for k, v in dist.items()), ZERO)
    return dist, at_least_one, expected


def gun_rolls(accuracy: int) -> tuple[tuple[Fraction, int], ...]:
    return tuple((p, hits) for p, hits, _ in white_rolls(accuracy))


def spread_rolls(torpedoes: int, hits_table: dict[str, Any] = RAW["torpedo_hits"]
                 ) -> tuple[tuple[Fraction, int], ...]:
    width = len(hits_table["columns"])
    return tuple((Fraction(1, 6), hits_table["rows"][face][min(torpedoes, width) - 1])
                 for (face,) in d6(1))


def halved(torpedoes: int) -> int:
    assert RAW["torpedo_hits"]["halve_rounding"] == "up"
    return (torpedoes + 1) // 2


def as_tuples(faces: tuple[Face, ...]) -> list[tuple[int, str, int]]:
    return [(f.face, f.label, f.steps) for f in faces]


def damage_mismatch(got: Damage, want: tuple[dict[int, Fraction], Fraction, Fraction],
                    cap: int) -> str | None:
    dist, at_least_one, expected = want
    got_steps = {k: v for k, v in got.steps.items() if v}
    problems = []
    if got_steps != dist:
        problems.append(f"steps {got_steps} != {dist}")
    if any(got.p(s) != dist.get(s, ZERO) for s in range(0, 5)):
        problems.append("p() disagrees with the distribution")
    if sum(got.steps.values()) != 1 or max(got.steps) > cap:
        problems.append(f"steps do not sum to 1 within cap {cap}: {got.steps}")
    if got.at_least_one != at_least_one:
        problems.append(f"at_least_one {got.at_least_one} != {at_least_one}")
    if got.expected != expected:
        problems.append(f"expected {got.expected} != {expected}")
    return "; ".join(problems) or None


# -- 1. accuracy -----------------------------------------------------------------------

@pytest.mark.parametrize("accuracy", range(-3, 8))
def test_hits_match_brute_force(calc: Calculator, accuracy: int) -> None:
    want = ref_hits(accuracy)
    assert sum(want.values()) == 1
    got = dice.distribution(calc.hits(accuracy))
    assert got == want
    assert dice.mean(calc.hits(accuracy)) == sum((k * v for k, v in want.items()), ZERO)
    assert calc.may_switch(accuracy) == ref_switch(accuracy)


def test_below_one_enumerates_two_dice() -> None:
    # The reference really rolls a second white die below 1, and every value reads alike.
    assert len(white_rolls(0)) == 36
    assert ref_hits(-3) == ref_hits(0) == {0: Fraction(35, 36), 1: Fraction(1, 36)}


# -- 2. penetration faces --------------------------------------------------------------

@pytest.mark.parametrize("duds", DUD_SETS, ids=["dud1", "dud12"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("band", BANDS)
def test_faces_match_raw_table(calc: Calculator, band: str, mode: str,
                               duds: frozenset[int]) -> None:
    wrong = []
    for differential in range(-9, 12):
        for old in (False, True):
            want = ref_faces(RAW["penetration"], differential, mode, band, old, duds)
            got = as_tuples(calc.faces(differential, mode, band, old, duds))  # type: ignore[arg-type]
            if got != want:
                wrong.append(f"diff {differential} old {old}: {got} != {want}")
    assert not wrong, "\n".join(wrong)


def test_faces_spot_checks(calc: Calculator) -> None:
    # Medium-range gunfire at +4: the dud reads "(D)", which does not count at medium.
    faces = calc.faces(4, "gun", "medium", False)
    assert faces[0] == Face(1, "dud", 0)
    # ...but the same dud counts for a bomb, and a torpedo dud never does.
    assert calc.faces(4, "bomb", "medium", False)[0] == Face(1, "D", 1)
    assert calc.faces(7, "torpedo", "close", False)[0] == Face(1, "dud", 0)
    # Close range shifts a 6 onto row 7; medium range leaves "(D)" inert.
    assert calc.faces(-4, "gun", "close", False)[5] == Face(6, "D", 1)
    assert calc.faces(-3, "gun", "medium", False)[5] == Face(6, "–", 0)


# -- 3. gunfire damage -----------------------------------------------------------------

@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("accuracy", [-1, 1, 3, 4, 5, 6])
def test_gunfire_damage_matches_brute_force(calc: Calculator, accuracy: int,
                                            band: str) -> None:
    wrong = []
    for differential in (-5, -3, -2, -1, 0, 2, 5, 7):
        for old in (False, True):
            faces, damage = calc.gunfire(accuracy, differential, band, old)  # type: ignore[arg-type]
            ref = ref_faces(RAW["penetration"], differential, "gun", band, old, frozenset({1}))
            cap = ref_cap(RAW["penetration"], differential)
            want = ref_damage(gun_rolls(accuracy), tuple(s for _, _, s in ref), cap)
            if as_tuples(faces) != ref:
                wrong.append(f"diff {differential} old {old}: faces {as_tuples(faces)}")
            problem = damage_mismatch(damage, want, cap)
            if problem:
                wrong.append(f"diff {differential} old {old}: {problem}")
    assert not wrong, "\n".join(wrong)


def test_inferior_limits_cap_damage(calc: Calculator) -> None:
    # Whatever lands, fire at -1/-2 never passes HD and at -3 or lower never passes D.
    assert max(calc.gunfire(6, -2, "close", True)[1].steps) == 2
    assert max(calc.gunfire(6, -3, "close", True)[1].steps) == 1
    assert max(calc.gunfire(6, 7, "close", True)[1].steps) == 3


# -- 4. torpedoes ----------------------------------------------------------------------

@pytest.mark.parametrize("torpedoes", range(1, 13))
def test_spread_matches_table(calc: Calculator, torpedoes: int) -> None:
    want: dict[int, Fraction] = defaultdict(Fraction)
    for p, hits in spread_rolls(torpedoes):
        want[hits] += p
    assert dice.distribution(calc.spread(torpedoes)) == {k: v for k, v in want.items() if v}


@pytest.mark.parametrize("bow_or_stern", [False, True], ids=["beam", "bow-stern"])
@pytest.mark.parametrize("duds", DUD_SETS, ids=["dud1", "dud12"])
def test_torpedo_damage_matches_brute_force(calc: Calculator, duds: frozenset[int],
                                            bow_or_stern: bool) -> None:
    wrong = []
    for torpedoes in range(1, 11):
        count = halved(torpedoes) if bow_or_stern else torpedoes
        for differential in (-4, -2, 0, 1, 3, 7):
            faces, damage = calc.torpedo(torpedoes, differential, duds, bow_or_stern)
            ref = ref_faces(RAW["penetration"], differential, "torpedo", "close", False, duds)
            cap = ref_cap(RAW["penetration"], differential)
            want = ref_damage(spread_rolls(count), tuple(s for _, _, s in ref), cap)
            if as_tuples(faces) != ref:
                wrong.append(f"n {torpedoes} diff {differential}: faces {as_tuples(faces)}")
            problem = damage_mismatch(damage, want, cap)
            if problem:
                wrong.append(f"n {torpedoes} diff {differential}: {problem}")
    assert not wrong, "\n".join(wrong)


def test_torpedo_halving_and_duds(calc: Calculator) -> None:
    assert [halved(n) for n in (1, 2, 3, 4, 5)] == [1, 1, 2, 2, 3]
    # Bow/stern 5 torpedoes read exactly as a beam spread of 3.
    assert calc.torpedo(5, 3, DUD_SETS[0], True)[1] == calc.torpedo(3, 3, DUD_SETS[0])[1]
    assert calc.torpedo_duds("DE", 1940) == {1, 2}
    assert calc.torpedo_duds("DE", 1941) == {1}
    assert calc.torpedo_duds("US", 1942) == {1, 2}
    assert calc.torpedo_duds("US", 1943) == {1}
    assert calc.torpedo_duds("JP", 1941) == {1}
    assert calc.wild_chance() == Fraction(1, 6)


# -- 5. anti-aircraft and damage control -----------------------------------------------

def groups(cell: str) -> int:
    return {"-": 0, "X": 1, "2X": 2, "3X": 3, "4X": 4}[cell]


@pytest.mark.parametrize("shift", [0, 1, 2])
@pytest.mark.parametrize("column", range(len(RAW["aa_results"]["columns"])))
def test_aa_matches_table(calc: Calculator, column: int, shift: int) -> None:
    table = RAW["aa_results"]
    index = min(column + shift, len(table["columns"]) - 1)
    want: dict[int, Fraction] = defaultdict(Fraction)
    for (face,) in d6(1):
        want[groups(table["rows"][face][index])] += Fraction(1, 6)
    got = dice.distribution(calc.aa(column, shift))
    assert got == {k: v for k, v in want.items() if v}
    assert sum(got.values()) == 1


@pytest.mark.parametrize("quality", ["good", "poor"])
def test_damage_control_matches_brute_force(calc: Calculator, quality: str) -> None:
    table = RAW["damage_control"]
    want = dict.fromkeys("RCOW", ZERO)
    for first, second in d6(2):  # the second die only matters after a re-roll result
        result = table[quality][first]
        reroll = table["rerolls"].get(result)
        if reroll is not None:
            result = reroll["then"] if second in reroll["faces"] else reroll["otherwise"]
        want[result] += Fraction(1, 36)
    got = calc.damage_control(quality)  # type: ignore[arg-type]
    assert got == want
    assert sum(got.values()) == 1


# -- 6. anchors: a silent table change shows up here ----------------------------------

def test_anchor_values(calc: Calculator) -> None:
    assert dice.distribution(calc.hits(0)) == {0: Fraction(35, 36), 1: Fraction(1, 36)}
    assert dice.distribution(calc.hits(-2)) == {0: Fraction(35, 36), 1: Fraction(1, 36)}
    assert dice.mean(calc.hits(6)) == Fraction(3, 2)
    assert dice.mean(calc.hits(7)) == Fraction(3, 2)
    assert dice.distribution(calc.hits(2)) == {0: Fraction(2, 3), 1: Fraction(1, 3)}
    assert calc.may_switch(6) == Fraction(1, 3)
    assert calc.may_switch(4) == Fraction(1, 6)
    assert calc.may_switch(3) == 0
    assert calc.damage_control("good") == {"R": Fraction(5, 18), "C": Fraction(7, 18),
                                           "O": Fraction(2, 9), "W": Fraction(1, 9)}
    assert calc.damage_control("poor") == {"R": Fraction(1, 9), "C": Fraction(2, 9),
                                           "O": Fraction(7, 18), "W": Fraction(5, 18)}
    assert dice.distribution(calc.spread(3)) == {0: Fraction(1, 2), 1: Fraction(1, 3),
                                                 2: Fraction(1, 6)}
    assert dice.distribution(calc.aa(5)) == {0: Fraction(1, 6), 1: Fraction(1, 2),
                                             2: Fraction(1, 6), 3: Fraction(1, 6)}
    # Accuracy 6, even differential, close range: faces dud, D, D, D, D, HD.
    faces, damage = calc.gunfire(6, 0, "close", False)
    assert [f.label for f in faces] == ["dud", "D", "D", "D", "D", "HD"]
    assert damage.at_least_one == Fraction(995, 1296)
    assert sum(damage.steps.values()) == 1


# -- 7. a user's --tables file ---------------------------------------------------------

def _penetration_text() -> str:
    """The bundled ``penetration:`` section, verbatim (comments and flow rows)."""
    text = CARD_FILE.read_text(encoding="utf-8")
    start = text.index("\npenetration:\n") + 1
    return text[start:text.index("\ntorpedo_hits:\n", start) + 1]


BUNDLED_TOP = '    7: ["(D)", "(D)", "D", "D", "HD", "HD", "HD", "S", "S", "S", "S", "S"]\n'


def test_user_tables_change_the_odds(calc: Calculator, tmp_path: Path) -> None:
    section = _penetration_text()
    assert BUNDLED_TOP in section
    user = tmp_path / "house.yaml"
    user.write_text(section.replace(BUNDLED_TOP, "    7: [" + ", ".join(['"S"'] * 12) + "]\n"),
                    encoding="utf-8")
    tables = load_tables(user)
    assert tables.replaced == ("penetration",)
    assert tables.origin == "house.yaml"
    assert tables.card.accuracy == calc.card.accuracy  # untouched tables stay bundled
    house = Calculator(tables)
    pen = copy.deepcopy(RAW["penetration"])
    pen["rows"][7] = ["S"] * 12

    before = calc.gunfire(6, 0, "close", False)
    after = house.gunfire(6, 0, "close", False)
    assert after[0][5] == Face(6, "S", 3) and before[0][5] == Face(6, "HD", 2)
    assert after[1].steps != before[1].steps
    assert after[1].expected > before[1].expected
    for accuracy, differential, band, old in [(6, 0, "close", False), (4, 2, "long", True),
                                              (5, -4, "close", False), (3, 5, "medium", True)]:
        faces, damage = house.gunfire(accuracy, differential, band, old)
        ref = ref_faces(pen, differential, "gun", band, old, frozenset({1}))
        cap = ref_cap(pen, differential)
        assert as_tuples(faces) == ref
        want = ref_damage(gun_rolls(accuracy), tuple(s for _, _, s in ref), cap)
        assert damage_mismatch(damage, want, cap) is None
    # Long-range fire at "O" armour now reaches row 7 too; medium range never does.
    assert house.gunfire(4, 2, "long", True)[1] != calc.gunfire(4, 2, "long", True)[1]
    assert house.gunfire(3, 5, "medium", True)[1] == calc.gunfire(3, 5, "medium", True)[1]
    # The bundled calculator is unaffected by the user's file.
    assert calc.gunfire(6, 0, "close", False)[1].at_least_one == Fraction(995, 1296)
    assert load_tables().card.penetration.rows[7][0] == "(D)"


def _problems(path: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_tables(path)
    return [str(p) for p in caught.value.problems]


def test_user_tables_row_with_eleven_cells(tmp_path: Path) -> None:
    row4 = '    4: ["-", "-", "-", "(D)", "(D)", "D", "D", "HD", "HD", "HD", "S", "S"]\n'
    section = _penetration_text()
    assert row4 in section
    user = tmp_path / "short.yaml"
    text = section.replace(row4, row4.replace(', "S"]', "]"))
    user.write_text(text, encoding="utf-8")
    # The message points at the short row itself: its line, and the column its list opens.
    line = text.splitlines().index(row4.replace(', "S"]', "]").rstrip("\n")) + 1
    assert _problems(user) == [
        f"{user}:{line}:8: penetration.rows.4: found 11 cells, expected 12 (one per column)"]


def test_user_tables_unknown_key(tmp_path: Path) -> None:
    user = tmp_path / "typo.yaml"
    user.write_text("# house rules\npenetraton:\n  default: true\n", encoding="utf-8")
    [problem] = _problems(user)
    # The full list of keys also names every derivation table (which others may extend),
    # so only its start and the hint are pinned.
    assert problem.startswith(f"{user}:2:1: penetraton: found unknown key 'penetraton', "
                              "expected one of accuracy, penetration, torpedo_hits, ")
    assert problem.endswith("; did you mean 'penetration'?")


def test_user_tables_bad_cell(tmp_path: Path) -> None:
    user = tmp_path / "cell.yaml"
    user.write_text(_penetration_text().replace('["(D)", "(D)", "D"', '["(D)", "DD", "D"', 1),
                    encoding="utf-8")
    # Line 11 is the bundled row 7; column 16 is where the bad cell starts.
    assert _problems(user) == [
        f"{user}:11:16: penetration.rows.7.1: found 'DD', expected one of -, (D), D, HD, S; "
        "did you mean 'D'?"]
