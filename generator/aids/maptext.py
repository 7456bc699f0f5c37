"""The text under a set-up map: the legend, where each group and place goes, the ranges.

Built as paragraphs before the map is drawn, so the map can be measured to leave them
room on its page (``measure``): a referee reads the ranges beside the map they belong to.
Every number comes from the same ``placements`` the map draws.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.platypus import Paragraph

from generator.core.safetext import text as safe
from generator.core.scales import Scale
from generator.core.units import MM
from generator.data.setup import GroupPlace, Setup, placements, starting_ranges, table_size
from generator.pages.canvasdoc import CanvasDoc

Block = tuple[str, str, float]
"""A paragraph's markup, its style and the space before it in mm."""


@dataclass
class MapInput:
    """What a ruleset hands the map: its block, scale, sides and ships' lengths."""

    setup: Setup
    scale: Scale
    sides: Mapping[str, str]
    """Side id to the side's name, in the scenario's order."""
    lengths_ft: Mapping[str, float]
    """Ship name to her length in feet (ships without one are drawn as symbols)."""


def yards_text(yards: float) -> str:
    """Yards with a thousands comma, rounded to 10 yd."""
    return f"{round(yards, -1):,.0f} yd"


def units_text(units: float, unit: str) -> str:
    """Table units to 0.1."""
    return f"{units:,.1f}".rstrip("0").rstrip(".") + f" {unit}"


def measure(doc: CanvasDoc, blocks: Sequence[Block]) -> float:
    """The height the blocks take across the page, spaces and paragraph gaps included."""
    total = 0.0
    for text, style, before in blocks:
        st = doc.styles[style]
        total += before * MM + Paragraph(text, st).wrap(doc.box.width, 1e6)[1] + st.spaceAfter
    return total


def legend_text(data: MapInput, groups: Sequence[GroupPlace], viewer: str | None,
                colour: Mapping[str, colors.Color], symbols: bool) -> str:
    """Side colours, what the marks mean, wind and light."""
    shown = [s for s in data.sides if viewer is None or s == viewer
             or any(g.side == s for g in groups)]
    # A side's map calls the others "enemy": a side's name may be a ship's (Graf Spee).
    keys = "; ".join(f"<font color='#{colour[s].hexval()[2:]}'><b>"
                     f"{safe(data.sides[s]) if viewer in (None, s) else 'enemy'}</b></font>"
                     for s in shown)
    parts = [f"Ships: {keys}. Each group is drawn from its leading ship, with an arrow on "
             "its course and its speed beside its name"]
    if symbols:
        parts.append("ships too small to draw at this scale are shown as symbols, not to "
                     "scale")
    if data.setup.wind:
        wind = data.setup.wind
        parts.append(f"wind from {wind.from_:g}°"
                     + (f" at {wind.knots:g} kn" if wind.knots is not None else ""))
    if data.setup.light:
        light = data.setup.light
        parts.append(f"{light.source} bearing {light.bearing:g}°"
                     + (f" ({safe(light.note)})" if light.note else ""))
    return "; ".join(parts) + "."


def layout_paragraphs(data: MapInput, groups: Sequence[GroupPlace],
                      viewer: str | None) -> list[Block]:
    """Where to put each group and place, from the west and south edges, and the ranges."""
    scale, unit = data.scale, data.scale.unit
    out: list[Block] = [("Laying out the table", "h2", 0.0)]
    for group in groups:
        lead = group.ships[0]
        spacing = ""
        if len(group.ships) > 1:
            step = math.hypot(group.ships[1].x - lead.x, group.ships[1].y - lead.y)
            how = "in line ahead" if group.formation == "line-ahead" else "in line abreast"
            spacing = (f", {how} {yards_text(step * scale.yards_per_unit)} "
                       f"({units_text(step, unit)}) apart")
        side_name = data.sides[group.side]
        # A side named "Northern Force (5th Fleet)" would print brackets in brackets.
        side = ("" if viewer else f" · {safe(side_name)}" if "(" in side_name else
                f" ({safe(side_name)})")
        # An enemy group a side knows of is a position and a number of ships, not names.
        ships = (', '.join(s.name for s in group.ships) if viewer in (None, group.side) else
                 f"enemy, {len(group.ships)} ship{'s' if len(group.ships) != 1 else ''}")
        out.append((
            f"<b>{safe(group.name)}</b>{side}: {safe(ships)}. "
            f"Leader {units_text(lead.x, unit)} from the west edge and "
            f"{units_text(lead.y, unit)} from the south edge, course {group.heading:g}°, "
            f"{group.speed_kn:g} kn{spacing}.", "small", 0.0))
    setup = data.setup
    places = []
    for place in setup.places:
        x, y = (setup.yards(v) / scale.yards_per_unit for v in place.at)
        ring = (f"a ring of {yards_text(setup.yards(place.radius))} "
                f"({units_text(setup.yards(place.radius) / scale.yards_per_unit, unit)})"
                " round the point " if place.radius else "")
        arrow = f", arrow on {place.pointer:g}°" if place.pointer is not None else ""
        places.append(f"{safe(place.name)}: {ring}{units_text(x, unit)} from the west edge "
                      f"and {units_text(y, unit)} from the south edge{arrow}")
    if places:
        # What the victory conditions measure from, placed as the groups are.
        out.append(("<b>Places</b>: " + "; ".join(places) + ".", "small", 1.0))
    ranges = starting_ranges(groups, scale)
    if ranges:
        out.append(("<b>Starting ranges</b> (closest ships): " + "; ".join(
            f"{safe(r.first)} to {safe(r.second)} {yards_text(r.yards)} "
            f"({units_text(r.units, unit)})" for r in ranges) + ".", "small", 1.0))
    elif viewer is not None:
        out.append(("<b>Starting ranges</b>: no enemy group is known to you at the start.",
                    "small", 1.0))
    return out


@dataclass(frozen=True)
class TableFacts:
    """What a briefing says of the table: its size and the starting ranges its reader knows.

    Plain text (a briefing's template escapes it), from the same ``placements`` the map
    draws, so the briefing and the map cannot disagree.
    """

    size: str
    """``180 cm × 135 cm (60,000 yd × 45,000 yd)``."""
    ranges: list[str]
    """``Japanese column to Southern group 24,160 yd (72.5 cm)``, closest ships, for the
    groups the reader's map shows; empty when it shows no enemy group."""


def table_facts(data: MapInput, viewer: str | None) -> TableFacts:
    """The table's size and the starting ranges the side ``viewer`` (None: referee) knows."""
    scale, unit = data.scale, data.scale.unit
    width, depth = table_size(data.setup, scale)
    size = (f"{units_text(width, unit)} × {units_text(depth, unit)} "
            f"({yards_text(width * scale.yards_per_unit)} × "
            f"{yards_text(depth * scale.yards_per_unit)})")
    groups = [g for g in placements(data.setup, scale) if g.seen_by(viewer)]
    ranges = [f"{r.first} to {r.second} {yards_text(r.yards)} ({units_text(r.units, unit)})"
              for r in starting_ranges(groups, scale)]
    return TableFacts(size, ranges)
