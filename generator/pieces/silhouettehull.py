"""A silhouette's hull: its outline, the convex region mounts are fitted in, a carrier's deck.

Lengths along the ship are fractions of the length, widths fractions of the half-beam,
so every silhouette scales with the box it is given. Coordinates as in
``generator.pieces.silhouette``: x from the stern (0) to the bow, y from the centreline,
port positive. The shapes here are what the mounts (``generator.pieces.silhouettemounts``)
are placed against.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Ellipse = tuple[float, float, float, float]
Segment = tuple[float, float, float, float]


@dataclass(frozen=True)
class Turret:
    """One gun mount, drawn as a circle.

    Attributes:
        position: Battery position: BOW, C, STN, L, R, LB, RB, LS or RS.
        x: Centre, from the stern (0) towards the bow (``length``).
        y: Centre, from the centreline; port +y, starboard -y.
        radius: Radius of the circle.

    """

    position: str
    x: float
    y: float
    radius: float


# --- Proportions ------------------------------------------------------------------
# Lengths along the ship are fractions of the length, widths fractions of the
# half-beam, so every silhouette scales with the box it is given.

@dataclass(frozen=True)
class _HullForm:
    """Plan-view shape of a surface hull (fractions of length and half-beam)."""

    transom: float   # half-width of the flat stern
    stern: float     # length over which the stern rounds out to the full beam
    bow: float       # where the bow taper starts
    fullness: float  # taper exponent: above 1 keeps the beam further forward


_WARSHIP = _HullForm(transom=0.45, stern=0.13, bow=0.80, fullness=1.7)
# Merchant hulls are fuller: a blunter bow and a wider, squarer stern.
_MERCHANT = _HullForm(transom=0.6, stern=0.08, bow=0.84, fullness=2.3)

_SUB_BEAM = 0.62    # a submarine's pressure hull is slender even in an exaggerated box...
_SUB_SLENDER = 0.09  # ...and never wider than 18 % of its length (a short boat in a wide box)
_SUB_WIDEST = 0.55  # its widest point, just forward of amidships
_SUB_TAIL = 0.12    # half-width of the stern end (the screws), so it is not a point
DECK = (0.03, 0.95, 0.72, 0.05)  # carrier deck: aft end, fore end, half-width, chamfer
_ISLAND = (0.50, 0.12, 0.30)      # carrier island: aft end, length, width (x half-beam)
TOWER = (0.43, 0.13, 0.55)       # conning tower: aft end, length, width (x sub's beam)

# --- Hull -------------------------------------------------------------------------

def _surface_half_width(u: float, form: _HullForm) -> float:
    """Half-width of a surface hull at ``u`` (fraction of length), x half-beam."""
    if u < form.stern:
        # A quarter ellipse from the transom out to the full beam: a rounded stern.
        t = 1.0 - u / form.stern
        return form.transom + (1.0 - form.transom) * math.sqrt(max(0.0, 1.0 - t * t))
    if u > form.bow:
        t = (u - form.bow) / (1.0 - form.bow)
        return 1.0 - math.pow(t, form.fullness)
    return 1.0


def sub_beam(length: float, half: float) -> float:
    """Widest half-width of a submarine, x half-beam."""
    return min(_SUB_BEAM, _SUB_SLENDER * length / half)


def _sub_half_width(u: float, widest: float) -> float:
    """Half-width of a submarine's cigar hull at ``u``, x half-beam."""
    if u >= _SUB_WIDEST:
        t = (u - _SUB_WIDEST) / (1.0 - _SUB_WIDEST)
        return widest * (1.0 - t * t)
    t = (_SUB_WIDEST - u) / _SUB_WIDEST
    return widest * (_SUB_TAIL + (1.0 - _SUB_TAIL) * (1.0 - math.pow(t, 2.2)))


def hull_outline(length: float, half: float, ship_type: str) -> tuple[Point, ...]:
    """Hull polygon, counter-clockwise from the starboard corner of the stern.

    Both half-width profiles are concave, so the sampled outline is convex; the
    placement below relies on that (a circle is inside when it clears every edge line).
    """
    if ship_type == "SS":
        stations = [k / 24 for k in range(24)]
        widest = sub_beam(length, half)
        widths = [_sub_half_width(u, widest) for u in stations]
    else:
        form = _MERCHANT if ship_type in ("AK", "AP") else _WARSHIP
        stations = sorted({*(form.stern * k / 6 for k in range(7)),
                           *(form.bow + (1.0 - form.bow) * k / 12 for k in range(12))})
        widths = [_surface_half_width(u, form) for u in stations]
    starboard = [(u * length, -w * half) for u, w in zip(stations, widths, strict=True)]
    port = [(x, -y) for x, y in reversed(starboard)]
    return (*starboard, (length, 0.0), *port)


@dataclass(frozen=True)
class Region:
    """A convex polygon as inward edge normals, for clearance and fitting questions."""

    edges: tuple[tuple[float, float, float, float], ...]  # x0, y0, inward nx, ny

    @staticmethod
    def of(points: Sequence[Point]) -> Region:
        """Region bounded by a counter-clockwise convex polygon."""
        edges = []
        for (x0, y0), (x1, y1) in zip(points, (*points[1:], points[0]), strict=True):
            dx, dy = x1 - x0, y1 - y0
            norm = math.hypot(dx, dy)
            if norm > 0:
                edges.append((x0, y0, -dy / norm, dx / norm))
        return Region(tuple(edges))

    def clearance(self, x: float, y: float) -> float:
        """Distance from (x, y) to the nearest edge line; negative outside."""
        return min((x - x0) * nx + (y - y0) * ny for x0, y0, nx, ny in self.edges)

    def span(self, x: float, y: float, dx: float, dy: float,
             need: float) -> tuple[float, float] | None:
        """Interval of t for which (x + t dx, y + t dy) clears every edge by ``need``.

        Clearance along a line in a convex region is a minimum of linear functions,
        so the points that clear by ``need`` form one interval; None when empty.
        """
        lo, hi = -math.inf, math.inf
        for x0, y0, nx, ny in self.edges:
            a = (x - x0) * nx + (y - y0) * ny - need
            b = dx * nx + dy * ny
            if abs(b) < 1e-12:
                if a < 0:
                    return None
            elif b > 0:
                lo = max(lo, -a / b)
            else:
                hi = min(hi, -a / b)
        return (lo, hi) if lo <= hi else None


# --- Carriers -----------------------------------------------------------------------

def deck_outline(length: float, half: float) -> tuple[Point, ...]:
    """A carrier's flight deck, chamfered at the bow, counter-clockwise."""
    aft, fore, width, chamfer = DECK
    w = width * half
    return ((aft * length, -w), ((fore - chamfer) * length, -w), (fore * length, -0.55 * w),
            (fore * length, 0.55 * w), ((fore - chamfer) * length, w), (aft * length, w))


def island_box(length: float, half: float) -> tuple[float, float, float, float]:
    """A carrier's island, starboard amidships, as ``Canvas.rect`` takes it."""
    aft, long, wide = _ISLAND
    return (aft * length, -0.97 * half, long * length, wide * half)


def island_funnels(island: tuple[float, float, float, float], count: int) -> list[Ellipse]:
    """Funnels along the island, each in its own share of its length."""
    x, y, w, h = island
    cell = w / max(count, 1)
    return [(x + (i + 0.5) * cell, y + h / 2, 0.32 * cell, 0.3 * h) for i in range(count)]
