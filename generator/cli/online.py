"""Commands that put a kit on an online table: ``vassal`` and ``tts``.

Each composes the scenario's kit with its pieces' artwork, reads its inventory and
writes one export: a VASSAL module or a Tabletop Simulator saved object.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator.kit.options import data_option, out_option, report


@click.command()
@click.argument("scenario", required=False)
@out_option("Folder for <scenario>.vmod (default: output/online).",
            default=Path("output") / "online")
@data_option
def vassal(scenario: str | None, out: Path, data: tuple[Path, ...]) -> None:
    """Write SCENARIO's VASSAL module, OUT/<scenario>.vmod (for VASSAL 3.7 and later).

    Each side's pieces in its own tray at their printed size, two-sided pieces turned
    over with Ctrl+F, decks shuffled face down, the charts, the dice and the table.
    """
    from generator.kit.tabletop import build_vassal

    report(build_vassal(scenario, data=list(data), out=out))


@click.command()
@click.argument("scenario", required=False)
@out_option("Folder for the saved object and its images (default: "
            "output/online/<scenario>-tts).", default=None)
@data_option
def tts(scenario: str | None, out: Path | None, data: tuple[Path, ...]) -> None:
    """Write SCENARIO as a Tabletop Simulator saved object, with its images.

    Decks from sheets of at most 10 x 7 cards with their backs, two-sided tiles for the
    counters and markers, and the scenario's dice. Copy the folder's JSON into TTS's
    Saves/Saved Objects folder.
    """
    from generator.kit.tabletop import build_tts

    report(build_tts(scenario, data=list(data), out=out))


COMMANDS = [vassal, tts]
"""This module's commands, added to ``quarterdeck`` by ``generator.cli.main``."""
