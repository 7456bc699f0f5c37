"""Example Skirmish's own commands: ``quarterdeck salvo`` (a salvo's exact odds) and
``quarterdeck skirmish`` (a kit built with the map's hex size given on the command line).

Registered through the seam: ``commands()`` adds it to ``quarterdeck`` and
``CALCULATORS`` tells ``quarterdeck odds`` to name it.
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
@click.option("--guns", type=int, required=True, help="The firer's guns (dice), 1-12.")
@click.option("--armour", type=int, required=True, help="The target's armour, 0-10.")
@click.option("--band", required=True, help="Range band: short, medium or long.")
@click.option("--type", "kind", default="CR", show_default=True,
              help="The target's type (BB, CR or DD), for the critical table.")
@click.option("--damaged", is_flag=True, help="The target already shows its damaged side.")
@tables_option()
@reported
def salvo(guns: int, armour: int, band: str, kind: str, damaged: bool,
          tables: Path | None) -> None:
    """Exact chances of each number of net hits, a flip and a sinking, for one salvo."""
    from generator.rules.dice import percent
    from qd_example.gunnery import salvo as odds_of
    from qd_example.tables import load_tables

    table = load_tables(tables)
    result = odds_of(table, guns, armour, band, kind, damaged)
    state = "damaged " if damaged else ""
    say(f"{guns} guns at {band} range (hits on {table.band(band).to_hit}+) against a "
        f"{state}{kind} with armour {armour}")
    for net, p in result.net.items():
        say(f"{net} net hit{'s' if net != 1 else ''}: {percent(p, 2):>8}   exact {p}")
    say(f"flipped: {percent(result.flipped, 2)}   exact {result.flipped}")
    say(f"sunk: {percent(result.sunk, 2)}   exact {result.sunk}")


@click.command(name="skirmish")
@click.argument("scenario")
@click.option("--hex", "hex_size", default=None,
              help="The map's hex across the flats (e.g. 20mm), for the overlay. Default: "
                   "the scenario's.")
@data_option
@write_options
@tables_options
@reported
def skirmish(scenario: str, hex_size: str | None, data: tuple[Path, ...], out: Path,
             paper: str, tables: Path | None, seed: int | None,
             templates: Path | None) -> None:
    """Build an Example Skirmish SCENARIO's kit with the map's hex size chosen here."""
    from generator.kit.pipeline import build
    from generator.kit.seam import KitOptions

    values = {"hex": hex_size} if hex_size is not None else {}
    options = KitOptions(tables, seed, templates=templates, values=values)
    report(build(scenario, data=list(data), out=out, paper=paper,  # type: ignore[arg-type]
                 options=options))


CALCULATORS = (Calculator("salvo", "a salvo's guns, the target's armour and a range band"),)
"""Example Skirmish's calculator (``Ruleset.calculators``)."""


def commands() -> list[click.Command]:
    """The commands Example Skirmish adds to ``quarterdeck`` (``Ruleset.commands``)."""
    return [salvo, skirmish]
