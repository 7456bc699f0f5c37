"""The shared dice engine against brute-force enumeration (it serves every ruleset)."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from fractions import Fraction

import pytest

from generator.kit.pipeline import owner, prepared, validated_library
from generator.kit.seam import Context, KitOptions, Request, Ruleset
from generator.pages.component import Component
from generator.rules import dice
from tests.pdftext import page_texts


def brute(sides: int, count: int) -> dict[int, Fraction]:
    totals = Counter(sum(r) for r in itertools.product(range(1, sides + 1), repeat=count))
    n = sides ** count
    return {t: Fraction(c, n) for t, c in sorted(totals.items())}


@pytest.mark.parametrize(("count", "sides"), [(1, 6), (2, 6), (3, 6), (1, 10), (2, 10),
                                              (1, 20)])
def test_pool_sums_equal_enumeration(count: int, sides: int) -> None:
    assert dice.distribution(dice.pool_sum(count, sides)) == brute(sides, count)


def test_2d6_anchor_values() -> None:
    two = dice.distribution(dice.pool_sum(2, 6))
    assert two[2] == Fraction(1, 36) and two[7] == Fraction(1, 6)   # a crush roll of 2


def test_read_table_then_and_repeat_sum() -> None:
    table = {1: "R", 2: "R3-6", 3: "C", 4: "C", 5: "O", 6: "W"}
    first = dice.read_table(dice.d(6), table)
    final = dice.then(first, lambda r: dice.d(6).map(lambda x: "R" if x >= 3 else "C")
                      if r == "R3-6" else r)
    assert dice.distribution(final) == {"C": Fraction(1, 3) + Fraction(1, 18),
                                        "O": Fraction(1, 6), "R": Fraction(5, 18),
                                        "W": Fraction(1, 6)}
    # Number of hits 0-2 (d6: 1-2 none, 3-5 one, 6 two), each hit 0 or 1 step (d6 >= 4).
    hits = dice.d(6).map(lambda r: 0 if r <= 2 else (1 if r <= 5 else 2))
    each = dice.d(6).map(lambda r: 1 if r >= 4 else 0)
    expected: Counter[int] = Counter()
    for r, a, b in itertools.product(range(1, 7), repeat=3):
        n = 0 if r <= 2 else (1 if r <= 5 else 2)
        expected[min(sum(1 for x in (a, b)[:n] if x >= 4), 1)] += 1
    got = dice.distribution(dice.repeat_sum(hits, each, cap=1))
    assert got == {k: Fraction(v, 216) for k, v in sorted(expected.items())}
    assert dice.chance(got_die := dice.repeat_sum(hits, each), lambda s: s >= 1) == \
        sum(Fraction(v, 216) for k, v in expected.items() if k >= 1)
    assert dice.mean(got_die) == Fraction(3, 6) * Fraction(1, 2) + Fraction(1, 6) * 1


def test_columns_and_shifts() -> None:
    heads = [3, 7, 12, 18, 27, 42]
    assert dice.column_for(heads, 2) is None
    assert dice.column_for(heads, 3) == 0
    assert dice.column_for(heads, 17.5) == 2
    assert dice.column_for(heads, 100) == 5
    assert dice.shift_column(heads, 4, 2) == 42   # held at the last column
    assert dice.shift_column(heads, 0, -1) == 3


def test_percent_never_rounds_a_possible_event_away() -> None:
    assert dice.percent(Fraction(0)) == "0"
    assert dice.percent(Fraction(1)) == "100%"
    assert dice.percent(Fraction(1, 36), 1) == "2.8%"
    assert dice.percent(Fraction(1, 1000)) == "<1%"
    assert dice.percent(Fraction(999, 1000)) == ">99%"


def test_seeded_pairs_are_stable() -> None:
    first = dice.pairs(1234, 50)
    assert first == dice.pairs(1234, 50)
    assert first != dice.pairs(1235, 50)
    # Pinned: a change in the generator would silently change printed sheets.
    assert first[:4] == [(4, 1), (1, 1), (5, 1), (6, 6)]
    counts = Counter(w for w, _ in dice.pairs(7, 6000))
    assert set(counts) == set(range(1, 7)) and min(counts.values()) > 850


# -- one meaning of --seed: the pipeline sets it, every ruleset records it alike ----------

BUNDLED = {"naval-action": "savo-island", "surface-action": "river-plate",
           "modern-naval": "latakia-1973", "naval-warfare": "balance-1942",
           "rule27": "mediterranean-1940"}
"""One bundled scenario of each ruleset."""

DICE_FACES = {"naval-action": (6, 6), "surface-action": (6, 6), "modern-naval": (10, 20)}
"""The rulesets that print pre-rolled dice, and the dice of their pairs."""


def _prepared(scenario: str, seed: int | None) -> tuple[Context, Ruleset, list[str | None]]:
    """A scenario kit's context as the pipeline prepares it, and its dice sheets' owners."""
    library = validated_library([])
    request = Request("kit", scenario=scenario)
    ruleset = owner(library, request)
    ctx, work = prepared(ruleset, library, request, "a4", KitOptions(seed=seed))
    return ctx, ruleset, [j.arg for j in work.jobs if j.name == "dice"]


def _sheet_pairs(pdf: bytes) -> list[tuple[int, int]]:
    """The numbered pairs a dice sheet prints, in order: (white, coloured)."""
    found = [match for page in page_texts(pdf)
             for match in re.findall(r"^(\d+) (\d+) (\d+)$", page, re.MULTILINE)]
    assert [int(n) for n, _, _ in found] == list(range(1, len(found) + 1))
    return [(int(w), int(r)) for _, w, r in found]


@pytest.mark.parametrize("ruleset", sorted(BUNDLED))
def test_every_kit_records_its_seeds_the_same_way(ruleset: str) -> None:
    scenario = BUNDLED[ruleset]
    ctx, _, owners = _prepared(scenario, 77)
    assert ctx.options.seed == 77
    expected: dict[str, object] = {"seed": 77}
    if owners:
        expected["dice_seeds"] = {o or "referee": dice.derive_seed(77, o or "referee")
                                  for o in owners}
    assert {k: ctx.record[k] for k in ("seed", "dice_seeds") if k in ctx.record} == expected
    assert bool(owners) == (ruleset in DICE_FACES)
    # Without --seed the build seed is the scenario's, in every ruleset.
    unseeded, _, _ = _prepared(scenario, None)
    assert unseeded.record["seed"] == unseeded.options.seed == dice.scenario_seed(scenario)


@pytest.mark.parametrize("ruleset", sorted(DICE_FACES))
def test_the_same_seed_prints_the_same_dice_and_another_seed_others(ruleset: str) -> None:
    ctx, rules, owners = _prepared(BUNDLED[ruleset], 77)
    side = next(o for o in owners if o is not None)
    sheet = rules.component("dice")(ctx, side)
    assert isinstance(sheet, Component)
    again, _, _ = _prepared(BUNDLED[ruleset], 77)
    assert rules.component("dice")(again, side).pdf == sheet.pdf  # type: ignore[union-attr]
    # The sheet prints its owner's seed and that seed's pairs, of the ruleset's dice.
    seed = ctx.record["dice_seeds"][side]
    printed = _sheet_pairs(sheet.pdf)
    assert len(printed) == 240
    assert printed == dice.pairs(seed, 240, DICE_FACES[ruleset])
    assert f"Seed {seed}, drawn from build seed 77" in " ".join(page_texts(sheet.pdf)[0].split())
    other, _, _ = _prepared(BUNDLED[ruleset], 78)
    assert _sheet_pairs(rules.component("dice")(other, side).pdf) != printed  # type: ignore[union-attr]


def test_a_modern_sheet_reads_its_dice_from_the_tables() -> None:
    ctx, rules, owners = _prepared(BUNDLED["modern-naval"], 5)
    sheet = rules.component("dice")(ctx, owners[0])
    assert isinstance(sheet, Component)
    whites, reds = zip(*_sheet_pairs(sheet.pdf), strict=True)
    assert set(whites) == set(range(1, 11)) and set(reds) == set(range(1, 21))
    text = " ".join(page_texts(sheet.pdf)[0].split())
    assert "The white number is a d10" in text and "the red number a d20 (to hit)" in text


def test_the_campaign_deal_follows_the_build_seed() -> None:
    one, _, _ = _prepared(BUNDLED["naval-warfare"], 3)
    again, _, _ = _prepared(BUNDLED["naval-warfare"], 3)
    other, _, _ = _prepared(BUNDLED["naval-warfare"], 4)
    assert one.data.deal == again.data.deal != other.data.deal


def test_a_component_outside_a_build_has_no_seed_to_draw_from() -> None:
    with pytest.raises(ValueError, match="no build seed: the pipeline sets KitOptions.seed"):
        dice.in_force(None)
    assert dice.in_force(0) == 0


def test_the_seed_of_a_kit_without_sides_is_the_build_seed() -> None:
    assert dice.owner_seed(9, None, sided=False) == 9
    assert dice.owner_seed(9, None, sided=True) == dice.derive_seed(9, "referee")
    assert dice.seed_record(9, [None], sided=False) == {"seed": 9}
    assert dice.seed_record(9, ["a", None], sided=True) == {
        "seed": 9, "dice_seeds": {"a": dice.derive_seed(9, "a"),
                                  "referee": dice.derive_seed(9, "referee")}}
