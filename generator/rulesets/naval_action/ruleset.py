"""The NAVAL ACTION ruleset: what it prints and how it prepares a request.

``kit.yaml`` says which components each command prints; this module derives the ships
and tables for a request (``prepare``) and registers each component by name. The
package (``generator.rulesets.naval_action``) hands out its names on first use.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from generator.core.errors import UsageError
from generator.core.scales import Scale, parse_scale
from generator.core.suggest import did_you_mean
from generator.data.roster import owned_scenario, requested_ship, side_views
from generator.kit.seam import (
    ComponentFn,
    Components,
    Context,
    KitOptions,
    Rendered,
    Request,
    Ruleset,
    sheet_component,
)
from generator.kit.shipkit import SHEET_PREVIEWS, scale_option, ship_kinds
from generator.rules.dice import in_force
from generator.rulesets.naval_action import cardtables, resolve
from generator.rulesets.naval_action.cardtables import Tables, load_tables
from generator.rulesets.naval_action.derive import ShipView, ship_view
from generator.rulesets.naval_action.odds import Calculator
from generator.rulesets.naval_action.schema import Scenario, ShipClass

if TYPE_CHECKING:  # the page engine is imported by the components that draw
    from generator.aids.setupmap import MapInput
    from generator.core.errors import Problem
    from generator.data.library import Library
    from generator.pages.component import Component
    from generator.pages.layout import Paper
    from generator.pieces.sprue import Sprue
    from generator.rulesets.naval_action.ask import OddsIndex
    from generator.rulesets.naval_action.matchups import ShipMatchups

NAME = "naval-action"
FOLDER = Path(__file__).parent
SPRUE = FOLDER / "sprues" / "markers.yaml"
COMPONENTS: Components[Derived] = Components()


@dataclass
class Derived:
    """What every NAVAL ACTION component reads: the scenario, ships, tables and scale."""

    tables: Tables
    scale: Scale
    library: Library
    scenario: Scenario | None = None
    views: dict[str, list[ShipView]] = field(default_factory=dict)
    line: str = ""

    @property
    def foot(self) -> str:
        """The footer every page of the kit carries."""
        return f"quarterdeck · NAVAL ACTION · {self.line}"

    @functools.cached_property
    def calculator(self) -> Calculator:
        """One calculator per worker, so its cached odds serve every table and matchup."""
        return Calculator(self.tables)


Drawn = Callable[[Context[Derived], Derived, "str | None"], "Component | Rendered"]
"""A NAVAL ACTION component body: the context, its derived data, the recipe's argument."""


def component(name: str) -> Callable[[Drawn], ComponentFn[Derived]]:
    """Register a component that runs with this build's tables in force."""
    def wrap(fn: Drawn) -> ComponentFn[Derived]:
        @functools.wraps(fn)
        def run(ctx: Context[Derived], arg: str | None) -> Component | Rendered:
            derived = ctx.data
            with cardtables.using(derived.tables):
                return fn(ctx, derived, arg)
        return COMPONENTS(name)(run)
    return wrap


class NavalAction(Ruleset[Derived]):
    """The NAVAL ACTION plug (see ``generator.kit.seam.Ruleset``)."""

    name = NAME
    title = "NAVAL ACTION"
    folder = FOLDER
    data_kinds = ship_kinds(ShipClass, Scenario)
    components = COMPONENTS
    default_scenario = "savo-island"
    order = 10
    templates = "naval_action"
    override_tables: ClassVar[tuple[str, ...] | None] = (
        "action-card.yaml", "derivation.yaml", "markers.yaml")
    """Bundled tables `--tables` may replace (`quarterdeck tables --export`)."""
    preview_names = SHEET_PREVIEWS
    converts_old_files = True

    def from_old_file(self, data: dict[str, Any]) -> dict[str, Any]:
        """A shared class file's data from an old NAVAL ACTION class file's data."""
        from generator.rulesets.naval_action.rating import from_old_file

        return from_old_file(data)

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Cross-file problems and warnings of every NAVAL ACTION scenario."""
        return resolve.check_library(library)

    def prepare(self, library: Library, request: Request, paper: Paper,
                options: KitOptions) -> Context[Derived]:
        """Derive the ships of the scenario (or class) and the tables in force."""
        tables = load_tables(options.tables)
        if request.command == "class":
            with cardtables.using(tables):
                return self._class_context(request, paper, options, library, tables)
        scale_text = request.scale
        derived = Derived(tables, scale_option(scale_text or "tabletop"), library)
        ctx = Context(request, paper, options, data=derived)
        if request.scenario is not None:
            scenario, warnings = self._scenario(library, request.scenario)
            ctx.warnings.extend(warnings)
            derived.scenario = scenario
            derived.scale = scale_option(scale_text or scenario.scale)
            derived.line = f"{scenario.name} · {scenario.date_label or scenario.date.isoformat()}"
            with cardtables.using(tables):
                derived.views = self._views(library, scenario, derived.scale)
            ctx.for_scenario(scenario.id, scenario.name, scenario.sides)
            if scenario.setup is not None:
                ctx.flags.add("setup")
                ctx.setup = _map_input(derived)
        elif request.classes:
            with cardtables.using(tables):
                derived.views = {"classes": self._class_views(library, list(request.classes),
                                                              derived.scale)}
            ctx.sides = {"classes": "Chosen classes"}
            derived.line = derived.scale.describe()
        elif request.command == "strings":
            raise UsageError("strings needs a SCENARIO or --classes a,b,...")
        else:
            derived.line = ("rules calculator" if request.command == "tables"
                            else derived.scale.describe())
        ctx.values.update(scale=derived.scale.name, scale_text=derived.scale.describe())
        return ctx

    def _class_context(self, request: Request, paper: Paper, options: KitOptions,
                       library: Library, tables: Tables) -> Context[Derived]:
        """A one-ship proof kit: the ship as commissioned, at tabletop scale."""
        classes = library.classes_of(NAME)
        assert request.class_id is not None
        cls: ShipClass = classes[request.class_id].model
        found = requested_ship(cls, request.ship)
        ref = {"class": cls.id, "name": found.name}
        scenario = Scenario.model_validate({
            "kind": "scenario", "ruleset": NAME, "id": f"class-{cls.id}",
            "name": f"{found.name} trial", "date": found.commissioned, "time_of_day": "day",
            "visibility": "good", "sea_state": "calm", "scale": "tabletop",
            # The schema wants two sides; the second only mirrors the first.
            "sides": [{"id": "ship", "name": f"{cls.name} class", "ships": [ref]},
                      {"id": "none", "name": "(no opponent)", "ships": [ref]}],
            "starting_conditions": "A single-ship kit for checking a class's data on paper.",
            "victory": "None: this is a proof sheet.", "sources": ["the class file"],
        })
        scale = parse_scale("tabletop")
        view = _overridden(ship_view(cls, found, None, scenario, "ship",
                                     scenario.sides[0].name, scale.units_per_knot(), scale.unit),
                           classes[request.class_id].overrides)
        derived = Derived(tables, scale, library, scenario, {"ship": [view]},
                          f"{cls.name} class · as commissioned {found.commissioned.isoformat()}")
        ctx = Context(request, paper, options, data=derived)
        ctx.sides = {"ship": found.name}
        ctx.values.update(scenario=scenario.id, scenario_name=scenario.name,
                          **{"class": cls.id, "class_name": cls.name, "ship": found.name})
        return ctx

    def _scenario(self, library: Library, scenario_id: str) -> tuple[Scenario, list[str]]:
        return owned_scenario(library, NAME, self.title, scenario_id, resolve.check_scenario)

    def _views(self, library: Library, scenario: Scenario, scale: Scale | None = None,
               ) -> dict[str, list[ShipView]]:
        chosen = scale or parse_scale(scenario.scale)
        per_knot, unit = chosen.units_per_knot(), chosen.unit
        entries = library.classes_of(NAME)
        return side_views(library, NAME, scenario, lambda cls, ship, ref, side: _overridden(
            ship_view(cls, ship, ref, scenario, side.id, side.name, per_knot, unit),
            entries[cls.id].overrides))

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

    def odds(self, library: Library, scenario: str | None, firer: str, target: str,
             weapon: str | None, band: str | None, tables: Path | None) -> None:
        """Print one matchup exactly (accuracy, hits, faces, damage) in the terminal."""
        from generator.rulesets.naval_action.ask import odds_index

        # One question, not kept: the index holds only the ships it can name.
        odds_index(library, tables, False, scenario).print_answer(firer, target, weapon, band,
                                                                  scenario)

    def odds_index(self, library: Library, tables: Path | None, complete: bool) -> OddsIndex:
        """Every ship a question can name, with its calculator (``ask.OddsIndex``)."""
        from generator.rulesets.naval_action.ask import odds_index

        return odds_index(library, tables, complete)

    def catalog(self, library: Library, paper: Paper) -> Component:
        """The Master List of every class."""
        from generator.rulesets.naval_action.components.catalog import render_catalog

        classes = [e.model for e in library.classes_of(NAME).values()]
        return render_catalog(classes, paper)

    def schema_reference(self) -> str:
        """The Markdown schema reference."""
        from generator.rulesets.naval_action.reference import schema_reference

        return schema_reference()


def _overridden(view: ShipView, overrides: list[str]) -> ShipView:
    """Say on the sheet which ratings the class file set by hand instead of deriving."""
    if overrides:
        view.notes.append(f"Set by hand in the class file: {', '.join(overrides)}.")
    return view


def _sprue(path: Path | None) -> Sprue:
    """The user's sheet layout, or the bundled one."""
    from generator.pieces.sprue import user_or_bundled

    return user_or_bundled(path, SPRUE, "naval_action/sprues/markers.yaml")


def _every(d: Derived) -> list[ShipView]:
    return [v for views in d.views.values() for v in views]


# ---- players' pages ----------------------------------------------------------------

@component("briefing")
def _briefing(ctx: Context[Derived], d: Derived, arg: str | None) -> Component:
    from generator.rulesets.naval_action.components.briefing import render_briefing

    assert d.scenario is not None
    side = next((s for s in d.scenario.sides if s.id == arg), None)
    from generator.aids.maptext import table_facts

    table = table_facts(ctx.setup, side.id if side else None) if ctx.setup else None
    return render_briefing(d.scenario, side, d.views, ctx.paper, table)


def _map_input(d: Derived) -> MapInput:
    """The scenario's set-up as the map draws it and the online table places it."""
    from generator.aids.setupmap import MapInput

    assert d.scenario is not None and d.scenario.setup is not None
    lengths = {v.name: v.cls.length_ft for views in d.views.values() for v in views}
    lengths.update({ref.name: v.cls.length_ft for s in d.scenario.sides
                    for ref, v in zip(s.ships, d.views[s.id], strict=True)})
    return MapInput(d.scenario.setup, d.scale, {s.id: s.name for s in d.scenario.sides},
                    lengths)


@component("setup-map")
def _setup_map(ctx: Context[Derived], d: Derived, arg: str | None) -> Component:
    """The table at a stated scale with every group a packet's reader may know of."""
    from generator.aids.setupmap import scenario_map

    assert d.scenario is not None and ctx.setup is not None
    return scenario_map(ctx.setup, arg, ctx.paper, d.scenario.name,
                        f"quarterdeck · NAVAL ACTION · {d.scenario.name}")


@component("sheets")
def _sheets(ctx: Context[Derived], d: Derived, side: str | None) -> Component:
    from generator.rulesets.naval_action.components.status_sheet import render_sheets

    assert side is not None
    title = (f"Ship status: {ctx.sides[side]}" if ctx.request.command != "class"
             else f"Ship status: {ctx.values['ship']}")
    return render_sheets(d.views[side], ctx.paper, title, d.line, f"sheets:{side}",
                         f"{side.upper()}-")


@component("master")
def _master(ctx: Context[Derived], d: Derived, arg: str | None) -> Component:
    from generator.rulesets.naval_action.components.status_sheet import render_master

    return render_master(ctx.paper)


@component("catalog")
def _catalog(ctx: Context[Derived], d: Derived, arg: str | None) -> Component:
    """The Master List entries of the classes in play (the whole list is `catalog`)."""
    from generator.rulesets.naval_action.components.catalog import render_catalog

    in_play = sorted({v.cls.id for v in _every(d)})
    title = ("The class in the Master List" if ctx.request.command == "class"
             else "Ship classes in this scenario")
    return render_catalog([d.library.classes_of(NAME)[c].model for c in in_play], ctx.paper,
                          title=title)


@component("victory")
def _victory(ctx: Context[Derived], d: Derived, arg: str | None) -> Component:
    from generator.rulesets.naval_action.components.victory_sheet import render_victory

    assert d.scenario is not None
    return render_victory(d.scenario, d.views, d.tables.card.victory.heavy_damage_share,
                          ctx.paper, f"{d.foot} · referee")


# ---- the rules calculator ----------------------------------------------------------

@component("card")
def _card(ctx: Context[Derived], d: Derived, arg: str | None) -> Component:
    from generator.rulesets.naval_action.components.action_card import render_action_card

    return render_action_card(d.tables, ctx.paper)


@component("odds")
def _odds(ctx: Context[Derived], d: Derived, arg: str | None) -> Component:
    from generator.rulesets.naval_action.components.resolution import render_resolution

    return render_resolution(d.calculator, ctx.paper, d.foot)


@component("dice")
def _dice(ctx: Context[Derived], d: Derived, side: str | None) -> Component:
    """A packet's own sheet of pre-rolled dice: each side and the referee roll differently."""
    from generator.aids.dicesheet import owner_dice_sheet

    return owner_dice_sheet(in_force(ctx.options.seed), side, ctx.sides, ctx.paper, d.foot,
                            ctx.request.command, d.scenario.id if d.scenario else None)


def side_matchup_pages(d: Derived, side: str) -> list[ShipMatchups]:
    """A side's matchups (one per ship, grids shared through the calculator's memo)."""
    from generator.rulesets.naval_action.matchups import side_matchups

    assert d.scenario is not None
    enemies = [v for s, views in d.views.items() if s != side for v in views]
    return side_matchups(d.calculator, d.views[side], enemies, d.scenario.sea_state,
                         d.scenario.date.year, known=d.scenario.enemy_known)


@component("matchups")
def _matchups(ctx: Context[Derived], d: Derived, side: str | None) -> Component:
    from generator.rulesets.naval_action.components.matchup_sheet import render_matchups

    assert d.scenario is not None and side is not None
    calc = d.calculator
    pages = side_matchup_pages(d, side)
    return render_matchups(pages, calc, ctx.paper, f"matchups:{side}",
                           f"{side.upper()}-Odds-", f"{d.foot} · {ctx.sides[side]} matchups")


REFERENCE = FOLDER / "tables" / "reference-classes.yaml"


def reference_views(d: Derived, own: ShipView) -> list[ShipView]:
    """The proof kit's reference classes of the other side, as of the proof's date."""
    from generator.data.referenceclasses import reference_classes

    return [ship_view(cls, cls.ships[0], None, d.scenario, "reference", "Reference classes",
                      d.scale.units_per_knot(), d.scale.unit)
            for cls in reference_classes(REFERENCE, "naval_action/tables/reference-classes.yaml",
                                         d.library, NAME, own.cls)]


@component("reference-matchups")
def _reference_matchups(ctx: Context[Derived], d: Derived, arg: str | None) -> Component:
    """A proof kit's matchups: the class against the reference classes, and back."""
    from generator.rulesets.naval_action.components.matchup_sheet import render_matchups
    from generator.rulesets.naval_action.matchups import ship_matchups

    assert d.scenario is not None
    own = [v for views in d.views.values() for v in views]
    refs = reference_views(d, own[0])
    if not refs:
        raise UsageError("no reference class is in the library to match the class against")
    sea, year = d.scenario.sea_state, d.scenario.date.year
    pages = [ship_matchups(d.calculator, v, refs, sea, year) for v in own]
    pages += [ship_matchups(d.calculator, r, own, sea, year) for r in refs]
    return render_matchups(pages, d.calculator, ctx.paper, "reference-matchups", "Odds-",
                           f"{d.foot} · against the reference classes")


# ---- measuring aids ----------------------------------------------------------------

@component("rulers")
def _rulers(ctx: Context[Derived], d: Derived, side: str | None) -> Component:
    """Range and movement rulers; a side's are as long as its own guns reach and ships run."""
    from generator.rulesets.naval_action.components.aids import render_rulers

    every = d.views[side] if side is not None else _every(d)
    longest = max((b.max_range_yd for v in every for b in v.batteries), default=0)
    fastest = max((v.speed_kn for v in every), default=0)
    return render_rulers(d.scale, max(longest, 30000 if not every else 0), fastest or 40,
                         d.tables, ctx.paper, d.foot)[0]


@component("strings")
def _strings(ctx: Context[Derived], d: Derived, side: str | None) -> Component:
    from generator.aids.rangestrings import render_string_sheet
    from generator.rulesets.naval_action.aids import DEFAULT_RUN_NOTE, range_strings

    assert side is not None
    strings = range_strings(d.views[side], d.scale, d.tables)
    return render_string_sheet(strings, d.scale, ctx.sides[side], ctx.paper, d.foot,
                               f"strings:{side}", f"{side.upper()}-Strings-", DEFAULT_RUN_NOTE)


@component("tapes")
def _tapes(ctx: Context[Derived], d: Derived, side: str | None) -> Component:
    from generator.aids.rangestrings import render_tapes
    from generator.rulesets.naval_action.aids import range_strings

    assert side is not None
    name = ctx.sides[side]
    strings = range_strings(d.views[side], d.scale, d.tables)
    return render_tapes(strings, d.scale, ctx.paper, f"{d.foot} · {name}", f"tapes:{side}",
                        f"Range tapes: {name}", f"{side.upper()}-Tapes-")[0]


@component("gauges")
def _gauges(ctx: Context[Derived], d: Derived, arg: str | None) -> Component:
    from generator.rulesets.naval_action.components.aids import render_gauges

    return render_gauges(d.tables, d.scale, ctx.paper, d.foot)


@component("gauge-strips")
def _gauge_strips(ctx: Context[Derived], d: Derived, side: str | None) -> Component:
    """Torpedo-spread and detection strips: a side's packet gets only its own torpedoes."""
    from generator.rulesets.naval_action.aids import default_torpedo_types, scenario_torpedo_types
    from generator.rulesets.naval_action.components.aids import render_gauge_strips

    every = d.views[side] if side is not None else _every(d)
    torpedoes = (scenario_torpedo_types(every, d.tables) if every
                 else default_torpedo_types(d.tables))
    return render_gauge_strips(d.tables, d.scale, torpedoes, ctx.paper, d.foot)[0]


# ---- markers -----------------------------------------------------------------------

@component("markers")
def _markers(ctx: Context[Derived], d: Derived, side: str | None) -> Rendered:
    """One side's marker sheets; label warnings and pieces travel with the pages."""
    from generator.rulesets.naval_action.components.markers import MarkerMaker
    from generator.rulesets.naval_action.markers import side_pool

    assert d.scenario is not None and side is not None
    name = ctx.sides[side]
    maker = MarkerMaker(d.tables.markers, resolve.class_images(d.library),
                        [v for views in d.views.values() for v in views])
    air = [g for g in d.scenario.air_groups if g.side == side]
    pool = side_pool(side, name, d.views[side], air, d.tables.markers)
    pieces = [p for v in d.views[side] for p in maker.ship_pieces(v)]
    pieces += maker.pool_pieces(pool)
    return sheet_component(ctx, pieces, _sprue(ctx.options.sprue), f"markers:{side}",
                           f"Markers: {name}", f"{side.upper()}-Markers-", f"{d.foot} · {name}",
                           list(maker.labels.warnings))


RULESET = NavalAction()
