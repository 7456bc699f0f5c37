"""Campaign tables: the supply table, the counter mix and effective tonnage.

The campaign file's own checks (values and cross-references) live in ``schema``; this
module holds the tables in force (bundled, or replaced with ``--tables``) and computes
what the route chart prints.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, field_validator

from generator.core.errors import Problem
from generator.data.datamodel import Strict
from generator.data.validation import load_model
from generator.rules.defaults import Defaults
from generator.rulesets.naval_warfare.schema import Campaign, Route

if TYPE_CHECKING:
    from generator.data.library import Entry, Library
    from generator.data.yamlsource import SourceDoc

SUPPLY_FILE = Path(__file__).parent / "tables" / "supply.yaml"
COUNTERS_FILE = Path(__file__).parent / "tables" / "counters.yaml"
ANNEX_B_FILE = Path(__file__).parent / "tables" / "annex_b.yaml"


class SupplyRow(Strict):
    """One row of the Supply Effectiveness table and the factor it applies."""

    length: str = Field(min_length=1, max_length=60, description="The text's length cell.")
    effect: str = Field(min_length=1, max_length=80, description="The text's effect cell.")
    first: int = Field(ge=0, le=60, description="Shortest route (sea areas) the row covers.")
    last: int | None = Field(None, ge=0, le=60, description="Longest (none: no upper limit).")
    factor: Annotated[str, Field(pattern=r"^\d{1,2}(/\d{1,2})?$")] = Field(
        description="Tonnage multiplier, e.g. '1/2'.")
    label: str = Field(min_length=1, max_length=12, description="Annex B's name (Short...).")

    @property
    def multiplier(self) -> Fraction:
        """The factor as an exact fraction."""
        return Fraction(self.factor)


class SupplyTable(Strict):
    """The table, and how a fraction of a Tonnage Point is rounded."""

    supply: list[SupplyRow] = Field(min_length=1, max_length=10)
    round: Literal["down", "up", "nearest"] = "down"
    defaults: Defaults = Field(default_factory=list)

    @field_validator("supply")
    @classmethod
    def _covers(cls, rows: list[SupplyRow]) -> list[SupplyRow]:
        problem = coverage_problem(rows)
        if problem:
            raise ValueError(problem)
        return rows

    def row(self, length: int) -> SupplyRow:
        """The row covering a route of ``length`` sea areas."""
        return next(r for r in self.supply if r.first <= length
                    and (r.last is None or length <= r.last))

    def effective(self, tonnage: int, length: int) -> int:
        """Effective Tonnage Points of a route: tonnage x the row's factor, rounded."""
        exact = tonnage * self.row(length).multiplier
        if self.round == "down":
            return math.floor(exact)
        if self.round == "up":
            return math.ceil(exact)
        return math.floor(exact + Fraction(1, 2))


def coverage_problem(rows: list[SupplyRow]) -> str | None:
    """What is wrong with the rows' lengths (they must cover 0 and up, in order), if anything."""
    expected = 0
    for row in rows:
        if row.first != expected or (row.last is not None and row.last < row.first):
            return (f"expected rows in order, each starting at {expected} sea areas where "
                    "the one before ends")
        if row.last is None:
            return None
        expected = row.last + 1
    return "expected the last row to have no upper limit (leave out 'last')"


class CounterMix(Strict):
    """Counter quantities beyond the balance (``tables/counters.yaml``, DEFAULT readings)."""

    lsp_spares: int = Field(ge=0, le=20, description="Spare LSP counters per nation.")
    tonnage_denominations: list[Annotated[int, Field(ge=1, le=100)]] = Field(
        min_length=1, max_length=5, description="Tonnage Point counter values.")
    tonnage_spares: int = Field(ge=0, le=20, description="Spare smallest Tonnage counters.")
    garrison_cv: int = Field(ge=0, le=50, description="A garrison's CV (one manpower point).")
    flag_spares: int = Field(ge=0, le=10, description="Spare NOF and MOF counters per team.")
    fleet_trains: int = Field(1, ge=0, le=10, description="Fleet Train markers per team.")


@functools.lru_cache(maxsize=1)
def counter_mix() -> CounterMix:
    """The bundled counter mix."""
    return load_model(CounterMix, COUNTERS_FILE, "naval_warfare/tables/counters.yaml")


def supply_problems(given: dict[str, object], doc: SourceDoc) -> list[Problem]:
    """A user's supply table whose rows do not cover every route length, located."""
    rows = given.get("supply")
    if isinstance(rows, list):
        problem = coverage_problem(rows)
        if problem:
            return [doc.problem(("supply",), f"found {len(rows)} rows, {problem}")]
    return []


@functools.lru_cache(maxsize=4)
def load_supply(path: Path = SUPPLY_FILE) -> SupplyTable:
    """The Supply Effectiveness table (located DataError when malformed)."""
    return load_model(SupplyTable, path, "naval_warfare/tables/supply.yaml"
                      if path == SUPPLY_FILE else str(path))


@dataclass(frozen=True)
class ChartRow:
    """One merchant route as the chart prints it (no tonnage: blanks to fill)."""

    serial: int
    route: Route
    row: SupplyRow
    effective: int | None


def chart_rows(campaign: Campaign, supply: SupplyTable,
               nations: Iterable[str] | None = None) -> list[ChartRow]:
    """The routes (of ``nations``, or all), numbered in file order, effective tonnage computed.

    A route without Tonnage Points is a line for the team to fill: its effective tonnage
    is left blank too.
    """
    keep = None if nations is None else set(nations)
    return [ChartRow(i, r, supply.row(r.length),
                     None if r.tonnage is None else supply.effective(r.tonnage, r.length))
            for i, r in enumerate(campaign.routes, start=1)
            if keep is None or r.nation in keep]


class ExampleRoute(Strict):
    """One row of Annex B's example chart, as the text prints it."""

    serial: int = Field(ge=1, le=200)
    route: str = Field(min_length=1, max_length=60)
    tonnage: int = Field(ge=0, le=500)
    length: str = Field(min_length=1, max_length=20, description="The text's cell: Med (x1).")
    factor: Annotated[str, Field(pattern=r"^\d{1,2}(/\d{1,2})?$")]
    lift: int = Field(ge=0, le=1000, description="The text's Effective Lift.")


class ExampleChart(Strict):
    """Annex B: the text's example merchant routes chart (its figures are examples)."""

    title: str = Field(max_length=80)
    note: str = Field(max_length=80)
    rows: list[ExampleRoute] = Field(min_length=1, max_length=60)


@functools.lru_cache(maxsize=1)
def annex_b() -> ExampleChart:
    """The text's example chart (``tables/annex_b.yaml``)."""
    return load_model(ExampleChart, ANNEX_B_FILE, "naval_warfare/tables/annex_b.yaml")


def check_entry(entry: Entry, library: Library) -> tuple[list[Problem], list[str]]:
    """One campaign's problems and warnings beyond its file (for ``Ruleset.check``).

    The file's own cross-references (unit types, bases, teams, the deal) are checked
    when it is read (``schema.Campaign``), so that they come with every other problem.
    """
    return [], []
