"""Rule 27's printed components: counters, the rating proof, aids and the overlay.

Every number printed here comes from the tables in force (``tables/naval.yaml``, or the
user's ``--tables``) or from the counters derived from the order of battle, so a changed
table changes the cards, the counters and the calculator together.
"""

from __future__ import annotations

import dataclasses
import io
from typing import TYPE_CHECKING, Any

from generator.aids.boardaids import BoardAids, TrackSpec, render_board_aids
from generator.aids.boardparts import Track, draw_hex_grid, draw_track, hex_grid, track_height
from generator.aids.strips import start_page
from generator.core.safetext import markup, text
from generator.core.units import MM
from generator.kit.seam import Context, Rendered, sheet_component
from generator.pages.autofit import LabelFitter
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Bookmark, Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import SafeBox, new_canvas, page_size, safe_box
from generator.pieces.pieces import Piece
from generator.pieces.sprue import user_or_bundled
from generator.rules.defaults import label
from generator.rules.dice import percent
from generator.rulesets.rule27.bombing import Unit, allocation_order, fates
from generator.rulesets.rule27.components.roster import marker_pieces, strength_text
from generator.rulesets.rule27.model import CounterView
from generator.rulesets.rule27.pieces import FOLDER, counter_labels, counter_piece
from generator.rulesets.rule27.registry import COMPONENTS
from generator.rulesets.rule27.tables import NavalTables

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from generator.rulesets.rule27.ruleset import Derived

ZONE_WORDS = {"adjacent": "its hex and every adjacent hex along a water route",
              "hex": "its own hex only", "none": "none"}
TRACK_BOX = "40mm"
TRACK_ROW = 4
"""Boxes a row of a track cut out as a piece: 160 mm, inside A4's and Letter's margins."""
"""A naval-step box: the largest a track takes, room for a few stacks of counters (three
half-inch counters across) and the page filled rather than left three quarters empty."""
EXAMPLE_STACK = "8 NT, CL, DD"
EXAMPLE_HITS = 3


def _default(tables: NavalTables, key: str) -> str:
    return label(tables.is_default(key))


@COMPONENTS("counters")
def counters(ctx: Context[Derived], side: str | None) -> Rendered:
    """One side's counters and markers on sheets (duplex backs per the user's options)."""
    assert side is not None
    d = ctx.data
    # Every side's labels, so a word is cut only where it tells no two counters apart.
    fitter = LabelFitter(counter_labels((v for views in d.oob.counters.values() for v in views),
                                        d.faces))
    pieces = [counter_piece(v, d.faces, d.tables, fitter) for v in d.oob.counters[side]]
    if ctx.request.command != "class":
        pieces += marker_pieces(side, ctx.sides[side], ctx)
    if ctx.request.command == "kit":
        # A side's packet has its tracks here, in the room the counters leave; the
        # counters alone (`quarterdeck markers`, the PNG and TTS exports) have none.
        pieces += track_pieces(d.tables)
    sprue = user_or_bundled(ctx.options.sprue, FOLDER / "sprues" / "counters.yaml",
                            "rule27/sprues/counters.yaml")
    return sheet_component(ctx, pieces, sprue, f"counters:{side}",
                           f"Counters: {ctx.sides[side]}", f"{side.upper()}-Counters-", d.foot)


@COMPONENTS("rating")
def rating(ctx: Context[Derived], arg: str | None) -> Component:
    """How a class's Rule 27 rating follows from its facts, step by step."""
    from generator.rulesets.rule27 import rating as rules_of

    d = ctx.data
    entry = d.rating
    assert entry is not None, "the rating sheet is in the class recipe only"
    facts, model = entry.facts, entry.model
    table = rules_of.rules()
    view: CounterView = d.oob.counters["ship"][0]
    title = f"Rule 27 rating: {model.name} class"
    doc = CanvasDoc(ctx.paper, title, d.foot)
    doc.anchor(title)
    doc.paragraph(text(title), "h1")
    rows: list[list[str]] = [["Rule 27 type", model.type]]
    if facts is not None:
        tubes = sum(m.mounts * m.tubes for m in facts.torpedoes)
        rows += [
            ["Gun score", f"guns x bore cubed / {table.gun_cube_divisor:g} = "
                          f"{float(rules_of.gun_score(facts)):.2f}"],
            ["Armour score", f"belt {facts.armor.belt_in:g} in + deck {facts.armor.deck_in:g} in"],
            ["Torpedo score", f"{tubes} tubes x {table.torpedo_per_tube:g}"],
        ]
    rows += [["Points per ship", f"guns + armour + torpedoes = {float(model.points):.2f}"],
             ["AA points per ship", f"heavy AA and dual-purpose guns x bore / "
                                    f"{table.aa_divisor:g} = {float(model.aa_points):.2f}"]]
    if model.air_capacity is not None:
        rows.append(["Air capacity per ship", f"aircraft / {table.aircraft_per_strength} = "
                                              f"{model.air_capacity}"])
    root = {1: "", 2: "square root of the ", 3: "cube root of the "}.get(
        table.strength_root, f"root {table.strength_root} of the ")
    scale = "" if table.strength_scale == 1 else f"{table.strength_scale:g} x the "
    rows += [["Counter", f"{view.type}: {', '.join(view.names)}"],
             ["Strength", f"{strength_text(view, view.strength)} ({scale}{root}counter's points "
                          f"rounded half up, at least {table.minimum_strength.get(view.type, 1)})"],
             ["AA", str(view.aa)], ["Movement", f"{view.move} sea boxes a naval step"],
             ["Set by hand", ", ".join(entry.overrides) or "nothing"]]
    doc.grid(Grid([45 * MM, 135 * MM], [["Step", "Value"]], rows, aligned(2, 2),
                  wrap=frozenset({1})))
    return doc.component("rating", title, "Rating-")


# -- aids -------------------------------------------------------------------------------


def track_specs(tables: NavalTables) -> list[TrackSpec]:
    """The naval-step tracks: the movement phase's steps and the exploitation phase's."""
    steps = tables.steps
    return [TrackSpec.model_validate(dict(
                label=f"{phase} phase: naval steps ({steps.hours} hours each)",
                first=1, last=last, box=TRACK_BOX,
                notes={i: f"{i * steps.hours} h" for i in range(1, last + 1)}))
            for phase, last in (("Movement", steps.movement),
                                ("Exploitation", steps.exploitation))]


def track_pieces(tables: NavalTables) -> list[Piece]:
    """The naval-step tracks as one-sided pieces, for the room a counter sheet leaves.

    Each track is cut out whole (its label inside the cut, at most four boxes a row);
    counters sit on its boxes. On a double-sided sheet nothing prints behind it.
    """
    pieces = []
    for spec in track_specs(tables):
        track = spec.track()
        width = min(track.last - track.first + 1, TRACK_ROW) * track.box
        height = track_height(track, width)

        def art(c: Canvas, w: float, h: float, bleed: float, track: Track = track) -> None:
            draw_track(c, track, 0.0, h, w, inset=1 * MM)

        phase = spec.label.split(" ")[0].lower()
        pieces.append(Piece(f"track.{phase}", f"{spec.label.split(':')[0]} track", width,
                            height, art, None, 1, "track"))
    return pieces


@COMPONENTS("track")
def track(ctx: Context[Derived], arg: str | None) -> Component:
    """The naval-step tracks: the movement phase's steps and the exploitation phase's."""
    d = ctx.data
    aids = BoardAids(kind="board-aids", title="Naval steps", hexes=None,
                     tracks=track_specs(d.tables), sea=None)
    rendered = render_board_aids(aids, ctx.paper, d.foot, key="track", label="Track-")
    # Counters sit on the track: it is cut out (or laid down whole), nothing on its back.
    return dataclasses.replace(rendered.component, cut_out=True)


@COMPONENTS("reference")
def reference(ctx: Context[Derived], arg: str | None) -> Component:
    """Movement, combat zones, counters and cargo, each a table built from the tables."""
    d = ctx.data
    tables: NavalTables = d.tables
    doc = CanvasDoc(ctx.paper, "Naval reference", d.foot)
    doc.anchor("Naval reference")
    doc.paragraph("Naval reference", "h1")
    s = tables.steps
    rows = []
    for kind, row in tables.types.items():
        knots = tables.knots.get(row.move)
        rows.append([kind, row.title, str(row.move), f"about {knots} kn" if knots else "",
                     str(row.move * s.movement), str(row.move * s.exploitation)])
    doc.section("Movement", markup(
        "Sea boxes a counter may cross in one {hours}-hour naval step; movement left at "
        "the end of a step is lost. The movement phase has {m} steps and the exploitation "
        "phase {e}. Embarking, disembarking and replenishing each take a whole step. A "
        "sea box is a hexagon {n} map hexes across.", hours=s.hours, m=s.movement,
        e=s.exploitation, n=tables.sea_box_hexes),
        Grid([14 * MM, 62 * MM, 24 * MM, 24 * MM, 28 * MM, 28 * MM],
             [["Type", "Counter", "Boxes a step", "Speed", f"{s.movement} steps",
               f"{s.exploitation} steps"]], rows, aligned(2, 6)))
    zone_rows = [[kind, ZONE_WORDS[row.zone]] for kind, row in tables.types.items()
                 if row.category == "SF"]
    zone_rows.append([f"CD {tables.coast_defence_adjacent_from}+", ZONE_WORDS["adjacent"]])
    zone_rows.append([f"CD 1-{tables.coast_defence_adjacent_from - 1}"
                      if tables.coast_defence_adjacent_from > 2 else "CD 1", ZONE_WORDS["hex"]])
    zone_rows.append(["all others", "none"])
    doc.section("Naval combat zones",
                "Where a ship or a coast defence (CD) holds a naval combat zone. At night "
                "and in rough or stormy seas every zone shrinks by one hex, but never "
                "below the hex the unit is in.",
                Grid([30 * MM, 150 * MM], [["Unit", "Naval combat zone"]], zone_rows,
                     aligned(2, 2)))
    type_rows = []
    for kind, row in tables.types.items():
        low, high = row.ships
        ships = str(low) if low == high else f"{low}-{high}"
        if kind == "NT":
            ships = "a mix"
        means = {"SF": "combat, gunfire support and damage",
                 "CF": "damage and air capacity (in parentheses)",
                 "AF": "damage and cargo (1)", "NT": "damage and cargo (1)"}[row.category]
        half = "flips at half strength in hits" if row.half else "one side"
        type_rows.append([kind, row.category, ships, means, half])
    doc.section("Counters", markup(
        "Each hit of naval combat or bombing on an SF or CF takes one point of its "
        "strength; it sinks when its hits reach its strength. A hit sinks an AF or an NT. "
        "Half side: half the full strength, rounded {round}, and {aa}{default}; two halves "
        "of one type with the same half strength and AA may combine into one full counter.",
        round=tables.half_round, default=_default(tables, "half_aa"),
        aa="the full AA" if tables.half_aa == "same" else "half the AA"),
        Grid([14 * MM, 16 * MM, 18 * MM, 72 * MM, 60 * MM],
             [["Type", "Category", "Ships", "Strength is", "Sides"]], type_rows,
             aligned(4, 5), wrap=frozenset({3})))
    flip = ("take off as many hits as the flip took strength (full less half); hits "
            "beyond that stay on the half side" if tables.flip_hits == "excess"
            else "take off every hit marker")
    doc.section("Hit markers", markup(
        "Put a hit marker on an SF or CF for each hit it takes; a marker's back counts one "
        "more. When a CA, CL, DD or CVE flips to its half side, {flip}{default}. It sinks "
        "once its hits reach the strength it now shows.", flip=flip,
        default=_default(tables, "flip_hits")),
        Grid([45 * MM, 135 * MM], [["Counter", "Hits"]],
             [["BB, BC, CV", "sinks when its hits equal its strength"],
              ["CA, CL, DD, CVE", "flips at hits of half its strength or more, then sinks "
                                  "when its hits equal its half side's strength"],
              ["AF, NT", "each hit sinks it: no marker"]], aligned(2, 2), wrap=frozenset({1})))
    doc.section("Carriers (CF)",
                "A carrier's strength, in parentheses, is its damage strength and, while "
                "it is undamaged, the number of air groups it can base.",
                Grid([45 * MM, 135 * MM], [["On a carrier", "Rule"]],
                     [["Air groups", "a CF bases Code C air groups (rule 23F1) and no others"],
                      ["Airbase capacity", "its damage strength when undamaged; 1 less for "
                                           "each damage hit it has taken"],
                      ["Not carried", "no naval gunfire support and no cargo"]],
                     aligned(2, 2), wrap=frozenset({1})))
    doc.section("Task Forces",
                "A Task Force (TF) is one or more friendly ships moving together under one "
                "TF marker. Some rules apply only to a TF the enemy knows of: turn its "
                "marker to KNOWN while either case below holds, and back to unknown after.",
                Grid([45 * MM, 135 * MM], [["TF is known", "When"]],
                     [["After gunfire support", "it is still in the hex from which it gave "
                                                "naval gunfire support in the combat phase "
                                                "just before"],
                      ["After fighting a coast defence", "it is in the hex from which it "
                                                         "engaged coast defences in naval "
                                                         "combat this phase"],
                      ["Otherwise", "it is unknown"]], aligned(2, 2), wrap=frozenset({1})))
    c = tables.cargo
    cargo_rows = [["SF (undamaged)", f"{c.sf_capacity_re} RE of non-c/m units without heavy "
                   "equipment"],
                  ["AF (LS, LC)", f"{c.af_capacity_re} RE each; several may combine"],
                  ["NT", f"{c.nt_capacity_re} RE each; several may combine"],
                  ["CF", "no cargo"],
                  ["RE size doubled", ", ".join(c.doubled)]]
    cargo_rows += [[f"{e.carriers} together", e.cargo] for e in c.examples]
    costs = ", ".join(f"{kind} {mp}" for kind, mp in c.mp_per_step.items())
    cargo_rows.append(["MPs of units aboard", f"{costs}: to embark, to disembark, and for each "
                       "naval step or part of one aboard"])
    doc.section("Cargo",
                "Cargo goes by RE size. A sunk ship loses its cargo; a ship whose capacity "
                "falls loses the cargo beyond what it can still carry; ships carrying one "
                "item together lose what the survivors cannot carry.",
                Grid([45 * MM, 135 * MM], [["Carrier", "Capacity"]], cargo_rows,
                     aligned(2, 2), wrap=frozenset({1})))
    return doc.component("reference", "Naval reference", "Ref-")


@COMPONENTS("worksheet")
def worksheet(ctx: Context[Derived], arg: str | None) -> Component:
    """The bombing-hit allocation worksheet, with the text's example worked exactly."""
    d = ctx.data
    tables: NavalTables = d.tables
    order = [c.id for c in tables.categories]
    doc = CanvasDoc(ctx.paper, "Bombing hits", d.foot)
    doc.anchor("Bombing-hit allocation worksheet")
    doc.paragraph("Bombing-hit allocation worksheet", "h1")
    doc.paragraph(markup(
        "1. Write the number of bombing hits. 2. Go along the row: each category with a "
        "ship still afloat in the stack takes one hit, in the order {order}. 3. For each "
        "hit, number that category's afloat counters and roll to pick one at random; "
        "write its number and the hit. 4. Start a new row until every hit is placed; "
        "hits left when nothing floats are lost. A hit sinks an NT or AF; an SF or CF "
        "sinks when its hits reach its strength, and a CA, CL, DD or CVE flips once they "
        "reach half of it.", order=", ".join(order)), "body")
    doc.space(2)
    titles = {c.id: f"{c.id} ({c.title})" for c in tables.categories}
    rows = [[f"Round {i}", *["" for _ in order]] for i in range(1, 9)]
    doc.grid(Grid([25 * MM, *[38.75 * MM] * len(order)],
                  [["Hits: ____", *[titles[c] for c in order]]], rows, aligned(1, 5)))
    doc.space(3)
    units = _example_units(tables)
    steps = allocation_order(units, EXAMPLE_HITS, order)
    doc.paragraph(markup("The text's example: {stack}, {hits} hits", stack=EXAMPLE_STACK,
                         hits=EXAMPLE_HITS), "h2")
    doc.paragraph(markup("The hits go to {steps}. Exact chances for each counter (strengths "
                         "{strengths}{default}):",
                         steps=", then ".join(steps),
                         strengths=", ".join(f"{u.type} {u.strength}"
                                             for u in dict.fromkeys(units)),
                         default=_default(tables, "default_strength")), "body")
    result = fates(units, EXAMPLE_HITS, order)
    doc.grid(Grid([50 * MM, 30 * MM, 30 * MM, 30 * MM, 30 * MM],
                  [["Counter", "How many", "Hit", "Flipped", "Sunk"]],
                  [[f.unit.label, str(f.count), percent(f.hit, 1),
                    percent(f.flipped, 1) if f.unit.half else "-", percent(f.sunk, 1)]
                   for f in result], aligned(1, 5)))
    return doc.component("worksheet", "Bombing-hit allocation worksheet", "Bomb-")


def _example_units(tables: NavalTables) -> list[Unit]:
    from generator.rulesets.rule27.bombing import parse_stack

    return parse_stack(EXAMPLE_STACK, tables)


# -- sea-box overlay --------------------------------------------------------------------


def overlay_geometry(hex_size: float, tables: NavalTables, orientation: Any,
                     area: SafeBox) -> Any:
    """The sea-box grid on one page: hexes ``sea_box_hexes`` map hexes across."""
    return hex_grid(area, tables.sea_box_hexes * hex_size, orientation)


REGISTRATION_MM = 1.5
"""Half the length of each arm of a registration cross (mm)."""


def draw_registration(c: Any, grid: Any, hex_size: float) -> None:
    """A hairline + on every sea box's centre, which sits on a map hex's centre.

    A sea box is an odd number of map hexes across, so its centre is a map hex's centre:
    the crosses let the film be set on the map, and two sheets be set on each other.
    """
    arm = min(REGISTRATION_MM * MM, hex_size / 4)
    c.saveState()
    c.setLineWidth(0.25)
    for column, row in grid.cells():
        x, y = grid.centre(column, row)
        c.line(x - arm, y, x + arm, y)
        c.line(x, y - arm, x, y + arm)
    c.restoreState()


@COMPONENTS("overlay")
def overlay(ctx: Context[Derived], arg: str | None) -> Component:
    """The sea-box overlay at the map's hex size, in hairlines for transparency film."""
    d = ctx.data
    tables: NavalTables = d.tables
    buffer = io.BytesIO()
    c = new_canvas(buffer, ctx.paper, "Sea-box overlay")
    c.setPageSize(page_size(ctx.paper))
    box = safe_box(ctx.paper)
    flats = tables.sea_box_hexes * d.hex
    notes = [f"Map hexes {d.hex / MM:.4g} mm across the flats; a sea box is "
             f"{tables.sea_box_hexes} hexes: {flats / MM:.4g} mm ({flats / 72:.4g} in) across "
             "the flats.",
             "Print at 100 % on transparency film (check the calibration bars) and lay it "
             "over the sea zones with every + on the centre of a map hex: each + is a sea "
             "box's centre.",
             "To cover more of the map, lay the next sheet over the edge of this one so that "
             "two or more of its + sit exactly on this sheet's + and the outlines coincide, "
             "then tape them."]
    top, floor = start_page(c, box, "Sea-box overlay", d.foot, notes)
    area = SafeBox(box.x, floor, box.width, top - floor)
    orientation = d.scenario.hex_orientation if d.scenario is not None else "flat"
    grid = overlay_geometry(d.hex, tables, orientation, area)
    draw_hex_grid(c, grid, thin=True, numbers=False)
    draw_registration(c, grid, d.hex)
    c.showPage()
    c.save()
    # Printed on transparency film: nothing may print on its back.
    return Component("overlay", "Sea-box overlay", "Overlay-", buffer.getvalue(), 1,
                     [Bookmark("Sea-box overlay", 0)], cut_out=True)

