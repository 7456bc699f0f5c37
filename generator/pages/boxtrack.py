"""A track of boxes for a reference card: a row a marker moves along, box by box.

Each box shows its label large, an optional number in its upper left corner (a shaded
square) and two small lines of figures under the label (a chance, a mean...). The track
is a painter of the page engine (``generator.pages.pages``), recorded once and replayed
where the column puts it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core.units import MM
from generator.pages.grid import LABEL_BG
from generator.pages.layout import Pen
from generator.pages.pages import Block, Recorded

TRACK_H = 15.5 * MM


@dataclass(frozen=True)
class TrackBox:
    """One box of a track.

    Attributes:
        label: The box's value, printed large ('6' ... '1', '≤0').
        corner: A number for the upper left corner, or None for none.
        upper: The upper small line (e.g. 'hit 42%').
        lower: The lower small line (e.g. 'avg 0.61').

    """

    label: str
    corner: int | None
    upper: str
    lower: str


def track(boxes: Sequence[TrackBox]) -> Block:
    """The boxes in a row across the column, each as wide as the others."""
    def paint(c: Canvas, width: float) -> float:
        pen = Pen(c)
        w = width / len(boxes)
        base = -TRACK_H
        for i, box in enumerate(boxes):
            x = i * w
            c.setLineWidth(0.9)
            c.setStrokeColor(colors.black)
            c.rect(x, base, w, TRACK_H, stroke=1, fill=0)
            if box.corner:
                c.setFillColor(LABEL_BG)
                c.rect(x, -4 * MM, 4 * MM, 4 * MM, stroke=0, fill=1)
                c.setFillColor(colors.black)
                pen.text(x + 2 * MM, -3 * MM, str(box.corner), size=8, bold=True,
                         align="center")
            pen.text(x + w / 2, -8.2 * MM, box.label, size=14, bold=True, align="center",
                     width=w - 2 * MM)
            pen.text(x + w / 2, base + 3.6 * MM, box.upper, size=7, narrow=True,
                     align="center", width=w - 1 * MM)
            pen.text(x + w / 2, base + 0.9 * MM, box.lower, size=7, narrow=True,
                     align="center", width=w - 1 * MM)
        return TRACK_H
    return Recorded(paint)
