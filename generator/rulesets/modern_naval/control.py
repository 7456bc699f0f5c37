"""Damage control and initiative: the two d10 rolls modified by crew and circumstance."""

from __future__ import annotations

from fractions import Fraction

from generator.rules import dice
from generator.rulesets.modern_naval.tables import Tables, die_sides


def control_odds(tables: Tables, crew: int) -> dict[str, Fraction]:
    """Chance of each damage-control row (``repaired``, ``none``, ``worse``) for one roll.

    The same roll serves a system (repaired or not) and a fire (out, burning, or a new
    fire): the rows say what each result does to each.
    """
    table = tables.damage_control
    die = dice.d(die_sides(table.die)) + crew
    out: dict[str, Fraction] = {row.key: Fraction(0) for row in table.results}
    dist: dict[int, Fraction] = dice.distribution(die)
    for score, p in dist.items():
        out[table.result(score).key] += p
    return out


def initiative_odds(tables: Tables, ours: int, theirs: int) -> tuple[Fraction, Fraction,
                                                                      Fraction]:
    """(win, tie, lose) for a side whose initiative roll has ``ours`` against ``theirs``.

    Each side rolls the initiative die and adds its modifiers; the higher wins. The text
    settles ties by a rule it does not print here, so a tie is given as its own chance.
    """
    sides = die_sides(tables.initiative.die)
    diff = (dice.d(sides) + ours) - (dice.d(sides) + theirs)
    dist: dict[int, Fraction] = dice.distribution(diff)
    win = sum((p for v, p in dist.items() if v > 0), Fraction(0))
    tie = dist.get(0, Fraction(0))
    return win, tie, 1 - win - tie
