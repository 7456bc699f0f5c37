"""Matchups: every weapon of a ship against every enemy, resolved by the calculator.

Targets whose armor label is the same give identical odds, so enemies are grouped by
armor. A group is named by class (never by ship) only where the scenario makes the
enemy's order of battle known; otherwise by its armor value alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from generator.rules.targets import alike, group_enemies
from generator.rulesets.naval_action.odds import Calculator, Damage, Face
from generator.rulesets.naval_action.views import (
    BANDS,
    Band,
    BatteryView,
    Party,
    TorpedoView,
)

if TYPE_CHECKING:  # the odds index reads matchups without the schema behind ShipView
    from generator.rulesets.naval_action.derive import ShipView


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
        return ", ".join(self.classes) if self.known else f"any target of armor {self.armor_label}"


@dataclass(frozen=True)
class BandOdds:
    """One battery against one target group at one range band."""

    band: Band
    accuracy: int
    faces: tuple[Face, ...]
    damage: Damage


@dataclass(frozen=True)
class GunMatchup:
    """A battery (or identical batteries) against a target group at every range band."""

    battery: BatteryView
    target: TargetGroup
    differential: int
    bands: dict[Band, BandOdds]
    sharing: tuple[BatteryView, ...] = ()  # every battery whose row this is

    @property
    def label(self) -> str:
        """'BOW 2×5in'; 'BOW/STN 2×5in' or 'BOW 4×, STN 2× 4in' for batteries sharing it.

        A battery rolls once whatever its gun count, so batteries of one bore and
        caliber factor read the same row.
        """
        same = self.sharing or (self.battery,)
        bore = f"{self.battery.bore_in:g}in"
        if len({b.guns for b in same}) == 1:
            return f"{'/'.join(b.position for b in same)} {same[0].guns}×{bore}"
        return ", ".join(f"{b.position} {b.guns}×" for b in same) + f" {bore}"


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
    sisters: tuple[str, ...] = ()  # every ship this page serves (sisters with one fit)

    @property
    def names(self) -> tuple[str, ...]:
        """The ships this page is for."""
        return self.sisters or (self.firer.name,)


def target_groups(enemies: Sequence[Party], known: bool = True) -> list[TargetGroup]:
    """Enemy ships grouped by armor label, strongest armour first.

    With ``known`` false (the scenario keeps the enemy's order of battle hidden) the
    groups print their armor value only, never a class name.
    """
    groups = group_enemies(enemies, lambda view: (view.armor_factor, view.old_deck),
                           lambda view: f"{view.class_name} class {view.ship_type}")
    return [TargetGroup(*g.values, g.classes, tuple(v.name for v in g.members), known)
            for g in sorted(groups, key=lambda g: (-g.values[0], g.values[1]))]


def gun_matchup(calc: Calculator, firer: Party, battery: BatteryView, target: TargetGroup,
                sea_state: str) -> GunMatchup:
    """One battery against one target group at close, medium and long range."""
    diff = battery.caliber_factor - target.armor_factor
    bands = {}
    for band in BANDS:
        acc = calc.accuracy(band, firer.nation, firer.ship_type, sea_state)
        faces, damage = calc.gunfire(acc, diff, band, target.old)
        bands[band] = BandOdds(band, acc, faces, damage)
    return GunMatchup(battery, target, diff, bands)


def torpedo_matchups(calc: Calculator, firer: Party, target: TargetGroup,
                     year: int) -> list[TorpedoMatchup]:
    """Each distinct torpedo mount of the firer against a target group."""
    kinds: dict[tuple[int, int, bool], list[TorpedoView]] = {}
    for mount in firer.torpedoes:
        kinds.setdefault((mount.size_in, mount.tubes, mount.two_turn), []).append(mount)
    duds = calc.torpedo_duds(firer.nation, year)
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
                  year: int, known: bool = True,
                  groups: list[TargetGroup] | None = None) -> ShipMatchups:
    """Every weapon of ``firer`` against every enemy target group (named when ``known``).

    The grid is computed once per firing fit and target set for the calculator's life
    (``Calculator.remember``): sisters with one fit, and the same ship in a side's
    packet and the tables, reuse it. ``groups`` (``target_groups(enemies, known)``)
    lets a caller group a side's enemies once for all its ships.
    """
    if groups is None:
        groups = target_groups([e.figures() for e in enemies], known)
    key = (fit_key(firer), tuple(groups), sea_state, year)
    grid = calc.remember("grid", key, lambda: _compute(calc, firer, groups, sea_state, year))
    return grid if grid.firer is firer else replace(grid, firer=firer)


def side_matchups(calc: Calculator, firers: list[ShipView], enemies: list[ShipView],
                  sea_state: str, year: int, known: bool = True) -> list[ShipMatchups]:
    """Every firing ship's matchups against one set of enemies, grouped once."""
    groups = target_groups([e.figures() for e in enemies], known)
    return [ship_matchups(calc, v, enemies, sea_state, year, known, groups) for v in firers]


def fit_key(firer: ShipView) -> tuple[object, ...]:
    """Everything of the firing ship that its matchup grid depends on (not its name).

    Sisters armed alike have equal keys; a disabled battery or a different torpedo
    mount (even its reloads, which the page's sharing compares) makes another.
    """
    cls = firer.cls
    return (cls.id, cls.name, cls.nation.value, cls.type.value,
            tuple((b.position, b.guns, *_battery_odds_key(b))
                  for b in firer.batteries if not b.disabled),
            tuple(repr(t) for t in firer.torpedoes))


def _compute(calc: Calculator, firer: ShipView, groups: list[TargetGroup], sea_state: str,
             year: int) -> ShipMatchups:
    """The grid itself: what ``ship_matchups`` remembers."""
    # Batteries of one bore and caliber factor (different arcs) give identical rows: one
    # row names every position.
    alike: dict[tuple[object, ...], list[BatteryView]] = {}
    for b in firer.batteries:
        if not b.disabled:
            alike.setdefault(_battery_odds_key(b), []).append(b)
    figures = firer.figures()
    guns = [replace(gun_matchup(calc, figures, same[0], g, sea_state),
                    sharing=tuple(same))
            for same in alike.values() for g in groups]
    torps = [m for g in groups for m in torpedo_matchups(calc, figures, g, year)]
    applied = []
    for band in BANDS:
        for mod, value in calc.auto_modifiers(band, firer.cls.nation.value,
                                              firer.cls.type.value, sea_state):
            text = f"No. {mod.number} {mod.label} ({value:+d})"
            if mod.auto and mod.auto.range is None and text not in applied:
                applied.append(text)
    return ShipMatchups(firer, guns, torps, applied)


def _battery_odds_key(b: BatteryView) -> tuple[object, ...]:
    """What a battery's printed row depends on, besides its position."""
    return (b.bore_in, b.caliber_factor, b.old)


def _page_key(page: ShipMatchups) -> tuple[object, ...]:
    """Everything a matchup page prints except the firing ship's name."""
    firer = page.firer
    return (firer.cls.id, firer.cls.nation.value, firer.cls.type.value,
            repr([(m.label, m.target, m.differential, m.bands) for m in page.guns]),
            repr([(m.mount, m.mounts, m.sides, m.target, m.differential, m.faces, m.beam,
                   m.bow_stern) for m in page.torpedoes]),
            tuple(page.applied))


def share_pages(pages: list[ShipMatchups]) -> list[ShipMatchups]:
    """Sisters of one class with the same fit share one page, naming every ship on it.

    Pages are kept in roster order of their first ship.
    """
    # Pages of one remembered grid share its row lists, and so their key: build each
    # key once (the pages are alive throughout, so the ids stay theirs).
    keys: dict[tuple[int, int], tuple[object, ...]] = {}

    def key(page: ShipMatchups) -> tuple[object, ...]:
        ids = (id(page.guns), id(page.torpedoes))
        if ids not in keys:
            keys[ids] = _page_key(page)
        return keys[ids]

    return [replace(group[0], sisters=tuple(p.firer.name for p in group))
            for group in alike(pages, key)]


def expected_text(value: Fraction) -> str:
    """Expected damage steps for print, two decimals ('0' when nothing can happen)."""
    return "0" if value == 0 else f"{float(value):.2f}"
