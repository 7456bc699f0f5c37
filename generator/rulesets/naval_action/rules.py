"""NAVAL ACTION derivation rules loaded from ``tables/derivation.yaml`` and validated."""

from __future__ import annotations

import contextvars
import datetime as dt
import functools
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from generator.validation import load_model

TABLES = Path(__file__).parent / "tables"


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CaliberRow(_M):
    """Bore limit to caliber factor."""

    max_bore_in: float
    factor: int


class BeltRow(_M):
    """Belt limit to armor factor."""

    max_belt_in: float
    factor: int


class DeckBonus(_M):
    """Extra armor for a thick deck."""

    min_deck_in: float
    add: int


class ArmorRules(_M):
    """How armour becomes an armor factor."""

    unarmoured_by_type: dict[str, int]
    by_belt: list[BeltRow]
    deck_bonus: DeckBonus
    maximum: int


class RangeBands(_M):
    """Close and medium range as fractions of maximum."""

    close: tuple[int, int]
    medium: tuple[int, int]


class Ammunition(_M):
    """Rounds per gun fired in one turn, by caliber factor."""

    rounds_per_turn_by_caliber_factor: dict[int, int]


class GunfireSequence(_M):
    """Where old guns fire in the sequence."""

    old_guns_step: int


class AARules(_M):
    """Guns per AA point and the bores that count."""

    guns_per_point: int
    min_bore_in: float
    max_bore_in: float


class DamageControlRules(_M):
    """Which navies have Good damage control, and from when."""

    always_good: list[str]
    good_from: dict[str, dt.date]


class BombCaliber(_M):
    """Bomb penetration factors."""

    default: int
    us_dive_bomber: int


class DerivationRules(_M):
    """Every number the derivations use (see the YAML's comments for their origin)."""

    caliber_factor: list[CaliberRow]
    armor_factor: ArmorRules
    torpedo_penetration: dict[int, int]
    bomb_caliber: BombCaliber
    range_bands: RangeBands
    ammunition: Ammunition
    gunfire_sequence: GunfireSequence
    aa_factor: AARules
    damage_control: DamageControlRules
    comparative_strength_by_type: dict[str, float]
    radar_range_yd: dict[str, int]
    battery_arcs: dict[str, list[tuple[float, float]]]
    arc_exclusions: dict[str, list[tuple[float, float]]]


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
    return load_model(DerivationRules, path, path.name)
