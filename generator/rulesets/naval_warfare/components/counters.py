"""Counters: ship units with computed damaged backs, Air Points, markers, TFs and flags.

Every counter is drawn from ``faces/counters.yaml`` at the campaign's counter size and
imposed through the shared engine. Quantities are the team's balance plus the spares the
data gives; nothing here is counted by hand.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.safetext import markup
from generator.core.units import MM
from generator.kit.seam import Context, Rendered, sheet_component
from generator.pages.autofit import LabelFitter
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pieces import faces
from generator.pieces.faces import FaceField, FaceLayout
from generator.pieces.pieces import Piece
from generator.pieces.sprue import user_or_bundled
from generator.rulesets.naval_warfare.registry import COMPONENTS

if TYPE_CHECKING:
    from generator.rulesets.naval_warfare import Derived
    from generator.rulesets.naval_warfare.campaign import CounterMix
    from generator.rulesets.naval_warfare.schema import NationForces, Team
    from generator.rulesets.naval_warfare.units import UnitType

FOLDER = Path(__file__).parent.parent


@functools.lru_cache(maxsize=8)
def layouts(size: float) -> dict[str, FaceLayout]:
    """The counter faces scaled to ``size`` points square (drawn at 5/8 in)."""
    drawn = faces.load_faces(FOLDER / "faces" / "counters.yaml",
                             "naval_warfare/faces/counters.yaml")
    return {name: scaled(layout, size) for name, layout in drawn.items()}


def scaled(layout: FaceLayout, size: float) -> FaceLayout:
    """A layout redrawn at ``size`` square, every box scaled inside the same safe zone.

    The safe zone stays as wide as it is (labels keep 1 mm inside the cut at any size);
    what lies inside it grows or shrinks, type sizes with it.
    """
    width, _ = layout.size
    safe = layout.safe
    k = (size - 2 * safe) / (width - 2 * safe)

    def move(f: FaceField) -> FaceField:
        # Text keeps its 1 mm safe zone; an icon may reach the cut, so it scales with
        # the whole piece.
        origin = safe if f.text is not None else 0.0
        kk = k if f.text is not None else size / width
        return f.model_copy(update={
            "x": origin + (f.x - origin) * kk, "y": origin + (f.y - origin) * kk,
            "width": f.width * kk, "height": f.height * kk,
            "font_size": f.font_size * k, "floor": min(f.floor, f.font_size * k),
            "radius": f.radius * kk})

    back = layout.back
    if back is not None:
        back = back.model_copy(update={"add": [move(f) for f in back.add]})
    return layout.model_copy(update={"size": (size, size),
                                     "fields": [move(f) for f in layout.fields],
                                     "back": back})


def range_text(unit: UnitType, nation: NationForces) -> str:
    """The range line of an Air Point counter (a nation's own range where it differs)."""
    reach = nation.ranges.get(unit.id, unit.range)
    later = f", later {unit.later_range}" if unit.later_range is not None else ""
    if reach != unit.range:
        # The nation's own figure is for land-based air (Japan's 1); a carrier's Air
        # Point still fights in its carrier's sea area.
        return f"range {unit.range}, land {reach}{later}"
    return f"range {reach}{later}"


def nation_pieces(d: Derived, nation: NationForces, fitter: LabelFitter) -> list[Piece]:
    """One nation's unit, Air Point, LSP, Tonnage Point and Garrison counters."""
    assert d.campaign is not None
    face = layouts(d.campaign.counter_size)
    mix = d.mix
    pieces: list[Piece] = []
    for unit in d.units.values():
        count = nation.units.get(unit.id, 0) + nation.spares.get(unit.id, 0)
        if not count:
            continue
        values: dict[str, str | int] = {"nation": nation.code, "code": unit.code or unit.id,
                                        "fleet": unit.fleet, "attack": unit.attack,
                                        "defence": unit.defence, "fill": nation.colour}
        if unit.kind == "air":
            values["range"] = range_text(unit, nation)
        pieces.append(faces.face_piece(face["air" if unit.kind == "air" else "unit"], values,
                                       f"{unit.kind}.{nation.id}.{unit.id}",
                                       f"{nation.name} {unit.name}", count,
                                       "air" if unit.kind == "air" else "unit", fitter))
    marker = face["marker"]

    def add(kind: str, title: str, value: str, note: str, count: int) -> None:
        if count:
            pieces.append(faces.face_piece(marker, {"nation": nation.code, "title": title,
                                                    "value": value, "note": note,
                                                    "fill": nation.colour},
                                           f"{kind}.{nation.id}", f"{nation.name} {title} {value}",
                                           count, "marker", fitter))

    add("lsp", "LSP", "1", "logistic support", nation.lsp + mix.lsp_spares if nation.lsp
        or nation.units else 0)
    for count, value in tonnage_counters(nation.tonnage, mix):
        add(f"tonnage-{value}", "Tonnage", str(value), "Tonnage Points", count)
    add("garrison", "Garrison", f"CV {mix.garrison_cv}", "1 manpower point", nation.garrisons)
    return pieces


def tonnage_counters(tonnage: int, mix: CounterMix) -> list[tuple[int, int]]:
    """(count, value) of Tonnage Point counters making up ``tonnage``, with spares.

    The largest denomination makes up the bulk; every smaller one gets one counter more
    than the remainder needs (for change), and the smallest the spares besides.
    """
    if not tonnage:
        return []
    values = sorted(mix.tonnage_denominations, reverse=True)
    out = []
    left = tonnage
    for i, value in enumerate(values):
        count = left // value
        left -= count * value
        if i:
            count += 1
        if i == len(values) - 1:
            count += mix.tonnage_spares
        out.append((count, value))
    return out


def team_pieces(d: Derived, team: Team, fitter: LabelFitter) -> list[Piece]:
    """A team's TF counters, Fleet Train markers, NOF and MOF flags."""
    assert d.campaign is not None
    face = layouts(d.campaign.counter_size)
    mix = d.mix
    lead = d.nations[team.nations[0]]
    pieces: list[Piece] = []
    for number in range(1, team.task_force_cards + 1):
        pieces.append(faces.face_piece(face["marker"], {
            "nation": lead.code, "title": "TF", "value": str(number),
            "note": "Task Force", "fill": lead.colour},
            f"tf.{team.id}.{number}", f"{team.name} Task Force {number}", 1, "tf", fitter))
    # A Fleet Train is a fleet base that moves: a marker shows where it lies.
    if mix.fleet_trains:
        pieces.append(faces.face_piece(face["marker"], {
            "nation": lead.code, "title": "Fleet Train", "value": "FT",
            "note": "mobile fleet base", "fill": lead.colour},
            f"fleet-train.{team.id}", f"{team.name} Fleet Train", mix.fleet_trains, "tf",
            fitter))
    # Any Advantage Card may be spent as an extra flag: one flag counter for each.
    extra = len(d.deal.get(team.id, []))
    for kind, title, note, count in (
            ("nof", "NOF", "naval operations", team.nof + extra + mix.flag_spares),
            ("mof", "MOF", "military offensive", team.mof + mix.flag_spares)):
        if count:
            pieces.append(faces.face_piece(face["flag"], {
                "nation": lead.code, "title": title, "note": note, "fill": lead.colour},
                f"{kind}.{team.id}", f"{team.name} {title}", count, "flag", fitter))
    return pieces


@COMPONENTS("counters")
def counters(ctx: Context[Derived], team: str | None) -> Rendered:
    """One team's counter sheets, or ('control') those of the nations no team plays."""
    from generator.rulesets.naval_warfare import CONTROL

    d: Derived = ctx.data
    assert d.campaign is not None and team is not None
    fitter = LabelFitter()
    pieces: list[Piece] = []
    if team == CONTROL:
        kept = [n for n in d.nations.values() if d.team_of(n.id) is None]
        for nation in kept:
            pieces += nation_pieces(d, nation, fitter)
        title = "Counters: nations kept by game control"
    else:
        found = d.teams[team]
        for nation in d.team_nations(team):
            pieces += nation_pieces(d, nation, fitter)
        pieces += team_pieces(d, found, fitter)
        title = f"Counters: {found.name}"
    if not pieces:
        doc = CanvasDoc(ctx.paper, title, d.foot)
        doc.paragraph(markup("{title}: none.", title=title), "body")
        pdf, pages = doc.finish()
        return Rendered(Component(f"counters:{team}", title, f"{team.upper()}-Counters-", pdf,
                                  pages))
    sprue = user_or_bundled(ctx.options.sprue, FOLDER / "sprues" / "counters.yaml",
                            "naval_warfare/sprues/counters.yaml")
    size_mm = d.campaign.counter_size / MM
    return sheet_component(ctx, pieces, sprue, f"counters:{team}", title,
                           f"{team.upper()}-Counters-",
                           f"{d.foot} · counters {size_mm:.1f} mm")
