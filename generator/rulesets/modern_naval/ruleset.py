"""Modern naval: missile-era tactical play on d10/d20, measured in centimetres.

The rule text prints its modifier and damage tables but no ship or weapon data, so the
unit data here come from the one ship library's missile-era facts (ships and submarines)
and from aircraft-type files, rated by quarterdeck's own documented rules
(``tables/rating.yaml``, ``tables/weapons.yaml``; see ``docs/modern-naval.md``).
``prepare`` gives every component ``ctx.data``: each side's ``views`` (one ``UnitView``
per unit), the scenario's ``conditions`` and the page ``foot``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from generator.core.errors import DataError, Problem, UsageError
from generator.core.scales import Scale, parse_scale
from generator.core.suggest import did_you_mean, fold
from generator.data.roster import find_ship, requested_ship
from generator.data.setup import setup_problems
from generator.kit.seam import Context, KitOptions, Request, Ruleset
from generator.pages.component import Component
from generator.pages.layout import Paper
from generator.rulesets.modern_naval import derive
from generator.rulesets.modern_naval.model import Conditions, UnitView
from generator.rulesets.modern_naval.registry import COMPONENTS
from generator.rulesets.modern_naval.schema import (
    AircraftClass,
    DataTables,
    ModernClass,
    Scenario,
)

if TYPE_CHECKING:
    from generator.aids.setupmap import MapInput
    from generator.data.library import Entry, Library

NAME = "modern-naval"
FOLDER = Path(__file__).parent


@dataclass
class Derived:
    """What every modern naval component reads."""

    tables: DataTables
    scenario: Scenario | None = None
    units: dict[str, list[derive.Unit]] = field(default_factory=dict)
    """Side id -> its units in play, in roster order (cards, briefings)."""
    views: dict[str, list[UnitView]] = field(default_factory=dict)
    """Side id -> the views the calculator reads, one per unit."""
    conditions: Conditions = field(default_factory=Conditions)
    foot: str = ""
    dummies: dict[str, int] = field(default_factory=dict)
    """Side id -> its dummy contact markers (the scenario's, else the markers table's)."""
    known: dict[str, bool] = field(default_factory=dict)
    """Side id -> whether it knows the enemy order of battle (matchups name classes)."""
    lengths_ft: dict[str, float] = field(default_factory=dict)
    """Ship name -> her length in feet (the set-up map's outlines; aircraft have none)."""


def table_scale(tables: DataTables) -> Scale:
    """The ground scale (metres per cm of table) as a ``Scale``, through ``parse_scale``."""
    yards = Fraction(str(tables.rating.metres_per_cm)) / Fraction("0.9144")
    return parse_scale(f"{yards.numerator}/{yards.denominator} yd per cm")


def _weapon_problems(doc: Any, loc: tuple[Any, ...], fits: Any, tables: DataTables,
                     ) -> list[Problem]:
    known = list(tables.weapons)
    return [doc.problem((*loc, i, "weapon"), f"found unknown weapon '{fit.weapon}', expected "
                        f"a weapon of the weapons table{did_you_mean(fit.weapon, known)}")
            for i, fit in enumerate(fits) if fit.weapon not in tables.weapons]


def _class_problems(library: Library, tables: DataTables) -> list[Problem]:
    """Weapon ids of every class and aircraft type that the weapons table lacks."""
    problems: list[Problem] = []
    for entry in library.classes_of(NAME).values():
        cls: ModernClass = entry.model
        if entry.facts is not None and cls.overrides.weapons is None:
            problems += _weapon_problems(entry.doc, ("modern", "weapons"), cls.weapons, tables)
        elif entry.facts is not None:
            problems += _weapon_problems(entry.doc, ("ratings", NAME, "weapons"),
                                         cls.overrides.weapons, tables)
        else:
            problems += _weapon_problems(entry.doc, ("weapons",), cls.weapons, tables)
    for entry in library.of_kind(NAME, "aircraft-class").values():
        air: AircraftClass = entry.model
        problems += _weapon_problems(entry.doc, ("weapons",), air.weapons, tables)
        if air.ratings.weapons is not None:
            problems += _weapon_problems(entry.doc, ("ratings", "weapons"),
                                         air.ratings.weapons, tables)
    return problems


def _scenario_problems(entry: Entry, library: Library, tables: DataTables,
                       ) -> tuple[list[Problem], list[str]]:
    """A scenario's roster: known classes and ships (each once), known weapons."""
    scenario: Scenario = entry.model
    doc = entry.doc
    ships = library.classes_of(NAME)
    aircraft = library.of_kind(NAME, "aircraft-class")
    problems: list[Problem] = []
    warnings: list[str] = []
    seen: dict[tuple[str, str], str] = {}
    for si, side in enumerate(scenario.sides):
        for ui, ref in enumerate(side.units):
            loc = ("sides", si, "units", ui)
            if ref.weapons is not None:
                problems += _weapon_problems(doc, (*loc, "weapons"), ref.weapons, tables)
            if ref.class_ in aircraft:
                key = (ref.class_, fold(ref.name))
            elif ref.class_ in ships and ref.altitude is not None:
                problems.append(doc.problem((*loc, "altitude"), f"found '{ref.altitude}' for "
                                            f"the ship '{ref.name}', expected no altitude "
                                            "(only aircraft and helicopters fly)"))
                continue
            elif ref.class_ in ships:
                cls: ModernClass = ships[ref.class_].model
                ship = find_ship(cls, ref.name)
                if ship is None:
                    names = [s.name for s in cls.ships]
                    problems.append(doc.problem((*loc, "name"), f"found '{ref.name}', expected "
                                                f"a ship of the {cls.name} class "
                                                f"({', '.join(names)})"
                                                f"{did_you_mean(ref.name, names)}"))
                    continue
                key = (cls.id, ship.name)
                if ship.commissioned > scenario.date:
                    warnings.append(f"{doc.display}: {ship.name} is in '{scenario.id}' before "
                                    f"her commissioning ({ship.commissioned})")
                if ship.lost and ship.lost < scenario.date:
                    warnings.append(f"{doc.display}: {ship.name} was lost on {ship.lost}, "
                                    f"before '{scenario.id}' ({scenario.date})")
            else:
                known = [*ships, *aircraft]
                problems.append(doc.problem((*loc, "class"), f"found unknown class "
                                            f"'{ref.class_}', expected a {NAME} class or "
                                            f"aircraft type id{did_you_mean(ref.class_, known)}"))
                continue
            if key in seen:
                problems.append(doc.problem((*loc, "name"), f"found '{ref.name}' again (also in "
                                            f"{seen[key]}), expected each unit once"))
            seen[key] = side.id
    for si, side in enumerate(scenario.sides):
        if side.id == "umpire":
            problems.append(doc.problem(("sides", si, "id"), "found 'umpire', expected a side "
                                        "id other than 'umpire' (the umpire's packet)"))
    if scenario.setup is not None:
        rosters = {s.id: [ref.name for ref in s.units] for s in scenario.sides}
        problems += setup_problems(scenario.setup, doc, table_scale(tables), rosters)
    return problems, warnings


class ModernNaval(Ruleset[Derived]):
    """The modern naval plug (see ``generator.kit.seam.Ruleset``)."""

    name = NAME
    title = "Modern naval"
    folder = FOLDER
    data_kinds: ClassVar[dict[str, type[BaseModel]]] = {"ship-class": ModernClass,
                                                        "aircraft-class": AircraftClass,
                                                        "scenario": Scenario}
    components = COMPONENTS
    default_scenario = "latakia-1973"
    order = 40
    preview_names: ClassVar[dict[str, str]] = {"status": "cards"}
    rates_missile_era = True

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Cross-file problems: weapon ids, rosters; with the bundled tables."""
        return self._problems(library, derive.bundled_tables())

    def _problems(self, library: Library, tables: DataTables,
                  ) -> tuple[list[Problem], list[str]]:
        problems = _class_problems(library, tables)
        warnings: list[str] = []
        for entry in library.of_kind(NAME, "scenario").values():
            found, noted = _scenario_problems(entry, library, tables)
            problems += found
            warnings += noted
        return problems, warnings

    def prepare(self, library: Library, request: Request, paper: Paper,
                options: KitOptions) -> Context[Derived]:
        """Rate the scenario's units (or one class) with the tables in force."""
        tables = derive.load_tables(options.tables)
        problems, warnings = self._problems(library, tables)
        derived = Derived(tables)
        ctx = Context(request, paper, options, data=derived)
        if request.command == "class":
            if problems:
                raise DataError(problems)
            return self._class(library, request, ctx, derived)
        if request.scenario is None:
            raise UsageError(f"{self.title} kits come from a scenario: name the scenario")
        entry = library.scenarios.get(request.scenario)
        if entry is None or entry.model.ruleset != NAME:
            raise UsageError(f"no {self.title} scenario '{request.scenario}'"
                             f"{did_you_mean(request.scenario, library.of_kind(NAME, 'scenario'))}")
        if problems:
            raise DataError(problems)
        ctx.warnings.extend(w for w in warnings if entry.doc.display in w)
        scenario: Scenario = entry.model
        derived.scenario = scenario
        ships = library.classes_of(NAME)
        aircraft = library.of_kind(NAME, "aircraft-class")
        for side in scenario.sides:
            units = []
            for ref in side.units:
                cls: ModernClass | AircraftClass
                if ref.class_ in aircraft:
                    cls, name = aircraft[ref.class_].model, ref.name
                else:
                    vessel: ModernClass = ships[ref.class_].model
                    ship = find_ship(vessel, ref.name)
                    assert ship is not None  # checked above
                    cls, name = vessel, ship.name
                    derived.lengths_ft[ref.name] = vessel.length_m / 0.3048
                crew = ref.crew if ref.crew is not None else side.crew
                units.append(derive.unit(cls, name, side.id, tables, crew, ref.weapons,
                                         ref.note, ref.altitude))
            derived.units[side.id] = units
        derived.views = {s: [u.view for u in units] for s, units in derived.units.items()}
        from generator.rulesets.modern_naval.markers import bundled_markers

        default_dummies = bundled_markers().counts.dummies
        derived.dummies = {s.id: default_dummies if s.dummies is None else s.dummies
                           for s in scenario.sides}
        derived.known = {s.id: s.known for s in scenario.sides}
        derived.conditions = Conditions(sea_state=scenario.sea_state, fog=scenario.fog,
                                        night=scenario.night)
        derived.foot = (f"quarterdeck · {self.title} · {scenario.name} · "
                        f"{scenario.date_label or scenario.date.isoformat()}")
        ctx.for_scenario(scenario.id, scenario.name, scenario.sides)
        if scenario.setup is not None:
            ctx.flags.add("setup")
            ctx.setup = _map_input(derived)
        return ctx

    def _class(self, library: Library, request: Request, ctx: Context[Derived],
               derived: Derived) -> Context[Derived]:
        assert request.class_id is not None
        cls: ModernClass = library.classes_of(NAME)[request.class_id].model
        ship = requested_ship(cls, request.ship)
        one = derive.unit(cls, ship.name, "ship", derived.tables)
        derived.units = {"ship": [one]}
        derived.views = {"ship": [one.view]}
        derived.foot = f"quarterdeck · {self.title} · {cls.name} class"
        ctx.sides = {"ship": ship.name}
        ctx.values.update(**{"class": cls.id, "class_name": cls.name, "ship": ship.name})
        return ctx

    def describe_class(self, entry: Entry) -> tuple[str, str, str, str]:
        """(id, name, navy, type) for listings."""
        cls = entry.model
        return (cls.id, cls.name, cls.nation.value, cls.type.value)


def _d(ctx: Context[Derived]) -> Derived:
    derived: Derived = ctx.data
    return derived


@COMPONENTS("cards")
def _cards(ctx: Context[Derived], side: str | None) -> Component:
    """One side's unit data cards, two half-page cards to a page."""
    from generator.rulesets.modern_naval.components.cards import render_cards
    from generator.rulesets.modern_naval.tables import context_tables

    assert side is not None
    d = _d(ctx)
    name = ctx.sides[side]
    return render_cards(d.units[side], ctx.paper, f"Unit cards: {name}", f"{d.foot} · {name}",
                        f"cards:{side}", f"{side.upper()}-Card-", d.tables.rating.metres_per_cm,
                        context_tables(ctx.options))


def _map_input(d: Derived) -> MapInput:
    """The scenario's set-up as the map draws it and the online table places it."""
    from generator.aids.setupmap import MapInput

    assert d.scenario is not None and d.scenario.setup is not None
    return MapInput(d.scenario.setup, table_scale(d.tables),
                    {s.id: s.name for s in d.scenario.sides}, d.lengths_ft)


@COMPONENTS("setup-map")
def _setup_map(ctx: Context[Derived], arg: str | None) -> Component:
    """The table at a stated scale with every group a packet's reader may know of."""
    from generator.aids.setupmap import scenario_map

    d = _d(ctx)
    assert d.scenario is not None and ctx.setup is not None
    return scenario_map(ctx.setup, arg, ctx.paper, d.scenario.name,
                        f"quarterdeck · {ModernNaval.title} · {d.scenario.name}")


@COMPONENTS("briefing")
def _briefing(ctx: Context[Derived], arg: str | None) -> Component:
    """A side's briefing (its own forces and set-up only), or the umpire's (everything)."""
    from generator.rulesets.modern_naval.components.briefing import render_briefing

    d = _d(ctx)
    assert d.scenario is not None, "the recipe names the briefing only with a scenario"
    from generator.aids.maptext import table_facts

    viewer = arg if any(s.id == arg for s in d.scenario.sides) else None
    table = table_facts(ctx.setup, viewer) if ctx.setup is not None else None
    return render_briefing(d.scenario, arg, d.units, ctx.paper, d.foot, d.dummies,
                           d.tables.rating.metres_per_cm, table)


RULESET = ModernNaval()

# The rules half of the ruleset (card, markers, aids, odds, matchups, dice) registers its
# components on the same registry when imported.
from generator.rulesets.modern_naval import rules_kit  # noqa: E402,F401
