"""Reading a list of modifier rows against the facts of one roll.

Every modifier table (detection, combat, SAM, missile, damage) is a list of ``Modifier``
rows from ``rules.yaml``; each names the ``factor`` it depends on. A roll's facts are a
mapping factor -> value, and the rows that match add their numbers. The breakdown keeps
each row's label, so a calculator page can say where a total came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from generator.rules import dice
from generator.rulesets.modern_naval.tables import Match, Modifier

Breakdown = tuple[tuple[str, int], ...]
"""(row label, amount) for every row that applied, in table order."""


def evaluate(rows: Iterable[Modifier], facts: Mapping[str, Match | None],
             labels: Mapping[int, str] | None = None) -> Breakdown:
    """The rows that apply to ``facts`` and what each adds.

    A range row (crew quality) adds the fact's value; a ``per`` row adds its value times
    the fact (a count); a ``shown`` row (a weapon's own damage modifier) adds the fact;
    any other row adds its value when the fact is one of its ``when`` values. Rows whose
    factor the facts do not mention do not apply.

    Args:
        rows: The table's rows.
        facts: Factor -> value for this roll.
        labels: Labels to use instead of a row's own, by position (a group's name for a
            row the text leaves unlabelled).

    """
    out: list[tuple[str, int]] = []
    for index, row in enumerate(rows):
        if row.group or row.factor is None or row.factor not in facts:
            continue
        value = facts[row.factor]
        if value is None:
            continue
        label = (labels or {}).get(index) or row.label
        if row.range is not None or row.shown is not None:
            amount = int(value)
        elif row.per is not None:
            if not int(value):
                continue  # none of them: the row does not come into it
            amount = (row.value or 0) * int(value)
        elif row.matches(value):
            amount = row.value or 0
        else:
            continue
        out.append((label, amount))
    return tuple(out)


def total(breakdown: Breakdown) -> int:
    """The sum of a breakdown."""
    return sum(amount for _, amount in breakdown)


def at_least(sides: int, modifier: int, needed: int) -> Fraction:
    """Exact chance that one die of ``sides`` plus ``modifier`` reaches ``needed``."""
    dist: dict[int, Fraction] = dice.distribution(dice.d(sides) + modifier)
    return sum((p for score, p in dist.items() if score >= needed), Fraction(0))
