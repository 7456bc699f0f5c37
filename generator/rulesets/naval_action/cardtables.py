"""The NAVAL ACTION Action Card tables (``tables/action-card.yaml``), validated.

One source for the card and the calculator. ``load_tables(user_file)`` returns the
bundled tables with any table the user supplies replacing the bundled one; the user's
file may also replace derivation tables (``derivation.yaml``), such as the
comparative-strength values.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from generator.dietable import DieTable, build, width_message
from generator.errors import Problem
from generator.rulesets.naval_action import rules as derivation
from generator.rulesets.naval_action.markertables import MarkerTables, bundled_markers
from generator.rulesets.naval_action.rules import DerivationRules
from generator.validation import load_model, load_overrides
from generator.yamlsource import SourceDoc

TABLES = Path(__file__).parent / "tables"
Band = Literal["close", "medium", "long"]
BANDS: tuple[Band, ...] = ("close", "medium", "long")
Result = Literal["-", "(D)", "D", "HD", "S"]
Source = Literal["text", "default"]
Face = int


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def _faces(value: dict[int, Any], sides: int = 6) -> dict[int, Any]:
    bad = [f for f in value if not 1 <= f <= sides]
    if bad:
        raise ValueError(f"expected die faces 1 to {sides}, not {', '.join(map(str, bad))}")
    return value


class Auto(_M):
    """When the calculator applies a modifier without being told (all given must hold)."""

    range: Band | None = None
    firer_nations: list[str] | None = None
    sea_state: str | None = None
    firer_types: list[str] | None = None


class Modifier(_M):
    """One numbered Gunfire Accuracy Modifier."""

    number: int = Field(ge=1, le=40)
    label: str = Field(min_length=1, max_length=60)
    value: int | None = Field(None, ge=-6, le=6)
    by_range: dict[Band, int] | None = None
    source: Source = "default"
    auto: Auto | None = None

    @model_validator(mode="after")
    def _one_effect(self) -> Modifier:
        if (self.value is None) == (self.by_range is None):
            raise ValueError("expected exactly one of 'value' or 'by_range'")
        return self

    def effect(self, band: Band) -> int:
        """The modifier's value at a range band."""
        if self.by_range is not None:
            return self.by_range.get(band, 0)
        return self.value or 0


class Accuracy(_M):
    """The two accuracy tracks and the hit rules."""

    source: Source
    start: int = Field(ge=1, le=12)
    automatic_miss: int = Field(ge=1, le=6)
    below_one_needs: list[int] = Field(min_length=1, max_length=3)
    modifiers: list[Modifier] = Field(min_length=1)
    multi_hits: dict[int, int]
    switch_fire_on: list[int]
    second_target_max_hits: int = Field(ge=0, le=5)

    _faces_ok = field_validator("multi_hits")(_faces)

    @field_validator("modifiers")
    @classmethod
    def _numbered(cls, value: list[Modifier]) -> list[Modifier]:
        numbers = [m.number for m in value]
        if numbers != sorted(set(numbers)):
            raise ValueError("expected modifiers numbered in increasing order, each once")
        return value


class InferiorLimit(_M):
    """Worst damage fire at this differential or lower can ever cause."""

    max_differential: int
    worst: Literal["D", "HD"]


class ShiftUp(_M):
    """Rows the penetration result moves up, by circumstance."""

    close_range: int = Field(ge=0, le=3)
    long_range_vs_old: int = Field(ge=0, le=3)
    bomb_vs_old: int = Field(ge=0, le=3)


class Penetration(_M):
    """Gunfire/torpedo penetration: coloured die against the factor differential."""

    source: Source
    columns: list[int] = Field(min_length=2)
    rows: dict[int, list[Result]]
    dud_face: int = Field(ge=1, le=6)
    gunfire_dud: list[Result]
    shift_up: ShiftUp
    steps: dict[Result, int]
    sunk_at: int = Field(ge=1, le=10)
    inferior_limits: list[InferiorLimit]

    @field_validator("columns")
    @classmethod
    def _consecutive(cls, value: list[int]) -> list[int]:
        if value != list(range(value[0], value[0] + len(value))):
            raise ValueError("expected consecutive differentials, e.g. [-4, -3, ..., 7]")
        return value

    @model_validator(mode="after")
    def _shape(self) -> Penetration:
        width = len(self.columns)
        short = [str(face) for face, cells in self.rows.items() if len(cells) != width]
        if short or len(self.gunfire_dud) != width:
            which = ", ".join(short + (["gunfire_dud"] if len(self.gunfire_dud) != width else []))
            raise ValueError(f"expected {width} cells in every row (one per column); "
                             f"wrong: {which}")
        needed = set(range(1, 7)) - {self.dud_face}
        missing = sorted(needed - set(self.rows))
        if missing:
            raise ValueError(f"expected a row for every non-dud face; missing "
                             f"{', '.join(map(str, missing))}")
        self.table  # noqa: B018 (built now so a gap in the rows is refused here)
        return self

    @cached_property
    def table(self) -> DieTable:
        """The rows as a die table.

        The dud face reads the gunfire-dud row, and row shifts past the top read the top row.
        """
        rows: dict[int | str, list[str | int]] = {f: list(c) for f, c in self.rows.items()}
        rows.setdefault(self.dud_face, list(self.gunfire_dud))
        return build(title="Penetration", source=self.source, die="d6", axis="threshold",
                        columns=list(self.columns), rows=rows, rolls=f"{min(rows)}-{max(rows)}")

    def column(self, differential: int) -> int:
        """Column index for a differential (held at the table's ends)."""
        index = self.table.column_for(differential)
        assert index is not None  # the table holds values below its first column
        return index

    def cell(self, face: int, differential: int, shift: int = 0) -> Result:
        """The printed result for a die face, differential and row shift (duds excluded)."""
        return self.table.cell(face, self.column(differential), modifier=shift)  # type: ignore[return-value]

    def limit(self, differential: int) -> int:
        """Damage steps fire at this differential can ever reach (cumulative cap)."""
        cap = self.sunk_at
        for rule in self.inferior_limits:
            if differential <= rule.max_differential:
                cap = min(cap, self.steps[rule.worst])
        return cap


class ExtraDud(_M):
    """Faces that are also torpedo duds for a navy up to a year (inclusive)."""

    nation: str
    through_year: int
    faces: list[int]


class SpreadWidth(_M):
    """Spread width at the end of the run, yards."""

    one_turn: int
    two_turn: int


class TorpedoHits(_M):
    """Number of hits by white die and torpedoes in the spread."""

    source: Source
    columns: list[int] = Field(min_length=1)
    rows: dict[int, list[int]]
    wild_face: int = Field(ge=1, le=6)
    bow_stern_arc_deg: int = Field(ge=0, le=90)
    halve_rounding: Literal["up", "down"]
    automatic_within_yd: int
    slow_target_kn: int
    extra_duds: list[ExtraDud]
    spread_width_yd: SpreadWidth

    _faces_ok = field_validator("rows")(_faces)

    @model_validator(mode="after")
    def _shape(self) -> TorpedoHits:
        if self.columns != list(range(1, len(self.columns) + 1)):
            raise ValueError("expected spread sizes 1, 2, 3... in order")
        width = len(self.columns)
        wrong = [str(f) for f, cells in self.rows.items()
                 if len(cells) != width or any(not 0 <= c <= n for c, n in zip(cells,
                                                                               self.columns,
                                                                               strict=False))]
        if wrong or set(self.rows) != set(range(1, 7)):
            raise ValueError(f"expected rows 1-6, each with {width} hit counts from 0 up to the "
                             f"spread size; check rows {', '.join(wrong) or 'present'}")
        return self

    @cached_property
    def table(self) -> DieTable:
        """Hits by white die (rows) and torpedoes in the spread (columns), as a die table."""
        return build(title="Torpedo hits", source=self.source, die="d6", axis="threshold",
                        columns=list(self.columns),
                        rows={f: [str(n) for n in cells] for f, cells in self.rows.items()})

    def column(self, torpedoes: int) -> int:
        """Column index for a spread size (larger spreads read the last column)."""
        index = self.table.column_for(torpedoes)
        assert index is not None  # the table holds values below its first column
        return index

    def hits(self, face: int, torpedoes: int) -> int:
        """Hits for a die face and spread size (larger spreads read the last column)."""
        return int(self.table.cell(face, self.column(torpedoes)))

    def halved(self, torpedoes: int) -> int:
        """Torpedoes counted when the track is within the bow/stern arc."""
        return -(-torpedoes // 2) if self.halve_rounding == "up" else max(1, torpedoes // 2)

    def dud_faces(self, nation: str, year: int) -> set[int]:
        """Faces of the penetration die that are torpedo duds for a navy in a year."""
        faces = {1}
        for rule in self.extra_duds:
            if rule.nation == nation and year <= rule.through_year:
                faces |= set(rule.faces)
        return faces


class Reroll(_M):
    """A 'roll again' damage-control result."""

    faces: list[int]
    then: Literal["R", "C", "O", "W"]
    otherwise: Literal["R", "C", "O", "W"]


DCResult = Literal["R", "C", "O", "W", "R3-6", "W1-4"]


class DamageControl(_M):
    """Good and Poor damage-control tables."""

    source: Source
    good: dict[int, DCResult]
    poor: dict[int, DCResult]
    rerolls: dict[str, Reroll]

    @model_validator(mode="after")
    def _complete(self) -> DamageControl:
        for name, table in (("good", self.good), ("poor", self.poor)):
            if set(table) != set(range(1, 7)):
                raise ValueError(f"expected faces 1-6 in the {name} table")
            for result in table.values():
                if len(result) > 1 and result not in self.rerolls:
                    raise ValueError(f"expected a reroll entry for {result}")
        return self

    @cached_property
    def table(self) -> DieTable:
        """The Good and Poor tables as the two columns of one d6 table."""
        return build(title="Damage control", source=self.source, die="d6",
                        columns=["good", "poor"],
                        rows={f: [self.good[f], self.poor[f]] for f in sorted(self.good)})


class AAShift(_M):
    """Columns to the right for a kind of attacker."""

    attackers: str
    columns: int = Field(ge=0, le=5)


class AAResults(_M):
    """The Antiaircraft Results table (transcribed from the text)."""

    source: Source
    columns: list[int] = Field(min_length=1)
    rows: dict[int, list[Literal["-", "X", "2X", "3X", "4X"]]]
    shifts: list[AAShift]
    past_last: Literal["last"]

    _faces_ok = field_validator("rows")(_faces)

    @model_validator(mode="after")
    def _shape(self) -> AAResults:
        if any(len(cells) != len(self.columns) for cells in self.rows.values()):
            raise ValueError(f"expected {len(self.columns)} cells in every row")
        if set(self.rows) != set(range(1, 7)):
            raise ValueError("expected rows for faces 1-6")
        return self

    @cached_property
    def table(self) -> DieTable:
        """The results as a die table.

        A total under the first heading reads no column; shifts past the last read the last.
        """
        return build(title="Antiaircraft results", source=self.source, die="d6",
                        axis="threshold", below_first="none", columns=list(self.columns),
                        rows={f: list(c) for f, c in self.rows.items()})

    @staticmethod
    def groups(cell: str) -> int:
        """Groups of six aircraft shot down for a cell ('2X' is 2, '-' is 0)."""
        return 0 if cell == "-" else int(cell[:-1] or 1)


class Detection(_M):
    """Chance in six within a range."""

    within_yd: int
    in_six: int = Field(ge=0, le=6)


class RadarDetection(_M):
    """Radar ranges and chances."""

    SC: int
    SG: int
    in_six: int
    land_behind_second_in_six: int


class NightDetection(_M):
    """Visual night detection by navy, and radar."""

    source: Source
    JP: list[Detection]
    other: list[Detection]
    regain_bonus: int
    radar: RadarDetection


class Visibility(_M):
    """Visibility limits and the weather roll."""

    source: Source
    good_yd: int
    poor_yd: int
    bad_yd: int
    roll: dict[int, int]


class SeaEffect(_M):
    """Penalties for one size band in a sea state."""

    sizes: str
    accuracy: int
    speed: str


class Seas(_M):
    """Rough and very rough seas."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    source: Source
    rough: list[SeaEffect]
    very_rough: list[SeaEffect] = Field(alias="very-rough")


class TurnCost(_M):
    """Units lost per turn step at a scale."""

    yards_per_unit: float
    lost: float


class TurnCosts(_M):
    """Movement lost for turning."""

    source: Source
    per_degrees: int
    by_scale: list[TurnCost]

    def lost(self, yards_per_unit: float) -> float:
        """Units lost per step at a scale: the listed value, else the same yards."""
        for row in self.by_scale:
            if abs(row.yards_per_unit - yards_per_unit) <= 0.01 * row.yards_per_unit + 1:
                return row.lost
        yards = self.by_scale[-1].yards_per_unit * self.by_scale[-1].lost
        return round(yards / yards_per_unit * 10) / 10


class DiveBombing(_M):
    """Columns used for dive bombing."""

    column: int
    over_24_kn: int
    over_31_kn: int


class TorpedoBombing(_M):
    """Torpedo bomber attack values."""

    column: int
    size_in: int
    range_yd: int


class LevelBombing(_M):
    """Bombers per chance of a hit, by altitude."""

    high: int
    medium: int
    low: int
    in_six: int
    caliber: int


class Air(_M):
    """Aircraft summary values."""

    source: Source
    combat_odds: dict[str, tuple[int, int]]
    element_planes: int
    dive_bombing: DiveBombing
    torpedo_bombing: TorpedoBombing
    level_bombing: LevelBombing
    evasive_over_kn: int


class Submarines(_M):
    """Submarine depths, detection and attack values."""

    source: Source
    depths: list[str]
    speed_kn: dict[str, int]
    hydrophone: dict[str, list[int]]
    hydrophone_max_yd: int
    hydrophone_roll_minus: dict[str, int]
    sonar: dict[str, list[int]]
    sonar_min_yd: int
    hedgehog: dict[str, list[int]]
    depth_charge_patterns: dict[str, int]
    crush_2d6: int


class Messages(_M):
    """Communication between flagships."""

    source: Source
    visual_range_yd: int


class Victory(_M):
    """Victory-point rules."""

    source: Source
    heavy_damage_share: tuple[int, int]


class TorpedoRuns(_M):
    """How far a spread runs in one turn, by torpedo size (the text gives no ranges)."""

    source: Source
    yards_per_turn: dict[int, int]
    two_turn_turns: int = Field(ge=1, le=4)

    def run_yd(self, size_in: int, two_turn: bool, override: int | None = None) -> int:
        """A mount's whole run in yards: its own figure, else the table's per-turn run."""
        per_turn = override if override is not None else self.yards_per_turn.get(size_in, 0)
        return per_turn * (self.two_turn_turns if two_turn and override is None else 1)


class CardTables(_M):
    """Every table on the NAVAL ACTION Action Card."""

    accuracy: Accuracy
    penetration: Penetration
    torpedo_hits: TorpedoHits
    damage_control: DamageControl
    aa_results: AAResults
    night_detection: NightDetection
    visibility: Visibility
    seas: Seas
    turn_costs: TurnCosts
    torpedo_runs: TorpedoRuns
    air: Air
    submarines: Submarines
    messages: Messages
    victory: Victory


class Tables(BaseModel):
    """The card tables and the derivation tables in force for a build."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    card: CardTables
    rules: DerivationRules
    markers: MarkerTables = Field(default_factory=bundled_markers)
    replaced: tuple[str, ...] = ()
    origin: str = "bundled"


GRIDS = {"penetration": ("rows", "gunfire_dud"), "torpedo_hits": ("rows",),
         "aa_results": ("rows",)}


def _row_problems(doc: SourceDoc) -> list[Problem]:
    """Rows whose length differs from the table's columns, located at the row itself.

    The models check this too, but a model-level check can only point at the whole
    table; a user fixing their card wants the line of the short row.
    """
    data = doc.data if isinstance(doc.data, dict) else {}
    problems = []
    for table, keys in GRIDS.items():
        grid = data.get(table)
        if not isinstance(grid, dict) or not isinstance(grid.get("columns"), list):
            continue
        width = len(grid["columns"])
        for key in keys:
            value = grid.get(key)
            rows = value.items() if isinstance(value, dict) else [(None, value)]
            for face, cells in rows:
                if isinstance(cells, list) and len(cells) != width:
                    loc = (table, key) if face is None else (table, key, face)
                    problems.append(doc.problem(loc, width_message(len(cells), width)))
    return problems


@functools.cache
def _bundled_card() -> CardTables:
    path = TABLES / "action-card.yaml"
    return load_model(CardTables, path, path.name, precheck=_row_problems)


def load_tables(user_file: Path | None = None) -> Tables:
    """The tables in force: bundled, with any table in ``user_file`` replacing its own.

    Args:
        user_file: A YAML file holding some top-level keys of ``action-card.yaml`` or
            ``derivation.yaml``.

    Returns:
        The merged tables.

    Raises:
        DataError: With every problem in the user's file, located.

    """
    card, rules = _bundled_card(), derivation.bundled_rules()
    if user_file is None:
        return Tables(card=card, rules=rules)
    given = load_overrides(user_file, CardTables, DerivationRules, MarkerTables,
                           precheck=_row_problems)
    card_keys, marker_keys = set(CardTables.model_fields), set(MarkerTables.model_fields)
    card = card.model_copy(update={k: v for k, v in given.items() if k in card_keys})
    rules = rules.model_copy(update={k: v for k, v in given.items()
                                     if k not in card_keys and k not in marker_keys})
    markers = bundled_markers().model_copy(update={k: v for k, v in given.items()
                                                   if k in marker_keys})
    return Tables(card=card, rules=rules, markers=markers, replaced=tuple(sorted(given)),
                  origin=user_file.name)


_ACTIVE: contextvars.ContextVar[Tables | None] = contextvars.ContextVar("tables", default=None)


def active() -> Tables:
    """The tables in force for the current build (bundled unless ``using`` says otherwise)."""
    tables = _ACTIVE.get()
    return tables if tables is not None else load_tables()


@contextlib.contextmanager
def using(tables: Tables) -> Iterator[Tables]:
    """Make ``tables`` the ones every derivation and component reads, for a block."""
    token = _ACTIVE.set(tables)
    rules_token = derivation.ACTIVE.set(tables.rules)
    try:
        yield tables
    finally:
        derivation.ACTIVE.reset(rules_token)
        _ACTIVE.reset(token)
