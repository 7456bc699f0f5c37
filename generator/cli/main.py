"""The ``quarterdeck`` command: build, check, list, new-class, catalog, docs."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click

from generator import __version__
from generator.core.commandline import reported, say, tell, warn
from generator.core.errors import DataError, UsageError
from generator.core.pathargs import SafePath
from generator.core.terminal import inert
from generator.kit.options import (
    data_option,
    report,
    tables_options,
    write_options,
)

F = TypeVar("F", bound=Callable[..., Any])


class _Commands(click.Group):
    """The core commands plus the rulesets' own, importing a ruleset only when needed.

    ``--help`` lists the rulesets' commands from the user cache (their names and one-line
    help, keyed like the ruleset order), so it imports no ruleset either.
    """

    _listing = False

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        if self._listing:
            stub = _ruleset_command_help().get(cmd_name)
            if stub is not None:
                return click.Command(cmd_name, help=stub)
        _ruleset_commands()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = set(super().list_commands(ctx))
        if self._listing:
            names |= set(_ruleset_command_help())
        else:
            _ruleset_commands()
            names |= set(super().list_commands(ctx))
        return sorted(names)

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        with _inert_usage_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _inert_usage_errors():
            return super().invoke(ctx)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False


@contextlib.contextmanager
def _inert_usage_errors() -> Iterator[None]:
    """Show click's own errors (``Error: No such command '...'``) with user text inert.

    click quotes what was typed (a command, an option, a value) in its messages and
    prints them itself; the message an error shows is made inert on its way out.
    """
    try:
        yield
    except click.ClickException as exc:
        shown = exc.format_message
        setattr(exc, "format_message", lambda: inert(shown()))  # noqa: B010 (a method)
        raise


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="quarterdeck")
def main() -> None:
    """Turn naval-wargame ship data into printed kits (status sheets, catalogs, packets)."""


def run() -> None:
    """The ``quarterdeck`` command: the CLI, then leave without tearing the heap down.

    When a command returns, everything it writes is written and closed; Python's orderly
    exit would then spend up to a tenth of a second freeing a build's objects one by one.
    The output streams are flushed and the process ends at once, with click's status.
    """
    try:
        main()
        status = 0
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            status = done.code or 0
        else:  # a message instead of a status, as sys.exit("...") gives
            print(inert(str(done.code)), file=sys.stderr)
            status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (| head): nothing more to say
            status = status or 120
    os._exit(status)


@main.command()
@click.argument("scenario", required=False)
@click.option("--class", "class_id", help="Build a one-ship kit for this class instead.")
@click.option("--ship", help="With --class: which ship (default: the first).")
@click.option("--ruleset", "rulesets", multiple=True,
              help="With --class: whose proof kit (repeatable; default: one for every "
                   "ruleset that rates the class).")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@data_option
@write_options
@tables_options
@reported
def build(scenario: str | None, class_id: str | None, ship: str | None,
          rulesets: tuple[str, ...], quiet: bool, data: tuple[Path, ...], out: Path,
          paper: str, tables: Path | None, seed: int | None, templates: Path | None) -> None:
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
    options = KitOptions(tables, seed, templates=templates)
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

    if quiet or not sys.stderr.isatty():
        result = run()
    else:
        with progress_bar("rendering", "{task.completed}/{task.total}") as update:
            result = run(lambda name, total: update(total=total, advance=1,
                                                    description=f"rendered {name}"))
    report(result, quiet)


@contextlib.contextmanager
def progress_bar(description: str, counter: str) -> Iterator[Callable[..., None]]:
    """A transient progress bar on stderr; yields ``update(**fields)`` to move it.

    rich is imported only when there is a terminal to draw on. No refresh thread: builds
    fork, which is only safe in a single-threaded process, so the bar is redrawn as each
    update arrives instead. A new description is shown as text, never as markup.
    """
    from rich.markup import escape
    from rich.progress import BarColumn, Progress, TextColumn

    from generator.core.terminal import user_console

    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                  TextColumn(counter), console=user_console(stderr=True), transient=True,
                  auto_refresh=False) as bar:
        task = bar.add_task(description, total=None)

        def update(**fields: Any) -> None:
            if "description" in fields:
                fields["description"] = escape(fields["description"])
            bar.update(task, **fields)
            bar.refresh()

        yield update


@main.command()
@click.argument("scenario", required=False)
@click.option("--export", "export", type=SafePath(path_type=Path, dir_okay=False),
              default=None, help="Write the bundled tables (of SCENARIO's ruleset, else "
              "the default one) to this file, commented, as a starting point for --tables.")
@data_option
@write_options
@tables_options
@reported
def tables(scenario: str | None, export: Path | None, data: tuple[Path, ...], out: Path,
           paper: str, tables: Path | None, seed: int | None,
           templates: Path | None) -> None:
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
                        options=KitOptions(tables, seed, templates=templates)))


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


def scenario_argument(func: F) -> F:
    """SCENARIO as an optional argument, with the old ``--scenario`` kept as a hidden alias."""
    func = click.option("--scenario", "scenario_option", hidden=True, default=None)(func)
    return click.argument("scenario", required=False)(func)


def _one_scenario(argument: str | None, option: str | None) -> str | None:
    if argument is not None and option is not None and argument != option:
        raise UsageError(f"give the scenario once: found '{argument}' and "
                         f"--scenario '{option}'")
    return argument if argument is not None else option


def aid_options(func: F) -> F:
    """``--scale`` and ``--tables`` for the precision-aid commands."""
    func = click.option("--tables", "tables", type=SafePath(path_type=Path, dir_okay=False),
                        default=None,
                        help="YAML file replacing some of the ruleset's tables (turn costs, "
                             "torpedo runs, detection ranges...).")(func)
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


@main.command()
@scenario_argument
@aid_options
@data_option
@write_options
@reported
def rulers(scenario: str | None, scenario_option: str | None, scale: str | None,
           data: tuple[Path, ...], out: Path, paper: str, tables: Path | None) -> None:
    """Print a range ruler (thousands of yards) and a movement ruler (knots per turn).

    With SCENARIO, the rulers fit its ships and scale. Rulers longer than the paper come
    in numbered pieces with glue tabs. Files go in OUT/aids/<scale>/ or
    OUT/<scenario>/aids/.
    """
    _aids("rulers", _one_scenario(scenario, scenario_option), [], scale, data, out, paper,
          tables)


@main.command()
@click.argument("scenario", required=False)
@click.option("--classes", default="", help="Without SCENARIO: comma-separated class ids.")
@aid_options
@data_option
@write_options
@reported
def strings(scenario: str | None, classes: str, scale: str | None, data: tuple[Path, ...],
            out: Path, paper: str, tables: Path | None) -> None:
    """Print each side's range-string sheet and range tapes for SCENARIO (or --classes).

    Every distinct gun range and torpedo run gets one colour-coded string, with knots at
    close, medium and long range (or the torpedo's stages), rounded up as the rules say.
    """
    wanted = [c.strip() for c in classes.split(",") if c.strip()]
    _aids("strings", scenario, wanted, scale, data, out, paper, tables)


@main.command()
@scenario_argument
@aid_options
@data_option
@write_options
@reported
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


@main.command()
@click.argument("scenario")
@click.option("--duplex", type=click.Choice(["long", "short", "off"]), default="long",
              show_default=True,
              help="Backs on the next page for long- or short-edge double-sided printing, "
                   "or 'off': backs printed beside their fronts, to fold or glue.")
@click.option("--bleed", is_flag=True, help="Run backgrounds 3 mm past the cut (the "
              "sprue's bleed) so a slightly-off cut leaves no white edge.")
@click.option("--cut", type=click.Choice(["lines", "marks", "both"]), default=None,
              help="Cut guides: lines on every edge, crop marks in the gutters, or both "
                   "(default: lines, or marks with --bleed).")
@click.option("--back-offset", "back_offset", default=None, metavar="X,Y",
              help="Move the backs by X,Y mm to correct your printer (read it off "
                   "back-offset-check.pdf).")
@click.option("--sprue", type=SafePath(path_type=Path, dir_okay=False), default=None,
              help="Your own sheet-layout YAML (see the bundled sprues).")
@click.option("--png", type=SafePath(path_type=Path, file_okay=False), default=None,
              help="Also write every marker face as a PNG, named by its id (for VASSAL).")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True,
              help="PNG resolution (written into each file).")
@click.option("--tts", type=SafePath(path_type=Path, file_okay=False), default=None,
              help="Also write Tabletop Simulator deck sheets (10 x 7, last slot hidden).")
@click.option("--tables", "tables", type=SafePath(path_type=Path, dir_okay=False),
              default=None, help="YAML file replacing some tables (marker sizes, colours, "
                                 "pool sizes...).")
@data_option
@write_options
@reported
def markers(scenario: str, duplex: str, bleed: bool, cut: str | None, back_offset: str | None,
            sprue: Path | None, png: Path | None, dpi: int, tts: Path | None,
            tables: Path | None, data: tuple[Path, ...], out: Path, paper: str) -> None:
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
                     cut=cut, back_offset=_offset(back_offset))  # type: ignore[arg-type]
    report(build_markers(scenario, data=list(data), out=out, paper=paper,  # type: ignore[arg-type]
                         options=KitOptions(tables=tables, sheets=sheets, sprue=sprue),
                         png=png, dpi=dpi, tts=tts))


@main.command()
@click.option("--firer", required=True,
              help="Firing ship's name (accents optional); CLASS:NAME if several classes "
                   "have a ship of that name.")
@click.option("--target", required=True, help="Target ship's name.")
@click.option("--battery", help="Which weapon: a battery position or arc (e.g. BOW, "
                                "broadside) or 'torpedo'; default: every weapon.")
@click.option("--range", "band", help="Range band (the ruleset's names, e.g. close, medium, "
                                      "long, or a band's limit in inches); default: all.")
@click.option("--scenario", help="Scenario that sets the date, sea state and ships (and "
                                 "so the ruleset).")
@click.option("--tables", "tables", type=SafePath(path_type=Path, dir_okay=False),
              help="YAML file replacing some tables with your own values.")
@data_option
@reported
def odds(firer: str, target: str, battery: str | None, band: str | None,
         scenario: str | None, tables: Path | None, data: tuple[Path, ...]) -> None:
    """Answer one matchup exactly, in the terminal, for rulesets that have odds."""
    from generator.core.terminal import user_console
    from generator.data.library import checked_key, owner_name, validated_library
    from generator.kit.seam import Request
    from generator.rulesets import REGISTRY

    # A question asked again (each turn of a game, say) is answered from the user cache
    # while the code, the data and the --tables file are unchanged.
    library_key = checked_key(list(data))
    key = library_key
    if key is not None and tables is not None:
        key = _with_file(key, tables)
    answer = _Replay("odds", user_console(highlight=False, soft_wrap=True), key,
                     repr((firer, target, battery, band, scenario, str(tables))))
    if answer.replay():
        return
    library = validated_library(list(data), library_key)
    name = owner_name(library, Request("kit", scenario=scenario))
    index = _odds_index(name, library, key, tables)
    with answer.recording():
        if index is not None:
            index.print_answer(firer, target, battery, band, scenario)
        else:
            REGISTRY[name].odds(library, scenario, firer, target, battery, band, tables)
    answer.remember()


def _odds_index(name: str, library: Any, key: str | None, tables: Path | None) -> Any:
    """The ruleset's odds index: from the user cache, else built (and kept, complete).

    A kept index answers a question never asked before without importing the ruleset,
    its schema or its tables; it is built once per library, code and ``--tables`` file.
    """
    import hashlib
    import re

    from generator.cache import usercache
    from generator.rulesets import REGISTRY

    # One entry per ruleset: questions that alternate between rulesets keep both. A
    # ruleset's name becomes part of a file name only when it is safe as one.
    slot = "odds-index-" + (name if re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", name)
                            else hashlib.sha256(name.encode()).hexdigest()[:16])
    if key is not None:
        found = usercache.load(slot, key)
        if callable(getattr(found, "print_answer", None)):
            return found
    index = REGISTRY[name].odds_index(library, tables, key is not None)
    if index is not None and key is not None:
        usercache.store(slot, key, index)
    return index


def _with_file(key: str, path: Path) -> str | None:
    """``key`` extended by a file's path and SHA-256 (None: unreadable, do not cache)."""
    import hashlib
    import stat

    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > 4 * 1024 * 1024:
            return None
        content = path.read_bytes()
    except OSError:
        return None
    return repr((key, str(path.resolve()), hashlib.sha256(content).hexdigest()))


@main.command()
@click.argument("paths", nargs=-1, type=SafePath(path_type=Path))
@reported
def check(paths: tuple[Path, ...]) -> None:
    """Validate data: the bundled library plus PATHS (files or folders); report every problem."""
    from generator.data.library import summary

    for path in paths:
        if path.is_dir() and not any(p.suffix.lower() in (".yaml", ".yml") and p.is_file()
                                     for p in path.rglob("*")):
            raise UsageError(f"{path}: found no YAML files (.yaml, .yml), expected a folder "
                             "of class and scenario files")
    # From the user cache when no file and no code changed: no ruleset is imported.
    library = summary(list(paths))
    if library.problems:
        raise DataError(library.problems)
    for notice in library.notices:
        tell(f"note: {notice}")
    for message in library.warnings:
        warn(message)
    for line in library.unrated:  # one ship library (issue 14)
        tell(line)
    say(f"ok: {library.classes} classes and {len(library.scenarios)} scenarios are valid")


@main.command(name="list")
@click.argument("what", type=click.Choice(["all", "rulesets", "scenarios", "classes"]),
                default="all")
@click.option("--ruleset", default=None, help="Only this ruleset's scenarios and classes.")
@click.option("--nation", default=None, help="Only classes of this navy (US, JP...).")
@data_option
@reported
def list_(what: str, ruleset: str | None, nation: str | None, data: tuple[Path, ...]) -> None:
    """List rulesets, scenarios and classes (optionally one ruleset's, one navy's)."""
    from generator.core.suggest import did_you_mean
    from generator.core.terminal import user_console
    from generator.data.library import checked_key
    from generator.rulesets import REGISTRY

    if ruleset is not None and ruleset not in REGISTRY:
        raise UsageError(f"--ruleset: no ruleset '{ruleset}'{did_you_mean(ruleset, REGISTRY)}")
    console = user_console(highlight=False, soft_wrap=True)
    key = checked_key(list(data))
    # The tables as drawn for this console, from the user cache when neither the data,
    # the code, rich nor the terminal changed: drawing a thousand rows takes rich longer
    # than everything else the command does.
    shown = _Replay("listing", console, key, repr((what, ruleset, nation)))
    if shown.replay():
        return
    for table in _list_tables(console, key, what, ruleset, nation, data):
        shown.print(table)
    shown.remember()


def _list_tables(console: Any, key: str | None, what: str, ruleset: str | None,
                 nation: str | None, data: tuple[Path, ...]) -> Iterator[Any]:
    """The tables ``quarterdeck list`` prints, one by one."""
    from rich.markup import escape
    from rich.table import Table

    from generator.core.suggest import did_you_mean
    from generator.data.library import summary

    library = summary(list(data), key)
    if library.problems:
        raise DataError(library.problems)
    chosen = {n: r for n, r in library.rulesets.items() if ruleset in (None, n)}

    def table(title: str, *columns: str) -> Table:
        # Ids are what users type: never cut or wrapped (the other columns give way).
        made = Table(title=title)
        for column in columns:
            if column in ("id", "ruleset"):
                made.add_column(column, no_wrap=True, overflow="ignore")
            else:
                made.add_column(column, overflow="fold")
        return made

    def row(made: Table, *cells: str) -> None:
        made.add_row(*(escape(cell) for cell in cells))  # user text is never markup

    if what in ("all", "rulesets"):
        shown = table("Rulesets", "ruleset", "title", "classes", "scenarios")
        for name, one in chosen.items():
            row(shown, name, one.title, str(len(one.classes)), str(one.scenarios))
        yield shown
    if what in ("all", "scenarios"):
        shown = table("Scenarios", "id", "ruleset", "name", "date", "ships")
        for sid, owner, name, date, ships in library.scenarios:
            if owner in chosen:
                row(shown, sid, owner, name, date, ships)
        yield shown
    if what in ("all", "classes"):
        shown = table("Classes", "id", "ruleset", "name", "nation", "type")
        nations: set[str] = set()
        count = 0
        for name, one in chosen.items():
            for cid, cname, navy, ctype in one.classes:
                nations.add(navy)
                if nation is not None and navy.casefold() != nation.casefold():
                    continue
                row(shown, cid, name, cname, navy, ctype)
                count += 1
        if nation is not None and not count:
            raise UsageError(f"--nation: no class of nation '{nation}'"
                             f"{did_you_mean(nation, sorted(nations))}")
        yield shown


class _Replay:
    """A command's output as it was written, kept in the user cache to write again.

    Keyed by what the answer was computed from (the checked library's key: code and
    data), rich's own files, and everything about the console that changes the drawing
    (width, colours, encoding, terminal), so a replay writes exactly the bytes the
    command would have written. Only an answer that completed is kept.
    """

    LIMIT = 64
    """Argument and terminal combinations remembered at once, per command."""

    def __init__(self, name: str, console: Any, key: str | None, variant: str) -> None:
        self.name = name
        self.console = console
        self.parts: list[tuple[str, str]] = []
        self.key: str | None = None
        self.variant = ""
        # Jupyter and legacy Windows consoles are written to differently: never cached.
        if key is not None and not console.is_jupyter and not console.legacy_windows:
            import rich

            stamp = []
            for part in ("console.py", "table.py", "segment.py", "text.py", "cells.py",
                         "markup.py", "box.py"):
                try:
                    info = (Path(rich.__file__).parent / part).stat()
                except OSError:
                    return
                stamp.append((part, info.st_size, info.st_mtime_ns))
            self.key = repr((key, stamp))
            self.variant = repr((variant, console.width, console.color_system,
                                 console.is_terminal, console.is_dumb_terminal,
                                 console.encoding, console.no_color,
                                 console.options.ascii_only))

    def _stored(self) -> dict[str, list[tuple[str, str]]]:
        from generator.cache import usercache

        if self.key is None:
            return {}
        found = usercache.load(self.name, self.key)
        return found if isinstance(found, dict) else {}

    def replay(self) -> bool:
        """Write the remembered output, if there is one."""
        parts = self._stored().get(self.variant) if self.key is not None else None
        if not isinstance(parts, list) or not all(
                isinstance(p, tuple) and len(p) == 2 and p[0] in ("out", "err")
                and isinstance(p[1], str) for p in parts):
            return False
        for stream, text in parts:
            self._emit(stream, text)
        return True

    def print(self, renderable: Any) -> None:
        """Draw one renderable on the console and write it, as ``console.print`` does."""
        if self.key is None:
            self.console.print(renderable)
            return
        with self.console.capture() as captured:
            self.console.print(renderable)
        text = captured.get()
        self.parts.append(("out", text))
        self._emit("out", text)

    @contextlib.contextmanager
    def recording(self) -> Iterator[None]:
        """Keep whatever is written to stdout and stderr meanwhile (and still write it)."""
        if self.key is None:
            yield
            return
        saved = sys.stdout, sys.stderr
        sys.stdout = _Tee(saved[0], "out", self.parts)
        sys.stderr = _Tee(saved[1], "err", self.parts)
        try:
            yield
        finally:
            sys.stdout, sys.stderr = saved

    def _emit(self, stream: str, text: str) -> None:
        handle = self.console.file if stream == "out" else sys.stderr
        handle.write(text)
        handle.flush()

    def remember(self) -> None:
        """Keep what was written for the next identical command."""
        from generator.cache import usercache

        if self.key is None or any(stream == "unsafe" for stream, _ in self.parts):
            return
        stored = self._stored()
        stored.pop(self.variant, None)
        while len(stored) >= self.LIMIT:
            stored.pop(next(iter(stored)))
        stored[self.variant] = self.parts
        usercache.store(self.name, self.key, stored)


class _Tee:
    """A text stream that writes through to another and keeps a copy of what it wrote."""

    def __init__(self, stream: Any, name: str, parts: list[tuple[str, str]]) -> None:
        self._stream = stream
        self._name = name
        self._parts = parts

    def write(self, text: str) -> int:
        self._parts.append((self._name, text))
        return int(self._stream.write(text))

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, flush...
        if name == "buffer":  # bytes written past the copy: this answer is not kept
            self._parts.append(("unsafe", ""))
        return getattr(self._stream, name)


@main.command(name="new-class")
@click.argument("class_id")
@click.option("--ruleset", default=None, help="Only for a ruleset whose units are not ship "
              "classes: its own scaffold. A ship class is one file for every ruleset.")
@click.option("--nation", default="US", show_default=True)
@click.option("--type", "ship_type", default="DD", show_default=True)
@click.option("--out", type=SafePath(path_type=Path, file_okay=False), default=Path("."),
              show_default=True, help="Folder to write CLASS_ID.yaml into.")
@reported
def new_class(class_id: str, ruleset: str | None, nation: str, ship_type: str,
              out: Path) -> None:
    """Scaffold a commented class file CLASS_ID.yaml, read by every ruleset that rates it."""
    import re

    from generator.core.output import write_atomic
    from generator.core.suggest import did_you_mean
    from generator.data.shipclass import new_class_yaml
    from generator.rulesets import REGISTRY

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,59}", class_id):
        raise UsageError(f"class id '{class_id}' must be lowercase letters, digits and hyphens")
    if ruleset is not None and ruleset not in REGISTRY:
        raise UsageError(f"no ruleset '{ruleset}'{did_you_mean(ruleset, REGISTRY)}")
    # Both go into YAML text: only known codes, so nothing can add a key to the scaffold.
    from generator.data.scaffold import nation_code, type_code

    if ruleset is None or REGISTRY[ruleset].class_model is not None:
        nation, ship_type = nation_code(nation), type_code(ship_type)
    elif not re.fullmatch(r"[A-Z]{2,3}", nation):  # the ruleset's own units: its own codes
        raise UsageError(f"--nation: found {nation!r}, expected a navy code such as US or JP")
    elif not re.fullmatch(r"[A-Z]{1,4}", ship_type):
        raise UsageError(f"--type: found {ship_type!r}, expected a type code such as DD or CA")
    path = out / f"{class_id}.yaml"
    if path.exists():
        raise UsageError(f"{path} already exists; not overwriting it")
    if ruleset is None or REGISTRY[ruleset].class_model is not None:
        text = new_class_yaml(class_id, nation, ship_type)
    else:
        text = REGISTRY[ruleset].new_class_yaml(class_id, nation, ship_type)
    write_atomic(path, text.encode())
    say(f"wrote {path}; replace every '<fill in: ...>', then: quarterdeck check {path}")


@main.command()
@click.option("--ruleset", default=None,
              help="Whose classes to list (default: the first ruleset in "
                   "`quarterdeck list rulesets`).")
@data_option
@write_options
@reported
def catalog(ruleset: str | None, data: tuple[Path, ...], out: Path, paper: str) -> None:
    """Write OUT/catalog.pdf, every class with its game values.

    For the default ruleset the file is OUT/catalog.pdf; for another, the file is
    OUT/catalog-<ruleset>.pdf.
    """
    from generator.core.output import write_atomic
    from generator.core.suggest import did_you_mean
    from generator.data.library import validated_library
    from generator.kit.packets import PacketSpec, assemble_drawn
    from generator.pages import kitdoc
    from generator.pages.component import Component
    from generator.rulesets import REGISTRY, default_ruleset

    ruleset = ruleset or default_ruleset().name
    if ruleset not in REGISTRY:
        raise UsageError(f"no ruleset '{ruleset}'{did_you_mean(ruleset, REGISTRY)}")
    library = validated_library(list(data))
    from generator.kit.catalog import render_coverage

    titles = {name: r.title for name, r in REGISTRY.items() if r.class_model is not None}
    # The default ruleset's list keeps its old file name; others say whose list it is.
    name = "catalog.pdf" if ruleset == default_ruleset().name else f"catalog-{ruleset}.pdf"
    steps: dict[str, Callable[[], Component]] = {
        "catalog": lambda: REGISTRY[ruleset].catalog(library, paper)}  # type: ignore[arg-type]
    if REGISTRY[ruleset].class_model is not None:
        steps["coverage"] = lambda: render_coverage(library, ruleset, titles,
                                                    paper)  # type: ignore[arg-type]
    # Drawn on one document and written as one file, like a build's packets.
    with kitdoc.drawing() as kit:
        parts = {}
        for key, draw in steps.items():
            first = len(kit.page_names)
            part = draw()
            parts[key] = dataclasses.replace(
                part, key=key, drawn=kit.drawn_since(first, part.pages, key))
        pdf = assemble_drawn(kit, [PacketSpec(name, "Ship classes", list(parts))],
                             parts)[name]
    write_atomic(out / name, pdf)
    pages = sum(p.pages for p in parts.values())
    say(f"wrote {out / name} ({pages} page{'s' if pages != 1 else ''})")


@main.command()
@click.option("--check", "check_only", is_flag=True,
              help="Exit 1 if the files on disk are stale instead of writing.")
@click.option("--out", type=SafePath(path_type=Path, file_okay=False), default=Path("docs"),
              show_default=True)
@reported
def docs(check_only: bool, out: Path) -> None:
    """Regenerate the data schema reference (docs/shipdata-<ruleset>.md)."""
    from generator.core.output import write_atomic
    from generator.rulesets import REGISTRY

    stale = []
    for name, ruleset in REGISTRY.items():
        path = out / f"shipdata-{name}.md"
        text = ruleset.schema_reference()
        if check_only:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            write_atomic(path, text.encode())
            say(f"wrote {path}")
    if stale:
        tell(f"stale: {', '.join(stale)}; run `quarterdeck docs`")
        sys.exit(1)


# --- one ship library (issue 14): convert an old per-ruleset class file -----------------------

@main.command()
@click.argument("path", type=SafePath(path_type=Path, dir_okay=False, exists=True))
@click.option("--out", type=SafePath(path_type=Path, dir_okay=False), default=None,
              help="Write the converted file here (default: replace PATH, keeping PATH.bak).")
@reported
def convert(path: Path, out: Path | None) -> None:
    """Rewrite a one-ruleset class file as a class file for every ruleset."""
    from generator.core.output import write_atomic
    from generator.data.convert import convert_file

    text = convert_file(path)
    kept = ""
    if out is None:
        old = path.read_bytes()
        backup = _backup_name(path, old)
        write_atomic(backup, old)
        kept = f" (the old file is {backup})"
        out = path
    write_atomic(out, text.encode())
    say(f"wrote {out}{kept}; check it with: quarterdeck check {out}")


def _backup_name(path: Path, content: bytes) -> Path:
    """``PATH.bak``, or ``PATH.bak.N`` when a different file already has that name.

    A ``.bak`` from an earlier conversion, or the user's own, is never overwritten; one
    that already holds these very bytes is simply written again.
    """
    for number in range(1000):
        backup = path.with_name(path.name + (".bak" if number == 0 else f".bak.{number}"))
        try:
            if not os.path.lexists(backup) or (backup.is_file() and not backup.is_symlink()
                                               and backup.read_bytes() == content):
                return backup
        except OSError:
            continue
    raise UsageError(f"{path}: found 1,000 backups beside it, expected room for one more; "
                     "move some away")


# --- designers (issue 19): scaffolds, spreadsheets, previews -----------------------------

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


@main.command(name="new-scenario")
@click.argument("scenario_id")
@click.option("--ruleset", default=None,
              help="Whose scenario (default: the first in `quarterdeck list rulesets`).")
@click.option("--out", type=SafePath(path_type=Path, file_okay=False), default=Path("."),
              show_default=True, help="Folder to write SCENARIO_ID.yaml into.")
@reported
def new_scenario(scenario_id: str, ruleset: str | None, out: Path) -> None:
    """Scaffold a commented scenario file SCENARIO_ID.yaml for one ruleset."""
    import re

    from generator.core.output import write_atomic
    from generator.core.suggest import did_you_mean
    from generator.data.scaffold import scenario_yaml
    from generator.rulesets import REGISTRY, default_ruleset

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,59}", scenario_id):
        raise UsageError(f"scenario id '{scenario_id}' must be lowercase letters, digits and "
                         "hyphens (at most 60)")
    if ruleset is not None and ruleset not in REGISTRY:
        raise UsageError(f"--ruleset: no ruleset '{ruleset}'{did_you_mean(ruleset, REGISTRY)}")
    chosen = REGISTRY[ruleset] if ruleset is not None else default_ruleset()
    path = out / f"{scenario_id}.yaml"
    if path.exists():
        raise UsageError(f"{path} already exists; not overwriting it")
    write_atomic(path, scenario_yaml(chosen, scenario_id).encode())
    say(f"wrote {path}; replace every '<fill in: ...>', then: quarterdeck check {path}")


@main.command(name="import")
@click.argument("sheet", type=SafePath(path_type=Path, dir_okay=False))
@click.option("--ruleset", "rulesets", multiple=True,
              help="Also require this ruleset to rate every class (repeatable).")
@click.option("--out", type=SafePath(path_type=Path, file_okay=False), required=True,
              help="Folder to write the class files into (OUT/<nation>/<id>.yaml).")
@reported
def import_(sheet: Path, rulesets: tuple[str, ...], out: Path) -> None:
    """Turn a spreadsheet (.csv or .xlsx) of ship classes into checked class files.

    The first row names the fields (`name`, `length (m)`, `guns.0.bore_in`, `ships.name`);
    rows with one `id` are one class, one row per ship. Every bad cell is reported at its
    place and nothing is written until the whole sheet is good (see docs/designers.md).
    """
    from generator.core.suggest import did_you_mean
    from generator.data.spreadsheet import import_table
    from generator.rulesets import REGISTRY

    for name in rulesets:
        if name not in REGISTRY:
            raise UsageError(f"--ruleset: no ruleset '{name}'{did_you_mean(name, REGISTRY)}")
    written = import_table(sheet, out, list(rulesets) or None)
    for path in written:
        say(f"wrote {path}")
    say(f"imported {len(written)} class{'es' if len(written) != 1 else ''}; check them "
        f"with: quarterdeck check {out}")


@main.command()
@click.argument("what", type=click.Choice(["classes"]))
@click.option("--format", "fmt", type=click.Choice(["csv", "xlsx"]), default=None,
              help="Spreadsheet format (default: from --out's suffix, else csv).")
@click.option("--out", type=SafePath(path_type=Path, dir_okay=False), default=None,
              help="File to write (default: classes.csv or classes.xlsx here).")
@data_option
@reported
def export(what: str, fmt: str | None, out: Path | None, data: tuple[Path, ...]) -> None:
    """Write the ship library (bundled plus --data) as a spreadsheet, one row per ship.

    `quarterdeck import` reads the file back unchanged.
    """
    from generator.core.output import write_atomic
    from generator.data.sheetexport import export_csv, export_xlsx, library_classes

    if fmt is None:
        fmt = "xlsx" if out is not None and out.suffix.lower() == ".xlsx" else "csv"
    out = out or Path(f"classes.{fmt}")
    if out.suffix.lower() != f".{fmt}":
        raise UsageError(f"--out: found '{out.name}', expected a .{fmt} file for "
                         f"--format {fmt}")
    models = library_classes(list(data))
    write_atomic(out, export_csv(models) if fmt == "csv" else export_xlsx(models))
    say(f"wrote {out} ({len(models)} classes)")


@main.command()
@click.argument("class_id")
@click.option("--ruleset", default=None,
              help="Whose rendering (default: the first ruleset that rates the class).")
@click.option("--component", "kind",
              type=click.Choice(["status", "marker", "card", "counter"]), default="status",
              show_default=True, help="Which piece: the status or data sheet, the "
              "marker or counter sheet, or the class's catalog card.")
@click.option("--ship", default=None, help="Which ship of the class (default: the first).")
@click.option("--png", "png", type=SafePath(path_type=Path, dir_okay=False), default=None,
              help="PNG file to write (default: preview-CLASS-COMPONENT.png here).")
@click.option("--dpi", type=click.IntRange(36, 600), default=100, show_default=True,
              help="Resolution of the PNG (stored in the file).")
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False),
              default="a4", show_default=True, help="Paper size.")
@data_option
@reported
def preview(class_id: str, ruleset: str | None, kind: str, ship: str | None, png: Path | None,
            dpi: int, paper: str, data: tuple[Path, ...]) -> None:
    """Render one component of one class to PNG, without building a kit."""
    from generator.core.output import write_atomic
    from generator.kit.preview import preview as make_preview

    made = make_preview(class_id, ruleset=ruleset, kind=kind,  # type: ignore[arg-type]
                        dpi=dpi, data=list(data), paper=paper, ship=ship)
    png = png or Path(f"preview-{class_id}-{kind}.png")
    write_atomic(png, made.png)
    say(f"wrote {png} ({made.ruleset} {kind}, {made.size[0]}x{made.size[1]} px at {dpi} dpi, "
        f"rendered in {made.seconds * 1000:.0f} ms)")


@main.command()
@click.argument("folder", type=SafePath(path_type=Path, file_okay=False, exists=True))
@click.option("--class", "class_id", default=None,
              help="Which class (default: the only class file in FOLDER).")
@click.option("--ruleset", default=None, help="Whose rendering (default: the first that "
              "rates the class).")
@click.option("--component", "kind",
              type=click.Choice(["status", "marker", "card", "counter"]), default="status",
              show_default=True, help="Which piece to preview.")
@click.option("--png", "png", type=SafePath(path_type=Path, dir_okay=False), default=None,
              help="PNG to keep up to date (default: preview-CLASS-COMPONENT.png here).")
@click.option("--dpi", type=click.IntRange(36, 600), default=100, show_default=True)
@click.option("--proof", is_flag=True, help="Rebuild the class's proof kit (build --class) "
              "into --out instead of a preview.")
@click.option("--out", type=SafePath(path_type=Path, file_okay=False), default=Path("output"),
              show_default=True, help="With --proof: the output folder.")
@click.option("--interval", type=click.FloatRange(0.1, 60), default=0.5, show_default=True,
              help="Seconds between looks at the folder.")
@click.option("--once", is_flag=True, help="Build once and stop (exit 2 if the data is "
              "broken).")
@click.option("--iterations", type=click.IntRange(0, 10**9), default=None, hidden=True,
              help="Stop after this many looks (for tests).")
@reported
def watch(folder: Path, class_id: str | None, ruleset: str | None, kind: str, png: Path | None,
          dpi: int, proof: bool, out: Path, interval: float, once: bool,
          iterations: int | None) -> None:
    """Rebuild a class's preview (or proof kit) whenever a file in FOLDER changes.

    Broken data shows its located problems; the last good output stays in place.
    """
    from generator.kit.watch import Outcome, Watcher

    chosen = class_id or _only_class(folder)
    target = png or Path(f"preview-{chosen}-{kind}.png")

    def build() -> list[str]:
        from generator.core.output import write_atomic
        from generator.kit.pipeline import build_class
        from generator.kit.preview import preview as make_preview

        if proof:
            results = build_class(chosen, rulesets=[ruleset] if ruleset else None,
                                  data=[folder], out=out)
            return [f"wrote {r.folder / name}" for r in results for name in r.files]
        made = make_preview(chosen, ruleset=ruleset, kind=kind,  # type: ignore[arg-type]
                            dpi=dpi, data=[folder])
        write_atomic(target, made.png)
        return [f"wrote {target} ({made.seconds * 1000:.0f} ms)"]

    def show(outcome: Outcome) -> None:
        for message in outcome.warnings:
            warn(message)
        for line in outcome.lines:
            (say if outcome.ok else tell)(line)

    if not once:
        tell(f"watching {folder} (Ctrl-C to stop)")
    last = Watcher(folder, build, ignore=(out if proof else target,)).run(
        show, interval=interval, iterations=0 if once else iterations)
    if once and not last.ok:
        sys.exit(2)


def _only_class(folder: Path) -> str:
    """The one class file in a folder (``watch`` without ``--class``)."""
    from generator.data.library import data_files
    from generator.data.yamlsource import load_yaml

    found = []
    for path in data_files(folder):
        doc, _ = load_yaml(path)
        if isinstance(doc.data, dict) and doc.data.get("kind") == "ship-class":
            found.append(path.stem)
    if len(found) != 1:
        raise UsageError(f"{folder}: found {len(found)} class files"
                         f"{' (' + ', '.join(found[:5]) + ')' if found else ''}, expected "
                         "one; name the class with --class ID")
    return found[0]
@main.command()
@click.argument("event_file", metavar="EVENT_FILE",
                type=SafePath(path_type=Path, dir_okay=False, exists=True))
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@click.option("--out", type=SafePath(path_type=Path, file_okay=False), default=Path("output"),
              show_default=True, help="Output folder; the event's folder is made inside it.")
@data_option
@reported
def event(event_file: Path, quiet: bool, out: Path, data: tuple[Path, ...]) -> None:
    """Build a whole convention from EVENT_FILE: every table's packs, covers, bundle.

    Writes OUT/<event>/<paper>/table-NN-<scenario>/ (one PDF per side and the referee's,
    each behind a cover sheet), OUT/<event>/<paper>/print-shop.pdf (every pack in print
    order behind a summary of pages, paper and card) and OUT/<event>/inventory.csv.
    See examples/convention.yaml.
    """
    from generator.kit.event import build_event

    if quiet or not sys.stderr.isatty():
        result = build_event(event_file, data=list(data), out=out)
    else:
        with progress_bar("building the event", "{task.completed}/{task.total} builds") as update:
            result = build_event(event_file, data=list(data), out=out,
                                 progress=lambda done, total: update(total=total,
                                                                     completed=done))
    report(result, quiet)


def _ruleset_commands() -> None:
    """Add the commands rulesets bring (``Ruleset.commands``) to ``quarterdeck``, once."""
    from generator.rulesets import REGISTRY

    if _RULESET_COMMANDS:
        return
    _RULESET_COMMANDS.append("")  # once, even when no ruleset brings a command
    for ruleset in REGISTRY.values():
        for command in ruleset.commands():
            if command.name in main.commands:
                raise RuntimeError(f"ruleset {ruleset.name} adds a command "
                                   f"'{command.name}' that already exists")
            if command.callback is not None and not hasattr(command.callback, "inert"):
                command.callback = _inert_output(command.callback)
            main.add_command(command)
            _RULESET_COMMANDS.append(str(command.name))


def _inert_output(callback: Callable[..., Any]) -> Callable[..., Any]:
    """``callback`` with stdout and stderr inert while it runs (``terminal.InertStream``).

    A ruleset's command may print user text (a label from a ``--tables`` file) with
    ``click.echo`` rather than through ``say``, ``tell`` or ``user_console``.
    """
    from generator.core.terminal import InertStream

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = InertStream(saved[0]), InertStream(saved[1])
        try:
            return callback(*args, **kwargs)
        finally:
            sys.stdout, sys.stderr = saved

    run.inert = True  # type: ignore[attr-defined]
    return run


_RULESET_COMMANDS: list[str] = []
"""Names of the commands the rulesets added (after a leading marker once they were)."""


def _ruleset_command_help() -> dict[str, str]:
    """Each ruleset command's one-line help, by name, from the user cache when it can."""
    from generator.cache import usercache
    from generator.rulesets import cache_key

    key = cache_key()
    cached = usercache.load("commands", key) if key is not None else None
    if isinstance(cached, dict) and all(isinstance(k, str) and isinstance(v, str)
                                        for k, v in cached.items()):
        return cached
    _ruleset_commands()
    found = {name: main.commands[name].get_short_help_str(limit=200)
             for name in _RULESET_COMMANDS[1:] if name in main.commands}
    if key is not None:
        usercache.store("commands", key, found)
    return found

