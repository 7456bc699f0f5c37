"""Rule 27's order of battle, counter manifest and markers.

The order of battle is where a counter's number leads: a flotilla's counter prints its
short name and number, and this page prints the whole name and every ship beside that
number, force by force, with each force's starting base, commander and notes, and the
ships of the date that have no counter and why.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterable
from typing import TYPE_CHECKING

from generator.core.safetext import markup, text
from generator.core.units import MM
from generator.kit.seam import Context
from generator.pages.autofit import LabelFitter
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pieces.faces import face_piece
from generator.pieces.pieces import Piece
from generator.rules.defaults import label
from generator.rulesets.rule27.model import CounterView
from generator.rulesets.rule27.registry import COMPONENTS
from generator.rulesets.rule27.tables import NavalTables

if TYPE_CHECKING:
    from generator.rulesets.rule27.ruleset import Derived

DERIVED = ("Strength and AA are quarterdeck's own ratings, not the rule text's: the text "
           "prints them on each counter without saying how they are found. Strength grows "
           "with the square root of the ships' gun weight, armour and torpedo tubes; AA "
           "counts their heavy and dual-purpose anti-aircraft guns by bore.")
"""What the order of battle says of the ratings (the rule text gives none)."""


def strength_text(view: CounterView, strength: int) -> str:
    """A strength as printed: a carrier's in parentheses (its damage strength only)."""
    return f"({strength})" if view.category == "CF" else str(strength)


def hit_fronts(tables: NavalTables, views: Iterable[CounterView]) -> list[int]:
    """The damage-hit markers' fronts: the tables' own, and enough for the strongest counter.

    Each back counts one more, and a counter sinks at hits equal to its strength, so the
    markers count to the largest strength less one.
    """
    largest = max((v.strength for v in views), default=1)
    return sorted(set(tables.markers.hit_fronts) | set(range(1, largest, 2)))


# -- order of battle -----------------------------------------------------------------------


@COMPONENTS("oob")
def oob(ctx: Context[Derived], side: str | None) -> Component:
    """One side's order of battle: force by force, every counter by its number."""
    assert side is not None
    d = ctx.data
    tables: NavalTables = d.tables
    assert d.scenario is not None
    source = next(s for s in d.scenario.sides if s.id == side)
    views: list[CounterView] = d.oob.counters[side]
    title = f"Order of battle: {ctx.sides[side]}"
    doc = CanvasDoc(ctx.paper, title, d.foot)
    doc.anchor(title)
    doc.paragraph(text(title), "h1")
    doc.paragraph(markup("{name}, {date}.{commander} No. is the number a counter prints when "
                         "its ships' names do not fit it. Strength in parentheses is a "
                         "carrier's damage strength and air capacity; the half side is what a "
                         "CA, CL, DD or CVE shows once its hits reach half its strength (half "
                         "rounded {round}).", name=d.scenario.name, date=str(d.scenario.date),
                         round=tables.half_round,
                         # Force by force when the forces name theirs.
                         commander=f" Commander: {source.commander}." if source.commander
                         and not any(f.commander for f in source.forces) else ""), "body")
    doc.paragraph(text(DERIVED), "body")
    widths = [12 * MM, 10 * MM, 100 * MM, 15 * MM, 10 * MM, 12 * MM, 21 * MM]
    header = [["No.", "Type", "Ships", "Strength", "AA", "Move", "Half side"]]
    for force in source.forces:
        mine = [v for v in views if v.force == force.name]
        where = "; ".join(p for p in (f"starts at {force.base}" if force.base else "",
                                      f"commander: {force.commander}" if force.commander
                                      else "") if p)
        doc.space(2)
        doc.paragraph(markup("{name}{where}", name=force.name,
                             where=f" ({where})" if where else ""), "h2")
        rows = []
        for view in mine:
            half = (f"{strength_text(view, tables.half_of(view.strength))} / "
                    f"{tables.half_aa_of(view.aa)}" if view.half else "-")
            ships = view.titled + (f" (x{view.count})" if view.count > 1 else "")
            rows.append([str(view.number), view.type, ships, strength_text(view, view.strength),
                         str(view.aa), str(view.move), half])
        doc.grid(Grid(widths, header, rows, aligned(0, 7), wrap=frozenset({2})))
        for view in mine:
            if view.note:
                doc.paragraph(markup("No. {n}: {note}", n=view.number, note=view.note), "small")
    if source.left_out:
        doc.space(2)
        doc.paragraph("Ships of the date without a counter", "h2")
        for line in source.left_out:
            doc.paragraph(markup("• {line}", line=line), "small")
    if d.scenario.notes:
        doc.space(2)
        doc.paragraph("Notes", "h2")
        doc.paragraph(text(d.scenario.notes), "small")
    return doc.component(f"oob:{side}", title, f"{side.upper()}-OOB-")


# -- markers and manifest --------------------------------------------------------------------


def marker_pieces(side: str, side_name: str, ctx: Context[Derived]) -> list[Piece]:
    """Damage hits, Task Force and cargo markers for one side."""
    d = ctx.data
    tables: NavalTables = d.tables
    faces = d.faces
    fitter = LabelFitter()
    pieces = []
    every = [v for views in d.oob.counters.values() for v in views]
    for front in hit_fronts(tables, every):
        pieces.append(face_piece(faces["hit"], {"hits": front, "word": "HITS"},
                                 f"hit.{side}.{front}", f"{front}/{front + 1} hits",
                                 tables.markers.hits_each, "hit", fitter))
    for number in range(1, tables.markers.task_forces + 1):
        pieces.append(face_piece(faces["tf"], {"number": number, "side": side_name},
                                 f"tf.{side}.{number}", f"TF {number}", 1, "tf", fitter))
    for front in tables.markers.cargo_fronts:
        pieces.append(face_piece(faces["cargo"], {"amount": front, "what": "RE"},
                                 f"cargo.{side}.{front}", f"cargo {front}/{front + 1} RE",
                                 tables.markers.cargo_each, "cargo", fitter))
    return pieces


def _manifest_rows(ctx: Context[Derived], side: str) -> list[list[str]]:
    d = ctx.data
    tables: NavalTables = d.tables
    rows: list[list[str]] = []
    views: list[CounterView] = d.oob.counters[side]
    by_type = Tally[str]()
    for view in views:
        by_type[view.type] += view.count
    for kind in tables.types:
        if by_type[kind]:
            sides = "2 (half back)" if tables.types[kind].half else "1"
            rows.append([ctx.sides[side], f"{kind} counters", sides, str(by_type[kind])])
    m = tables.markers
    fronts = hit_fronts(tables, [v for vs in d.oob.counters.values() for v in vs])
    hit_kinds = ", ".join(f"{f}/{f + 1}" for f in fronts)
    rows.append([ctx.sides[side], f"damage hits ({hit_kinds})", "2",
                 str(m.hits_each * len(fronts))])
    rows.append([ctx.sides[side], f"Task Force markers (TF 1-{m.task_forces})",
                 "2 (unknown / known)", str(m.task_forces)])
    rows.append([ctx.sides[side], f"cargo ({', '.join(f'{f}/{f + 1} RE' for f in m.cargo_fronts)})",
                 "2", str(m.cargo_each * len(m.cargo_fronts))])
    return rows


@COMPONENTS("manifest")
def manifest(ctx: Context[Derived], side: str | None) -> Component:
    """How many pieces of each kind a side's sheets hold (for inventory at a club)."""
    d = ctx.data
    sides = [side] if side is not None else list(ctx.sides)
    title = "Counter manifest" + (f": {ctx.sides[side]}" if side else "")
    doc = CanvasDoc(ctx.paper, title, d.foot)
    doc.anchor(title)
    doc.paragraph(text(title), "h1")
    doc.paragraph(markup("Counters are {size:.2f} mm ({inches:.3f} in) square. Count each "
                         "kind after cutting; a club's box should hold these numbers. The "
                         "damage-hit markers count up to one less than the strongest "
                         "counter's strength; the marker mix is the tables' own{default}.",
                         size=d.counter_size / MM, inches=d.counter_size / 72,
                         default=label(d.tables.is_default("markers"))), "body")
    rows: list[list[str]] = []
    total = 0
    for one in sides:
        side_rows = _manifest_rows(ctx, one)
        rows.extend(side_rows)
        total += sum(int(r[3]) for r in side_rows)
    rows.append(["All", "pieces", "", str(total)])
    doc.grid(Grid([50 * MM, 80 * MM, 30 * MM, 20 * MM],
                  [["Side", "Piece", "Sides printed", "How many"]], rows, aligned(2, 4)))
    doc.space(3)
    doc.paragraph("Ship counters, piece by piece", "h2")
    detail = []
    for one in sides:
        for view in d.oob.counters[one]:
            detail.append([ctx.sides[one], str(view.number), view.type, view.titled,
                           str(view.count)])
    doc.grid(Grid([35 * MM, 12 * MM, 12 * MM, 101 * MM, 20 * MM],
                  [["Side", "No.", "Type", "Ships", "How many"]],
                  detail, aligned(3, 5), wrap=frozenset({3})))
    key = f"manifest:{side}" if side else "manifest"
    return doc.component(key, title, f"{(side or 'all').upper()}-Manifest-")
