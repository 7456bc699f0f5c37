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
from generator.rules.defaults import note
from generator.rulesets.naval_warfare.answertext import blank_force, mean_text, pct

NATIONS = ("US", "UK", "AU", "CA", "NZ", "IN", "JP", "DE", "IT", "FR", "FF", "VF", "NL", "SU",
           "PL", "GR", "NO")
"""Nation codes the command takes (only DE and JP change a result)."""
ALIASES = {"USA": "US", "GB": "UK", "GERMANY": "DE", "GER": "DE", "ITALY": "IT",
           "JAPAN": "JP", "JAP": "JP", "FREE FRENCH": "FF", "VICHY": "VF",
           "VICHY FRENCH": "VF", "NETHERLANDS": "NL", "USSR": "SU"}
"""Names of the game's nations a player may write instead of the code."""


def _nation_hint(code: str) -> str:
    """A did-you-mean among the codes, or for a name (longer than a code) the names."""
    from generator.core.suggest import did_you_mean

    hint = did_you_mean(code, NATIONS)
    names = [name for name in ALIASES if len(name) > 3]
    return hint or (did_you_mean(code, names) if len(code) > 3 else "")


def _nation(option: str, value: str | None, problems: list[str]) -> str:
    """The nation code for a name or code given (empty when none), or a problem."""
    if value is None:
        return ""
    code = value.strip().upper()
    code = ALIASES.get(code, code)
    if code not in NATIONS:
        shown = value[:20].encode("unicode_escape").decode("ascii")
        problems.append(f"{option}: found '{shown}', expected a nation code: "
                        f"{', '.join(NATIONS)}{_nation_hint(code)}")
    return code


def missing_nation() -> str:
    """Why submarine raiders need their nation said (the text's two tonnage lines)."""
    return ("--raider-nation: found nothing, expected the submarines' nation (German "
            "submarines, DE, have a tonnage line of their own; Japan, JP, has its own "
            f"submarines): {', '.join(NATIONS)}")


@click.command()
@click.option("--raiders", default=None, help='The interdicting force: counts and unit ids, '
              'e.g. "4 submarine" or "1 heavy-ship, 2 damaged light-cruiser".')
@click.option("--raider-nation", default=None, help="The raiders' nation, required with "
              "submarines (DE: German submarines read their own tonnage line; JP: Japanese "
              "submarines).")
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
    if raiders is None or blank_force(raiders):
        problems.append("--raiders: found nothing, expected the interdicting force, e.g. "
                        "\"4 submarine\"")
    r_code = _nation("--raider-nation", raider_nation, problems)
    e_code = _nation("--escort-nation", escort_nation, problems)
    raider_force, found = calc.force(raiders or "", r_code, "--raiders")
    problems += found
    escort_force, found = calc.force(escorts, e_code, "--escorts")
    problems += found
    if raider_nation is None and any(g.unit.id == "submarine" for g in raider_force.groups):
        problems.append(missing_nation())
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
    for force in (engagement.raiders, engagement.escorts):
        for line in force.notes:
            console.print(escape(f"note: {line}"))
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
        table.add_row(escape(names.get(colour, colour)), pct(p), str(o.tonnage),
                      str(o.escort_steps), str(o.raider_steps))
    mean_t = sum((p * outcomes[c].tonnage for c, p in chances.items()), Fraction(0))
    mean_e = sum((p * outcomes[c].escort_steps for c, p in chances.items()), Fraction(0))
    mean_r = sum((p * outcomes[c].raider_steps for c, p in chances.items()), Fraction(0))
    table.add_row("Expected", "100%", mean_text(mean_t), mean_text(mean_e), mean_text(mean_r))
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


CALCULATORS = (Calculator("naval-combat", "forces as units or CVs"),
               Calculator("merchant", "forces as units or CVs"))
"""Naval Warfare's calculators (``Ruleset.calculators``): a battle, a merchant engagement."""


def commands() -> list[click.Command]:
    """The commands Naval Warfare adds to ``quarterdeck`` (``Ruleset.commands``)."""
    from generator.rulesets.naval_warfare.combatcli import naval_combat

    return [merchant, naval_combat]
