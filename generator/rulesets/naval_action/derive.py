"""Derived values for NAVAL ACTION, computed in one place.

Caliber factor, armor factor, AA factor, range bands, firing order, ammunition boxes,
damage control, radar and comparative strength all come from here, honouring the
per-class and per-scenario overrides.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from fractions import Fraction

from generator.core.units import quarters
from generator.rulesets.naval_action.rating import strength
from generator.rulesets.naval_action.rules import DerivationRules, load_rules
from generator.rulesets.naval_action.schema import (
    GunBattery,
    Scenario,
    Ship,
    ShipClass,
    ShipRef,
    TorpedoMount,
)
from generator.rulesets.naval_action.views import BatteryView, Party, TorpedoView, armor_label

__all__ = ["BatteryView", "Party", "ShipView", "TorpedoView", "ship_view"]


def caliber_factor(bore_in: float, rules: DerivationRules | None = None) -> int:
    """Caliber factor for a gun bore in inches (8-in gives 5)."""
    rules = rules or load_rules()
    for row in rules.caliber_factor:
        if bore_in <= row.max_bore_in:
            return row.factor
    return rules.caliber_factor[-1].factor


def armor_factor(cls: ShipClass, rules: DerivationRules | None = None) -> int:
    """Armor factor from belt, deck and type (or the class's override)."""
    if cls.armor.factor is not None:
        return cls.armor.factor
    rules = rules or load_rules()
    table = rules.armor_factor
    floor = table.unarmoured_by_type.get(cls.type.value, 1)
    if cls.armor.belt_in <= 0:
        value = floor
    else:
        value = next((r.factor for r in table.by_belt if cls.armor.belt_in <= r.max_belt_in),
                     table.by_belt[-1].factor)
        value = max(value, floor)
    if cls.armor.deck_in >= table.deck_bonus.min_deck_in:
        value += table.deck_bonus.add
    return min(value, table.maximum)


def range_bands(max_range_yd: int, rules: DerivationRules | None = None) -> tuple[int, int]:
    """Close and medium limits: 1/3 and 2/3 of maximum range, fractions rounded up."""
    rules = rules or load_rules()
    cn, cd = rules.range_bands.close
    mn, md = rules.range_bands.medium
    return math.ceil(Fraction(max_range_yd * cn, cd)), math.ceil(Fraction(max_range_yd * mn, md))


def aa_factor(cls: ShipClass, rules: DerivationRules | None = None) -> Fraction:
    """AA factor: 1 per 4 dual-purpose guns of 3in-5.25in (may be fractional per ship)."""
    if cls.overrides and cls.overrides.aa_factor is not None:
        return Fraction(cls.overrides.aa_factor).limit_denominator(4)
    rules = rules or load_rules()
    aa = rules.aa_factor
    count = sum(b.guns for b in cls.guns if b.dp and aa.min_bore_in <= b.bore_in <= aa.max_bore_in)
    count += sum(g.guns for g in cls.aa_guns if aa.min_bore_in <= g.bore_in <= aa.max_bore_in)
    return Fraction(count, aa.guns_per_point)


def damage_control(cls: ShipClass, on: dt.date, rules: DerivationRules | None = None) -> str:
    """'Good' or 'Poor' from nation and date, as the rule text dates it."""
    if cls.overrides and cls.overrides.damage_control:
        return cls.overrides.damage_control.capitalize()
    rules = rules or load_rules()
    dc = rules.damage_control
    nation = cls.nation.value
    if nation in dc.always_good:
        return "Good"
    start = dc.good_from.get(nation)
    return "Good" if start is not None and on >= start else "Poor"


def fire_step(battery: GunBattery, rules: DerivationRules | None = None) -> int:
    """Step in the gunfire sequence: new guns by caliber factor, old guns all together last."""
    if battery.fire_step is not None:
        return battery.fire_step
    rules = rules or load_rules()
    if battery.old:
        return rules.gunfire_sequence.old_guns_step
    return battery.caliber_factor or caliber_factor(battery.bore_in, rules)


def comparative_strength(cls: ShipClass, rules: DerivationRules | None = None) -> float:
    """The class's CS value, or the strength rule's measure of it (see ``rating.strength``)."""
    if cls.comparative_strength is not None:
        return cls.comparative_strength
    return strength(cls, rules or load_rules())


def radar_on(cls: ShipClass, on: dt.date | None) -> str | None:
    """The best radar fitted by ``on`` ('SG' beats 'SC'), or None."""
    fitted = [r.type for r in cls.radar if on is None or r.fitted <= on]
    if "SG" in fitted:
        return "SG"
    return "SC" if "SC" in fitted else None


@dataclass
class ShipView:
    """Everything a status sheet shows about one ship in one scenario."""

    name: str
    ship: Ship
    cls: ShipClass
    side_id: str
    side_name: str
    armor_factor: int
    batteries: list[BatteryView]
    torpedoes: list[TorpedoView]
    aa_factor: Fraction
    damage_control: str
    radar: str | None
    radar_range_yd: int | None
    comparative_strength: float
    speed_kn: float
    units_per_turn: float | None
    move_unit: str
    start_damage: str | None
    notes: list[str] = field(default_factory=list)
    victory_value: float | None = None
    submerged_kn: float | None = None

    @property
    def submerged_units_per_turn(self) -> float | None:
        """Table units a submarine moves submerged in a turn."""
        if self.submerged_kn is None or not self.units_per_turn or not self.speed_kn:
            return None
        return self.units_per_turn * self.submerged_kn / self.speed_kn

    @property
    def armor_label(self) -> str:
        """Armor factor with the old-deck 'O' prefix when it applies."""
        return armor_label(self.armor_factor, self.cls.armor.old_deck)

    def figures(self) -> Party:
        """The figures of this ship that its matchups read, as plain data (the odds index)."""
        return Party(self.name, self.cls.name, self.cls.nation.value, self.cls.type.value,
                     self.cls.armor.old_deck, self.armor_factor, self.batteries,
                     self.torpedoes, self.ship.commissioned.year)


def format_fraction(value: Fraction) -> str:
    """1.5 -> '1½', 2 -> '2', 0.25 -> '¼'; other values to two decimals."""
    written = quarters(value)
    return written if written is not None else f"{float(value):.2f}"


def ammo_boxes(rounds_per_gun: int, cf: int, rules: DerivationRules | None = None) -> int:
    """Tick boxes for a battery: turns of fire its rounds last, fractions rounded up."""
    rules = rules or load_rules()
    per_turn = rules.ammunition.rounds_per_turn_by_caliber_factor.get(cf, 10)
    return math.ceil(rounds_per_gun / per_turn)


def battery_view(battery: GunBattery, rounds_left: int | None = None, disabled: bool = False,
                 rules: DerivationRules | None = None) -> BatteryView:
    """Derive a battery's printed values."""
    rules = rules or load_rules()
    cf = battery.caliber_factor or caliber_factor(battery.bore_in, rules)
    close, medium = range_bands(battery.max_range_yd, rules)
    rounds = battery.rounds_per_gun if rounds_left is None else rounds_left
    return BatteryView(
        position=battery.position.value, guns=battery.guns, bore_in=battery.bore_in,
        caliber_factor=cf, old=battery.old, dp=battery.dp, max_range_yd=battery.max_range_yd,
        close_yd=battery.close_range_yd or close, medium_yd=battery.medium_range_yd or medium,
        fire_step=fire_step(battery, rules), rounds_per_gun=rounds,
        rounds_limited=rounds_left is not None, ammo_boxes=ammo_boxes(rounds, cf, rules),
        disabled=disabled, turrets=battery.turrets,
        arcs=list(rules.battery_arcs[battery.position.value]), note=battery.note,
    )


def torpedo_views(mount: TorpedoMount, rules: DerivationRules | None = None) -> list[TorpedoView]:
    """One view per physical mount; side mounts alternate left and right."""
    rules = rules or load_rules()
    views = []
    for i in range(mount.mounts):
        side = "C" if mount.mount == "centerline" else ("L" if i % 2 == 0 else "R")
        views.append(TorpedoView(mount.size_in, mount.tubes, side, mount.reloads, mount.two_turn,
                                 rules.torpedo_penetration[mount.size_in], mount.run_yd))
    return views


def _speeds(cls: ShipClass, scenario: Scenario | None, notes: list[str],
            ) -> tuple[float, float | None]:
    """Maximum speed (surfaced, for a submarine) in the scenario's seas, and submerged speed.

    Submarines move at the text's surface and submerged speeds, not the class's; rough
    seas cut the maximum of the sizes the seas table names (the submerged speed stays).
    """
    from generator.rulesets.naval_action import cardtables

    card = cardtables.active().card
    speed, submerged = float(cls.speed_kn), None
    if cls.type.value == "SS":
        sub = card.submarines.speed_kn
        speed = float(sub.get("surface", speed))
        submerged = float(sub["submerged"]) if "submerged" in sub else None
    band = card.seas.effect(scenario.sea_state, cls.type.value) if scenario else None
    if band is not None and scenario is not None and band.speed_factor < 1:
        cut = float(speed * band.speed_factor)
        notes.append(f"{scenario.sea_state.replace('-', ' ').capitalize()} seas: maximum "
                     f"speed {band.speed} of {speed:g} kn, {knots(cut)} kn.")
        speed = cut
    return speed, submerged


def knots(value: float) -> str:
    """A speed as printed: whole knots bare, others to one decimal (23.3)."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.1f}"


def ship_view(cls: ShipClass, ship: Ship, ref: ShipRef | None, scenario: Scenario | None,
              side_id: str = "", side_name: str = "",
              units_per_knot: float | None = None, move_unit: str = "") -> ShipView:
    """Derive everything printed for one ship (scenario may be None for catalog use)."""
    rules = load_rules()
    special = ref.special if ref else None
    on = scenario.date if scenario else None
    batteries = [
        battery_view(
            b,
            rounds_left=(special.rounds_per_gun.get(b.position) if special else None),
            disabled=bool(special and b.position in special.disabled),
            rules=rules,
        )
        for b in cls.guns
    ]
    radar = radar_on(cls, on)
    notes: list[str] = []
    speed, submerged = _speeds(cls, scenario, notes)
    if special and special.max_speed_kn is not None:
        speed = min(speed, special.max_speed_kn)
    if special and special.note:
        notes.append(special.note)
    if ship.note:
        notes.append(ship.note)
    return ShipView(
        name=ship.name, ship=ship, cls=cls, side_id=side_id, side_name=side_name,
        armor_factor=armor_factor(cls, rules), batteries=batteries,
        torpedoes=[t for m in cls.torpedoes for t in torpedo_views(m, rules)],
        aa_factor=aa_factor(cls, rules),
        damage_control=damage_control(cls, on, rules) if on else "—",
        radar=radar, radar_range_yd=rules.radar_range_yd.get(radar) if radar else None,
        comparative_strength=comparative_strength(cls, rules), speed_kn=speed,
        units_per_turn=speed * units_per_knot if units_per_knot else None, move_unit=move_unit,
        submerged_kn=submerged,
        start_damage=special.damage if special else None, notes=notes,
        victory_value=ref.victory_value if ref else None,
    )
