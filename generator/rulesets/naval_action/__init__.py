"""NAVAL ACTION (WWII tactical miniatures, d6): the first ruleset plugged into quarterdeck."""

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
from generator.rulesets.base import AidKind, Kit, KitOptions, Progress, describe_class
from generator.rulesets.naval_action import cardtables, resolve
from generator.rulesets.naval_action.aids import (
    default_torpedo_types,
    range_strings,
    scenario_torpedo_types,
)
from generator.rulesets.naval_action.cardtables import Tables, load_tables
from generator.rulesets.naval_action.components.action_card import render_action_card
from generator.rulesets.naval_action.components.aids import (
    render_gauge_strips,
    render_gauges,
    render_rulers,
    render_string_sheet,
    render_tapes,
)
from generator.rulesets.naval_action.components.briefing import render_briefing
from generator.rulesets.naval_action.components.catalog import render_catalog
from generator.rulesets.naval_action.components.dice_sheet import render_dice_sheet
from generator.rulesets.naval_action.components.markers import MarkerMaker
from generator.rulesets.naval_action.components.matchup_sheet import render_matchups
from generator.rulesets.naval_action.components.resolution import render_resolution
from generator.rulesets.naval_action.components.status_sheet import render_master, render_sheets
from generator.rulesets.naval_action.components.victory_sheet import render_victory
from generator.rulesets.naval_action.derive import ShipView, ship_view
from generator.rulesets.naval_action.markers import side_pool
from generator.rulesets.naval_action.matchups import ship_matchups
from generator.rulesets.naval_action.odds import Calculator
from generator.rulesets.naval_action.schema import Scenario, ShipClass
from generator.scales import Scale, parse_scale
from generator.sprue import Sprue, user_or_bundled
from generator.suggest import did_you_mean
from generator.templating import render_text

if TYPE_CHECKING:
    from generator.errors import Problem
    from generator.library import Library

NAME = "naval-action"
SPRUE = Path(__file__).parent / "sprues" / "markers.yaml"


class NavalAction:
    """The NAVAL ACTION plug (see ``generator.rulesets.base.Ruleset``)."""

    name = NAME
    title = "NAVAL ACTION"
    class_model: type[BaseModel] = ShipClass
    scenario_model: type[BaseModel] = Scenario

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Cross-file problems and warnings of every NAVAL ACTION scenario."""
        return resolve.check_library(library)

    def _views(self, library: Library, scenario: Scenario, scale: Scale | None = None,
               ) -> dict[str, list[ShipView]]:
        classes = library.classes_of(NAME)
        scale = scale or parse_scale(scenario.scale)
        out: dict[str, list[ShipView]] = {}
        for side in scenario.sides:
            views = []
            for ref in side.ships:
                cls: ShipClass = classes[ref.class_].model
                ship = resolve.find_ship(cls, ref.name)
                assert ship is not None  # checked before rendering
                views.append(ship_view(cls, ship, ref, scenario, side.id, side.name,
                                       scale.units_per_knot(), scale.unit))
            out[side.id] = views
        return out

    def kit_parts(self, library: Library, scenario_id: str, paper: Paper,
                  progress: Progress, options: KitOptions) -> Kit:
        """Render every component of a scenario's kit in memory."""
        scenario, warnings = self._scenario(library, scenario_id)
        tables = load_tables(options.tables)
        with cardtables.using(tables):
            views = self._views(library, scenario)
            return self._kit(scenario, views, library, paper, progress, warnings, tables,
                             options)

    def _scenario(self, library: Library, scenario_id: str) -> tuple[Scenario, list[str]]:
        entry = library.scenarios.get(scenario_id)
        if entry is None or entry.model.ruleset != NAME:
            raise UsageError(f"no scenario '{scenario_id}'"
                             f"{did_you_mean(scenario_id, library.scenarios)}")
        problems, warnings = resolve.check_scenario(entry, library)
        if problems:
            raise DataError(problems)
        return entry.model, warnings

    def _calculator_parts(self, scenario: Scenario | None, views: dict[str, list[ShipView]],
                          paper: Paper, tables: Tables, options: KitOptions,
                          line: str) -> dict[str, Component]:
        """The calculator's components: card, resolution tables, dice sheet, matchups.

        For a scenario, also every side's matchup pages and the victory sheet.
        """
        calc = Calculator(tables)
        foot = f"quarterdeck · NAVAL ACTION · {line}"
        seed = options.seed if options.seed is not None else scenario_seed(
            scenario.id if scenario else "naval-action")
        command = "quarterdeck tables" + (f" {scenario.id}" if scenario else "") + \
            f" --seed {seed}"
        parts = [render_action_card(tables, paper), render_resolution(calc, paper, foot),
                 render_dice_sheet(seed, paper, foot, command)]
        if scenario is not None:
            for side in scenario.sides:
                enemies = [v for s in scenario.sides if s.id != side.id for v in views[s.id]]
                pages = [ship_matchups(calc, v, enemies, scenario.sea_state, scenario.date.year)
                         for v in views[side.id]]
                parts.append(render_matchups(pages, calc, paper, f"matchups:{side.id}",
                                             f"{side.id.upper()}-Odds-",
                                             f"{foot} · {side.name} matchups"))
            parts.append(render_victory(scenario, views, tables.card.victory.heavy_damage_share,
                                        paper, f"{foot} · referee"))
        return {c.key: c for c in parts}

    def _kit(self, scenario: Scenario, views: dict[str, list[ShipView]], library: Library,
             paper: Paper, progress: Progress, warnings: list[str], tables: Tables,
             options: KitOptions) -> Kit:
        line = f"{scenario.name} · {scenario.date_label or scenario.date.isoformat()}"

        def players() -> dict[str, Component]:
            parts: list[Component] = []
            for side in scenario.sides:
                parts.append(render_briefing(scenario, side, views, paper))
                parts.append(render_sheets(views[side.id], paper, f"Ship status: {side.name}",
                                           line, f"sheets:{side.id}", f"{side.id.upper()}-"))
            parts.append(render_briefing(scenario, None, views, paper))
            parts.append(render_master(paper))
            # The referee gets the Master List entries of the classes in play; the whole
            # list is its own command (`quarterdeck catalog`).
            in_play = {v.cls.id for vs in views.values() for v in vs}
            parts.append(render_catalog([library.classes_of(NAME)[c].model
                                         for c in sorted(in_play)], paper,
                                        title="Ship classes in this scenario"))
            sides = {side.id: (side.name, views[side.id]) for side in scenario.sides}
            aids = self._aid_parts(sides, parse_scale(scenario.scale), tables, paper, line,
                                   {"rulers", "strings", "gauges"})
            markers, _, marker_warnings = self._marker_parts(scenario, views, library, tables,
                                                             paper, options, line)
            warnings.extend(marker_warnings)
            return {**{c.key: c for c in parts}, **aids, **markers}

        def calculator() -> dict[str, Component]:
            return self._calculator_parts(scenario, views, paper, tables, options, line)

        # The calculator's pages and the rest are independent: render them side by side.
        components: dict[str, Component] = {}
        for group in fork_map([calculator, players]):
            for key, component in group.items():
                components[key] = component
                progress(key)
        shared = ["card", "odds", "dice"]
        aids = ["rulers", "gauges", "gauge-strips", "master"]
        packets = [PacketSpec(f"{side.id}.pdf", f"{scenario.name}: {side.name}",
                              [f"briefing:{side.id}", f"sheets:{side.id}",
                               f"matchups:{side.id}", *shared, f"strings:{side.id}",
                               f"tapes:{side.id}", *aids, f"markers:{side.id}"])
                   for side in scenario.sides]
        # The referee scores and adjudicates; the matchup pages and tapes are the players'
        # tools (`quarterdeck tables SCENARIO` and `strings SCENARIO` print them alone).
        packets.append(PacketSpec("referee.pdf", f"{scenario.name}: referee",
                                  ["briefing:referee",
                                   *[f"sheets:{s.id}" for s in scenario.sides],
                                   "victory", *shared,
                                   *[f"strings:{s.id}" for s in scenario.sides],
                                   *aids, "catalog"]))
        return Kit(scenario.id, components, packets, warnings)

    def tables_parts(self, library: Library, scenario_id: str | None, paper: Paper,
                     options: KitOptions) -> Kit:
        """The calculator's PDFs on their own: card, resolution tables, dice, matchups."""
        tables = load_tables(options.tables)
        with cardtables.using(tables):
            if scenario_id is None:
                parts = self._calculator_parts(None, {}, paper, tables, options,
                                               "rules calculator")
                folder = "tables"
                warnings: list[str] = []
            else:
                scenario, warnings = self._scenario(library, scenario_id)
                views = self._views(library, scenario)
                line = f"{scenario.name} · {scenario.date_label or scenario.date.isoformat()}"
                parts = self._calculator_parts(scenario, views, paper, tables, options, line)
                folder = f"{scenario.id}/tables"
        names = {"card": "action-card.pdf", "odds": "resolution-tables.pdf",
                 "dice": "dice.pdf", "victory": "victory.pdf"}
        packets = [PacketSpec(names.get(key, key.replace(":", "-") + ".pdf"), part.title,
                              [key]) for key, part in parts.items()]
        return Kit(folder, parts, packets, warnings)

    def _aid_parts(self, sides: dict[str, tuple[str, list[ShipView]]], scale: Scale,
                   tables: Tables, paper: Paper, line: str, kinds: set[str],
                   ) -> dict[str, Component]:
        """Rulers, each side's strings and tapes, and gauges at one scale.

        Args:
            sides: Side id to (name, ships); empty for generic aids.
            scale: The table scale.
            tables: Tables in force (turn costs, torpedo runs, detection).
            paper: Paper size.
            line: Footer text naming the kit.
            kinds: Which of ``rulers``, ``strings`` and ``gauges`` to render.

        """
        foot = f"quarterdeck · NAVAL ACTION · {line}"
        every = [v for _, views in sides.values() for v in views]
        parts: list[Component] = []
        if "rulers" in kinds:
            longest = max((b.max_range_yd for v in every for b in v.batteries), default=0)
            fastest = max((v.speed_kn for v in every), default=0)
            parts.append(render_rulers(scale, max(longest, 30000 if not every else 0),
                                       fastest or 40, tables, paper, foot)[0])
        if "strings" in kinds:
            for side_id, (name, views) in sides.items():
                strings = range_strings(views, scale, tables)
                parts.append(render_string_sheet(strings, scale, name, paper, foot,
                                                 f"strings:{side_id}",
                                                 f"{side_id.upper()}-Strings-"))
                parts.append(render_tapes(strings, scale, paper, f"{foot} · {name}",
                                          f"tapes:{side_id}", f"Range tapes: {name}",
                                          f"{side_id.upper()}-Tapes-")[0])
        if "gauges" in kinds:
            torpedoes = (scenario_torpedo_types(every, tables) if every
                         else default_torpedo_types(tables))
            parts.append(render_gauges(tables, scale, paper, foot))
            parts.append(render_gauge_strips(tables, scale, torpedoes, paper, foot)[0])
        return {c.key: c for c in parts}

    def aids_parts(self, library: Library, kind: AidKind, scenario_id: str | None,
                   classes: list[str], scale: str | None, paper: Paper,
                   options: KitOptions) -> Kit:
        """Rulers, strings and tapes, or gauges, one PDF per packet."""
        tables = load_tables(options.tables)
        warnings: list[str] = []
        with cardtables.using(tables):
            sides: dict[str, tuple[str, list[ShipView]]] = {}
            if scenario_id is not None:
                scenario, warnings = self._scenario(library, scenario_id)
                chosen = _scale(scale or scenario.scale)
                views = self._views(library, scenario, chosen)
                sides = {s.id: (s.name, views[s.id]) for s in scenario.sides}
                line = f"{scenario.name} · {scenario.date_label or scenario.date.isoformat()}"
                folder = f"{scenario.id}/aids"
            else:
                chosen = _scale(scale or "tabletop")
                if classes:
                    sides = {"classes": ("Chosen classes", self._class_views(library, classes,
                                                                            chosen))}
                elif kind == "strings":
                    raise UsageError("strings needs a SCENARIO or --classes a,b,...")
                line = f"{chosen.describe()}"
                folder = f"aids/{chosen.name}"
            parts = self._aid_parts(sides, chosen, tables, paper, line, {kind})
        names = {"rulers": "rulers.pdf"}
        packets = [PacketSpec(names.get(key, key.replace(":", "-") + ".pdf"), part.title, [key])
                   for key, part in parts.items() if key not in ("gauges", "gauge-strips")]
        if kind == "gauges":
            packets.append(PacketSpec("gauges.pdf", f"Gauges · {chosen.describe()}",
                                      ["gauges", "gauge-strips"]))
        return Kit(folder, parts, packets, warnings)

    def _marker_parts(self, scenario: Scenario, views: dict[str, list[ShipView]],
                      library: Library, tables: Tables, paper: Paper, options: KitOptions,
                      line: str) -> tuple[dict[str, Component], list[Piece], list[str]]:
        """Each side's marker sheets, the distinct pieces, and label warnings."""
        sprue = _sprue(options.sprue)
        sheet_options = dataclasses.replace(options.sheets, paper=paper)
        maker = MarkerMaker(tables.markers, resolve.class_images(library))
        foot = f"quarterdeck · NAVAL ACTION · {line}"
        parts: dict[str, Component] = {}
        every: dict[str, Piece] = {}
        for side in scenario.sides:
            air = [g for g in scenario.air_groups if g.side == side.id]
            pool = side_pool(side.id, side.name, views[side.id], air, tables.markers)
            pieces = [p for v in views[side.id] for p in maker.ship_pieces(v)]
            pieces += maker.pool_pieces(pool)
            imposed = impose(pieces, sprue, sheet_options, f"Markers: {side.name}",
                             f"{foot} · {side.name}")
            key = f"markers:{side.id}"
            parts[key] = as_component(imposed, key, f"Markers: {side.name}",
                                      f"{side.id.upper()}-Markers-")
            for piece in pieces:
                # Pools with the same id on both sides (smoke, fires) differ only in number.
                if piece.id in every:
                    piece = dataclasses.replace(piece, quantity=every[piece.id].quantity
                                                + piece.quantity)
                every[piece.id] = piece
        return parts, list(every.values()), maker.labels.warnings

    def markers_parts(self, library: Library, scenario_id: str, paper: Paper,
                      options: KitOptions) -> Kit:
        """Each side's marker sheets as its own PDF, plus the back-offset check."""
        from generator.duplexcheck import render_duplex_check

        scenario, warnings = self._scenario(library, scenario_id)
        tables = load_tables(options.tables)
        line = f"{scenario.name} · {scenario.date_label or scenario.date.isoformat()}"
        with cardtables.using(tables):
            views = self._views(library, scenario)
            parts, pieces, label_warnings = self._marker_parts(scenario, views, library,
                                                               tables, paper, options, line)
        packets = [PacketSpec(f"markers-{side.id}.pdf", f"{scenario.name}: markers, {side.name}",
                              [f"markers:{side.id}"]) for side in scenario.sides]
        if options.sheets.duplex != "off":
            parts["duplex-check"] = render_duplex_check(paper, options.sheets.duplex,
                                                        options.sheets.back_offset,
                                                        f"quarterdeck · {scenario.name}")
            packets.append(PacketSpec("back-offset-check.pdf", "Back-offset check",
                                      ["duplex-check"]))
        return Kit(f"{scenario.id}/markers", parts, packets, warnings + label_warnings, pieces)

    def _class_views(self, library: Library, class_ids: list[str], scale: Scale,
                     ) -> list[ShipView]:
        """One view per class (its first ship), for strings without a scenario."""
        known = library.classes_of(NAME)
        missing = [c for c in class_ids if c not in known]
        if missing:
            raise UsageError("; ".join(f"no class '{c}'{did_you_mean(c, known)}"
                                       for c in missing))
        views = []
        for class_id in class_ids:
            cls: ShipClass = known[class_id].model
            views.append(ship_view(cls, cls.ships[0], None, None, "classes", "Chosen classes",
                                   scale.units_per_knot(), scale.unit))
            views[-1].name = f"{cls.name} class"
        return views

    def class_kit_parts(self, library: Library, class_id: str, ship: str | None, paper: Paper,
                        progress: Progress, options: KitOptions) -> Kit:
        """A one-ship kit for a designer: the ship's sheet, briefing and the master."""
        classes = library.classes_of(NAME)
        if class_id not in classes:
            raise UsageError(f"no class '{class_id}'{did_you_mean(class_id, classes)}")
        cls: ShipClass = classes[class_id].model
        name = ship or cls.ships[0].name
        found = resolve.find_ship(cls, name)
        if found is None:
            raise UsageError(f"no ship '{name}' in the {cls.name} class"
                             f"{did_you_mean(name, [s.name for s in cls.ships])}")
        date = found.commissioned
        ref = {"class": cls.id, "name": found.name}
        scenario = Scenario.model_validate({
            "kind": "scenario", "ruleset": NAME, "id": f"class-{cls.id}",
            "name": f"{found.name} trial", "date": date, "time_of_day": "day",
            "visibility": "good", "sea_state": "calm", "scale": "tabletop",
            "sides": [{"id": "ship", "name": f"{cls.name} class", "ships": [ref]},
                      {"id": "none", "name": "(no opponent)", "ships": [ref]}],
            "starting_conditions": "A single-ship kit for checking a class's data on paper.",
            "victory": "None: this is a proof sheet.", "sources": ["the class file"],
        })
        scale = parse_scale("tabletop")
        line = f"{cls.name} class · as commissioned {date.isoformat()}"
        tables = load_tables(options.tables)
        with cardtables.using(tables):
            views = {"ship": [ship_view(cls, found, None, scenario, "ship",
                                        scenario.sides[0].name, scale.units_per_knot(),
                                        scale.unit)]}
            components = {
                "sheets:ship": render_sheets(views["ship"], paper, f"Ship status: {found.name}",
                                             line, "sheets:ship", "SHIP-"),
                "master": render_master(paper),
                "card": render_action_card(tables, paper),
            }
        progress("sheets:ship")
        return Kit(scenario.id, components,
                   [PacketSpec(f"{cls.id}.pdf", f"{found.name} ({cls.name} class)",
                               ["sheets:ship", "card", "master"])])

    def catalog(self, library: Library, paper: Paper) -> Component:
        """The Master List of every class."""
        classes = [e.model for e in library.classes_of(NAME).values()]
        return render_catalog(classes, paper)

    def new_class_yaml(self, class_id: str, nation: str, ship_type: str) -> str:
        """A commented class file for a designer to fill in."""
        return render_text("naval_action/new-class.yaml.j2", escape=False, id=class_id,
                           nation=nation, type=ship_type)

    def schema_reference(self) -> str:
        """The Markdown schema reference."""
        from generator.rulesets.naval_action.reference import schema_reference

        return schema_reference()

    def describe_class(self, entry: Any) -> tuple[str, str, str, str]:
        """(id, name, nation, type) for listings."""
        return describe_class(entry)


def _scale(text: str) -> Scale:
    """A scale from the command line, as a usage error when it is not one."""
    try:
        return parse_scale(text)
    except ValueError as exc:
        raise UsageError(f"--scale: found '{text}', {exc}") from None


RULESET = NavalAction()


def _sprue(path: Path | None) -> Sprue:
    """The user's sheet layout, or the bundled one."""
    return user_or_bundled(path, SPRUE, "naval_action/sprues/markers.yaml")
