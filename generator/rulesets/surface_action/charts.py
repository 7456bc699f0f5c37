"""The Surface Action charts and rule numbers, loaded from ``tables/charts.yaml``.

The reference card prints these and the calculator computes from them, so the two cannot
disagree. A user's ``--tables FILE`` replaces any top-level key.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, PrivateAttr, model_validator

from generator.core.errors import Problem
from generator.data.datamodel import Nation, Strict
from generator.data.validation import key_problems, name_problem
from generator.data.yamlsource import SourceDoc
from generator.rules import dice
from generator.rules.defaults import Default, Defaults, is_default
from generator.rules.dietable import DieTable, build
from generator.rules.tables import TableSet, bundled_file
from generator.rulesets.surface_action.schema import ShipType

CHARTS_FILE = Path(__file__).parent / "tables" / "charts.yaml"
HIT_LETTERS = ("P", "M", "S", "T", "A")
DieFace = Annotated[int, Field(ge=1, le=6)]
Inches = Annotated[float, Field(gt=0, le=200)]
Name = Annotated[str, Field(min_length=1, max_length=40)]


class LongRange(Strict):
    """A die-roll modifier beyond a range."""

    beyond_in: float = Field(gt=0, description="Range in inches beyond which it applies.")
    modifier: int = Field(ge=-5, le=5, description="Added to the damage roll.")


class Chart(Strict):
    """A damage chart: one row per die roll 1-6, one column per group of ship types."""

    title: str = Field(min_length=1, max_length=80)
    columns: list[Name] = Field(min_length=1, max_length=12)
    rows: list[list[Annotated[str, Field(max_length=8)]]] = Field(min_length=6, max_length=6)
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

    gunfire: dict[str, tuple[Name, Name]]
    torpedo: dict[str, tuple[Name, Name]]
    torpedo_default_note: str = Field(max_length=400)
    torpedo_defaults: dict[str, tuple[Name, Name]]


class Fires(Strict):
    """When fires start and what a burning fire can do."""

    natural: list[DieFace] = Field(max_length=6)
    carriers: list[DieFace] = Field(max_length=6)
    readied_planes: dict[DieFace, Annotated[int, Field(ge=0, le=10)]]
    spread_on: list[DieFace] = Field(max_length=6)


def _hit_counts(value: object) -> object:
    """A threshold counts some hits: an empty one would never be reached.

    Which letters it may count (P and F) is checked with the other names in
    ``reference_problems``, located at the key with a did-you-mean.
    """
    if isinstance(value, dict) and not value:
        raise ValueError("expected at least one hit count (this one is empty), such as "
                         "{P: 3} or {P: 2, F: 3}")
    return value


HitCounts = Annotated[dict[str, Annotated[int, Field(ge=1, le=50)]],
                      BeforeValidator(_hit_counts)]
"""Hits of each letter (P, F) that reach a threshold, whichever comes first."""


class Thresholds(Strict):
    """Hit counts that cripple, sink or abandon a ship."""

    crippled: HitCounts
    sinks: HitCounts
    abandoned: HitCounts


class Check(Strict):
    """Die faces of an immediate check after an M or S hit."""

    explosion: list[DieFace] = Field(default_factory=list, max_length=6)
    fire: list[DieFace] = Field(default_factory=list, max_length=6)


class HitChecks(Strict):
    """The default checks after M and S hits."""

    default: Default = False
    M: Check
    S: Check


class NightSighting(Strict):
    """Night sighting values by navy."""

    values: dict[str, DieFace]
    other: int = Field(ge=1, le=6)
    same_as: dict[str, str] = Field(default_factory=dict)
    defaults: Defaults = Field(default_factory=list)
    default_note: str = Field("", max_length=400)

    def value(self, nation: str) -> int:
        """The sighting value for a navy's code."""
        return self.values.get(self.same_as.get(nation, nation), self.other)

    def is_default(self, nation: str) -> bool:
        """Whether the navy's value is a quarterdeck default, not the text's."""
        return is_default(self, self.same_as.get(nation, nation))


class Maneuver(Strict):
    """Turning that halves or stops gunfire, as a share of the move spent turning."""

    half: float = Field(ge=0, le=1)
    none: float | None = Field(None, ge=0, le=1)
    half_on_any_turn: bool = False


class Movement(Strict):
    """Scale, turning circles and formations."""

    yards_per_in: int = Field(ge=10, le=10_000)
    knots_per_in: float = Field(gt=0, le=60)
    small_circle_in: Inches
    small_cost_in: float = Field(ge=0, le=50)
    large_circle_in: Inches
    large_cost_in: float = Field(ge=0, le=50)
    turn_step_deg: int = Field(ge=1, le=180)
    formation_max: int = Field(ge=1, le=50)
    formation_gap_in: float = Field(ge=0, le=50)
    formation_slowdown_in: float = Field(ge=0, le=50)


class Sighting(Strict):
    """Sighting distances."""

    day_in: Inches
    night_min_in: Inches
    night_max_in: Inches
    fire_bonus_in: float = Field(ge=0, le=200)
    starshell_in: float = Field(ge=0, le=200)


class Gunfire(Strict):
    """Night gunfire."""

    night_penalty_beyond_in: float = Field(ge=0, le=200)
    night_penalty: int = Field(ge=-5, le=5)


class Torpedo(Strict):
    """Torpedo target sizes in special cases."""

    bow_stern_size: int = Field(ge=1, le=6)
    unsighted_size: int = Field(ge=1, le=6)


class MovementRow(Strict):
    """One line of the Random Movement Chart."""

    roll: str = Field(pattern=r"^\d{1,2}(-\d{1,2})?$")
    result: str = Field(min_length=1, max_length=80)


class RandomMovement(Strict):
    """The 2d6 Random Movement Chart."""

    title: str = Field(min_length=1, max_length=80)
    rows: list[MovementRow] = Field(min_length=1, max_length=11)

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

    damage_charts: dict[Name, Chart] = Field(min_length=1, max_length=10)
    columns: Columns
    lowest_roll: int = Field(ge=1, le=6)
    results: dict[Name, Annotated[str, Field(max_length=200)]]
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


TYPES = tuple(t.value for t in ShipType)
NAVIES = tuple(n.value for n in Nation)
GENERATIONS = ("early", "regular", "advanced")
THRESHOLD_LETTERS = ("P", "F")
"""The hit letters a threshold counts."""


def reference_problems(given: dict[str, Any], doc: SourceDoc,
                       base: dict[str, Any] | None = None) -> list[Problem]:
    """Names one table gives that another must hold, checked on the merged tables.

    A column entry must name a damage chart and one of its columns, every ship type
    must read some chart, and the night-sighting lines must name navies with a value.
    A problem is located where the file gives the name; if the file replaced only the
    table named (a chart a bundled entry still reads), at that table.

    Args:
        given: Top-level key to validated table, as the file gives them.
        doc: The file, for positions.
        base: The tables the file's replace (the bundled charts by default).

    Returns:
        The located problems.

    """
    merged = {**(base if base is not None else dict(bundled_charts())), **given}
    charts: dict[str, Chart] = merged["damage_charts"]
    columns: Columns = merged["columns"]
    problems: list[Problem] = []
    lost: dict[tuple[str, str], list[str]] = {}
    for kind in ("gunfire", "torpedo", "torpedo_defaults"):
        table = getattr(columns, kind)
        if "columns" in given:
            problems += key_problems(doc, ("columns", kind), table, TYPES, "ship type",
                                     complete=kind == "gunfire")
        for ship_type, (chart, column) in table.items():
            loc = ("columns", kind, ship_type)
            if "columns" not in given:
                if chart not in charts or column not in charts[chart].columns:
                    # The file replaced the charts the bundled columns name.
                    lost.setdefault((chart, column), []).append(".".join(loc))
            elif chart not in charts:
                problems.append(name_problem(doc, (*loc, 0), chart, charts, "a damage chart"))
            elif column not in charts[chart].columns:
                problems.append(name_problem(doc, (*loc, 1), column, charts[chart].columns,
                                             f"a column of the '{chart}' chart"))
    for (chart, column), readers in lost.items():
        problems.append(doc.problem(("damage_charts",), (
            f"found no column '{column}' in a chart '{chart}', expected one, as the bundled "
            f"{', '.join(readers)} read{'s' if len(readers) == 1 else ''} it (or give "
            "columns too)")))
    unread = [t for t in TYPES if t not in columns.torpedo and t not in columns.torpedo_defaults]
    if unread:
        problems.append(doc.problem(("columns",) if "columns" in given else ("damage_charts",),
                                    f"found no torpedo entry for {', '.join(unread)}, expected "
                                    "every ship type in columns.torpedo or "
                                    "columns.torpedo_defaults"))
    night: NightSighting = merged["night_sighting"]
    if "night_sighting" in given:
        problems += key_problems(doc, ("night_sighting", "values"), night.values, NAVIES,
                                 "navy code", complete=False)
        problems += key_problems(doc, ("night_sighting", "same_as"), night.same_as, NAVIES,
                                 "navy code", complete=False)
        lines = list(night.values)
        problems += [name_problem(doc, ("night_sighting", "same_as", nation), line, lines,
                                  "a navy given a value")
                     for nation, line in night.same_as.items() if line not in lines]
        problems += [name_problem(doc, ("night_sighting", "defaults", index), line, lines,
                                  "a navy given a value")
                     for index, line in enumerate(night.defaults) if line not in lines]
    if "maneuver" in given:
        problems += key_problems(doc, ("maneuver",), given["maneuver"], GENERATIONS,
                                 "fire-control generation")
    if "thresholds" in given:
        limits: Thresholds = given["thresholds"]
        for name in Thresholds.model_fields:
            problems += key_problems(doc, ("thresholds", name), getattr(limits, name),
                                     THRESHOLD_LETTERS, "hit letter", complete=False)
    return problems


TABLE_SET = TableSet(bundled_file(
    Charts, CHARTS_FILE, "surface_action/tables/charts.yaml",
    check=lambda charts, doc: reference_problems(dict(charts), doc, {})),
    check=reference_problems)
"""The tables a Surface Action ``--tables`` file may replace keys of: the charts'."""


def bundled_charts() -> Charts:
    """The charts as bundled (the rule text's, plus labelled defaults)."""
    return TABLE_SET.bundled()[Charts]


def load_charts(override: Path | None = None) -> Charts:
    """The bundled charts, with a user's file replacing top-level keys.

    Raises:
        DataError: A located message for every problem in the user's file.

    """
    return TABLE_SET.load(override)[Charts]
