"""What the modern naval calculator reads: a unit and its weapons as plain values.

The class files in the one library (schema and derivation: ``schema.py``, ``derive.py``)
become these views; the rules modules (``combat.py``, ``damage.py``, ``detection.py``)
compute from them, so the two halves meet only here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Size = Literal["very-small", "small", "medium", "large", "very-large"]
"""Size class, as the text's modifier tables name it."""

Category = Literal["ship", "submarine", "aircraft", "helicopter"]

WeaponKind = Literal["gun", "rocket", "bomb", "sam", "missile", "torpedo", "ciws", "asw"]
"""gun: guns (ship or air); rocket: air rockets, rocket pods, salvo launchers; bomb: unguided
or guided bombs; sam: surface-to-air missiles; missile: anti-ship missiles; torpedo;
ciws: close-in weapon systems; asw: anti-submarine weapons other than torpedoes."""

Seeker = Literal["ARH", "SARH", "CMD (V)", "CMD (R)", "CMD (Wire)", "IR"]
"""Seeker types as the SAM and missile modifier tables name them."""


@dataclass(frozen=True)
class WeaponView:
    """One weapon (or one group of identical mounts) on a unit."""

    name: str
    kind: WeaponKind
    seeker: Seeker | None = None
    generation: int | None = None
    """1-3 for ARH/SARH; None where the table has no generation (CMD, IR, unguided)."""
    range_cm: tuple[float, float] = (0.0, 0.0)
    """(minimum, maximum) range on the table in cm."""
    damage: int = 0
    """The weapon damage modifier added to the basic damage d10."""
    targets: frozenset[str] = frozenset({"surface"})
    """What it may engage: any of surface, air, submarine, missile."""
    mounts: int = 1
    """Identical mounts firing together (the guns' "multiple mounts" modifier)."""
    ammunition: int | None = None
    """Rounds or salvoes carried, None for unlimited."""


@dataclass(frozen=True)
class UnitView:
    """One unit class (ship, submarine, aircraft or helicopter) as the rules see it."""

    id: str
    name: str
    category: Category
    size: Size
    crew: int = 0
    """Crew quality, -2..+2."""
    fcs: int | None = None
    """Fire-control system generation 1-3, None for none."""
    eo: int | None = None
    esm: int | None = None
    ecm: int | None = None
    """Sensor and countermeasure generations 1-3, None where the unit has none."""
    speed: int = 0
    """Speed rating: the most speed markers (0-6) it may carry."""
    mvr: int = 0
    """Turning: one of 2, 4, 6, 8, 10 (cm of minimum move); 0 for units that do not turn by MVR."""
    damage: int = 0
    """The target damage modifier added to the basic damage d10 when it is hit."""
    weapons: tuple[WeaponView, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Conditions:
    """The circumstances of one roll that are not properties of a class."""

    sea_state: int = 3
    fog: bool = False
    night: bool = False
    shooter_speed: int = 2
    target_speed: int = 2
    shooter_fires: int = 0
    target_damage: Literal["intact", "light", "heavy", "critical"] = "intact"
    aircraft_damage_markers: int = 0
