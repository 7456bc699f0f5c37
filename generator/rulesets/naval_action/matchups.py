"""Matchups: every weapon of a ship against every enemy, resolved by the calculator.

Targets whose armor label is the same give identical odds, so enemies are grouped by
armor. A group is named by class (never by ship) only where the scenario makes the
enemy's order of battle known; otherwise by its armor value alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from generator.rulesets.naval_action.cardtables import BANDS, Band
from generator.rulesets.naval_action.derive import BatteryView, ShipView, TorpedoView
from generator.rulesets.naval_action.odds import Calculator, Damage, Face


@dataclass(frozen=True)
class TargetGroup:
    """Enemy ships that share an armor label (so every odds figure is the same)."""

    armor_factor: int
    old: bool
    classes: tuple[str, ...]  # "New Orleans class CA", ...
    ships: tuple[str, ...]    # names (referee use only)
    known: bool = True        # may the page name the classes (the scenario says so)?

    @property
    def armor_label(self) -> str:
        """'5' or 'O5'."""
        return ("O" if self.old else "") + str(self.armor_factor)

    @property
    def label(self) -> str:
        """Class names for print, or only the target value when the enemy is unknown."""
        if not self.known:
            return f"any target of armor {self.armor_label}"
        return ", ".join(self.classes)


@dataclass(frozen=True)
class BandOdds:
    """One battery against one target group at one range band."""

    band: Band
    accuracy: int
    faces: tuple[Face, ...]
    damage: Damage


@dataclass(frozen=True)
class GunMatchup:
    """A battery against a target group at every range band."""

    battery: BatteryView
    target: TargetGroup
    differential: int
    bands: dict[Band, BandOdds]


@dataclass(frozen=True)
class TorpedoMatchup:
    """A torpedo mount type (all mounts alike) against a target group."""

    mount: TorpedoView
    mounts: int
    sides: str
    target: TargetGroup
    differential: int
    faces: tuple[Face, ...]
    beam: Damage
    bow_stern: Damage


@dataclass(frozen=True)
class ShipMatchups:
    """Everything one firing ship's matchup page shows."""

    firer: ShipView
    guns: list[GunMatchup]
    torpedoes: list[TorpedoMatchup]
    applied: list[str]  # automatic modifiers applied, e.g. "No. 11 Italian firing ship −1"


def target_groups(enemies: list[ShipView], known: bool = True) -> list[TargetGroup]:
    """Enemy ships grouped by armor label, strongest armour first.

    With ``known`` false (the scenario keeps the enemy's order of battle hidden) the
    groups print their armor value only, never a class name.
    """
    groups: dict[tuple[int, bool], tuple[list[str], list[str]]] = {}
    for view in enemies:
        key = (view.armor_factor, view.cls.armor.old_deck)
        classes, ships = groups.setdefault(key, ([], []))
        label = f"{view.cls.name} class {view.cls.type.value}"
        if label not in classes:
            classes.append(label)
        ships.append(view.name)
    return [TargetGroup(af, old, tuple(c), tuple(s), known)
            for (af, old), (c, s) in sorted(groups.items(), key=lambda kv: (-kv[0][0], kv[0][1]))]


def gun_matchup(calc: Calculator, firer: ShipView, battery: BatteryView, target: TargetGroup,
                sea_state: str) -> GunMatchup:
    """One battery against one target group at close, medium and long range."""
    diff = battery.caliber_factor - target.armor_factor
    bands = {}
    for band in BANDS:
        acc = calc.accuracy(band, firer.cls.nation.value, firer.cls.type.value, sea_state)
        faces, damage = calc.gunfire(acc, diff, band, target.old)
        bands[band] = BandOdds(band, acc, faces, damage)
    return GunMatchup(battery, target, diff, bands)


def torpedo_matchups(calc: Calculator, firer: ShipView, target: TargetGroup,
                     year: int) -> list[TorpedoMatchup]:
    """Each distinct torpedo mount of the firer against a target group."""
    kinds: dict[tuple[int, int, bool], list[TorpedoView]] = {}
    for mount in firer.torpedoes:
        kinds.setdefault((mount.size_in, mount.tubes, mount.two_turn), []).append(mount)
    duds = calc.torpedo_duds(firer.cls.nation.value, year)
    out = []
    for mounts in kinds.values():
        first = mounts[0]
        diff = first.penetration - target.armor_factor
        faces, beam = calc.torpedo(first.tubes, diff, duds)
        _, ends = calc.torpedo(first.tubes, diff, duds, bow_or_stern=True)
        sides = "/".join(sorted({m.side for m in mounts}))
        out.append(TorpedoMatchup(first, len(mounts), sides, target, diff, faces, beam, ends))
    return out


def ship_matchups(calc: Calculator, firer: ShipView, enemies: list[ShipView], sea_state: str,
                  year: int, known: bool = True) -> ShipMatchups:
    """Every weapon of ``firer`` against every enemy target group (named when ``known``)."""
    groups = target_groups(enemies, known)
    guns = [gun_matchup(calc, firer, b, g, sea_state)
            for b in firer.batteries if not b.disabled for g in groups]
    torps = [m for g in groups for m in torpedo_matchups(calc, firer, g, year)]
    applied = []
    for band in BANDS:
        for mod, value in calc.auto_modifiers(band, firer.cls.nation.value,
                                              firer.cls.type.value, sea_state):
            text = f"No. {mod.number} {mod.label} ({value:+d})"
            if mod.auto and mod.auto.range is None and text not in applied:
                applied.append(text)
    return ShipMatchups(firer, guns, torps, applied)


def expected_text(value: Fraction) -> str:
    """Expected damage steps for print, two decimals ('0' when nothing can happen)."""
    return "0" if value == 0 else f"{float(value):.2f}"
