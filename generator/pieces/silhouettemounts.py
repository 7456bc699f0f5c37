"""A silhouette's mounts and fittings, placed on its hull.

Gun mounts on the centreline (superfiring groups from the ends inwards, funnels and C
mounts amidships, a submarine's deck guns around its tower), side mounts hugging the hull
edge, catapults clear of both, and the barrels; all shrink together when they do not fit
(``_largest_scale``). Everything is a pure function of its arguments.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from generator.pieces.silhouettehull import Ellipse, Region, Segment, Turret, sub_beam

_T = TypeVar("_T")

# Proportions: lengths as fractions of the length, widths of the half-beam.
_MAIN_R = 0.6       # preferred turret radius: 0.3 x beam = 0.6 x half-beam
# ...but no more than 4.5 % of the length: a real 16in turret is about 4 % of an
# Iowa's length, and a heavily exaggerated beam must not blow the turrets up with it.
_MAIN_R_LENGTH = 0.045
SIDE_R = 0.3       # side mounts are secondaries: at most 0.15 x beam...
_SIDE_OF_MAIN = 0.65  # ...and about two thirds of the main turrets' radius
_SUB_GUN_R = 0.42   # a deck gun, as a fraction of the submarine's half-width
_TURRET_GAP = 0.12  # gap between the turrets of a superfiring group, x radius
_EDGE = 0.06        # side mounts keep this far (x half-beam) inside the hull edge

_BOW_FRONT = 0.82   # front-most BOW mount centre, where the hull allows
_STN_REAR = 0.16    # rear-most STN mount centre
_BRIDGE = 0.05      # the bridge behind the forward turrets, kept clear
_ITEM_GAP = 0.022   # between funnels, midships mounts and groups
_FUNNEL_RX = 0.04   # funnel half-length
_FUNNEL_RY = 0.3    # funnel half-width (x half-beam)
_CATAPULT = 0.09    # catapult length
_CATAPULT_ANGLE = math.radians(30)
_SHRINK_FROM = 0.4  # below this turret scale the fixed items shrink too

# Carrier guns sit on sponsons, on the strip of hull left outboard of the deck; the
# centreline ones are secondaries too, kept small so they do not swamp the deck.
CARRIER_SIDE_R = 0.2
_CARRIER_CENTRE_R = 0.26


# --- Centreline ---------------------------------------------------------------------

@dataclass(frozen=True)
class Centreline:
    """Mounts and items on the centreline, from one turret scale."""

    turrets: tuple[Turret, ...]
    funnels: tuple[Ellipse, ...]
    fore: float               # rear edge of the forward group (or where it would be)
    aft: float                # front edge of the after group (or where it would be)
    catapult_at: float | None  # centre of the space kept for the catapults


def _row(count: int, first: float, step: float) -> list[float]:
    return [first + i * step for i in range(count)]


def _largest_scale(plan: Callable[[float], _T | None]) -> _T:
    """Plan at the largest turret scale in (0, 1] that fits, by bisection.

    ``plan(k)`` returns a layout or None; fitting only gets easier as k falls, so the
    feasible scales form an interval (0, k_max].
    """
    best = plan(1.0)
    if best is not None:
        return best
    lo, hi = 1e-3, 1.0
    best = plan(lo)
    if best is None:
        raise ValueError("silhouette: the mounts do not fit even at a thousandth of "
                         "their size; the box is degenerate")
    for _ in range(30):
        mid = (lo + hi) / 2
        layout = plan(mid)
        if layout is None:
            hi = mid
        else:
            lo, best = mid, layout
    return best


def surface_centreline(length: float, half: float, region: Region, counts: dict[str, int],
                        funnels: int, catapults: int, carrier: bool) -> Centreline:
    """BOW mounts forward, STN mounts aft, funnels and C mounts between, at one scale.

    Superfiring groups are packed from the ends inwards (front-most BOW mount near 82 %
    of the length, rear-most STN mount near 16 %); the bridge, funnels, C mounts (between
    the funnels or just aft) and the catapults share what is left amidships. When
    they do not fit, all of them shrink together (see ``_largest_scale``).
    """
    n_bow, n_c, n_stn = counts["BOW"], counts["C"], counts["STN"]
    n_funnels = 0 if carrier else funnels
    pairs = 0 if carrier else (catapults + 1) // 2
    r0 = min(_MAIN_R * half, _MAIN_R_LENGTH * length)
    if carrier:
        r0 = min(r0, _CARRIER_CENTRE_R * half)

    def plan(k: float) -> Centreline | None:
        r = k * r0
        s = min(1.0, k / _SHRINK_FROM)
        step = 2 * r + _TURRET_GAP * r
        fits = region.span(0.0, 0.0, 1.0, 0.0, r)
        if fits is None:
            return None
        lo, hi = fits
        turrets: list[Turret] = []
        fore = 0.80 * length
        if n_bow:
            xs = _row(n_bow, min(_BOW_FRONT * length, hi), -step)
            if xs[-1] < 0.52 * length or xs[-1] < lo:
                return None
            turrets += [Turret("BOW", x, 0.0, r) for x in xs]
            fore = xs[-1] - r
        aft = 0.15 * length
        if n_stn:
            xs = _row(n_stn, max(_STN_REAR * length, lo), step)
            if xs[-1] > 0.48 * length or xs[-1] > hi:
                return None
            turrets += [Turret("STN", x, 0.0, r) for x in reversed(xs)]
            aft = xs[-1] + r
        # Midships, fore to aft: bridge, funnels with the C mounts between and after
        # them, then the catapults.
        gap = _ITEM_GAP * length * s
        items = _midships_items(n_funnels, n_c)
        sizes = [2 * (_FUNNEL_RX * length * s if kind == "F" else r) for kind in items]
        cat_len = 0.0
        if pairs:
            dx = _CATAPULT * length * s * math.cos(_CATAPULT_ANGLE)
            cat_len = pairs * dx + (pairs - 1) * gap
            sizes.append(cat_len)
        bridge = 0.0 if carrier else _BRIDGE * length * s
        inner_gaps = max(0, len(sizes) - 1)
        need = bridge + sum(sizes) + gap * (inner_gaps + (1 if sizes else 0))
        room = fore - aft
        if need > room:
            return None
        # Slack goes mostly to the bridge and the space before the after group, a
        # little between the items, so the funnels stay together amidships.
        slack = room - need
        share = 0.3 if inner_gaps else 0.0
        x = fore - bridge - slack * (0.5 - share / 2)
        funnel_shapes: list[Ellipse] = []
        catapult_at = None
        for i, size in enumerate(sizes):
            centre = x - size / 2
            if i < len(items):
                if items[i] == "F":
                    # Never wider than long: a fat box would otherwise turn them athwartships.
                    ry = min(_FUNNEL_RY * half * s, 0.8 * size / 2)
                    funnel_shapes.append((centre, 0.0, size / 2, ry))
                else:
                    turrets.append(Turret("C", centre, 0.0, r))
            else:
                catapult_at = centre
            x -= size + gap + (slack * share / inner_gaps if inner_gaps else 0.0)
        return Centreline(tuple(turrets), tuple(funnel_shapes), fore, aft, catapult_at)

    return _largest_scale(plan)


def _midships_items(funnels: int, c_mounts: int) -> list[str]:
    """Order of funnels (F) and C mounts (C), fore to aft.

    A C mount goes between each pair of funnels, the rest aft of the last funnel
    (Gangut, Fuso, Tenryu).
    """
    items: list[str] = []
    left = c_mounts
    for i in range(funnels):
        if i and left:
            # Between two funnels: the mount goes in before the next one.
            items.append("C")
            left -= 1
        items.append("F")
    return items + ["C"] * left


def sub_centreline(length: float, half: float, region: Region, counts: dict[str, int],
                    tower: tuple[float, float, float, float]) -> Centreline:
    """Deck guns of a submarine: BOW forward of the tower, C just aft, STN further aft."""
    n_bow, n_c, n_stn = counts["BOW"], counts["C"], counts["STN"]
    r0 = _SUB_GUN_R * sub_beam(length, half) * half
    tower_aft, tower_fore = tower[0], tower[0] + tower[2]

    def plan(k: float) -> Centreline | None:
        r = k * r0
        gap = _ITEM_GAP * length * min(1.0, k / _SHRINK_FROM)
        step = 2 * r + _TURRET_GAP * r
        fits = region.span(0.0, 0.0, 1.0, 0.0, r)
        if fits is None:
            return None
        lo, hi = fits
        turrets: list[Turret] = []
        if n_bow:
            xs = _row(n_bow, tower_fore + gap + r, step)
            if xs[-1] > hi or xs[-1] > 0.9 * length:
                return None
            turrets += [Turret("BOW", x, 0.0, r) for x in reversed(xs)]
        limit = tower_aft - gap
        if n_c:
            xs = _row(n_c, tower_aft - gap - r, -step)
            turrets += [Turret("C", x, 0.0, r) for x in xs]
            limit = xs[-1] - r - gap
        if n_stn:
            xs = _row(n_stn, max(_STN_REAR * length, lo), step)
            if xs[-1] + r > limit:
                return None
            turrets += [Turret("STN", x, 0.0, r) for x in reversed(xs)]
        if any(t.x < lo for t in turrets):
            return None
        return Centreline(tuple(turrets), (), tower_fore, tower_aft, None)

    return _largest_scale(plan)


# --- Side mounts --------------------------------------------------------------------

def _split(total: float, present: set[str]) -> dict[str, tuple[float, float]]:
    """Stretches of the side band for the aft (S), middle (M) and forward (B) batteries.

    The band is measured in pieces laid end to end (0 to ``total``). With a
    middle battery it is cut 30/40/30 %; without it the aft and forward batteries take
    half each; a battery alone takes the whole band.
    """
    end_share = 0.3 if "M" in present else 0.5
    aft_end = end_share * total if "S" in present else 0.0
    fore_end = total - end_share * total if "B" in present else total
    return {"S": (0.0, aft_end), "M": (aft_end, fore_end), "B": (fore_end, total)}


def _spread(count: int, stretch: tuple[float, float],
            pieces: Sequence[tuple[float, float]]) -> tuple[list[float], float]:
    """Evenly spaced centres along a stretch of the band, and their least spacing.

    The band is measured in pieces (piece i runs from i to i + 1 whatever its length),
    so a carrier's guns split evenly fore and aft of the island. Centres sit mid-cell,
    so neighbouring batteries' mounts are at least half a cell of each apart across a
    boundary; skipping the gap between pieces only moves them further apart.
    """
    lo, hi = stretch
    step = (hi - lo) / count
    xs = []
    for i in range(count):
        s = lo + (i + 0.5) * step
        a, b = pieces[min(int(s), len(pieces) - 1)]
        xs.append(a + (s - min(int(s), len(pieces) - 1)) * (b - a))
    return xs, step * min(b - a for a, b in pieces)


def _circle_clear(x: float, y: float, r: float, others: Iterable[Turret], gap: float) -> bool:
    return all(math.hypot(x - t.x, y - t.y) >= r + t.radius + gap for t in others)


def _box_clear(x: float, y: float, r: float, boxes: Iterable[Ellipse], gap: float) -> bool:
    """The circle keeps ``gap`` off each box (cx, cy, half-width, half-height)."""
    for cx, cy, rx, ry in boxes:
        dx = max(abs(x - cx) - rx, 0.0)
        dy = max(abs(y - cy) - ry, 0.0)
        if math.hypot(dx, dy) < r + gap:
            return False
    return True


@dataclass(frozen=True)
class _SideFit:
    """What a side battery must clear: the hull edge, placed mounts, funnels, island."""

    region: Region
    edge: float
    gap: float  # at most; a tiny mount keeps a proportionally tiny gap
    others: tuple[Turret, ...]
    boxes: tuple[Ellipse, ...]

    def ys(self, xs: Sequence[float], r: float, sign: float) -> list[float] | None:
        """Outboard-most y for each centre at radius r, or None if one does not clear."""
        found = []
        gap = min(self.gap, 0.15 * r)
        for x in xs:
            fit = self.region.span(x, 0.0, 0.0, 1.0, r + self.edge)
            if fit is None or fit[1] < r + gap:
                return None
            y = sign * fit[1]
            if not (_circle_clear(x, y, r, self.others, gap)
                    and _box_clear(x, y, r, self.boxes, gap)):
                return None
            found.append(y)
        return found

    def largest(self, xs: Sequence[float], r_max: float,
                sign: float) -> tuple[float, list[float]] | None:
        """Largest radius up to r_max that clears, with the centres' y, by bisection.

        A smaller circle sits further outboard, so clearing only gets easier as the
        radius falls.
        """
        where = self.ys(xs, r_max, sign)
        if where is not None:
            return r_max, where
        lo, hi, best = 0.0, r_max, None
        for _ in range(24):
            mid = (lo + hi) / 2
            trial = self.ys(xs, mid, sign)
            if trial is None:
                hi = mid
            else:
                lo, best = mid, trial
        return (lo, best) if best is not None else None


def side_mounts(half: float, region: Region, counts: dict[str, int],
                 pieces: Sequence[tuple[float, float]], main_r: float,
                 placed: Sequence[Turret], boxes: Sequence[Ellipse],
                 r_cap: float) -> list[Turret]:
    """Mounts along both sides, hugging the hull edge, spread evenly over the band.

    Each battery's radius is the largest (up to ``r_cap``, two thirds of the main
    turrets' and under half the spacing) at which every mount clears the hull edge,
    the mounts already placed and the funnels or island (``boxes``, taken as their
    bounding rectangles).
    """
    out: list[Turret] = []
    total = float(len(pieces))
    for sign, names in ((1.0, ("LS", "L", "LB")), (-1.0, ("RS", "R", "RB"))):
        present = {name[1:] or "M" for name in names if counts[name]}
        stretches = _split(total, present)
        for name in names:
            if not counts[name]:
                continue
            xs, spacing = _spread(counts[name], stretches[name[1:] or "M"], pieces)
            r_max = min(r_cap, _SIDE_OF_MAIN * main_r, 0.42 * spacing)
            fit = _SideFit(region, _EDGE * half, 0.02 * half, (*placed, *out), tuple(boxes))
            found = fit.largest(xs, r_max, sign)
            if found is None:
                # Nothing clears (a degenerate box): tiny mounts on the centreline's
                # side of the hull edge; settle() shrinks whatever still touches.
                tiny = r_max * 1e-3
                found = (tiny, [sign * _edge_y(region, x, tiny) for x in xs])
            r, ys = found
            out += [Turret(name, x, y, r) for x, y in zip(xs, ys, strict=True)]
    return out


def _edge_y(region: Region, x: float, r: float) -> float:
    """Outboard-most centre for a circle of radius r at x (0 if none fits)."""
    fit = region.span(x, 0.0, 0.0, 1.0, r)
    return max(fit[1], 0.0) if fit else 0.0


# --- Catapults ----------------------------------------------------------------------

def _catapult_group(count: int, xc: float, lc: float, half: float) -> list[Segment]:
    """One catapult on the centreline, or a pair angled outboard, one each side."""
    dx = lc * math.cos(_CATAPULT_ANGLE) / 2
    dy = lc * math.sin(_CATAPULT_ANGLE)
    if count == 1:
        return [(xc - dx, -dy / 2, xc + dx, dy / 2)]
    off = 0.06 * half
    return [(xc - dx, off, xc + dx, off + dy), (xc - dx, -off, xc + dx, -off - dy)]


def _segment_distance(seg: Segment, x: float, y: float) -> float:
    x1, y1, x2, y2 = seg
    dx, dy = x2 - x1, y2 - y1
    t = ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)
    t = min(1.0, max(0.0, t))
    return math.hypot(x - x1 - t * dx, y - y1 - t * dy)


def _segment_clear(seg: Segment, region: Region, turrets: Sequence[Turret],
                   funnels: Sequence[Ellipse], taken: Sequence[tuple[float, float]],
                   margin: float) -> bool:
    x1, y1, x2, y2 = seg
    if min(region.clearance(x1, y1), region.clearance(x2, y2)) < margin:
        return False
    if any(_segment_distance(seg, t.x, t.y) < t.radius + margin for t in turrets):
        return False
    for k in range(9):
        px, py = x1 + (x2 - x1) * k / 8, y1 + (y2 - y1) * k / 8
        for cx, cy, rx, ry in funnels:
            if ((px - cx) / (rx + margin)) ** 2 + ((py - cy) / (ry + margin)) ** 2 < 1:
                return False
    lo, hi = min(x1, x2), max(x1, x2)
    return all(hi + margin < a or lo - margin > b for a, b in taken)


def place_catapults(count: int, length: float, half: float, region: Region, centre: Centreline,
               turrets: Sequence[Turret]) -> list[Segment]:
    """Catapults amidships or aft, in pairs, clear of the mounts and funnels if they can be.

    Each group tries positions outward from the space kept for it, then shorter
    catapults; if nothing clears it goes, short, where the space was kept.
    """
    # Well over half the drawn line (0.07 x half-beam): at marker size a line that only
    # just clears a circle looks joined to it.
    margin = 0.15 * half
    prefer = centre.catapult_at if centre.catapult_at is not None else 0.4 * length
    lo = centre.aft
    hi = min(centre.fore, 0.62 * length)
    groups = [2] * (count // 2) + [1] * (count % 2)
    out: list[Segment] = []
    taken: list[tuple[float, float]] = []
    step = 0.01 * length
    for group in groups:
        chosen: list[Segment] | None = None
        for scale in (1.0, 0.8, 0.65, 0.5):
            lc = _CATAPULT * length * scale
            for j in range(2 * int(length / step) + 1):
                xc = prefer + (j + 1) // 2 * step * (1 if j % 2 else -1)
                if not lo <= xc <= hi:
                    continue
                segs = _catapult_group(group, xc, lc, half)
                if all(_segment_clear(s, region, turrets, centre.funnels, taken, margin)
                       for s in segs):
                    chosen = segs
                    break
            if chosen:
                break
        if chosen is None:
            chosen = _catapult_group(group, prefer, _CATAPULT * length * 0.5, half)
        out += chosen
        taken.append((min(s[0] for s in chosen), max(s[2] for s in chosen)))
    return out


def deck_catapults(count: int, length: float, deck_half: float) -> list[Segment]:
    """A carrier's catapults run fore and aft on the forward flight deck, side by side."""
    out: list[Segment] = []
    lanes = [0.35, -0.35, 0.12, -0.12, 0.58, -0.58]
    for i in range(count):
        y = lanes[i] * deck_half
        out.append((0.74 * length, y, 0.88 * length, y))
    return out


# --- Settling and barrels -----------------------------------------------------------

def settle(turrets: Sequence[Turret], region: Region) -> tuple[Turret, ...]:
    """Last guard: shrink any circle that crosses the hull or another circle.

    The placement above already avoids both; this only bites for degenerate boxes and
    keeps the two promises (inside, apart) unconditional. Shrinking never creates a
    new overlap, so one pass suffices.
    """
    radii = [min(t.radius, 0.995 * region.clearance(t.x, t.y)) for t in turrets]
    for i, a in enumerate(turrets):
        for j in range(i + 1, len(turrets)):
            b = turrets[j]
            d = math.hypot(a.x - b.x, a.y - b.y)
            if d < (radii[i] + radii[j]) * 1.0001:
                f = 0.995 * d / (radii[i] + radii[j])
                radii[i] *= f
                radii[j] *= f
    return tuple(Turret(t.position, t.x, t.y, max(r, 0.0))
                 for t, r in zip(turrets, radii, strict=True))


_BEARING = {"BOW": 0.0, "STN": 180.0, "L": 90.0, "R": -90.0,
            "LB": 45.0, "RB": -45.0, "LS": 135.0, "RS": -135.0}


def barrel_lines(turrets: Sequence[Turret], length: float, region: Region) -> list[Segment]:
    """A barrel per mount pointing where its battery bears, stopped at the hull edge."""
    out: list[Segment] = []
    smallest = min((t.radius for t in turrets), default=0.0)
    for t in turrets:
        bearing = _BEARING.get(t.position)
        if bearing is None:  # C: towards the nearer end
            bearing = 0.0 if t.x >= length / 2 else 180.0
        dx, dy = math.cos(math.radians(bearing)), math.sin(math.radians(bearing))
        # Stop short by about half the drawn barrel width, so its round cap stays inside.
        fit = region.span(t.x, t.y, dx, dy, 0.2 * smallest)
        reach = min(1.8 * t.radius, fit[1] if fit else 0.0)
        # A stub barely outside the circle reads as a rivet, not a gun: leave it off.
        if reach > 1.45 * t.radius:
            out.append((t.x, t.y, t.x + reach * dx, t.y + reach * dy))
    return out


def side_band(length: float, centre: Centreline) -> tuple[float, float]:
    """Stretch of side between the forward and after groups, at least 30 % long.

    Secondaries flank the superstructure; when the end groups leave too little room
    the band widens over them and the side mounts shrink to pass beside the turrets.
    """
    gap = _ITEM_GAP * length
    lo, hi = centre.aft + gap, centre.fore - gap
    if hi - lo < 0.3 * length:
        mid = min(max((lo + hi) / 2, 0.3 * length), 0.62 * length)
        lo, hi = mid - 0.15 * length, mid + 0.15 * length
    return (lo, hi)
