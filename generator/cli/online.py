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
    over with Ctrl+F, decks shuffled face down, the charts, the dice and the table, with
    every ship where the scenario's set-up map puts her.
    """
    from generator.kit.tabletop import build_vassal

    report(build_vassal(scenario, data=list(data), out=out))


@click.command()
@click.argument("scenario", required=False)
@out_option("Folder for the saved object and its images (default: "
            "output/online/<scenario>-tts).", default=None)
@click.option("--image-url", metavar="BASE", default=None,
              help="Name the images by this http(s) address, where you upload the output "
                   "folder (its subfolders as they are), so every player's TTS can load "
                   "them. Default: file:/// paths on this machine.")
@data_option
def tts(scenario: str | None, out: Path | None, image_url: str | None,
        data: tuple[Path, ...]) -> None:
    """Write SCENARIO as a Tabletop Simulator saved object, with its images.

    Decks from sheets of at most 10 x 7 cards with their backs, two-sided tiles for the
    counters and markers, the ships on the table where the scenario's set-up puts them,
    and the scenario's dice. Copy the folder's JSON into TTS's Saves/Saved Objects
    folder. Its images are named by file:/// paths, which only this machine can open;
    to share the save, upload the folder and give its address with --image-url.
    """
    from generator.kit.tabletop import build_tts

    report(build_tts(scenario, data=list(data), out=out, image_url=image_url))


COMMANDS = [vassal, tts]
"""This module's commands, added to ``quarterdeck`` by ``generator.cli.main``."""
