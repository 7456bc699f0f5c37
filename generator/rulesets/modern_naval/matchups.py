"""Per-scenario matchup pages: each of a side's weapons against each kind of enemy unit.

For every unit of the side and every weapon it carries, against every distinct enemy
target: the exact chance to hit at each of the target's speed markers (the scenario's
sea state, the shooter's own speed and fires as the scenario sets them), the chance the
hit knocks out one working system and the chance it wrecks an intact target.

Hidden information: the enemy is listed by what the tables read of it (category, size,
ECM and fire-control generation, damage modifier), not by class name, unless the
scenario says the side knows the enemy order of battle (``known`` in the context data:
a boolean, or side id to boolean).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from generator.core.units import MM
from generator.kit.seam import Context
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.pages.matchuppages import ShipTable, render_matchup_pages
from generator.rules.defaults import is_default, mark
from generator.rules.dice import percent
from generator.rules.targets import alike, group_enemies
from generator.rulesets.modern_naval import combat, damage
from generator.rulesets.modern_naval.model import Conditions, UnitView, WeaponView
from generator.rulesets.modern_naval.registry import COMPONENTS
from generator.rulesets.modern_naval.tables import (
    ORDINALS,
    Tables,
    context_tables,
)

if TYPE_CHECKING:
    from generator.rulesets.modern_naval.ruleset import Derived

SPEEDS = range(0, 7)
OUT = "—"
SIZE_NAMES = {"very-small": "very small", "small": "small", "medium": "medium",
              "large": "large", "very-large": "very large"}


@dataclass(frozen=True)
class Target:
    """An enemy as the matchup pages show it: its values and, if known, its classes."""

    unit: UnitView
    label: str


def target_label(unit: UnitView) -> str:
    """What the tables read of a unit: ``ship, small, ECM 1st, FCS 2nd, dmg +1``."""
    def gen(name: str, value: int | None) -> str:
        return f"{name} {ORDINALS[value]}" if value else f"no {name}"

    return (f"{unit.category}, {SIZE_NAMES[unit.size]}, {gen('ECM', unit.ecm)}, "
            f"{gen('FCS', unit.fcs)}, dmg {unit.damage:+d}")


def targets(enemies: Sequence[UnitView], known: bool) -> list[Target]:
    """Distinct enemy targets: one per set of values (classes named only when known)."""
    out = []
    for group in group_enemies(enemies, lambda u: (u.category, u.size, u.ecm, u.fcs, u.damage),
                               lambda u: u.name):
        label = target_label(group.members[0])
        out.append(Target(group.members[0], f"{', '.join(group.classes)}: {label}" if known
                          else label))
    return out


def is_air(unit: UnitView) -> bool:
    """Aircraft and helicopters: target speed markers do not matter."""
    return unit.category in ("aircraft", "helicopter")


def line(tables: Tables, shooter: UnitView, weapon: WeaponView, target: Target,
         conditions: Conditions) -> list[str] | None:
    """One matchup row, or None when the weapon cannot engage that target."""
    cells = []
    for speed in SPEEDS:
        c = dataclasses.replace(conditions, target_speed=speed)
        s = combat.shot(tables, shooter, weapon, target.unit, c)
        if s is None:
            return None
        cells.append(percent(s.chance))
    if is_air(target.unit):
        cells = [cells[0]] + ["="] * (len(cells) - 1)
    air = is_air(target.unit)
    modifier = damage.hit_modifier(tables, target_damage=target.unit.damage,
                                   weapon_damage=weapon.damage, aircraft=air)
    if air:
        fate = damage.aircraft_odds(tables, modifier)
        out, ko = percent(fate["lost"]), OUT
    else:
        out = percent(damage.level_odds(tables, modifier)["wrecked"])
        ko = percent(damage.knock_out(tables, modifier))
    rng = f"{weapon.range_cm[0]:g}-{weapon.range_cm[1]:g}"
    return [weapon.name, rng, target.label, *cells, ko, out]


def missile_line(tables: Tables, shooter: UnitView, weapon: WeaponView,
                 conditions: Conditions) -> list[str] | None:
    """A SAM or gun against an incoming missile."""
    s = combat.against_missile(tables, shooter, weapon, conditions)
    if s is None:
        return None
    rng = f"{weapon.range_cm[0]:g}-{weapon.range_cm[1]:g}"
    return [weapon.name, rng, "incoming missile", percent(s.chance),
            *["="] * (len(SPEEDS) - 1), OUT, OUT]


def unit_grid(tables: Tables, unit: UnitView, enemies: Sequence[Target],
              conditions: Conditions) -> Grid | None:
    """One unit's weapons against every target."""
    rows = []
    for weapon in unit.weapons:
        for target in enemies:
            row = line(tables, unit, weapon, target, conditions)
            if row is not None:
                rows.append(row)
        row = missile_line(tables, unit, weapon, conditions)
        if row is not None:
            rows.append(row)
    if not rows:
        return None
    header = ["Weapon", "Range cm", "Target", *[f"spd {s}" for s in SPEEDS], "KO",
              "Wreck/lost"]
    widths = [24 * MM, 14 * MM, 58 * MM, *[10 * MM] * len(SPEEDS), 10 * MM, 14 * MM]
    return Grid(widths, [header], rows, aligned(3, len(widths)), size=7,
                wrap=frozenset({2}))


STATES = ("intact", "light", "heavy", "critical")


def state_grid(tables: Tables, unit: UnitView, enemies: Sequence[Target]) -> Grid | None:
    """What one hit does by the target's state: levels, knock-out and wreck.

    A ship's cell is ``KO · wreck`` (a system knocked out; the ship wrecked) when already
    at that damage level; an aircraft's is the chance it is lost with 0, 1 or 2 aircraft
    damage markers.
    """
    rows = []
    for weapon in unit.weapons:
        for target in enemies:
            if not combat.can_engage(weapon, target.unit) or combat.which_table(
                    weapon, target.unit) is None:
                continue
            cells = []
            if is_air(target.unit):
                for markers in range(len(STATES)):
                    m = damage.hit_modifier(tables, target_damage=target.unit.damage,
                                            weapon_damage=weapon.damage, aircraft=True,
                                            aircraft_markers=markers)
                    cells.append(f"lost {percent(damage.aircraft_odds(tables, m)['lost'])}")
            else:
                for state in STATES:
                    m = damage.hit_modifier(tables, target_damage=target.unit.damage,
                                            weapon_damage=weapon.damage, state=state)
                    cells.append(f"{percent(damage.knock_out(tables, m))} · "
                                 f"{percent(damage.level_odds(tables, m)['wrecked'])}")
            rows.append([weapon.name, target.label, *cells])
    if not rows:
        return None
    header = ["Weapon", "Target", *[f"{s} / {i} mk" for i, s in enumerate(STATES)]]
    widths = [24 * MM, 62 * MM, *[23 * MM] * len(STATES)]
    return Grid(widths, [header], rows, aligned(2, len(widths)), size=7,
                wrap=frozenset({1}))


def render_matchups(tables: Tables, side_name: str, units: Sequence[UnitView],
                    enemies: Sequence[UnitView], known: bool, conditions: Conditions,
                    paper: Paper, key: str, footer: str) -> Component:
    """One side's matchup pages."""
    # No scenario sets a unit's own speed markers: the page's value is quarterdeck's.
    own_speed = (mark(f"own speed markers {conditions.shooter_speed}", True)
                 + ", which no scenario sets")
    score = mark(f"hit score {tables.to_hit.score}", is_default(tables.to_hit))
    intro = (
        f"Exact chances per shot with this scenario's conditions (sea state "
        f"{conditions.sea_state}, {own_speed}, crew as rated): to hit against a target "
        f"carrying 0 to 6 speed markers (=: same for an aircraft), {score}; KO: chance one "
        "working system of an intact target is knocked out by the hit; Wreck/lost: chance "
        "an intact ship is wrecked, or an aircraft is lost. An incoming missile row: the "
        "chance one SAM or CIWS shot stops an enemy missile aimed at your ships. Enemies "
        "are given "
        + ("by name (your side knows the enemy order of battle)." if known
           else "by what the tables read of them (their classes are not known to you)."))
    foes = targets(enemies, known)
    # Units rated alike (sister ships) share one table, headed by all their names.
    shown = []
    for group in alike(units, lambda u: dataclasses.replace(u, id="", name="")):
        unit = group[0]
        grid = unit_grid(tables, unit, foes, conditions)
        if grid is None:
            continue
        names = ", ".join(dict.fromkeys(u.name for u in group))
        shown.append(ShipTable((names,), f"{escape(names)} (crew {unit.crew:+d}, FCS "
                               f"{ORDINALS.get(unit.fcs or 0, 'none')})", grid,
                               _states(state_grid(tables, unit, foes))))
    return render_matchup_pages(paper, f"Matchups: {side_name}", footer, intro, shown, key,
                                "Matchups-")


def _states(states: Grid | None) -> Callable[[CanvasDoc], None] | None:
    """What follows a unit's table: what one hit does by the target's state, if anything."""
    if states is None:
        return None

    def draw(doc: CanvasDoc) -> None:
        doc.space(1)
        doc.ensure(states.header_height + 3 * states.row_height(0) + 6 * MM)
        doc.paragraph("One hit by the target's state (ship: system KO · wrecked; "
                      "aircraft: lost, by its damage markers):")
        doc.grid(states)

    return draw


def knows_enemy(data: Derived, side: str) -> bool:
    """Whether the scenario lets the side know the enemy's classes."""
    return data.known.get(side, False)


@COMPONENTS("matchups")
def matchups(ctx: Context[Derived], arg: str | None) -> Component:
    """One side's matchup pages (``matchups:<side>``)."""
    side = arg or next(iter(ctx.sides), "")
    views, conditions = ctx.data.views, ctx.data.conditions
    enemies = [u for other, units in views.items() if other != side for u in units]
    return render_matchups(context_tables(ctx.options), ctx.sides.get(side, side),
                           views.get(side, []), enemies, knows_enemy(ctx.data, side),
                           conditions, ctx.paper, f"matchups:{side}",
                           ctx.data.foot)
