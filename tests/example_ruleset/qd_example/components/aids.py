"""The reference card, the turn track and the salvo worksheet, built from the tables."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import TYPE_CHECKING

from generator.aids.boardaids import BoardAids, HexSpec, TrackSpec, render_board_aids
from generator.core.safetext import markup
from generator.core.units import MM
from generator.kit.seam import Context
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.rules.defaults import label
from generator.rules.dice import percent
from generator.rules.dietable import die_grid
from qd_example.components import COMPONENTS
from qd_example.gunnery import salvo

if TYPE_CHECKING:
    from qd_example.ruleset import Derived


@COMPONENTS("reference")
def reference(ctx: Context[Derived], arg: str | None) -> Component:
    """Range bands, damage and the critical table: every number from the tables in force."""
    d = ctx.data
    t = d.tables
    doc = CanvasDoc(ctx.paper, "Reference card", d.foot)
    doc.anchor("Reference card")
    doc.paragraph("Example Skirmish reference card", "h1")
    doc.section("Firing", markup(
        "Roll one d6 per gun; each die at or above the band's score is a hit. The target's "
        "armour stops that many hits. From turn {night} (night) fire only at short range, "
        "and at a ship in smoke only at short range.", night=t.night_from),
        Grid([40 * MM, 40 * MM, 40 * MM], [["Band", "Range (hexes)", "A die hits on"]],
             [[b.id, f"up to {b.reach}", f"{b.to_hit}+"] for b in t.bands], aligned(1, 3)))
    doc.section("Damage", markup(
        "Net hits are hits less armour. One net hit flips an undamaged ship to its damaged "
        "side (guns and armour halved, rounded {round}{default}); {sink} net hits in one "
        "salvo sink it; any net hit sinks a damaged ship.", round=t.half_round,
        default=label(t.is_default("half_round")), sink=t.sink_hits),
        Grid([40 * MM, 80 * MM], [["Net hits", "Undamaged target"]],
             [["0", "no effect"], [f"1 to {t.sink_hits - 1}" if t.sink_hits > 2 else "1",
                                   "flips to its damaged side"],
              [f"{t.sink_hits} or more", "sunk"]], aligned(1, 2)))
    doc.section(t.critical.title, "Roll once for each salvo that does damage but does not "
                "sink, in the target's column. The rows under the table give each "
                "result's exact chance.", die_grid(t.critical, percentages=True))
    doc.space(2)
    doc.grid(Grid([20 * MM, 100 * MM], [["Result", "Meaning"]],
                  [[k, v] for k, v in t.critical.legend.items()], aligned(2, 2)))
    return doc.component("reference", "Reference card", "Ref-")


@COMPONENTS("track")
def track(ctx: Context[Derived], arg: str | None) -> Component:
    """The turn track, night turns marked, cut out to lay beside the map."""
    d = ctx.data
    t = d.tables
    spec = TrackSpec.model_validate({"label": "Turns", "first": 1, "last": t.turns, "box": "20mm",
                                     "notes": {n: "night" for n in range(t.night_from,
                                                                         t.turns + 1)}})
    aids = BoardAids(kind="board-aids", title="Turn track", hexes=None, tracks=[spec],
                     sea=None)
    rendered = render_board_aids(aids, ctx.paper, d.foot, key="track", label="Track-")
    return dataclasses.replace(rendered.component, cut_out=True)


@COMPONENTS("overlay")
def overlay(ctx: Context[Derived], arg: str | None) -> Component:
    """A hex overlay at the scenario's map hex, hairlines for transparency film."""
    d = ctx.data
    assert d.scenario is not None
    spec = HexSpec.model_validate({"size": f"{d.hex / MM:g}mm", "thin": True,
                                   "orientation": d.scenario.hex_orientation})
    aids = BoardAids(kind="board-aids", title="Hex overlay", hexes=spec, tracks=[], sea=None)
    rendered = render_board_aids(aids, ctx.paper, d.foot, key="overlay", label="Overlay-")
    return dataclasses.replace(rendered.component, cut_out=True)


@COMPONENTS("worksheet")
def worksheet(ctx: Context[Derived], arg: str | None) -> Component:
    """A salvo log, and one salvo of the scenario worked out exactly at every band."""
    d = ctx.data
    t = d.tables
    doc = CanvasDoc(ctx.paper, "Salvo worksheet", d.foot)
    doc.anchor("Salvo worksheet")
    doc.paragraph("Salvo worksheet", "h1")
    doc.paragraph("Write each salvo: who fires at whom, the band, the dice, the hits, the "
                  "net hits after armour and what became of the target.", "body")
    doc.grid(Grid([14 * MM, 40 * MM, 40 * MM, 18 * MM, 14 * MM, 14 * MM, 14 * MM, 26 * MM],
                  [["Turn", "Firer", "Target", "Band", "Dice", "Hits", "Net", "Result"]],
                  [[""] * 8 for _ in range(12)], aligned(3, 8)))
    sides = list(d.counters)
    firer, target = d.counters[sides[-1]][0], d.counters[sides[0]][0]
    doc.space(3)
    doc.paragraph(markup("Worked exactly: {firer} ({guns} guns) fires at {target} (armour "
                         "{armour}, a {kind})", firer=firer.name, guns=firer.guns,
                         target=target.name, armour=target.armour, kind=target.type), "h2")
    most = max(firer.guns - target.armour, 0) + 1
    rows = []
    for band in t.bands:
        odds = salvo(t, firer.guns, target.armour, band.id, target.type)
        rows.append([band.id, *[percent(odds.net.get(n, Fraction(0)), 1) for n in range(most)],
                     percent(odds.flipped, 1), percent(odds.sunk, 1)])
    doc.grid(Grid([24 * MM, *[16 * MM] * most, 20 * MM, 20 * MM],
                  [["Band", *[f"{n} net" for n in range(most)], "Flipped", "Sunk"]],
                  rows, aligned(1, most + 3)))
    return doc.component("worksheet", "Salvo worksheet", "Salvo-")
