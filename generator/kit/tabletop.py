"""Play a kit online: ``quarterdeck vassal`` and ``quarterdeck tts`` as requests.

Both compose the scenario's kit once with its pieces' artwork (``export``), read its
inventory (``generator.kit.inventory``) and hand both to a writer: the VASSAL module
(``generator.kit.vassal``) or the Tabletop Simulator save (``generator.kit.ttssave``).
Their output folders are the user's: written into file by file, never swapped
(``generator.core.output``), and the kit's ``pieces.json`` goes beside each.
"""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import UsageError
from generator.core.output import transaction, write_atomic
from generator.kit.inventory import PIECES_JSON, Inventory, inventory
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
    return kit, inventory(kit, kit.online)


def setup_positions(kit: Kit) -> list[Placement]:
    """Starting positions from the scenario's ``setup:`` block: the hook for at-start stacks.

    No bundled scenario gives positions yet, so this returns none. When scenarios carry a
    ``setup:`` block, its positions become one ``Placement`` per piece: the piece's id as
    in ``pieces.json`` (``ship.richmond``) and its x and y in cm from the sea board's
    top-left corner. ``write_vmod`` puts each in an at-start stack on the table
    (``vassalxml.setup_stacks``, tested in ``tests/engine/test_vassal.py``).
    """
    del kit  # read once scenarios give positions
    return []


def build_vassal(scenario: str | None, *, data: list[Path] | None = None,
                 out: Path = DEFAULT_OUT) -> BuildResult:
    """Write ``OUT/<scenario>.vmod`` and the kit's inventory, ``OUT/<scenario>.pieces.json``."""
    kit, inv = online_kit(scenario, data)
    name = inv.scenario or "kit"
    with transaction() as txn:
        folder = txn.stage(out, named=True)
        module = write_vmod(inv, kit.pieces, kit.files, folder / f"{name}.vmod",
                            setup_positions(kit))
        write_atomic(folder / f"{name}.{PIECES_JSON}", inv.json_bytes())
    result = BuildResult(out, {}, out / f"{name}.{PIECES_JSON}", kit.warnings, kit.notices)
    result.exports.append(f"{out / (name + '.vmod')} (VASSAL {len(module.slots)} pieces in "
                          f"trays, {len(inv.of_kind('deck'))} decks, "
                          f"{len(inv.of_kind('chart'))} charts, pieces at {DPI} dpi)")
    return result


def build_tts(scenario: str | None, *, data: list[Path] | None = None,
              out: Path | None = None) -> BuildResult:
    """Write the TTS saved object, its images and ``pieces.json`` into ``out``.

    By default ``out`` is ``output/online/<scenario>-tts``.
    """
    from generator.kit.ttssave import write_save

    kit, inv = online_kit(scenario, data)
    name = inv.scenario or "kit"
    out = out or DEFAULT_OUT / f"{name}-tts"
    with transaction() as txn:
        folder = txn.stage(out, named=True)
        write_save(inv, kit.pieces, folder, out, name)
        write_atomic(folder / PIECES_JSON, inv.json_bytes())
    result = BuildResult(out, {}, out / PIECES_JSON, kit.warnings, kit.notices)
    tiles = sum(item.copies for item in inv.of_kind("counter"))
    result.exports.append(f"{out / (name + '.json')} (Tabletop Simulator saved object: "
                          f"{tiles} tiles, {len(inv.of_kind('deck'))} decks, "
                          f"{sum(d.copies for d in inv.of_kind('die'))} dice; copy it into "
                          "Saves/Saved Objects)")
    return result
