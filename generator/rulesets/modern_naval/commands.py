"""``quarterdeck modern-odds``: one modern naval roll worked out on demand.

The same calculator as the resolution tables and matchup pages: give the shooter, the
weapon and the target by their ratings, and it prints each modifier, the total, the
exact chance to hit, and what a hit does (damage levels, knock-out, wreck).
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.core.commandline import reported
from generator.core.errors import UsageError
from generator.kit.options import tables_option
from generator.kit.seam import Calculator
from generator.rules.defaults import is_default, label, mark
from generator.rules.dice import percent
from generator.rulesets.modern_naval import combat, damage
from generator.rulesets.modern_naval.model import Conditions, UnitView, WeaponView
from generator.rulesets.modern_naval.tables import LEVELS, SIZES, load_tables

KINDS = ("gun", "rocket", "bomb", "sam", "missile", "torpedo", "ciws")
SEEKERS = ("ARH", "SARH", "CMD (V)", "CMD (R)", "CMD (Wire)", "IR")
CATEGORIES = ("ship", "submarine", "aircraft", "helicopter")
TARGETS = (*CATEGORIES, "missile")
TARGET_OF = {"ship": "surface", "submarine": "submarine", "aircraft": "air",
             "helicopter": "air"}
GUIDED = ("sam", "missile")
"""Kinds that read a seeker row of the SAM or missile table, so need a seeker."""
AGAINST_MISSILES = ("sam", "ciws", "gun")
"""Kinds that may shoot at an incoming missile (SAMs 5b, CIWS 5d, guns as a CIWS)."""


def _gen(value: int | None) -> int | None:
    return value or None


@click.command("modern-odds")
@click.option("--kind", type=click.Choice(KINDS), required=True, help="The weapon's kind.")
@click.option("--seeker", type=click.Choice(SEEKERS), help="A missile's or SAM's seeker.")
@click.option("--generation", type=click.IntRange(1, 3), help="The seeker's generation.")
@click.option("--shooter", type=click.Choice(CATEGORIES), default="ship", show_default=True)
@click.option("--crew", type=click.IntRange(-6, 2), default=0, show_default=True,
              help="The shooter's crew quality.")
@click.option("--fcs", type=click.IntRange(0, 3), default=0, show_default=True,
              help="The shooter's fire-control generation (0: none).")
@click.option("--mounts", type=click.IntRange(1, 12), default=1, show_default=True)
@click.option("--weapon-damage", type=click.IntRange(-10, 10), default=0, show_default=True)
@click.option("--target", type=click.Choice(TARGETS), default="ship", show_default=True,
              help="What is shot at; missile: an incoming missile (steps 5b and 5d).")
@click.option("--size", type=click.Choice(SIZES), default="medium", show_default=True)
@click.option("--ecm", type=click.IntRange(0, 3), default=0, show_default=True,
              help="The target's ECM generation (0: none).")
@click.option("--target-fcs", type=click.IntRange(0, 3), default=0, show_default=True,
              help="The target's FCS generation (an aircraft's SAM column).")
@click.option("--target-damage", type=click.IntRange(-10, 10), default=0, show_default=True)
@click.option("--state", type=click.Choice(LEVELS[:4]), default="intact", show_default=True)
@click.option("--markers", type=click.IntRange(0, 6), default=0, show_default=True,
              help="Aircraft damage markers the target carries (an aircraft only).")
@click.option("--sea-state", type=click.IntRange(0, 6), default=3, show_default=True,
              help="0-6: the tables stop at sea state 6.")
@click.option("--shooter-speed", type=click.IntRange(0, 6), default=2, show_default=True)
@click.option("--target-speed", type=click.IntRange(0, 6), default=2, show_default=True)
@click.option("--fires", type=click.IntRange(0, 20), default=0, show_default=True,
              help="Fires burning aboard the shooter.")
@tables_option()
@reported
def modern_odds(kind: str, seeker: str | None, generation: int | None, shooter: str,
                crew: int, fcs: int, mounts: int, weapon_damage: int, target: str, size: str,
                ecm: int, target_fcs: int, target_damage: int, state: str, markers: int,
                sea_state: int,
                shooter_speed: int, target_speed: int, fires: int,
                tables: Path | None) -> None:
    """Work out one attack exactly: every modifier, the chance to hit, what a hit does."""
    if generation is not None and seeker is None:
        raise UsageError(f"--generation: found {generation} without --seeker, expected "
                         "--seeker with it (the generation is the seeker's)")
    refuse_impossible(kind, seeker, target)
    rules = load_tables(tables)
    known = rules.seekers()
    if seeker is not None and generation not in known.get(seeker, []):
        allowed = ", ".join("none (leave it out)" if g is None else str(g)
                            for g in known.get(seeker, [])) or "none in the tables"
        shown = "nothing" if generation is None else str(generation)
        raise UsageError(f"--generation: found {shown}, expected for {seeker}: {allowed}")
    weapon = WeaponView(name=kind, kind=kind, seeker=seeker, generation=generation,  # type: ignore[arg-type]
                        damage=weapon_damage, mounts=mounts,
                        targets=frozenset({TARGET_OF.get(target, "air"), "missile"}))
    firer = UnitView(id="shooter", name="shooter", category=shooter, size="medium",  # type: ignore[arg-type]
                     crew=crew, fcs=_gen(fcs), weapons=(weapon,))
    conditions = Conditions(sea_state=sea_state, shooter_speed=shooter_speed,
                            target_speed=target_speed, shooter_fires=fires)
    if target == "missile":
        shot = combat.against_missile(rules, firer, weapon, conditions)
    else:
        aim = UnitView(id="target", name="target", category=target, size=size,  # type: ignore[arg-type]
                       ecm=_gen(ecm), fcs=_gen(target_fcs), damage=target_damage)
        shot = combat.shot(rules, firer, weapon, aim, conditions)
    if shot is None:
        raise UsageError(f"--target: found {target} for a {kind} from a {shooter}, expected "
                         "a target the tables give that weapon against")
    click.echo(f"{shot.attack}: {rules.to_hit.die} + modifiers, {shot.needed}+ hits"
               f"{label(is_default(rules.to_hit))}")
    for row, amount in shot.modifiers:
        click.echo(f"  {row:<48} {amount:+d}")
    click.echo(f"  {'total':<48} {shot.total:+d}")
    click.echo(f"Chance to hit: {percent(shot.chance, 1)} ({shot.chance})")
    if target == "missile":
        # The missile-attack procedure is quarterdeck's reading (docs/modern-naval-rules.md).
        click.echo(mark("A hit stops the missile before it reaches its target", True))
        return
    air = target in ("aircraft", "helicopter")
    # An aircraft's earlier damage counts by its markers, not by a ship's damage level.
    modifier = damage.hit_modifier(rules, target_damage=target_damage,
                                   weapon_damage=weapon_damage,
                                   state="intact" if air else state, aircraft=air,
                                   aircraft_markers=markers)
    click.echo(f"A hit: basic damage {rules.basic_damage.die} {modifier:+d}")
    if air:
        # 7.3: an aircraft rolls basic damage only; the level says whether it flies on.
        names = {"continues": "flies on", "leaves": "leaves the table, may return",
                 "lost": "lost (aborted or shot down)"}
        for key, p in damage.aircraft_odds(rules, modifier).items():
            click.echo(f"  {names.get(key, key):<30} {percent(p, 1)} ({p})")
        return
    for key, p in damage.level_odds(rules, modifier).items():
        click.echo(f"  {rules.basic_damage.by_key(key).label:<20} {percent(p, 1)}")
    click.echo(f"  one system knocked out: {percent(damage.knock_out(rules, modifier), 1)}")


def refuse_impossible(kind: str, seeker: str | None, target: str) -> None:
    """Refuse an attack the rules cannot make, before any table is read.

    A missile or SAM reads its seeker's row of the SAM or missile table (6.8, 6.11), so
    one without a seeker has no row; a torpedo runs in the water, so it cannot reach an
    aircraft or helicopter; only SAMs, CIWS and guns shoot at incoming missiles (5b, 5d).
    """
    if kind in GUIDED and seeker is None:
        raise UsageError(f"--seeker: found nothing for a {kind}, expected one of "
                         f"{', '.join(SEEKERS)} (a {kind} reads its seeker's row)")
    if kind == "torpedo" and target in ("aircraft", "helicopter", "missile"):
        raise UsageError(f"--target: found {target} for a torpedo, expected ship or "
                         "submarine (a torpedo runs in the water)")
    if target == "missile" and kind not in AGAINST_MISSILES:
        raise UsageError(f"--kind: found {kind} against an incoming missile, expected one "
                         f"of {', '.join(AGAINST_MISSILES)}")


CALCULATORS = (Calculator("modern-odds", "the weapon, shooter and target by their ratings"),)
"""Modern naval's calculator (``Ruleset.calculators``): one attack, worked out exactly."""


def commands() -> list[click.Command]:
    """The modern naval commands for ``quarterdeck`` (``Ruleset.commands``)."""
    return [modern_odds]
