"""Label placement for the set-up map: each name takes the first free spot near its anchor.

The map records every mark it draws here as geometry: ship outlines, arrowheads and
place dots as polygons, course and pointer arrows as segments, range rings as circles,
partial arcs and land outlines as polylines. Each label then tries boxes around its
anchors, nearest first, and takes the first that stays inside the table (1 mm in),
overlaps no other label and no polygon, and is crossed by no segment or circle. When none
is free, the label goes to the nearest free spot further out and a leader line joins it
to its anchor. Everything is arithmetic in a fixed order, so builds stay byte-identical.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.units import MM

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 on the page."""

PAD = 0.6 * MM
"""Clear water kept around every label (a reader needs a gap, not a touch)."""
INSET = 1 * MM
"""How far inside the table's edge every label stays."""
GAPS = (1.2 * MM, 3 * MM, 5.5 * MM, 9 * MM)
"""Distances from the anchor tried in turn, nearest first."""
LEADER_RADII = tuple(r * MM for r in (12, 16, 20, 25, 30, 36, 44, 52, 62, 75))
"""Where a label that found no room beside its anchor looks next (with a leader line)."""
LEADER_DIRECTIONS = 24
GRID_STEP = 2 * MM
"""The last search: label centres on a grid this fine over the whole table."""
LEADER_FROM = 5 * MM
"""A label set this far or further from its anchor gets a leader line back to it."""
LEADER_GAP = 0.5 * MM
"""A leader line stops this short of its label, so the line never touches the text."""
ARC_STEP_DEG = 2.0
"""A partial arc is recorded as chords this many degrees long (under 0.01 mm off at 10 cm)."""

Direction = tuple[int, int]
AROUND: tuple[Direction, ...] = ((1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1),
                                 (0, 1), (0, -1))
"""Right, left, the four corners, above, below: the usual order for a point's name."""
CENTRED: Direction = (0, 0)


@dataclass(frozen=True)
class Request:
    """A label to place: its text and style, the points it names, the spots it prefers."""

    text: str
    font: str
    size: float
    colour: colors.Color
    anchors: Sequence[Point]
    """The points the label names, tried in order (a ring's name: points on the ring)."""
    directions: Sequence[Direction] = AROUND
    """Sides of an anchor to try, in order; ``(0, 0)`` centres the label on it."""


@dataclass(frozen=True)
class Label:
    """A placed label: its text box, its baseline start, and its leader line if any."""

    request: Request
    box: Box
    baseline: Point
    leader: tuple[Point, Point] | None = None


def _overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inflate(box: Box, pad: float) -> Box:
    return box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad


def segment_hits_box(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment a-b enters the box (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - box[0]), (dx, box[2] - a[0]),
                 (-dy, a[1] - box[1]), (dy, box[3] - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def circle_hits_box(centre: Point, radius: float, box: Box) -> bool:
    """Whether a circle's line passes through the box (the box neither all in nor all out)."""
    cx, cy = centre
    near_x = min(max(cx, box[0]), box[2])
    near_y = min(max(cy, box[1]), box[3])
    nearest = math.hypot(near_x - cx, near_y - cy)
    farthest = max(math.hypot(x - cx, y - cy) for x in (box[0], box[2]) for y in (box[1], box[3]))
    return nearest <= radius <= farthest


def inside_polygon(point: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd rule: whether the point lies inside the polygon."""
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def polygon_hits_box(polygon: Sequence[Point], box: Box) -> bool:
    """Whether a filled polygon and the box share area."""
    if any(box[0] <= x <= box[2] and box[1] <= y <= box[3] for x, y in polygon):
        return True
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    if inside_polygon(middle, polygon):
        return True
    return any(segment_hits_box(a, b, box)
               for a, b in zip(polygon, [*polygon[1:], polygon[0]], strict=True))


def _segment_hits_polygon(segment: tuple[Point, Point], polygon: Sequence[Point]) -> bool:
    """Whether a segment touches a filled polygon (crosses an edge or lies inside it)."""
    a, b = segment
    if inside_polygon(a, polygon) or inside_polygon(b, polygon):
        return True
    return any(_segments_cross(a, b, p, q)
               for p, q in zip(polygon, [*polygon[1:], polygon[0]], strict=True))


def _segments_cross(a: Point, b: Point, p: Point, q: Point) -> bool:
    """Whether segments a-b and p-q meet."""
    def side(o: Point, s: Point, t: Point) -> float:
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])

    d1, d2 = side(p, q, a), side(p, q, b)
    d3, d4 = side(a, b, p), side(a, b, q)
    return (d1 * d2 <= 0) and (d3 * d4 <= 0)


def _bounds(points: Sequence[Point]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


@dataclass
class LabelPlacer:
    """Every mark on the map, and the labels placed so far; ``place`` finds a label room."""

    frame: Box
    """The table's edge on the page."""
    polygons: list[tuple[Box, list[Point]]] = field(default_factory=list)
    segments: list[tuple[Point, Point]] = field(default_factory=list)
    circles: list[tuple[Point, float]] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)

    def polygon(self, points: Sequence[Point]) -> None:
        """A filled mark no label may cover (a ship, an arrowhead, a place's dot)."""
        self.polygons.append((_bounds(points), list(points)))

    def segment(self, a: Point, b: Point) -> None:
        """A line no label may be crossed by (an arrow's shaft, a leader)."""
        self.segments.append((a, b))

    def polyline(self, points: Sequence[Point], closed: bool = False) -> None:
        """A land outline or a flattened arc: its every edge as a segment."""
        ends = [*points[1:], points[0]] if closed else points[1:]
        for a, b in zip(points, ends, strict=False):
            self.segment(a, b)

    def circle(self, centre: Point, radius: float) -> None:
        """A whole ring (a range or radar circle)."""
        self.circles.append((centre, radius))

    def arc(self, centre: Point, radius: float, start: float, extent: float) -> None:
        """Part of a ring, ``start`` and ``extent`` in degrees anticlockwise from east."""
        steps = max(1, math.ceil(abs(extent) / ARC_STEP_DEG))
        self.polyline([(centre[0] + radius * math.cos(math.radians(start + extent * i / steps)),
                        centre[1] + radius * math.sin(math.radians(start + extent * i / steps)))
                       for i in range(steps + 1)])

    def free(self, box: Box) -> bool:
        """Whether a label's box sits inside the table and clear of every mark and label."""
        f = self.frame
        if box[0] < f[0] + INSET or box[1] < f[1] + INSET or box[2] > f[2] - INSET \
                or box[3] > f[3] - INSET:
            return False
        room = _inflate(box, PAD)
        if any(_overlap(room, label.box) for label in self.labels):
            return False
        if any(_overlap(room, bounds) and polygon_hits_box(points, room)
               for bounds, points in self.polygons):
            return False
        if any(circle_hits_box(c, r, room) for c, r in self.circles):
            return False
        return not any(segment_hits_box(a, b, room) for a, b in self.segments)

    def near(self, request: Request, width: float, ascent: float,
             descent: float) -> Label | None:
        """The first free spot right beside an anchor (no leader needed), if any.

        ``descent`` is negative, as ReportLab gives it.
        """
        height = ascent - descent
        for gap in (g for g in GAPS if g < LEADER_FROM):
            for anchor in request.anchors:
                for sx, sy in request.directions:
                    box = _beside(anchor, width, height, gap, sx, sy)
                    if self.free(box):
                        return self._keep(Label(request, box, (box[0], box[1] - descent)))
        return None

    def far(self, request: Request, width: float, ascent: float, descent: float) -> Label:
        """A free spot further out, with a leader line back to the anchor.

        Tried in turn: the farther gaps beside each anchor, then rings round the first
        anchor, then every point of a 2 mm grid over the table, nearest first.
        """
        height = ascent - descent
        anchor = request.anchors[0]

        def spots() -> Iterator[tuple[Point, Box]]:
            # Lazily, nearest kinds first: the grid (thousands of points, sorted) is only
            # made for a label that found no room nearer.
            for gap in (g for g in GAPS if g >= LEADER_FROM):
                for start in request.anchors:
                    for sx, sy in request.directions:
                        yield start, _beside(start, width, height, gap, sx, sy)
            for radius in LEADER_RADII:
                for k in range(LEADER_DIRECTIONS):
                    angle = 2 * math.pi * k / LEADER_DIRECTIONS
                    yield anchor, _centred(anchor[0] + radius * math.cos(angle),
                                           anchor[1] + radius * math.sin(angle), width, height)
            f = self.frame
            grid = [(f[0] + i * GRID_STEP, f[1] + j * GRID_STEP)
                    for i in range(int((f[2] - f[0]) / GRID_STEP) + 1)
                    for j in range(int((f[3] - f[1]) / GRID_STEP) + 1)]
            grid.sort(key=lambda p: (round(math.hypot(p[0] - anchor[0], p[1] - anchor[1]), 6),
                                     p[1], p[0]))
            for x, y in grid:
                yield anchor, _centred(x, y, width, height)

        for start, box in spots():
            if self.free(box):
                leader = _leader(start, box)
                if self._clear_leader(leader):
                    return self._keep(Label(request, box, (box[0], box[1] - descent), leader))
        # Nowhere free at all: beside the anchor, and the map's test will say so.
        box = _beside(anchor, width, height, GAPS[0], *request.directions[0])
        return self._keep(Label(request, box, (box[0], box[1] - descent)))

    def _clear_leader(self, leader: tuple[Point, Point]) -> bool:
        """Whether a leader line crosses no label and no mark but the one it starts on."""
        start = leader[0]
        if any(segment_hits_box(*leader, _inflate(label.box, PAD)) for label in self.labels):
            return False
        return not any(segment_hits_box(*leader, bounds) and not inside_polygon(start, points)
                       and _segment_hits_polygon(leader, points)
                       for bounds, points in self.polygons)

    def _keep(self, label: Label) -> Label:
        self.labels.append(label)
        if label.leader:
            self.segment(*label.leader)
        return label


def _beside(anchor: Point, width: float, height: float, gap: float, sx: int,
            sy: int) -> Box:
    """The box ``gap`` from the anchor on side (sx, sy) (0: centred on that axis)."""
    # On a corner the gap is split between the two axes, so every spot is about ``gap`` off.
    g = gap * (0.75 if sx and sy else 1.0)
    x0 = anchor[0] + g if sx > 0 else anchor[0] - g - width if sx < 0 else anchor[0] - width / 2
    y0 = anchor[1] + g if sy > 0 else anchor[1] - g - height if sy < 0 else anchor[1] - height / 2
    return x0, y0, x0 + width, y0 + height


def _centred(x: float, y: float, width: float, height: float) -> Box:
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def _leader(anchor: Point, box: Box) -> tuple[Point, Point]:
    """From the anchor to just short of the box's nearest point."""
    near = (min(max(anchor[0], box[0]), box[2]), min(max(anchor[1], box[1]), box[3]))
    length = math.hypot(near[0] - anchor[0], near[1] - anchor[1])
    keep = max(length - LEADER_GAP, 0.0) / length if length else 0.0
    return anchor, (anchor[0] + (near[0] - anchor[0]) * keep,
                    anchor[1] + (near[1] - anchor[1]) * keep)


def place_and_draw(c: Canvas, placer: LabelPlacer, requests: Sequence[Request]) -> None:
    """Place every label, then draw each with its leader.

    First every label that fits right beside its anchor takes that spot (earlier ones
    choose first); only then do the rest look further out, so a crowded label never
    takes the spot another needed beside its own mark.
    """
    metrics = fonts.metrics()
    sizes = [(c.stringWidth(r.text, r.font, r.size), *metrics.getAscentDescent(r.font, r.size))
             for r in requests]
    placed = [placer.near(r, *size) for r, size in zip(requests, sizes, strict=True)]
    labels = [label or placer.far(r, *size)
              for label, r, size in zip(placed, requests, sizes, strict=True)]
    for label in labels:
        request = label.request
        if label.leader:
            c.setStrokeColor(colors.Color(0.35, 0.35, 0.35))
            c.setLineWidth(0.4)
            c.line(*label.leader[0], *label.leader[1])
        c.setFillColor(request.colour)
        c.setFont(request.font, request.size)
        c.drawString(*label.baseline, request.text)
