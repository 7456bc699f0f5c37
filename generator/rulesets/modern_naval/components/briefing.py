"""Briefings: a side sees its own forces, set-up and orders; the umpire sees everything.

Contacts and dummies are the point of the game, so a side's briefing names no enemy unit
and gives no enemy set-up: only what the scenario's author wrote in that side's briefing.
"""

from __future__ import annotations

from generator.aids.maptext import TableFacts
from generator.core.safetext import markup
from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.layout import Paper
from generator.rules.defaults import LABEL
from generator.rulesets.modern_naval.derive import Unit
from generator.rulesets.modern_naval.schema import Scenario, Side


def _conditions(scenario: Scenario) -> str:
    parts = [f"sea state {scenario.sea_state}", "night" if scenario.night else "day"]
    if scenario.fog:
        parts.append("fog")
    parts.append(f"tactical visibility {scenario.visibility_cm} cm")
    return ", ".join(parts)


def _forces(doc: CanvasDoc, side: Side, units: list[Unit], dummies: int) -> None:
    doc.paragraph(markup("{name}", name=side.name), "h2")
    if side.commander:
        doc.paragraph(markup("Commander: {c}; initiative modifier {b:+d} while on table.",
                             c=side.commander, b=side.commander_bonus))
    for unit in units:
        # Detection distances depend on an aircraft's altitude (4.7, 4.8): say where it starts.
        flies = (markup(", starts at {a} altitude", a=unit.altitude)
                 if unit.altitude is not None else "")
        doc.paragraph(markup("• <b>{name}</b> ({cls}, {navy}): {n} weapon fit(s)",
                             name=unit.view.name, cls=unit.class_name, navy=unit.navy,
                             n=len(unit.view.weapons)) + flies)
    doc.paragraph(markup("Dummy contact markers: {n}. Enemy order of battle: {k}.", n=dummies,
                         k="known (matchups name the enemy units)" if side.known
                         else "not known (matchups give the enemy by its values)"))
    if side.setup:
        doc.paragraph("Set-up", "h3")
        doc.paragraph(markup("{t}", t=side.setup), "body")
    if side.briefing:
        doc.paragraph("Briefing", "h3")
        doc.paragraph(markup("{t}", t=side.briefing), "body")


def _table(doc: CanvasDoc, table: TableFacts, player: bool) -> None:
    """The table's size and the starting ranges this packet's reader knows (the set-up map's)."""
    doc.paragraph("The table", "h2")
    whose = "your units start" if player else "every unit starts"
    doc.paragraph(markup("{size}, north at the top edge; the set-up map shows where {w}.",
                         size=table.size, w=whose), "body")
    if table.ranges:
        doc.paragraph(markup("Starting ranges (closest units): {r}.",
                             r="; ".join(table.ranges)), "body")
    elif player:
        doc.paragraph("No enemy unit is known to you at the start.", "body")


def _data_note(doc: CanvasDoc, metres_per_cm: float) -> None:
    """For the umpire: where the kit's chosen values come from and how to replace them.

    Players' pages only mark those values; the files and the option that replace them
    are the umpire's business.
    """
    doc.ensure(30 * MM)  # the heading stays with its paragraph
    doc.paragraph(f"Data and {LABEL} values", "h2")
    scale = f", ground scale 1 cm = {metres_per_cm:g} m" if metres_per_cm else ""
    doc.paragraph("Unit ratings and weapon data are quarterdeck's (marked * on the cards): "
                  "rated from sourced facts by the rating rules (tables/rating.yaml, "
                  f"tables/weapons.yaml){scale}. Values the rule text leaves out are marked "
                  f"{LABEL} where printed (tables/rules.yaml). A --tables file replaces any "
                  "of these files' tables, and the cards, odds and matchups with them.",
                  "body")


def render_briefing(scenario: Scenario, side_id: str | None, units: dict[str, list[Unit]],
                    paper: Paper, footer: str, dummies: dict[str, int],
                    metres_per_cm: float = 0.0, table: TableFacts | None = None) -> Component:
    """A side's briefing, or the umpire's when ``side_id`` is not a side."""
    side = next((s for s in scenario.sides if s.id == side_id), None)
    who = side.name if side else "Umpire"
    doc = CanvasDoc(paper, f"{scenario.name}: briefing", footer)
    doc.anchor(f"Briefing: {who}")
    doc.paragraph(markup("{name}: {who}", name=scenario.name, who=who), "h1")
    doc.paragraph(markup("{date}; {cond}.", date=scenario.date_label or str(scenario.date),
                         cond=_conditions(scenario)), "body")
    shown = [side] if side else list(scenario.sides)
    for one in shown:
        _forces(doc, one, units[one.id], dummies[one.id])
    if side is None:
        doc.paragraph("Starting conditions", "h2")
        doc.paragraph(markup("{t}", t=scenario.starting_conditions), "body")
    if table is not None:
        _table(doc, table, side is not None)
    if scenario.special_rules:
        doc.paragraph("Special rules", "h2")
        for rule in scenario.special_rules:
            doc.paragraph(markup("• {t}", t=rule))
    doc.paragraph("Victory", "h2")
    doc.paragraph(markup("{t}", t=scenario.victory), "body")
    if side is None:
        doc.paragraph("Sources", "h2")
        for line in [*scenario.sources, *(f"Unverified: {u}" for u in scenario.unverified)]:
            doc.paragraph(markup("• {t}", t=line))
        _data_note(doc, metres_per_cm)
    pdf, pages = doc.finish()
    key = f"briefing:{side.id if side else side_id or 'umpire'}"
    return Component(key, f"Briefing: {who}", "Brief-", pdf, pages, [])
