"""Each side's order of battle, counter manifest and counter sheets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.safetext import markup, text
from generator.core.units import MM
from generator.kit.seam import Context, Rendered, sheet_component
from generator.pages.autofit import LabelFitter
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pieces.faces import face_piece
from generator.pieces.pieces import Piece
from generator.pieces.sprue import user_or_bundled
from generator.rules.defaults import label
from qd_example.components import COMPONENTS

if TYPE_CHECKING:
    from qd_example.ruleset import Derived

FOLDER = Path(__file__).parent.parent


@COMPONENTS("oob")
def oob(ctx: Context[Derived], side: str | None) -> Component:
    """One side's order of battle: every counter with its full and damaged ratings."""
    assert side is not None
    d = ctx.data
    title = f"Order of battle: {ctx.sides[side]}"
    doc = CanvasDoc(ctx.paper, title, d.foot)
    doc.anchor(title)
    doc.paragraph(text(title), "h1")
    assert d.scenario is not None, "the order of battle is in the scenario's kit only"
    doc.paragraph(markup("{name}, {date}. Ratings are guns-armour-move; the damaged side "
                         "halves guns and armour, rounded {round}{default}.",
                         name=d.scenario.name, date=str(d.scenario.date),
                         round=d.tables.half_round,
                         default=label(d.tables.is_default("half_round"))), "body")
    rows = [[c.id, c.type, c.name, c.class_name, f"{c.guns}-{c.armour}-{c.move}",
             f"{d.tables.half_of(c.guns)}-{d.tables.half_of(c.armour)}-{c.move}"]
            for c in d.counters[side]]
    doc.grid(Grid([22 * MM, 12 * MM, 50 * MM, 40 * MM, 26 * MM, 26 * MM],
                  [["Counter", "Type", "Ship", "Class", "Full", "Damaged"]], rows,
                  aligned(4, 6), wrap=frozenset({2, 3})))
    return doc.component(f"oob:{side}", title, f"{side.upper()}-OOB-")


def marker_pieces(ctx: Context[Derived], side: str) -> list[Piece]:
    """One side's smoke and hit markers, as many as the tables say."""
    d = ctx.data
    m = d.tables.markers
    out = []
    if m.smoke:
        out.append(face_piece(d.faces["smoke"], {}, f"smoke.{side}", "smoke", m.smoke,
                              "smoke"))
    if m.hits:
        out.append(face_piece(d.faces["hits"], {"hits": 1}, f"hits.{side}", "1/2 hits",
                              m.hits, "hits"))
    return out


@COMPONENTS("manifest")
def manifest(ctx: Context[Derived], side: str | None) -> Component:
    """How many pieces of each kind the sides' sheets hold, and which counter is which."""
    d = ctx.data
    sides = [side] if side is not None else list(ctx.sides)
    title = "Counter manifest" + (f": {ctx.sides[side]}" if side else "")
    doc = CanvasDoc(ctx.paper, title, d.foot)
    doc.anchor(title)
    doc.paragraph(text(title), "h1")
    doc.paragraph(markup("Count each kind after cutting. The marker mix is the tables' "
                         "own{default}.", default=label(d.tables.is_default("markers"))),
                  "body")
    rows: list[list[str]] = []
    for one in sides:
        m = d.tables.markers
        rows += [[ctx.sides[one], "ship counters", "2 (damaged back)",
                  str(len(d.counters[one]))],
                 [ctx.sides[one], "smoke markers", "2 (thin back)", str(m.smoke)],
                 [ctx.sides[one], "hit markers (1/2)", "2", str(m.hits)]]
    rows.append(["All", "pieces", "", str(sum(int(r[3]) for r in rows))])
    doc.grid(Grid([50 * MM, 60 * MM, 40 * MM, 26 * MM],
                  [["Side", "Piece", "Sides printed", "How many"]], rows, aligned(2, 4)))
    doc.space(3)
    doc.paragraph("Ship counters, piece by piece", "h2")
    detail = [[c.id, c.type, c.name, f"{c.guns}-{c.armour}-{c.move}"]
              for one in sides for c in d.counters[one]]
    doc.grid(Grid([26 * MM, 14 * MM, 100 * MM, 36 * MM],
                  [["Counter", "Type", "Ship", "Front"]], detail, aligned(3, 4)))
    return doc.component(f"manifest:{side}" if side else "manifest", title,
                         f"{(side or 'all').upper()}-Manifest-")


@COMPONENTS("counters")
def counters(ctx: Context[Derived], side: str | None) -> Rendered:
    """One side's ship counters (damaged backs) and markers, imposed on sheets."""
    assert side is not None
    d = ctx.data
    fitter = LabelFitter()
    pieces = [face_piece(d.faces["ship"], {"type": c.type, "name": c.name, "guns": c.guns,
                                           "armour": c.armour, "move": c.move,
                                           "fill": d.colours[side]},
                         f"ship.{c.id}", f"{c.type} {c.name}", 1, "ship", fitter)
              for c in d.counters[side]]
    sprue = user_or_bundled(ctx.options.sprue, FOLDER / "sprues" / "counters.yaml",
                            "example/sprues/counters.yaml")
    if ctx.request.command != "class":
        pieces += marker_pieces(ctx, side)
    return sheet_component(ctx, pieces, sprue,
                           f"counters:{side}", f"Counters: {ctx.sides[side]}",
                           f"{side.upper()}-Counters-", d.foot)


@COMPONENTS("rating")
def rating(ctx: Context[Derived], arg: str | None) -> Component:
    """How a class's rating follows from its facts in the shared library, step by step."""
    from qd_example import rating as rules_of

    entry = ctx.data.rating
    assert entry is not None, "the rating sheet is in the class recipe only"
    facts, model, table = entry.facts, entry.model, rules_of.rules()
    title = f"Example Skirmish rating: {model.name} class"
    doc = CanvasDoc(ctx.paper, title, ctx.data.foot)
    doc.anchor(title)
    doc.paragraph(text(title), "h1")
    rows = [["Type", f"{facts.type.value if facts else '?'} counts as {model.type}"]]
    if facts is not None:
        bore = max(b.bore_in for b in facts.guns)
        main = sum(b.guns for b in facts.guns if b.bore_in == bore)
        rows += [["Guns", f"{main} x {bore:g} in / {table.gun_divisor:g}, rounded half up "
                          f"(1 to {table.max_guns}) = {rules_of.guns(facts)}"],
                 ["Armour", f"(belt {facts.armor.belt_in:g} + deck {facts.armor.deck_in:g} in)"
                            f" / {table.armour_divisor:g}, rounded down = "
                            f"{rules_of.armour(facts)}"],
                 ["Move", f"{facts.speed_kn:g} kn / {table.knots_per_hex:g} kn a hex, rounded "
                          f"down = {rules_of.move(facts)}"]]
    rows += [["Counter", f"{model.guns}-{model.armour}-{model.move}"],
             ["Set by hand", ", ".join(entry.overrides) or "nothing"]]
    doc.grid(Grid([35 * MM, 145 * MM], [["Step", "Value"]], rows, aligned(2, 2),
                  wrap=frozenset({1})))
    return doc.component("rating", title, "Rating-")
