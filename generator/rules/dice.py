"""The exact dice engine every ruleset shares, built on icepool.

Outcomes are exact :class:`fractions.Fraction` probabilities: nothing is sampled, so a
printed 41.7 % and a test's brute-force count always agree. The helpers cover what
tabletop rules do with dice: read a die face through a table, repeat a roll a random
number of times, cap a running total, shift along a row of columns, and chain a
re-roll ("roll again; 1-4 means worse").
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import icepool

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


def __getattr__(name: str) -> Any:
    """``Die``: an icepool die, a finite distribution over hashable outcomes.

    icepool is imported on first use: a build that only formats figures or draws seeded
    dice sheets (``percent``, ``pairs``, the seeds) does not wait for it.
    """
    if name == "Die":
        import icepool

        return icepool.Die
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def d(sides: int) -> icepool.Die[int]:
    """A fair die numbered 1..``sides`` (d6, d10, d20...)."""
    import icepool

    return icepool.d(sides)


def pool_sum(count: int, sides: int) -> icepool.Die[int]:
    """The total of ``count`` dice with ``sides`` faces (2d6 is ``pool_sum(2, 6)``)."""
    import icepool

    return icepool.d(sides).pool(count).sum()


def constant(value: T) -> icepool.Die[T]:
    """A 'die' that always shows ``value`` (for results that need no roll)."""
    import icepool

    return icepool.Die([value])


def read_table(die: icepool.Die[int], table: Mapping[int, T]) -> icepool.Die[T]:
    """Read each face of ``die`` through a die-roll table (face -> result).

    Raises:
        KeyError: If a face has no entry in the table.

    """
    return die.map(lambda face: table[face])


def then(die: icepool.Die[T], step: Callable[[T], icepool.Die[U] | U]) -> icepool.Die[U]:
    """Follow each outcome with a further roll or a fixed result (re-rolls, chained tables)."""
    return die.map(step)


def repeat_sum(count: icepool.Die[int], each: icepool.Die[int],
               cap: int | None = None) -> icepool.Die[int]:
    """Roll ``each`` as many times as ``count`` shows and total it, optionally capped.

    This is "roll for the number of hits, then roll each hit's effect".
    """
    total = count @ each
    return total.map(lambda v: min(v, cap)) if cap is not None else total


def distribution(die: icepool.Die[T]) -> dict[T, Fraction]:
    """Outcome -> exact probability, in outcome order, zero-probability outcomes dropped."""
    outcomes: list[T] = list(die.outcomes())
    probabilities: list[Fraction] = list(die.probabilities())
    return {o: p for o, p in zip(outcomes, probabilities, strict=True) if p}


def chance(die: icepool.Die[T], predicate: Callable[[T], bool]) -> Fraction:
    """Exact probability that an outcome satisfies ``predicate``."""
    dist: dict[T, Fraction] = distribution(die)
    return sum((p for o, p in dist.items() if predicate(o)), Fraction(0))


def mean(die: icepool.Die[Any]) -> Fraction:
    """Exact expected value of a numeric die."""
    dist: dict[Any, Fraction] = distribution(die)
    return sum((Fraction(o) * p for o, p in dist.items()), Fraction(0))


def clamp(value: int, low: int, high: int) -> int:
    """``value`` held within ``low..high`` (a modified roll past a table reads its edge)."""
    return max(low, min(high, value))


def shift_column(columns: Sequence[T], index: int, shift: int) -> T:
    """The column ``shift`` places from ``index``, held at either end of the row."""
    return columns[clamp(index + shift, 0, len(columns) - 1)]


def column_for(thresholds: Sequence[int | float | Fraction],
               value: int | float | Fraction) -> int | None:
    """Index of the last column heading not above ``value`` (None if below the first).

    Tables headed "3, 7, 12, 18..." are read at the largest heading the value reaches.
    """
    found = None
    for i, heading in enumerate(thresholds):
        if value >= heading:
            found = i
    return found


def percent(p: Fraction, places: int = 0) -> str:
    """A probability as a percentage for print: '41.7%', never '0%' for a possible event."""
    if p == 0:
        return "0"
    if p == 1:
        return "100%"
    value = float(p) * 100
    text = f"{value:.{places}f}%"
    if float(text[:-1]) == 0:
        return f"<{10 ** -places:g}%"
    if float(text[:-1]) == 100:
        return f">{100 - 10 ** -places:g}%"
    return text


def pairs(seed: int, count: int, faces: tuple[int, int] = (6, 6)) -> list[tuple[int, int]]:
    """A reproducible sequence of (white, coloured) pairs for a pre-rolled dice sheet.

    ``faces`` gives each die's sides (two d6 by default; a d10 and a d20 for modern
    naval). The same seed always gives the same sequence (Python's ``random.Random`` with
    an integer seed is stable across versions), so a printed seed regenerates its sheet.
    """
    rng = random.Random(seed)
    white, coloured = faces
    return [(rng.randint(1, white), rng.randint(1, coloured)) for _ in range(count)]


def scenario_seed(name: str) -> int:
    """A stable seed for a scenario: the same kit prints the same dice and shuffles."""
    return zlib.crc32(name.encode()) % 100_000


SEED_LIMIT = 1_000_000_000
"""Seeds run 0..SEED_LIMIT-1: short enough to read off a sheet and type back."""


def derive_seed(build_seed: int, owner: str, table: int | None = None) -> int:
    """A packet's own seed, from the build's seed and whose packet it is.

    Each side (and the referee) gets different dice from one build seed, and a club
    printing several tables of one scenario gives each ``table`` its own (for event decks
    and dice alike). The same arguments always give the same seed.

    Args:
        build_seed: The seed in force for the build (``--seed``, or the scenario's).
        owner: Side id, or ``referee``.
        table: Table number when one build serves several tables (None: just one).

    Returns:
        The seed, 0..SEED_LIMIT-1.

    """
    text = f"{build_seed}/{owner}" + (f"/table {table}" if table is not None else "")
    return zlib.crc32(text.encode("utf-8")) % SEED_LIMIT


REFEREE = "referee"
"""The owner of a scenario kit's dice sheet that belongs to no side."""


def build_seed(given: int | None, subject: str) -> int:
    """The build seed: what ``--seed`` means in every ruleset.

    ``--seed N`` makes N the build seed, ``--seed random`` a fresh one (printed, so it can
    be given again); without it the build seed is ``scenario_seed(subject)``, so an
    unseeded kit prints the same dice every time. Everything random in a kit comes from
    the build seed: a scenario kit's packets each draw from their owner's seed
    (``owner_seed``: each side's dice sheet, its hidden counter numbers and dummies, and
    the referee's sheet); what has no owner draws from the build seed itself (the one
    sheet of a kit without sides, a class proof's counters, a campaign's card deal, which
    the whole table shares). The pipeline
    sets it before a ruleset prepares (``KitOptions.seed`` is then never None) and the
    manifest records it with every dice sheet's seed (``seed_record``).

    Args:
        given: The user's ``--seed`` (the one ``random`` drew), or None.
        subject: The scenario id, ``class-<id>`` for a class proof, else the ruleset name.

    Returns:
        The seed, 0..SEED_LIMIT-1.

    """
    return given if given is not None else scenario_seed(subject)


def in_force(seed: int | None) -> int:
    """The build seed a component draws from: ``KitOptions.seed`` as the pipeline set it.

    Raises:
        ValueError: ``seed`` is None: the options never went through the pipeline (a
            caller that prepares a ruleset itself must give a seed, as the pipeline does).

    """
    if seed is None:
        raise ValueError("no build seed: the pipeline sets KitOptions.seed before "
                         "a ruleset prepares (see build_seed)")
    return seed


def owner_seed(build: int, owner: str | None, sided: bool) -> int:
    """The seed of what one owner's packet draws: a side's, the referee's, or the kit's.

    Args:
        build: The build seed (``build_seed``).
        owner: A side id, or None for the referee's (or the only) sheet.
        sided: Whether the kit has sides (a scenario kit); without them the one sheet
            draws from the build seed itself.

    """
    return derive_seed(build, owner or REFEREE) if sided else build


def seed_record(build: int, dice: list[str | None], sided: bool) -> dict[str, object]:
    """What every kit's manifest records of its seeds: the build seed and each sheet's.

    Args:
        build: The build seed.
        dice: The owner of each dice sheet the kit prints (a side id, or None).
        sided: Whether the kit has sides (see ``owner_seed``).

    Returns:
        ``{"seed": build}``, with ``dice_seeds`` (owner to seed) when a scenario kit
        prints dice sheets (one without sides rolls the build seed itself).

    """
    record: dict[str, object] = {"seed": build}
    if sided and dice:
        record["dice_seeds"] = {owner or REFEREE: owner_seed(build, owner, sided)
                                for owner in dice}
    return record


def fresh_seed() -> int:
    """A new random build seed (``--seed random``); it is printed, so it can be reused."""
    import secrets

    return secrets.randbelow(SEED_LIMIT)
