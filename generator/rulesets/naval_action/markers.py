"""Which markers a NAVAL ACTION scenario needs, and how many: counts from the ships.

Every ship gets its marker and a previous-turn marker; the pools (torpedo spreads,
aircraft elements, smoke, fires, damage, battery targets, submarine depth tracks) are
sized by what each side's ships carry, using the numbers in ``tables/markers.yaml``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from generator.pieces.shipmarkers import slug
from generator.rulesets.naval_action.derive import ShipView
from generator.rulesets.naval_action.markertables import MarkerTables
from generator.rulesets.naval_action.schema import AirGroup

AIRCRAFT_FIELDS = {"fighter": "fighters", "dive-bomber": "dive_bombers",
                   "torpedo-bomber": "torpedo_bombers"}


def ship_slug(view: ShipView) -> str:
    """The ship's id part; a name with no Latin letters falls back to its ASCII 'aka'."""
    for name in (view.name, *view.ship.aka):
        found = slug(name)
        if found:
            return found
    return f"{view.cls.id}-{view.cls.ships.index(view.ship) + 1}"


def elements(planes: int, per_element: int) -> int:
    """6-plane elements, fractions rounded off (half up): 14 → 2, 15 → 3, 13 → 2."""
    return int(Fraction(planes, per_element) + Fraction(1, 2))


@dataclass(frozen=True)
class Spread:
    """A torpedo-spread marker: nation, torpedo size and torpedoes in the spread."""

    nation: str
    size_in: int
    count: int


@dataclass
class SidePool:
    """Everything one side gets, in the order it is printed."""

    side_id: str
    side_name: str
    ships: list[ShipView]
    spreads: Counter[Spread] = field(default_factory=Counter)
    aircraft: Counter[tuple[str, str]] = field(default_factory=Counter)
    smoke: int = 0
    burning: int = 0
    damage: int = 0

    @property
    def submarines(self) -> list[ShipView]:
        """The side's submarines (each gets a depth track)."""
        return [v for v in self.ships if v.cls.type == "SS"]


def side_pool(side_id: str, side_name: str, views: list[ShipView], air: list[AirGroup],
              tables: MarkerTables) -> SidePool:
    """Count one side's markers from its ships and its scenario air groups.

    Args:
        side_id: The side.
        side_name: Its name.
        views: Its ships.
        air: The scenario's air groups for this side.
        tables: Marker tables (pool sizes).

    Returns:
        The side's pool.

    """
    pools = tables.marker_pools
    pool = SidePool(side_id, side_name, views)
    for view in views:
        nation = view.cls.nation.value
        for mount in view.torpedoes:
            # One spread in the water per mount per turn; a two-turn torpedo's spread
            # is still running when the next one is fired.
            pool.spreads[Spread(nation, mount.size_in, mount.tubes)] += 2 if mount.two_turn else 1
        if view.cls.aircraft is not None:
            for kind, attr in AIRCRAFT_FIELDS.items():
                count = elements(getattr(view.cls.aircraft, attr), pools.planes_per_element)
                if count:
                    pool.aircraft[(nation, kind)] += count
        pool.smoke += pools.smoke_per_ship.get(view.cls.type.value, 0)
        pool.burning += pools.burning_per_ship
        pool.damage += pools.damage_per_ship
    for group in air:
        nation = group.nation.value if group.nation else views[0].cls.nation.value
        pool.aircraft[(nation, group.type)] += max(1, elements(group.planes,
                                                               pools.planes_per_element))
    for spread in list(pool.spreads):
        for smaller in range(1, spread.count):
            reduced = Spread(spread.nation, spread.size_in, smaller)
            pool.spreads[reduced] = max(pool.spreads[reduced], pools.reduced_spreads)
    pool.smoke = max(pool.smoke, pools.smoke_minimum)
    return pool
