"""The set-up map: the table at a stated scale, its land, and every group where it starts.

Shared by every tactical ruleset: a ruleset hands over its scenario's ``setup:`` block
(``generator.data.setup``), the scale it is played at, its sides and its ships' lengths.
The referee's map shows every group; a side's map shows its own groups and those the
block says it knows. Under the map, the text a referee lays the table out from: each
group's distance from the west and south edges, its course, speed and formation, and the
starting ranges, all computed from the same ``placements`` the map draws.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.safetext import text as safe
from generator.core.scales import Scale
from generator.core.units import CM, MM
from generator.data.setup import (
    GroupPlace,
    Setup,
    placements,
    starting_ranges,
    table_size,
    unit_vector,
)
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.layout import Paper

MAP_SCALES = (100, 200, 250, 500, 1000, 1500, 2000, 2500, 3000, 4000, 5000, 7500, 10_000,
              15_000, 20_000, 25_000, 50_000, 100_000)
"""Yards of sea per cm of map the map may be drawn at (round numbers a referee can use)."""
SIDE_COLOURS = (colors.Color(0.72, 0.1, 0.1), colors.Color(0.1, 0.25, 0.6),
                colors.Color(0.1, 0.45, 0.2), colors.Color(0.45, 0.2, 0.55))
WATER = colors.Color(0.9, 0.95, 1.0)
LAND = colors.Color(0.86, 0.8, 0.64)
GRID = colors.Color(0.68, 0.76, 0.86)
SYMBOL_MM = (2.6, 1.1)
"""A ship's symbol (length, beam) when her outline at the map's scale would be smaller."""
MARGIN = 9 * MM
"""Room left of and under the table for the grid's numbers."""
TEXT_ROOM = 52 * MM
"""Room kept under the map for the scale bars, the legend and the ranges (plus a line or
two per group, added where the map is drawn)."""


@dataclass(frozen=True)
class MapFrame:
    """Where the table lies on the page: its south-west corner and points per yard."""

    x: float
    y: float
    yards_per_cm: int

    @property
    def points_per_yard(self) -> float:
        """Points of map per yard of sea."""
        return CM / self.yards_per_cm

    def at(self, scale: Scale, x_units: float, y_units: float) -> tuple[float, float]:
        """Page point of a table position in table units."""
        k = scale.yards_per_unit * self.points_per_yard
        return self.x + x_units * k, self.y + y_units * k


def map_yards_per_cm(width_yd: float, depth_yd: float, room_w: float, room_h: float) -> int:
    """The largest round map scale at which the whole table fits the room (in points)."""
    for yards in MAP_SCALES:
        if width_yd / yards * CM <= room_w and depth_yd / yards * CM <= room_h:
            return yards
    return MAP_SCALES[-1]


def _grid_step(size: float, unit: str) -> float:
    """Grid spacing in table units: round, and at most 20 squares across the longer side."""
    steps = (1, 2, 5, 10, 20, 25, 50, 100) if unit == "cm" else (1, 2, 3, 6, 12, 24, 48)
    return next((s for s in steps if size / s <= 20), steps[-1])


def _bar_units(width_units: float, unit: str) -> float:
    """A round length for the table-units scale bar, about a third of the table."""
    steps = (1, 2, 5, 10, 20, 25, 50, 100, 200) if unit == "cm" else (1, 2, 3, 6, 12, 24, 48)
    return max((s for s in steps if s <= width_units / 3), default=steps[0])


def yards_text(yards: float) -> str:
    """Yards with a thousands comma, rounded to 10 yd."""
    return f"{round(yards, -1):,.0f} yd"


def units_text(units: float, unit: str) -> str:
    """Table units to 0.1."""
    return f"{units:,.1f}".rstrip("0").rstrip(".") + f" {unit}"


@dataclass
class MapInput:
    """What a ruleset hands the map: its block, scale, sides and ships' lengths."""

    setup: Setup
    scale: Scale
    sides: Mapping[str, str]
    """Side id to the side's name, in the scenario's order."""
    lengths_ft: Mapping[str, float]
    """Ship name to her length in feet (ships without one are drawn as symbols)."""


def render_setup_map(data: MapInput, viewer: str | None, paper: Paper, title: str,
                     footer: str, key: str, label: str = "Map-",
                     master: str | None = None) -> Component:
    """One page: the table at a stated scale, then how to lay it out.

    Args:
        data: The block, scale, sides and lengths.
        viewer: The side whose packet this is (None: the referee's, showing every group).
        paper: Paper size.
        title: The page's heading (e.g. 'Set-up map: Battle of Savo Island').
        footer: Footer text.
        key: Component key.
        label: Page-label prefix.
        master: What the rules call the game master (``referee``, ``umpire``).

    Returns:
        The component.

    """
    setup, scale = data.setup, data.scale
    doc = CanvasDoc(paper, title, footer)
    doc.anchor("Set-up map")
    doc.paragraph(safe(title), "h1")
    width, depth = table_size(setup, scale)
    width_yd, depth_yd = width * scale.yards_per_unit, depth * scale.yards_per_unit
    room_w = doc.box.width - MARGIN - 2 * MM
    groups = [g for g in placements(setup, scale) if g.seen_by(viewer)]
    # Room under the map for the bars, the legend and a paragraph per group and the ranges.
    text_room = TEXT_ROOM + 7 * MM * len(groups)
    room_h = max(doc.room - text_room - 14 * MM, doc.room / 3)
    frame_scale = map_yards_per_cm(width_yd, depth_yd, room_w, room_h)
    known = (f"the {master or 'referee'}'s map: every group" if viewer is None else
             "your own groups, and only the enemy groups your side knows of")
    doc.paragraph(
        f"Map scale <b>1 cm = {frame_scale:,} yd</b>. The table is "
        f"<b>{units_text(width, scale.unit)} × {units_text(depth, scale.unit)}</b> "
        f"({yards_text(width_yd)} × "
        f"{yards_text(depth_yd)}) at {safe(scale.describe())}; north is the table's top "
        f"edge. This is {known}.")
    doc.space(3)
    colour = {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(data.sides)}
    map_w, map_h = width_yd / frame_scale * CM, depth_yd / frame_scale * CM
    frame = MapFrame(doc.box.x + MARGIN + (room_w - map_w) / 2, doc.y - 6 * MM - map_h,
                     frame_scale)
    c = doc.canvas
    _table(c, frame, scale, width, depth)
    # Land, rings and arcs stop at the table's edge; names and arrows may run past it.
    c.saveState()
    edge = c.beginPath()
    edge.rect(frame.x, frame.y, map_w, map_h)
    c.clipPath(edge, stroke=0, fill=0)
    _land(c, frame, setup)
    _places(c, frame, setup, True, width_yd)
    for group in groups:
        _arcs(c, frame, scale, setup, group)
    c.restoreState()
    _land_names(c, frame, setup)
    _places(c, frame, setup, False, width_yd)
    symbols = False
    taken: list[Box] = []
    for group in groups:
        symbols |= _group(c, frame, scale, group, colour[group.side], data.lengths_ft, taken)
    for group in groups:
        _name(c, frame, scale, group, colour[group.side], taken,
              (doc.box.x, doc.box.x + doc.box.width))
    _compass(c, frame.x + map_w, frame.y + map_h + 1.5 * MM)
    doc.y = frame.y - MARGIN
    _scale_bars(doc, frame, scale, width)
    _legend(doc, data, groups, viewer, colour, symbols)
    _layout_text(doc, data, groups, viewer)
    return doc.component(key, "Set-up map", label)


def _table(c: Canvas, frame: MapFrame, scale: Scale, width: float, depth: float) -> None:
    """Water, the grid in table units with its numbers, and the table's edge."""
    x1, y1 = frame.at(scale, width, depth)
    c.setFillColor(WATER)
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.8)
    c.rect(frame.x, frame.y, x1 - frame.x, y1 - frame.y, stroke=1, fill=1)
    step = _grid_step(max(width, depth), scale.unit)
    c.setStrokeColor(GRID)
    c.setLineWidth(0.3)
    c.setFont(fonts.NARROW, 7)
    c.setFillColor(colors.Color(0.3, 0.3, 0.3))
    n = 0
    while n * step <= width + 1e-9:
        x, _ = frame.at(scale, n * step, 0)
        if 0 < n * step < width:
            c.line(x, frame.y, x, y1)
        c.drawCentredString(x, frame.y - 3 * MM, f"{n * step:g}")
        n += 1
    n = 0
    while n * step <= depth + 1e-9:
        _, y = frame.at(scale, 0, n * step)
        if 0 < n * step < depth:
            c.line(frame.x, y, x1, y)
        c.drawRightString(frame.x - 1 * MM, y - 1 * MM, f"{n * step:g}")
        n += 1
    c.drawString(x1 + 3.5 * MM, frame.y - 3 * MM, scale.unit)


def _land(c: Canvas, frame: MapFrame, setup: Setup) -> None:
    """Islands filled, shoals dashed, each named at its middle."""
    k = frame.points_per_yard
    for land in setup.land:
        points = [(frame.x + setup.yards(x) * k, frame.y + setup.yards(y) * k)
                  for x, y in land.outline]
        path = c.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
        c.setLineWidth(0.6)
        c.setStrokeColor(colors.Color(0.45, 0.35, 0.2))
        if land.kind == "shoal":
            c.setDash(2, 1.5)
            c.setFillColor(colors.Color(0.8, 0.88, 0.9))
        else:
            c.setFillColor(LAND)
        c.drawPath(path, stroke=1, fill=1)
        c.setDash()


def _land_names(c: Canvas, frame: MapFrame, setup: Setup) -> None:
    """Each land's name, at its ``label_at`` or the middle of its corners (not clipped)."""
    k = frame.points_per_yard
    c.setFillColor(colors.Color(0.3, 0.22, 0.1))
    c.setFont(fonts.NARROW_BOLD, 7.5)
    for land in setup.land:
        if not land.name:
            continue
        x, y = land.label_at or (sum(p[0] for p in land.outline) / len(land.outline),
                                 sum(p[1] for p in land.outline) / len(land.outline))
        c.drawCentredString(frame.x + setup.yards(x) * k, frame.y + setup.yards(y) * k - 1 * MM,
                            land.name)


def _places(c: Canvas, frame: MapFrame, setup: Setup, rings: bool, width_yd: float) -> None:
    """Named points: their rings (``rings``, drawn clipped), or their marks, arrows, names."""
    k = frame.points_per_yard
    c.setStrokeColor(colors.Color(0.2, 0.2, 0.2))
    c.setFillColor(colors.Color(0.2, 0.2, 0.2))
    c.setLineWidth(0.6)
    for place in setup.places:
        x = frame.x + setup.yards(place.at[0]) * k
        y = frame.y + setup.yards(place.at[1]) * k
        if rings:
            if place.radius:
                c.setDash(3, 2)
                c.circle(x, y, setup.yards(place.radius) * k, stroke=1, fill=0)
                c.setDash()
            continue
        if not place.radius:  # a ring's middle is usually an island, already named
            c.circle(x, y, 0.7 * MM, stroke=1, fill=1)
        anchor_x, anchor_y = x + 1.5 * MM, y + 1 * MM
        if place.radius:
            # The ring's name sits on the ring, south-east of its middle, off the island.
            r = setup.yards(place.radius) * k
            anchor_x, anchor_y = x + r * 0.5 + 1 * MM, y - r * 0.866 + 1 * MM
        west_half = setup.yards(place.at[0]) * 2 <= width_yd
        if place.pointer is not None:
            dx, dy = unit_vector(place.pointer)
            tip = (x + 10 * MM * dx, y + 10 * MM * dy)
            _arrow(c, (x, y), tip, 0.8)
            # A pointer's name reads on the table: to the right of a point in its west half.
            anchor_x, anchor_y = x + (1.5 * MM if west_half else -1.5 * MM), y + 1.5 * MM
        c.setFont(fonts.NARROW, 7)
        if anchor_x < x:
            c.drawRightString(anchor_x, anchor_y, place.name)
        else:
            c.drawString(anchor_x, anchor_y, place.name)


def _arrow(c: Canvas, start: tuple[float, float], tip: tuple[float, float],
           width: float) -> None:
    """A line with a filled head at ``tip``."""
    c.setLineWidth(width)
    c.line(*start, *tip)
    angle = math.atan2(tip[1] - start[1], tip[0] - start[0])
    head = 1.6 * MM
    left = (tip[0] - head * math.cos(angle - 0.45), tip[1] - head * math.sin(angle - 0.45))
    right = (tip[0] - head * math.cos(angle + 0.45), tip[1] - head * math.sin(angle + 0.45))
    path = c.beginPath()
    path.moveTo(*tip)
    path.lineTo(*left)
    path.lineTo(*right)
    path.close()
    c.drawPath(path, stroke=0, fill=1)


def hull_points(cx: float, cy: float, heading: float, length: float,
                beam: float) -> list[tuple[float, float]]:
    """A ship's outline, pointed at both ends (so its middle is its box's middle)."""
    ex, ey = unit_vector(heading)
    sx, sy = ey, -ex  # to starboard
    shape = ((0.5, 0), (0.2, 0.5), (-0.3, 0.5), (-0.5, 0), (-0.3, -0.5), (0.2, -0.5))
    return [(cx + a * length * ex + b * beam * sx, cy + a * length * ey + b * beam * sy)
            for a, b in shape]


def _arcs(c: Canvas, frame: MapFrame, scale: Scale, setup: Setup, group: GroupPlace) -> None:
    """A group's sighting or radar arcs around its leader, labelled."""
    lead = frame.at(scale, group.ships[0].x, group.ships[0].y)
    c.setStrokeColor(colors.Color(0.3, 0.3, 0.3))
    c.setFillColor(colors.Color(0.3, 0.3, 0.3))
    for arc in next((g.arcs for g in setup.groups if g.name == group.name), []):
        radius = setup.yards(arc.radius) * frame.points_per_yard
        c.setDash(1, 1.5)
        c.setLineWidth(0.5)
        if arc.left == arc.right:
            c.circle(*lead, radius, stroke=1, fill=0)
        else:
            # ReportLab's arcs run anticlockwise from east; a compass runs clockwise from north.
            start = 90 - arc.right
            extent = (arc.right - arc.left) % 360
            c.arc(lead[0] - radius, lead[1] - radius, lead[0] + radius, lead[1] + radius,
                  start, extent)
        c.setDash()
        c.setFont(fonts.NARROW, 7)
        # On the arc's middle bearing, just inside it.
        middle = arc.left + ((arc.right - arc.left) % 360 or 360) / 2
        mx, my = unit_vector(middle)
        c.drawCentredString(lead[0] + (radius - 3 * MM) * mx, lead[1] + (radius - 3 * MM) * my,
                            arc.label)


Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 on the page."""


def _group(c: Canvas, frame: MapFrame, scale: Scale, group: GroupPlace,
           colour: colors.Color, lengths: Mapping[str, float], taken: list[Box]) -> bool:
    """A group's ships and heading arrow (their boxes added to ``taken``); True for symbols."""
    symbols = False
    step = 0.0
    if len(group.ships) > 1:
        a = frame.at(scale, group.ships[0].x, group.ships[0].y)
        b = frame.at(scale, group.ships[1].x, group.ships[1].y)
        step = math.hypot(b[0] - a[0], b[1] - a[1])
    for ship in group.ships:
        x, y = frame.at(scale, ship.x, ship.y)
        real = lengths.get(ship.name, 0.0) / 3 * frame.points_per_yard
        length, beam = real, real / 8
        if real < SYMBOL_MM[0] * MM:
            symbols = True
            length = SYMBOL_MM[0] * MM if not step else min(SYMBOL_MM[0] * MM, 0.9 * step)
            length = max(length, 1.2 * MM)
            beam = SYMBOL_MM[1] * MM * length / (SYMBOL_MM[0] * MM)
        path = c.beginPath()
        points = hull_points(x, y, ship.heading, length, beam)
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
        c.setFillColor(colour)
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.25)
        c.drawPath(path, stroke=1, fill=1)
    lead = frame.at(scale, group.ships[0].x, group.ships[0].y)
    dx, dy = unit_vector(group.heading)
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    _arrow(c, (lead[0] + 2 * MM * dx, lead[1] + 2 * MM * dy),
           (lead[0] + 9 * MM * dx, lead[1] + 9 * MM * dy), 0.7)
    for ship in group.ships:
        x, y = frame.at(scale, ship.x, ship.y)
        taken.append((x - 1.5 * MM, y - 1.5 * MM, x + 1.5 * MM, y + 1.5 * MM))
    ax, ay = lead[0] + 9 * MM * dx, lead[1] + 9 * MM * dy
    taken.append((min(lead[0], ax), min(lead[1], ay), max(lead[0], ax), max(lead[1], ay)))
    return symbols


def _name(c: Canvas, frame: MapFrame, scale: Scale, group: GroupPlace, colour: colors.Color,
          taken: list[Box], page: tuple[float, float]) -> None:
    """The group's name, course and speed, where it covers no other name, ship or arrow."""
    lead = frame.at(scale, group.ships[0].x, group.ships[0].y)
    dx, dy = unit_vector(group.heading)
    label = f"{group.name} {group.heading:g}° {group.speed_kn:g} kn"
    size = 7.5
    width = c.stringWidth(label, fonts.NARROW_BOLD, size)
    # Beside the leader, away from the arrow first, then the other side, below, above.
    px, py = (-dy, dx) if dx >= 0 else (dy, -dx)
    tries = [(lead[0] + d * px * MM, lead[1] + d * py * MM, px < 0)
             for d in (3, -3, 6, -6)]
    tries += [(lead[0] - width / 2, lead[1] - d * MM, False) for d in (5, -3, 8, -6, 11, -9)]
    best = tries[0]
    for x, y, right in tries:
        x0 = x - width if right else x
        box = (x0, y - 0.5 * MM, x0 + width, y + size * 0.8)
        if x0 < page[0] or box[2] > page[1]:
            continue
        if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                   for b in taken):
            best = (x, y, right)
            break
    x, y, right = best
    x0 = x - width if right else x
    taken.append((x0, y - 0.5 * MM, x0 + width, y + size * 0.8))
    c.setFillColor(colour)
    c.setFont(fonts.NARROW_BOLD, size)
    c.drawString(x0, y, label)


def _compass(c: Canvas, right: float, bottom: float) -> None:
    """North (the table's top edge), above the map's right corner."""
    c.setFillColor(colors.black)
    c.setStrokeColor(colors.black)
    x = right - 3 * MM
    _arrow(c, (x, bottom), (x, bottom + 6 * MM), 0.8)
    c.setFont(fonts.BOLD, 8)
    c.drawRightString(x - 2 * MM, bottom + 2.5 * MM, "N")


def _scale_bars(doc: CanvasDoc, frame: MapFrame, scale: Scale, width: float) -> None:
    """Two bars under the map: a round length of table units, and a round length of yards."""
    c = doc.canvas
    units = _bar_units(width, scale.unit)
    unit_len = units * scale.yards_per_unit * frame.points_per_yard
    yards = frame.yards_per_cm * 5
    yard_len = yards * frame.points_per_yard
    x = frame.x
    for length, parts, left, right in (
            (unit_len, 5 if units % 5 == 0 else int(units) if units <= 6 else 4,
             "0", f"{units:g} {scale.unit} of table"),
            (yard_len, 5, "0", f"{yards:,} yd of sea")):
        y = doc.y - 2.2 * MM
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.5)
        c.setFillColor(colors.white)
        c.rect(x, y, length, 2 * MM, stroke=1, fill=1)
        c.setFillColor(colors.black)
        for i in range(0, parts, 2):
            c.rect(x + i * length / parts, y, length / parts, 2 * MM, stroke=0, fill=1)
        c.setFont(fonts.NARROW, 7)
        c.drawCentredString(x, y - 3 * MM, left)
        c.drawString(x + length + 1.5 * MM, y + 0.3 * MM, right)
        doc.y -= 7 * MM
    doc.space(1)


def _legend(doc: CanvasDoc, data: MapInput, groups: Sequence[GroupPlace], viewer: str | None,
            colour: Mapping[str, colors.Color], symbols: bool) -> None:
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
    doc.paragraph("; ".join(parts) + ".")
    doc.space(1.5)


def _layout_text(doc: CanvasDoc, data: MapInput, groups: Sequence[GroupPlace],
                 viewer: str | None) -> None:
    """Where to put each group, from the west and south edges, and the starting ranges."""
    scale, unit = data.scale, data.scale.unit
    doc.paragraph("Laying out the table", "h2")
    for group in groups:
        lead = group.ships[0]
        spacing = ""
        if len(group.ships) > 1:
            step = math.hypot(group.ships[1].x - lead.x, group.ships[1].y - lead.y)
            how = "in line ahead" if group.formation == "line-ahead" else "in line abreast"
            spacing = (f", {how} {yards_text(step * scale.yards_per_unit)} "
                       f"({units_text(step, unit)}) apart")
        side = "" if viewer else f" ({safe(data.sides[group.side])})"
        # An enemy group a side knows of is a position and a number of ships, not names.
        ships = (', '.join(s.name for s in group.ships) if viewer in (None, group.side) else
                 f"enemy, {len(group.ships)} ship{'s' if len(group.ships) != 1 else ''}")
        doc.paragraph(
            f"<b>{safe(group.name)}</b>{side}: {safe(ships)}. "
            f"Leader {units_text(lead.x, unit)} from the west edge and "
            f"{units_text(lead.y, unit)} from the south edge, course {group.heading:g}°, "
            f"{group.speed_kn:g} kn{spacing}.")
    ranges = starting_ranges(groups, scale)
    doc.space(1)
    if ranges:
        doc.paragraph("<b>Starting ranges</b> (closest ships): " + "; ".join(
            f"{safe(r.first)} to {safe(r.second)} {yards_text(r.yards)} "
            f"({units_text(r.units, unit)})" for r in ranges) + ".")
    elif viewer is not None:
        doc.paragraph("<b>Starting ranges</b>: no enemy group is known to you at the start.")


def scenario_map(data: MapInput, arg: str | None, paper: Paper, scenario: str,
                 footer: str) -> Component:
    """A packet's set-up map for the recipe's ``setup-map:ARG``.

    Args:
        data: The block, scale, sides and lengths.
        arg: A side id (that side's map) or the game master's word, ``referee`` or
            ``umpire`` (every group).
        paper: Paper size.
        scenario: The scenario's name.
        footer: Footer text, without the reader.

    Returns:
        The component, keyed ``setup-map:ARG``.

    """
    viewer = arg if arg in data.sides else None
    reader = data.sides[viewer] if viewer else (arg or "referee")
    return render_setup_map(data, viewer, paper, f"Set-up map: {scenario}",
                            f"{footer} · {reader}", f"setup-map:{arg}" if arg else "setup-map",
                            f"{viewer.upper()}-Map-" if viewer else "Map-",
                            master=None if viewer else reader)
