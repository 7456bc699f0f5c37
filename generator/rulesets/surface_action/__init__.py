"""Surface Action (WWII tactical, three-step d6 pools): the second ruleset.

Everything here plugs into the shared machinery: the library, validation and rosters,
the dice engine, page flow and grids, the imposition engine for counters and cards, the
aids' strips and calibration bars, and the packet assembler.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from generator.dice import scenario_seed
from generator.errors import DataError, UsageError
from generator.imposition import as_component, impose
from generator.layout import Paper
from generator.packets import Component, PacketSpec
from generator.parallel import fork_map
from generator.pieces import Piece
from generator.roster import find_ship
from generator.rulesets.base import AidKind, Kit, KitOptions, Progress, describe_class
from generator.rulesets.surface_action import resolve
from generator.rulesets.surface_action.charts import Charts, load_charts
from generator.rulesets.surface_action.components.aids import render_ruler, render_turn_guide
from generator.rulesets.surface_action.components.briefing import render_briefing
from generator.rulesets.surface_action.components.counters import side_counter_pieces
from generator.rulesets.surface_action.components.data_sheet import render_data_sheet
from generator.rulesets.surface_action.components.reference_card import render_reference_card
from generator.rulesets.surface_action.components.tables import (
    render_matchups,
    render_resolution,
)
from generator.rulesets.surface_action.derive import ShipView, ship_view
from generator.rulesets.surface_action.schema import Scenario, ShipClass
from generator.sprue import Sprue, user_or_bundled
from generator.suggest import did_you_mean

if TYPE_CHECKING:
    from generator.errors import Problem
    from generator.library import Library

NAME = "surface-action"
SPRUES = Path(__file__).parent / "sprues"


class SurfaceAction:
    """The Surface Action plug (see ``generator.rulesets.base.Ruleset``)."""

    name = NAME
    title = "Surface Action"
    class_model: type[BaseModel] = ShipClass
    scenario_model: type[BaseModel] = Scenario

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Cross-file problems and warnings of every Surface Action scenario."""
        return resolve.check_library(library)

    # ---- scenario, ships ---------------------------------------------------------------

    def _scenario(self, library: Library, scenario_id: str) -> tuple[Scenario, list[str]]:
        entry = library.scenarios.get(scenario_id)
        if entry is None or entry.model.ruleset != NAME:
            raise UsageError(f"no Surface Action scenario '{scenario_id}'"
                             f"{did_you_mean(scenario_id, library.scenarios)}")
        problems, warnings = resolve.check_scenario(entry, library)
        if problems:
            raise DataError(problems)
        return entry.model, warnings

    def _views(self, library: Library, scenario: Scenario, charts: Charts,
               ) -> dict[str, list[ShipView]]:
        classes = library.classes_of(NAME)
        out: dict[str, list[ShipView]] = {}
        for side in scenario.sides:
            views = []
            for ref in side.ships:
                cls: ShipClass = classes[ref.class_].model
                ship = find_ship(cls, ref.name)
                assert ship is not None  # checked before rendering
                views.append(ship_view(cls, ship, ref, scenario, side.id, charts))
            out[side.id] = views
        return out

    @staticmethod
    def _line(scenario: Scenario) -> str:
        return f"{scenario.name} · {scenario.date_label or scenario.date.isoformat()}"

    # ---- components --------------------------------------------------------------------

    def _calculator(self, scenario: Scenario, views: dict[str, list[ShipView]],
                    charts: Charts, paper: Paper, foot: str) -> dict[str, Component]:
        night = scenario.time == "night"
        parts = [render_reference_card(charts, paper, foot),
                 render_resolution(scenario.weapons, night, charts, paper, foot)]
        for side in scenario.sides:
            enemies = [v for s in scenario.sides if s.id != side.id for v in views[s.id]]
            parts.append(render_matchups(views[side.id], enemies, scenario.weapons, night,
                                         charts, paper, f"matchups:{side.id}",
                                         f"{side.id.upper()}-Odds-",
                                         f"Matchups: {side.name}", f"{foot} · {side.name}"))
        return {c.key: c for c in parts}

    def _aids(self, scenario: Scenario | None, views: list[ShipView], charts: Charts,
              paper: Paper, foot: str) -> dict[str, Component]:
        bands = scenario.weapons.bands_in if scenario else [6.0, 12.0, 18.0, 24.0, 30.0, 36.0]
        # Classes, not ships: a side's packet must not name the enemy's ships.
        speeds = list(dict.fromkeys((f"{v.cls.name} class", v.speed_in) for v in views))
        return {"turn-guide": render_turn_guide(charts, paper, foot),
                "ruler": render_ruler(charts, bands, speeds, paper, foot)}

    def _markers(self, scenario: Scenario, views: dict[str, list[ShipView]], paper: Paper,
                 options: KitOptions, foot: str,
                 ) -> tuple[dict[str, Component], list[Piece]]:
        """Each side's counter sheets and the event deck, imposed, plus every piece."""
        from generator.rulesets.surface_action.components.event_cards import (
            event_card_pieces,
        )
        from generator.rulesets.surface_action.events import load_deck

        sheet_options = dataclasses.replace(options.sheets, paper=paper)
        sprue = _sprue(options.sprue, "counters")
        parts: dict[str, Component] = {}
        every: dict[str, Piece] = {}
        seed = options.seed if options.seed is not None else scenario_seed(scenario.id)
        for side in scenario.sides:
            pieces = side_counter_pieces(side.id, side.name, views[side.id], side.dummies,
                                         side.torpedo_dummies, seed)
            imposed = impose(pieces, sprue, sheet_options, f"Counters: {side.name}",
                             f"{foot} · {side.name}")
            key = f"markers:{side.id}"
            parts[key] = as_component(imposed, key, f"Counters: {side.name}",
                                      f"{side.id.upper()}-Counters-")
            every.update({p.id: p for p in pieces})
        cards = event_card_pieces(load_deck())
        imposed = impose(cards, _sprue(None, "cards"), sheet_options, "Event cards",
                         f"{foot} · event deck")
        parts["events"] = as_component(imposed, "events", "Event cards", "Cards-")
        every.update({p.id: p for p in cards})
        return parts, list(every.values())

    def kit_parts(self, library: Library, scenario_id: str, paper: Paper,
                  progress: Progress, options: KitOptions) -> Kit:
        """Render every component of a scenario's kit in memory."""
        charts = load_charts(options.tables)
        scenario, warnings = self._scenario(library, scenario_id)
        views = self._views(library, scenario, charts)
        foot = f"quarterdeck · Surface Action · {self._line(scenario)}"
        every = [v for vs in views.values() for v in vs]

        def players() -> dict[str, Component]:
            parts: dict[str, Component] = {}
            for side in [*scenario.sides, None]:
                c = render_briefing(scenario, side, views, paper, foot)
                parts[c.key] = c
            for side in scenario.sides:
                parts[f"sheets:{side.id}"] = render_data_sheet(
                    views[side.id], charts, paper, f"Data sheet: {side.name}", foot,
                    f"sheets:{side.id}", f"{side.id.upper()}-Data-")
            parts.update(self._aids(scenario, every, charts, paper, foot))
            markers, _ = self._markers(scenario, views, paper, options, foot)
            parts.update(markers)
            return parts

        def calculator() -> dict[str, Component]:
            return self._calculator(scenario, views, charts, paper, foot)

        components: dict[str, Component] = {}
        for group in fork_map([calculator, players]):
            for key, component in group.items():
                components[key] = component
                progress(key)
        shared = ["card", "odds", "turn-guide", "ruler"]
        packets = [PacketSpec(f"{side.id}.pdf", f"{scenario.name}: {side.name}",
                              [f"briefing:{side.id}", f"sheets:{side.id}",
                               f"matchups:{side.id}", *shared, f"markers:{side.id}",
                               "events"])
                   for side in scenario.sides]
        packets.append(PacketSpec("referee.pdf", f"{scenario.name}: referee",
                                  ["briefing:referee",
                                   *[f"sheets:{s.id}" for s in scenario.sides], *shared]))
        return Kit(scenario.id, components, packets, warnings)

    def tables_parts(self, library: Library, scenario_id: str | None, paper: Paper,
                     options: KitOptions) -> Kit:
        """The reference card, resolution tables and matchups, one PDF each."""
        if scenario_id is None:
            raise UsageError("Surface Action tables come from a scenario's weapons table: "
                             "name the scenario")
        charts = load_charts(options.tables)
        scenario, warnings = self._scenario(library, scenario_id)
        views = self._views(library, scenario, charts)
        foot = f"quarterdeck · Surface Action · {self._line(scenario)}"
        parts = self._calculator(scenario, views, charts, paper, foot)
        names = {"card": "reference-card.pdf", "odds": "resolution-tables.pdf"}
        packets = [PacketSpec(names.get(key, key.replace(":", "-") + ".pdf"), part.title,
                              [key]) for key, part in parts.items()]
        return Kit(f"{scenario.id}/tables", parts, packets, warnings)

    def markers_parts(self, library: Library, scenario_id: str, paper: Paper,
                      options: KitOptions) -> Kit:
        """Each side's counter sheets and the event deck, plus the back-offset check."""
        from generator.duplexcheck import render_duplex_check

        charts = load_charts(options.tables)
        scenario, warnings = self._scenario(library, scenario_id)
        views = self._views(library, scenario, charts)
        foot = f"quarterdeck · Surface Action · {self._line(scenario)}"
        parts, pieces = self._markers(scenario, views, paper, options, foot)
        packets = [PacketSpec(f"markers-{side.id}.pdf", f"{scenario.name}: counters, "
                              f"{side.name}", [f"markers:{side.id}"])
                   for side in scenario.sides]
        packets.append(PacketSpec("event-cards.pdf", "Event cards", ["events"]))
        if options.sheets.duplex != "off":
            parts["duplex-check"] = render_duplex_check(paper, options.sheets.duplex,
                                                        options.sheets.back_offset,
                                                        f"quarterdeck · {scenario.name}")
            packets.append(PacketSpec("back-offset-check.pdf", "Back-offset check",
                                      ["duplex-check"]))
        return Kit(f"{scenario.id}/markers", parts, packets, warnings, pieces)

    def aids_parts(self, library: Library, kind: AidKind, scenario_id: str | None,
                   classes: list[str], scale: str | None, paper: Paper,
                   options: KitOptions) -> Kit:
        """The ruler (``rulers``) or turn guides (``gauges``); Surface Action has no strings."""
        if kind == "strings":
            raise UsageError("Surface Action measures with its ruler, not range strings: "
                             "use `quarterdeck rulers --scenario SCENARIO`")
        if scale is not None:
            raise UsageError("Surface Action is played at 1 in = 1,000 yd; --scale does "
                             "not apply")
        charts = load_charts(options.tables)
        warnings: list[str] = []
        if scenario_id is None:
            raise UsageError("name a Surface Action scenario")
        scenario, warnings = self._scenario(library, scenario_id)
        views = self._views(library, scenario, charts)
        foot = f"quarterdeck · Surface Action · {self._line(scenario)}"
        parts = self._aids(scenario, [v for vs in views.values() for v in vs], charts, paper,
                           foot)
        key = "ruler" if kind == "rulers" else "turn-guide"
        name = "ruler.pdf" if kind == "rulers" else "turn-guides.pdf"
        return Kit(f"{scenario.id}/aids", {key: parts[key]},
                   [PacketSpec(name, parts[key].title, [key])], warnings)

    def class_kit_parts(self, library: Library, class_id: str, ship: str | None,
                        paper: Paper, progress: Progress, options: KitOptions) -> Kit:
        """A one-ship proof: the class's data-sheet row and the reference card."""
        classes = library.classes_of(NAME)
        cls: ShipClass = classes[class_id].model
        name = ship or cls.ships[0].name
        found = find_ship(cls, name)
        if found is None:
            raise UsageError(f"no ship '{name}' in the {cls.name} class"
                             f"{did_you_mean(name, [s.name for s in cls.ships])}")
        charts = load_charts(options.tables)
        view = ship_view(cls, found, None, None, "ship", charts)
        foot = f"quarterdeck · Surface Action · {cls.name} class"
        components = {
            "sheets:ship": render_data_sheet([view], charts, paper,
                                             f"Data sheet: {found.name}", foot,
                                             "sheets:ship", "SHIP-"),
            "card": render_reference_card(charts, paper, foot),
        }
        progress("sheets:ship")
        return Kit(f"class-{cls.id}", components,
                   [PacketSpec(f"{cls.id}.pdf", f"{found.name} ({cls.name} class)",
                               ["sheets:ship", "card"])])

    def catalog(self, library: Library, paper: Paper) -> Component:
        """The list of every class with its game values."""
        from generator.rulesets.surface_action.components.catalog import render_catalog

        return render_catalog([e.model for e in library.classes_of(NAME).values()],
                              load_charts(), paper)

    def new_class_yaml(self, class_id: str, nation: str, ship_type: str) -> str:
        """A commented class file for a designer to fill in."""
        from generator.templating import render_text

        return render_text("surface_action/new-class.yaml.j2", escape=False, id=class_id,
                           nation=nation, type=ship_type)

    def schema_reference(self) -> str:
        """The Markdown schema reference."""
        from generator.rulesets.surface_action.reference import schema_reference

        return schema_reference()

    def describe_class(self, entry: Any) -> tuple[str, str, str, str]:
        """(id, name, nation, type) for listings."""
        return describe_class(entry)


def _sprue(path: Path | None, name: str) -> Sprue:
    """The user's sheet layout, or the bundled one."""
    return user_or_bundled(path, SPRUES / f"{name}.yaml", f"surface_action/sprues/{name}.yaml")


RULESET = SurfaceAction()
