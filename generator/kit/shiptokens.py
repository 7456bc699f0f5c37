"""Where each scenario ship starts on an online table, and a token for a ship with no piece.

The set-up map (``generator.aids.setupmap``) draws every group of a scenario's ``setup:``
block from ``generator.data.setup.placements``; an online table starts from the very same
numbers. ``starts`` turns them into one ``Start`` per ship: the piece that stands for her,
her position in millimetres from the table's north-west (top-left) corner, as a screen or
a VASSAL board counts, and her course.

A ship's piece is the kit's own counter of her side when it has one (a NAVAL ACTION ship
marker, titled ``Chokai (Takao)``); a ruleset whose sheets print no counter per ship
(formation blanks, radar contacts) gets a token per ship from ``ship_tokens``: a bar with
her hull drawn the way the map draws its ship markers, in her side's colour, bow to the
right like a ship marker's, and her name. Tokens are for online tables only; no sheet
prints them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.aids.setupmap import SIDE_COLOURS, MapInput, draw_hull, hull_points
from generator.core import fonts
from generator.core.slugs import slug
from generator.core.units import MM
from generator.data.setup import placements, table_size
from generator.pages.autofit import fit_label
from generator.pieces.pieces import Art, Piece

if TYPE_CHECKING:
    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

TOKEN_MM = (24.0, 9.0)
"""A ship token's size (length, beam): long enough for a name, a bar like a ship marker."""
TOKEN_GROUP = "ship-token"
SEA = "70,110,150"
"""The open sea's colour on an online table (red, green, blue)."""
SHOAL = (150, 185, 205)


@dataclass(frozen=True)
class Start:
    """One ship at the start of an online game.

    Attributes:
        ship: Her name, as the set-up block gives it.
        side: Her side's id.
        x_mm: Distance from the table's west (left) edge, in mm of table.
        y_mm: Distance from the table's north (top) edge, in mm of table.
        heading: Her course, compass degrees.
        hidden: Her group is hidden from some other side at the start (it starts in its
            side's tray, not on the table).

    """

    ship: str
    side: str
    x_mm: float
    y_mm: float
    heading: float
    hidden: bool


def table_mm(setup: MapInput) -> tuple[float, float]:
    """The table's (width, depth) in millimetres."""
    width, depth = table_size(setup.setup, setup.scale)
    per_unit = 10.0 if setup.scale.unit == "cm" else 25.4
    return width * per_unit, depth * per_unit


def land_mm(setup: MapInput) -> list[dict[str, object]]:
    """The set-up's land and shoals as the map draws them, for an online table.

    Each outline is in mm of table from the top-left corner (x east, y south), with the
    land's name and kind.
    """
    per_unit = 10.0 if setup.scale.unit == "cm" else 25.4
    _, depth = table_mm(setup)
    block = setup.setup
    scale = per_unit / setup.scale.yards_per_unit  # mm of table per yard of sea
    return [{"name": land.name or "", "kind": land.kind,
             "outline": [[round(block.yards(x) * scale, 2),
                          round(depth - block.yards(y) * scale, 2)] for x, y in land.outline]}
            for land in block.land]


def sea_png(board: dict[str, object], size: tuple[int, int], dpi: float,
            ) -> tuple[bytes, tuple[int, int]]:
    """The table's sea with the board's land and shoals (``land_mm``), as a PNG.

    Args:
        board: The inventory's board, its ``land`` outlines in mm from the top-left corner.
        size: The image's size in pixels (the table's size at ``dpi``).
        dpi: Pixels per inch of table.

    Returns:
        The PNG's bytes and its size.

    """
    import io

    from PIL import Image, ImageDraw

    from generator.aids.setupmap import LAND

    land_rgb = [round(LAND.red * 255), round(LAND.green * 255), round(LAND.blue * 255)]
    # A palette image: a table-sized board is tens of millions of pixels of a few colours.
    image = Image.new("P", size, 0)
    image.putpalette([*(int(v) for v in SEA.split(",")), *land_rgb, *SHOAL, 60, 50, 30])
    draw = ImageDraw.Draw(image)
    scale = dpi / 25.4
    lands = board.get("land")
    for land in lands if isinstance(lands, list) else []:
        points = [(x * scale, y * scale) for x, y in land["outline"]]
        draw.polygon(points, fill=1 if land["kind"] == "land" else 2, outline=3)
    out = io.BytesIO()
    image.save(out, "PNG", dpi=(dpi, dpi), compress_level=6)
    return out.getvalue(), image.size


def starts(setup: MapInput) -> list[Start]:
    """Every ship of every group, where the set-up map draws her, from the top-left corner."""
    per_unit = 10.0 if setup.scale.unit == "cm" else 25.4
    _, depth = table_mm(setup)
    others = set(setup.sides)
    out: list[Start] = []
    for group in placements(setup.setup, setup.scale):
        hidden = not all(group.seen_by(side) for side in others)
        # The block counts y north from the south edge; a board counts it down from the top.
        out.extend(Start(ship.name, group.side, ship.x * per_unit, depth - ship.y * per_unit,
                         ship.heading, hidden) for ship in group.ships)
    return out


def own_piece(start: Start, counters: Iterable[tuple[str, str, str | None]]) -> str | None:
    """The id of the kit's counter for this ship: one of her side titled with her name.

    ``counters`` are (id, title, side). A ship marker is titled with her name, alone or
    followed by her class in brackets (``Chokai (Takao)``).
    """
    for piece_id, title, side in counters:
        if side == start.side and (title == start.ship or title.startswith(f"{start.ship} (")):
            return piece_id
    return None


def token_id(side: str, ship: str) -> str:
    """A token's piece id: ``token.<side>.<ship>``, lower case and hyphens."""
    return f"token.{slug(side)}.{slug(ship)}"


def ship_tokens(setup: MapInput, wanted: Callable[[Start], bool]) -> list[Piece]:
    """A token piece for every starting ship ``wanted`` says needs one, in set-up order."""
    colour = {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(setup.sides)}
    out: list[Piece] = []
    for start in starts(setup):
        if wanted(start):
            out.append(Piece(token_id(start.side, start.ship), start.ship, TOKEN_MM[0] * MM,
                             TOKEN_MM[1] * MM, _face(start.ship, colour[start.side]),
                             group=TOKEN_GROUP, ends="x"))
    return out


def _face(name: str, colour: Color) -> Art:
    """A token's face: a pale bar, her hull in her side's colour bow to the right, her name."""
    from reportlab.lib import colors

    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        c.setFillColor(colors.Color(0.95, 0.95, 0.92))
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        draw_hull(c, hull_points(w / 2, h / 2, 90, w - 1.6 * MM, h - 2.4 * MM), colour, 0.4)
        # The one label fitter: shrink to its floor, then the shortest honest form.
        fitted = fit_label(name, fonts.NARROW_BOLD, 7.0, w - 6 * MM)
        c.setFillColor(colors.white)
        c.setFont(fonts.NARROW_BOLD, fitted.size)
        c.drawCentredString(w / 2, h / 2 - fitted.size * 0.35, fitted.text)

    return art

