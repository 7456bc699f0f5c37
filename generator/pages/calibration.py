"""The calibration bar every measuring page carries: 100 mm and 4 in, checked before cutting.

A printer told to "fit to page" shrinks a ruler by 3-6 %, which is a whole range band
over a long string. The bars sit inside the safe box (a printer's margin can clip them)
and are solid black so a ruler, or a 600 dpi scan, can measure them end to end.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.units import INCH, MM
from generator.pages.layout import Pen, SafeBox

BAR_MM = 100.0
BAR_IN = 4.0
BAR_THICKNESS = 2.2 * MM
LABEL = ("Check this before you cut: printed at actual size (100 %, no “fit to page”) "
         "the black bars measure exactly 100 mm and 4 in.")
_ROW = 5.2 * MM
_TEXT = 4.2 * MM


def calibration_height(width: float) -> float:
    """Height the calibration block needs in a box this wide (one row or two)."""
    return _TEXT + (_ROW if _side_by_side(width) else 2 * _ROW)


def _side_by_side(width: float) -> bool:
    return width >= BAR_MM * MM + BAR_IN * INCH + 40 * MM


def bar_positions(box: SafeBox) -> list[tuple[float, float, float]]:
    """Where the bars are drawn: (x, y of the bar's bottom, length) in points, mm bar first."""
    mm_len, in_len = BAR_MM * MM, BAR_IN * INCH
    y0 = box.y + 1.2 * MM
    if _side_by_side(box.width):
        return [(box.x, y0, mm_len), (box.x + mm_len + 20 * MM, y0, in_len)]
    return [(box.x, y0 + _ROW, mm_len), (box.x, y0, in_len)]


def label_baseline(box: SafeBox) -> float:
    """The baseline of the bars' one-line instruction at the bottom of ``box``."""
    return box.y + calibration_height(box.width) - _TEXT + 1.2 * MM


def draw_calibration(c: Canvas, box: SafeBox) -> float:
    """Draw the two bars and their one-line instruction at the bottom of ``box``.

    Args:
        c: The canvas, on the page being drawn.
        box: The page's safe box; the block sits on its bottom edge.

    Returns:
        The height used, so the page's content can stay above it.

    """
    pen = Pen(c)
    height = calibration_height(box.width)
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.3)
    bars = bar_positions(box)
    # (label, subdivisions, every how many a long tick): 10 mm steps, quarter inches.
    scales = (("100 mm", 10, 5), ("4 in", 16, 4))
    for (x, y, length), (unit, steps, major) in zip(bars, scales, strict=True):
        c.rect(x, y, length, BAR_THICKNESS, stroke=0, fill=1)
        # Subdivisions hang below the bar so the bar itself stays a solid block.
        for i in range(steps + 1):
            tick = 1.0 * MM if i % major == 0 else 0.5 * MM
            c.line(x + length * i / steps, y, x + length * i / steps, y - tick)
        pen.text(x + length + 2 * MM, y + 0.3 * MM, unit, size=8, bold=True)
    pen.text(box.x, label_baseline(box), LABEL, size=7.5, width=box.width)
    c.restoreState()
    return height


FOOTER_BAR_MM = 50.0
"""Length of the scale-check bar in a piece sheet's footer line."""
FOOTER_BAR_THICKNESS = 1.2 * MM
FOOTER_BAR_LABEL = "this bar is 50 mm:"
_FOOTER_GAP = 1.5 * MM


def footer_bar_width(font: str, size: float) -> float:
    """Room the footer's scale check takes: its label, a gap and the bar."""
    return fonts.string_width(FOOTER_BAR_LABEL, font, size) + _FOOTER_GAP + FOOTER_BAR_MM * MM


def draw_footer_bar(c: Canvas, right: float, baseline: float, font: str,
                    size: float) -> tuple[float, float, float]:
    """A 50 mm scale check ending at ``right`` on a footer line; returns the bar (x, y, length).

    Pieces cut to scale (markers at 1:12,000, counters to the hexes, cards to their
    sleeves) are only right if the sheet printed at 100 %: the bar, solid black and
    labelled, is measured before cutting. It sits on the footer's baseline, its top
    below the capitals, so it takes no room from the pieces.
    """
    length = FOOTER_BAR_MM * MM
    x = right - length
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    c.rect(x, baseline, length, FOOTER_BAR_THICKNESS, stroke=0, fill=1)
    c.setFont(font, size)
    c.drawRightString(x - _FOOTER_GAP, baseline, FOOTER_BAR_LABEL)
    c.restoreState()
    return x, baseline, length
