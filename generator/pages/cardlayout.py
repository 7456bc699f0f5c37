"""A reference card laid out page by page: a title band, then sections in columns.

Each page of the card has a band across its top (drawn by the caller) and its sections
(``refcard.Section``: a heading with its tables and notes) packed whole, in order, into
the columns between the band and the footer (``pages.Columns``), so a table always stays
with its heading. A section that does not fit is an error the caller words: a card is
never silently cut. The layout reports the room left at the foot of each column, so a
test can see how close a page is to overflowing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.core.units import MM
from generator.pages.component import Bookmark
from generator.pages.furniture import Furniture
from generator.pages.layout import Paper, Pen, SafeBox, safe_box
from generator.pages.pages import Columns, Document
from generator.pages.refcard import Section


@dataclass
class CardLayout:
    """The rendered card and how it filled.

    Attributes:
        pdf: PDF bytes (one page per ``CardPage``).
        bookmarks: One per section.
        room_mm: Free height left at the foot of each column, page by page.

    """

    pdf: bytes
    bookmarks: list[Bookmark]
    room_mm: list[list[float]]


@dataclass(frozen=True)
class CardPage:
    """One page of a card: what draws its title band, and its sections in reading order."""

    band: Callable[[Pen, SafeBox], None]
    sections: Sequence[Section]


@dataclass(frozen=True)
class CardGeometry:
    """The card's measures, in points: band and footer heights, column gutter, section gap."""

    band_h: float
    footer_h: float
    gutter: float
    section_gap: float
    columns: int = 2


def layout_card(paper: Paper, title: str, furniture: Furniture, pages: Sequence[CardPage],
                geometry: CardGeometry, tags: Callable[[Section], list[str]],
                overflow: Callable[[Section, int], Exception]) -> CardLayout:
    """Draw the card and report how full each column is.

    Args:
        paper: The paper size.
        title: The PDF's title.
        furniture: Footer of every page.
        pages: The pages in order.
        geometry: The card's measures.
        tags: The tags a section's heading carries (DEFAULT, FROM a file...).
        overflow: The error to raise for a section that does not fit on its page
            (the section, the page's index).

    Raises:
        Exception: ``overflow``'s error, for the first section that does not fit.

    """
    doc = Document(paper, title, furniture)
    pen = Pen(doc.canvas)
    box = safe_box(paper)
    # The columns run from under the title band to above the footer.
    inner = SafeBox(box.x, box.y + geometry.footer_h, box.width,
                    box.height - geometry.band_h - geometry.footer_h)
    room: list[list[float]] = []
    for index, page in enumerate(pages):
        if index:
            doc.finish_page()
        page.band(pen, box)
        columns = Columns(doc.canvas, inner, geometry.columns, geometry.gutter)
        for section in page.sections:
            if section.new_column:
                columns.next_column()
            placed = columns.place(section.block(tags(section)), geometry.section_gap)
            if placed is None:
                raise overflow(section, index)
            doc.bookmarks.append(Bookmark(section.title.capitalize(), index, placed.top))
        room.append([max(0.0, (columns.room(i) + geometry.section_gap) / MM)
                     for i in range(geometry.columns)])
    pdf, _ = doc.finish()
    return CardLayout(pdf, doc.bookmarks, room)
