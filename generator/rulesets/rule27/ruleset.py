"""Rule 27: naval counters and aids for a hex-and-counter strategic wargame.

Ships are counters with a strength, an AA strength and a type; CA, CL, DD and CVE flip to
a half-strength side; movement is counted in sea boxes per 36-hour naval step; bombing
hits are spread by category. The kit prints each side's counters (half sides derived
from the fronts), markers, the order of battle with a counter manifest, the naval-step
track, the movement, combat-zone and cargo references, the bombing worksheet and a
sea-box overlay sized from the map's hex. ``quarterdeck bombing`` answers a stack's
odds exactly; ``quarterdeck rule27`` builds the kit at another hex or counter size.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from generator.core.errors import DataError, Problem, UsageError
from generator.kit.seam import Context, KitOptions, Request, Ruleset
from generator.pages.layout import Paper
from generator.rulesets.rule27.model import (
    COUNTER_MAX_MM,
    COUNTER_MIN_MM,
    HEX_MIN_MM,
    OrderOfBattle,
    counters_of,
    length_problem,
)
from generator.rulesets.rule27.registry import COMPONENTS
from generator.rulesets.rule27.schema import Rule27Class, Scenario
from generator.rulesets.rule27.tables import NavalTables, bundled_tables, load_tables

if TYPE_CHECKING:
    from generator.data.library import Entry, Library
    from generator.pages.component import Component
    from generator.pieces.faces import FaceLayout

FOLDER = Path(__file__).parent


@dataclass
class Derived:
    """What every Rule 27 component reads."""

    scenario: Scenario | None
    tables: NavalTables
    oob: OrderOfBattle
    faces: dict[str, FaceLayout]
    counter_size: float
    hex: float
    foot: str
    rating: Entry | None = None
    """For a class proof: the class's library entry (its facts and rating)."""


class Rule27(Ruleset[Derived]):
    """The Rule 27 plug."""

    name = "rule-27"
    title = "Rule 27"
    folder = FOLDER
    data_kinds: ClassVar[dict[str, type[BaseModel]]] = {"scenario": Scenario}
    components = COMPONENTS
    default_scenario = "mediterranean-1940"
    order = 50
    templates = None
    preview_names: ClassVar[dict[str, str]] = {"status": "rating", "counter": "counters"}

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Every order of battle's groupings, ships and sizes, located in its file."""
        problems: list[Problem] = []
        classes = library.classes_of(self.name)
        for entry in library.of_kind(self.name, "scenario").values():
            oob = counters_of(entry.model, entry.doc, classes, bundled_tables())
            problems.extend(oob.problems)
            if not oob.problems:
                problems.extend(_size_problems(entry.model, entry.doc, oob, bundled_tables(),
                                               {}))
        return problems, []

    def prepare(self, library: Library, request: Request, paper: Paper,
                options: KitOptions) -> Context[Derived]:
        """The order of battle as counters, the tables in force and the faces at size."""
        from generator.rulesets.rule27.pieces import layouts

        if request.command == "class" and request.class_id is not None:
            return self._class_proof(library, request, paper, options)
        if request.command not in ("kit", "markers") or request.scenario is None:
            raise UsageError(f"{self.title} prints a scenario's kit: `quarterdeck build "
                             f"SCENARIO` or `quarterdeck rule27 SCENARIO`; its counters "
                             f"alone: `quarterdeck markers SCENARIO`")
        entry = library.scenarios[request.scenario]
        scenario: Scenario = entry.model
        tables = load_tables(options.tables)
        oob = counters_of(scenario, entry.doc, library.classes_of(self.name), tables)
        if oob.problems:
            raise DataError(oob.problems)
        values = getattr(options, "values", {}) or {}
        chosen: list[Problem] = []
        if "hex" in values:
            size, problem = length_problem(None, ("hex",), values["hex"], HEX_MIN_MM, 40.0,
                                           "a hex size")
            chosen.extend([problem] if problem else [])
            oob.hex = size or oob.hex
        if "counter" in values:
            size, problem = length_problem(None, ("counter",), values["counter"],
                                           COUNTER_MIN_MM, COUNTER_MAX_MM, "a counter size")
            chosen.extend([problem] if problem else [])
            oob.counter_size = size or oob.counter_size
        if chosen:
            raise DataError(chosen)
        problems = _size_problems(scenario, entry.doc, oob, tables, values)
        if problems:
            raise DataError(problems)
        derived = Derived(scenario, tables, oob, layouts(oob.counter_size, tables),
                          oob.counter_size, oob.hex, f"quarterdeck · Rule 27 · {scenario.name}")
        ctx = Context(request, paper, options, data=derived)
        ctx.for_scenario(scenario.id, scenario.name, scenario.sides)
        return ctx

    def _class_proof(self, library: Library, request: Request, paper: Paper,
                     options: KitOptions) -> Context[Derived]:
        """One class's counter and how its rating was derived (``build --class``)."""
        from generator.core.suggest import did_you_mean
        from generator.rulesets.rule27.model import CounterView, ShipOf, rate_counter
        from generator.rulesets.rule27.pieces import layouts

        assert request.class_id is not None
        entry = library.classes_of(self.name)[request.class_id]
        model: Rule27Class = entry.model
        tables = load_tables(options.tables)
        name = request.ship or model.ship_names[0]
        name = model.aka.get(name, name)
        if name not in model.ship_names:
            raise UsageError(f"no ship '{name}' in the {model.name} class"
                             f"{did_you_mean(name, model.ship_names)}")
        row = tables.types[model.type]
        # The counter the chosen ship heads: as many of her sisters as the type needs.
        need = max(1, row.ships[0])
        start = model.ship_names.index(name)
        names = [model.ship_names[(start + i) % len(model.ship_names)]
                 for i in range(min(need, len(model.ship_names)))]
        strength, aa = rate_counter(model.type, [model] * len(names), tables)
        view = CounterView(id="proof.01", side="ship", force=model.name, type=model.type,
                           category=row.category,
                           ships=tuple(ShipOf(model.id, n) for n in names),
                           label=" / ".join(names) if len(names) <= 2 else f"{model.name} class",
                           strength=strength, aa=aa, move=row.move,
                           half=row.half, count=1, nation=model.nation,
                           overridden=tuple(entry.overrides))
        oob = OrderOfBattle(counters={"ship": [view]})
        derived = Derived(None, tables, oob, layouts(oob.counter_size, tables),
                          oob.counter_size, oob.hex, f"quarterdeck · Rule 27 · {model.name} class",
                          rating=entry)
        ctx = Context(request, paper, options, data=derived)
        ctx.sides = {"ship": name}
        ctx.values.update(**{"class": model.id, "class_name": model.name, "ship": name})
        return ctx

    def catalog(self, library: Library, paper: Paper) -> Component:
        """Every rated class with its Rule 27 values (``components/catalog.py``)."""
        from generator.rulesets.rule27.components.catalog import render_catalog

        return render_catalog(library, paper)

    def describe_class(self, entry: Entry) -> tuple[str, str, str, str]:
        """(id, name, nation, Rule 27 type) of a rated class."""
        model: Rule27Class = entry.model
        return model.id, model.name, model.nation, model.type


def _size_problems(scenario: Scenario, doc: Any, oob: OrderOfBattle, tables: NavalTables,
                   given: dict[str, str]) -> list[Problem]:
    """A counter too small for its numbers, or a sea box too big for the page.

    Each is located at the scenario's field, or at the command's option when the user
    gave the size there (``given``: ``counter``, ``hex``, as written).
    """

    def written(option: str, key: str) -> str:
        return repr(given[option] if option in given else getattr(scenario, key))

    def where(option: str, key: str, message: str) -> Problem:
        if option in given:
            return Problem(f"--{option}", 0, 0, "", message)
        return doc.problem((key,), message)  # type: ignore[no-any-return]

    from generator.aids.boardaids import content_area
    from generator.aids.boardparts import AidError, hex_grid
    from generator.pages.autofit import LABEL_FLOOR
    from generator.rulesets.rule27.pieces import counter_values, fit_problems, layouts

    problems: list[Problem] = []
    faces = layouts(oob.counter_size, tables)
    wont: list[str] = []
    for views in oob.counters.values():
        for view in views:
            layout = faces["ship-half" if view.half else "ship"]
            wont.extend(t for t in fit_problems(layout, counter_values(view, layout))
                        if t not in wont)
    if wont:
        message = (f"found {written('counter', 'counter_size')}, expected a counter size "
                   f"that holds its numbers at {LABEL_FLOOR:g} pt (these do not fit: "
                   f"{', '.join(wont[:6])})")
        problems.append(where("counter", "counter_size", message))
    try:
        hex_grid(content_area(notes=2), tables.sea_box_hexes * oob.hex, scenario.hex_orientation)
    except AidError as exc:
        message = (f"found {written('hex', 'hex')}, expected a hex size whose sea box "
                   f"({tables.sea_box_hexes} hexes across) fits the page: {exc.expected}")
        problems.append(where("hex", "hex", message))
    return problems


# Importing the components registers them.
import generator.rulesets.rule27.components as _components  # noqa: E402, F401

RULESET = Rule27()
