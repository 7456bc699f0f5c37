"""``quarterdeck event``: a whole convention's packs, covers and print-shop bundle."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.progress import progress_bar, shown
from generator.core.pathargs import SafePath
from generator.kit.options import data_option, out_option, quiet_option, report


@click.command()
@click.argument("event_file", metavar="EVENT_FILE",
                type=SafePath(path_type=Path, dir_okay=False, exists=True))
@quiet_option
@out_option("Output folder; the event's folder is made inside it.")
@data_option
def event(event_file: Path, quiet: bool, out: Path, data: tuple[Path, ...]) -> None:
    """Build a whole convention from EVENT_FILE: every table's packs, covers, bundle.

    Writes OUT/<event>/<paper>/table-NN-<scenario>/ (one PDF per side and the referee's,
    each behind a cover sheet), OUT/<event>/<paper>/print-shop.pdf (every pack in print
    order behind a summary of pages, paper and card) and OUT/<event>/inventory.csv.
    See examples/convention.yaml.
    """
    from generator.kit.event import build_event

    if not shown(quiet):
        result = build_event(event_file, data=list(data), out=out)
    else:
        said = ["building the event"]  # the build just finished, shown with the count
        with progress_bar(said[0], "{task.completed}/{task.total} builds") as update:
            result = build_event(event_file, data=list(data), out=out,
                                 progress=lambda done, total: update(
                                     total=total, completed=done, description=said[0]),
                                 announce=lambda built: said.__setitem__(0, f"built {built}"))
    report(result, quiet)


COMMANDS = [event]
"""This module's commands, added to ``quarterdeck`` by ``generator.cli.main``."""
