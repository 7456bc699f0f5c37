"""``quarterdeck naval-combat``: a naval combat or a minor invasion, resolved exactly.

``quarterdeck naval-combat --force "2 heavy-ship, 1 fleet-carrier" --enemy "3 heavy-ship"``
prints each side's CV and modifiers, the exact chance of each count of steps inflicted,
and who wins on combat value lost (``outcome``). A force may hold land troops
(``manpower``, ``tank``) for a minor invasion and ``garrison`` counters for the
defence; with ``--rolls`` and ``--enemy-rolls`` it resolves one result.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from generator.core.commandline import reported
from generator.core.errors import UsageError
from generator.kit.options import tables_option
from generator.rules.defaults import LABEL, is_default, mark
from generator.rulesets.naval_warfare.answertext import blank_force, mean_text, pct
from generator.rulesets.naval_warfare.merchant import Force
from generator.rulesets.naval_warfare.outcome import LAND_TROOPS, Losses, landing_troops
from generator.rulesets.naval_warfare.units import UnitType

MAX_ROLLS = 100
CHOICE = "the owner picks the units; an invader keeps its landing troops to the last"
"""How quarterdeck reads the owner's choice of which units take the steps."""


def land_units(manpower: int, tank: int, garrison: int) -> dict[str, UnitType]:
    """The land units a minor invasion fights with, at the text's CVs.

    Manpower and tank points land (CV 8 and 6, "Minor Invasions"); a garrison "is
    treated as a single manpower point". Each has one step.
    """
    def land(ident: str, name: str, cv: int) -> UnitType:
        return UnitType(id=ident, name=name, fleet=cv, attack=0, defence=0, range=0,
                        code=ident[:3].upper(), kind="land", later_range=None, carries=None)

    return {"manpower": land("manpower", "Manpower point", manpower),
            "tank": land("tank", "Tank point", tank),
            "garrison": land("garrison", "Garrison", garrison)}


def _force_or_cv(text: str, option: str, calc: Any,
                 problems: list[str]) -> tuple[str, Force | None, int]:
    """A Task Force written as units or as a bare CV: (description, force, bare CV)."""
    from generator.rulesets.naval_warfare.combat import MAX_CV
    from generator.rulesets.naval_warfare.merchant import quoted

    stripped = text.strip()
    if stripped.isnumeric() and not (stripped.isascii() and stripped.isdigit()):
        # "²" or "½" is numeric to str.isnumeric (and "²" a digit to isdigit), not to int.
        problems.append(f"{option}: found '{quoted(stripped)}', expected a CV in the digits "
                        "0-9, such as \"25\"")
        return "", None, 0
    if stripped.isdigit():
        digits = stripped.lstrip("0") or "0"
        cv = int(digits) if len(digits) <= 6 else MAX_CV + 1  # no int() of 10**100 digits
        if cv > MAX_CV:
            problems.append(f"{option}: found CV {quoted(digits)}, expected at most {MAX_CV}")
        return "a force given by its CV", None, min(cv, MAX_CV)
    if blank_force(stripped):
        problems.append(f"{option}: found nothing, expected a Task Force such as "
                        f"\"2 heavy-ship, 1 fleet-carrier, 1 air\" or a CV such as \"25\"")
        return "", None, 0
    force, found = calc.force(text, "", option)
    problems.extend(found)
    return force.describe(), force, 0


def _situational(text: str, option: str, modifiers: dict[str, Any],
                 problems: list[str]) -> tuple[str, ...]:
    """The situational modifiers a player names (those no strength sets)."""
    from generator.core.suggest import did_you_mean
    from generator.rulesets.naval_warfare.merchant import quoted

    chosen = [w.strip() for w in text.split(",") if w.strip()]
    free = [k for k, m in modifiers.items() if m.of is None]
    out = []
    for word in chosen:
        if word in free:
            out.append(word)
        elif word in modifiers:
            problems.append(f"{option}: found '{word}', expected a modifier the forces do not "
                            f"set (it follows from the CVs or Air Points): {', '.join(free)}")
        else:
            problems.append(f"{option}: found '{quoted(word)}', expected one of "
                            f"{', '.join(free)}{did_you_mean(word[:40], free)}")
    return tuple(dict.fromkeys(out))


def _rolls(text: str | None, needed: int, option: str, problems: list[str]) -> list[int]:
    """The d6 rolls a player gives, one per die the CV rolls."""
    from generator.rulesets.naval_warfare.merchant import quoted

    if text is None:
        return []
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) > MAX_ROLLS or not all(p.isascii() and p.isdigit() and 1 <= int(p[:3]) <= 6
                                          for p in parts):
        problems.append(f"{option}: found '{quoted(text)}', expected d6 rolls from 1 to 6, "
                        "separated by commas")
        return []
    if len(parts) != needed:
        problems.append(f"{option}: found {len(parts)} roll{'s' * (len(parts) != 1)}, expected "
                        f"{needed} (one die per 20 CV or part)")
        return []
    return [int(p) for p in parts]


def _invasion(forces: list[tuple[str, Force | None]], lift: int,
              problems: list[str]) -> int | None:
    """Which side invades (0 you, 1 the enemy, None neither): the one with land troops."""
    landing = [i for i, (_, force) in enumerate(forces)
               if force is not None and landing_troops(force)]
    if len(landing) > 1:
        problems.append("--enemy: found land troops (manpower, tank) on both sides, expected "
                        "them with the invader only")
        return None
    if not landing:
        return None
    option, force = forces[landing[0]]
    assert force is not None
    troops = landing_troops(force)
    craft = sum(g.count for g in force.groups if g.unit.id == "landing-craft")
    if craft and troops > craft * lift:
        problems.append(f"{option}: found {troops} manpower and tank points and {craft} "
                        f"landing-craft, expected at most {craft * lift} (one Landing Craft "
                        f"Group lands up to {lift})")
    return landing[0]


def _verdict_lines(losses: list[Losses | None], by: list[dict[int, Fraction]],
                   invader: int | None) -> list[str]:
    """Who wins, and whether the landing succeeds, as printed lines."""
    from generator.rulesets.naval_warfare.outcome import verdict

    if losses[0] is None or losses[1] is None:
        return ["Who wins: give both forces as units to work it out (a CV alone does not "
                "say what each step costs)."]
    end = verdict(losses[0], losses[1], by[0], by[1], invader)
    lines = [f"Who wins (the side that loses more CV withdraws; with equal losses, the side "
             f"left with more CV), each side losing the least CV its steps allow ({LABEL} "
             f"reading: {CHOICE}): you win {pct(end.first_wins)}; the enemy wins "
             f"{pct(end.second_wins)}; undecided {pct(end.undecided)}"]
    if end.landing is not None:
        who = "your" if invader == 0 else "the enemy's"
        lines.append(f"The landing succeeds ({who} landing troops are not all lost): "
                     f"{pct(end.landing)}; it fails: {pct(1 - end.landing)}")
    return lines


def _one_result(console: Any, table: Any, rows: list[list[int]], rolled: list[list[int]],
                nets: list[int], losses: list[Losses | None], invader: int | None) -> None:
    """One roll each: the steps inflicted, the CV lost and the end of the combat."""
    from rich.markup import escape

    from generator.rulesets.naval_warfare.outcome import decide

    inflicted = []
    for label, side in (("You inflict", 0), ("The enemy inflicts", 1)):
        parts = [f"row {row}: {r} {nets[side]:+d} = {r + nets[side]} -> "
                 f"{table.steps(row, r + nets[side])}"
                 for row, r in zip(rows[side], rolled[side], strict=True)]
        total = sum(table.steps(row, r + nets[side])
                    for row, r in zip(rows[side], rolled[side], strict=True))
        inflicted.append(total)
        console.print(escape(f"{label} {total} step{'s' * (total != 1)} "
                             f"({'; '.join(parts) or 'no dice'})"))
    mine, theirs = losses
    if mine is None or theirs is None:
        return
    lost = [mine.lost(inflicted[1]), theirs.lost(inflicted[0])]
    console.print(escape(f"CV lost, each side taking its cheapest steps ({LABEL} reading: "
                         f"{CHOICE}): you "
                         f"{lost[0]} of {mine.cv}; the enemy {lost[1]} of {theirs.cv}"))
    result = decide(mine, theirs, lost[0], lost[1])
    console.print({1: "You win: the enemy withdraws.", -1: "The enemy wins: you withdraw.",
                   0: "Undecided: equal CV lost and equal CV left."}[result])
    if invader is not None:
        invading, taken = (mine, inflicted[1]) if invader == 0 else (theirs, inflicted[0])
        fails = invading.landing_fails(taken)
        console.print("The landing fails: every landing troop is lost." if fails else
                      "The landing succeeds: the surviving defenders and Air Points are "
                      "removed.")


@click.command(name="naval-combat")
@click.option("--force", "force_text", required=True, help='Your Task Force: units, e.g. "2 '
              'heavy-ship, 1 fleet-carrier" (a carrier group brings its Air Point), '
              '"2 manpower, 1 tank, 1 landing-craft" to invade, or a fleet CV such as "25".')
@click.option("--enemy", "enemy_text", required=True, help="The enemy Task Force, likewise "
              "(\"1 garrison, 1 air\" for a defended island).")
@click.option("--air", type=click.IntRange(0, 999), default=None,
              help="Your Air Points (default: counted from the units).")
@click.option("--enemy-air", type=click.IntRange(0, 999), default=None,
              help="The enemy's Air Points (default: counted from the units).")
@click.option("--with", "with_", default="", help="Your situational modifiers, comma "
              "separated: fleet-base, no-lsp, no-landing-craft, lsp-per-unit.")
@click.option("--enemy-with", default="", help="The enemy's situational modifiers.")
@click.option("--bonus", type=click.IntRange(-20, 20), default=0, show_default=True,
              help="Your Advantage Card die bonus.")
@click.option("--enemy-bonus", type=click.IntRange(-20, 20), default=0, show_default=True,
              help="The enemy's Advantage Card die bonus.")
@click.option("--rolls", default=None, help="Your d6 rolls (one per 20 CV or part), e.g. "
              "\"4,2\", to resolve one result.")
@click.option("--enemy-rolls", default=None, help="The enemy's d6 rolls.")
@tables_option()
@reported
def naval_combat(force_text: str, enemy_text: str, air: int | None, enemy_air: int | None,
                 with_: str, enemy_with: str, bonus: int, enemy_bonus: int,
                 rolls: str | None, enemy_rolls: str | None, tables: Path | None) -> None:
    """Resolve a naval combat or minor invasion exactly (Naval Warfare 1942-45)."""
    from rich.markup import escape
    from rich.table import Table

    from generator.core.terminal import user_console
    from generator.rulesets.naval_warfare import combat, ruletables
    from generator.rulesets.naval_warfare.merchant import Calculator
    from generator.rulesets.naval_warfare.outcome import force_cv, losses
    from generator.rulesets.naval_warfare.ruletables import tables_in_force
    from generator.rulesets.naval_warfare.units import load_units

    rules = ruletables.load(tables)
    mix = tables_in_force(tables)[1]
    troops = rules.combat.land_troops
    units = {**load_units(), **land_units(troops.manpower, troops.tank, mix.garrison_cv)}
    calc = Calculator(rules.merchant, units)
    subs = frozenset({rules.merchant.german_submarines.unit,
                      *rules.merchant.national_submarines.values()})
    mods = rules.combat.combat_modifiers
    table = rules.combat.damage_table
    problems: list[str] = []
    texts, forces, bare = [], [], []
    for text, option in ((force_text, "--force"), (enemy_text, "--enemy")):
        shown, force, cv = _force_or_cv(text, option, calc, problems)
        texts.append(shown)
        forces.append(force)
        bare.append(cv)
    invader = _invasion(list(zip(("--force", "--enemy"), forces, strict=True)),
                        rules.combat.operations.landing_craft_lift, problems)
    situational = [list(_situational(with_, "--with", mods, problems)),
                   list(_situational(enemy_with, "--enemy-with", mods, problems))]
    notes: list[list[str]] = [[], []]
    sides = []
    for i, force in enumerate(forces):
        invading = invader == i
        if force is not None:
            notes[i] += force.notes
            cv = force_cv(force, invading, subs)
            if cv > combat.MAX_CV:
                problems.append(f"{('--force', '--enemy')[i]}: found CV {cv}, expected at "
                                f"most {combat.MAX_CV}")
            counted = force.air(rules.merchant.air_points)
        else:
            cv, counted = bare[i], 0
        if invading and force is not None:
            notes[i] += _invasion_notes(force, subs, troops.manpower, troops.tank)
            if ("no-landing-craft" in mods and "no-landing-craft" not in situational[i]
                    and not any(g.unit.id == "landing-craft" for g in force.groups)):
                situational[i].append("no-landing-craft")
                notes[i].append("a minor invasion without a Landing Craft Group: "
                                "no-landing-craft applies")
        given = (air, enemy_air)[i]
        sides.append(combat.Side(min(cv, combat.MAX_CV), counted if given is None else given,
                                 tuple(situational[i]), (bonus, enemy_bonus)[i]))
    rows = [combat.dice_rows(side.cv, table.cv_per_die) for side in sides]
    rolled = [_rolls(rolls, len(rows[0]), "--rolls", problems),
              _rolls(enemy_rolls, len(rows[1]), "--enemy-rolls", problems)]
    if (rolls is None) != (enemy_rolls is None):
        missing = "--enemy-rolls" if rolls is not None else "--rolls"
        problems.append(f"{missing}: found nothing, expected both sides' rolls to resolve one "
                        "result")
    if problems:
        raise UsageError("\n".join(problems))
    console = user_console(highlight=False, soft_wrap=True)
    nets = []
    for label, i in (("You", 0), ("Enemy", 1)):
        side, enemy = sides[i], sides[1 - i]
        applied = combat.side_modifiers(rules.combat, side, enemy)
        net = sum(v for _, v in applied)
        nets.append(net)
        shown = ", ".join(mark(f"{key} {value:+d}", key in mods and is_default(mods[key]))
                          for key, value in applied) or "none"
        console.print(escape(f"{label}: {texts[i]}; fleet CV {side.cv}, {side.air} Air Point"
                             f"{'s' * (side.air != 1)}; modifiers {shown}; net {net:+d}; "
                             f"dice on rows {'+'.join(map(str, rows[i])) or 'none'}"))
        for line in notes[i]:
            console.print(escape(f"note ({label.lower()}): {line}"))
    costs = [None if force is None else losses(force, invader == i, subs)
             for i, force in enumerate(forces)]
    if rolled[0] or rolled[1]:
        _one_result(console, table, rows, rolled, nets, costs, invader)
        return
    by = [combat.steps_distribution(table, sides[0].cv, nets[0]),
          combat.steps_distribution(table, sides[1].cv, nets[1])]
    shown_table = Table(title="Steps inflicted, exactly")
    for column in ("Steps", "By you", "By the enemy"):
        shown_table.add_column(column, justify="right")
    for n in range(max(len(by[0]), len(by[1]))):
        shown_table.add_row(str(n), pct(by[0].get(n, Fraction(0))),
                            pct(by[1].get(n, Fraction(0))))
    means = [sum((n * p for n, p in d.items()), Fraction(0)) for d in by]
    shown_table.add_row("Mean", mean_text(means[0]), mean_text(means[1]))
    console.print(shown_table)
    odds = combat.battle(table, sides[0].cv, nets[0], sides[1].cv, nets[1])
    console.print(f"You inflict more: {pct(odds.first_more)}; the enemy inflicts more: "
                  f"{pct(odds.second_more)}; equal: {pct(odds.equal)}")
    for line in _verdict_lines(costs, by, invader):
        console.print(escape(line))


def _invasion_notes(force: Force, subs: frozenset[str], manpower: int, tank: int) -> list[str]:
    """What the invader's force counts as: its landing troops, and no submarines."""
    parts = [f"{g.count} {g.unit.id} × {g.unit.fleet}" for g in force.groups
             if g.unit.id in LAND_TROOPS]
    out = [f"minor invasion: landing troops {', '.join(parts)} (manpower {manpower}, tank "
           f"{tank} CV each), added to the invasion Task Force's CV"]
    if any(g.unit.id in subs for g in force.groups):
        out.append("submarines add no CV to an invasion")
    return out
