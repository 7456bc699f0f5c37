"""The NAVAL ACTION Action Card tables' models (``tables/action-card.yaml``), validated.

Each table's shape and limits, and what it answers (a penetration cell, a spread's
hits, a weather change); ``cardtables`` loads them and keeps the tables in force.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from generator.data.datamodel import Strict
from generator.data.shipclass import ShipType
from generator.rules.defaults import Default
from generator.rules.dietable import DieTable, build
from generator.rulesets.naval_action import rules as derivation
from generator.rulesets.naval_action.schema import NAType
from generator.rulesets.naval_action.views import Band

Result = Literal["-", "(D)", "D", "HD", "S"]
DAMAGE = ("(D)", "D", "HD", "S")
Face = int
DieFace = Annotated[int, Field(ge=1, le=6)]
Yards = Annotated[int, Field(ge=0, le=100_000)]
Label = Annotated[str, Field(min_length=1, max_length=120)]


def _faces(value: dict[int, Any], sides: int = 6) -> dict[int, Any]:
    bad = [f for f in value if not 1 <= f <= sides]
    if bad:
        raise ValueError(f"expected die faces 1 to {sides}, not {', '.join(map(str, bad))}")
    return value


class Auto(Strict):
    """When the calculator applies a modifier without being told (all given must hold)."""

    range: Band | None = None
    firer_nations: list[Annotated[str, Field(max_length=8)]] | None = Field(None, max_length=40)
    sea_state: Literal["calm", "moderate", "rough", "very-rough"] | None = None
    firer_types: list[Annotated[str, Field(max_length=8)]] | None = Field(None, max_length=40)


class Modifier(Strict):
    """One numbered Gunfire Accuracy Modifier."""

    number: int = Field(ge=1, le=40)
    label: str = Field(min_length=1, max_length=60)
    value: int | None = Field(None, ge=-6, le=6)
    by_range: dict[Band, Annotated[int, Field(ge=-6, le=6)]] | None = None
    default: Default = False
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


class Accuracy(Strict):
    """The two accuracy tracks and the hit rules."""

    default: Default = False
    # A roll at or under the accuracy hits, so a track starting above 6 could never miss.
    start: int = Field(ge=1, le=6)
    automatic_miss: DieFace
    below_one_needs: list[DieFace] = Field(min_length=1, max_length=3)
    modifiers: list[Modifier] = Field(min_length=1, max_length=40)
    multi_hits: dict[int, Annotated[int, Field(ge=1, le=10)]]
    switch_fire_on: list[DieFace] = Field(max_length=6)
    second_target_max_hits: int = Field(ge=0, le=5)

    _faces_ok = field_validator("multi_hits")(_faces)

    @field_validator("modifiers")
    @classmethod
    def _numbered(cls, value: list[Modifier]) -> list[Modifier]:
        numbers = [m.number for m in value]
        if numbers != sorted(set(numbers)):
            raise ValueError("expected modifiers numbered in increasing order, each once")
        return value


class InferiorLimit(Strict):
    """Worst damage fire at this differential or lower can ever cause."""

    max_differential: int = Field(ge=-20, le=20)
    worst: Literal["D", "HD"]


class ShiftUp(Strict):
    """Rows the penetration result moves up, by circumstance."""

    close_range: int = Field(ge=0, le=3)
    long_range_vs_old: int = Field(ge=0, le=3)
    bomb_vs_old: int = Field(ge=0, le=3)


class Penetration(Strict):
    """Gunfire/torpedo penetration: coloured die against the factor differential."""

    default: Default = False
    columns: list[Annotated[int, Field(ge=-20, le=20)]] = Field(min_length=2, max_length=30)
    rows: dict[int, list[Result]]
    dud_face: DieFace
    gunfire_dud: list[Result]
    shift_up: ShiftUp
    steps: dict[Result, Annotated[int, Field(ge=0, le=10)]]
    sunk_at: int = Field(ge=1, le=10)
    inferior_limits: list[InferiorLimit] = Field(max_length=10)

    @field_validator("columns")
    @classmethod
    def _consecutive(cls, value: list[int]) -> list[int]:
        if value != list(range(value[0], value[0] + len(value))):
            raise ValueError("expected consecutive differentials, e.g. [-4, -3, ..., 7]")
        return value

    @model_validator(mode="after")
    def _shape(self) -> Penetration:
        # Rows past 6 are reached only by a shift up, so the highest shift bounds them.
        top = 6 + max(self.shift_up.close_range, self.shift_up.long_range_vs_old,
                      self.shift_up.bomb_vs_old)
        _faces(self.rows, top)
        results = {*(c for cells in self.rows.values() for c in cells), *self.gunfire_dud,
                   *(rule.worst for rule in self.inferior_limits)} - {"-"}
        lacking = sorted(results - set(self.steps))
        if lacking:
            raise ValueError(f"expected damage steps for every result the table gives; "
                             f"steps lacks {', '.join(lacking)}")
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
        return build(title="Penetration", default=self.default, die="d6", axis="threshold",
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


class ExtraDud(Strict):
    """Faces that are also torpedo duds for a navy up to a year (inclusive)."""

    nation: str = Field(max_length=8)
    through_year: int = Field(ge=1850, le=2100)
    faces: list[DieFace] = Field(max_length=6)


class SpreadWidth(Strict):
    """Spread width at the end of the run, yards."""

    one_turn: int = Field(ge=1, le=20_000)
    two_turn: int = Field(ge=1, le=20_000)


class TorpedoHits(Strict):
    """Number of hits by white die and torpedoes in the spread."""

    default: Default = False
    columns: list[int] = Field(min_length=1, max_length=20)
    rows: dict[int, list[int]]
    wild_face: DieFace
    bow_stern_arc_deg: int = Field(ge=0, le=90)
    halve_rounding: Literal["up", "down"]
    automatic_within_yd: Yards
    slow_target_kn: int = Field(ge=0, le=60)
    extra_duds: list[ExtraDud] = Field(max_length=40)
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
        self.table  # noqa: B018 (built with the tables, so the cached tables hold it)
        return self

    @cached_property
    def table(self) -> DieTable:
        """Hits by white die (rows) and torpedoes in the spread (columns), as a die table."""
        return build(title="Torpedo hits", default=self.default, die="d6", axis="threshold",
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


class Reroll(Strict):
    """A 'roll again' damage-control result."""

    faces: list[DieFace] = Field(min_length=1, max_length=6)
    then: Literal["R", "C", "O", "W"]
    otherwise: Literal["R", "C", "O", "W"]


DCResult = Literal["R", "C", "O", "W", "R3-6", "W1-4"]


class DamageControl(Strict):
    """Good and Poor damage-control tables."""

    default: Default = False
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
        self.table  # noqa: B018 (built with the tables, so the cached tables hold it)
        return self

    @cached_property
    def table(self) -> DieTable:
        """The Good and Poor tables as the two columns of one d6 table."""
        return build(title="Damage control", default=self.default, die="d6",
                        columns=["good", "poor"],
                        rows={f: [self.good[f], self.poor[f]] for f in sorted(self.good)})


class AAShift(Strict):
    """Columns to the right for a kind of attacker."""

    attackers: Label
    columns: int = Field(ge=0, le=5)


class AAResults(Strict):
    """The Antiaircraft Results table (transcribed from the text)."""

    default: Default = False
    columns: list[Annotated[int, Field(ge=0, le=1000)]] = Field(min_length=1, max_length=20)
    rows: dict[int, list[Literal["-", "X", "2X", "3X", "4X"]]]
    shifts: list[AAShift] = Field(max_length=10)
    past_last: Literal["last"]

    _faces_ok = field_validator("rows")(_faces)

    @field_validator("columns")
    @classmethod
    def _rising(cls, value: list[int]) -> list[int]:
        # A total reads the last heading at or under it, so the headings must rise.
        derivation.increasing(value, "AA totals")
        return value

    @model_validator(mode="after")
    def _shape(self) -> AAResults:
        if any(len(cells) != len(self.columns) for cells in self.rows.values()):
            raise ValueError(f"expected {len(self.columns)} cells in every row")
        if set(self.rows) != set(range(1, 7)):
            raise ValueError("expected rows for faces 1-6")
        self.table  # noqa: B018 (built with the tables, so the cached tables hold it)
        return self

    @cached_property
    def table(self) -> DieTable:
        """The results as a die table.

        A total under the first heading reads no column; shifts past the last read the last.
        """
        return build(title="Antiaircraft results", default=self.default, die="d6",
                        axis="threshold", below_first="none", columns=list(self.columns),
                        rows={f: list(c) for f, c in self.rows.items()})

    @staticmethod
    def groups(cell: str) -> int:
        """Groups of six aircraft shot down for a cell ('2X' is 2, '-' is 0)."""
        return 0 if cell == "-" else int(cell[:-1] or 1)


class Detection(Strict):
    """Chance in six within a range."""

    within_yd: Yards
    in_six: int = Field(ge=0, le=6)


class RadarDetection(Strict):
    """Radar ranges and chances."""

    SC: Yards
    SG: Yards
    in_six: int = Field(ge=0, le=6)
    land_behind_second_in_six: int = Field(ge=0, le=6)
    # The text's "1:6" after "radar sometimes didn't work" reads either way (see the YAML).
    reading: Literal["detect", "fail"] = "detect"
    default: Default = False

    def detect_in_six(self, in_six: int) -> int:
        """Faces of six that detect for a stated chance, under the reading in force."""
        return in_six if self.reading == "detect" else 6 - in_six


class NightDetection(Strict):
    """Visual night detection by navy, and radar."""

    default: Default = False
    JP: list[Detection] = Field(min_length=1, max_length=10)
    other: list[Detection] = Field(min_length=1, max_length=10)
    regain_bonus: int = Field(ge=0, le=6)
    radar: RadarDetection


class Visibility(Strict):
    """Visibility limits and the weather roll."""

    default: Default = False
    good_yd: Yards
    poor_yd: Yards
    bad_yd: Yards
    roll: dict[int, Annotated[int, Field(ge=-100_000, le=100_000)]]

    @field_validator("roll")
    @classmethod
    def _every_face(cls, value: dict[int, int]) -> dict[int, int]:
        # The weather roll is read for every face (and averaged), so none may be missing.
        _faces(value)
        if set(value) != set(range(1, 7)):
            raise ValueError("expected a change for every face 1 to 6")
        return value


DL_AND_SMALLER = ("DL", "DD", "DE", "TB", "SS", "AK", "AP")


class SeaEffect(Strict):
    """Penalties for one size band in a sea state."""

    sizes: Label
    accuracy: int = Field(ge=-6, le=6)
    speed: str = Field(min_length=1, max_length=12, pattern=r"^[1-9][0-9]?(/[1-9][0-9]?)?$")
    # The ship types the band covers (default: destroyer leader and smaller), so the status
    # sheets can cut each ship's maximum speed.
    types: list[NAType] = Field(
        default_factory=lambda: [ShipType(t) for t in DL_AND_SMALLER], max_length=20)

    @property
    def speed_factor(self) -> Fraction:
        """The share of maximum speed left, e.g. 2/3."""
        return Fraction(self.speed)

    @field_validator("speed")
    @classmethod
    def _at_most_whole(cls, value: str) -> str:
        if not 0 < Fraction(value) <= 1:
            raise ValueError(f"expected a share of the maximum speed (at most 1), not {value}")
        return value


class Seas(Strict):
    """Rough and very rough seas."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, populate_by_name=True)
    default: Default = False
    rough: list[SeaEffect] = Field(max_length=10)
    very_rough: list[SeaEffect] = Field(alias="very-rough", max_length=10)

    def effect(self, sea_state: str, ship_type: str) -> SeaEffect | None:
        """The band of a sea state that covers a ship type, if any."""
        bands = {"rough": self.rough, "very-rough": self.very_rough}.get(sea_state, [])
        return next((b for b in bands if ship_type in b.types), None)


class TurnCost(Strict):
    """Units lost per turn step at a scale."""

    yards_per_unit: float = Field(gt=0, le=10_000)
    lost: float = Field(ge=0, le=100)


class TurnCosts(Strict):
    """Movement lost for turning."""

    default: Default = False
    per_degrees: int = Field(ge=1, le=180)
    by_scale: list[TurnCost] = Field(min_length=1, max_length=20)

    @field_validator("by_scale")
    @classmethod
    def _ordered(cls, value: list[TurnCost]) -> list[TurnCost]:
        derivation.increasing([row.yards_per_unit for row in value], "scales (yards_per_unit)")
        return value

    def lost(self, yards_per_unit: float) -> float:
        """Units lost per step at a scale: the listed value, else the same yards."""
        for row in self.by_scale:
            if abs(row.yards_per_unit - yards_per_unit) <= 0.01 * row.yards_per_unit + 1:
                return row.lost
        yards = self.by_scale[-1].yards_per_unit * self.by_scale[-1].lost
        return round(yards / yards_per_unit * 10) / 10


class DiveBombing(Strict):
    """Columns used for dive bombing."""

    column: int = Field(ge=1, le=20)
    over_24_kn: int = Field(ge=1, le=20)
    over_31_kn: int = Field(ge=1, le=20)
    # The text: no diving in bad visibility; they glide-bomb and take torpedo-bomber AA.
    # "none" is for a user who reads it as no attack at all.
    bad_visibility: Literal["glide", "none"] = "glide"


def torpedo_bomber_shift(shifts: Sequence[AAShift]) -> int:
    """Columns AA reads to the right against torpedo bombers (0 if no row names them)."""
    return next((s.columns for s in shifts if "torpedo bomber" in s.attackers.lower()), 0)


class TorpedoBombing(Strict):
    """Torpedo bomber attack values."""

    column: int = Field(ge=1, le=20)
    size_in: Literal[18, 21, 24]
    range_yd: Yards


class LevelBombing(Strict):
    """Bombers per chance of a hit, by altitude."""

    high: int = Field(ge=1, le=100)
    medium: int = Field(ge=1, le=100)
    low: int = Field(ge=1, le=100)
    in_six: int = Field(ge=0, le=6)
    caliber: int = Field(ge=1, le=12)


class Air(Strict):
    """Aircraft summary values."""

    default: Default = False
    combat_odds: dict[Annotated[str, Field(max_length=40)],
                      tuple[Annotated[int, Field(ge=0, le=6)], Annotated[int, Field(ge=0, le=6)]]
                      ] = Field(min_length=1, max_length=10)
    element_planes: int = Field(ge=1, le=50)
    dive_bombing: DiveBombing
    torpedo_bombing: TorpedoBombing
    level_bombing: LevelBombing
    evasive_over_kn: int = Field(ge=0, le=60)


class Submarines(Strict):
    """Submarine depths, detection and attack values."""

    default: Default = False
    depths: list[Annotated[str, Field(min_length=1, max_length=4)]] = Field(min_length=1,
                                                                           max_length=8)
    speed_kn: dict[str, Annotated[int, Field(ge=0, le=60)]]
    hydrophone: dict[str, list[DieFace]]
    hydrophone_max_yd: Yards
    hydrophone_roll_minus: dict[str, Annotated[int, Field(ge=0, le=6)]]
    sonar: dict[str, list[DieFace]]
    sonar_min_yd: Yards
    hedgehog: dict[str, list[DieFace]]
    depth_charge_patterns: dict[str, Annotated[int, Field(ge=1, le=50)]]
    crush_2d6: int = Field(ge=2, le=12)


class Messages(Strict):
    """Communication between flagships."""

    default: Default = False
    visual_range_yd: Yards


class Victory(Strict):
    """Victory-point rules."""

    default: Default = False
    heavy_damage_share: tuple[Annotated[int, Field(ge=1, le=100)],
                              Annotated[int, Field(ge=1, le=100)]]

    @model_validator(mode="after")
    def _share(self) -> Victory:
        if self.heavy_damage_share[0] > self.heavy_damage_share[1]:
            raise ValueError("expected a share of at most the whole, such as [1, 2]")
        return self


class TorpedoRuns(Strict):
    """How far a spread runs in one turn, by torpedo size (the text gives no ranges)."""

    default: Default = False
    yards_per_turn: dict[int, Annotated[int, Field(ge=1, le=30_000)]]
    two_turn_turns: int = Field(ge=1, le=4)

    def run_yd(self, size_in: int, two_turn: bool, override: int | None = None) -> int:
        """A mount's whole run in yards: its own figure, else the table's per-turn run."""
        per_turn = override if override is not None else self.yards_per_turn.get(size_in, 0)
        return per_turn * (self.two_turn_turns if two_turn and override is None else 1)


class CardTables(Strict):
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
