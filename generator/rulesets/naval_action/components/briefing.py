"""Scenario briefing: conditions, set-up, special rules, victory, order of battle.

The wording is ``templates/naval_action/briefing.md.j2``; every rule number it states
(visibility limits, sea-state penalties) comes from the tables in force, so a
``--tables`` file changes the briefing too.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.aids.maptext import TableFacts
from generator.core.scales import parse_scale
from generator.pages.component import Component
from generator.pages.layout import Paper
from generator.pages.markup import markup_to_flowables
from generator.pages.prose import prose_component
from generator.pages.templating import render_text
from generator.rulesets.naval_action import cardtables
from generator.rulesets.naval_action.derive import ShipView
from generator.rulesets.naval_action.rules import load_rules
from generator.rulesets.naval_action.schema import Scenario, Side
from generator.rulesets.naval_action.victory import number, strength_totals


@dataclass
class SideSummary:
    """A side as the briefing lists it."""

    name: str
    ships: list[str]
    views: list[ShipView]
    strength: str


@dataclass
class StrengthRatio:
    """The comparative strengths of the two strongest sides (for victory points)."""

    strong: str
    strong_cs: float
    weak: str
    weak_cs: float

    @property
    def ratio(self) -> float:
        """How many times stronger the strong side is."""
        return self.strong_cs / self.weak_cs


def strength_ratio(totals: list[tuple[str, float]]) -> StrengthRatio | None:
    """The two strongest sides' CS, or None with fewer than two sides or a zero."""
    if len(totals) < 2:
        return None
    ordered = sorted(totals, key=lambda t: -t[1])
    (strong, a), (weak, b) = ordered[0], ordered[1]
    return StrengthRatio(strong, a, weak, b) if b else None


def render_briefing(scenario: Scenario, side: Side | None, views: dict[str, list[ShipView]],
                    paper: Paper, table: TableFacts | None = None) -> Component:
    """Render a side's (or the referee's) briefing.

    Args:
        scenario: The scenario.
        side: The side whose packet this is, or None for the referee.
        views: Derived ships by side id.
        paper: Paper size.
        table: The set-up's table size and the starting ranges this reader knows.

    Returns:
        The component.

    """
    shown = [s for s in scenario.sides if side is None or s.id == side.id]
    leave_out = [t.value for t in load_rules().strength_leaves_out]
    by_id = strength_totals({s.id: views[s.id] for s in scenario.sides}, leave_out)
    summaries = [SideSummary(s.name, [v.name for v in views[s.id]], views[s.id],
                             number(by_id[s.id])) for s in shown]
    totals = [(s.name, float(by_id[s.id])) for s in scenario.sides]
    text = render_text(
        "naval_action/briefing.md.j2", scenario=scenario, side=side,
        date_label=scenario.date_label or f"{scenario.date:%-d %B %Y}",
        scale=parse_scale(scenario.scale), shown_sides=summaries,
        tables=cardtables.active(),
        ratio=strength_ratio(totals) if side is None and scenario.strength_ratio else None,
        # Hidden information: a side reads only its own set-up, rules and orders.
        briefed_sides=shown,
        rules_for_sides=[(s.name, rule) for s in shown for rule in s.special_rules],
        setup_facts=table,
    )
    who = side.name if side else "Referee"
    return prose_component(markup_to_flowables(text), paper, f"{scenario.name}: briefing",
                           f"quarterdeck · NAVAL ACTION · {scenario.name} · {who}",
                           f"briefing:{side.id if side else 'referee'}", "Briefing", "Brief-")
