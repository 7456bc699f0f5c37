"""A plain listing of a ruleset's classes, for rulesets without a catalog of their own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generator.core.safetext import text
from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper


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
    doc.paragraph(text(title), "h1")
    ordered = sorted(rows, key=lambda r: (r[2], r[3], r[1]))
    header: list[list[str | None]] = [["Id", "Class", "Nation", "Type"]]
    widths = [w * MM for w in (45, 60, 25, 20)]
    doc.grid(Grid(widths, header, [list(r) for r in ordered], aligned(2, len(widths)),
                  size=8, wrap=frozenset({0, 1})))
    pdf, pages = doc.finish()
    return Component("catalog", "Classes", "Classes-", pdf, pages, [])


def render_coverage(library: Any, ruleset: str, titles: dict[str, str],
                    paper: Paper) -> Component:
    """Which rulesets rate each of a ruleset's classes, and the ratings set by hand.

    Args:
        library: The validated library (``classes_of``, ``unrated``).
        ruleset: The ruleset whose catalog this page ends.
        titles: Ruleset name -> printed title, in listing order.
        paper: Paper size.

    """
    title = "Who rates each class"
    doc = CanvasDoc(paper, title, f"quarterdeck · {titles[ruleset]} · {title}")
    doc.anchor(title)
    doc.paragraph(title, "h1")
    doc.paragraph("A class is written once and each ruleset derives its ratings from the "
                  "facts. <b>Set by hand</b> lists the ratings the class file overrides for "
                  "this ruleset; every other value on its sheets is derived.", "body")
    rows: list[list[str]] = []
    entries = library.classes_of(ruleset)
    for class_id in sorted(entries, key=lambda c: (entries[c].model.name, c)):
        entry = entries[class_id]
        rated = [titles[name] for name in titles if class_id in library.classes_of(name)]
        rows.append([str(entry.model.name), ", ".join(rated),
                     ", ".join(entry.overrides) or "—"])
    unrated = library.unrated.get(ruleset, {})
    for class_id, reason in sorted(unrated.items()):
        rows.append([class_id, "not rated here", reason])
    header: list[list[str | None]] = [["Class", "Rated by", "Set by hand"]]
    widths = [w * MM for w in (40, 60, 80)]
    doc.grid(Grid(widths, header, rows, aligned(3, 3), size=7, wrap=frozenset({1, 2})))
    pdf, pages = doc.finish()
    return Component("coverage", title, "Rated-", pdf, pages, [])
