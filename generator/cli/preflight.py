"""``quarterdeck preflight FILE.pdf...``: check PDFs as a print shop's preflight would.

What is checked, and the thresholds, are ``generator.kit.preflight``'s. Each finding is
one line on stdout, ``FILE: page N: OBJECT: failure|warning: WHAT (found X, expected Y)``,
then one summary line per file; a file that cannot be read (missing, not a PDF,
encrypted) is a located problem on stderr. The exit status is 2 when any file has a
failure or cannot be read, 0 otherwise (warnings alone pass, as they do at the shop).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.core.commandline import labelled, say, tell
from generator.core.pathargs import SafePath


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE.pdf...",
                type=SafePath(path_type=Path, dir_okay=True))
@click.option("--standard", type=click.Choice(["any", "pdfx4"]), default="any",
              show_default=True,
              help="pdfx4: every file must be PDF/X-4, with its output intent and "
                   "metadata. any: the PDF/X checks apply only to files that declare "
                   "PDF/X; page boxes, fonts, colour, images and lines are always checked.")
def preflight(files: tuple[Path, ...], standard: str) -> None:
    """Check PDFs before sending them to a print shop: page boxes, fonts, colour, images.

    Reports, per file, what a print shop's preflight would: missing TrimBox or BleedBox,
    fonts not embedded or sharing a name, RGB or four-ink black text, images under 150
    ppi, lines under 0.25 pt and missing PDF/X markers. Exit status 2 on any failure.
    """
    from generator.kit.preflight import Unreadable
    from generator.kit.preflight import preflight as check

    failed = passed = 0
    unreadable = 0
    for path in files:
        try:
            report = check(path, standard=standard)  # type: ignore[arg-type]
        except Unreadable as error:
            tell(str(error.problem))
            unreadable += 1
            continue
        for finding in report.findings:
            say(str(finding))
        say(report.summary())
        failed, passed = (failed + 1, passed) if report.failures else (failed, passed + 1)
    if len(files) > 1:
        say(f"preflight: {len(files)} files: {passed} passed, {failed} failed"
            + (f", {unreadable} unreadable" if unreadable else ""))
    if unreadable:
        labelled("error:", "red", f"{unreadable} file{'s' if unreadable != 1 else ''} "
                 "could not be preflighted", bold=True)
    if failed or unreadable:
        sys.exit(2)


COMMANDS = (preflight,)
