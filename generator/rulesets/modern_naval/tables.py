"""The modern naval rules tables, loaded from ``tables/rules.yaml``.

The reference card prints these and the calculator modules (``detection``, ``combat``,
``damage``, ``control``) compute from them, so the two cannot disagree. A user's
``--tables FILE`` replaces any top-level key; the replaced tables are checked as the
bundled ones are, and every problem is reported at its place in the user's file.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from generator.data.datamodel import Strict
from generator.data.validation import load_model
from generator.rules.defaults import Default
from generator.rules.dietable import parse_die
from generator.rules.tables import TableFile, TableSet, bundled_file
from generator.rulesets.modern_naval.schema import DataTables, RatingRules, WeaponSpec

TABLES_FILE = Path(__file__).parent / "tables" / "rules.yaml"
SIZES = ("very-small", "small", "medium", "large", "very-large")
"""Size classes, smallest first, as ``model.Size`` names them."""
LEVELS = ("intact", "light", "heavy", "critical", "wrecked")
"""Basic damage levels, least first."""
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}

Label = Annotated[str, Field(max_length=90)]
Small = Annotated[int, Field(ge=-20, le=20)]
Cm = Annotated[float, Field(ge=0, le=1000)]
Die = Annotated[str, Field(pattern=r"^\d*d\d+$", max_length=8)]
Match = int | bool | str
Factor = Literal["crew", "land_behind", "vessels_between", "sea_state", "fcs", "own_speed",
                 "target_size", "shooter_speed", "target_speed", "multiple_mounts",
                 "shooter_fires", "rocket_pod", "missile_target", "target_damage",
                 "weapon_damage", "state", "aircraft_markers", "commander", "more_models",
                 "lost_half"]
"""The circumstances a modifier row can depend on (the calculator supplies each)."""


def die_sides(die: str) -> int:
    """The sides of a single die written ``d10`` (the tables roll one die at a time)."""
    count, sides = parse_die(die)
    if count != 1:
        raise ValueError(f"found {die}, expected a single die (d10, d20)")
    return sides


def signed(value: int, spaced: bool) -> str:
    """A modifier as the text prints it: ``+2``/``-4`` or, spaced, ``+ 2``/``- 1``."""
    sign = "-" if value < 0 else "+"
    return f"{sign} {abs(value)}" if spaced else f"{sign}{abs(value)}"


class Modifier(Strict):
    """One modifier row: its label, its number, and what circumstance it matches."""

    label: Label = ""
    value: Small | None = Field(None, description="Added to the die when the row applies.")
    range: tuple[Small, Small] | None = Field(
        None, description="A modifier a player chooses within these bounds (crew quality).")
    plus_minus: bool = Field(False, description="Print the range as '± a to b'.")
    per: Annotated[str, Field(max_length=20)] | None = Field(
        None, description="The value counts once per one of these (vessel, Fire).")
    only: Annotated[str, Field(max_length=40)] | None = Field(
        None, description="A restriction printed after the value (seekers it applies to).")
    shown: Annotated[str, Field(max_length=20)] | None = Field(
        None, description="Printed instead of a number (a per-unit value: '± n').")
    factor: Factor | None = None
    when: list[Match] | None = Field(None, max_length=10)
    group: bool = Field(False, description="A heading row with no value of its own.")
    default: Default = False

    def text(self, spaced: bool = False) -> str:
        """The modifier cell as printed."""
        if self.shown is not None:
            out = self.shown
        elif self.range is not None:
            low, high = self.range
            out = (f"± {low} to {high}" if self.plus_minus
                   else f"{signed(low, spaced)} to {signed(high, spaced)}")
        elif self.value is not None:
            out = signed(self.value, spaced)
        else:
            out = ""
        if self.per:
            out += f" per {self.per}"
        if self.only:
            out += f" (only if using {self.only})"
        return out

    def matches(self, value: Match) -> bool:
        """Whether this row applies when its factor has ``value``."""
        return self.when is not None and any(
            w == value and type(w) is type(value) for w in self.when)


class Step(Strict):
    """A numbered step of a phase."""

    step: Annotated[str, Field(max_length=6)]
    name: Label


class Phase(Strict):
    """A phase of the turn and its steps."""

    number: Annotated[str, Field(max_length=4)]
    name: Label
    steps: list[Step] = Field(default_factory=list, max_length=12)


class TurnSequence(Strict):
    """The order of a game turn."""

    title: Label
    phases: list[Phase] = Field(min_length=1, max_length=12)


class Band(Strict):
    """How far a vessel with this many speed markers must move."""

    markers: int = Field(ge=1, le=12)
    low_cm: Cm
    high_cm: Cm


class Movement(Strict):
    """Speed markers to distance moved."""

    title: Label
    header: tuple[Label, Label]
    band_cm: Cm = Field(gt=0)
    bands: list[Band] = Field(min_length=1, max_length=12)
    zero: Label

    @model_validator(mode="after")
    def _ordered(self) -> Movement:
        for i, band in enumerate(self.bands, 1):
            if band.markers != i:
                raise ValueError(f"found markers {band.markers} in band {i}, expected {i}")
            if band.high_cm < band.low_cm:
                raise ValueError(f"found band {i} from {band.low_cm:g} to {band.high_cm:g} "
                                 "cm, expected its end at or beyond its start")
        return self

    def band(self, markers: int) -> Band | None:
        """The band for a number of speed markers (None for 0: the vessel drifts)."""
        return self.bands[markers - 1] if 1 <= markers <= len(self.bands) else None


class TurnRow(Strict):
    """An MVR rating and the move it needs before each turn."""

    mvr: int = Field(ge=1, le=40)
    minimum_cm: Cm


class Turning(Strict):
    """MVR to minimum move."""

    title: Label
    header: tuple[Label, Label]
    rows: list[TurnRow] = Field(min_length=1, max_length=12)


class Initiative(Strict):
    """The initiative roll and its modifiers."""

    title: Label
    die: Die
    header: tuple[Label, Label]
    spaced: bool = False
    modifiers: list[Modifier] = Field(max_length=20)


class RangeRow(Strict):
    """A detection or identification distance by the searcher's size or altitude."""

    label: Label
    size: Literal["very-small", "small", "medium", "large", "very-large"]
    altitude: Literal["low", "medium", "high"] | None = None
    cm: Cm


class Bonus(Strict):
    """Extra distance against an aircraft."""

    label: Label
    cm: Cm


class Search(Strict):
    """Radar detection or visual identification: distances, d10 modifiers, success score."""

    title: Label
    header: tuple[Label, Label]
    ranges: list[RangeRow] = Field(min_length=1, max_length=12)
    bonus: Bonus
    fog_halves: bool
    die: Die
    success: int = Field(ge=-20, le=40)
    modifier_header: tuple[Label, Label]
    spaced: bool = False
    modifiers: list[Modifier] = Field(max_length=20)

    def limit_row(self, size: str, altitude: str | None) -> RangeRow:
        """The row a searcher reads: by altitude for an aircraft, else by size.

        A size without a row of its own (a medium ship) reads the row of its size.
        """
        if altitude is not None:
            for row in self.ranges:
                if row.altitude == altitude:
                    return row
        for row in self.ranges:
            if row.size == size:
                return row
        # Fall back on the nearest smaller size the table has.
        smaller = [r for r in self.ranges if SIZES.index(r.size) <= SIZES.index(size)]
        return smaller[-1] if smaller else self.ranges[0]


class CombatGroup(Strict):
    """A group of the combat modifiers table and the attacks that use it."""

    label: Label
    used_by: list[Label] = Field(min_length=1, max_length=8)
    rows: list[Modifier] = Field(min_length=1, max_length=12)


class CombatModifiers(Strict):
    """The d20 modifiers for guns, rockets and bombs."""

    title: Label
    header: tuple[Label, Label, Label]
    die: Die
    attacks: dict[Annotated[str, Field(max_length=20)], Label] = Field(min_length=1,
                                                                      max_length=12)
    groups: list[CombatGroup] = Field(min_length=1, max_length=20)

    @model_validator(mode="after")
    def _known(self) -> CombatModifiers:
        for group in self.groups:
            for key in group.used_by:
                if key not in self.attacks:
                    raise ValueError(f"found used_by '{key}' in '{group.label}', expected one "
                                     f"of {', '.join(self.attacks)}")
        return self

    def used_by(self, group: CombatGroup) -> list[str]:
        """The attacks a group names, as printed."""
        return [self.attacks[key] for key in group.used_by]


SeekerName = Literal["ARH", "SARH", "CMD (V)", "CMD (R)", "CMD (Wire)", "IR"]


class SeekerRow(Strict):
    """One seeker (and generation) against the target's ECM generation 1-3."""

    seeker: SeekerName
    generation: int | None = Field(None, ge=1, le=3)
    vs_ecm: tuple[Small | None, Small | None, Small | None]

    def against(self, ecm: int) -> int | None:
        """The modifier against ECM generation ``ecm`` (None: the text's n/a)."""
        return self.vs_ecm[ecm - 1]


class SeekerTable(Strict):
    """The seeker-against-ECM grid and the other modifiers (SAM or missile table)."""

    title: Label
    header: tuple[Label, Label, Label, Label, Label]
    ecm_header: Label
    seekers: list[SeekerRow] = Field(min_length=1, max_length=20)
    other: list[Modifier] = Field(max_length=20)
    defaults: list[Modifier] = Field(default_factory=list, max_length=10)
    target_header: tuple[Label, Label, Label, Label, Label] | None = None
    size: list[Modifier] = Field(default_factory=list, max_length=10)
    speed: list[Modifier] = Field(default_factory=list, max_length=10)

    @model_validator(mode="after")
    def _unique(self) -> SeekerTable:
        seen = set()
        for row in self.seekers:
            key = (row.seeker, row.generation)
            if key in seen:
                raise ValueError(f"found seeker {row.seeker} generation {row.generation} "
                                 "twice, expected each once")
            seen.add(key)
        return self

    def row(self, seeker: str, generation: int | None) -> SeekerRow | None:
        """The grid row for a seeker; a seeker without generations ignores ``generation``."""
        for row in self.seekers:
            if row.seeker == seeker and (row.generation is None or row.generation == generation):
                return row
        return None

    def all_modifiers(self) -> list[Modifier]:
        """Every non-grid modifier, defaults included."""
        return [*self.size, *self.speed, *self.other, *self.defaults]


class ToHit(Strict):
    """The score a modified d20 must reach: not printed by the text (DEFAULT)."""

    default: Default = False
    die: Die
    score: int = Field(ge=-20, le=60)
    by_kind: dict[Annotated[str, Field(max_length=12)], Annotated[int, Field(ge=-20, le=60)]] = (
        Field(default_factory=dict, max_length=10))
    no_ecm: Small = Field(0, description="Seeker modifier against a target without ECM.")
    missile_size: Literal["very-small", "small", "medium", "large", "very-large"] = (
        "very-small")

    def needed(self, kind: str) -> int:
        """The score for a weapon kind."""
        return self.by_kind.get(kind, self.score)


class SubRoll(Strict):
    """A further d10 after a damage level's speed or MVR roll."""

    low: int = Field(ge=1, le=10)
    high: int = Field(ge=1, le=10)
    speed: int = Field(ge=0, le=12)
    mvr_cm: Cm


class Mobility(Strict):
    """A damage level's separate speed and MVR rolls."""

    trigger: int = Field(ge=1, le=11)
    rolls: list[SubRoll] = Field(min_length=1, max_length=10)

    @model_validator(mode="after")
    def _covers(self) -> Mobility:
        faces = sorted(f for r in self.rolls for f in range(r.low, r.high + 1))
        if faces != list(range(1, 11)):
            raise ValueError("expected the further rolls to cover 1 to 10 once each")
        return self


class Level(Strict):
    """A basic damage level: the modified scores that reach it and what it does."""

    key: Literal["intact", "light", "heavy", "critical", "wrecked"]
    label: Label
    low: int | None = Field(None, ge=-50, le=50)
    high: int | None = Field(None, ge=-50, le=50)
    shown: Annotated[str, Field(max_length=20)] | None = None
    knock_out: int | None = Field(None, ge=1, le=11)
    mobility: Mobility | None = None

    def result_text(self) -> str:
        """The result cell as printed: ``1 – 3`` or the row's own words."""
        if self.shown is not None:
            return self.shown
        return f"{self.low} – {self.high}"

    def holds(self, score: int) -> bool:
        """Whether a modified score reads this level."""
        return ((self.low is None or score >= self.low)
                and (self.high is None or score <= self.high))


class BasicDamage(Strict):
    """The basic damage roll, its modifiers and its levels."""

    title: Label
    die: Die
    header: tuple[Label, Label]
    modifiers: list[Modifier] = Field(max_length=12)
    results_header: tuple[Label, Label, Label]
    levels: list[Level] = Field(min_length=5, max_length=5)

    @model_validator(mode="after")
    def _levels(self) -> BasicDamage:
        keys = [lv.key for lv in self.levels]
        if keys != list(LEVELS):
            raise ValueError(f"found levels {', '.join(keys)}, expected {', '.join(LEVELS)}")
        if self.levels[0].low is not None or self.levels[-1].high is not None:
            raise ValueError("expected the first level open below and the last open above")
        for before, after in zip(self.levels, self.levels[1:], strict=False):
            if before.high is None or after.low != before.high + 1:
                raise ValueError(f"expected {after.key} to start one above where "
                                 f"{before.key} ends")
        return self

    def level(self, score: int) -> Level:
        """The level a modified score reads."""
        return next(lv for lv in self.levels if lv.holds(score))

    def by_key(self, key: str) -> Level:
        """A level by its key."""
        return next(lv for lv in self.levels if lv.key == key)


class MarkersLost(Strict):
    """A propulsion failure's d10: speed markers removed."""

    low: int = Field(ge=1, le=10)
    high: int = Field(ge=1, le=10)
    lost: int = Field(ge=0, le=12)


class Special(Strict):
    """One special damage result."""

    roll: Annotated[str, Field(max_length=20)]
    key: Literal["optional_fire", "none", "demoralisation", "propulsion", "blackout", "helm",
                 "fire"]
    optional: bool = False
    crew: Small | None = None
    markers_lost: list[MarkersLost] = Field(default_factory=list, max_length=10)
    max_speed_lost: int | None = Field(None, ge=0, le=6)
    port: tuple[int, int] | None = None
    starboard: tuple[int, int] | None = None
    drift_die: Die | None = None
    illumination_cm: Cm | None = None

    def faces(self) -> list[int]:
        """The d10 faces this result stands for (the optional fire shares face 1)."""
        text = self.roll.replace("(or 2)", "").replace("–", "-").replace(" ", "")
        low, _, high = text.partition("-")
        return list(range(int(low), int(high or low) + 1))


class SpecialDamage(Strict):
    """The special damage roll."""

    title: Label
    die: Die
    header: tuple[Label, Label]
    from_level: Literal["light", "heavy", "critical", "wrecked"]
    results: list[Special] = Field(min_length=1, max_length=12)

    def by_key(self, key: str) -> Special:
        """A result by its key."""
        return next(r for r in self.results if r.key == key)


class AircraftDamage(Strict):
    """Basic damage levels read for an aircraft."""

    title: Label
    continues: list[Literal["intact", "light", "heavy", "critical", "wrecked"]]
    leaves_and_may_return: list[Literal["intact", "light", "heavy", "critical", "wrecked"]]
    lost: list[Literal["intact", "light", "heavy", "critical", "wrecked"]]

    @model_validator(mode="after")
    def _partition(self) -> AircraftDamage:
        every = [*self.continues, *self.leaves_and_may_return, *self.lost]
        if sorted(every, key=LEVELS.index) != list(LEVELS):
            raise ValueError("expected each damage level in exactly one of continues, "
                             "leaves_and_may_return and lost")
        return self


class ControlRow(Strict):
    """A damage-control result."""

    shown: Annotated[str, Field(max_length=20)]
    low: int | None = Field(None, ge=-20, le=40)
    high: int | None = Field(None, ge=-20, le=40)
    system: Label
    fire: Label
    fires_word: Annotated[str, Field(max_length=10)] = "Fires"
    key: Literal["repaired", "none", "worse"]

    def holds(self, score: int) -> bool:
        """Whether a modified score reads this row."""
        return ((self.low is None or score >= self.low)
                and (self.high is None or score <= self.high))


class DamageControl(Strict):
    """The damage-control roll."""

    title: Label
    die: Die
    header: tuple[Label, Label]
    systems: list[Label] = Field(max_length=12)
    results: list[ControlRow] = Field(min_length=1, max_length=6)

    def result(self, score: int) -> ControlRow:
        """The row a modified score reads."""
        for row in self.results:
            if row.holds(score):
                return row
        raise ValueError(f"no damage-control row holds {score}")

    @model_validator(mode="after")
    def _covers(self) -> DamageControl:
        for score in range(-30, 50):
            if sum(r.holds(score) for r in self.results) != 1:
                raise ValueError(f"expected one row for each score, found "
                                 f"{sum(r.holds(score) for r in self.results)} for {score}")
        return self


class Tables(Strict):
    """Every modern naval rules table; each top-level key may be replaced by ``--tables``."""

    turn_sequence: TurnSequence
    movement: Movement
    turning: Turning
    initiative: Initiative
    radar_detection: Search
    visual_identification: Search
    combat_modifiers: CombatModifiers
    sam_modifiers: SeekerTable
    missile_modifiers: SeekerTable
    to_hit: ToHit
    basic_damage: BasicDamage
    special_damage: SpecialDamage
    aircraft_damage: AircraftDamage
    damage_control: DamageControl

    def mvr_values(self) -> list[int]:
        """The MVR ratings the turning table has (a unit's MVR must be one of them)."""
        return [row.mvr for row in self.turning.rows]

    def seekers(self) -> dict[str, list[int | None]]:
        """Seeker types and the generations the SAM and missile tables give them."""
        out: dict[str, list[int | None]] = {}
        for table in (self.sam_modifiers, self.missile_modifiers):
            for row in table.seekers:
                gens = out.setdefault(row.seeker, [])
                if row.generation not in gens:
                    gens.append(row.generation)
        return out


class _WeaponsFile(Strict):
    weapons: dict[str, WeaponSpec] = Field(min_length=1, max_length=300)


class _RatingFile(Strict):
    rating: RatingRules


@cache
def bundled_data_tables() -> DataTables:
    """The bundled weapons table and rating rules (read once)."""
    folder = TABLES_FILE.parent
    weapons = load_model(_WeaponsFile, folder / "weapons.yaml",
                         "modern_naval/tables/weapons.yaml")
    rating = load_model(_RatingFile, folder / "rating.yaml", "modern_naval/tables/rating.yaml")
    return DataTables.model_validate({"weapons": weapons.weapons, "rating": rating.rating})


TABLE_SET = TableSet(bundled_file(Tables, TABLES_FILE, "modern_naval/tables/rules.yaml"),
                     TableFile(DataTables, bundled_data_tables))
"""Every table a modern naval ``--tables`` file may replace: the rules' and the data's."""


def bundled_tables() -> Tables:
    """The tables as bundled: the rule text's, plus labelled defaults."""
    return TABLE_SET.bundled()[Tables]


def load_tables(override: Path | None = None) -> Tables:
    """The bundled rules tables, with a user's file replacing top-level keys.

    Raises:
        DataError: A located message for every problem in the user's file.

    """
    return TABLE_SET.load(override)[Tables]


def context_tables(options: object) -> Tables:
    """The tables for a build: bundled, or replaced by the user's ``--tables`` file."""
    return load_tables(getattr(options, "tables", None))
