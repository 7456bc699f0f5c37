"""The set-up map: the table at a stated scale, its land, and every group where it starts.

Shared by every tactical ruleset: a ruleset hands over its scenario's ``setup:`` block
(``generator.data.setup``), the scale it is played at, its sides and its ships' lengths.
The referee's map shows every group; a side's map shows its own groups and those the
block says it knows. Under the map, the text a referee lays the table out from: each
group's distance from the west and south edges, its course, speed and formation, each
place, and the starting ranges, all computed from the same ``placements`` the map draws
(``generator.aids.maptext``, measured first so the map leaves it room on the page). Every
mark is recorded as it is drawn and the names are placed last, clear of all of them
(``generator.aids.maplabels``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.aids.maplabels import AROUND, CENTRED, LabelPlacer, Request, place_and_draw
from generator.aids.maptext import MapInput as MapInput  # the rulesets' import, kept here
from generator.aids.maptext import (
    layout_paragraphs,
    legend_text,
    measure,
    units_text,
    yards_text,
)
from generator.core import fonts
from generator.core.safetext import text as safe
from generator.core.scales import Scale
from generator.core.units import CM, MM
from generator.data.setup import (
    GroupPlace,
    Setup,
    placements,
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
MARK = colors.Color(0.2, 0.2, 0.2)
"""Places, rings, arcs and their names."""
LAND_TEXT = colors.Color(0.3, 0.22, 0.1)
DOT = 0.7 * MM
"""A named point's dot (radius)."""
SYMBOL_MM = (2.6, 1.1)
"""A ship's symbol (length, beam) when her outline at the map's scale would be smaller."""
MARGIN = 9 * MM
"""Room left of and under the table for the grid's numbers."""
MAP_TOP = 6 * MM
"""Room over the table for the north arrow."""
BARS = 15 * MM
"""The two scale bars and the space under them."""
LEGEND_SPACE = 1.5 * MM
PARAGRAPH_ROOM = 12 * MM
"""The scale paragraph over the map (two lines) and a little to spare."""


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
    colour = {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(data.sides)}
    # Room under the map for the grid's numbers, the bars and the text, measured (with the
    # longest legend: whether ships are symbols depends on the scale being chosen).
    below = layout_paragraphs(data, groups, viewer)
    legend = [(legend_text(data, groups, viewer, colour, True), "small", 0.0)]
    text_room = MARGIN + BARS + measure(doc, legend) + LEGEND_SPACE + measure(doc, below)
    room_h = max(doc.room - text_room - MAP_TOP - 3 * MM - PARAGRAPH_ROOM, doc.room / 3)
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
    map_w, map_h = width_yd / frame_scale * CM, depth_yd / frame_scale * CM
    frame = MapFrame(doc.box.x + MARGIN + (room_w - map_w) / 2, doc.y - MAP_TOP - map_h,
                     frame_scale)
    c = doc.canvas
    _table(c, frame, scale, width, depth)
    placer = LabelPlacer((frame.x, frame.y, frame.x + map_w, frame.y + map_h))
    # Land, rings and arcs stop at the table's edge; arrows may run past it.
    c.saveState()
    edge = c.beginPath()
    edge.rect(frame.x, frame.y, map_w, map_h)
    c.clipPath(edge, stroke=0, fill=0)
    _land(c, frame, setup, placer)
    _rings(c, frame, setup, placer)
    arc_labels = [r for group in groups for r in _arcs(c, frame, scale, setup, group, placer)]
    c.restoreState()
    place_labels = _places(c, frame, setup, placer)
    symbols = False
    for group in groups:
        symbols |= _group(c, frame, scale, group, colour[group.side], data.lengths_ft, placer)
    # Every mark is recorded: now the names, the groups' first (they matter most).
    place_and_draw(c, placer, [*(_name(frame, scale, g, colour[g.side]) for g in groups),
                               *place_labels, *arc_labels, *_land_names(frame, setup)])
    _compass(c, frame.x + map_w, frame.y + map_h + 1.5 * MM)
    doc.y = frame.y - MARGIN
    _scale_bars(doc, frame, scale, width)
    doc.paragraph(legend_text(data, groups, viewer, colour, symbols))
    doc.space(LEGEND_SPACE / MM)
    for text, style, before in below:
        doc.space(before)
        doc.paragraph(text, style)
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


def _land(c: Canvas, frame: MapFrame, setup: Setup, placer: LabelPlacer) -> None:
    """Islands filled, shoals dashed (their outlines recorded: no name may cross one)."""
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
        placer.polyline(points, closed=True)


def _land_names(frame: MapFrame, setup: Setup) -> list[Request]:
    """Each land's name, centred on its ``label_at`` or the middle of its corners if free."""
    k = frame.points_per_yard
    out = []
    for land in setup.land:
        if not land.name:
            continue
        x, y = land.label_at or (sum(p[0] for p in land.outline) / len(land.outline),
                                 sum(p[1] for p in land.outline) / len(land.outline))
        out.append(Request(land.name, fonts.NARROW_BOLD, 7.5, LAND_TEXT,
                           [(frame.x + setup.yards(x) * k, frame.y + setup.yards(y) * k)],
                           (CENTRED, *AROUND)))
    return out


def _rings(c: Canvas, frame: MapFrame, setup: Setup, placer: LabelPlacer) -> None:
    """Each place's ring (a victory condition's distance), drawn clipped to the table."""
    k = frame.points_per_yard
    c.setStrokeColor(MARK)
    c.setFillColor(MARK)
    c.setLineWidth(0.6)
    for place in setup.places:
        if place.radius:
            centre = (frame.x + setup.yards(place.at[0]) * k,
                      frame.y + setup.yards(place.at[1]) * k)
            c.setDash(3, 2)
            c.circle(*centre, setup.yards(place.radius) * k, stroke=1, fill=0)
            c.setDash()
            placer.circle(centre, setup.yards(place.radius) * k)


def _places(c: Canvas, frame: MapFrame, setup: Setup, placer: LabelPlacer) -> list[Request]:
    """Named points: their marks and pointer arrows drawn, their names to be placed."""
    k = frame.points_per_yard
    c.setStrokeColor(MARK)
    c.setFillColor(MARK)
    c.setLineWidth(0.6)
    out = []
    for place in setup.places:
        x = frame.x + setup.yards(place.at[0]) * k
        y = frame.y + setup.yards(place.at[1]) * k
        anchors: list[tuple[float, float]] = [(x, y)]
        if place.radius:
            # A ring's middle is usually an island, already named: name the ring on its line,
            # south-east first, then round it.
            r = setup.yards(place.radius) * k
            anchors = [(x + r * math.sin(math.radians(b)), y + r * math.cos(math.radians(b)))
                       for b in (135, 225, 45, 315, 160, 200, 110, 250, 70, 290, 20, 340)]
        else:
            c.circle(x, y, DOT, stroke=1, fill=1)
            placer.polygon([(x - DOT, y - DOT), (x + DOT, y - DOT), (x + DOT, y + DOT),
                            (x - DOT, y + DOT)])
        if place.pointer is not None:
            dx, dy = unit_vector(place.pointer)
            tip = (x + 10 * MM * dx, y + 10 * MM * dy)
            _arrow(c, (x, y), tip, 0.8, placer)
        out.append(Request(place.name, fonts.NARROW, 7, MARK, anchors))
    return out


def _arrow(c: Canvas, start: tuple[float, float], tip: tuple[float, float],
           width: float, placer: LabelPlacer | None = None) -> None:
    """A line with a filled head at ``tip`` (recorded in ``placer`` when given)."""
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
    if placer is not None:
        placer.segment(start, tip)
        placer.polygon([tip, left, right])


def hull_points(cx: float, cy: float, heading: float, length: float,
                beam: float) -> list[tuple[float, float]]:
    """A ship's outline, pointed at both ends (so its middle is its box's middle)."""
    ex, ey = unit_vector(heading)
    sx, sy = ey, -ex  # to starboard
    shape = ((0.5, 0), (0.2, 0.5), (-0.3, 0.5), (-0.5, 0), (-0.3, -0.5), (0.2, -0.5))
    return [(cx + a * length * ex + b * beam * sx, cy + a * length * ey + b * beam * sy)
            for a, b in shape]


def draw_hull(c: Canvas, points: list[tuple[float, float]], fill: colors.Color,
              line_width: float) -> None:
    """Fill a hull outline (``hull_points``) in ``fill`` with a black edge.

    The map's ship and an online table's ship token are the same drawing.
    """
    path = c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    c.setFillColor(fill)
    c.setStrokeColor(colors.black)
    c.setLineWidth(line_width)
    c.drawPath(path, stroke=1, fill=1)


def _arcs(c: Canvas, frame: MapFrame, scale: Scale, setup: Setup, group: GroupPlace,
          placer: LabelPlacer) -> list[Request]:
    """A group's sighting or radar arcs around its leader; their labels to be placed."""
    lead = frame.at(scale, group.ships[0].x, group.ships[0].y)
    c.setStrokeColor(MARK)
    out = []
    for arc in next((g.arcs for g in setup.groups if g.name == group.name), []):
        radius = setup.yards(arc.radius) * frame.points_per_yard
        c.setDash(1, 1.5)
        c.setLineWidth(0.5)
        whole = arc.left == arc.right
        extent = 360.0 if whole else (arc.right - arc.left) % 360
        if whole:
            c.circle(*lead, radius, stroke=1, fill=0)
            placer.circle(lead, radius)
        else:
            # ReportLab's arcs run anticlockwise from east; a compass runs clockwise from north.
            start = 90 - arc.right
            c.arc(lead[0] - radius, lead[1] - radius, lead[0] + radius, lead[1] + radius,
                  start, extent)
            placer.arc(lead, radius, start, extent)
        c.setDash()
        # On the arc's line: its middle bearing first, then along it either way.
        bearings = [arc.left + extent * f for f in (0.5, 0.35, 0.65, 0.2, 0.8, 0.05, 0.95)]
        out.append(Request(arc.label, fonts.NARROW, 7, MARK,
                           [(lead[0] + radius * unit_vector(b)[0],
                             lead[1] + radius * unit_vector(b)[1]) for b in bearings]))
    return out


def _group(c: Canvas, frame: MapFrame, scale: Scale, group: GroupPlace,
           colour: colors.Color, lengths: Mapping[str, float], placer: LabelPlacer) -> bool:
    """A group's ships and heading arrow (recorded in ``placer``); True if any is a symbol."""
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
        points = hull_points(x, y, ship.heading, length, beam)
        draw_hull(c, points, colour, 0.25)
        placer.polygon(points)
    lead = frame.at(scale, group.ships[0].x, group.ships[0].y)
    dx, dy = unit_vector(group.heading)
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    _arrow(c, (lead[0] + 2 * MM * dx, lead[1] + 2 * MM * dy),
           (lead[0] + 9 * MM * dx, lead[1] + 9 * MM * dy), 0.7, placer)
    return symbols


def _name(frame: MapFrame, scale: Scale, group: GroupPlace, colour: colors.Color) -> Request:
    """The group's name, course and speed: beside its leader, abeam before ahead or astern."""
    ships = [frame.at(scale, s.x, s.y) for s in group.ships]
    dx, dy = unit_vector(group.heading)
    # Abeam is clear of the course arrow (ahead) and of the line of ships (astern).
    order = sorted(AROUND, key=lambda d: abs(d[0] * dx + d[1] * dy) / math.hypot(*d))
    # The leader first; then the middle and the last ship, so a long line has room.
    anchors = list(dict.fromkeys([ships[0], ships[len(ships) // 2], ships[-1]]))
    return Request(f"{group.name} {group.heading:g}° {group.speed_kn:g} kn",
                   fonts.NARROW_BOLD, 7.5, colour, anchors, order)


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
    doc.y -= BARS - 14 * MM


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
