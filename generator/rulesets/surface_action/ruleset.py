"""The Surface Action ruleset: what it prints and how it prepares a request.

Everything here plugs into the shared machinery: the library, validation and rosters,
the dice engine, page flow and grids, the imposition engine for counters and cards, the
aids' strips and calibration bars, and the packet assembler. ``kit.yaml`` says which
components each command prints; this module derives the ships and charts for a request
and registers each component by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from generator.core.errors import UsageError
from generator.data.roster import owned_scenario, requested_ship, side_views
from generator.kit.recipe import Recipe
from generator.kit.seam import (
    Command,
    Components,
    Context,
    KitOptions,
    Rendered,
    Request,
    Ruleset,
    sheet_component,
)
from generator.kit.shipkit import SHEET_PREVIEWS, ship_kinds
from generator.pages.component import Component
from generator.pages.layout import Paper
from generator.pieces import decks
from generator.pieces.sprue import Sprue, user_or_bundled
from generator.rules.dice import in_force, owner_seed
from generator.rulesets.surface_action import resolve
from generator.rulesets.surface_action.charts import Charts, load_charts
from generator.rulesets.surface_action.derive import ShipView, ship_view
from generator.rulesets.surface_action.schema import Scenario, ShipClass

if TYPE_CHECKING:
    from generator.aids.setupmap import MapInput
    from generator.core.errors import Problem
    from generator.data.library import Library
    from generator.rulesets.surface_action.ask import OddsIndex

NAME = "surface-action"
FOLDER = Path(__file__).parent
SPRUES = FOLDER / "sprues"
COMPONENTS: Components[Derived] = Components()
DEFAULT_BANDS_IN = [6.0, 12.0, 18.0, 24.0, 30.0, 36.0]


@dataclass
class Derived:
    """What every Surface Action component reads: scenario, ships and charts."""

    charts: Charts
    scenario: Scenario | None = None
    views: dict[str, list[ShipView]] = field(default_factory=dict)
    foot: str = ""
    library: Library | None = None
    """For a proof kit: the library its reference classes come from."""


class SurfaceAction(Ruleset[Derived]):
    """The Surface Action plug (see ``generator.kit.seam.Ruleset``)."""

    name = NAME
    title = "Surface Action"
    folder = FOLDER
    data_kinds = ship_kinds(ShipClass, Scenario)
    components = COMPONENTS
    default_scenario = "river-plate"
    order = 20
    templates = "surface_action"
    override_tables: ClassVar[tuple[str, ...] | None] = ("charts.yaml",)
    """Bundled tables `--tables` may replace (`quarterdeck tables --export`)."""
    preview_names = SHEET_PREVIEWS
    converts_old_files = True
    old_file_lacks = "gun positions, ranges or rounds"
    """Facts other rulesets need that an old Surface Action class file never held."""

    def from_old_file(self, data: dict[str, Any]) -> dict[str, Any]:
        """A shared class file's data from an old Surface Action class file's data."""
        from generator.rulesets.surface_action.rating import from_old_file

        return from_old_file(data)

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Cross-file problems and warnings of every Surface Action scenario."""
        return resolve.check_library(library)

    def recipe(self, command: Command) -> Recipe:
        """The recipe for ``command``; range strings are not how this game measures."""
        if command == "strings":
            raise UsageError("Surface Action measures with its ruler, not range strings: "
                             "use `quarterdeck rulers SCENARIO`")
        return super().recipe(command)

    def prepare(self, library: Library, request: Request, paper: Paper,
                options: KitOptions) -> Context[Derived]:
        """Derive the scenario's (or the class's) ships with the charts in force."""
        charts = load_charts(options.tables)
        derived = Derived(charts)
        ctx = Context(request, paper, options, data=derived)
        if request.command == "class":
            assert request.class_id is not None
            cls: ShipClass = library.classes_of(NAME)[request.class_id].model
            found = requested_ship(cls, request.ship)
            entry = library.classes_of(NAME)[request.class_id]
            derived.views = {"ship": [replace(ship_view(cls, found, None, None, "ship", charts),
                                              overrides=tuple(entry.overrides))]}
            derived.foot = f"quarterdeck · Surface Action · {cls.name} class"
            derived.library = library
            ctx.sides = {"ship": found.name}
            ctx.values.update(**{"class": cls.id, "class_name": cls.name, "ship": found.name})
            return ctx
        if request.scale is not None and request.command in ("rulers", "gauges"):
            raise UsageError("Surface Action is played at 1 in = 1,000 yd; --scale does "
                             "not apply")
        if request.scenario is None:
            raise UsageError(f"Surface Action's {request.command} come from a scenario "
                             "(its weapons table and ships): name the scenario")
        scenario, warnings = self._scenario(library, request.scenario)
        ctx.warnings.extend(warnings)
        derived.scenario = scenario
        derived.views = self._views(library, scenario, charts)
        derived.foot = (f"quarterdeck · Surface Action · {scenario.name} · "
                        f"{scenario.date_label or scenario.date.isoformat()}")
        ctx.for_scenario(scenario.id, scenario.name, scenario.sides)
        if scenario.setup is not None:
            ctx.flags.add("setup")
            ctx.setup = _map_input(ctx)
        return ctx

    def _scenario(self, library: Library, scenario_id: str) -> tuple[Scenario, list[str]]:
        return owned_scenario(library, NAME, self.title, scenario_id, resolve.check_scenario)

    def _views(self, library: Library, scenario: Scenario, charts: Charts,
               ) -> dict[str, list[ShipView]]:
        entries = library.classes_of(NAME)
        return side_views(library, NAME, scenario, lambda cls, ship, ref, side: replace(
            ship_view(cls, ship, ref, scenario, side.id, charts),
            overrides=tuple(entries[cls.id].overrides)))

    def odds(self, library: Library, scenario: str | None, firer: str, target: str,
             weapon: str | None, band: str | None, tables: Path | None) -> None:
        """Print one firer's chances of effective hits on one target, band by band."""
        from generator.rulesets.surface_action.ask import NEEDS_SCENARIO

        if scenario is None:  # before the charts are read, as the message asks
            raise UsageError(NEEDS_SCENARIO)
        self.odds_index(library, tables, False).print_answer(firer, target, weapon, band,
                                                            scenario)

    def odds_index(self, library: Library, tables: Path | None, complete: bool) -> OddsIndex:
        """Each scenario's ships and every firer's lines against every target (``ask``).

        Every scenario now with ``complete``; otherwise each when it is first asked.

        Raises:
            DataError: For every problem in the user's tables file.

        """
        from generator.rulesets.surface_action.matchups import odds_index

        def scenario_views(scenario_id: str, charts: Charts) -> tuple[
                Scenario, dict[str, list[ShipView]]]:
            found, _ = self._scenario(library, scenario_id)
            return found, self._views(library, found, charts)

        ids = list(library.of_kind(NAME, "scenario")) if complete else []
        return odds_index(load_charts(tables), ids, scenario_views)

    def catalog(self, library: Library, paper: Paper) -> Component:
        """The list of every class with its game values."""
        from generator.rulesets.surface_action.components.catalog import render_catalog

        return render_catalog([e.model for e in library.classes_of(NAME).values()],
                              load_charts(), paper)

    def schema_reference(self) -> str:
        """The Markdown schema reference."""
        from generator.rulesets.surface_action.reference import schema_reference

        return schema_reference()


def _sprue(path: Path | None, name: str) -> Sprue:
    """The user's sheet layout, or the bundled one."""
    return user_or_bundled(path, SPRUES / f"{name}.yaml", f"surface_action/sprues/{name}.yaml")


def _d(ctx: Context[Derived]) -> Derived:
    derived: Derived = ctx.data
    return derived


def _scenario_of(ctx: Context[Derived]) -> Scenario:
    scenario = _d(ctx).scenario
    assert scenario is not None, "the recipe names this component only with a scenario"
    return scenario


def _every(ctx: Context[Derived]) -> list[ShipView]:
    return [v for views in _d(ctx).views.values() for v in views]


# ---- players' pages ----------------------------------------------------------------

@COMPONENTS("briefing")
def _briefing(ctx: Context[Derived], arg: str | None) -> Component:
    from generator.rulesets.surface_action.components.briefing import render_briefing

    scenario = _scenario_of(ctx)
    side = next((s for s in scenario.sides if s.id == arg), None)
    from generator.aids.maptext import table_facts

    table = table_facts(ctx.setup, side.id if side else None) if ctx.setup else None
    return render_briefing(scenario, side, _d(ctx).views, ctx.paper, _d(ctx).foot, table)


def _map_input(ctx: Context[Derived]) -> MapInput:
    """The scenario's set-up as the map draws it and the online table places it."""
    from generator.aids.setupmap import MapInput
    from generator.rulesets.surface_action.components.aids import table_scale

    scenario = _scenario_of(ctx)
    assert scenario.setup is not None
    views = _d(ctx).views
    lengths = {ref.name: v.cls.facts.length_ft for s in scenario.sides
               for ref, v in zip(s.ships, views[s.id], strict=True)}
    return MapInput(scenario.setup, table_scale(_d(ctx).charts),
                    {s.id: s.name for s in scenario.sides}, lengths)


@COMPONENTS("setup-map")
def _setup_map(ctx: Context[Derived], arg: str | None) -> Component:
    """The table at a stated scale with every formation a packet's reader may know of."""
    from generator.aids.setupmap import scenario_map

    scenario = _scenario_of(ctx)
    assert ctx.setup is not None
    return scenario_map(ctx.setup, arg, ctx.paper, scenario.name,
                        f"quarterdeck · Surface Action · {scenario.name}")


@COMPONENTS("sheets")
def _sheets(ctx: Context[Derived], side: str | None) -> Component:
    from generator.rulesets.surface_action.components.data_sheet import render_data_sheet

    assert side is not None
    d = _d(ctx)
    title = f"Data sheet: {ctx.sides[side]}"
    views = d.views[side]
    if ctx.request.command != "class":  # a player's sheet: who set a rating is not theirs
        views = [replace(v, overrides=()) for v in views]
    return render_data_sheet(views, d.charts, ctx.paper, title, d.foot,
                             f"sheets:{side}", f"{side.upper()}-Data-")


@COMPONENTS("card")
def _card(ctx: Context[Derived], arg: str | None) -> Component:
    from generator.rulesets.surface_action.components.reference_card import (
        render_reference_card,
    )

    return render_reference_card(_d(ctx).charts, ctx.paper, _d(ctx).foot)


@COMPONENTS("odds")
def _odds(ctx: Context[Derived], arg: str | None) -> Component:
    from generator.rulesets.surface_action.components.tables import render_resolution

    scenario = _scenario_of(ctx)
    return render_resolution(scenario.weapons, scenario.time == "night", _d(ctx).charts,
                             ctx.paper, _d(ctx).foot)


@COMPONENTS("matchups")
def _matchups(ctx: Context[Derived], side: str | None) -> Component:
    from generator.rulesets.surface_action.components.tables import render_matchups

    assert side is not None
    scenario, d = _scenario_of(ctx), _d(ctx)
    enemies = [v for s, views in d.views.items() if s != side for v in views]
    name = ctx.sides[side]
    return render_matchups(d.views[side], enemies, scenario.weapons, scenario.time == "night",
                           d.charts, ctx.paper, f"matchups:{side}", f"{side.upper()}-Odds-",
                           f"Matchups: {name}", f"{d.foot} · {name}",
                           reach_in=scenario.sighting_in if scenario.time == "night" else None,
                           known=scenario.enemy_known)


# ---- aids --------------------------------------------------------------------------

@COMPONENTS("turn-guide")
def _turn_guide(ctx: Context[Derived], arg: str | None) -> Component:
    from generator.rulesets.surface_action.components.turnguide import render_turn_guide

    return render_turn_guide(_d(ctx).charts, ctx.paper, _d(ctx).foot)


@COMPONENTS("ruler")
def _ruler(ctx: Context[Derived], side: str | None) -> Component:
    from generator.rulesets.surface_action.components.ruler import render_ruler

    d = _d(ctx)
    bands = d.scenario.weapons.bands_in if d.scenario else DEFAULT_BANDS_IN
    # Classes, not ships; and a side's ruler lists only its own classes' speeds unless
    # the scenario makes the enemy's order of battle known.
    shown = (d.views[side] if side is not None and d.scenario is not None
             and not d.scenario.enemy_known else _every(ctx))
    speeds = list(dict.fromkeys((f"{v.cls.name} class", v.speed_in) for v in shown))
    return render_ruler(d.charts, bands, speeds, ctx.paper, d.foot)


# ---- counters and cards ------------------------------------------------------------

@COMPONENTS("dice")
def _dice(ctx: Context[Derived], side: str | None) -> Component:
    """A packet's own pre-rolled dice: each side and the referee roll differently."""
    from generator.aids.dicesheet import owner_dice_sheet

    how = ("Surface Action rolls handfuls of d6: read both numbers of a pair, white then "
           "red, as two dice, taking as many as the roll needs.")
    return owner_dice_sheet(in_force(ctx.options.seed), side, ctx.sides, ctx.paper,
                            _d(ctx).foot, ctx.request.command, ctx.values.get("scenario"),
                            how=how)


@COMPONENTS("markers")
def _markers(ctx: Context[Derived], side: str | None) -> Rendered:
    """One side's counter sheets, with their pieces for export."""
    from generator.rulesets.surface_action.components.counters import side_counter_pieces

    assert side is not None
    if ctx.request.command == "class":  # a proof kit: the one ship's counters, no dummies
        d = _d(ctx)
        name = ctx.sides[side]
        pieces = side_counter_pieces(side, name, d.views[side], 0, 0,
                                     in_force(ctx.options.seed))
        return sheet_component(ctx, pieces, _sprue(ctx.options.sprue, "counters"),
                               f"markers:{side}", f"Counters: {name}",
                               f"{side.upper()}-Counters-", f"{d.foot} · {name}")
    scenario, d = _scenario_of(ctx), _d(ctx)
    found = next(s for s in scenario.sides if s.id == side)
    # Each side deals its hidden counter numbers from its own seed: the two sides'
    # sheets never share a dealing.
    seed = owner_seed(in_force(ctx.options.seed), side, True)
    pieces = side_counter_pieces(side, found.name, d.views[side], found.dummies,
                                 found.torpedo_dummies, seed,
                                 side_names=[s.name for s in scenario.sides])
    return sheet_component(ctx, pieces, _sprue(ctx.options.sprue, "counters"), f"markers:{side}",
                           f"Counters: {found.name}", f"{side.upper()}-Counters-",
                           f"{d.foot} · {found.name}")


@COMPONENTS("catalog")
def _catalog(ctx: Context[Derived], arg: str | None) -> Component:
    """The catalog entries of the ships in play (a proof kit: its one class)."""
    from generator.rulesets.surface_action.components.catalog import render_catalog

    classes = {v.cls.id: v.cls for v in _every(ctx)}
    return render_catalog([classes[c] for c in sorted(classes)], _d(ctx).charts, ctx.paper)


REFERENCE = FOLDER / "tables" / "reference-classes.yaml"


def _weapons_of(views: list[ShipView]) -> tuple[set[str], set[str]]:
    guns = {b.weapon for v in views for b in v.batteries}
    torpedoes = {v.torpedo_weapon for v in views if v.torpedo_weapon is not None}
    return guns, torpedoes


@COMPONENTS("reference-matchups")
def _reference_matchups(ctx: Context[Derived], arg: str | None) -> Component | Rendered:
    """A proof kit's matchups against reference classes, with a scenario's weapons table.

    The rule text prints no hit values (each scenario has its own table), so the first
    bundled scenario whose table rates every weapon involved is used, and named.
    """
    from generator.data.referenceclasses import reference_classes
    from generator.rulesets.surface_action.components.tables import render_matchups

    d = _d(ctx)
    assert d.library is not None, "the class recipe names this component"
    own = d.views["ship"]
    refs = [ship_view(cls, cls.ships[0], None, None, "reference", d.charts)
            for cls in reference_classes(REFERENCE, "surface_action/tables/reference-classes.yaml",
                                         d.library, NAME, own[0].cls)]
    guns, torpedoes = _weapons_of([*own, *refs])
    scenarios = sorted(d.library.of_kind(NAME, "scenario").values(),
                       key=lambda e: (not e.bundled, e.model.id))
    table = next((e.model for e in scenarios if guns <= set(e.model.weapons.guns)
                  and torpedoes <= set(e.model.weapons.torpedoes)), None)
    if table is None or not refs:
        # A valid class still gets its proof: the page says why it holds no matchups.
        from xml.sax.saxutils import escape

        from generator.pages.canvasdoc import CanvasDoc

        why = (f"No scenario's weapons table rates every weapon of the {own[0].cls.name} "
               f"class and its reference classes ({', '.join(sorted(guns | torpedoes))}), "
               "so this proof has no matchups; a scenario (--data) whose table rates them "
               "adds them.")
        title = "Matchups against reference classes"
        doc = CanvasDoc(ctx.paper, title, d.foot)
        doc.anchor(title)
        doc.paragraph(escape(title), "h1")
        doc.paragraph(escape(why))
        pdf, count = doc.finish()
        return Rendered(Component("reference-matchups", title, "Odds-", pdf, count,
                                  doc.bookmarks[1:]), [why])
    night = False  # the table's hit values, in daylight: a proof is no particular battle
    title = f"Matchups against reference classes ({table.name} weapons table)"
    foot = f"{d.foot} · weapons table of {table.id}"
    return render_matchups(own, refs, table.weapons, night, d.charts, ctx.paper,
                           "reference-matchups", "Odds-", title, foot)


@COMPONENTS("events")
def _events(ctx: Context[Derived], arg: str | None) -> Rendered:
    """The event deck, imposed on card sheets."""
    from generator.rulesets.surface_action.components.event_cards import event_card_pieces
    from generator.rulesets.surface_action.events import load_deck

    cards = event_card_pieces(decks.sized(load_deck(), ctx.options.sheets.card_size))
    sprue = _sprue(None, "cards")
    if ctx.paper == "letter":
        # Letter is too short for three rows of poker cards (cards.yaml): turned, it
        # takes four across in two rows, eight a sheet instead of six.
        sprue = sprue.model_copy(update={"orientation": "landscape"})
    return sheet_component(ctx, cards, sprue, "events", "Event cards", "Cards-",
                           f"{_d(ctx).foot} · event deck")


RULESET = SurfaceAction()
