"""Commands for designers at work: ``preview`` one component, ``watch`` a folder.

Both render one class's piece (or, with ``watch --proof``, its proof kit) without
building a scenario's kit, from the seam's preview; ``watch`` keeps the last good
output in place while the data is broken.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.core.commandline import say, tell, warn
from generator.core.errors import UsageError
from generator.core.pathargs import SafePath
from generator.kit.options import (
    class_option,
    component_option,
    data_option,
    dpi_option,
    out_option,
    paper_option,
    png_option,
    ruleset_option,
    ship_option,
)


@click.command()
@click.argument("class_id")
@ruleset_option("Whose rendering (default: the first ruleset that rates the class).")
@component_option("Which piece: a component of the ruleset's class proof by name (status, "
                  "marker, counter...), or card, the class's catalog card.")
@ship_option("Which ship of the class (default: the first).")
@png_option("PNG file to write (default: preview-CLASS-COMPONENT.png here).")
@dpi_option(help="Resolution of the PNG (stored in the file).")
@paper_option
@data_option
def preview(class_id: str, ruleset: str | None, kind: str, ship: str | None, png: Path | None,
            dpi: int, paper: str, data: tuple[Path, ...]) -> None:
    """Render one component of one class to PNG, without building a kit."""
    from generator.core.output import write_atomic
    from generator.kit.preview import preview as make_preview

    made = make_preview(class_id, ruleset=ruleset, kind=kind,
                        dpi=dpi, data=list(data), paper=paper, ship=ship)
    png = png or Path(f"preview-{class_id}-{kind}.png")
    write_atomic(png, made.png)
    say(f"wrote {png} ({made.ruleset} {kind}, {made.size[0]}x{made.size[1]} px at {dpi} dpi, "
        f"rendered in {made.seconds * 1000:.0f} ms)")


@click.command()
@click.argument("folder", type=SafePath(path_type=Path, file_okay=False, exists=True))
@class_option("Which class (default: the only class file in FOLDER).")
@ruleset_option("Whose rendering (default: the first that rates the class).")
@component_option("Which piece to preview.")
@png_option("PNG to keep up to date (default: preview-CLASS-COMPONENT.png here).")
@dpi_option()
@click.option("--proof", is_flag=True, help="Rebuild the class's proof kit (build --class) "
              "into --out instead of a preview.")
@out_option("With --proof: the output folder.")
@click.option("--interval", type=click.FloatRange(0.1, 60), default=0.5, show_default=True,
              help="Seconds between looks at the folder.")
@click.option("--once", is_flag=True, help="Build once and stop (exit 2 if the data is "
              "broken).")
@click.option("--iterations", type=click.IntRange(0, 10**9), default=None, hidden=True,
              help="Stop after this many looks (for tests).")
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
        made = make_preview(chosen, ruleset=ruleset, kind=kind,
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


COMMANDS = [preview, watch]
"""This module's commands, added to ``quarterdeck`` by ``generator.cli.main``."""
