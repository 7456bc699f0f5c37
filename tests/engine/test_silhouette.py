"""Marker silhouettes: geometry for every bundled class, extremes, and what reaches the PDF.

The geometric checks here are written independently of the module's own helpers
(ray-casting point-in-polygon, point-to-segment distances), so a bug in its clearance
arithmetic cannot hide itself.
"""

from __future__ import annotations

import functools
import io
import math
from pathlib import Path

import pdfplumber
import pytest
import yaml
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.pieces.silhouette import (
    CARRIERS,
    POSITIONS,
    SHIP_TYPES,
    Silhouette,
    build_silhouette,
    default_funnels,
    draw_silhouette,
)
from generator.pieces.silhouettehull import Turret
from tests.paths import ROOT

CLASS_FILES = sorted((ROOT / "shipdata" / "classes").glob("*/*.yaml"))
PT_PER_FT = 0.3048 / 12000 * 1000 / 25.4 * 72  # 1:12,000, in points
ASPECTS = (3.0, 4.5, 7.0)  # length / exaggerated beam: fat, likely, nearly real
HULL = colors.Color(0.85, 0.85, 0.8)
TURRET = colors.Color(0.3, 0.3, 0.35)
EPS = 1e-9


# --- Independent geometry ---------------------------------------------------------

def point_in_polygon(x: float, y: float, poly: tuple[tuple[float, float], ...]) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, (*poly[1:], poly[0]), strict=True):
        if (y1 > y) != (y2 > y):
            cross = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < cross:
                inside = not inside
    return inside


def seg_dist(px: float, py: float, x1: float, y1: float, x2: float, y2: float) -> float:
    dx, dy = x2 - x1, y2 - y1
    t = 0.0 if dx == dy == 0 else ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy)
    t = min(1.0, max(0.0, t))
    return math.hypot(px - x1 - t * dx, py - y1 - t * dy)


def edge_dist(x: float, y: float, poly: tuple[tuple[float, float], ...]) -> float:
    return min(seg_dist(x, y, *a, *b) for a, b in zip(poly, (*poly[1:], poly[0]), strict=True))


def circle_inside(t: Turret, poly: tuple[tuple[float, float], ...]) -> bool:
    return point_in_polygon(t.x, t.y, poly) and edge_dist(t.x, t.y, poly) >= t.radius - EPS


def overlaps(ts: tuple[Turret, ...]) -> list[tuple[Turret, Turret]]:
    return [(a, b) for i, a in enumerate(ts) for b in ts[i + 1:]
            if math.hypot(a.x - b.x, a.y - b.y) < a.radius + b.radius - EPS]


def ellipse_hits_circle(e: tuple[float, float, float, float], t: Turret) -> bool:
    cx, cy, rx, ry = e
    if ((t.x - cx) / rx) ** 2 + ((t.y - cy) / ry) ** 2 <= 1:
        return True
    return any(math.hypot(cx + rx * math.cos(a) - t.x, cy + ry * math.sin(a) - t.y) < t.radius
               for a in (2 * math.pi * k / 90 for k in range(90)))


def assert_sound(sil: Silhouette) -> None:
    """Inside the hull, apart from each other, inside the box: the promises for any input."""
    half = sil.beam / 2
    outside = [t for t in sil.turrets if not circle_inside(t, sil.hull)]
    assert not outside, f"turrets crossing the hull: {outside}"
    assert not overlaps(sil.turrets)
    assert all(t.radius > 0 for t in sil.turrets)
    points = [*sil.hull, *(sil.flight_deck or ())]
    points += [(x, y) for x1, y1, x2, y2 in sil.catapults for x, y in ((x1, y1), (x2, y2))]
    points += [(cx + sx * rx, cy + sy * ry) for cx, cy, rx, ry in sil.funnels
               for sx in (-1, 1) for sy in (-1, 1)]
    if sil.island:
        x, y, w, h = sil.island
        points += [(x, y), (x + w, y + h)]
    for x, y in points:
        assert -EPS <= x <= sil.length + EPS and -half - EPS <= y <= half + EPS, (x, y)


# --- Loading the data -------------------------------------------------------------

@functools.cache
def load(path: Path) -> dict:
    """A class file's data, parsed once (each file is checked at every aspect; callers only
    read it)."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def batteries(data: dict) -> list[tuple[str, int]]:
    return [(b["position"], b.get("turrets") or b["guns"]) for b in data.get("guns", [])]


def silhouette_for(data: dict, aspect: float = 4.5) -> Silhouette:
    length = data["length_ft"] * PT_PER_FT
    funnels = data.get("funnels")
    if funnels is None:
        funnels = default_funnels(data["type"])
    catapults = (data.get("aircraft") or {}).get("catapults", 0)
    return build_silhouette(length, length / aspect, data["type"], batteries(data), funnels,
                            catapults)


def class_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


# --- Every bundled class ----------------------------------------------------------

def test_the_data_is_there() -> None:
    assert len(CLASS_FILES) > 100


@pytest.mark.parametrize("aspect", ASPECTS)
@pytest.mark.parametrize("path", CLASS_FILES, ids=class_id)
def test_class_silhouette(path: Path, aspect: float) -> None:
    data = load(path)
    sil = silhouette_for(data, aspect)
    length, half, kind = sil.length, sil.beam / 2, data["type"]

    assert len(sil.turrets) == sum(n for _, n in batteries(data))
    per_position = {p: sum(n for q, n in batteries(data) if q == p) for p in POSITIONS}
    assert {p: sum(t.position == p for t in sil.turrets) for p in POSITIONS} == per_position
    assert_sound(sil)

    for t in sil.turrets:
        if t.position == "BOW":
            assert t.x > 0.5 * length
        if t.position == "STN":
            assert t.x < 0.5 * length
        if t.position in ("BOW", "STN", "C"):
            assert t.y == 0
        if t.position in ("L", "LB", "LS"):
            assert t.y > 0
        if t.position in ("R", "RB", "RS"):
            assert t.y < 0

    # Bow point at the length, on the centreline; a stern with width, not a point.
    assert (length, 0.0) in sil.hull
    assert max(x for x, _ in sil.hull) == length
    stern = [y for x, y in sil.hull if x == 0]
    assert max(stern) - min(stern) > (0.05 if kind == "SS" else 0.5) * half

    funnels = data.get("funnels")
    expected_funnels = default_funnels(kind) if funnels is None else funnels
    if kind == "SS":
        assert sil.funnels == ()
        assert sil.island is not None and sil.island[1] < 0 < sil.island[1] + sil.island[3]
    else:
        assert len(sil.funnels) == expected_funnels
    assert not [(f, t) for f in sil.funnels for t in sil.turrets if ellipse_hits_circle(f, t)]

    if kind in CARRIERS:
        assert sil.flight_deck is not None
        deck_xs = [x for x, _ in sil.flight_deck]
        assert max(deck_xs) - min(deck_xs) > 0.8 * length
        x, y, w, h = sil.island
        assert y < 0 and y + h < 0
        assert 0.3 * length < x + w / 2 < 0.7 * length
        for cx, cy, rx, ry in sil.funnels:
            assert x <= cx - rx and cx + rx <= x + w and y <= cy - ry and cy + ry <= y + h
    else:
        assert sil.flight_deck is None
        if kind != "SS":
            assert sil.island is None
            # Surface funnels stand on the centreline amidships.
            for cx, cy, _, _ in sil.funnels:
                assert cy == 0 and 0.2 * length < cx < 0.8 * length

    expected_catapults = 0 if kind == "SS" else (data.get("aircraft") or {}).get("catapults", 0)
    assert len(sil.catapults) == expected_catapults
    for x1, y1, x2, y2 in sil.catapults:
        angle = math.degrees(math.atan2(abs(y2 - y1), abs(x2 - x1)))
        if kind in CARRIERS:
            assert angle == 0 and x1 > 0.5 * length
        else:
            assert 25 < angle < 35
            assert 0.15 * length < (x1 + x2) / 2 < 0.65 * length
        # The real classes all have room to keep catapults off the mounts.
        assert all(seg_dist(t.x, t.y, x1, y1, x2, y2) > t.radius for t in sil.turrets)


def test_big_few_turrets_are_big_and_crowded_sides_small() -> None:
    hood = silhouette_for(load(CLASS_FILES[0].parent.parent / "uk" / "hood.yaml"))
    nagato = silhouette_for(load(CLASS_FILES[0].parent.parent / "jp" / "nagato.yaml"))
    # Four big turrets: as large as the 0.3 x beam / 4.5 % of length cap allows.
    assert min(t.radius for t in hood.turrets) == pytest.approx(
        min(0.3 * hood.beam, 0.045 * hood.length), rel=1e-6)
    main = max(t.radius for t in nagato.turrets if t.position == "BOW")
    side = max(t.radius for t in nagato.turrets if t.position == "L")
    assert side < 0.5 * main  # nine casemates a side


def test_takao_reads_like_takao() -> None:
    sil = silhouette_for(load(CLASS_FILES[0].parent.parent / "jp" / "takao.yaml"))
    bow = sorted((t for t in sil.turrets if t.position == "BOW"), key=lambda t: -t.x)
    stn = sorted((t for t in sil.turrets if t.position == "STN"), key=lambda t: t.x)
    assert 0.78 * sil.length <= bow[0].x <= 0.85 * sil.length
    assert 0.10 * sil.length <= stn[0].x and stn[-1].x <= 0.40 * sil.length
    # Funnels between the groups; catapults between the funnels and the after turrets.
    for cx, *_ in sil.funnels:
        assert stn[-1].x < cx < bow[-1].x
    cat_x = [(x1 + x2) / 2 for x1, _, x2, _ in sil.catapults]
    assert all(stn[-1].x < x < min(f[0] for f in sil.funnels) for x in cat_x)
    # A pair: one catapult each side.
    assert sorted(y2 > 0 for _, _, _, y2 in sil.catapults) == [False, True]


def test_batteries_at_one_position_are_merged() -> None:
    sil = build_silhouette(100, 20, "BB", [("BOW", 2), ("STN", 1), ("BOW", 1)], 1, 0)
    assert sum(t.position == "BOW" for t in sil.turrets) == 3
    assert_sound(sil)


def test_submarine_and_merchant_ignore_what_they_lack() -> None:
    sub = build_silhouette(60, 10, "SS", [("BOW", 1)], 2, 1)
    assert sub.funnels == () and sub.catapults == ()
    merchant = build_silhouette(120, 25, "AK", [("STN", 1)], 1, 0)
    assert len(merchant.funnels) == 1 and merchant.island is None


def test_default_funnels() -> None:
    assert {t: default_funnels(t) for t in SHIP_TYPES} == {
        "BB": 2, "BC": 2, "CV": 1, "CVL": 1, "CVE": 1, "CA": 2, "CL": 2, "CLAA": 2,
        "DL": 2, "DD": 2, "DE": 1, "TB": 1, "SS": 0, "AK": 1, "AP": 1}
    with pytest.raises(ValueError, match="unknown ship type"):
        default_funnels("XX")


@pytest.mark.parametrize(("args", "message"), [
    ((0, 10, "DD", [], 2, 0), "box"),
    ((100, 10, "XX", [], 2, 0), "ship type"),
    ((100, 10, "DD", [("Q", 1)], 2, 0), "position"),
    ((100, 10, "DD", [("BOW", -1)], 2, 0), "negative"),
])
def test_bad_input_is_refused(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_silhouette(*args)


# --- Extremes ---------------------------------------------------------------------

@pytest.mark.parametrize("kind", SHIP_TYPES)
@pytest.mark.parametrize("aspect", (2.0, 4.5, 12.0))
@pytest.mark.parametrize("load_out", ["12 one side", "12 everywhere", "every position"])
def test_extremes_stay_inside_and_apart(kind: str, aspect: float, load_out: str) -> None:
    if load_out == "12 one side":
        mounts = [("BOW", 2), ("STN", 2), ("R", 12)]
    elif load_out == "12 everywhere":
        mounts = [(p, 12) for p in POSITIONS]
    else:
        mounts = [(p, 1) for p in POSITIONS]
    sil = build_silhouette(100.0, 100.0 / aspect, kind, mounts, 4, 6)
    assert len(sil.turrets) == sum(n for _, n in mounts)
    assert_sound(sil)
    # Crowded, not vanished: even 108 mounts keep a visible size.
    assert min(t.radius for t in sil.turrets) > 0.005 * sil.beam
    if load_out == "12 one side":
        side = [t for t in sil.turrets if t.position == "R"]
        assert all(t.y < 0 for t in side)
        xs = sorted(t.x for t in side)
        assert xs[-1] - xs[0] > 0.2 * sil.length  # spread, not stacked


# --- The PDF ----------------------------------------------------------------------

def render(sils: list[Silhouette], turret_fill: colors.Color, ink: colors.Color = colors.black
           ) -> list[dict]:
    buf = io.BytesIO()
    canvas = Canvas(buf, invariant=1)
    for i, sil in enumerate(sils):
        draw_silhouette(canvas, sil, 40, 100 + 80 * i, hull_fill=HULL, ink=ink,
                        turret_fill=turret_fill)
    canvas.save()
    with pdfplumber.open(io.BytesIO(buf.getvalue())) as pdf:
        page = pdf.pages[0]
        return [{**c, "page_height": page.height} for c in page.curves]


def same_colour(a: tuple | None, b: colors.Color) -> bool:
    return a is not None and len(a) == 3 and all(
        abs(x - y) < 1e-3 for x, y in zip(a, b.rgb(), strict=True))


@pytest.mark.parametrize("name", ["jp/takao", "jp/shokaku", "jp/nagato", "de/type-vii"])
def test_pdf_draws_one_circle_per_turret(name: str) -> None:
    sil = silhouette_for(load(CLASS_FILES[0].parent.parent / f"{name}.yaml"))
    curves = render([sil], TURRET)
    circles = [c for c in curves if same_colour(c["non_stroking_color"], TURRET)]
    assert len(circles) == len(sil.turrets)
    # Each is where a turret is: its box centred on the turret, 2r across.
    found = sorted(((c["x0"] + c["x1"]) / 2 - 40, c["x1"] - c["x0"]) for c in circles)
    expected = sorted((t.x, 2 * t.radius) for t in sil.turrets)
    for (x, width), (tx, diameter) in zip(found, expected, strict=True):
        assert x == pytest.approx(tx, abs=0.01) and width == pytest.approx(diameter, abs=0.01)
    # The hull is drawn too, in its own colour.
    assert any(same_colour(c["non_stroking_color"], HULL) for c in curves)


def test_pdf_turret_count_survives_a_turret_fill_equal_to_ink() -> None:
    # Funnels and the island are filled with mixes, never the ink itself.
    carrier = silhouette_for(load(CLASS_FILES[0].parent.parent / "us" / "essex.yaml"))
    cruiser = silhouette_for(load(CLASS_FILES[0].parent.parent / "us" / "baltimore.yaml"))
    black = colors.Color(0, 0, 0)
    curves = render([carrier, cruiser], black, ink=black)
    count = sum(same_colour(c["non_stroking_color"], black) for c in curves)
    assert count == len(carrier.turrets) + len(cruiser.turrets)
    assert len(carrier.turrets) != len(cruiser.turrets)


def test_c_mounts_between_the_funnels_or_just_aft() -> None:
    two = build_silhouette(100, 20, "DL", [("BOW", 1), ("C", 1), ("STN", 1)], 2, 0)
    (c,) = [t for t in two.turrets if t.position == "C"]
    aft_funnel, fore_funnel = sorted(f[0] for f in two.funnels)
    assert aft_funnel < c.x < fore_funnel
    one = build_silhouette(100, 20, "CL", [("BOW", 1), ("C", 2), ("STN", 1)], 1, 0)
    (funnel,) = one.funnels
    stn = max(t.x for t in one.turrets if t.position == "STN")
    assert all(stn < t.x < funnel[0] for t in one.turrets if t.position == "C")
    assert_sound(two)
    assert_sound(one)
