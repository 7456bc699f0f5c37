"""A small page-flow for canvas components.

A cursor runs down the safe box; grids break across pages with their header repeated;
paragraphs, bookmarks and a footer come with it.

Platypus is kept for prose-heavy documents; table-heavy components (odds, matchups,
dice sheets) use this, which is several times faster and exact about what fits.
"""

from __future__ import annotations

import io

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from generator.calibration import calibration_height, draw_calibration
from generator.grid import Grid
from generator.layout import Paper, Pen, new_canvas, safe_box
from generator.packets import Bookmark
from generator.tablestyle import styles
from generator.units import MM

FOOTER_SPACE = 6 * MM
# Legends repeat on every page of a component; a wrapped paragraph can be drawn again.
_WRAPPED: dict[tuple[str, str, float, float], tuple[Paragraph, float]] = {}


class CanvasDoc:
    """Draw top to bottom in the safe box, starting new pages as needed."""

    def __init__(self, paper: Paper, title: str, footer: str, calibration: bool = False) -> None:
        self.buffer = io.BytesIO()
        self.canvas = new_canvas(self.buffer, paper, title)
        self.pen = Pen(self.canvas)
        self.box = safe_box(paper)
        self.footer = footer
        self.page = 0
        self.y = self.box.top
        self.bookmarks: list[Bookmark] = []
        self.styles = styles()
        # Pages a user measures from carry the calibration bars under the footer.
        self.calibration = calibration_height(self.box.width) if calibration else 0.0

    @property
    def bottom(self) -> float:
        """Lowest y content may reach (above the footer)."""
        return self.box.y + self.calibration + FOOTER_SPACE

    @property
    def room(self) -> float:
        """Height left on the current page."""
        return self.y - self.bottom

    def _finish_page(self) -> None:
        base = self.box.y + self.calibration
        if self.calibration:
            draw_calibration(self.canvas, self.box)
        self.pen.text(self.box.x, base + 1.5 * MM, self.footer, size=7, narrow=True,
                      width=self.box.width * 0.85)
        self.pen.text(self.box.right, base + 1.5 * MM, str(self.page + 1), size=7,
                      narrow=True, align="right")
        self.canvas.showPage()
        self.page += 1
        self.y = self.box.top

    def new_page(self) -> None:
        """Start a new page (unless the current one is still empty)."""
        if self.y < self.box.top:
            self._finish_page()

    def ensure(self, height: float) -> None:
        """Start a new page if less than ``height`` points are left."""
        if self.room < height:
            self.new_page()

    def anchor(self, title: str, level: Bookmark | None = None) -> Bookmark:
        """Add a bookmark here (nested under ``level`` if given)."""
        mark = Bookmark(title, self.page, self.y + 2 * MM)
        (level.children if level else self.bookmarks).append(mark)
        return mark

    def space(self, mm: float) -> None:
        """Leave a gap."""
        self.y -= mm * MM

    def paragraph(self, text: str, style: str | ParagraphStyle = "small",
                  width: float | None = None) -> None:
        """Draw a wrapped paragraph (markup as in ReportLab paragraphs)."""
        st = self.styles[style] if isinstance(style, str) else style
        key = (text, st.name, st.fontSize, width or self.box.width)
        cached = _WRAPPED.get(key)
        if cached is None:
            para = Paragraph(text, st)
            _, h = para.wrapOn(self.canvas, width or self.box.width, self.box.height)
            cached = _WRAPPED[key] = (para, h)
        para, h = cached
        self.ensure(h + st.spaceBefore)
        self.y -= st.spaceBefore
        para.drawOn(self.canvas, self.box.x, self.y - h)
        self.y -= h + st.spaceAfter

    def grid(self, grid: Grid, keep_rows: int = 3) -> None:
        """Draw a grid, breaking it across pages with the header repeated.

        Args:
            grid: The table.
            keep_rows: Start on a new page unless this many rows fit here.

        """
        start = 0
        x = self.box.x + (self.box.width - grid.width) / 2
        while start < len(grid.rows) or start == 0:
            fit = grid.fitting(start, self.room)
            if fit < min(keep_rows, len(grid.rows) - start) and self.y < self.box.top:
                self.new_page()
                continue
            fit = max(fit, 1)
            self.y -= grid.draw(self.canvas, x, self.y, start, start + fit)
            start += fit
            if start >= len(grid.rows):
                break
            self.new_page()

    def section(self, title: str, note: str, grid: Grid, heading: str | None = None,
                keep: float = 30 * MM) -> None:
        """A bookmarked heading, a note and a grid, kept together on one page if it can.

        Args:
            title: Bookmark title (and heading, unless ``heading`` is given).
            note: The paragraph under the heading.
            grid: The table.
            heading: Heading text with markup, when it differs from the bookmark.
            keep: Room wanted below the grid's header before starting here.

        """
        self.ensure(grid.header_height + keep)
        self.anchor(title)
        self.paragraph(heading or title, "h2")
        self.paragraph(note)
        self.space(1)
        self.grid(grid)
        self.space(2)

    def finish(self) -> tuple[bytes, int]:
        """Close the document.

        Returns:
            The PDF bytes and the page count.

        """
        self._finish_page()
        self.canvas.save()
        return self.buffer.getvalue(), self.page
