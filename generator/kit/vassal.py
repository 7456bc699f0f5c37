"""A VASSAL module (``.vmod``) from a kit and its inventory.

The module is a zip: ``buildFile.xml`` (the components), ``moduledata`` (its name and the
VASSAL version it is written for, 3.7.0) and ``images/``. It holds, from the inventory
(``generator.kit.inventory``), never from the order of battle again:

- a piece tray (PieceWindow) per side and one for what the table shares, every piece at
  its printed size at ``DPI`` dots per inch, two-sided pieces turned over with Ctrl+F (a
  Layer trait); where the packets keep each side's information apart, a side's pieces
  answer to its own player only (Restricted Access);
- a Table map: a sea board sized to the table with a measuring thread reading in the
  scale's units, or the kit's own board page (a route chart, a sea-box overlay); each
  deck shuffled face down on it (DrawPile, cards masked);
- the charts (the card, the tables, the matchup pages) rendered from the kit's packets
  in a chart window; the dice as dice buttons; the sides as a player roster; the traits
  every piece shares as prototypes.

At-start stacks come from the inventory's starting positions (a scenario's ``setup:``,
the set-up map's own numbers): each ship on the table, or, in a hidden group, on her
side's plot, a private copy of the sea board.
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from generator.core.errors import RenderError
from generator.kit.inventory import Inventory, Item
from generator.kit.shiptokens import sea_png
from generator.kit.vassalxml import (
    DPI,
    SEA_IMAGE,
    VASSAL_VERSION,
    Placement,
    build_file,
    sea_size,
    unit_of,
)
from generator.pieces.export import export_pngs
from generator.pieces.pieces import Piece

__all__ = ["DPI", "Module", "Placement", "write_vmod"]

CHART_DPI = 150
"""Charts are read, not measured: a little sharper than the table."""


@dataclass
class Module:
    """What ``write_vmod`` put in the module, for the caller's report and the tests."""

    path: Path
    images: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Image file to its size in pixels."""
    slots: dict[str, str] = field(default_factory=dict)
    """Piece id to the tray it is in."""


def write_vmod(inventory: Inventory, pieces: Sequence[Piece], files: dict[str, bytes],
               path: Path, setup: Sequence[Placement] = ()) -> Module:
    """Write ``path`` (a ``.vmod``) for a kit.

    Args:
        inventory: The kit's inventory, with the ruleset's dice, charts and board.
        pieces: The kit's pieces with their artwork (a build composed with ``export``).
        files: The kit's packet files (charts and boards are rendered from their pages).
        path: Where the module goes (written atomically by the caller's ``write``).
        setup: Starting positions, when the scenario gives them.

    Returns:
        The images and trays written.

    Raises:
        RenderError: A starting position names a piece the kit does not have, or a
            piece fails to draw.
        OutputError: The module cannot be written.

    """
    known = {item.id for item in inventory.items}
    for place in setup:  # before any drawing: a wrong id is the caller's, say so at once
        if place.piece not in known:
            raise RenderError(f"setup: piece {place.piece!r} is not in the kit")
    module = Module(path)
    images: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="quarterdeck-vmod-") as tmp:
        for entry in export_pngs(list(pieces), Path(tmp), DPI):
            images[entry.path] = (Path(tmp) / entry.path).read_bytes()
            module.images[entry.path] = (entry.width_px, entry.height_px)
    for item in inventory.of_kind("chart", "board"):
        _render_pages(item, files, images, module)
    if inventory.board.get("land") and not inventory.of_kind("board"):
        _sea_board(inventory, images, module)
    build, contents = build_file(inventory, _name(inventory), _description(inventory),
                                 module.images, setup)
    module.slots = contents.slots
    text = _help(inventory)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in [("buildFile.xml", build.encode()),
                           ("moduledata", _moduledata(inventory).encode()),
                           ("help/about.html", text.encode())]:
            _store(archive, name, data)
        for name in sorted(images):
            _store(archive, f"images/{name}", images[name], zipfile.ZIP_STORED)
    from generator.core.output import write_atomic

    write_atomic(path, buffer.getvalue())
    return module


def _store(archive: zipfile.ZipFile, name: str, data: bytes,
           compress: int = zipfile.ZIP_DEFLATED) -> None:
    # A fixed date: the same kit writes the same module, byte for byte.
    info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
    info.compress_type = compress
    archive.writestr(info, data)


def _render_pages(item: Item, files: dict[str, bytes], images: dict[str, bytes],
                  module: Module) -> None:
    """Render a chart's or board's pages from the kit's packets to PNG."""
    import pypdfium2  # type: ignore[import-untyped]

    dpi = DPI if item.kind == "board" else CHART_DPI
    for ref, name in zip(item.pages, item.faces, strict=True):
        pdf = pypdfium2.PdfDocument(files[ref.file])
        try:
            page = pdf[ref.page]
            width, height = page.get_size()
            image = page.render(scale=dpi / 72).to_pil()
        finally:
            pdf.close()
        # PDFium rounds the bitmap up; the page is round(points * dpi / 72) pixels.
        size = (round(width * dpi / 72), round(height * dpi / 72))
        if image.size != size:
            image = image.resize(size)
        out = io.BytesIO()
        # Fast compression: the module is zipped, and a chart page is a large image.
        image.convert("RGB").save(out, "PNG", dpi=(dpi, dpi), compress_level=1)
        images[name] = out.getvalue()
        module.images[name] = image.size


def _sea_board(inventory: Inventory, images: dict[str, bytes], module: Module) -> None:
    """The sea board's image: the open sea with the set-up's land and shoals, at ``DPI``."""
    data, size = sea_png(inventory.board, sea_size(inventory), DPI)
    images[SEA_IMAGE] = data
    module.images[SEA_IMAGE] = size


def _name(inventory: Inventory) -> str:
    """The module's name: the scenario's, and the rules'."""
    return f"{inventory.scenario_name} ({inventory.ruleset_title})"


def _description(inventory: Inventory) -> str:
    """The module's description, which states the resolution pieces are drawn at."""
    return (f"{inventory.scenario_name} for {inventory.ruleset_title}: pieces at their printed "
            f"size at {DPI} dpi, made by quarterdeck")


def _moduledata(inventory: Inventory) -> str:
    """``moduledata``: what VASSAL reads before it opens the module."""
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            f"  <version>1.0</version>\n  <extra1/>\n  <extra2/>\n"
            f"  <VassalVersion>{VASSAL_VERSION}</VassalVersion>\n"
            "  <dateSaved>946684800000</dateSaved>\n"
            f"  <description>{escape(_description(inventory))}</description>\n"
            f"  <name>{escape(_name(inventory))}</name>\n</data>\n")


def _help(inventory: Inventory) -> str:
    """The module's help page: the resolution, the trays, the table and the decks."""
    board = inventory.board
    scale = str(board.get("scale") or "")
    unit = unit_of(inventory)
    lines = [
        f"<h1>{escape(_name(inventory))}</h1>",
        f"<p>Every piece is drawn at its printed size at {DPI} dots per inch: at 100% zoom "
        f"a centimetre of the printed sheet is {DPI / 2.54:g} pixels.</p>",
        "<p>Each side's pieces are in its own tray; what the table shares is in the Table "
        "tray. Ctrl+F turns a two-sided piece over; Ctrl+D removes a piece.</p>",
    ]
    if not inventory.of_kind("board"):
        land = " with the set-up's land and shoals" if board.get("land") else ""
        width = float(str(board.get("width", 180)))
        height = float(str(board.get("height", 120)))
        size = f"{width:g} by {height:g} cm" + (
            f" ({width / 2.54:.4g} by {height / 2.54:.4g} in)" if unit == "in" else "")
        lines.append(f"<p>The sea board is {size}{land}, the table the game is played on. The "
                     f"Measure button reads distances in {unit}"
                     f"{' (' + escape(scale) + ')' if scale else ''}.</p>")
    placed = [item for item in inventory.items if item.at is not None]
    if placed:
        lines.append("<p>Each ship starts on the table where the scenario's set-up map puts "
                     "her, on her course; Ctrl+R turns her to a new one.</p>")
    if any(item.start_hidden for item in placed):
        lines.append("<p>A ship of a hidden group starts on her side's plot, a copy of the "
                     "sea board only that side sees; move her to the same place on the table "
                     "when the rules reveal her.</p>")
    if inventory.hidden:
        lines.append("<p>A side's pieces answer to its own player only, and its matchup "
                     "pages lie on its own desk, a window only that side sees.</p>")
    if inventory.of_kind("deck"):
        lines.append("<p>Each deck starts shuffled, face down; draw from it on the table.</p>")
    return "<html><body>" + "\n".join(lines) + "</body></html>\n"
