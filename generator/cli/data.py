"""Commands about data: ``check``, ``list``, the scaffolds, spreadsheets, ``catalog``, ``docs``.

``check`` and ``list`` are light: from the user cache they import no ruleset. The
scaffolds (``new-class``, ``new-scenario``), ``convert`` and the spreadsheets
(``import``, ``export``) write the user's files, never over one already there.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from generator.cli.replay import Replay
from generator.core.commandline import say, tell, warn
from generator.core.errors import DataError, UsageError
from generator.core.pathargs import SafePath
from generator.kit.options import (
    data_option,
    nation_option,
    out_option,
    ruleset_option,
    write_options,
)


@click.command()
@click.argument("paths", nargs=-1, type=SafePath(path_type=Path))
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
    if paths:
        # The user's own classes, each once; the bundled classes' notes are the same on
        # every run, so `check` alone lists them and a check of a folder only counts them.
        for line in library.yours:
            tell(line)
        if library.unrated:
            tell(f"note: {len(library.unrated)} notes on bundled classes some ruleset cannot "
                 "rate are left out; `quarterdeck check` with no folder lists them")
    else:
        for line in library.unrated:  # one ship library (issue 14)
            tell(line)
    yours = sum(1 for line in library.yours if not line.startswith(" "))
    mine = f" ({yours} of them yours)" if paths else ""
    say(f"ok: {library.classes} classes{mine} and {len(library.scenarios)} scenarios are "
        "valid")


@click.command(name="list")
@click.argument("what", type=click.Choice(["all", "rulesets", "scenarios", "classes"]),
                default="all")
@ruleset_option("Only this ruleset's scenarios and classes.")
@nation_option("Only classes of this navy (US, JP...).")
@data_option
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
    shown = Replay("listing", console, key, repr((what, ruleset, nation)))
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


@click.command(name="new-class")
@click.argument("class_id")
@ruleset_option("Only for a ruleset whose units are not ship classes: its own scaffold. "
                "A ship class is one file for every ruleset.")
@nation_option("The class's navy (US, JP...).", default="US")
@click.option("--type", "ship_type", default="DD", show_default=True)
@out_option("Folder to write CLASS_ID.yaml into.", Path("."))
def new_class(class_id: str, ruleset: str | None, nation: str, ship_type: str,
              out: Path) -> None:
    """Scaffold a commented class file CLASS_ID.yaml, read by every ruleset that rates it."""
    import re

    from generator.core.output import write_atomic
    from generator.core.suggest import did_you_mean
    from generator.kit.seam import new_class_yaml
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


@click.command()
@ruleset_option("Whose classes to list (default: the first ruleset in "
                "`quarterdeck list rulesets`).")
@data_option
@write_options
def catalog(ruleset: str | None, data: tuple[Path, ...], out: Path, paper: str) -> None:
    """Write OUT/catalog.pdf, every class with its game values.

    For the default ruleset the file is OUT/catalog.pdf; for another, the file is
    OUT/catalog-<ruleset>.pdf.
    """
    from generator.core.output import write_atomic
    from generator.core.suggest import did_you_mean
    from generator.data.library import validated_library
    from generator.kit.assemble import assemble_drawn
    from generator.kit.packets import PacketSpec
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


@click.command()
@click.option("--check", "check_only", is_flag=True,
              help="Exit 1 if the files on disk are stale instead of writing.")
@out_option(None, Path("docs"))
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


@click.command()
@click.argument("path", type=SafePath(path_type=Path, dir_okay=False, exists=True))
@out_option("Write the converted file here (default: replace PATH, keeping PATH.bak).",
            None, file=True)
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


@click.command(name="new-scenario")
@click.argument("scenario_id")
@ruleset_option("Whose scenario (default: the first in `quarterdeck list rulesets`).")
@out_option("Folder to write SCENARIO_ID.yaml into.", Path("."))
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


@click.command(name="import")
@click.argument("sheet", type=SafePath(path_type=Path, dir_okay=False))
@ruleset_option("Also require this ruleset to rate every class (repeatable).",
                multiple=True)
@out_option("Folder to write the class files into (OUT/<nation>/<id>.yaml).", None,
            required=True)
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


@click.command()
@click.argument("what", type=click.Choice(["classes"]))
@click.option("--format", "fmt", type=click.Choice(["csv", "xlsx"]), default=None,
              help="Spreadsheet format (default: from --out's suffix, else csv).")
@out_option("File to write (default: classes.csv or classes.xlsx here).", None,
            file=True)
@data_option
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


COMMANDS = [check, list_, new_class, new_scenario, catalog, docs, convert, import_, export]
"""This module's commands, added to ``quarterdeck`` by ``generator.cli.main``."""
