"""Where a sheet of pieces is trimmed and cut: its page boxes and its crop marks.

A print shop trims a sheet of pieces to the block the pieces fill (the page's trim box;
its bleed box is that block with the bleed) and cuts it up at the crop marks. The marks
continue every trim edge out into a band along the paper's edge, five millimetres long,
three clear of the trim and outside the bleed; the sheet's margin widens when the
sprue's is too small to keep the pieces clear of that band (``sheet_margin``).
"""

from __future__ import annotations

from generator.core.printboxes import Box
from generator.core.units import MM
from generator.pieces.sprue import CutMode

Rect = tuple[float, float, float, float]
"""An outline to cut: x, y, width, height in points."""
Segment = tuple[float, float, float, float]
"""A straight stroke: x0, y0, x1, y1 in points."""

MARK_CLEAR = 0.3 * MM
"""Crop marks keep at least this far outside the bleed box, so they never touch the art."""
MARK_LENGTH = 5.0 * MM
"""Length of a crop mark: long enough to lay a ruler or a guillotine's blade on."""
MARK_TRIM_CLEAR = 3.0 * MM
"""Least distance from a crop mark to the trim it marks (a print shop's usual offset)."""
MARK_EDGE = 3.0 * MM
"""Distance from the paper's edge to a crop mark's outer end (inside what printers print)."""

def sheet_margin(cut: CutMode, margin: float, bleed: float) -> float:
    """The margin a sheet keeps: the sprue's, widened when crop marks need more room.

    Crop marks run from ``MARK_EDGE`` to ``MARK_EDGE + MARK_LENGTH`` in from the paper's
    edge; the pieces' bleed boxes start outside that band, with each trim at least
    ``MARK_TRIM_CLEAR`` from the marks and each bleed box at least ``MARK_CLEAR``.
    """
    if cut not in ("marks", "both"):
        return margin
    band = MARK_EDGE + MARK_LENGTH
    return max(margin, band + max(MARK_TRIM_CLEAR - bleed, MARK_CLEAR))


def crop_marks(boxes: list[Rect], page_w: float, page_h: float) -> list[Segment]:
    """Crop-mark strokes (x0, y0, x1, y1) in the band along the paper's edges.

    Every trim edge of an outline to cut is continued out to the paper's edge: a mark
    above and below the block of pieces at each vertical edge, one to its left and right
    at each horizontal edge (``sheet_margin`` keeps the pieces clear of them). A folded
    pair is one outline (``imposition.cut_boxes``): its fold is not cut.
    """
    xs = sorted({round(e, 4) for x, _, w, _ in boxes for e in (x, x + w)})
    ys = sorted({round(e, 4) for _, y, _, h in boxes for e in (y, y + h)})
    near, far = MARK_EDGE, MARK_EDGE + MARK_LENGTH
    out = []
    for x in xs:
        out.append((x, page_h - far, x, page_h - near))
        out.append((x, near, x, far))
    for y in ys:
        out.append((near, y, far, y))
        out.append((page_w - far, y, page_w - near, y))
    return out


def sheet_boxes(boxes: list[Rect], bleed: float) -> tuple[Box, Box]:
    """A sheet's trim box (the block of pieces) and bleed box (that block plus the bleed).

    A print shop trims the sheet to the block and cuts it up at the crop marks; its
    marks, headings and footer lie outside both boxes.
    """
    trim = (min(x for x, _, _, _ in boxes), min(y for _, y, _, _ in boxes),
            max(x + w for x, _, w, _ in boxes), max(y + h for _, y, _, h in boxes))
    return trim, (trim[0] - bleed, trim[1] - bleed, trim[2] + bleed, trim[3] + bleed)
