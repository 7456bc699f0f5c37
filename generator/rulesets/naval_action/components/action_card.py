"""The NAVAL ACTION Action Card: a two-page reference card (front and back).

The front carries the turn and the gunfire procedure (``card_front``); the back carries
torpedoes, damage control, submarines, turning, antiaircraft fire, aircraft, night,
weather and comparative strength (``card_back``).

Every number comes from the tables in force (``Tables``): the bundled YAML or a user's
``--tables`` file, the same ones the calculator reads, so the card and the odds always
agree. Tables that quarterdeck designed (``default: true``) carry a DEFAULT tag by
their heading; tables from the user's file carry a tag naming that file.

Each page has a title band, two columns and the kit's footer; sections (a heading plus
its tables and notes) are page-engine blocks packed whole into the columns in order
(``pages.Columns``), so a table always stays with its heading.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors

from generator.core.errors import DataError
from generator.core.units import MM
from generator.pages.component import Bookmark, Component
from generator.pages.layout import Paper, Pen, SafeBox, safe_box
from generator.pages.pages import Columns, Document, Furniture
from generator.rulesets.naval_action.cardtables import Tables
from generator.rulesets.naval_action.components.card_back import back_sections
from generator.rulesets.naval_action.components.card_front import front_sections
from generator.rulesets.naval_action.components.card_parts import tags_for

KEY = "card"
TITLE = "Action Card"
LABEL = "Card-"

BAND_H = 12 * MM
FOOTER_H = 9 * MM
GUTTER = 5 * MM
SECTION_GAP = 3 * MM
PAGES = [("FRONT", "Gunfire: sequence, accuracy, penetration", front_sections),
         ("BACK", "Torpedoes, damage control, air, night, weather, submarines",
          back_sections)]


@dataclass
class CardLayout:
    """The rendered card and how it filled.

    Attributes:
        pdf: PDF bytes (two pages).
        bookmarks: One per section.
        room_mm: Free height left at the foot of each column, page by page.

    """

    pdf: bytes
    bookmarks: list[Bookmark]
    room_mm: list[list[float]]


def _band(pen: Pen, box: SafeBox, side: str, subtitle: str, tables: Tables) -> None:
    """The title band across the top of a page."""
    c = pen.c
    c.setFillColor(colors.black)
    c.rect(box.x, box.top - 9.5 * MM, box.width, 9.5 * MM, stroke=0, fill=1)
    c.setFillColor(colors.white)
    pen.text(box.x + 2.5 * MM, box.top - 6.6 * MM, "NAVAL ACTION", size=15, bold=True)
    pen.text(box.x + 45 * MM, box.top - 6.4 * MM, f"ACTION CARD · {side}", size=11,
             bold=True)
    source = ("tables: bundled" if not tables.replaced
              else f"tables: bundled + {tables.origin}")
    pen.text(box.right - 2.5 * MM, box.top - 4.3 * MM, subtitle, size=7.5, align="right",
             narrow=True, width=70 * MM)
    pen.text(box.right - 2.5 * MM, box.top - 7.7 * MM, source, size=7.5, align="right",
             narrow=True, width=70 * MM)
    c.setFillColor(colors.black)


def _furniture(tables: Tables) -> Furniture:
    """Where the DEFAULT tables come from and how to replace them; user's tables named."""
    if tables.replaced:
        line = (f"From {tables.origin}: {', '.join(tables.replaced)} (tagged FROM "
                f"{tables.origin}).")
    else:
        line = "All tables bundled with quarterdeck (action-card.yaml, derivation.yaml)."
    return Furniture(line, lines=("DEFAULT: a table the rule text uses but does not print, "
                                  "designed by quarterdeck to meet every limit the text "
                                  "sets. Replace any table with --tables FILE.",), rule=True,
                     number=lambda p: f"{LABEL}{p + 1} · {'front' if p == 0 else 'back'}")


def layout_card(tables: Tables, paper: Paper) -> CardLayout:
    """Draw the card and report how full each column is.

    Args:
        tables: The tables in force (``load_tables``).
        paper: ``a4`` or ``letter``.

    Returns:
        The PDF, its bookmarks and the free room per column.

    Raises:
        DataError: If the tables make a page's content longer than the page (a user's
            file with very long tables); the card is never silently cut.

    """
    doc = Document(paper, f"NAVAL ACTION {TITLE}", _furniture(tables))
    pen = Pen(doc.canvas)
    box = safe_box(paper)
    # The columns run from under the title band to above the footer.
    inner = SafeBox(box.x, box.y + FOOTER_H, box.width, box.height - BAND_H - FOOTER_H)
    col_mm = (box.width - GUTTER) / 2 / MM
    room: list[list[float]] = []
    for page, (side, subtitle, sections) in enumerate(PAGES):
        if page:
            doc.finish_page()
        _band(pen, box, side, subtitle, tables)
        columns = Columns(doc.canvas, inner, 2, GUTTER)
        for section in sections(tables, col_mm):
            if section.new_column:
                columns.next_column()
            placed = columns.place(section.block(tags_for(tables, section.tables)), SECTION_GAP)
            if placed is None:
                raise DataError([tables.locate(section.tables,
                                               "found more than fits on the Action Card's "
                                               f"{side.lower()}, expected shorter tables")])
            doc.bookmarks.append(Bookmark(section.title.capitalize(), page, placed.top))
        room.append([max(0.0, (columns.room(i) + SECTION_GAP) / MM) for i in range(2)])
    pdf, _ = doc.finish()
    return CardLayout(pdf, doc.bookmarks, room)


def render_action_card(tables: Tables, paper: Paper) -> Component:
    """The NAVAL ACTION Action Card, front and back, as a two-page component.

    Args:
        tables: The tables in force (bundled, or with a user's ``--tables`` file).
        paper: ``a4`` or ``letter``.

    Returns:
        The component (key ``card``), with a bookmark per section.

    Raises:
        DataError: If a user's tables are too long for the card.

    """
    card = layout_card(tables, paper)
    return Component(KEY, TITLE, LABEL, card.pdf, 2, card.bookmarks, two_sided=True)
