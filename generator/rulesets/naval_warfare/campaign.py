"""Campaign logic: the supply table, effective tonnage and the campaign's cross-checks.

The schema checks each value on its own; this module checks what joins files and lists
(a unit type the rules have, a base in the nation's list, a team's nations) and computes
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

from generator.datamodel import Strict
from generator.errors import Problem
from generator.rulesets.naval_warfare.schema import Campaign, Route
from generator.validation import load_model

if TYPE_CHECKING:
    from generator.library import Entry, Library

SUPPLY_FILE = Path(__file__).parent / "tables" / "supply.yaml"


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
    round_default: bool = True

    @field_validator("supply")
    @classmethod
    def _covers(cls, rows: list[SupplyRow]) -> list[SupplyRow]:
        expected = 0
        for row in rows:
            if row.first != expected or (row.last is not None and row.last < row.first):
                raise ValueError(f"expected rows in order, each starting at {expected} sea "
                                 "areas where the one before ends")
            if row.last is None:
                return rows
            expected = row.last + 1
        raise ValueError("expected the last row to have no upper limit (leave out 'last')")

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


@functools.lru_cache(maxsize=4)
def load_supply(path: Path = SUPPLY_FILE) -> SupplyTable:
    """The Supply Effectiveness table (located DataError when malformed)."""
    return load_model(SupplyTable, path, "naval_warfare/tables/supply.yaml"
                      if path == SUPPLY_FILE else str(path))


@dataclass(frozen=True)
class ChartRow:
    """One merchant route as the chart prints it."""

    serial: int
    route: Route
    row: SupplyRow
    effective: int


def chart_rows(campaign: Campaign, supply: SupplyTable,
               nations: Iterable[str] | None = None) -> list[ChartRow]:
    """The routes (of ``nations``, or all), numbered in file order, effective tonnage computed."""
    keep = None if nations is None else set(nations)
    return [ChartRow(i, r, supply.row(r.length), supply.effective(r.tonnage, r.length))
            for i, r in enumerate(campaign.routes, start=1)
            if keep is None or r.nation in keep]


def check_entry(entry: Entry, library: Library) -> tuple[list[Problem], list[str]]:
    """One campaign's problems and warnings beyond its file (for ``Ruleset.check``).

    The file's own cross-references (unit types, bases, teams, the deal) are checked
    when it is read (``schema.Campaign``), so that they come with every other problem.
    """
    return [], []
