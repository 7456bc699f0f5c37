"""Page geometry shared by every component: paper, the safe box, and drawing helpers.

One layout serves A4 and US Letter: components draw inside a *safe box* of
190 x 259.4 mm (the narrower width of A4 and the shorter height of Letter, less a
10 mm printer margin on each side) centred on whichever paper is chosen.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Literal

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.safetext import SafeCanvas, clean
from generator.core.units import MM
from generator.pages import kitdoc
from generator.pages.autofit import shrunk_size

Paper = Literal["a4", "letter"]
PAPER_SIZES: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
MARGIN = 10 * MM
SAFE_WIDTH = min(A4[0], LETTER[0]) - 2 * MARGIN
SAFE_HEIGHT = min(A4[1], LETTER[1]) - 2 * MARGIN


@dataclass(frozen=True)
class SafeBox:
    """The printable area every component draws in, in page coordinates (points)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def top(self) -> float:
        """Top edge."""
        return self.y + self.height

    @property
    def right(self) -> float:
        """Right edge."""
        return self.x + self.width


def page_size(paper: Paper, landscape: bool = False) -> tuple[float, float]:
    """Page width and height in points, turned for landscape."""
    width, height = PAPER_SIZES[paper]
    return (height, width) if landscape else (width, height)


def safe_box(paper: Paper, landscape: bool = False) -> SafeBox:
    """The centred safe box for a paper size (turned with the page for landscape)."""
    width, height = page_size(paper, landscape)
    box_w, box_h = (SAFE_HEIGHT, SAFE_WIDTH) if landscape else (SAFE_WIDTH, SAFE_HEIGHT)
    return SafeBox((width - box_w) / 2, (height - box_h) / 2, box_w, box_h)


def new_canvas(buffer: io.BytesIO, paper: Paper, title: str, landscape: bool = False) -> Canvas:
    """A ReportLab canvas set up for byte-identical, mergeable output.

    Args:
        buffer: Where the PDF goes.
        paper: ``a4`` or ``letter``.
        title: Document title (metadata).
        landscape: Turn the page (rulers and tapes run along the long edge).

    Returns:
        The canvas, with fonts registered (in a build, the build's canvas).

    """
    kit = kitdoc.active()
    if kit is not None:
        # A build draws every component on one canvas (generator.pages.kitdoc).
        return kit.begin(page_size(paper, landscape))
    fonts.register()
    # A component drawn on its own (preview, tests) is rasterised or read back, never
    # printed: left uncompressed, it is written sooner.
    # A SafeCanvas drops control characters from any text drawn (user text stays text).
    canvas = SafeCanvas(buffer, pagesize=page_size(paper, landscape), invariant=1,
                        pageCompression=0)
    canvas.setTitle(clean(title))
    canvas.setCreator("quarterdeck")
    canvas.setAuthor("quarterdeck")
    return canvas


class Pen:
    """Text and box drawing with the kit's rules built in (no type below 7 pt)."""

    def __init__(self, canvas: Canvas) -> None:
        self.c = canvas

    def text(self, x: float, y: float, text: str, size: float = 9, bold: bool = False,
             narrow: bool = False, align: str = "left", width: float | None = None) -> float:
        """Draw one line of text; shrink (not below 7 pt) then clip to ``width``.

        Returns:
            The width drawn.

        """
        font = (fonts.NARROW_BOLD if bold else fonts.NARROW) if narrow else (
            fonts.BOLD if bold else fonts.REGULAR)
        size = max(size, fonts.MIN_SIZE)
        text = clean(text)  # user text: control characters and ANSI escapes never print
        if width is not None:
            size = shrunk_size(text, font, size, width)
            text = fonts.clip_text(text, font, size, width)
        self.c.setFont(font, size)
        drawn = fonts.string_width(text, font, size)
        if align == "center":
            self.c.drawCentredString(x, y, text)
        elif align == "right":
            self.c.drawRightString(x, y, text)
        else:
            self.c.drawString(x, y, text)
        return drawn

    def boxes(self, x: float, y: float, count: int, size: float, gap: float,
              per_row: int, filled: int = 0) -> float:
        """Draw ``count`` tick boxes in rows; the first ``filled`` are crossed out.

        Returns:
            The height used (points), rows counted downward from ``y`` (top edge).

        """
        if count <= 0:
            return 0.0
        rows = (count + per_row - 1) // per_row
        self.c.setLineWidth(0.6)
        for i in range(count):
            row, col = divmod(i, per_row)
            bx = x + col * (size + gap)
            by = y - (row + 1) * size - row * gap
            self.c.rect(bx, by, size, size, stroke=1, fill=0)
            if i < filled:
                self.c.line(bx, by, bx + size, by + size)
                self.c.line(bx, by + size, bx + size, by)
        return rows * size + (rows - 1) * gap
