"""The NAVAL ACTION Action Card: a two-page reference card (front and back).

The front carries the turn and the gunfire procedure (``card_front``); the back carries
torpedoes, damage control, submarines, turning, antiaircraft fire, aircraft, night,
weather and comparative strength (``card_back``).

Every number comes from the tables in force (``Tables``): the bundled YAML or a user's
``--tables`` file, the same ones the calculator reads, so the card and the odds always
agree. Tables that quarterdeck designed (``default: true``) carry a DEFAULT tag by
their heading; tables from the user's file carry a tag naming that file.

Each page has a title band, two columns and the kit's footer; the sections (a heading
plus its tables and notes) are packed whole into the columns in order by the shared card
layout (``generator/pages/cardlayout.py``), so a table always stays with its heading.
"""

from __future__ import annotations

from functools import partial

from reportlab.lib import colors

from generator.core.errors import DataError
from generator.core.units import MM
from generator.pages.cardlayout import CardGeometry, CardLayout, CardPage
from generator.pages.cardlayout import layout_card as layout_pages
from generator.pages.component import Component
from generator.pages.furniture import Furniture
from generator.pages.layout import Paper, Pen, SafeBox, safe_box
from generator.pages.refcard import Section
from generator.rules.defaults import note
from generator.rulesets.naval_action.cardtables import Tables
from generator.rulesets.naval_action.components.card_back import back_sections
from generator.rulesets.naval_action.components.card_front import front_sections
from generator.rulesets.naval_action.components.card_parts import tags_for

KEY = "card"
TITLE = "Action Card"
LABEL = "Card-"

GEOMETRY = CardGeometry(band_h=12 * MM, footer_h=9 * MM, gutter=5 * MM, section_gap=3 * MM)
PAGES = [("FRONT", "Gunfire: sequence, accuracy, penetration", front_sections),
         ("BACK", "Torpedoes, damage control, air, night, weather, submarines",
          back_sections)]


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
        line = "All tables as bundled with quarterdeck."
    # A player's card: the note says what DEFAULT means, not how to replace it (the
    # referee's data page and `quarterdeck tables --export` say that).
    return Furniture(line, lines=(note("a table the rule text uses but does not print, "
                                       "designed by quarterdeck to meet every limit the text "
                                       "sets; the referee may replace it."),), rule=True,
                     label=LABEL, suffix=lambda p: f" · {'front' if p == 0 else 'back'}")


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
    col_mm = (safe_box(paper).width - GEOMETRY.gutter) / 2 / MM
    pages = [CardPage(partial(_band, side=side, subtitle=subtitle, tables=tables),
                      sections(tables, col_mm)) for side, subtitle, sections in PAGES]

    def overflow(section: Section, page: int) -> DataError:
        return DataError([tables.locate(section.tables, "found more than fits on the Action "
                                        f"Card's {PAGES[page][0].lower()}, expected shorter "
                                        "tables")])

    return layout_pages(paper, f"NAVAL ACTION {TITLE}", _furniture(tables), pages, GEOMETRY,
                        lambda section: tags_for(tables, section.tables), overflow)


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
