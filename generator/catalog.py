"""A plain listing of a ruleset's classes, for rulesets without a catalog of their own."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from generator.canvasdoc import CanvasDoc
from generator.grid import Grid, aligned
from generator.layout import Paper
from generator.packets import Component
from generator.units import MM


def render_listing(title: str, rows: Sequence[tuple[str, str, str, str]],
                   paper: Paper) -> Component:
    """Every class as id, name, nation and type, sorted by nation, type and name.

    Args:
        title: Heading and bookmark (user-visible; escaped here).
        rows: (id, name, nation, type) per class.
        paper: Paper size.

    """
    doc = CanvasDoc(paper, title, f"quarterdeck · {title}")
    doc.anchor(title)
    doc.paragraph(escape(title), "h1")
    ordered = sorted(rows, key=lambda r: (r[2], r[3], r[1]))
    header: list[list[str | None]] = [["Id", "Class", "Nation", "Type"]]
    widths = [w * MM for w in (45, 60, 25, 20)]
    doc.grid(Grid(widths, header, [list(r) for r in ordered], aligned(2, len(widths)),
                  size=8, wrap=frozenset({0, 1})))
    pdf, pages = doc.finish()
    return Component("catalog", "Classes", "Classes-", pdf, pages, [])
