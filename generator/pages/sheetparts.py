"""Parts of a printed record sheet: captioned value boxes and the cut line between blocks.

A ship status sheet (or any sheet of blocks to fill in and cut apart) is made of these
and of the page engine's blocks (``generator.pages.pages``).
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core.units import MM
from generator.pages.layout import Pen
from generator.pages.pages import Spacer

CUT_GREY = colors.Color(0.55, 0.55, 0.55)
"""The dashed line to cut along."""


def caption_box(pen: Pen, x: float, top: float, w: float, h: float, caption: str,
                value: str, sub: str = "") -> None:
    """A ruled field of a form: its caption at the top, the value large, a note below."""
    c = pen.c
    c.setLineWidth(0.6)
    c.setStrokeColor(colors.black)
    c.rect(x, top - h, w, h, stroke=1, fill=0)
    pen.text(x + 1.5 * MM, top - 3.6 * MM, caption, size=7, narrow=True, width=w - 3 * MM)
    pen.text(x + w / 2, top - 9.6 * MM, value, size=13, bold=True, align="center",
             width=w - 2 * MM)
    if sub:
        pen.text(x + w / 2, top - h + 1.6 * MM, sub, size=7, narrow=True, align="center",
                 width=w - 2 * MM)


class CutLine(Spacer):
    """The gap between two blocks of a sheet (two ships), with a dashed line to cut along."""

    width = 0.0

    def wrap(self, width: float) -> float:
        """The gap (the line runs the whole width)."""
        self.width = width
        return self.height

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """A dashed grey line across the middle of the gap."""
        mid = top - self.height / 2
        canvas.saveState()
        canvas.setDash(3, 3)
        canvas.setStrokeColor(CUT_GREY)
        canvas.line(x, mid, x + self.width, mid)
        canvas.restoreState()
