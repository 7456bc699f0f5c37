"""NAVAL ACTION derivation rules loaded from ``tables/derivation.yaml`` and validated."""

from __future__ import annotations

import contextvars
import datetime as dt
import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, ConfigDict, Field, field_validator, model_validator

from generator.core.errors import Problem
from generator.data.datamodel import Nation, Strict
from generator.data.shipclass import ShipType
from generator.data.validation import key_problems, load_model, name_problem
from generator.data.yamlsource import SourceDoc
from generator.rules.defaults import Defaults
from generator.rulesets.naval_action.schema import SHIP_TYPES, NAType, Position

TABLES = Path(__file__).parent / "tables"


# What the game can use: a factor is 1 to 12 (the penetration columns reach +7 above an
# armor of 1 and a class may override a factor up to 12), thicknesses and bores are inches.
Factor = Annotated[int, Field(ge=1, le=12)]
Inches = Annotated[float, Field(gt=0, le=30)]
Positive = Annotated[int, Field(ge=1, le=100)]
TORPEDO_SIZES = (18, 21, 24)
NATIONS = tuple(n.value for n in Nation)


def increasing(values: Sequence[float], what: str) -> None:
    """Refuse limits the rules read in order ("first row whose limit ...") out of order."""
    if any(b <= a for a, b in zip(values, values[1:], strict=False)):
        shown = ", ".join(f"{v:g}" for v in values)
        raise ValueError(f"expected {what} in strictly increasing order, not {shown}")


class CaliberRow(Strict):
    """Bore limit to caliber factor."""

    max_bore_in: Inches
    factor: Factor


class BeltRow(Strict):
    """Belt limit to armor factor."""

    max_belt_in: float = Field(ge=0, le=30)
    factor: Factor


class DeckBonus(Strict):
    """Extra armor for a thick deck."""

    min_deck_in: float = Field(ge=0, le=30)
    add: int = Field(ge=0, le=5)


class ArmorRules(Strict):
    """How armour becomes an armor factor."""

    unarmoured_by_type: dict[str, Factor]
    by_belt: list[BeltRow] = Field(min_length=1, max_length=20)
    deck_bonus: DeckBonus
    maximum: Factor

    @field_validator("by_belt")
    @classmethod
    def _ordered(cls, value: list[BeltRow]) -> list[BeltRow]:
        increasing([r.max_belt_in for r in value], "belt limits (max_belt_in)")
        return value


class RangeBands(Strict):
    """Close and medium range as fractions of maximum."""

    close: tuple[Positive, Positive]
    medium: tuple[Positive, Positive]

    @model_validator(mode="after")
    def _nested(self) -> RangeBands:
        close, medium = self.close[0] / self.close[1], self.medium[0] / self.medium[1]
        if not close < medium <= 1:
            raise ValueError("expected close range a smaller share of the maximum than "
                             "medium range, and medium at most the whole (1/1)")
        return self


class Ammunition(Strict):
    """Rounds per gun fired in one turn, by caliber factor."""

    rounds_per_turn_by_caliber_factor: dict[Factor, Annotated[int, Field(ge=1, le=1000)]]


class GunfireSequence(Strict):
    """Where old guns fire in the sequence."""

    old_guns_step: int = Field(ge=1, le=99)


class AARules(Strict):
    """Guns per AA point and the bores that count."""

    guns_per_point: Positive
    min_bore_in: Inches
    max_bore_in: Inches

    @model_validator(mode="after")
    def _span(self) -> AARules:
        if self.max_bore_in < self.min_bore_in:
            raise ValueError("expected max_bore_in at least min_bore_in")
        return self


class DamageControlRules(Strict):
    """Which navies have Good damage control, and from when."""

    always_good: list[str] = Field(max_length=len(NATIONS))
    good_from: dict[str, dt.date]


def _arc(value: tuple[float, float]) -> tuple[float, float]:
    if not value[0] < value[1] <= value[0] + 360:
        raise ValueError("expected an arc [from, to] clockwise, 'to' after 'from' and "
                         "less than a full circle on")
    return value


Bearing = Annotated[float, Field(ge=-360, le=720)]
Arc = Annotated[tuple[Bearing, Bearing], AfterValidator(_arc)]


class BombCaliber(Strict):
    """Bomb penetration factors."""

    default: Factor
    us_dive_bomber: Factor


class StrengthReference(Strict):
    """The ship the strength rule is anchored on, and the CS she rates."""

    cs: float = Field(gt=0, le=100)
    broadside_lb: float = Field(gt=0, le=100_000)
    belt_in: float = Field(ge=0, le=30)
    speed_kn: float = Field(gt=0, le=45)


class StrengthPowers(Strict):
    """The power firepower is raised to, up to the reference ship's and above it."""

    up_to_reference: float = Field(gt=0, le=2)
    above_reference: float = Field(gt=0, le=2)


class StrengthRule(Strict):
    """How Comparative Strength is measured from a class's facts (applied in rating.py)."""

    reference: StrengthReference
    shell_lb_per_cubic_inch: float = Field(gt=0, le=10)
    strike_aircraft_lb: float = Field(ge=0, le=10_000)
    firepower_power: StrengthPowers
    belt_in_per_step: float = Field(gt=0, le=100)
    speed_power: float = Field(ge=0, le=2)
    step: float = Field(gt=0, le=10)
    minimum: float = Field(gt=0, le=100)


def _bores_rise(value: list[CaliberRow]) -> list[CaliberRow]:
    increasing([r.max_bore_in for r in value], "bore limits (max_bore_in)")
    return value


class DerivationRules(Strict):
    """Every number the derivations use (see the YAML's comments for their origin)."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, populate_by_name=True)
    defaults: Defaults = Field(default_factory=list)

    caliber_factor: Annotated[list[CaliberRow], AfterValidator(_bores_rise)] = Field(
        min_length=1, max_length=20)
    armor_factor: ArmorRules
    torpedo_penetration: dict[int, Factor]
    bomb_caliber: BombCaliber
    range_bands: RangeBands
    ammunition: Ammunition
    gunfire_sequence: GunfireSequence
    aa_factor: AARules
    # Its own key: the Action Card's damage-control table is ``damage_control``.
    damage_control: DamageControlRules = Field(alias="damage_control_navies")
    comparative_strength_by_type: dict[str, Annotated[float, Field(gt=0, le=100)]]
    comparative_strength: StrengthRule
    # A default keeps older --tables files (written before this key) valid.
    strength_leaves_out: list[NAType] = Field(
        default_factory=lambda: [ShipType.AK, ShipType.AP], max_length=len(SHIP_TYPES))
    radar_range_yd: dict[str, Annotated[int, Field(ge=1, le=100_000)]]
    battery_arcs: dict[str, list[Arc]]
    arc_exclusions: dict[str, list[Arc]]


# Which names each keyed table must cover, because the derivations look every one up.
COVERED: dict[str, tuple[tuple[Any, ...], str, bool]] = {
    "battery_arcs": (tuple(p.value for p in Position), "battery position", True),
    "arc_exclusions": (tuple(p.value for p in Position), "battery position", True),
    "comparative_strength_by_type": (SHIP_TYPES.codes(), "ship type", True),
    "unarmoured_by_type": (SHIP_TYPES.codes(), "ship type", False),
    "torpedo_penetration": (TORPEDO_SIZES, "torpedo size in inches", True),
    "radar_range_yd": (("SC", "SG"), "radar type", True),
}


def coverage_problems(tables: dict[str, Any], doc: SourceDoc) -> list[Problem]:
    """Keyed derivation tables that name unknown keys or lack one the rules look up.

    Args:
        tables: Top-level key to validated table (a user's file, or the bundled file).
        doc: The file, for positions.

    Returns:
        The located problems.

    """
    problems: list[Problem] = []
    for key, (expected, what, complete) in COVERED.items():
        loc: tuple[str, ...] = (key,)
        table = tables.get(key)
        if key == "unarmoured_by_type" and isinstance(tables.get("armor_factor"), ArmorRules):
            loc, table = ("armor_factor", key), tables["armor_factor"].unarmoured_by_type
        if isinstance(table, dict):
            problems += key_problems(doc, loc, table, expected, what, complete=complete)
    dc = tables.get("damage_control_navies", tables.get("damage_control"))
    if isinstance(dc, DamageControlRules):
        key = "damage_control_navies"
        for index, code in enumerate(dc.always_good):
            if code not in NATIONS:
                problems.append(_unknown_navy(doc, (key, "always_good", index), code))
        problems += key_problems(doc, (key, "good_from"), dc.good_from, NATIONS, "navy code",
                                 complete=False)
    return problems


def _unknown_navy(doc: SourceDoc, loc: tuple[Any, ...], code: str) -> Problem:
    return name_problem(doc, loc, code, NATIONS, "a navy code")


ACTIVE: contextvars.ContextVar[DerivationRules | None] = contextvars.ContextVar(
    "derivation_rules", default=None)
"""Rules replaced for the current build by a user's ``--tables`` file (see cardtables)."""


def load_rules() -> DerivationRules:
    """The derivation tables in force: a user's replacement, else the bundled file.

    Raises:
        DataError: With every problem, located, if the bundled file is invalid.

    """
    return ACTIVE.get() or bundled_rules()


@functools.cache
def bundled_rules(path: Path = TABLES / "derivation.yaml") -> DerivationRules:
    """Load and validate the bundled derivation tables (cached).

    Args:
        path: The YAML file.

    Returns:
        The validated rules.

    Raises:
        DataError: With every problem, located, if the file is invalid.

    """
    return load_model(DerivationRules, path, path.name,
                      check=lambda rules, doc: coverage_problems(_by_key(rules), doc))


def _by_key(rules: DerivationRules) -> dict[str, Any]:
    """The rules keyed as the file keys them (aliases where set)."""
    return {(info.alias or name): getattr(rules, name)
            for name, info in DerivationRules.model_fields.items()}
