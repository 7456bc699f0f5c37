"""Rule 27's own commands: ``quarterdeck bombing`` and ``quarterdeck rule27``.

``bombing`` prints, for a stack and a number of bombing hits, the exact chance that each
counter is hit, flipped or sunk. ``rule27`` builds a scenario's kit like ``build`` does,
with the map's hex size (``--hex``, for the sea-box overlay) and the counter size
(``--counter``) chosen on the command line.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.core.commandline import reported, say
from generator.kit.options import (
    data_option,
    report,
    tables_option,
    tables_options,
    write_options,
)
from generator.kit.seam import Calculator


@click.command()
@click.option("--stack", required=True,
              help="The stack, e.g. '8 NT, CL, DD' or 'BB/5+2, 2 CA/3': [COUNT] "
                   "TYPE[/STRENGTH][+HITS ALREADY TAKEN].")
@click.option("--hits", type=int, required=True, help="Bombing hits to allocate.")
@tables_option()
@reported
def bombing(stack: str, hits: int, tables: Path | None) -> None:
    """Exact chances that each counter of STACK is hit, flipped or sunk by HITS bombs."""
    from generator.rules.dice import percent
    from generator.rulesets.rule27.bombing import allocation_order, fates, parse_stack
    from generator.rulesets.rule27.tables import load_tables

    table = load_tables(tables)
    order = [c.id for c in table.categories]
    units = parse_stack(stack, table)
    result = fates(units, hits, order)
    say(f"{hits} bombing hit{'s' if hits != 1 else ''} on {', '.join(u.label for u in units)}")
    steps = allocation_order(units, hits, order)
    if steps:
        say(f"allocation while nothing is sunk: {' -> '.join(steps)} "
            f"(order {', '.join(order)}, a counter of the category picked at random)")
    say(f"{'counter':<12}{'count':>6}{'hit':>10}{'flipped':>10}{'sunk':>10}   exact")
    for fate in result:
        flipped = percent(fate.flipped, 2) if fate.unit.half else "-"
        say(f"{fate.unit.label:<12}{fate.count:>6}{percent(fate.hit, 2):>10}{flipped:>10}"
            f"{percent(fate.sunk, 2):>10}   hit {fate.hit}, sunk {fate.sunk}")


@click.command(name="rule27")
@click.argument("scenario")
@click.option("--hex", "hex_size", default=None,
              help="The map's hex size across the flats (e.g. 16mm); the sea-box overlay "
                   "is sized from it. Default: the scenario's.")
@click.option("--counter", "counter_size", default=None,
              help="Counter size (0.5in, 0.625in or 5/8in, or any length). Default: the "
                   "scenario's.")
@data_option
@write_options
@tables_options
@reported
def rule27(scenario: str, hex_size: str | None, counter_size: str | None,
           data: tuple[Path, ...], out: Path, paper: str, tables: Path | None,
           seed: int | None, templates: Path | None) -> None:
    """Build a Rule 27 SCENARIO's kit with a chosen map hex size and counter size."""
    from generator.core.errors import UsageError
    from generator.kit.pipeline import build, validated_library
    from generator.kit.seam import KitOptions

    entry = validated_library(list(data)).scenarios.get(scenario)
    if entry is not None and entry.model.ruleset != "rule-27":
        raise UsageError(f"'{scenario}' is a {entry.model.ruleset} scenario; "
                         f"`quarterdeck rule27` builds Rule 27 orders of battle "
                         f"(`quarterdeck build {scenario}` builds this one)")

    values = {}
    if hex_size is not None:
        values["hex"] = hex_size
    if counter_size is not None:
        values["counter"] = counter_size
    options = KitOptions(tables, seed, templates=templates, values=values)
    report(build(scenario, data=list(data), out=out, paper=paper,  # type: ignore[arg-type]
                 options=options))


CALCULATORS = (Calculator("bombing", "a stack and its bombing hits"),)
"""Rule 27's calculator (``Ruleset.calculators``): what a number of bombing hits does."""


def commands() -> list[click.Command]:
    """The commands Rule 27 adds to ``quarterdeck`` (``Ruleset.commands``)."""
    return [bombing, rule27]
