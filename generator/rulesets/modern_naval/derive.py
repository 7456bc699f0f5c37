"""From a class (or aircraft type) and the tables in force to the views the rules read.

Every game value the rule text leaves to the ship and weapon data tables is computed here
by the rules in ``tables/rating.yaml`` from the class's sourced facts, unless the class
file sets it by hand; ``Unit.defaults`` names the values that came from the rules, so the
cards can print them as quarterdeck DEFAULTs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.data.datamodel import NATION_NAMES
from generator.data.shipclass import ModernSystem, ModernWeapon
from generator.rulesets.modern_naval.model import Category, UnitView, WeaponView
from generator.rulesets.modern_naval.schema import (
    WEAPON_ID,
    AircraftClass,
    Band,
    DataTables,
    ModernClass,
    Overrides,
    RatingRules,
    WeaponSpec,
    reach_km,
)
from generator.rulesets.modern_naval.tables import TABLE_SET
from generator.rulesets.modern_naval.tables import bundled_data_tables as bundled_tables

TABLES = Path(__file__).parent / "tables"
ROLES = ("fcs", "eo", "esm", "ecm")


def load_tables(override: Path | None = None) -> DataTables:
    """The bundled data tables, with a user's ``--tables`` file replacing top-level keys.

    Raises:
        DataError: Every problem in the user's file, located.

    """
    return TABLE_SET.load(override)[DataTables]


def band(bands: Sequence[Band], value: float, above: Any) -> Any:
    """The value of the first band whose limit ``value`` is below, else ``above``."""
    return next((b.value for b in bands if value < b.below), above)


def generation(systems: Sequence[ModernSystem], role: str, rules: RatingRules) -> int | None:
    """The generation of a unit's newest set in one role, by its year; None without one."""
    years = [s.year for s in systems if s.role == role]
    if not years:
        return None
    return int(band(rules.generation_year, max(years), rules.generation_above))


def range_cm(spec: WeaponSpec, rules: RatingRules) -> tuple[float, float]:
    """A weapon's (minimum, maximum) range in cm: by hand, else km at the ground scale."""
    if spec.range_cm is not None:
        return (spec.range_cm[0], spec.range_cm[1])
    per_km = 1000 / rules.metres_per_cm
    low, high = (float(round(km * per_km)) for km in reach_km(spec))
    return (low, high)


def weapon_damage(spec: WeaponSpec, rules: RatingRules) -> int:
    """A weapon's damage modifier: by hand, else by its warhead weight (0 without one)."""
    if spec.damage is not None:
        return spec.damage
    if spec.warhead_kg is None:
        return 0
    return int(band(rules.weapon_damage_kg, spec.warhead_kg, rules.weapon_damage_above))


def weapon_view(fit: ModernWeapon, spec: WeaponSpec, rules: RatingRules) -> WeaponView:
    """One weapon fit as the calculator reads it."""
    return WeaponView(name=spec.name, kind=spec.kind, seeker=spec.seeker,  # type: ignore[arg-type]
                      generation=spec.generation, range_cm=range_cm(spec, rules),
                      damage=weapon_damage(spec, rules), targets=frozenset(spec.targets),
                      mounts=fit.launchers, ammunition=fit.rounds)


@dataclass(frozen=True)
class Unit:
    """One unit in play: its view, where it came from, and which values are DEFAULTs."""

    view: UnitView
    class_id: str
    class_name: str
    navy: str
    side: str
    defaults: frozenset[str]
    """Ratings computed by the rules (DEFAULTs); the others were set by hand."""
    facts: str
    """The sourced facts the ratings came from, in one line."""
    specs: tuple[WeaponSpec, ...]
    note: str | None = None
    altitude: str | None = None
    """An aircraft's altitude at the start, as the scenario gives it (None: not given)."""


def _ship_values(cls: ModernClass, rules: RatingRules) -> dict[str, Any]:
    return {
        "size": band(rules.ship_size_t, cls.full_load_t, rules.ship_size_above),
        "damage": band(rules.ship_damage_t, cls.full_load_t, rules.ship_damage_above),
        "speed": min(6, math.floor(cls.speed_kn / rules.knots_per_marker)),
        "mvr": band(rules.mvr_length_m, cls.length_m, rules.mvr_above),
        **{role: generation(cls.systems, role, rules) for role in ROLES},
    }


def _aircraft_values(cls: AircraftClass, rules: RatingRules) -> dict[str, Any]:
    return {
        "size": band(rules.aircraft_size_kg, cls.max_takeoff_kg, rules.aircraft_size_above),
        "damage": band(rules.aircraft_damage_kg, cls.max_takeoff_kg,
                       rules.aircraft_damage_above),
        "speed": rules.aircraft_speed, "mvr": 0,
        **{role: generation(cls.systems, role, rules) for role in ROLES},
    }


def _facts_line(cls: ModernClass | AircraftClass) -> str:
    if isinstance(cls, ModernClass):
        return (f"{cls.full_load_t:,} t full load · {cls.length_m:g} m · "
                f"{cls.speed_kn:g} kn" + (f" · complement {cls.complement}"
                                          if cls.complement else ""))
    return (f"{cls.max_takeoff_kg:,.0f} kg max take-off · {cls.speed_kn:g} kn · "
            f"in service {cls.service_year}")


def unit(cls: ModernClass | AircraftClass, name: str, side: str, tables: DataTables,
         crew: int | None = None, weapons: Sequence[ModernWeapon] | None = None,
         note: str | None = None, altitude: str | None = None) -> Unit:
    """Rate one unit of a class with the tables in force.

    Args:
        cls: The class (ship or submarine) or the aircraft type.
        name: The ship's name or the aircraft's call sign.
        side: The side id.
        tables: The weapons table and rating rules in force.
        crew: The scenario's crew quality for the unit (None: the class's, else default).
        weapons: The scenario's load for the unit, replacing the class's.
        note: Printed on the card.
        altitude: An aircraft's altitude at the start (printed on its card).

    Raises:
        KeyError: A weapon id the weapons table lacks (``check`` reports these first).

    """
    rules = tables.rating
    hand: Overrides
    category: Category
    if isinstance(cls, ModernClass):
        values = _ship_values(cls, rules)
        hand = cls.overrides
        category = cls.category
    else:
        values = _aircraft_values(cls, rules)
        hand = cls.ratings
        category = cls.category
    values["crew"] = rules.crew_default
    set_by_hand = {k for k in hand.model_fields_set if k not in ("weapons", "notes")}
    for key in set_by_hand:
        value = getattr(hand, key)
        values[key] = None if key in ROLES and value == 0 else value
    defaults = set(values) - set_by_hand
    if crew is not None:
        values["crew"] = crew
        defaults.discard("crew")
    fits = list(weapons if weapons is not None
                else hand.weapons if hand.weapons is not None else cls.weapons)
    specs = tuple(tables.weapons[f.weapon] for f in fits)
    view = UnitView(id=cls.id, name=name, category=category, size=values["size"],
                    crew=values["crew"], fcs=values["fcs"], eo=values["eo"],
                    esm=values["esm"], ecm=values["ecm"], speed=values["speed"],
                    mvr=values["mvr"], damage=values["damage"],
                    weapons=tuple(weapon_view(f, s, rules) for f, s in zip(fits, specs,
                                                                            strict=True)))
    return Unit(view, cls.id, cls.name, NATION_NAMES.get(cls.nation.value, cls.nation.value),
                side, frozenset(defaults), _facts_line(cls), specs, note, altitude)


def weapon_ids(fits: Sequence[ModernWeapon]) -> list[str]:
    """The weapon ids of a list of fits (for the cross-checks)."""
    return [f.weapon for f in fits]


__all__ = ["WEAPON_ID", "Unit", "bundled_tables", "load_tables", "unit"]
