"""The Surface Action calculator: exact odds of the three-step rolls and the damage charts.

Everything is computed from the scenario's weapons table and ``charts.yaml`` with the
shared dice engine (icepool), as exact fractions, so the printed tables, the reference card
and the tests all read the same numbers.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import icepool

from generator.rules import dice, dietable
from generator.rulesets.surface_action.charts import Charts, Check
from generator.rulesets.surface_action.schema import CARRIERS, Weapon, Weapons

Kind = Literal["gunfire", "torpedo"]
LETTERS = ("P", "M", "S", "T", "A", "F", "X")
"""Tallies of one hit's damage: hit letters, fires (F) and X for sunk or blown up."""
COUNTS_WHEN_NONPENETRATING: dict[Kind, frozenset[str]] = {
    "gunfire": frozenset({"S", "F"}),
    "torpedo": frozenset({"P", "F"}),
}
"""The letters a non-penetrating hit still scores: S and F for guns, P and F for torpedoes."""


@dataclass(frozen=True)
class Shot:
    """The three target numbers one factor rolls against, after every adjustment.

    Attributes:
        hit: Potential hit on this or less.
        size: Actual hit on this or less.
        power: Effective hit on this or less.
        penetrating: False when the adjusted power fell below 1 (raised to 1, and only
            S and F count for guns, P and F for torpedoes).

    """

    hit: int
    size: int
    power: int
    penetrating: bool

    @property
    def chance(self) -> Fraction:
        """The chance one factor scores an effective hit."""
        return Fraction(self.hit * self.size * self.power, 216)

    def label(self) -> str:
        """``"4·5·2"``; a trailing ``*`` marks a non-penetrating shot."""
        return f"{self.hit}·{self.size}·{self.power}" + ("" if self.penetrating else "*")


def _clamp(value: int) -> int:
    """A combat die-roll value: never below 1; above 6 every die succeeds."""
    return dice.clamp(value, 1, 6)


def band_starts(bands_in: list[float]) -> list[float]:
    """The lower limit of each range band (0 for the closest)."""
    return [0.0, *bands_in[:-1]]


def shot(kind: Kind, weapon: Weapon, band: int, size: int, armor: int, *, night: bool,
         weapons: Weapons, charts: Charts) -> Shot | None:
    """The target numbers for one factor, or None when the weapon cannot reach the band.

    Args:
        kind: ``gunfire`` or ``torpedo``.
        weapon: The weapon's line in the scenario's weapons table.
        band: Range band, 0 for the closest.
        size: The target's size value for this kind of fire (left or right of the slash).
        armor: The target's armor value (negative for heavy armour).
        night: Night gunfire loses hit value beyond the night limit; torpedoes do not.
        weapons: The weapons table (for the band limits).
        charts: The rule numbers in force.

    """
    if band >= len(weapon.hit) or weapon.hit[band] is None:
        return None
    hit = weapon.hit[band]
    assert hit is not None
    rule = charts.gunfire
    if kind == "gunfire" and night and \
            band_starts(weapons.bands_in)[band] >= rule.night_penalty_beyond_in:
        hit -= rule.night_penalty
    # Guns lose 1 power for each band beyond the closest; torpedoes keep theirs.
    power = weapon.power + armor - (band if kind == "gunfire" else 0)
    return Shot(_clamp(hit), _clamp(size), _clamp(power), power >= 1)


def passes(target: int) -> icepool.Die[int]:
    """One d6 that succeeds (1) at or under ``target``."""
    return dice.d(6).map(lambda face: int(face <= target))


@functools.cache
def effective_hits(factors: int, target: Shot) -> icepool.Die[int]:
    """Effective hits from ``factors`` dice, rolled through the three steps as printed.

    Roll the factors against the hit value; roll the potential hits against the size;
    roll the actual hits against the power.
    """
    potential = factors @ passes(target.hit)
    actual = potential @ passes(target.size)
    return actual @ passes(target.power)


def halved(factors: int) -> int:
    """Half strength, rounding a half up (the text's rule for halved capabilities)."""
    return (factors + 1) // 2


def maneuver_factors(factors: int, fire_control: str, turning_share: Fraction,
                     charts: Charts) -> int:
    """Gun factors left after spending ``turning_share`` of the move turning."""
    rule = charts.maneuver[fire_control]  # type: ignore[index]
    if rule.none is not None and turning_share >= Fraction(rule.none).limit_denominator():
        return 0
    half = Fraction(rule.half).limit_denominator()
    if (rule.half_on_any_turn and turning_share > 0) or (half > 0 and turning_share >= half):
        return halved(factors)
    return factors


# ---- damage charts ---------------------------------------------------------------------


def fires_started(natural: int, ship_type: str, readied: bool, charts: Charts) -> int:
    """Fires a natural damage roll starts on a ship of ``ship_type``."""
    rule = charts.fires
    if ship_type in CARRIERS:
        if readied:
            return rule.readied_planes.get(natural, 0)
        return int(natural in rule.carriers)
    return int(natural in rule.natural)


def cell_odds(kind: Kind, ship_type: str, long_range: bool, charts: Charts,
              ) -> dict[str, Fraction]:
    """Chance of each chart cell (as printed, '' for none) for one hit on ``ship_type``."""
    chart, column = charts.column(kind, ship_type)
    table = chart.table(charts.lowest_roll)
    return dietable.odds(table, table.index(column), modifier=chart.modifier(long_range))


def _check(check: Check) -> icepool.Die[icepool.Vector[int]]:
    """An M or S hit's immediate roll: X for an explosion, F for a fire."""
    def face(n: int) -> icepool.Vector[int]:
        return tally(X=int(n in check.explosion), F=int(n in check.fire))

    return dice.d(6).map(face)


def tally(**counts: int) -> icepool.Vector[int]:
    """A damage tally over ``LETTERS`` (missing letters are 0)."""
    return icepool.Vector(tuple(counts.get(letter, 0) for letter in LETTERS))


def hit_damage(kind: Kind, ship_type: str, *, long_range: bool, penetrating: bool,
               readied: bool, checks: dict[str, Check], charts: Charts,
               ) -> icepool.Die[icepool.Vector[int]]:
    """What one effective hit does: tallies of P M S T A, fires and sinkings.

    Args:
        kind: Which chart family (gunfire/bomb or torpedo).
        ship_type: The target's type code (picks the column).
        long_range: Gunfire from beyond the chart's long-range limit.
        penetrating: False for a non-penetrating hit (only some letters count).
        readied: A carrier with planes readied on deck.
        checks: The M and S checks for the target's navy.
        charts: The rule numbers in force.

    """
    chart, column = charts.column(kind, ship_type)
    table = chart.table(charts.lowest_roll)
    index, modifier = table.index(column), chart.modifier(long_range)
    allowed = None if penetrating else COUNTS_WHEN_NONPENETRATING[kind]

    def face(natural: int) -> icepool.Die[icepool.Vector[int]]:
        cell = table.cell(natural, index, modifier=modifier)
        letters = [] if cell == "Sunk" else list(cell)
        if allowed is not None:
            letters = [x for x in letters if x in allowed]
        fires = fires_started(natural, ship_type, readied, charts)
        if allowed is not None and "F" not in allowed:
            fires = 0
        counts = {x: letters.count(x) for x in set(letters)}
        result = dice.constant(tally(**counts, F=fires, X=int(cell == "Sunk" and
                                                                allowed is None)))
        for letter in letters:
            if letter in checks:
                result = result + _check(checks[letter])
        return result

    return dice.d(6).map(face)


@dataclass(frozen=True)
class Fate:
    """Chances for a ship after some hits, before any damage control."""

    sunk: Fraction
    crippled: Fraction
    """No guns, torpedoes or aircraft (and not sunk)."""
    abandoned: Fraction
    """Abandoned for fires (and not sunk)."""


def fates(per_hit: icepool.Die[icepool.Vector[int]], hits: int, charts: Charts,
          ) -> list[Fate]:
    """The ship's fate after 1, 2 ... ``hits`` effective hits (before damage control)."""
    rule = charts.thresholds
    index = {x: i for i, x in enumerate(LETTERS)}
    # Only P, F and X decide a fate; capping them at their thresholds keeps the sum small.
    caps = tuple(max([1] + [limits.get(x, 0) for limits in (rule.crippled, rule.sinks,
                                                                rule.abandoned)])
                 for x in ("P", "F", "X"))
    # Each running total (P, F, X) is one whole number in base ``base``: adding two adds
    # their digits without a carry (a capped total plus one hit stays below ``base``),
    # and icepool adds whole numbers far faster than vectors.
    most = max(int(v[index[x]]) for v in per_hit.outcomes() for x in ("P", "F", "X"))
    base = max(caps) + most + 1

    def digits(n: int) -> tuple[int, int, int]:
        return n // (base * base), n // base % base, n % base

    def number(p: int, f: int, x: int) -> int:
        return (p * base + f) * base + x

    def project(v: icepool.Vector[int]) -> int:
        p, f, x = (int(v[index[letter]]) for letter in ("P", "F", "X"))
        return number(p, f, x)

    def fold(n: int) -> int:
        return number(*(min(d, c) for d, c in zip(digits(n), caps, strict=True)))

    def reached(p: int, f: int, limits: Mapping[str, int]) -> bool:
        return any((p, f)[("P", "F").index(k)] >= n for k, n in limits.items())

    def status(n: int) -> str:
        p, f, x = digits(n)
        if x > 0 or reached(p, f, rule.sinks):
            return "sunk"
        if reached(p, f, rule.abandoned):
            return "abandoned"
        if reached(p, f, rule.crippled):
            return "crippled"
        return "fighting"

    small = per_hit.map(project)
    total = dice.constant(0)
    out = []
    zero = Fraction(0)
    for _ in range(hits):
        total = (total + small).map(fold)
        odds: dict[str, Fraction] = dice.distribution(total.map(status))
        out.append(Fate(odds.get("sunk", zero), odds.get("crippled", zero),
                        odds.get("abandoned", zero)))
    return out
