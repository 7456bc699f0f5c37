"""Naval Warfare's own ``quarterdeck`` commands: ``merchant`` resolves a merchant engagement.

``quarterdeck merchant --raiders "4 submarine" --raider-nation DE --escorts "2 escort"``
prints the exact chance of each colour and what each costs; with ``--raider-roll`` and
``--escort-roll`` it resolves one roll with the arithmetic shown; ``--example N`` redoes
the rule text's worked example N from the unit table and says where the text differs.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import click

from generator.core.commandline import reported
from generator.core.errors import UsageError
from generator.kit.options import tables_option
from generator.kit.seam import Calculator
from generator.rules.defaults import is_default, mark, note

NATIONS = ("US", "UK", "AU", "CA", "NZ", "IN", "JP", "DE", "IT", "FR", "FF", "VF", "NL", "SU",
           "PL", "GR", "NO")
"""Nation codes the command takes (only DE and JP change a result)."""
ALIASES = {"USA": "US", "GB": "UK", "GERMANY": "DE", "GER": "DE", "ITALY": "IT",
           "JAPAN": "JP", "JAP": "JP", "FREE FRENCH": "FF", "VICHY": "VF",
           "VICHY FRENCH": "VF", "NETHERLANDS": "NL", "USSR": "SU"}
"""Names of the game's nations a player may write instead of the code."""


def _blank(text: str) -> bool:
    """Whether a force names nothing: blank, or only the separators between units."""
    return not text.strip(" \t\r\n,;+")


def _nation_hint(code: str) -> str:
    """A did-you-mean among the codes, or for a name (longer than a code) the names."""
    from generator.core.suggest import did_you_mean

    hint = did_you_mean(code, NATIONS)
    names = [name for name in ALIASES if len(name) > 3]
    return hint or (did_you_mean(code, names) if len(code) > 3 else "")


def _nation(option: str, value: str | None, problems: list[str]) -> str:

    if value is None:
        return ""
    code = value.strip().upper()
    code = ALIASES.get(code, code)
    if code not in NATIONS:
        shown = value[:20].encode("unicode_escape").decode("ascii")
        problems.append(f"{option}: found '{shown}', expected a nation code: "
                        f"{', '.join(NATIONS)}{_nation_hint(code)}")
    return code


def _pct(p: Fraction) -> str:
    from generator.rules.dice import percent

    return percent(p, 1) if p else "–"


def _mean(value: Fraction) -> str:
    return f"{float(value):.2f}"


@click.command()
@click.option("--raiders", default=None, help='The interdicting force: counts and unit ids, '
              'e.g. "4 submarine" or "1 heavy-ship, 2 damaged light-cruiser".')
@click.option("--raider-nation", default=None, help="The raiders' nation (DE: German "
              "submarines read their own tonnage line; JP: Japanese submarines).")
@click.option("--escorts", default="", show_default=False, help='The escorting force, e.g. '
              '"2 escort" (leave out for an unescorted route).')
@click.option("--escort-nation", default=None, help="The escorts' nation.")
@click.option("--air-supremacy", type=click.Choice(["raiders", "escorts"]), default=None,
              help="Who holds air supremacy (3:1) in the sea area: a column shift.")
@click.option("--shift", type=click.IntRange(-10, 10), default=0, show_default=True,
              help="Further column shifts from Advantage Cards (+ for the raiders).")
@click.option("--modifier", type=click.IntRange(-20, 20), default=0, show_default=True,
              help="Net die-roll bonus from Advantage Cards (raiders' less escorts').")
@click.option("--raider-roll", type=click.IntRange(1, 6), default=None,
              help="The raiders' d6, to resolve one result.")
@click.option("--escort-roll", type=click.IntRange(1, 6), default=None,
              help="The escorts' d6, to resolve one result.")
@click.option("--example", type=click.IntRange(1, 99), default=None,
              help="Redo the rule text's worked example N (1, 2 or 3).")
@tables_option()
@reported
def merchant(raiders: str | None, raider_nation: str | None, escorts: str,
             escort_nation: str | None, air_supremacy: Literal["raiders", "escorts"] | None,
             shift: int, modifier: int, raider_roll: int | None, escort_roll: int | None,
             example: int | None, tables: Path | None) -> None:
    """Resolve a merchant-warfare engagement exactly (Naval Warfare 1942-45)."""
    from generator.core.terminal import user_console
    from generator.rulesets.naval_warfare import ruletables
    from generator.rulesets.naval_warfare.merchant import Calculator, Engagement
    from generator.rulesets.naval_warfare.units import load_units

    rules = ruletables.load(tables)
    calc = Calculator(rules.merchant, load_units())
    console = user_console(highlight=False, soft_wrap=True)
    if example is not None:
        _example(console, calc, example, bool(raiders or escorts))
        return
    problems: list[str] = []
    if raiders is None or _blank(raiders):
        problems.append("--raiders: found nothing, expected the interdicting force, e.g. "
                        "\"4 submarine\"")
    r_code = _nation("--raider-nation", raider_nation, problems)
    e_code = _nation("--escort-nation", escort_nation, problems)
    raider_force, found = calc.force(raiders or "", r_code, "--raiders")
    problems += found
    escort_force, found = calc.force(escorts, e_code, "--escorts")
    problems += found
    if (raider_roll is None) != (escort_roll is None):
        given = "--raider-roll" if raider_roll is not None else "--escort-roll"
        missing = "--escort-roll" if raider_roll is not None else "--raider-roll"
        problems.append(f"{missing}: found nothing, expected a d6 roll from 1 to 6 with "
                        f"{given}")
    if problems:
        raise UsageError("\n".join(problems))
    engagement = Engagement(raider_force, escort_force, air_supremacy, shift, modifier)
    if raider_roll is not None and escort_roll is not None:
        _one(console, calc, engagement, raider_roll, escort_roll)
    else:
        _distribution(console, calc, engagement)


def _header(console: Any, calc: Any, engagement: Any) -> Any:
    from rich.markup import escape

    setup = calc.setup(engagement)
    for label, force, which, cv in (("Raiders", engagement.raiders, "attack", setup.raider_cv),
                                    ("Escorts", engagement.escorts, "defence", setup.escort_cv)):
        parts = " + ".join(f"{g.label()} {g.value(which)}" for g in force.groups) or "none"
        nation = f" ({force.nation})" if force.nation else ""
        console.print(escape(f"{label}{nation}: {force.describe()}; commerce {which} "
                             f"{parts} = {cv}"))
    for g in engagement.escorts.groups:
        if g.unit.id == "escort-carrier" and not any(
                h.unit.id == "escort-carrier-air" for h in engagement.escorts.groups):
            console.print(escape("note: an Escort Carrier Group defends at 0 by itself; its "
                                 "Air Point is a unit of its own (add escort-carrier-air)"))
    if not setup.combat:
        console.print(escape(f"Odds {setup.raider_cv}:{setup.escort_cv}: under 1:3, so "
                             "there is no combat; the route loses nothing."))
        return setup
    labels = calc.tables.colour_table.column_labels
    how = ("no escort CV: the last column" if setup.escort_cv == 0
           else "rounded in the escorts' favour")
    console.print(escape(f"Odds column: {labels[setup.ratio_column]} "
                         f"({setup.raider_cv}:{setup.escort_cv}, {how})"))
    for name, size in setup.shifts:
        console.print(escape(f"Column shift {size:+d}: {name}"))
    if setup.shifts:
        console.print(escape(f"Column read: {labels[setup.column]}"))
    return setup


def _distribution(console: Any, calc: Any, engagement: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    setup = _header(console, calc, engagement)
    if not setup.combat:
        return
    _, chances, outcomes = calc.distribution(engagement)
    names = {k: v.name for k, v in calc.tables.losses.items()}
    title = "Each colour, exactly" + (f" (die modifier {engagement.modifier:+d})"
                                      if engagement.modifier else "")
    table = Table(title=title)
    for column in ("Colour", "Chance", "Tonnage lost", "Escort steps", "Raider steps"):
        table.add_column(column, justify="left" if column == "Colour" else "right")
    for colour, p in chances.items():
        o = outcomes[colour]
        table.add_row(escape(names.get(colour, colour)), _pct(p), str(o.tonnage),
                      str(o.escort_steps), str(o.raider_steps))
    mean_t = sum((p * outcomes[c].tonnage for c, p in chances.items()), Fraction(0))
    mean_e = sum((p * outcomes[c].escort_steps for c, p in chances.items()), Fraction(0))
    mean_r = sum((p * outcomes[c].raider_steps for c, p in chances.items()), Fraction(0))
    table.add_row("Expected", "100%", _mean(mean_t), _mean(mean_e), _mean(mean_r))
    console.print(table)


def _one(console: Any, calc: Any, engagement: Any, raider_roll: int, escort_roll: int) -> None:
    from rich.markup import escape

    setup = _header(console, calc, engagement)
    if not setup.combat:
        return
    difference = raider_roll - escort_roll + engagement.modifier
    bonus = f" {engagement.modifier:+d} (Advantage Cards)" if engagement.modifier else ""
    colour = calc.colour(setup, difference)
    name = calc.tables.losses[colour].name
    key, label = calc.row_for(difference)
    console.print(escape(f"Dice: raiders {raider_roll} - escorts {escort_roll}{bonus} = "
                         f"{difference:+d}, row {label}"))
    default = calc.tables.colour_table.is_default(key, calc.table.headings[setup.column])
    told = f" ({note('the text leaves this cell blank; see the reference card')})"
    console.print(escape(f"Colour: {name}" + (told if default else "")))
    o = calc.outcome(setup, engagement, colour)
    console.print(escape(f"Tonnage lost: {o.tonnage} Tonnage Points ({o.tonnage_text})"))
    console.print(escape(f"Escort step losses: {o.escort_steps} ({o.escort_text})"))
    console.print(escape(f"Raider step losses: {o.raider_steps} ({o.raider_text})"))


def _example(console: Any, calc: Any, number: int, forces_given: bool) -> None:
    from rich.markup import escape
    from rich.table import Table

    from generator.rulesets.naval_warfare.merchant import work_example

    examples = {e.number: e for e in calc.tables.examples}
    if number not in examples:
        raise UsageError(f"--example: found {number}, expected one of "
                         f"{', '.join(map(str, examples)) or 'none (the tables hold none)'}")
    if forces_given:
        raise UsageError("--example: found --raiders or --escorts too, expected the example "
                         "alone (it states its own forces)")
    worked = work_example(calc, examples[number])
    console.print(escape(f"Example {number}: {worked.example.title}"))
    _one(console, calc, worked.engagement, worked.example.raider_roll,
         worked.example.escort_roll)
    table = Table(title=f"Example {number}, figure by figure")
    for column in ("Figure", "Unit table", "Text", ""):
        table.add_column(column)
    for f in worked.figures:
        table.add_row(escape(f.name), escape(f.ours), escape(f.text),
                      "agrees" if f.agrees else "DIFFERS")
    console.print(table)
    for f in worked.disagreements:
        why = f"; {f.note}" if f.note else ""
        console.print(escape(f"The text's {f.name} ({f.text}) disagrees with the unit table "
                             f"({f.ours}){why}."))
    if not worked.disagreements:
        console.print("Every figure agrees with the unit table.")


MAX_ROLLS = 100


def _force_or_cv(text: str, air: int | None, option: str, calc: Any,
                 problems: list[str]) -> tuple[str, int, int]:
    """A Task Force written as units or as a bare CV: (description, fleet CV, Air Points)."""
    from generator.rulesets.naval_warfare.combat import MAX_CV
    from generator.rulesets.naval_warfare.merchant import quoted

    stripped = text.strip()
    if stripped.isnumeric() and not (stripped.isascii() and stripped.isdigit()):
        # "²" or "½" is numeric to str.isnumeric (and "²" a digit to isdigit), not to int.
        problems.append(f"{option}: found '{quoted(stripped)}', expected a CV in the digits "
                        "0-9, such as \"25\"")
        return "", 0, 0
    if stripped.isdigit():
        digits = stripped.lstrip("0") or "0"
        cv = int(digits) if len(digits) <= 6 else MAX_CV + 1  # no int() of 10**100 digits
        if cv > MAX_CV:
            problems.append(f"{option}: found CV {quoted(digits)}, expected at most {MAX_CV}")
        return "a force given by its CV", min(cv, MAX_CV), air or 0
    if _blank(stripped):
        problems.append(f"{option}: found nothing, expected a Task Force such as "
                        f"\"2 heavy-ship, 1 fleet-carrier, 1 air\" or a CV such as \"25\"")
        return "", 0, 0
    force, found = calc.force(text, "", option)
    problems.extend(found)
    cv = force.cv("fleet")
    if cv > MAX_CV:
        problems.append(f"{option}: found CV {cv} in '{quoted(text)}', expected at most {MAX_CV}")
    counted = force.air(calc.tables.air_points)
    return force.describe(), min(cv, MAX_CV), counted if air is None else air


def _situational(text: str, option: str, modifiers: dict[str, Any],
                 problems: list[str]) -> tuple[str, ...]:
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


@click.command(name="naval-combat")
@click.option("--force", "force_text", required=True, help='Your Task Force: units, e.g. "2 '
              'heavy-ship, 1 fleet-carrier, 1 air", or a fleet CV such as "25".')
@click.option("--enemy", "enemy_text", required=True, help="The enemy Task Force, likewise.")
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
    """Resolve a naval combat between two Task Forces exactly (Naval Warfare 1942-45)."""
    from rich.markup import escape
    from rich.table import Table

    from generator.core.terminal import user_console
    from generator.rulesets.naval_warfare import combat, ruletables
    from generator.rulesets.naval_warfare.merchant import Calculator
    from generator.rulesets.naval_warfare.units import load_units

    rules = ruletables.load(tables)
    calc = Calculator(rules.merchant, load_units())
    mods = rules.combat.combat_modifiers
    table = rules.combat.damage_table
    problems: list[str] = []
    own_text, own_cv, own_air = _force_or_cv(force_text, air, "--force", calc, problems)
    foe_text, foe_cv, foe_air = _force_or_cv(enemy_text, enemy_air, "--enemy", calc, problems)
    own = combat.Side(own_cv, own_air, _situational(with_, "--with", mods, problems), bonus)
    foe = combat.Side(foe_cv, foe_air, _situational(enemy_with, "--enemy-with", mods, problems),
                      enemy_bonus)
    own_rows, foe_rows = (combat.dice_rows(own_cv, table.cv_per_die),
                          combat.dice_rows(foe_cv, table.cv_per_die))
    own_rolls = _rolls(rolls, len(own_rows), "--rolls", problems)
    foe_rolls = _rolls(enemy_rolls, len(foe_rows), "--enemy-rolls", problems)
    if (rolls is None) != (enemy_rolls is None):
        missing = "--enemy-rolls" if rolls is not None else "--rolls"
        problems.append(f"{missing}: found nothing, expected both sides' rolls to resolve one "
                        "result")
    if problems:
        raise UsageError("\n".join(problems))
    console = user_console(highlight=False, soft_wrap=True)
    nets = []
    for label, text, side, enemy, rows in (("You", own_text, own, foe, own_rows),
                                           ("Enemy", foe_text, foe, own, foe_rows)):
        applied = combat.side_modifiers(rules.combat, side, enemy)
        net = sum(v for _, v in applied)
        nets.append(net)
        shown = ", ".join(mark(f"{key} {value:+d}", key in mods and is_default(mods[key]))
                          for key, value in applied) or "none"
        console.print(escape(f"{label}: {text}; fleet CV {side.cv}, {side.air} Air Point"
                             f"{'s' * (side.air != 1)}; modifiers {shown}; net {net:+d}; "
                             f"dice on rows {'+'.join(map(str, rows)) or 'none'}"))
    if own_rolls or foe_rolls:
        for label, rows, dice_rolled, net in (("You inflict", own_rows, own_rolls, nets[0]),
                                              ("The enemy inflicts", foe_rows, foe_rolls,
                                               nets[1])):
            parts = [f"row {row}: {r} {net:+d} = {r + net} -> {table.steps(row, r + net)}"
                     for row, r in zip(rows, dice_rolled, strict=True)]
            total = sum(table.steps(row, r + net) for row, r in zip(rows, dice_rolled,
                                                                     strict=True))
            console.print(escape(f"{label} {total} step{'s' * (total != 1)} "
                                 f"({'; '.join(parts) or 'no dice'})"))
        return
    mine = combat.steps_distribution(table, own.cv, nets[0])
    theirs = combat.steps_distribution(table, foe.cv, nets[1])
    shown_table = Table(title="Steps inflicted, exactly")
    for column in ("Steps", "By you", "By the enemy"):
        shown_table.add_column(column, justify="right")
    for n in range(max(len(mine), len(theirs))):
        shown_table.add_row(str(n), _pct(mine.get(n, Fraction(0))),
                            _pct(theirs.get(n, Fraction(0))))
    mean_a = sum((n * p for n, p in mine.items()), Fraction(0))
    mean_b = sum((n * p for n, p in theirs.items()), Fraction(0))
    shown_table.add_row("Mean", _mean(mean_a), _mean(mean_b))
    console.print(shown_table)
    odds = combat.battle(table, own.cv, nets[0], foe.cv, nets[1])
    console.print(f"You inflict more: {_pct(odds.first_more)}; the enemy inflicts more: "
                  f"{_pct(odds.second_more)}; equal: {_pct(odds.equal)}")


CALCULATORS = (Calculator("naval-combat", "forces as units or CVs"),
               Calculator("merchant", "forces as units or CVs"))
"""Naval Warfare's calculators (``Ruleset.calculators``): a battle, a merchant engagement."""


def commands() -> list[click.Command]:
    """The commands Naval Warfare adds to ``quarterdeck`` (``Ruleset.commands``)."""
    return [merchant, naval_combat]
