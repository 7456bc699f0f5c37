"""The Surface Action charts and rule numbers, loaded from ``tables/charts.yaml``.

The reference card prints these and the calculator computes from them, so the two cannot
disagree. A user's ``--tables FILE`` replaces any top-level key.
"""

from __future__ import annotations

import functools
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, PrivateAttr, model_validator

from generator import dice
from generator.datamodel import Strict
from generator.dietable import DieTable, build
from generator.validation import load_model, load_overrides

CHARTS_FILE = Path(__file__).parent / "tables" / "charts.yaml"
HIT_LETTERS = ("P", "M", "S", "T", "A")


class LongRange(Strict):
    """A die-roll modifier beyond a range."""

    beyond_in: float = Field(gt=0, description="Range in inches beyond which it applies.")
    modifier: int = Field(ge=-5, le=5, description="Added to the damage roll.")


class Chart(Strict):
    """A damage chart: one row per die roll 1-6, one column per group of ship types."""

    title: str
    columns: list[str] = Field(min_length=1)
    rows: list[list[str]] = Field(min_length=6, max_length=6)
    long_range: LongRange | None = None
    _tables: dict[int, DieTable] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _cells(self) -> Chart:
        for number, row in enumerate(self.rows, 1):
            if len(row) != len(self.columns):
                raise ValueError(f"expected {len(self.columns)} cells in row {number}, "
                                 f"found {len(row)}")
            for cell in row:
                if cell != "Sunk" and any(ch not in HIT_LETTERS for ch in cell):
                    raise ValueError(f"expected cells of {', '.join(HIT_LETTERS)}, 'Sunk' or "
                                     f"'' in row {number}, found '{cell}'")
        return self

    def table(self, lowest_roll: int = 1) -> DieTable:
        """The chart as a d6 die table; a modified roll below ``lowest_roll`` reads its row.

        Rows under the lowest roll are out of reach, so the lowest row's cells cover
        every roll from 1 up to it.
        """
        lowest = dice.clamp(lowest_roll, 1, 6)
        if lowest not in self._tables:
            rows: dict[int | str, list[str]] = {
                (f"1-{lowest}" if lowest > 1 else 1): list(self.rows[lowest - 1])}
            rows.update({n: row for n, row in enumerate(self.rows, 1) if n > lowest})
            self._tables[lowest] = build(title=self.title, die="d6", columns=self.columns,
                                         rows=rows)
        return self._tables[lowest]

    def modifier(self, long_range: bool) -> int:
        """The die-roll modifier for fire from beyond the chart's long-range limit."""
        return self.long_range.modifier if long_range and self.long_range else 0

    def cell(self, roll: int, column: str) -> str:
        """The result for a die roll (1-6) in one column."""
        table = self.table()
        return table.cell(roll, table.index(column))


class Columns(Strict):
    """Which chart and column each ship type reads, for gunfire and torpedo hits."""

    gunfire: dict[str, tuple[str, str]]
    torpedo: dict[str, tuple[str, str]]
    torpedo_default_note: str
    torpedo_defaults: dict[str, tuple[str, str]]


class Fires(Strict):
    """When fires start and what a burning fire can do."""

    natural: list[int]
    carriers: list[int]
    readied_planes: dict[int, int]
    spread_on: list[int]


class Thresholds(Strict):
    """Hit counts that cripple, sink or abandon a ship."""

    crippled: dict[str, int]
    sinks: dict[str, int]
    abandoned: dict[str, int]

    @model_validator(mode="after")
    def _letters(self) -> Thresholds:
        for limits in (self.crippled, self.sinks, self.abandoned):
            if any(k not in ("P", "F") for k in limits):
                raise ValueError("expected thresholds counted in P or F hits")
        return self


class Check(Strict):
    """Die faces of an immediate check after an M or S hit."""

    explosion: list[int] = Field(default_factory=list)
    fire: list[int] = Field(default_factory=list)


class HitChecks(Strict):
    """The default checks after M and S hits."""

    default: bool = True
    M: Check
    S: Check


class NightSighting(Strict):
    """Night sighting values by navy."""

    values: dict[str, int]
    other: int = Field(ge=1, le=6)
    same_as: dict[str, str] = Field(default_factory=dict)
    defaults: list[str] = Field(default_factory=list)
    default_note: str = ""

    def value(self, nation: str) -> int:
        """The sighting value for a navy's code."""
        return self.values.get(self.same_as.get(nation, nation), self.other)

    def is_default(self, nation: str) -> bool:
        """Whether the navy's value is a quarterdeck default, not the text's."""
        return self.same_as.get(nation, nation) in self.defaults


class Maneuver(Strict):
    """Turning that halves or stops gunfire, as a share of the move spent turning."""

    half: float = Field(ge=0, le=1)
    none: float | None = Field(None, ge=0, le=1)
    half_on_any_turn: bool = False


class Movement(Strict):
    """Scale, turning circles and formations."""

    yards_per_in: int
    knots_per_in: float
    small_circle_in: float
    small_cost_in: float
    large_circle_in: float
    large_cost_in: float
    turn_step_deg: int
    formation_max: int
    formation_gap_in: float
    formation_slowdown_in: float


class Sighting(Strict):
    """Sighting distances."""

    day_in: float
    night_min_in: float
    night_max_in: float
    fire_bonus_in: float
    starshell_in: float


class Gunfire(Strict):
    """Night gunfire."""

    night_penalty_beyond_in: float
    night_penalty: int


class Torpedo(Strict):
    """Torpedo target sizes in special cases."""

    bow_stern_size: int = Field(ge=1, le=6)
    unsighted_size: int = Field(ge=1, le=6)


class MovementRow(Strict):
    """One line of the Random Movement Chart."""

    roll: str = Field(pattern=r"^\d+(-\d+)?$")
    result: str


class RandomMovement(Strict):
    """The 2d6 Random Movement Chart."""

    title: str
    rows: list[MovementRow]

    @model_validator(mode="after")
    def _covers(self) -> RandomMovement:
        self.table  # noqa: B018 (built now so rows that miss or repeat a roll are refused)
        return self

    @cached_property
    def table(self) -> DieTable:
        """The chart as a one-column 2d6 die table."""
        return build(title=self.title, die="2d6", columns=["result"],
                        rows={row.roll: [row.result] for row in self.rows})

    def result(self, total: int) -> str:
        """The chart's result for a 2d6 total."""
        return self.table.cell(total, 0)


class Charts(Strict):
    """Every Surface Action chart and rule number."""

    damage_charts: dict[str, Chart]
    columns: Columns
    lowest_roll: int
    results: dict[str, str]
    fires: Fires
    thresholds: Thresholds
    hit_checks: HitChecks
    night_sighting: NightSighting
    maneuver: dict[Literal["early", "regular", "advanced"], Maneuver]
    movement: Movement
    sighting: Sighting
    gunfire: Gunfire
    torpedo: Torpedo
    random_movement: RandomMovement

    def column(self, kind: Literal["gunfire", "torpedo"], ship_type: str) -> tuple[Chart, str]:
        """The chart and column a ship type reads for a gunfire or torpedo hit."""
        table = getattr(self.columns, kind)
        chart, column = table.get(ship_type) or self.columns.torpedo_defaults[ship_type]
        return self.damage_charts[chart], column


@functools.cache
def bundled_charts() -> Charts:
    """The charts as bundled (the rule text's, plus labelled defaults)."""
    return load_model(Charts, CHARTS_FILE, "surface_action/tables/charts.yaml")


def load_charts(override: Path | None = None) -> Charts:
    """The bundled charts, with a user's file replacing top-level keys.

    Raises:
        DataError: A located message for every problem in the user's file.

    """
    if override is None:
        return bundled_charts()
    return bundled_charts().model_copy(update=load_overrides(override, Charts))
