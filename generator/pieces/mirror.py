"""A face drawn mirrored, its text still reading: a back whose bow lies behind the bow.

Turning a sheet over (or folding a piece along its gutter) mirrors where a back's
features lie relative to its front. The imposition engine already mirrors *where* a
back goes; for a piece with distinct ends (a ship marker's bow bar, its previous-turn
marker's stern bar) the back must also show its features mirrored, or the bow bar
ends up behind the stern and flipping a submarine to submerge turns her round.

``mirror_art`` draws any face under a mirror along one axis. Shapes, lines and images
are mirrored as they are; each line of text is placed where its mirror image would be
but drawn reading the right way (a mirrored name would be unreadable). Text reaches a
face through ``drawString`` and its aligned variants (``autofit.Fitted.draw`` among them),
which is all a face may use: a text object drawn directly would print mirrored, so the
wrapper refuses it rather than print it wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, cast

from reportlab.pdfbase import pdfmetrics

from generator.core.errors import RenderError

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from generator.pieces.pieces import Art

Axis = Literal["x", "y"]
"""Along which axis a face is mirrored: ``x`` swaps left and right, ``y`` top and bottom."""


class _MirroredText:
    """Stands in for a canvas while a face is drawn under a mirror.

    Everything is passed to the real canvas (which carries the mirror in its transform)
    except text: each string is drawn in a frame that undoes the mirror about its own
    anchor, so it reads normally and occupies the mirror image of its unmirrored box.
    """

    def __init__(self, canvas: Canvas, axis: Axis) -> None:
        object.__setattr__(self, "_canvas", canvas)
        object.__setattr__(self, "_axis", axis)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._canvas, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._canvas, name, value)

    def _text(self, x: float, y: float, text: str, align: str) -> None:
        canvas: Canvas = self._canvas
        font, size = canvas._fontname, canvas._fontsize
        width = pdfmetrics.stringWidth(text, font, size)
        # Where the text's left edge is, relative to its anchor, unmirrored.
        left = {"left": 0.0, "center": -width / 2, "right": -width}[align]
        canvas.saveState()
        canvas.translate(x, y)
        if self._axis == "x":
            canvas.scale(-1, 1)
            # In this frame x runs the page's way again; the box [left, left + width]
            # must land on its mirror image, [-(left + width), -left].
            canvas.drawString(-(left + width), 0, text)
        else:
            canvas.scale(1, -1)
            # The glyphs span [descent, ascent] about the baseline; the mirror image of
            # that span is [-ascent, -descent], so the baseline moves down by
            # ascent + descent.
            ascent, descent = pdfmetrics.getAscentDescent(font, size)
            canvas.drawString(left, -(ascent + descent), text)
        canvas.restoreState()

    def drawString(self, x: float, y: float, text: str, *args: Any,  # noqa: N802
                   **kwargs: Any) -> None:
        """Left-aligned text at its mirrored place, reading normally."""
        self._text(x, y, text, "left")

    def drawRightString(self, x: float, y: float, text: str, *args: Any,  # noqa: N802
                        **kwargs: Any) -> None:
        """Right-aligned text at its mirrored place, reading normally."""
        self._text(x, y, text, "right")

    def drawCentredString(self, x: float, y: float, text: str, *args: Any,  # noqa: N802
                          **kwargs: Any) -> None:
        """Centred text at its mirrored place, reading normally."""
        self._text(x, y, text, "center")

    def drawText(self, *args: Any, **kwargs: Any) -> None:  # noqa: N802
        """Refused: a text object's lines cannot be put right one by one."""
        raise RenderError("a mirrored back draws text only with drawString and its "
                          "aligned variants")


def mirror_art(art: Art, axis: Axis) -> Art:
    """``art`` drawn mirrored along ``axis``, its text still reading the right way."""

    def mirrored(c: Canvas, w: float, h: float, bleed: float) -> None:
        c.saveState()
        if axis == "x":
            c.translate(w, 0)
            c.scale(-1, 1)
        else:
            c.translate(0, h)
            c.scale(1, -1)
        art(cast("Canvas", _MirroredText(c, axis)), w, h, bleed)
        c.restoreState()

    return mirrored
