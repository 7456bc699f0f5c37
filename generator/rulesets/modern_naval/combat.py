"""The chance to hit: a d20 plus the modifiers of the table the attack reads.

Guns, rockets and bombs read the combat modifiers table (the groups its "Used By" column
gives the attack, or every group ship against ship); surface-to-air missiles read the
SAM table and anti-ship missiles the missile table, each seeker and generation against
the target's ECM generation. The score a modified d20 must reach is not printed by the
text: it is ``to_hit`` in ``rules.yaml``, a labelled DEFAULT (docs/modern-naval-rules.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from generator.rules.defaults import is_default, mark
from generator.rulesets.modern_naval.model import Conditions, UnitView, WeaponView
from generator.rulesets.modern_naval.modifiers import Breakdown, at_least, evaluate, total
from generator.rulesets.modern_naval.tables import Match, Modifier, SeekerTable, Tables, die_sides

AIR = ("aircraft", "helicopter")
SHIP_VS_SHIP = "Ship vs ship"
"""Every group of the combat table applies when no air unit is involved."""
ALL = "All attacks"
TableName = Literal["combat", "sam", "missile", "torpedo"]


def is_air(unit: UnitView) -> bool:
    """Whether a unit is an aircraft or helicopter."""
    return unit.category in AIR


def target_class(unit: UnitView) -> str:
    """What a weapon must be able to engage to attack the unit: surface, air or submarine."""
    if is_air(unit):
        return "air"
    return "submarine" if unit.category == "submarine" else "surface"


def attack_type(shooter: UnitView, weapon: WeaponView, target: UnitView) -> str | None:
    """The combat table's "Used By" name for a gun, rocket or bomb attack, or None."""
    if not is_air(shooter):
        if weapon.kind == "bomb":
            return None
        return "Ship gun vs air" if is_air(target) else SHIP_VS_SHIP
    if is_air(target):
        return "Air vs air"
    return {"bomb": "Bombs", "gun": "Air gun vs ship", "ciws": "Air gun vs ship",
            "rocket": "Air rocket vs ship"}.get(weapon.kind)


def which_table(weapon: WeaponView, target: UnitView) -> TableName | None:
    """Which modifier table an attack reads (None: the rules give it no table)."""
    if weapon.kind in ("gun", "rocket", "bomb", "ciws"):
        return "combat"
    if weapon.kind in ("sam", "missile"):
        return "sam" if is_air(target) else "missile"
    if weapon.kind == "torpedo":
        return "torpedo"
    return None


@dataclass(frozen=True)
class Shot:
    """One attack worked out: the table, the modifiers, the score needed and the chance."""

    table: TableName
    attack: str
    modifiers: Breakdown
    total: int
    needed: int
    chance: Fraction


def hit_chance(tables: Tables, modifier: int, needed: int) -> Fraction:
    """Chance that the d20 plus ``modifier`` reaches ``needed``."""
    return at_least(die_sides(tables.to_hit.die), modifier, needed)


def _applies_to_seeker(row: Modifier, seeker: str | None) -> bool:
    """A row limited to some seekers ("CMD or SARH") applies only to those."""
    if row.only is None:
        return True
    if seeker is None:
        return False
    kinds = [k.strip() for k in row.only.split(" or ")]
    return seeker.split(" ")[0] in kinds


def seeker_modifier(tables: Tables, table: SeekerTable, weapon: WeaponView,
                    ecm: int | None) -> tuple[str, int] | None:
    """The seeker-against-ECM cell, as a labelled modifier (None: not in the grid).

    A target without ECM reads ``to_hit.no_ecm`` (DEFAULT 0); the text's "n/a" adds
    nothing (DEFAULT: that ECM does not affect that seeker).
    """
    if weapon.seeker is None:
        return None
    row = table.row(weapon.seeker, weapon.generation)
    if row is None:
        return None
    generation = f" {weapon.generation}" if row.generation is not None else ""
    if ecm is None:
        return (mark(f"{weapon.seeker}{generation} vs no ECM", is_default(tables.to_hit)),
                tables.to_hit.no_ecm)
    cell = row.against(ecm)
    return (f"{weapon.seeker}{generation} vs ECM {ecm}" + (" (n/a)" if cell is None else ""),
            cell or 0)


def combat_breakdown(tables: Tables, shooter: UnitView, weapon: WeaponView,
                     target: UnitView, conditions: Conditions, attack: str) -> Breakdown:
    """The combat table's rows for a gun, rocket or bomb attack."""
    facts: dict[str, Match | None] = {
        "crew": shooter.crew, "target_size": target.size,
        "shooter_speed": conditions.shooter_speed,
        "target_speed": "air" if is_air(target) else conditions.target_speed,
        "fcs": shooter.fcs if shooter.fcs is not None else "none",
        "sea_state": conditions.sea_state, "multiple_mounts": weapon.mounts > 1,
        "shooter_fires": conditions.shooter_fires, "rocket_pod": weapon.kind == "rocket"}
    out: list[tuple[str, int]] = []
    table = tables.combat_modifiers
    for group in table.groups:
        used_by = table.used_by(group)
        if attack != SHIP_VS_SHIP and ALL not in used_by and attack not in used_by:
            continue
        labels = {i: group.label.rstrip(":") + (f" {row.label}" if row.label else "")
                  for i, row in enumerate(group.rows)}
        out += evaluate(group.rows, facts, labels)
    return tuple(out)


def seeker_breakdown(tables: Tables, table: SeekerTable, shooter: UnitView,
                     weapon: WeaponView, target: UnitView | None, conditions: Conditions,
                     *, grid: bool = True) -> Breakdown:
    """The SAM or missile table's rows (``target`` None: a missile in flight)."""
    out: list[tuple[str, int]] = []
    if grid:
        if target is None:
            ecm = None
        elif is_air(target) and table is tables.sam_modifiers:
            # The SAM grid's column is headed "ECM generation (Aircraft FCS)".
            ecm = target.fcs if target.fcs is not None else target.ecm
        else:
            ecm = target.ecm
        cell = seeker_modifier(tables, table, weapon, ecm)
        if cell is not None:
            out.append(cell)
    facts: dict[str, Match | None] = {
        "crew": shooter.crew,
        "target_size": target.size if target is not None else None,
        "target_speed": (None if target is None or is_air(target)
                         else conditions.target_speed),
        "shooter_fires": conditions.shooter_fires, "missile_target": target is None}
    named = {id(r): f"Target size {r.label}" for r in table.size}
    named.update({id(r): f"Target speed markers {r.label}" for r in table.speed})
    rows = [r for r in table.all_modifiers() if _applies_to_seeker(r, weapon.seeker)]
    out += evaluate(rows, facts, {i: named.get(id(r), r.label) for i, r in enumerate(rows)})
    return tuple(out)


def can_engage(weapon: WeaponView, target: UnitView) -> bool:
    """Whether the weapon may be aimed at this kind of target at all."""
    return target_class(target) in weapon.targets


def shot(tables: Tables, shooter: UnitView, weapon: WeaponView, target: UnitView,
         conditions: Conditions) -> Shot | None:
    """One attack worked out, or None when the weapon cannot engage the target."""
    if not can_engage(weapon, target):
        return None
    name = which_table(weapon, target)
    if name is None:
        return None
    if name == "combat":
        attack = attack_type(shooter, weapon, target)
        if attack is None:
            return None
        breakdown = combat_breakdown(tables, shooter, weapon, target, conditions, attack)
    elif name == "sam":
        attack = "SAM"
        breakdown = seeker_breakdown(tables, tables.sam_modifiers, shooter, weapon, target,
                                     conditions)
    elif name == "missile":
        attack = "Missile"
        breakdown = seeker_breakdown(tables, tables.missile_modifiers, shooter, weapon, target,
                                     conditions)
    else:
        # DEFAULT: a torpedo reads the missile table's target rows; ECM does not touch it.
        attack = mark("Torpedo", True)
        breakdown = seeker_breakdown(tables, tables.missile_modifiers, shooter, weapon, target,
                                     conditions, grid=False)
    modifier = total(breakdown)
    needed = tables.to_hit.needed(weapon.kind)
    return Shot(name, attack, breakdown, modifier, needed, hit_chance(tables, modifier, needed))


def against_missile(tables: Tables, shooter: UnitView, weapon: WeaponView,
                    conditions: Conditions) -> Shot | None:
    """A SAM or CIWS shot at an incoming missile (steps 5b and 5d of the turn).

    Every SAM may shoot at a missile: the SAM table's "SAM vs Missile Target" row (6.8)
    names no exception, so a SAM's data need not list missiles. A CIWS is fired at
    incoming missiles (step 5d). A gun does so only when its data lists missiles; it
    reads the combat table as a ship gun against air, the missile counting as an air
    target of ``to_hit.missile_size`` (DEFAULT very small), as a CIWS does.
    """
    if weapon.kind not in ("sam", "ciws") and "missile" not in weapon.targets:
        return None
    if weapon.kind == "sam":
        breakdown = seeker_breakdown(tables, tables.sam_modifiers, shooter, weapon, None,
                                     conditions)
        attack: str = "SAM vs missile"
        name: TableName = "sam"
    elif weapon.kind in ("gun", "ciws"):
        missile = UnitView(id="missile", name="missile", category="aircraft",
                           size=tables.to_hit.missile_size)
        breakdown = combat_breakdown(tables, shooter, weapon, missile, conditions,
                                     "Ship gun vs air")
        attack = mark(f"{'CIWS' if weapon.kind == 'ciws' else 'Gun'} vs missile",
                      is_default(tables.to_hit))
        name = "combat"
    else:
        return None
    modifier = total(breakdown)
    needed = tables.to_hit.needed(weapon.kind)
    return Shot(name, attack, breakdown, modifier, needed, hit_chance(tables, modifier, needed))
