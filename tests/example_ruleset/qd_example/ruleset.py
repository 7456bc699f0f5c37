"""Example Skirmish: a tiny gunnery game invented to show a whole ruleset folder.

The rules, in full. Each ship is one counter showing its type, guns, armour and move
(hexes a turn), rated from the shared ship library (``rating.py``). Its back is its
damaged side: guns and armour halved, move kept. A turn: both sides move, then every
ship may fire one salvo at an enemy in range. A salvo rolls one d6 per gun; a die at or
above the range band's score hits, and the target's armour stops that many hits. One net
hit flips an undamaged ship; ``sink_hits`` net hits sink it, as does any net hit on a
damaged ship. A salvo that does damage but does not sink rolls once on the critical
table. From the first night turn only short range may be fired at, and a ship in smoke
may be fired at only at short range.

The kit prints each side's counters and markers, its order of battle and counter
manifest, the turn track, the reference card, the salvo worksheet; ``quarterdeck salvo``
answers a salvo's odds exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from generator.aids.boardaids import HexSize
from generator.core.errors import DataError, Problem, UsageError
from generator.core.suggest import did_you_mean
from generator.kit.seam import Context, KitOptions, Request, Ruleset
from generator.pieces.faces import FaceLayout, load_faces
from qd_example.components import COMPONENTS
from qd_example.schema import Scenario, SkirmishClass
from qd_example.tables import SkirmishTables, load_tables

if TYPE_CHECKING:
    from generator.data.library import Entry, Library
    from generator.pages.layout import Paper

FOLDER = Path(__file__).parent


@dataclass(frozen=True)
class ShipCounter:
    """One ship's counter, as every component reads it."""

    id: str
    name: str
    class_name: str
    type: str
    guns: int
    armour: int
    move: int


@dataclass
class Derived:
    """What every Example Skirmish component reads."""

    scenario: Scenario | None
    tables: SkirmishTables
    counters: dict[str, list[ShipCounter]]
    faces: dict[str, FaceLayout]
    colours: dict[str, str]
    foot: str
    hex: float = 0.0
    """The overlay's hex across the flats, in points (the scenario's, or ``--hex``)."""
    rating: Entry | None = None
    """For a class proof: the class's library entry (its facts and rating)."""


class ExampleSkirmish(Ruleset[Derived]):
    """The Example Skirmish plug."""

    name = "example-skirmish"
    title = "Example Skirmish"
    folder = FOLDER
    data_kinds: ClassVar[dict[str, type[BaseModel]]] = {"ship-class": SkirmishClass,
                                                        "scenario": Scenario}
    components = COMPONENTS
    default_scenario = "skirmish"

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Every ship a scenario names is a rated class's ship, located in its file."""
        problems: list[Problem] = []
        for entry in library.of_kind(self.name, "scenario").values():
            problems.extend(_ship_problems(entry, library.classes_of(self.name)))
        return problems, []

    def prepare(self, library: Library, request: Request, paper: Paper,
                options: KitOptions) -> Context[Derived]:
        """Each side's counters from its ships' ratings, the tables in force, the faces."""
        if request.command == "class" and request.class_id is not None:
            return self._class_proof(library, request, paper, options)
        if request.command != "kit" or request.scenario is None:
            raise UsageError(f"{self.title} prints a scenario's kit: `quarterdeck build "
                             "SCENARIO`")
        entry = library.scenarios[request.scenario]
        scenario: Scenario = entry.model
        classes = library.classes_of(self.name)
        problems = _ship_problems(entry, classes)
        if problems:
            raise DataError(problems)
        tables = load_tables(options.tables)
        counters: dict[str, list[ShipCounter]] = {}
        for side in scenario.sides:
            counters[side.id] = []
            for number, ref in enumerate(side.ships, start=1):
                model: SkirmishClass = classes[ref.class_].model
                counters[side.id].append(ShipCounter(
                    f"{side.id}.{number}", model.aka.get(ref.name, ref.name), model.name,
                    model.type, model.guns, model.armour, model.move))
        derived = Derived(scenario, tables, counters, _faces(tables),
                          {s.id: s.colour for s in scenario.sides},
                          f"quarterdeck · Example Skirmish · {scenario.name}",
                          _hex(options.values.get("hex"), scenario.hex))
        ctx = Context(request, paper, options, data=derived)
        ctx.for_scenario(scenario.id, scenario.name, scenario.sides)
        return ctx

    def _class_proof(self, library: Library, request: Request, paper: Paper,
                     options: KitOptions) -> Context[Derived]:
        """One ship's counter and how its class was rated (``build --class``)."""
        assert request.class_id is not None
        entry = library.classes_of(self.name)[request.class_id]
        model: SkirmishClass = entry.model
        name = model.aka.get(request.ship or "", request.ship or model.ship_names[0])
        if name not in model.ship_names:
            raise UsageError(f"no ship '{name}' in the {model.name} class"
                             f"{did_you_mean(name, model.ship_names)}")
        tables = load_tables(options.tables)
        counter = ShipCounter("proof.1", name, model.name, model.type, model.guns,
                              model.armour, model.move)
        derived = Derived(None, tables, {"ship": [counter]}, _faces(tables),
                          {"ship": "#34495e"},
                          f"quarterdeck · Example Skirmish · {model.name} class", rating=entry)
        ctx = Context(request, paper, options, data=derived)
        ctx.sides = {"ship": name}
        ctx.values.update(**{"class": model.id, "class_name": model.name, "ship": name})
        return ctx


def _hex(given: str | None, scenario: float) -> float:
    """The hex size ``--hex`` gives (checked as the scenario's is), else the scenario's."""
    if given is None:
        return scenario
    try:
        found: float = TypeAdapter(HexSize).validate_python(given)
    except ValidationError:
        raise UsageError(f"--hex: found {given!r}, expected a length from 5mm to 60mm, "
                         "e.g. 20mm") from None
    return found


def _faces(tables: SkirmishTables) -> dict[str, FaceLayout]:
    """The bundled faces, the damaged side rounding as the tables in force say."""
    faces = load_faces(FOLDER / "faces" / "counters.yaml", "example/faces/counters.yaml")
    ship = faces["ship"]
    if ship.back is not None:
        faces["ship"] = ship.model_copy(update={"back": ship.back.model_copy(
            update={"round": tables.half_round})})
    return faces


def _ship_problems(entry: Entry, classes: dict[str, Entry]) -> list[Problem]:
    """A ship whose class is not rated, or whose name its class does not list."""
    problems: list[Problem] = []
    scenario: Scenario = entry.model
    for i, side in enumerate(scenario.sides):
        for j, ref in enumerate(side.ships):
            loc = ("sides", i, "ships", j)
            if ref.class_ not in classes:
                problems.append(entry.doc.problem((*loc, "class"), (
                    f"found class '{ref.class_}', expected a class Example Skirmish rates"
                    f"{did_you_mean(ref.class_, list(classes))}")))
                continue
            model: SkirmishClass = classes[ref.class_].model
            if ref.name not in model.ship_names and ref.name not in model.aka:
                problems.append(entry.doc.problem((*loc, "name"), (
                    f"found '{ref.name}', expected a ship of the {model.name} class"
                    f"{did_you_mean(ref.name, model.ship_names)}")))
    return problems


RULESET = ExampleSkirmish()
