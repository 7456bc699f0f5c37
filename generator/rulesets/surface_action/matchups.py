"""Matchups: what each ship's guns and torpedoes do to each enemy at each range band.

Enemies with the same target values (class, size, armor, type) are grouped, so a page
lists "Fubuki class (Shirayuki, Hatsuyuki...)" once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from generator.core.suggest import spellings
from generator.rules import dice
from generator.rules.oddsindex import Member
from generator.rules.targets import group_enemies
from generator.rulesets.surface_action.ask import (
    AT_LEAST,
    Fighter,
    OddsIndex,
    ScenarioOdds,
    Shown,
)
from generator.rulesets.surface_action.charts import Charts
from generator.rulesets.surface_action.derive import ShipView
from generator.rulesets.surface_action.odds import Kind, Shot, band_starts, effective_hits, shot
from generator.rulesets.surface_action.schema import Scenario, Weapons


@dataclass(frozen=True)
class Target:
    """A group of enemy ships with the same target values."""

    label: str
    gun_size: int
    torpedo_size: int
    armor: int


@dataclass(frozen=True)
class Cell:
    """One band's result for a number of factors against one target."""

    shot: Shot | None
    at_least: tuple[Fraction, ...]
    expected: Fraction


@dataclass(frozen=True)
class Line:
    """One weapon and arc (or torpedo set) against one target, band by band."""

    weapon: str
    arc: str
    factors: int
    target: Target
    cells: tuple[Cell, ...]


def targets(enemies: Sequence[ShipView], known: bool = True) -> list[Target]:
    """Enemy ships grouped by their target values (size and armor), in roster order.

    Groups are labelled by class, never by ship, and by class only where the scenario
    makes the enemy's order of battle known (``known``); otherwise by their target
    values alone.
    """
    out = []
    for group in group_enemies(enemies, lambda v: (v.gun_size, v.torpedo_size, v.armor),
                               lambda v: f"{v.cls.name} class {v.type}"):
        gun, torp, armor = group.values
        named = group.label(known, "any target of these values")
        out.append(Target(f"{gun}/{torp} {armor:+d}: {named}", gun, torp, armor))
    return out


def cell(kind: Kind, weapon: str, factors: int, band: int, size: int, armor: int,
         weapons: Weapons, night: bool, charts: Charts, reach_in: float | None = None,
         ) -> Cell:
    """Effective hits from ``factors`` of a weapon at one band against one target.

    ``reach_in`` is the farthest the target can be engaged (at night, the scenario's
    sighting range for a target neither burning nor firing): a band starting there or
    beyond is out of reach.
    """
    table = weapons.guns if kind == "gunfire" else weapons.torpedoes
    target = shot(kind, table[weapon], band, size, armor, night=night, weapons=weapons,
                  charts=charts)
    if reach_in is not None and band_starts(weapons.bands_in)[band] >= reach_in:
        target = None
    if target is None or factors == 0:
        return Cell(target, tuple(Fraction(0) for _ in AT_LEAST), Fraction(0))
    hits = effective_hits(factors, target)
    dist: dict[int, Fraction] = dice.distribution(hits)
    return Cell(target, tuple(sum((p for n, p in dist.items() if n >= k), Fraction(0))
                              for k in AT_LEAST), dice.mean(hits))


def arcs(view: ShipView) -> list[tuple[str, str, int]]:
    """(weapon, arc label, factors) for every battery arc with factors, bow to stern."""
    out = []
    for battery in view.batteries:
        a = battery.arcs
        if a.bow and a.bow == a.stern:
            named = [("bow or stern", a.bow), ("broadside", a.side)]
        else:
            named = [("bow", a.bow), ("broadside", a.side), ("stern", a.stern)]
        out += [(battery.weapon, arc, n) for arc, n in named if n]
    return out


def ship_lines(view: ShipView, enemies: Sequence[ShipView], weapons: Weapons, night: bool,
               charts: Charts, reach_in: float | None = None, known: bool = True,
               ) -> list[Line]:
    """Every gun arc and torpedo set of ``view`` against every enemy group.

    ``reach_in``: at night, the scenario's sighting range, beyond which neither guns nor
    torpedoes may engage a target that is not burning (None by day).
    """
    bands = range(len(weapons.bands_in))
    lines = []
    groups = targets(enemies, known)
    for weapon, arc, factors in arcs(view):
        for target in groups:
            lines.append(Line(weapon, arc, factors, target, tuple(
                cell("gunfire", weapon, factors, b, target.gun_size, target.armor, weapons,
                     night, charts, reach_in) for b in bands)))
    if view.torpedoes is not None and view.torpedo_weapon is not None:
        factors = view.torpedoes.bearing()
        for target in groups:
            for arc, size in (("beam", target.torpedo_size),
                              ("bow/stern-on", charts.torpedo.bow_stern_size)):
                lines.append(Line(view.torpedo_weapon, arc, factors, target, tuple(
                    cell("torpedo", view.torpedo_weapon, factors, b, size, target.armor,
                         weapons, night, charts, reach_in) for b in bands)))
    return lines


# ---- the odds index `quarterdeck odds` keeps: every line of every scenario ---------------

Resolve = Callable[[str, Charts], tuple[Scenario, dict[str, list[ShipView]]]]
"""A scenario's id to the scenario and its sides' ship views (the ruleset's own)."""


def odds_index(charts: Charts, scenarios: Sequence[str], resolve: Resolve) -> OddsIndex:
    """The answers of ``scenarios`` now, and of any other scenario when it is asked.

    Built here, where the lines are computed, so ``ask`` (which answers from a cached
    index) imports nothing heavy; the ruleset passes how a scenario's ships are found.
    """

    def compute(scenario_id: str) -> ScenarioOdds:
        found, views = resolve(scenario_id, charts)
        return _scenario_odds(found, views, charts)

    index = OddsIndex({}, compute)
    for sid in scenarios:
        index.scenarios[sid] = compute(sid)
    return index


def _scenario_odds(scenario: Scenario, views: dict[str, list[ShipView]],
                   charts: Charts) -> ScenarioOdds:
    """Every firer's lines against every target of one scenario."""
    night = scenario.time == "night"
    every = [v for side in views.values() for v in side]
    reach = scenario.sighting_in if night else None
    lines = {}
    for at, shooter in enumerate(every):
        for aim_at, aim in enumerate(every):
            lines[at, aim_at] = tuple(
                Shown(line.weapon, line.arc,
                      "torpedo" if line.weapon == shooter.torpedo_weapon
                      and line.arc in ("beam", "bow/stern-on") else line.arc,
                      line.factors, tuple((c.at_least, c.expected) for c in line.cells))
                for line in ship_lines(shooter, [aim], scenario.weapons, night, charts, reach))
    return ScenarioOdds(night, tuple(scenario.weapons.bands_in),
                        tuple(_fighter(v) for v in every), lines)


def _fighter(view: ShipView) -> Member[Fighter]:
    """A ship's printed figures, and the names that find it (the first in its class wins)."""
    at = next(i for i, s in enumerate(view.cls.ships) if s is view.ship)
    return Member(view.name, spellings(view.cls.ships)[at], Fighter(
        view.name, view.cls.name, view.type, view.gun_size, view.torpedo_size, view.armor))
