"""Scenario briefings: what each side knows, and the referee's whole picture."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from generator.canvasdoc import CanvasDoc
from generator.layout import Paper
from generator.packets import Component
from generator.rulesets.surface_action.derive import ShipView
from generator.rulesets.surface_action.schema import Scenario, Side


def _formations(views: Sequence[ShipView]) -> list[str]:
    groups: dict[str, list[str]] = {}
    for view in views:
        groups.setdefault(view.formation or view.name,
                          []).append(view.name + (" (fleet flagship)" if view.flagship else ""))
    return [f"<b>{escape(name)}</b>: {escape(', '.join(ships))}" for name, ships in groups.items()]


def render_briefing(scenario: Scenario, side: Side | None, views: dict[str, list[ShipView]],
                    paper: Paper, footer: str) -> Component:
    """A side's briefing (its own ships and orders), or the referee's (``side`` None)."""
    who = side.name if side else "Referee"
    doc = CanvasDoc(paper, f"{scenario.name}: briefing", footer)
    doc.anchor("Briefing")
    doc.paragraph(escape(scenario.name), "h1")
    when = "Night" if scenario.time == "night" else "Day"
    doc.paragraph(f"{escape(scenario.date_label or scenario.date.isoformat())} · {when}: "
                  f"sighting {scenario.sighting_in} in · {escape(who)}", "body")
    shown = [side] if side else scenario.sides
    for s in shown:
        doc.paragraph(escape(s.name) + (f" — {escape(s.commander)}" if s.commander else ""),
                      "h2")
        if s.edge:
            doc.paragraph(f"Friendly edge: {escape(s.edge)}.")
        if s.briefing:
            doc.paragraph(escape(s.briefing), "body")
        doc.paragraph("Formations:", "h3")
        for line in _formations(views[s.id]):
            doc.paragraph(line)
        doc.paragraph(f"Dummy formation blanks: {s.dummies}. Dummy torpedo markers: "
                      f"{s.torpedo_dummies}. Event cards: deal {s.cards.hand}, draw "
                      f"{s.cards.draw} each Card Draw phase.")
    if side is None:
        doc.paragraph("Set-up", "h2")
        doc.paragraph(escape(scenario.starting_conditions), "body")
    if scenario.special_rules:
        doc.paragraph("Special rules", "h2")
        for rule in scenario.special_rules:
            doc.paragraph("• " + escape(rule))
    doc.paragraph("Victory", "h2")
    doc.paragraph(escape(scenario.victory), "body")
    pdf, pages = doc.finish()
    key = f"briefing:{side.id if side else 'referee'}"
    return Component(key, "Briefing", "Brief-", pdf, pages, [])
