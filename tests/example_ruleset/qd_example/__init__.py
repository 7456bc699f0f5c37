"""A tiny ruleset: one unit kind, one counter face, one die table, one recipe.

It exists to prove the seam (see docs/adding-a-ruleset.md): everything below is what a
new rule system writes; loading, checking, rendering, packets and writing are shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar
from xml.sax.saxutils import escape

from pydantic import BaseModel, Field

from generator.data.datamodel import Strict
from generator.kit.seam import (
    Components,
    Context,
    KitOptions,
    Rendered,
    Request,
    Ruleset,
    sheet_component,
)
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pieces import faces
from generator.pieces.sprue import load_sprue
from generator.rules import dietable
from generator.rules.dice import percent

if TYPE_CHECKING:
    from generator.data.library import Library
    from generator.pages.layout import Paper

FOLDER = Path(__file__).parent


class Unit(Strict):
    """A unit: its name and three ratings."""

    kind: str = Field(pattern="^unit$")
    ruleset: str
    id: str = Field(pattern=r"^[a-z0-9-]{1,40}$")
    name: str = Field(min_length=1, max_length=40)
    attack: int = Field(ge=0, le=20)
    defence: int = Field(ge=0, le=20)
    move: int = Field(ge=0, le=20)


class Side(Strict):
    """One side and its units, by id."""

    id: str = Field(pattern=r"^[a-z0-9-]{1,20}$")
    name: str = Field(min_length=1, max_length=40)
    units: list[str] = Field(min_length=1, max_length=40)


class Scenario(Strict):
    """Two or more sides."""

    kind: str = Field(pattern="^scenario$")
    ruleset: str
    id: str = Field(pattern=r"^[a-z0-9-]{1,40}$")
    name: str = Field(min_length=1, max_length=80)
    sides: list[Side] = Field(min_length=2, max_length=4)


@dataclass
class Derived:
    """The scenario's units per side, the combat table and the counter face."""

    units: dict[str, list[Unit]]
    crt: dietable.DieTable
    face: faces.FaceLayout
    foot: str


COMPONENTS: Components[Derived] = Components()
"""Components read ``ctx.data`` as a ``Derived``: mypy checks every use."""


class Example(Ruleset[Derived]):
    """The example plug."""

    name = "example-skirmish"
    title = "Example Skirmish"
    folder = FOLDER
    data_kinds: ClassVar[dict[str, type[BaseModel]]] = {"unit": Unit, "scenario": Scenario}
    components = COMPONENTS
    default_scenario = "skirmish"

    def prepare(self, library: Library, request: Request, paper: Paper,
                options: KitOptions) -> Context[Derived]:
        """Units per side, the combat table and the face, each file checked on load."""
        scenario: Scenario = library.scenarios[str(request.scenario)].model
        units = library.of_kind(self.name, "unit")
        derived = Derived({s.id: [units[u].model for u in s.units] for s in scenario.sides},
                          dietable.load_die_table(FOLDER / "tables" / "crt.yaml"),
                          faces.load_faces(FOLDER / "faces" / "unit.yaml")["unit"],
                          f"quarterdeck · Example Skirmish · {scenario.name}")
        ctx = Context(request, paper, options, data=derived)
        ctx.sides = {s.id: s.name for s in scenario.sides}
        ctx.values.update(scenario=scenario.id, scenario_name=scenario.name)
        ctx.flags.add("scenario")
        return ctx


@COMPONENTS("roster")
def roster(ctx: Context[Derived], side: str | None) -> Component:
    """One side's units and ratings."""
    assert side is not None
    d = ctx.data
    doc = CanvasDoc(ctx.paper, f"Roster: {ctx.sides[side]}", d.foot)
    doc.anchor(ctx.sides[side])
    doc.paragraph(f"Roster: {escape(ctx.sides[side])}", "h1")
    for unit in d.units[side]:
        doc.paragraph(f"{escape(unit.name)}: attack {unit.attack}, defence {unit.defence}, "
                      f"move {unit.move}", "body")
    pdf, pages = doc.finish()
    return Component(f"roster:{side}", f"Roster: {ctx.sides[side]}", f"{side.upper()}-",
                     pdf, pages)


@COMPONENTS("crt")
def crt(ctx: Context[Derived], arg: str | None) -> Component:
    """The combat results table, and each column's exact odds."""
    d = ctx.data
    doc = CanvasDoc(ctx.paper, d.crt.title, d.foot)
    doc.section(d.crt.title, f"Roll {d.crt.die} {d.crt.label}".strip(),
                dietable.die_grid(d.crt, percentages=True))
    for index, heading in enumerate(d.crt.headings):
        odds = dietable.odds(d.crt, index)
        doc.paragraph(f"{heading}: " + ", ".join(f"{k} {percent(p, 1)}"
                                                 for k, p in odds.items()))
    pdf, pages = doc.finish()
    return Component("crt", d.crt.title, "CRT-", pdf, pages, doc.bookmarks)


@COMPONENTS("counters")
def counters(ctx: Context[Derived], side: str | None) -> Rendered:
    """One side's unit counters, full strength in front and reduced on the back."""
    assert side is not None
    d = ctx.data
    pieces = []
    for unit in dict.fromkeys(u.id for u in d.units[side]):
        model = next(u for u in d.units[side] if u.id == unit)
        count = sum(1 for u in d.units[side] if u.id == unit)
        values: dict[str, int | str] = {"name": model.name, "attack": model.attack,
                                        "defence": model.defence, "move": model.move}
        pieces.append(faces.face_piece(d.face, values, f"unit.{side}.{unit}", model.name,
                                       count, "unit"))
    sprue = load_sprue(FOLDER / "sprues" / "counters.yaml")
    return sheet_component(ctx, pieces, sprue, f"counters:{side}",
                           f"Counters: {ctx.sides[side]}", f"{side.upper()}-Counters-", d.foot)


RULESET = Example()
