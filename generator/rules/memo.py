"""A rules calculator's memory: exact results memoised by their arguments, kept without tables.

A calculator answers for one set of tables (the bundled ones, or a user's ``--tables``
file). Its results are exact and depend only on their arguments, so it memoises them:
a scenario's hundreds of matchups cost only the few distinct situations they contain.
An odds index (``generator.rules.oddsindex``) keeps a calculator in the user cache: it
pickles as its plain results (the kinds its ruleset names in ``PLAIN``: no dice, no
tables), the tables' origin and the user's tables file, and loads the tables again
only when a question needs a result it lacks. This module imports no tables or dice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

T = TypeVar("T")
"""The ruleset's tables."""
V = TypeVar("V")


@dataclass
class Counts:
    """How often each kind of memoised result was asked for, and how often computed."""

    requested: Counter[str] = field(default_factory=Counter)
    computed: Counter[str] = field(default_factory=Counter)


class MemoCalculator(Generic[T]):
    """Results for one set of tables, memoised, that pickle without the tables.

    A ruleset's calculator names ``PLAIN`` (the memoised kinds, the first item of a
    memo key, that a pickle keeps) and ``load_tables`` (how its tables are read again
    from ``source``).
    """

    PLAIN: ClassVar[frozenset[str]] = frozenset()
    """Memoised results a pickled calculator keeps: plain values (no dice, no tables)."""

    def __init__(self, tables: T, origin: str, source: Path | None = None) -> None:
        """``source``: the user's tables file ``tables`` were loaded from (None: bundled)."""
        self._tables: T | None = tables
        self.source = source
        self.origin = origin
        """'bundled' or the user's tables file name, as the tables say."""
        self._memo: dict[tuple[object, ...], object] = {}
        self.counts = Counts()
        """Requests and computations of what callers memoise through ``remember``."""

    def load_tables(self, source: Path | None) -> T:
        """The tables, read again from ``source`` (None: the bundled ones)."""
        raise NotImplementedError

    @property
    def tables(self) -> T:
        """The tables, loaded again (from ``source``) by a calculator read from a pickle."""
        if self._tables is None:
            self._tables = self.load_tables(self.source)
        return self._tables

    def __getstate__(self) -> dict[str, Any]:
        """The plain memoised results, origin and source; never the tables themselves."""
        if self.source is None and self.origin != "bundled":
            raise ValueError("a calculator over a user's tables pickles only with its source")
        return {"origin": self.origin, "source": self.source,
                "memo": {k: v for k, v in self._memo.items() if k[0] in self.PLAIN}}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A calculator whose tables load on the first result its memo lacks."""
        self._tables = None
        self.origin = state["origin"]
        self.source = state["source"]
        self._memo = dict(state["memo"])
        self.counts = Counts()

    def remember(self, kind: str, key: Hashable, make: Callable[[], V]) -> V:
        """``make()`` once per ``(kind, key)`` for this calculator's life, counted.

        Results built from this calculator's odds (a ship's matchup grid) live as long
        as the odds they were built from, and are shared by every component that uses
        this calculator (one recipe group renders with one calculator).
        """
        self.counts.requested[kind] += 1
        memo_key = ("remember", kind, key)
        if memo_key not in self._memo:
            self.counts.computed[kind] += 1
            self._memo[memo_key] = make()
        return self._memo[memo_key]  # type: ignore[return-value]

    def _cached(self, key: tuple[object, ...], make: Callable[[], V]) -> V:
        """``make()`` once per memo key (its first item the kind of result)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]  # type: ignore[return-value]
