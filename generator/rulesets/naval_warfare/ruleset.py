"""Naval Warfare 1942-45: the strategic campaign game (fleet operations and the merchant war).

A campaign start file (``kind: scenario``) holds every nation's naval balance, its fleet
bases, the teams and the merchant routes; ``prepare`` turns it into the views each
component reads. A team is a side: its packet carries only its own nations' forces,
routes and Advantage Cards; the game-control packet carries everything.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel

from generator.core.errors import UsageError
from generator.data.roster import check_scenarios, owned_scenario
from generator.kit.seam import Context, KitOptions, Request, Ruleset
from generator.pages.layout import Paper
from generator.rules.dice import in_force
from generator.rulesets.naval_warfare.campaign import (
    CounterMix,
    SupplyTable,
    check_entry,
)
from generator.rulesets.naval_warfare.registry import COMPONENTS
from generator.rulesets.naval_warfare.ruletables import tables_in_force
from generator.rulesets.naval_warfare.schema import Campaign, NationForces, Team
from generator.rulesets.naval_warfare.units import UnitType, load_units

if TYPE_CHECKING:
    from generator.core.errors import Problem
    from generator.data.library import Library
    from generator.pages.component import Component

NAME = "naval-warfare"
TITLE = "Naval Warfare 1942–45"
FOLDER = Path(__file__).parent
CONTROL = "control"
"""The component argument for game control's view (everything, every team)."""


@dataclass
class Derived:
    """What every Naval Warfare component reads.

    Attributes:
        campaign: The campaign start (None for generic tables without a campaign).
        units: The unit table by id.
        supply: The Supply Effectiveness table in force.
        mix: The counter quantities beyond the balance, in force.
        nations: Nation id -> its forces.
        teams: Team id -> the team (the sides of the build).
        deal: Team id -> the Advantage Card ids dealt to it, in deal order.
        foot: Footer line for every page.

    """

    units: dict[str, UnitType]
    supply: SupplyTable
    mix: CounterMix
    campaign: Campaign | None = None
    nations: dict[str, NationForces] = field(default_factory=dict)
    teams: dict[str, Team] = field(default_factory=dict)
    deal: dict[str, list[str]] = field(default_factory=dict)
    foot: str = f"quarterdeck · {TITLE}"

    def team_nations(self, team: str | None) -> list[NationForces]:
        """The nations a team plays, or every nation for game control (None or 'control')."""
        if team is None or team == CONTROL:
            return list(self.nations.values())
        return [self.nations[n] for n in self.teams[team].nations]

    def team_of(self, nation: str) -> Team | None:
        """The team that plays a nation (None: game control keeps it)."""
        return next((t for t in self.teams.values() if nation in t.nations), None)


class NavalWarfare(Ruleset[Derived]):
    """The Naval Warfare plug (see ``generator.kit.seam.Ruleset``)."""

    name = NAME
    title = TITLE
    folder = FOLDER
    data_kinds: ClassVar[dict[str, type[BaseModel]]] = {"scenario": Campaign}
    components = COMPONENTS
    default_scenario = "balance-1942"
    order = 30

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Every campaign's cross-references (unit types, bases, teams, the card deal)."""
        return check_scenarios(library, NAME, check_entry)

    def catalog(self, library: Library, paper: Paper) -> Component:
        """Every unit type with its game values (Naval Warfare has no ship classes)."""
        from generator.rulesets.naval_warfare import ruletables
        from generator.rulesets.naval_warfare.campaign import counter_mix
        from generator.rulesets.naval_warfare.components.catalog import render_catalog

        combat = ruletables.bundled().combat
        return render_catalog(load_units(), combat.land_troops.manpower,
                              combat.land_troops.tank, counter_mix().garrison_cv,
                              combat.operations.japanese_land_air_range, paper)

    def schema_reference(self) -> str:
        """The generic reference, with the bounded counts named as what they are."""
        from generator.data.schemadoc import generic_reference

        text = generic_reference(self.title, self.data_kinds)
        return (text.replace("mapping text → Annotated", "mapping unit type → integer")
                .replace("list of Annotated", "list of text"))

    def prepare(self, library: Library, request: Request, paper: Paper,
                options: KitOptions) -> Context[Derived]:
        """The campaign's nations, teams, routes and card deal, with the tables in force."""
        derived = Derived(load_units(), *tables_in_force(options.tables))
        ctx = Context(request, paper, options, data=derived)
        if request.command == "class":
            raise UsageError(f"{TITLE} has no ship classes to proof")
        if request.scenario is None:
            if request.command == "kit":
                raise UsageError(f"{TITLE} builds from a campaign file: name the campaign")
            return ctx
        campaign, warnings = owned_scenario(library, NAME, TITLE, request.scenario,
                                            check_entry)
        ctx.warnings.extend(warnings)
        derived.campaign = campaign
        derived.nations = {n.id: n for n in campaign.nations}
        derived.teams = {t.id: t for t in campaign.teams}
        # One deal for the whole table, so from the build seed itself.
        derived.deal = deal_cards(campaign, in_force(options.seed))
        derived.foot = f"quarterdeck · {TITLE} · {campaign.name} · {campaign.date}"
        ctx.for_scenario(campaign.id, campaign.name, campaign.teams)
        return ctx


def deal_cards(campaign: Campaign, seed: int) -> dict[str, list[str]]:
    """Deal each team its allotment of Advantage Cards from the shuffled default deck.

    The campaign check has made sure the deck holds enough cards for every allotment.
    """
    from generator.rulesets.naval_warfare.components.advantage import load_advantage_deck

    deck = load_advantage_deck()
    pack = [card.id for card in deck.cards for _ in range(card.quantity)]
    random.Random(seed).shuffle(pack)
    out: dict[str, list[str]] = {}
    for team in campaign.teams:
        out[team.id], pack = pack[:team.advantage_cards], pack[team.advantage_cards:]
    return out


# The component modules register themselves on COMPONENTS when imported.
# The rules half (reference card and resolution tables) registers on the same registry.
from generator.rulesets.naval_warfare import reference, resolution  # noqa: E402, F401
from generator.rulesets.naval_warfare.components import (  # noqa: E402, F401
    advantage,
    briefing,
    cards,
    counters,
    routes,
)

RULESET = NavalWarfare()
