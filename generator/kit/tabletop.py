"""Play a kit online: ``quarterdeck vassal`` and ``quarterdeck tts`` as requests.

Both compose the scenario's kit once with its pieces' artwork (``export``), read its
inventory (``generator.kit.inventory``) and hand both to a writer: the VASSAL module
(``generator.kit.vassal``) or the Tabletop Simulator save (``generator.kit.ttssave``).
Their output folders are the user's: written into file by file, never swapped
(``generator.core.output``), and the kit's ``pieces.json`` goes beside each.
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.core.errors import UsageError
from generator.core.output import transaction, write_atomic
from generator.kit.inventory import PIECES_JSON, Inventory, inventory, ship_pieces
from generator.kit.pipeline import BuildResult, Kit, compose
from generator.kit.registry import default_scenario
from generator.kit.seam import Request
from generator.kit.vassal import DPI, Placement, write_vmod

DEFAULT_OUT = Path("output") / "online"


def online_kit(scenario: str | None, data: list[Path] | None = None) -> tuple[Kit, Inventory]:
    """The scenario's kit, composed with its pieces' artwork, and its inventory."""
    kit = compose(Request("kit", scenario=scenario or default_scenario()), data=data,
                  export=True)
    if kit.online is None:
        raise UsageError(f"{kit.title} has no online.yaml: no dice, charts or board for an "
                         "online table")
    # The ships' tokens (an online table's only: no sheet prints them) are drawn with the
    # other pieces, so the module and the save carry their images.
    kit.pieces.extend(ship_pieces(kit))
    return kit, inventory(kit, kit.online)


def setup_positions(inv: Inventory) -> list[Placement]:
    """Starting positions from the inventory: every piece with an ``at``, in its order.

    The inventory's ``at`` is the set-up map's own position of a ship (mm from the table's
    top-left corner); a ``Placement`` is in cm from the sea board's, the same corner.
    A ship of a hidden group keeps ``hidden``: she starts on her side's plot.
    """
    return [Placement(item.id, item.at[0] / 10, item.at[1] / 10, item.start_hidden)
            for item in inv.items if item.at is not None]


def build_vassal(scenario: str | None, *, data: list[Path] | None = None,
                 out: Path = DEFAULT_OUT) -> BuildResult:
    """Write ``OUT/<scenario>.vmod`` and the kit's inventory, ``OUT/<scenario>.pieces.json``."""
    kit, inv = online_kit(scenario, data)
    name = inv.scenario or "kit"
    with transaction() as txn:
        folder = txn.stage(out, named=True)
        module = write_vmod(inv, kit.pieces, kit.files, folder / f"{name}.vmod",
                            setup_positions(inv))
        write_atomic(folder / f"{name}.{PIECES_JSON}", inv.json_bytes())
    result = BuildResult(out, {}, out / f"{name}.{PIECES_JSON}", kit.warnings, kit.notices)
    result.exports.append(f"{out / (name + '.vmod')} (VASSAL {len(module.slots)} pieces in "
                          f"trays, {len(inv.of_kind('deck'))} decks, "
                          f"{len(inv.of_kind('chart'))} charts, pieces at {DPI} dpi)")
    return result


def image_base(url: str) -> str:
    """``--image-url``: the http(s) address the images folder is uploaded to, ending in /."""
    if not re.match(r"^https?://[^\s/?#]+(/[^\s?#]*)?$", url):
        raise UsageError(f"--image-url: found '{url}', expected the http:// or https:// "
                         "address of the folder the images are uploaded to, e.g. "
                         "https://example.org/my-scenario-tts/")
    return url if url.endswith("/") else url + "/"


def build_tts(scenario: str | None, *, data: list[Path] | None = None,
              out: Path | None = None, image_url: str | None = None) -> BuildResult:
    """Write the TTS saved object, its images and ``pieces.json`` into ``out``.

    By default ``out`` is ``output/online/<scenario>-tts`` and the save names its images
    by ``file:///`` paths there; with ``image_url`` it names them under that address,
    where the user uploads the folder (its subfolders as they are).
    """
    from generator.kit.ttssave import write_save

    base = image_base(image_url) if image_url is not None else None
    kit, inv = online_kit(scenario, data)
    name = inv.scenario or "kit"
    out = out or DEFAULT_OUT / f"{name}-tts"
    with transaction() as txn:
        folder = txn.stage(out, named=True)
        write_save(inv, kit.pieces, folder, base or out, name)
        write_atomic(folder / PIECES_JSON, inv.json_bytes())
    result = BuildResult(out, {}, out / PIECES_JSON, kit.warnings, kit.notices)
    tiles = sum(item.copies for item in inv.of_kind("counter"))
    result.exports.append(f"{out / (name + '.json')} (Tabletop Simulator saved object: "
                          f"{tiles} tiles, {len(inv.of_kind('deck'))} decks, "
                          f"{sum(d.copies for d in inv.of_kind('die'))} dice; copy it into "
                          "Saves/Saved Objects"
                          + (f"; upload the folder's images to {base})" if base else ")"))
    return result
