"""The Rule 27 catalog: every class Rule 27 rates, with the game values it derives.

``quarterdeck catalog --ruleset rule-27`` prints it (through ``Rule27.catalog``): each
class's type, its points and AA points per ship, and the strength, AA and movement of a
counter of that class alone, so a designer can read every rating before building a kit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.core.safetext import text
from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.rulesets.rule27.components.roster import DERIVED
from generator.rulesets.rule27.model import rate_counter
from generator.rulesets.rule27.schema import Rule27Class
from generator.rulesets.rule27.tables import NavalTables, bundled_tables

if TYPE_CHECKING:
    from generator.data.library import Library


def counter_values(model: Rule27Class, tables: NavalTables) -> list[tuple[int, int, int]]:
    """(ships, strength, AA) of a counter of the class alone, at each size its type allows.

    A pair type has one size; a flotilla is rated at its fewest and most ships; NT, LS and
    LC counters are not made of named classes' ships but still show their fixed strength.
    """
    low, high = tables.types[model.type].ships
    sizes = sorted({max(1, low), max(1, high)}) if model.type == "DD" else [max(1, low)]
    out = []
    for n in sizes:
        strength, aa = rate_counter(model.type, [model] * n, tables)
        out.append((n, strength, aa))
    return out


def catalog_rows(library: Library, tables: NavalTables) -> list[list[str]]:
    """One row per rated class, sorted by nation, type and name."""
    entries = library.classes_of("rule-27")
    models: list[Rule27Class] = [e.model for e in entries.values()]
    rows = []
    for m in sorted(models, key=lambda m: (m.nation, m.type, m.name)):
        row = tables.types[m.type]
        values = counter_values(m, tables)
        carrier = row.category == "CF"
        counter = " / ".join(str(n) for n, _, _ in values)
        strength = " / ".join(f"({s})" if carrier else str(s) for _, s, _ in values)
        aa = " / ".join(str(a) for _, _, a in values)
        rows.append([m.name, m.nation, m.type, f"{float(m.points):.2f}",
                     f"{float(m.aa_points):.2f}", counter, strength, aa, str(row.move)])
    return rows


def render_catalog(library: Library, paper: Paper) -> Component:
    """Every class Rule 27 rates, with its game values, and the classes it cannot rate."""
    tables = bundled_tables()
    title = "Rule 27: ship classes and their ratings"
    doc = CanvasDoc(paper, title, f"quarterdeck · {title}")
    doc.anchor(title)
    doc.paragraph(text(title), "h1")
    doc.paragraph(text(
        f"{DERIVED} Points and AA points are one ship's; the counter columns rate a counter "
        "made of ships of this class alone: a pair for CA, CL and CVE, a flotilla of "
        f"{tables.types['DD'].ships[0]} and of {tables.types['DD'].ships[1]} for DD, one "
        "ship otherwise. Strength in parentheses is a carrier's damage strength and air "
        "capacity; movement is in sea boxes a naval step."), "body")
    doc.space(2)
    header: list[list[str | None]] = [["Class", "Navy", "Type", "Points", "AA points",
                                       "Ships", "Strength", "AA", "Move"]]
    widths = [w * MM for w in (52, 14, 12, 18, 18, 16, 20, 16, 14)]
    doc.grid(Grid(widths, header, catalog_rows(library, tables), aligned(3, len(widths)),
                  size=8, wrap=frozenset({0})))
    unrated = library.unrated.get("rule-27", {})
    if unrated:
        doc.space(3)
        doc.paragraph("Classes Rule 27 does not rate", "h2")
        doc.grid(Grid([45 * MM, 135 * MM], [["Class", "Why"]],
                      [[c, why] for c, why in sorted(unrated.items())], aligned(2, 2),
                      size=8, wrap=frozenset({1})))
    pdf, pages = doc.finish()
    return Component("catalog", "Classes", "Classes-", pdf, pages, [])
