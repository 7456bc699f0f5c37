"""Scenario briefings: what each side knows, and the referee's whole picture.

The wording is ``templates/surface_action/briefing.md.j2`` (a user may replace it); this
module gathers the values and draws the template's mini-markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.layout import Paper
from generator.pages.markup import markup_onto
from generator.pages.templating import render_text
from generator.rulesets.surface_action.derive import ShipView
from generator.rulesets.surface_action.schema import Scenario, Side


@dataclass(frozen=True)
class Formation:
    """A formation as the briefing lists it: its name and its ships."""

    name: str
    ships: list[ShipView]


def formations(views: Sequence[ShipView]) -> list[Formation]:
    """A side's ships grouped by formation (a ship alone is its own formation)."""
    groups: dict[str, list[ShipView]] = {}
    for view in views:
        groups.setdefault(view.formation or view.name, []).append(view)
    return [Formation(name, ships) for name, ships in groups.items()]


def render_briefing(scenario: Scenario, side: Side | None, views: dict[str, list[ShipView]],
                    paper: Paper, footer: str) -> Component:
    """A side's briefing (its own ships and orders), or the referee's (``side`` None)."""
    shown = [side] if side else list(scenario.sides)
    text = render_text("surface_action/briefing.md.j2", scenario=scenario, side=side,
                       who=side.name if side else "Referee", shown_sides=shown,
                       formations={s.id: formations(views[s.id]) for s in shown})
    doc = CanvasDoc(paper, f"{scenario.name}: briefing", footer)
    markup_onto(doc, text)  # bullets and single lines are small print, as the data sheets are
    pdf, pages = doc.finish()
    key = f"briefing:{side.id if side else 'referee'}"
    return Component(key, "Briefing", "Brief-", pdf, pages, [])
