"""A ship as it fights in one scenario: factors parsed, speed in inches, sighting value."""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.data.datamodel import NATION_NAMES, Ship
from generator.rulesets.surface_action.charts import Charts
from generator.rulesets.surface_action.schema import (
    CARRIERS,
    Arcs,
    Scenario,
    ShipClass,
    ShipRef,
    TorpedoFactors,
    parse_arcs,
    parse_size,
    parse_torpedoes,
)


@dataclass(frozen=True)
class Battery:
    """One gun battery's weapon type and factors by arc."""

    weapon: str
    arcs: Arcs
    role: str
    note: str | None


@dataclass(frozen=True)
class ShipView:
    """Everything the sheets, markers and tables need about one ship in a scenario."""

    name: str
    side: str
    cls: ShipClass
    ship: Ship
    type: str
    nation: str
    batteries: tuple[Battery, ...]
    torpedo_weapon: str | None
    torpedoes: TorpedoFactors | None
    gun_size: int
    torpedo_size: int
    armor: int
    fire_control: str
    damage_control: int
    speed_kn: float
    speed_in: float
    night_sighting: int
    night_default: bool
    radar_in: float | None
    formation: str | None
    flagship: bool
    readied_planes: bool
    note: str | None
    overrides: tuple[str, ...] = ()
    """Ratings the class file sets by hand for this ruleset (printed as such)."""

    @property
    def carrier(self) -> bool:
        """Whether the ship reads the carrier damage chart."""
        return self.type in CARRIERS

    @property
    def navy(self) -> str:
        """The navy's name."""
        return NATION_NAMES.get(self.nation, self.nation)

    def main(self) -> tuple[Battery, ...]:
        """Main batteries (lost by M hits)."""
        return tuple(b for b in self.batteries if b.role == "main")


def speed_inches(knots: float, knots_per_in: float) -> float:
    """Knots as inches per turn, rounded down to the half inch (never below ½)."""
    return max(0.5, math.floor(knots / knots_per_in * 2) / 2)


def ship_view(cls: ShipClass, ship: Ship, ref: ShipRef | None, scenario: Scenario | None,
              side: str, charts: Charts) -> ShipView:
    """Resolve one ship for a scenario (or as built, without one).

    Args:
        cls: The ship's class.
        ship: The named ship.
        ref: The scenario's entry for her (formation, flagship, special conditions).
        scenario: The scenario (its date sets radar), or None for the class as built.
        side: The side id.
        charts: The rule numbers in force (speed scale, night sighting by navy).

    Returns:
        The resolved ship.

    """
    gun_size, torpedo_size = parse_size(cls.size)
    special = ref.special if ref else None
    speed = cls.speed_in or speed_inches(cls.facts.speed_kn, charts.movement.knots_per_in)
    if special and special.speed_in is not None:
        speed = min(speed, special.speed_in)
    radar = [r for r in cls.radar if scenario is None or r.fitted <= scenario.date]
    radar_in: float | None = max((r.range_in for r in radar), default=None)
    if special and special.radar is not None:
        radar_in = max((r.range_in for r in cls.radar), default=None) if special.radar else None
    sighting = charts.night_sighting
    night = cls.night_sighting or sighting.value(cls.nation.value)
    return ShipView(
        name=ship.name, side=side, cls=cls, ship=ship, type=cls.type.value,
        nation=cls.nation.value,
        batteries=tuple(Battery(b.weapon, parse_arcs(b.factors), b.role, b.note)
                        for b in cls.guns),
        torpedo_weapon=cls.torpedoes.weapon if cls.torpedoes else None,
        torpedoes=parse_torpedoes(cls.torpedoes.factors) if cls.torpedoes else None,
        gun_size=gun_size, torpedo_size=torpedo_size, armor=cls.armor,
        fire_control=cls.fire_control, damage_control=cls.damage_control,
        speed_kn=cls.facts.speed_kn, speed_in=speed, night_sighting=night,
        night_default=cls.night_sighting is None and sighting.is_default(cls.nation.value),
        radar_in=radar_in, formation=ref.formation if ref else None,
        flagship=ref.flagship if ref else False,
        readied_planes=bool(special and special.readied_planes),
        note=special.note if special else None,
    )
