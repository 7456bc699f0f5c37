"""Pieces: the things a player cuts out (markers, counters, cards), shared by every ruleset.

A piece knows its trim size and how to draw its front (and optional back). The same
piece is placed on printed sheets by ``imposition``, exported one PNG per piece and
gathered into Tabletop Simulator sheets by ``export``; its ``id`` is the same in all
three, so a VASSAL module or a TTS save can be rebuilt and still find its images.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # pieces are described without loading ReportLab; they draw with it
    from reportlab.pdfgen.canvas import Canvas

Art = Callable[["Canvas", float, float, float], None]
"""Draws one face: ``art(canvas, width, height, bleed)``.

The canvas origin is the trim box's lower-left corner; the face is ``width`` x
``height`` points. Backgrounds should extend ``bleed`` points beyond the trim on every
side (the caller clips to trim + bleed); everything else stays inside the trim.
"""


@dataclass
class Piece:
    """One distinct thing to cut out.

    Attributes:
        id: Stable id, lowercase with dots and hyphens (``ship.chokai``); names the PNG
            file and the TTS slot and is written invisibly on the printed sheet.
        title: What a person calls it (warnings and the sheet's index use it).
        width: Trim width in points.
        height: Trim height in points.
        front: Draws the front face.
        back: Draws the back face, or None for a one-sided piece.
        quantity: How many copies to print.
        group: Which sheet region it goes in (a sprue's ``groups`` select by this).
        warnings: What went wrong making it (a label fitted only by the last resort of
            ``autofit``'s rule), each naming the piece; the build reports them.
        ends: The axis along which the piece has distinct ends (``x`` for a ship marker
            with its bow bar at one end), or None. Wherever the flip of the sheet (or
            the fold of a back printed beside its front) turns that axis over, the back
            is drawn mirrored along it, so each end's features lie behind the same end's.
        deck: The name of the deck a card belongs to ("" for a counter or marker): an
            online module shuffles a deck's cards into one face-down draw pile.

    Not frozen: a kit makes thousands, and a frozen dataclass is five times slower to
    create. Treat pieces as read-only.

    """

    id: str
    title: str
    width: float
    height: float
    front: Art
    back: Art | None = None
    quantity: int = 1
    group: str = ""
    warnings: tuple[str, ...] = ()
    ends: Literal["x", "y"] | None = None
    deck: str = ""


def piece_warnings(pieces: Iterable[Piece]) -> list[str]:
    """Every warning the pieces carry, each once, in order (repeated pieces repeat none)."""
    return list(dict.fromkeys(w for piece in pieces for w in piece.warnings))


def draw_face(canvas: Canvas, art: Art, x: float, y: float, width: float, height: float,
              bleed: float = 0.0) -> None:
    """Draw one face with its trim box's lower-left at (x, y), clipped to trim + bleed.

    Args:
        canvas: Where to draw.
        art: The face.
        x: Left edge of the trim box (points).
        y: Bottom edge of the trim box (points).
        width: Trim width (points).
        height: Trim height (points).
        bleed: How far the background may run past the trim (points).

    """
    canvas.saveState()
    canvas.translate(x, y)
    path = canvas.beginPath()
    path.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed)
    canvas.clipPath(path, stroke=0, fill=0)
    art(canvas, width, height, bleed)
    canvas.restoreState()
