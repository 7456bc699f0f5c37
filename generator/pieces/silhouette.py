"""Top-down ship silhouettes for the markers, generated from the class data.

A marker at 1:12,000 is only 15-20 mm long, so the drawing is a recognition sketch, not
a plan: a hull outline, one circle per gun mount placed by its battery position, the
funnels, the catapults and, for carriers, the flight deck and island. Everything is a
pure function of the numbers passed in (no randomness), so a marker never changes
between builds and the geometry can be tested without drawing.

Coordinates: x runs from the stern (0) to the bow (``length``), y from the centreline,
port positive (left of a ship heading +x), starboard negative. The caller chooses the
units (points in practice) and the box (it exaggerates the beam; a real beam at
1:12,000 is about 1.5 mm); every part of the silhouette stays inside
``0 <= x <= length`` and ``-beam / 2 <= y <= beam / 2``.

The hull is shaped in ``generator.pieces.silhouettehull``, the mounts and fittings are
placed in ``generator.pieces.silhouettemounts``; here they are put together and drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.pieces.silhouettehull import (
    DECK,
    TOWER,
    Ellipse,
    Point,
    Region,
    Segment,
    Turret,
    deck_outline,
    hull_outline,
    island_box,
    island_funnels,
    sub_beam,
)
from generator.pieces.silhouettemounts import (
    CARRIER_SIDE_R,
    SIDE_R,
    barrel_lines,
    deck_catapults,
    place_catapults,
    settle,
    side_band,
    side_mounts,
    sub_centreline,
    surface_centreline,
)

POSITIONS = ("BOW", "C", "STN", "L", "R", "LB", "RB", "LS", "RS")
"""Battery positions, as in the schema's ``Position``."""

CARRIERS = frozenset({"CV", "CVL", "CVE"})

_DEFAULT_FUNNELS = {
    "BB": 2, "BC": 2, "CA": 2,
    # Light cruisers ranged from one funnel (Leander) to four (Omaha, Sendai); two is the
    # commonest (Brooklyn, Cleveland, Town, Giussano...), so it is the default. The
    # anti-aircraft cruisers and the leaders of the data (Atlanta, Dido, Mogador,
    # Porter...) had two as well.
    "CL": 2, "CLAA": 2, "DL": 2, "DD": 2,
    "DE": 1, "TB": 1, "CV": 1, "CVL": 1, "CVE": 1, "SS": 0, "AK": 1, "AP": 1,
}

SHIP_TYPES = tuple(_DEFAULT_FUNNELS)
"""Ship types the silhouettes know, as in the schema's ``ShipType``."""


@dataclass(frozen=True)
class Silhouette:
    """A ship seen from above, bow to the right, stern at the origin.

    Attributes:
        length: Length of the box (stern at x = 0, bow point at x = length).
        beam: Width of the box (y from -beam / 2 to +beam / 2).
        hull: Closed, convex hull outline, counter-clockwise, starting on the starboard
            side of a flat (transom) stern; it contains the bow point (length, 0).
        turrets: The gun mounts, inside the hull and not overlapping each other.
        funnels: Ellipses (cx, cy, rx, ry); on a carrier they sit on the island.
        catapults: Line segments (x1, y1, x2, y2).
        flight_deck: Carriers: the flight deck outline; otherwise None.
        island: Carriers: the island, starboard (-y) amidships; submarines: the conning
            tower on the centreline; otherwise None. A rectangle (x, y, w, h) with
            (x, y) its corner nearest the stern and starboard, as ``Canvas.rect`` takes.
        barrels: Gun barrels (x1, y1, x2, y2), one line per turret from its centre in
            the direction the battery bears, cut short at the hull edge. Drawn under
            the turrets, so only the part outside the circle shows.

    """

    length: float
    beam: float
    hull: tuple[Point, ...]
    turrets: tuple[Turret, ...]
    funnels: tuple[Ellipse, ...]
    catapults: tuple[Segment, ...]
    flight_deck: tuple[Point, ...] | None
    island: tuple[float, float, float, float] | None
    barrels: tuple[Segment, ...] = ()


def default_funnels(ship_type: str) -> int:
    """Number of funnels drawn when the class does not give one.

    BB, BC, CA, CL, CLAA, DL and DD have 2; DE, TB, carriers and merchant ships 1;
    submarines none.

    Args:
        ship_type: One of BB BC CV CVL CVE CA CL CLAA DL DD DE TB SS AK AP.

    Returns:
        The number of funnels.

    Raises:
        ValueError: For an unknown ship type.

    """
    try:
        return _DEFAULT_FUNNELS[str(ship_type)]
    except KeyError:
        raise ValueError(f"unknown ship type {ship_type!r}; expected one of "
                         f"{', '.join(SHIP_TYPES)}") from None


# --- Public entry points ------------------------------------------------------------

def build_silhouette(length: float, beam: float, ship_type: str,
                     batteries: Sequence[tuple[str, int]], funnels: int,
                     catapults: int) -> Silhouette:
    """Lay out a class's silhouette in a ``length`` x ``beam`` box.

    Args:
        length: Length of the box (the caller's units; points in practice).
        beam: Width of the box, exaggerated by the caller as it likes.
        ship_type: BB BC CV CVL CVE CA CL CLAA DL DD DE TB SS AK AP.
        batteries: (position, mounts) per battery; batteries at the same position are
            merged in order (Yamato's two BOW batteries make one group of three).
        funnels: Funnels to draw (``default_funnels`` when the class gives none);
            ignored for submarines; on carriers they stand on the island.
        catapults: Catapults; ignored for submarines; on carriers they lie fore and
            aft on the forward flight deck.

    Returns:
        The silhouette; results are cached, so equal arguments give the same object.

    Raises:
        ValueError: For a non-positive box, an unknown type or position, or a negative
            count.

    """
    if not (length > 0 and beam > 0):
        raise ValueError(f"silhouette box must be positive, got {length} x {beam}")
    default_funnels(ship_type)  # validates the type
    counts = dict.fromkeys(POSITIONS, 0)
    for position, mounts in batteries:
        if str(position) not in counts:
            raise ValueError(f"unknown battery position {position!r}; expected one of "
                             f"{', '.join(POSITIONS)}")
        if mounts < 0:
            raise ValueError(f"negative mount count {mounts} at {position}")
        counts[str(position)] += int(mounts)
    if funnels < 0 or catapults < 0:
        raise ValueError("funnels and catapults must not be negative")
    return _build(float(length), float(beam), str(ship_type),
                  tuple(counts[p] for p in POSITIONS), int(funnels), int(catapults))


@lru_cache(maxsize=1024)
def _build(length: float, beam: float, ship_type: str, mounts: tuple[int, ...],
           funnels: int, catapults: int) -> Silhouette:
    half = beam / 2
    counts = dict(zip(POSITIONS, mounts, strict=True))
    hull = hull_outline(length, half, ship_type)
    region = Region.of(hull)
    carrier = ship_type in CARRIERS
    deck: tuple[Point, ...] | None = None
    island: tuple[float, float, float, float] | None = None
    if ship_type == "SS":
        aft, long, wide = TOWER
        w = wide * sub_beam(length, half) * half
        island = (aft * length, -w / 2, long * length, w)
        centre = sub_centreline(length, half, region, counts, island)
        pieces = [(0.18 * length, island[0] - 0.02 * length),
                  (island[0] + island[2] + 0.02 * length, 0.8 * length)]
        funnel_shapes: list[Ellipse] = []
        catapults = 0
    else:
        centre = surface_centreline(length, half, region, counts, funnels, catapults,
                                     carrier)
        funnel_shapes = list(centre.funnels)
        if carrier:
            deck = deck_outline(length, half)
            island = island_box(length, half)
            funnel_shapes = island_funnels(island, funnels)
            gap = 0.03 * length
            pieces = [(0.10 * length, island[0] - gap),
                      (island[0] + island[2] + gap, 0.80 * length)]
        else:
            pieces = [side_band(length, centre)]
    main_r = max((t.radius for t in centre.turrets), default=SIDE_R * half)
    boxes = [(cx, cy, rx, ry) for cx, cy, rx, ry in funnel_shapes]
    if island is not None:
        x, y, w, h = island
        boxes.append((x + w / 2, y + h / 2, w / 2, h / 2))
    placed = list(centre.turrets)
    r_cap = (CARRIER_SIDE_R if carrier else SIDE_R) * half
    sides = side_mounts(half, region, counts, pieces, main_r, placed, boxes, r_cap)
    turrets = settle(placed + sides, region)
    if carrier:
        cats = deck_catapults(catapults, length, DECK[2] * half)
    else:
        cats = place_catapults(catapults, length, half, region, centre, turrets)
    return Silhouette(
        length=length, beam=beam, hull=hull, turrets=turrets,
        funnels=tuple(funnel_shapes), catapults=tuple(cats), flight_deck=deck,
        island=island, barrels=tuple(barrel_lines(turrets, length, region)))


def _mix(a: Any, b: Any, t: float) -> Any:
    """Colour ``t`` of the way from ``a`` to ``b`` (CMYK when both are CMYK)."""
    if isinstance(a, colors.CMYKColor) and isinstance(b, colors.CMYKColor):
        return colors.CMYKColor(*(x + (y - x) * t for x, y in zip(a.cmyk(), b.cmyk(),
                                                                   strict=True)))
    ra, rb = colors.toColor(a).rgb(), colors.toColor(b).rgb()
    return colors.Color(*(x + (y - x) * t for x, y in zip(ra, rb, strict=True)))


def draw_silhouette(canvas: Canvas, sil: Silhouette, x: float, y: float, *, hull_fill: Any,
                    ink: Any, turret_fill: Any, line_width: float = 0.25) -> None:
    """Draw a silhouette with its stern on the centreline at (x, y), bow towards +x.

    Order: hull, flight deck, barrels, catapults, island, funnels, then one filled
    ``canvas.circle`` per turret. Turrets are the only circles filled with
    ``turret_fill`` (funnels, deck and island use mixes of ``hull_fill`` and ``ink``),
    so a PDF reader can count them; ``turret_fill`` must therefore differ from
    ``hull_fill``. The graphics state is saved once around the whole drawing.

    Args:
        canvas: ReportLab canvas, in whatever units the silhouette was built in.
        sil: The silhouette.
        x: Stern position.
        y: Centreline position.
        hull_fill: Fill of the hull (a ReportLab colour).
        ink: Outline colour.
        turret_fill: Fill of the turrets.
        line_width: Outline width in canvas units (0.25 pt for a marker: the thinnest line
            a print shop's preflight lets through).

    """
    c = canvas
    c.saveState()
    c.translate(x, y)
    c.setLineWidth(line_width)
    c.setLineJoin(1)
    c.setLineCap(1)
    c.setStrokeColor(ink)
    c.setFillColor(hull_fill)
    _polygon(c, sil.hull)
    if sil.flight_deck is not None:
        c.setFillColor(_mix(hull_fill, ink, 0.22))
        _polygon(c, sil.flight_deck)
    if sil.barrels and sil.turrets:
        # Under everything else, so a funnel or the turret ahead hides what it covers.
        smallest = min(t.radius for t in sil.turrets)
        c.setLineWidth(max(line_width, 0.3 * smallest))
        c.lines(list(sil.barrels))
        c.setLineWidth(line_width)
    half = sil.beam / 2
    if sil.catapults:
        c.setLineWidth(max(line_width, 0.07 * half))
        c.lines(list(sil.catapults))
        c.setLineWidth(line_width)
    if sil.island is not None:
        c.setFillColor(_mix(hull_fill, ink, 0.45))
        c.rect(*sil.island, stroke=1, fill=1)
    if sil.funnels:
        c.setFillColor(_mix(hull_fill, ink, 0.75))
        for cx, cy, rx, ry in sil.funnels:
            c.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=1, fill=1)
    c.setFillColor(turret_fill)
    for t in sil.turrets:
        c.circle(t.x, t.y, t.radius, stroke=1, fill=1)
    c.restoreState()


def _polygon(c: Canvas, points: Sequence[Point]) -> None:
    path = c.beginPath()
    path.moveTo(*points[0])
    for p in points[1:]:
        path.lineTo(*p)
    path.close()
    c.drawPath(path, stroke=1, fill=1)
