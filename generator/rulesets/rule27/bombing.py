"""Bombing hits on a stack, exactly: who is hit, flipped or sunk, and how likely.

The text spreads bombing hits by category, one hit to each category present in the order
of the tables (NT, AF, CF, SF), round after round, each hit landing on a ship of that
category picked at random (every afloat counter of the category equally likely: a
DEFAULT reading, the text says only "at random"). A hit sinks an NT or an AF; on an SF or
a CF it adds one hit of damage, a CA, CL, DD or CVE flips to its half side once its hits
reach half its strength, and any of them sinks when its hits reach its strength. Hits
left when every ship is sunk are lost.

Counters alike (same type, strength and damage) are interchangeable, so the calculator
keeps, for each such group, the sorted hits of its counters: the exact distribution is a
mapping of those states to ``Fraction`` probabilities.
"""

from __future__ import annotations

import re
from collections import Counter as Tally
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from generator.core.errors import UsageError
from generator.core.suggest import did_you_mean
from generator.rulesets.rule27.tables import TYPE_IDS, NavalTables

MAX_COUNTERS = 60
MAX_HITS = 60
MAX_STATES = 200_000
"""Work bound: a stack whose distribution would need more states is refused."""
_ITEM = re.compile(r"^\s*(?:(\d{1,2})\s*x?\s+)?([A-Za-z]{2,3})(?:\s*/\s*(\d{1,2}))?"
                   r"(?:\s*\+\s*(\d{1,2}))?\s*$")


@dataclass(frozen=True)
class Unit:
    """One counter in the stack: its type, category, strength, hits already taken."""

    type: str
    category: str
    strength: int
    half: bool
    damage: int = 0

    @property
    def label(self) -> str:
        """How the stack line names it (``CL/2``, ``BB/5+2``)."""
        return f"{self.type}/{self.strength}" + (f"+{self.damage}" if self.damage else "")


@dataclass(frozen=True)
class Fate:
    """What may become of one counter of a group."""

    unit: Unit
    count: int
    hit: Fraction
    """Chance it takes at least one of these hits."""
    flipped: Fraction
    """Chance it ends afloat on its half-strength side (half types only)."""
    sunk: Fraction
    """Chance it is sunk."""


def parse_stack(text: str, tables: NavalTables) -> list[Unit]:
    """Read a stack such as ``"8 NT, CL, DD"`` or ``"BB/5+2, 2 CA/3"``.

    Each item is ``[COUNT] TYPE[/STRENGTH][+HITS]``; a type without a strength takes the
    tables' default strength for it.

    Raises:
        UsageError: Naming the item that cannot be read.

    """
    if len(text) > 1000:
        raise UsageError("--stack: found a stack of more than 1000 characters, expected a "
                         "short list such as '8 NT, CL, DD'")
    units: list[Unit] = []
    for raw in text.split(","):
        match = _ITEM.match(raw)
        if not match:
            raise UsageError(f"--stack: found {raw.strip()!r}, expected [COUNT] TYPE[/STRENGTH]"
                             "[+HITS], e.g. '8 NT' or 'CL/2'")
        count = int(match.group(1) or 1)
        kind = match.group(2).upper()
        if kind not in TYPE_IDS:
            raise UsageError(f"--stack: found type {match.group(2)!r}, expected one of "
                             f"{', '.join(TYPE_IDS)}{did_you_mean(kind, TYPE_IDS)}")
        row = tables.types[kind]
        default = row.fixed_strength or tables.default_strength[kind]
        strength = int(match.group(3)) if match.group(3) else default
        if strength < 1:
            raise UsageError(f"--stack: found {kind}/{strength}, expected a strength of at "
                             "least 1")
        if row.fixed_strength is not None and strength != row.fixed_strength:
            raise UsageError(f"--stack: found {kind}/{strength}, expected {kind}/"
                             f"{row.fixed_strength} (every {kind} has {row.fixed_strength})")
        damage = int(match.group(4) or 0)
        if damage >= strength:
            raise UsageError(f"--stack: found {kind}/{strength}+{damage}, expected fewer hits "
                             "than its strength (it would be sunk)")
        if count < 1:
            raise UsageError(f"--stack: found {raw.strip()!r}, expected a count of at least 1")
        units.extend([Unit(kind, row.category, strength, row.half, damage)] * count)
    if len(units) > MAX_COUNTERS:
        raise UsageError(f"--stack: found {len(units)} counters, expected at most "
                         f"{MAX_COUNTERS}")
    return units


def sunk(unit: Unit, hits: int) -> bool:
    """Sunk once its hits (damage included) reach its strength."""
    return hits >= unit.strength


def flipped(unit: Unit, hits: int) -> bool:
    """Afloat on its half side: a half type whose hits reach half its strength."""
    return unit.half and not sunk(unit, hits) and 2 * hits >= unit.strength


State = tuple[tuple[int, ...], ...]
"""Per group, the sorted hits of its counters."""


def _groups(units: Sequence[Unit]) -> list[tuple[Unit, int]]:
    return list(Tally(units).items())


def distribution(units: Sequence[Unit], hits: int, order: Sequence[str],
                 ) -> tuple[list[tuple[Unit, int]], dict[State, Fraction]]:
    """The exact distribution of the stack's damage after ``hits`` bombing hits.

    Args:
        units: The stack.
        hits: Bombing hits to allocate.
        order: Category order (``NT, AF, CF, SF``).

    Returns:
        The groups (unit, how many) and the probability of each final state.

    Raises:
        UsageError: Too many hits, or a stack too large to compute exactly.

    """
    if not 0 <= hits <= MAX_HITS:
        raise UsageError(f"--hits: found {hits}, expected 0 to {MAX_HITS}")
    groups = _groups(units)
    start: State = tuple((u.damage,) * n for u, n in groups)
    # (state, categories still due a hit this round) -> probability
    work: dict[tuple[State, tuple[str, ...]], Fraction] = {(start, ()): Fraction(1)}
    finished: dict[State, Fraction] = {}
    for _ in range(hits):
        after: dict[tuple[State, tuple[str, ...]], Fraction] = {}
        for (state, due), chance in work.items():
            if not due:
                due = tuple(c for c in order if _afloat(groups, state, c))
            if not due:  # every ship sunk: the rest of the hits are lost
                finished[state] = finished.get(state, Fraction(0)) + chance
                continue
            category, rest = due[0], due[1:]
            for new, p in _hit_one(groups, state, category):
                key = (new, rest)
                after[key] = after.get(key, Fraction(0)) + chance * p
            # Checked as the round grows, not once it is whole: a round of a large stack
            # can take a minute to fill before it would be refused.
            if len(after) > MAX_STATES:
                raise UsageError(f"--stack: found a stack and hits needing more than "
                                 f"{MAX_STATES} states to compute exactly, expected a "
                                 "smaller one")
        work = after
    for (state, _), chance in work.items():
        finished[state] = finished.get(state, Fraction(0)) + chance
    return groups, finished


def _afloat(groups: list[tuple[Unit, int]], state: State, category: str) -> bool:
    return any(not sunk(u, h) for (u, _), hs in zip(groups, state, strict=True)
               if u.category == category for h in hs)


def _hit_one(groups: list[tuple[Unit, int]], state: State, category: str,
             ) -> list[tuple[State, Fraction]]:
    """Every way one hit on ``category`` lands, each afloat counter equally likely."""
    targets: list[tuple[int, int, int]] = []  # (group, hits value, how many with it)
    for g, ((unit, _), hs) in enumerate(zip(groups, state, strict=True)):
        if unit.category != category:
            continue
        for value, many in Tally(h for h in hs if not sunk(unit, h)).items():
            targets.append((g, value, many))
    total = sum(many for _, _, many in targets)
    out = []
    for g, value, many in targets:
        changed = list(state[g])
        changed.remove(value)
        changed.append(value + 1)
        new = (*state[:g], tuple(sorted(changed)), *state[g + 1:])
        out.append((new, Fraction(many, total)))
    return out


def fates(units: Sequence[Unit], hits: int, order: Sequence[str]) -> list[Fate]:
    """For each group of alike counters, the chance one of them is hit, flipped, sunk."""
    groups, final = distribution(units, hits, order)
    out = []
    for g, (unit, n) in enumerate(groups):
        hit = flip = down = Fraction(0)
        for state, chance in final.items():
            hs = state[g]
            hit += chance * sum(1 for h in hs if h > unit.damage)
            flip += chance * sum(1 for h in hs if flipped(unit, h))
            down += chance * sum(1 for h in hs if sunk(unit, h))
        out.append(Fate(unit, n, hit / n, flip / n, down / n))
    return out


def allocation_order(units: Sequence[Unit], hits: int, order: Sequence[str]) -> list[str]:
    """The categories the hits go to, in turn, while no ship is sunk (for the worksheet)."""
    present = [c for c in order if any(u.category == c for u in units)]
    out: list[str] = []
    while present and len(out) < hits:
        out.extend(present[: hits - len(out)])
    return out
