"""The list of every Surface Action class with its game values."""

from __future__ import annotations

from collections.abc import Sequence

from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.rulesets.surface_action.charts import Charts
from generator.rulesets.surface_action.derive import speed_inches
from generator.rulesets.surface_action.schema import ShipClass


def render_catalog(classes: Sequence[ShipClass], charts: Charts, paper: Paper) -> Component:
    """Every class, by navy and type, with factors, size, armor, speed and ratings."""
    doc = CanvasDoc(paper, "Surface Action classes", "quarterdeck · Surface Action · classes")
    doc.anchor("Surface Action classes")
    doc.paragraph("Surface Action ship classes", "h1")
    rows = []
    for cls in sorted(classes, key=lambda c: (c.nation.value, c.type.value, c.name)):
        guns = ", ".join(f"{b.weapon} {b.factors}" for b in cls.guns) or "—"
        torps = f"{cls.torpedoes.weapon} {cls.torpedoes.factors}" if cls.torpedoes else "—"
        speed = cls.speed_in or speed_inches(cls.facts.speed_kn, charts.movement.knots_per_in)
        rows.append([cls.name, cls.nation.value, cls.type.value, guns, torps, cls.size,
                     f"{cls.armor:+d}" if cls.armor else "0", f"{speed:g}", cls.fire_control,
                     str(cls.damage_control), str(len(cls.ships))])
    header: list[list[str | None]] = [["Class", "Navy", "Type", "Guns", "Torpedoes", "Size",
                                       "Armor", "Speed in", "Fire ctl", "DC", "Ships"]]
    widths = [w * MM for w in (34, 10, 10, 36, 28, 10, 10, 12, 14, 7, 10)]
    # Class names wrap onto a second line rather than lose their ends: the name is
    # what a user looks the class up by.
    doc.grid(Grid(widths, header, rows, aligned(5, len(widths)), size=7,
                  wrap=frozenset({0, 3, 4})))
    pdf, pages = doc.finish()
    return Component("catalog", "Classes", "Classes-", pdf, pages, [])
