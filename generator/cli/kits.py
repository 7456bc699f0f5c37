"""Commands that build kits: ``build``, ``tables``, ``markers`` and the aids.

The aids are ``rulers``, ``strings`` and ``gauges``. Each follows its recipe in the
scenario's ruleset (``kit.yaml``) through the shared pipeline; what a ruleset does not
print, the pipeline says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from generator.cli.progress import progress_bar, shown
from generator.core.commandline import say
from generator.core.errors import UsageError
from generator.core.pathargs import SafePath
from generator.kit.options import (
    card_size_option,
    class_option,
    data_option,
    dpi_option,
    png_option,
    print_shop_option,
    quiet_option,
    report,
    ruleset_option,
    scenario_option,
    ship_option,
    tables_option,
    tables_options,
    write_options,
)

F = TypeVar("F", bound=Callable[..., Any])


@click.command()
@click.argument("scenario", required=False)
@class_option("Build a one-ship kit for this class instead.")
@ship_option("With --class: which ship (default: the first).")
@ruleset_option("With --class: whose proof kit (repeatable; default: one for every "
                "ruleset that rates the class).", multiple=True)
@quiet_option
@data_option
@write_options
@tables_options
@print_shop_option
def build(scenario: str | None, class_id: str | None, ship: str | None,
          rulesets: tuple[str, ...], quiet: bool, data: tuple[Path, ...], out: Path,
          paper: str, tables: Path | None, seed: int | None, templates: Path | None,
          print_shop: bool) -> None:
    """Build SCENARIO's kit into OUT/<scenario>/ (default: the first ruleset's scenario).

    `quarterdeck list scenarios` shows the scenarios; `quarterdeck list rulesets` shows
    which is the default.
    """
    from generator.kit.pipeline import BuildResult
    from generator.kit.pipeline import build as run_build
    from generator.kit.seam import KitOptions

    if scenario and class_id:
        raise UsageError("give a SCENARIO or --class, not both")
    if class_id is None and (ship or rulesets):
        raise UsageError(f"{'--ship' if ship else '--ruleset'} goes with --class ID")
    options = KitOptions(tables, seed, templates=templates, print_shop=print_shop)
    if class_id is not None:
        from generator.kit.pipeline import build_class

        for result in build_class(class_id, ship=ship, rulesets=list(rulesets),
                                  data=list(data), out=out,
                                  paper=paper,  # type: ignore[arg-type]
                                  options=options):
            report(result, quiet)
        return

    def run(progress: Callable[[str, int], None] = lambda step, total: None) -> BuildResult:
        return run_build(scenario, data=list(data), out=out,
                         paper=paper,  # type: ignore[arg-type]
                         options=options, progress=progress)

    if not shown(quiet):
        result = run()
    else:
        with progress_bar("rendering", "{task.completed}/{task.total}") as update:
            result = run(lambda name, total: update(total=total, advance=1,
                                                    description=f"rendered {name}"))
    report(result, quiet)


@click.command()
@click.argument("scenario", required=False)
@click.option("--export", "export", type=SafePath(path_type=Path, dir_okay=False),
              default=None, help="Write the bundled tables (of SCENARIO's ruleset, else "
              "the default one) to this file, commented, as a starting point for --tables.")
@data_option
@write_options
@tables_options
@print_shop_option
def tables(scenario: str | None, export: Path | None, data: tuple[Path, ...], out: Path,
           paper: str, tables: Path | None, seed: int | None,
           templates: Path | None, print_shop: bool) -> None:
    """Write the rules calculator's PDFs (card, resolution tables, dice, SCENARIO's matchups).

    Without SCENARIO: the Action Card, the resolution tables and a dice sheet in
    OUT/tables/. With it, also each side's matchup pages and the victory sheet, in
    OUT/<scenario>/tables/.
    """
    from generator.kit.pipeline import build_tables
    from generator.kit.seam import KitOptions

    if export is not None:
        _export_tables(export, scenario, data)
        return
    if seed is not None:
        _seed_applies(scenario, data)
    report(build_tables(scenario, data=list(data), out=out,
                        paper=paper,  # type: ignore[arg-type]
                        options=KitOptions(tables, seed, templates=templates,
                                           print_shop=print_shop)))


def _seed_applies(scenario: str | None, data: tuple[Path, ...]) -> None:
    """Refuse ``--seed`` where the ``tables`` recipe prints no dice sheet to seed."""
    from generator.data.library import validated_library
    from generator.kit.pipeline import owner
    from generator.kit.seam import Request

    library = validated_library(list(data))
    ruleset = owner(library, Request("tables", scenario=scenario))
    recipe = ruleset.recipe("tables")
    if not any(item.split(":")[0] == "dice" for p in recipe.packets for item in p.contents):
        raise UsageError(f"--seed: {ruleset.title} tables have no dice sheet to seed; "
                         "leave --seed out")


def _export_tables(path: Path, scenario: str | None, data: tuple[Path, ...]) -> None:
    """``tables --export FILE``: the bundled tables as a commented ``--tables`` file."""
    from generator.core.output import write_atomic
    from generator.data.scaffold import tables_yaml
    from generator.rulesets import default_ruleset

    if path.exists():
        raise UsageError(f"{path} already exists; not overwriting it")
    if scenario is None:
        ruleset = default_ruleset()
    else:
        from generator.kit.pipeline import owner, validated_library
        from generator.kit.seam import Request

        ruleset = owner(validated_library(list(data)), Request("tables", scenario=scenario))
    write_atomic(path, tables_yaml(ruleset).encode())
    say(f"wrote {path}; keep the tables you change, then: quarterdeck tables "
        f"{scenario or ''}{' ' if scenario else ''}--tables {path}")


def scenario_argument(func: F) -> F:
    """SCENARIO as an optional argument, with the old ``--scenario`` kept as a hidden alias."""
    func = scenario_option(alias=True)(func)
    return click.argument("scenario", required=False)(func)


def _one_scenario(argument: str | None, option: str | None) -> str | None:
    if argument is not None and option is not None and argument != option:
        raise UsageError(f"give the scenario once: found '{argument}' and "
                         f"--scenario '{option}'")
    return argument if argument is not None else option


def aid_options(func: F) -> F:
    """``--scale`` and ``--tables`` for the precision-aid commands."""
    func = tables_option("turn costs, torpedo runs, detection ranges...")(func)
    func = click.option("--scale", default=None,
                        help="tabletop, floor, large-floor, marker or 'N yards per cm|in' "
                             "(default: the scenario's, else tabletop).")(func)
    return func


def _aids(kind: str, scenario: str | None, classes: list[str], scale: str | None,
          data: tuple[Path, ...], out: Path, paper: str, tables: Path | None) -> None:
    from generator.kit.pipeline import build_aids
    from generator.kit.seam import KitOptions

    report(build_aids(kind, scenario, classes=classes, scale=scale,  # type: ignore[arg-type]
                      data=list(data), out=out, paper=paper,  # type: ignore[arg-type]
                      options=KitOptions(tables=tables)))


@click.command()
@scenario_argument
@aid_options
@data_option
@write_options
def rulers(scenario: str | None, scenario_option: str | None, scale: str | None,
           data: tuple[Path, ...], out: Path, paper: str, tables: Path | None) -> None:
    """Print a range ruler (thousands of yards) and a movement ruler (knots per turn).

    With SCENARIO, the rulers fit its ships and scale. Rulers longer than the paper come
    in numbered pieces with glue tabs. Files go in OUT/aids/<scale>/ or
    OUT/<scenario>/aids/.
    """
    _aids("rulers", _one_scenario(scenario, scenario_option), [], scale, data, out, paper,
          tables)


@click.command()
@click.argument("scenario", required=False)
@click.option("--classes", default="", help="Without SCENARIO: comma-separated class ids.")
@aid_options
@data_option
@write_options
def strings(scenario: str | None, classes: str, scale: str | None, data: tuple[Path, ...],
            out: Path, paper: str, tables: Path | None) -> None:
    """Print each side's range-string sheet and range tapes for SCENARIO (or --classes).

    Every distinct gun range and torpedo run gets one colour-coded string, with knots at
    close, medium and long range (or the torpedo's stages), rounded up as the rules say.
    """
    wanted = [c.strip() for c in classes.split(",") if c.strip()]
    _aids("strings", scenario, wanted, scale, data, out, paper, tables)


@click.command()
@scenario_argument
@aid_options
@data_option
@write_options
def gauges(scenario: str | None, scenario_option: str | None, scale: str | None,
           data: tuple[Path, ...], out: Path, paper: str, tables: Path | None) -> None:
    """Print the firing-arc protractor, turn gauge, torpedo-spread fans and range gauges.

    With SCENARIO, its scale and torpedo types. Range gauges cover the aerial torpedo,
    night detection (Japanese and others) and SC and SG radar. Print the protractor on
    transparency or card.
    """
    _aids("gauges", _one_scenario(scenario, scenario_option), [], scale, data, out, paper,
          tables)


def _offset(value: str | None) -> tuple[float, float]:
    """Parse ``--back-offset X,Y`` (millimetres) into points."""
    from generator.core.units import MM

    if not value:
        return (0.0, 0.0)
    parts = value.split(",")
    try:
        x, y = (float(p.strip().removesuffix("mm")) for p in parts)
    except ValueError:
        raise UsageError(f"--back-offset: found '{value}', expected X,Y in mm such as "
                         "0.5,-1") from None
    if not (math.isfinite(x) and math.isfinite(y)):  # float() takes nan and inf
        raise UsageError(f"--back-offset: found '{value}', expected X,Y in mm such as "
                         "0.5,-1 (finite numbers)")
    if abs(x) > 10 or abs(y) > 10:
        raise UsageError(f"--back-offset: found '{value}', expected at most 10 mm each way "
                         "(measure it with back-offset-check.pdf)")
    return (x * MM, y * MM)


@click.command()
@click.argument("scenario")
@click.option("--duplex", type=click.Choice(["long", "short", "off"]), default="long",
              show_default=True,
              help="Backs on the next page for long- or short-edge double-sided printing, "
                   "or 'off': backs printed beside their fronts, to fold or glue.")
@click.option("--bleed", is_flag=True, help="Run backgrounds 3 mm past the cut (the "
              "sprue's bleed) so a slightly-off cut leaves no white edge.")
@click.option("--cut", type=click.Choice(["lines", "marks", "both"]), default=None,
              help="Cut guides: lines on every edge, crop marks at the sheet's edges, or both "
                   "(default: lines, or marks with --bleed).")
@click.option("--back-offset", "back_offset", default=None, metavar="X,Y",
              help="Move the backs by X,Y mm to correct your printer (read it off "
                   "back-offset-check.pdf).")
@click.option("--sprue", type=SafePath(path_type=Path, dir_okay=False), default=None,
              help="Your own sheet-layout YAML (see the bundled sprues).")
@png_option("Also write every marker face as a PNG, named by its id (for VASSAL).",
            folder=True)
@dpi_option(72, 1200, 300, help="PNG resolution (written into each file).")
@click.option("--tts", type=SafePath(path_type=Path, file_okay=False), default=None,
              help="Also write Tabletop Simulator deck sheets (10 x 7, last slot hidden).")
@click.option("--pod", type=SafePath(path_type=Path, file_okay=False), default=None,
              help="Also write print-on-demand files: per deck and counter set, one face a "
                   "page (fronts and backs alternating) and one PNG a face, with 3 mm bleed, "
                   "and a listing of copies.")
@tables_option("marker sizes, colours, pool sizes...")
@data_option
@write_options
@print_shop_option
@card_size_option
@quiet_option
def markers(scenario: str, duplex: str, bleed: bool, cut: str | None, back_offset: str | None,
            sprue: Path | None, png: Path | None, dpi: int, tts: Path | None,
            tables: Path | None, data: tuple[Path, ...], out: Path, paper: str,
            print_shop: bool, card_size: str, pod: Path | None, quiet: bool) -> None:
    """Print SCENARIO's cut-out pieces: markers, counters or cards, one PDF per side.

    What the pieces are is the scenario's ruleset's (its `markers` recipe): ship
    markers and pools sized by what each side carries, counters with computed backs,
    contacts and dummies, event cards. The files go in the folder the recipe names
    under OUT/<scenario>/, with a back-offset check sheet for duplex printing; a
    ruleset whose counters come with its kit says so.
    """
    from generator.kit.pipeline import build_markers
    from generator.kit.seam import KitOptions
    from generator.pieces.imposition import Options

    sheets = Options(paper=paper, duplex=duplex, bleed=bleed,  # type: ignore[arg-type]
                     cut=cut, back_offset=_offset(back_offset),  # type: ignore[arg-type]
                     card_size=card_size)  # type: ignore[arg-type]
    report(build_markers(scenario, data=list(data), out=out, paper=paper,  # type: ignore[arg-type]
                         options=KitOptions(tables=tables, sheets=sheets, sprue=sprue,
                                            print_shop=print_shop),
                         png=png, dpi=dpi, tts=tts, pod=pod), quiet)


COMMANDS = [build, tables, markers, rulers, strings, gauges]
"""This module's commands, added to ``quarterdeck`` by ``generator.cli.main``."""
