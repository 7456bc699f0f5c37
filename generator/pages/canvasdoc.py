"""A small page-flow for canvas components, on the block engine (``generator.pages.pages``).

A cursor runs down the safe box; grids break across pages with their header repeated;
paragraphs, bookmarks and the page furniture (footer, page number, calibration bars)
come with it.

Components written as a platypus story (a briefing, a reference card) go through
``tablestyle.render_flow``, which runs on the same engine.
"""

from __future__ import annotations

from reportlab.lib.styles import ParagraphStyle

from generator.core.units import MM
from generator.pages.furniture import FOOTER_SPACE, Furniture
from generator.pages.grid import Grid
from generator.pages.layout import Paper
from generator.pages.pages import Document, GridBlock
from generator.pages.tablestyle import styles

__all__ = ["FOOTER_SPACE", "CanvasDoc"]


class CanvasDoc(Document):
    """Draw top to bottom in the safe box, starting new pages as needed."""

    def __init__(self, paper: Paper, title: str, footer: str, calibration: bool = False) -> None:
        # Pages a user measures from carry the calibration bars under the footer.
        super().__init__(paper, title, Furniture(footer=footer, calibration=calibration))
        self.footer = footer
        self.styles = styles()

    def space(self, mm: float) -> None:
        """Leave a gap."""
        self.y -= mm * MM

    def paragraph(self, text: str, style: str | ParagraphStyle = "small",  # type: ignore[override]
                  width: float | None = None) -> None:
        """Draw a wrapped paragraph (markup as in ReportLab paragraphs).

        ``text`` is markup: every user value in it must be escaped first
        (``generator.core.safetext.text`` or ``markup``), or a name could load an image.
        """
        st = self.styles[style] if isinstance(style, str) else style
        super().paragraph(text, st, width)

    def grid(self, grid: Grid, keep_rows: int = 3) -> None:
        """Draw a grid, breaking it across pages with the header repeated.

        Args:
            grid: The table.
            keep_rows: Start on a new page unless this many rows fit here.

        """
        self.add(GridBlock(grid, keep_rows=keep_rows))

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
