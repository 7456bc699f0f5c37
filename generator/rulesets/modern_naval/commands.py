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
from generator.rules.dice import percent
from generator.rulesets.modern_naval import combat, damage
from generator.rulesets.modern_naval.model import Conditions, UnitView, WeaponView
from generator.rulesets.modern_naval.tables import LEVELS, SIZES, load_tables

KINDS = ("gun", "rocket", "bomb", "sam", "missile", "torpedo", "ciws")
SEEKERS = ("ARH", "SARH", "CMD (V)", "CMD (R)", "CMD (Wire)", "IR")
CATEGORIES = ("ship", "submarine", "aircraft", "helicopter")
TARGET_OF = {"ship": "surface", "submarine": "submarine", "aircraft": "air",
             "helicopter": "air"}


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
@click.option("--target", type=click.Choice(CATEGORIES), default="ship", show_default=True)
@click.option("--size", type=click.Choice(SIZES), default="medium", show_default=True)
@click.option("--ecm", type=click.IntRange(0, 3), default=0, show_default=True,
              help="The target's ECM generation (0: none).")
@click.option("--target-fcs", type=click.IntRange(0, 3), default=0, show_default=True,
              help="The target's FCS generation (an aircraft's SAM column).")
@click.option("--target-damage", type=click.IntRange(-10, 10), default=0, show_default=True)
@click.option("--state", type=click.Choice(LEVELS[:4]), default="intact", show_default=True)
@click.option("--sea-state", type=click.IntRange(0, 9), default=3, show_default=True)
@click.option("--shooter-speed", type=click.IntRange(0, 6), default=2, show_default=True)
@click.option("--target-speed", type=click.IntRange(0, 6), default=2, show_default=True)
@click.option("--fires", type=click.IntRange(0, 20), default=0, show_default=True,
              help="Fires burning aboard the shooter.")
@tables_option()
@reported
def modern_odds(kind: str, seeker: str | None, generation: int | None, shooter: str,
                crew: int, fcs: int, mounts: int, weapon_damage: int, target: str, size: str,
                ecm: int, target_fcs: int, target_damage: int, state: str, sea_state: int,
                shooter_speed: int, target_speed: int, fires: int,
                tables: Path | None) -> None:
    """Work out one attack exactly: every modifier, the chance to hit, what a hit does."""
    if generation is not None and seeker is None:
        raise UsageError(f"--generation: found {generation} without --seeker, expected "
                         "--seeker with it (the generation is the seeker's)")
    rules = load_tables(tables)
    known = rules.seekers()
    if seeker is not None and generation not in known.get(seeker, []):
        allowed = ", ".join("none (leave it out)" if g is None else str(g)
                            for g in known.get(seeker, [])) or "none in the tables"
        shown = "nothing" if generation is None else str(generation)
        raise UsageError(f"--generation: found {shown}, expected for {seeker}: {allowed}")
    weapon = WeaponView(name=kind, kind=kind, seeker=seeker, generation=generation,  # type: ignore[arg-type]
                        damage=weapon_damage, mounts=mounts,
                        targets=frozenset({TARGET_OF[target], "missile"}))
    firer = UnitView(id="shooter", name="shooter", category=shooter, size="medium",  # type: ignore[arg-type]
                     crew=crew, fcs=_gen(fcs), weapons=(weapon,))
    aim = UnitView(id="target", name="target", category=target, size=size,  # type: ignore[arg-type]
                   ecm=_gen(ecm), fcs=_gen(target_fcs), damage=target_damage)
    conditions = Conditions(sea_state=sea_state, shooter_speed=shooter_speed,
                            target_speed=target_speed, shooter_fires=fires)
    shot = combat.shot(rules, firer, weapon, aim, conditions)
    if shot is None:
        raise UsageError(f"--target: found {target} for a {kind} from a {shooter}, expected "
                         "a target the tables give that weapon against")
    click.echo(f"{shot.attack}: {rules.to_hit.die} + modifiers, {shot.needed}+ hits "
               f"(DEFAULT score)")
    for label, amount in shot.modifiers:
        click.echo(f"  {label:<48} {amount:+d}")
    click.echo(f"  {'total':<48} {shot.total:+d}")
    click.echo(f"Chance to hit: {percent(shot.chance, 1)} ({shot.chance})")
    air = target in ("aircraft", "helicopter")
    modifier = damage.hit_modifier(rules, target_damage=target_damage,
                                   weapon_damage=weapon_damage, state=state, aircraft=air)
    click.echo(f"A hit: basic damage {rules.basic_damage.die} {modifier:+d}")
    for key, p in damage.level_odds(rules, modifier).items():
        click.echo(f"  {rules.basic_damage.by_key(key).label:<20} {percent(p, 1)}")
    click.echo(f"  one system knocked out: {percent(damage.knock_out(rules, modifier), 1)}")


CALCULATORS = (Calculator("modern-odds", "the weapon, shooter and target by their ratings"),)
"""Modern naval's calculator (``Ruleset.calculators``): one attack, worked out exactly."""


def commands() -> list[click.Command]:
    """The modern naval commands for ``quarterdeck`` (``Ruleset.commands``)."""
    return [modern_odds]
