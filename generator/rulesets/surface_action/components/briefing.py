"""Scenario briefings: what each side knows, and the referee's whole picture.

The wording is ``templates/surface_action/briefing.md.j2`` (a user may replace it); this
module gathers the values and draws the template's mini-markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from generator.aids.maptext import TableFacts
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
                    paper: Paper, footer: str, table: TableFacts | None = None) -> Component:
    """A side's briefing (its own ships and orders), or the referee's (``side`` None).

    ``table``: the set-up's table size and the starting ranges this reader knows.
    """
    shown = [side] if side else list(scenario.sides)
    text = render_text("surface_action/briefing.md.j2", scenario=scenario, side=side,
                       who=side.name if side else "Referee", shown_sides=shown,
                       setup_facts=table,
                       formations={s.id: formations(views[s.id]) for s in shown})
    doc = CanvasDoc(paper, f"{scenario.name}: briefing", footer)
    markup_onto(doc, text)  # bullets and single lines are small print, as the data sheets are
    if side is None:  # a player's sheets print the ratings; only the referee asks who set them
        _set_by_hand(doc, [v for s in shown for v in views[s.id]])
    pdf, pages = doc.finish()
    key = f"briefing:{side.id if side else 'referee'}"
    return Component(key, "Briefing", "Brief-", pdf, pages, [])


def rating_words(field: str) -> str:
    """A rating's name as the data sheet's reader says it (``speed_in`` -> "speed")."""
    return field.removesuffix("_in").replace("_", " ")


def _set_by_hand(doc: CanvasDoc, views: Sequence[ShipView]) -> None:
    """The referee's list of ships whose class file set ratings instead of deriving them.

    It lives here, not on the data sheets: the players read the values, and which of them
    a scenario's author chose is the referee's to know (and to change).
    """
    hand = [v for v in views if v.overrides]
    if not hand:
        return
    doc.space(3)
    doc.paragraph("Ratings set by hand", "h2")
    doc.paragraph("These ships' classes give these ratings themselves instead of taking "
                  "them from the rating rules; the data sheets print them as given.")
    for view in hand:
        doc.paragraph(f"<b>{escape(view.name)}</b> ({escape(view.cls.name)} {view.type}): "
                      + ", ".join(rating_words(f) for f in view.overrides))
