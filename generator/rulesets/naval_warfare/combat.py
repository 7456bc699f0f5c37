"""Naval combat in Naval Warfare 1942-45: the damage table and its exact odds.

A side totals the Combat Value (CV) of its Task Force and rolls a d6, modified, on the
damage table's row for that CV; the cell is the steps of loss it inflicts. The table
stops at CV 20. For more, the text rolls one die "for each multiple of 20 or part
thereof"; quarterdeck reads that as: split the CV into blocks of 20 and a remainder,
roll one die per block on that block's row (20 for each full block, the remainder's
own row for the part), each with the same net modifier, and add the steps. So CV 45
rolls twice on row 20 and once on row 5. (Any other reading can be had by writing
the CV as the blocks it wants; the split is ``dice_rows``.)

Everything here is exact (fractions from the shared dice engine) and computed from
``tables/combat.yaml``, the data the reference card prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Literal

import icepool
from pydantic import Field, model_validator

from generator.data.datamodel import Strict
from generator.rules import dice
from generator.rules.defaults import Default
from generator.rules.dietable import DieTable, build, parse_ratio

MAX_CV = 2000
"""The largest CV the calculator takes (100 dice)."""

Steps = Annotated[int, Field(ge=0, le=99)]


class DamageTable(Strict):
    """The damage table in the text's orientation: a row per CV, a cell per modified roll."""

    title: str = Field(default="Naval combat damage table", max_length=120)
    reference: str = Field(default="", max_length=120)
    low_roll: int = Field(ge=-20, le=0, description="The lowest modified roll printed "
                                                    "(it also stands for anything lower).")
    high_roll: int = Field(ge=1, le=40, description="The highest modified roll printed "
                                                    "(it also stands for anything higher).")
    headings: list[Annotated[str, Field(max_length=20)]] = Field(min_length=2, max_length=61)
    cv_per_die: int = Field(ge=1, le=100, description="CV covered by one die; the last row.")
    rows: dict[int, Annotated[list[Steps], Field(max_length=61)]] = Field(
        min_length=1, max_length=100, description="Steps inflicted by CV row and roll.")

    @model_validator(mode="after")
    def _shape(self) -> DamageTable:
        width = self.high_roll - self.low_roll + 1
        if len(self.headings) != width:
            raise ValueError(f"headings: found {len(self.headings)} headings, expected "
                             f"{width} (one per roll from {self.low_roll} to {self.high_roll})")
        expected = list(range(1, self.cv_per_die + 1))
        if sorted(self.rows) != expected:
            raise ValueError(f"rows: found rows {', '.join(map(str, sorted(self.rows)))}, "
                             f"expected one row for each CV from 1 to {self.cv_per_die}")
        for cv, cells in self.rows.items():
            if len(cells) != width:
                raise ValueError(f"rows.{cv}: found {len(cells)} cells, expected {width} "
                                 "(one per heading)")
        return self

    @property
    def rolls(self) -> range:
        """Every modified roll the table prints, lowest first."""
        return range(self.low_roll, self.high_roll + 1)

    def steps(self, cv: int, roll: int) -> int:
        """Steps inflicted by one die: ``cv`` from 1 to ``cv_per_die``, ``roll`` modified."""
        index = dice.clamp(roll, self.low_roll, self.high_roll) - self.low_roll
        return self.rows[cv][index]

    def die_table(self) -> DieTable:
        """The same table in the shared die-table shape (rolls down, CV across)."""
        columns = list(range(1, self.cv_per_die + 1))
        rows: dict[int | str, list[str | int]] = {
            roll: [self.rows[cv][i] for cv in columns] for i, roll in enumerate(self.rolls)}
        return build(title=self.title, die="d6", axis="threshold", below_first="none",
                     columns=columns, rolls=f"{self.low_roll}-{self.high_roll}", rows=rows)


class Modifier(Strict):
    """One die-roll modifier of the damage calculation."""

    value: int = Field(ge=-20, le=20)
    label: str = Field(max_length=80)
    default: Default = False
    of: Literal["cv", "air"] | None = Field(default=None, description="The strength whose "
                                            "ratio sets this modifier, if any.")
    ratio: str | None = Field(default=None, max_length=12, description="Own to enemy ratio "
                              "from which it applies ('3:1' or more, '1:3' or less).")

    @model_validator(mode="after")
    def _ratio(self) -> Modifier:
        if (self.of is None) != (self.ratio is None):
            raise ValueError("found only one of 'of' and 'ratio', expected both or neither")
        if self.ratio is not None and (parse_ratio(self.ratio) in (None, Fraction(1))):
            raise ValueError(f"ratio: found '{self.ratio}', expected an odds ratio other than "
                             "1:1, like '3:1' or '1:3'")
        return self

    @property
    def threshold(self) -> Fraction | None:
        """The ratio as a fraction (own / enemy)."""
        return None if self.ratio is None else parse_ratio(self.ratio)

    def applies(self, own: Fraction, enemy: Fraction) -> bool:
        """Whether a ratio modifier holds for these strengths."""
        edge = self.threshold
        if edge is None:
            return False
        if edge > 1:
            return own > 0 and (enemy == 0 or own / enemy >= edge)
        return enemy > 0 and (own == 0 or own / enemy <= edge)


class LandTroops(Strict):
    """Combat values of land troops in a minor invasion."""

    manpower: int = Field(ge=0, le=99)
    tank: int = Field(ge=0, le=99)


class Operations(Strict):
    """Numbers of fleet operations the reference card states besides the tables."""

    japanese_land_air_range: int = Field(ge=0, le=20)
    strategic_air_later_range: int = Field(ge=0, le=20)
    landing_craft_lift: int = Field(ge=0, le=99)
    repairs_per_base: int = Field(ge=0, le=99)


class CombatTables(Strict):
    """``tables/combat.yaml``: what a ``--tables`` file may replace, key by key."""

    damage_table: DamageTable
    combat_modifiers: dict[Annotated[str, Field(max_length=40)], Modifier] = Field(
        min_length=1, max_length=40)
    land_troops: LandTroops
    operations: Operations


# -- exact odds --------------------------------------------------------------------------


def dice_rows(cv: int, per_die: int = 20) -> list[int]:
    """The table row each die reads for a total CV: full blocks of ``per_die``, then the rest.

    ``dice_rows(45) == [20, 20, 5]``; a CV of 0 rolls nothing.
    """
    if not 0 <= cv <= MAX_CV:
        raise ValueError(f"found CV {cv}, expected 0 to {MAX_CV}")
    rows = [per_die] * (cv // per_die)
    if cv % per_die:
        rows.append(cv % per_die)
    return rows


def one_die(table: DamageTable, row: int, modifier: int) -> icepool.Die[int]:
    """Steps inflicted by one die on ``row`` with a net modifier, as an exact die."""
    return dice.read_table(dice.d(6), {face: table.steps(row, face + modifier)
                                        for face in range(1, 7)})


def steps_die(table: DamageTable, cv: int, modifier: int) -> icepool.Die[int]:
    """Total steps inflicted by a force of ``cv`` with a net modifier, as an exact die."""
    rows = dice_rows(cv, table.cv_per_die)
    if not rows:
        return dice.constant(0)
    total = one_die(table, rows[0], modifier)
    for row in rows[1:]:
        total = total + one_die(table, row, modifier)
    return total


def steps_distribution(table: DamageTable, cv: int, modifier: int) -> dict[int, Fraction]:
    """Chance of each number of steps inflicted, fewest first (every count from 0 up)."""
    dist: dict[int, Fraction] = dice.distribution(steps_die(table, cv, modifier))
    top = max(dist)
    return {n: dist.get(n, Fraction(0)) for n in range(top + 1)}


def expected_steps(table: DamageTable, cv: int, modifier: int) -> Fraction:
    """The mean steps inflicted."""
    return sum((n * p for n, p in steps_distribution(table, cv, modifier).items()), Fraction(0))


def modifier_span(table: DamageTable) -> range:
    """Net modifiers that give distinct odds: beyond them every roll reads an end column.

    One d6 reads six consecutive columns; a modifier that puts all six at or past an
    end reads as that end. So ``low_roll - 6`` and ``high_roll - 1`` bound the span.
    """
    return range(table.low_roll - 6, table.high_roll)


# -- strength ratios -------------------------------------------------------------------


def ratio_modifiers(modifiers: dict[str, Modifier], of: Literal["cv", "air"], own: int,
                    enemy: int) -> list[str]:
    """The ratio modifier that applies for these strengths (the largest of its kind)."""
    held = [key for key, m in modifiers.items()
            if m.of == of and m.applies(Fraction(own), Fraction(enemy))]
    if not held:
        return []
    return [max(held, key=lambda k: abs(modifiers[k].value))]


@dataclass(frozen=True)
class Side:
    """One Task Force in a battle: its CV, its Air Points and its situational modifiers."""

    cv: int
    air: int = 0
    situational: tuple[str, ...] = ()
    bonus: int = 0
    """Advantage Card die-roll bonus."""


def side_modifiers(tables: CombatTables, side: Side, enemy: Side) -> list[tuple[str, int]]:
    """Every modifier that applies to ``side`` (label key, value), ratios worked out."""
    mods = tables.combat_modifiers
    keys = [*ratio_modifiers(mods, "cv", side.cv, enemy.cv),
            *ratio_modifiers(mods, "air", side.air, enemy.air), *side.situational]
    out = [(key, mods[key].value) for key in keys]
    if side.bonus:
        out.append(("advantage", side.bonus))
    return out


@dataclass(frozen=True)
class BattleOdds:
    """Chance each side inflicts more steps than the other, and of a tie."""

    first_more: Fraction
    second_more: Fraction
    equal: Fraction


def battle(table: DamageTable, first_cv: int, first_modifier: int, second_cv: int,
           second_modifier: int) -> BattleOdds:
    """Each side's chance of inflicting more steps on the other (both roll at once)."""
    a = steps_die(table, first_cv, first_modifier)
    b = steps_die(table, second_cv, second_modifier)
    diff: dict[int, Fraction] = dice.distribution(a - b)
    return BattleOdds(sum((p for d, p in diff.items() if d > 0), Fraction(0)),
                      sum((p for d, p in diff.items() if d < 0), Fraction(0)),
                      diff.get(0, Fraction(0)))


def battle_between(tables: CombatTables, first: Side, second: Side) -> BattleOdds:
    """A battle with each side's modifiers worked out from both sides' strengths."""
    mod_a = sum(v for _, v in side_modifiers(tables, first, second))
    mod_b = sum(v for _, v in side_modifiers(tables, second, first))
    return battle(tables.damage_table, first.cv, mod_a, second.cv, mod_b)
