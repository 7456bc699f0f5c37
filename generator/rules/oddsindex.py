"""What every ruleset's odds index (``quarterdeck odds``) shares: its ships, found by name.

A ruleset's ``OddsIndex`` holds each ship a question can name as a ``Member``: the name
its class (or a scenario's side) writes, the folded spellings that find it, and the
ruleset's own figures for it. This module builds members from a class's ships, finds
one by any of its spellings (a scenario's ships, or every class's, ``CLASS:NAME`` where
several classes have a ship of the name), checks a question's options with a
did-you-mean, and prints an answer's heading and tables. What the figures are, and
what an answer computes from them, is the ruleset's.

``quarterdeck odds`` keeps an index in the user cache so that a new question loads no
schema, tables or dice library: this module imports none of them either (nor the
console library until an answer is printed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from generator.core.errors import UsageError
from generator.core.suggest import did_you_mean, fold, spellings

if TYPE_CHECKING:
    from rich.console import Console

F = TypeVar("F")
"""A ruleset's figures for one ship: what its answers read."""
V = TypeVar("V")


@dataclass(frozen=True)
class Member(Generic[F]):
    """A ship as one class or scenario lists it, with the spellings that find it."""

    name: str                  # as the class (or the scenario's side) writes it
    spellings: frozenset[str]  # folded names and aka that find this ship in its class
    figures: F


def class_members(ships: Sequence[Any], figures: Iterable[F]) -> tuple[Member[F], ...]:
    """A class's ships (``name``, ``aka``) as members with their figures, in roster order."""
    return tuple(Member(ship.name, names, own)
                 for ship, names, own in zip(ships, spellings(ships), figures, strict=True))


def spelled(ships: Sequence[Any], name: str) -> tuple[int, frozenset[str]]:
    """Where in its class the ship a name finds stands, and the spellings that find it.

    The ship is the one ``roster.find_ship`` gives: the first that the name finds (the
    library's check resolved every name a scenario gives).
    """
    every = spellings(ships)
    at = next(i for i, names in enumerate(every) if fold(name) in names)
    return at, every[at]


def find_at(members: Sequence[Member[F]], name: str, where: str, role: str) -> int:
    """Which of a scenario's ships a name finds (``where``: 'Battle of X', 'this scenario').

    Raises:
        UsageError: For a name no ship answers to, with the closest ship's name.

    """
    wanted = fold(name)
    for at, member in enumerate(members):
        if wanted in member.spellings:
            return at
    names = [m.name for m in members]
    raise UsageError(f"no ship '{name}' in {where} ({role}){did_you_mean(name, names)}")


def find_in_classes(classes: Mapping[str, Sequence[Member[F]]], name: str, role: str) -> F:
    """The figures of the ship a name finds among every class's (``CLASS:NAME`` or NAME).

    Raises:
        UsageError: For a name no ship answers to, or one that ships of several classes
            answer to (write CLASS:NAME then).

    """
    class_id, _, bare = name.rpartition(":")
    if class_id not in classes:  # a colon in the ship's own name, not CLASS:SHIP
        class_id, bare = "", name
    wanted = fold(bare)
    candidates: list[tuple[str, F]] = []
    for cid, members in classes.items():
        if class_id and cid != class_id:
            continue
        found = next((m.figures for m in members if wanted in m.spellings), None)
        if found is not None:
            candidates.append((cid, found))
    if not candidates:
        every = [m.name for members in classes.values() for m in members]
        raise UsageError(f"no ship '{name}' in the library ({role}){did_you_mean(name, every)}")
    if len(candidates) > 1:
        raise UsageError(f"'{name}' ({role}) is a ship of several classes: "
                         f"{', '.join(c for c, _ in candidates)}; write CLASS:NAME "
                         f"(e.g. {candidates[0][0]}:{bare}) or give --scenario")
    return candidates[0][1]


def scenario_of(scenarios: Mapping[str, V], scenario_id: str, every: Iterable[str]) -> V:
    """The index's scenario of an id (``every``: the library's scenario ids, for hints).

    Raises:
        UsageError: For an id the index does not hold.

    """
    found = scenarios.get(scenario_id)
    if found is None:
        raise UsageError(f"no scenario '{scenario_id}'{did_you_mean(scenario_id, every)}")
    return found


def one_of(option: str, found: str, choices: Sequence[str], word: str | None = None) -> None:
    """Refuse an option's value that is not one of ``choices`` (hint from ``word``).

    Raises:
        UsageError: ``--range: found 'far', expected one of close, medium, long``.

    """
    if found not in choices:
        raise UsageError(f"{option}: found '{found}', expected one of {', '.join(choices)}"
                         f"{did_you_mean(found if word is None else word, choices)}")


def percent(p: Any) -> str:
    """A chance for the terminal, to a tenth of a percent: '12.5%'."""
    return f"{float(p) * 100:.1f}%"


def answer_console() -> Console:
    """The console an answer prints on (no highlighting; long lines wrap softly)."""
    from generator.core.terminal import user_console

    console: Console = user_console(highlight=False, soft_wrap=True)
    return console


def firing_at(firer: tuple[str, str, str], target: tuple[str, str, str], values: str,
              conditions: str) -> str:
    """An answer's heading: who fires at whom, the target's values and the conditions.

    ``firer`` and ``target`` are (name, class name, type); names are user data and are
    escaped before they meet rich markup (``values`` and ``conditions`` must be already).
    """
    from rich.markup import escape

    (name, cls, kind), (aim, aim_cls, aim_kind) = firer, target
    return (f"[bold]{escape(name)}[/] ({escape(cls)} {kind}) firing at [bold]{escape(aim)}[/] "
            f"({escape(aim_cls)} {aim_kind}, {values}); {conditions}")


def print_table(console: Console, title: str, columns: Sequence[str],
                rows: Iterable[Sequence[str]]) -> None:
    """One terminal table: a heading column of labels, then ``columns`` (cells as given)."""
    from rich.table import Table

    table = Table("", *columns, title=title)
    for row in rows:
        table.add_row(*row)
    console.print(table)
