"""The frame of a side's matchup pages: a title, what the tables mean, a table per ship.

Each table serves the ships whose lines are the same (sisters armed alike), under a
heading naming them all, with a bookmark per name. What a table holds is the ruleset's
(``generator.rules.targets`` groups the enemies it lists).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape

from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid
from generator.pages.layout import Paper


@dataclass(frozen=True)
class ShipTable:
    """One table of the pages and the ships it serves."""

    anchors: tuple[str, ...]  # bookmarks: one per ship, or one for all of them
    heading: str              # markup, names already escaped
    grid: Grid
    after: Callable[[CanvasDoc], None] | None = None  # anything the ruleset adds below it


def render_matchup_pages(paper: Paper, title: str, footer: str, intro: str,
                         tables: Iterable[ShipTable], key: str, label: str) -> Component:
    """A side's matchup pages: ``title`` (a heading and a bookmark), ``intro``, the tables.

    Each table starts where its header and a few rows fit (a new page if need be).
    """
    doc = CanvasDoc(paper, title, footer)
    doc.anchor(title)
    doc.paragraph(escape(title), "h1")
    doc.paragraph(intro)
    for table in tables:
        doc.ensure(table.grid.header_height + 30 * MM)
        for anchor in table.anchors:
            doc.anchor(anchor)
        doc.paragraph(table.heading, "h3")
        doc.grid(table.grid)
        if table.after is not None:
            table.after(doc)
        doc.space(2)
    pdf, pages = doc.finish()
    return Component(key, title, label, pdf, pages, doc.bookmarks[1:])
