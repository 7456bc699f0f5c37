"""Surface Action turn guides and ruler, read back from the PDF and measured.

Every nominal number comes from the rule text (III: 1 in = 1,000 yd, 1 in per turn = 6 kn,
a 1.25 in circle at ½ in per 30° or part, a 2.5 in circle at 1 in for BB and BC, the
counter is degrees ÷ 30 rounded up; V.E: night hit values drop beyond 6 in; the damage
charts: −1 beyond 24 in), never from the code under test. Positions on the ruler are
found from the printed inch numbers, not from the layout the code reports.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path

import pdfplumber
import pytest

from generator.core import fonts
from generator.core.units import MM
from generator.rulesets.surface_action.charts import load_charts
from generator.rulesets.surface_action.components.aids import inches_text
from generator.rulesets.surface_action.components.ruler import (
    range_strip,
    render_ruler,
    speed_entries,
)
from generator.rulesets.surface_action.components.turnguide import render_turn_guide

IN_MM = 25.4
PT_PER_IN = 72.0
BANDS = [6, 12, 18, 24, 30, 36]
SPEEDS = [("Fubuki", 6.0), ("Kongo", 5.0), ("Yamato", 4.5), ("Atlanta", 5.5),
          ("Hatsuyuki", 6.0), ("Myoko", 5.5), ("Benham", 6.0)]


@pytest.fixture(scope="module")
def charts():  # type: ignore[no-untyped-def]
    return load_charts()


def write(tmp: Path, name: str, pdf: bytes) -> Path:
    path = tmp / name
    path.write_bytes(pdf)
    return path


def inches(text: str) -> float:
    """``1½ in`` as 1.5 (the test's own reading of the printed fractions)."""
    match = re.fullmatch(r"(\d*)([¼½¾]?) in", text)
    assert match, text
    whole, part = match.groups()
    return int(whole or 0) + {"": 0, "¼": 0.25, "½": 0.5, "¾": 0.75}[part]


# -- turn guides -------------------------------------------------------------------------------

def circles(page: pdfplumber.page.Page) -> list[tuple[float, float, float]]:
    """(centre x, centre y from the top, diameter) of every closed round curve over 20 mm."""
    found = []
    for curve in page.curves:
        w, h = curve["x1"] - curve["x0"], curve["bottom"] - curve["top"]
        if w > 20 * MM and abs(w - h) < 0.01:
            found.append(((curve["x0"] + curve["x1"]) / 2, (curve["top"] + curve["bottom"]) / 2,
                          w))
    return found


def marks(page: pdfplumber.page.Page, cx: float, cy: float,
          radius: float) -> list[tuple[float, float]]:
    """(bearing clockwise from up, line width) of each line crossing the circle on a ray."""
    out = []
    for ln in page.lines:
        (x0, y0), (x1, y1) = ln["pts"]
        a, b = (x0 - cx, cy - y0), (x1 - cx, cy - y1)  # y up
        ra, rb = math.hypot(*a), math.hypot(*b)
        if not min(ra, rb) < radius < max(ra, rb):
            continue
        if abs(a[0] * b[1] - a[1] * b[0]) > 1e-3 * ra * rb:
            continue  # not on a ray from the centre
        far = a if ra > rb else b
        out.append((math.degrees(math.atan2(far[0], far[1])) % 360, ln["linewidth"]))
    return sorted(out)


def turn_guides(path: Path) -> Iterator[dict]:  # type: ignore[type-arg]
    """Every guide on every page: circle, marks, and the words round each mark."""
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            words = page.extract_words(keep_blank_chars=True, x_tolerance=1.5)
            for cx, cy, diameter in circles(page):
                radius = diameter / 2
                found = marks(page, cx, cy, radius)
                labels: dict[float, list[dict]] = {b: [] for b, _ in found}  # type: ignore[type-arg]
                inside = []
                for word in words:
                    wx, wy = (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2
                    dist = math.hypot(wx - cx, wy - cy)
                    bearing = math.degrees(math.atan2(wx - cx, cy - wy)) % 360
                    if dist < radius:
                        inside.append(word["text"])
                    elif dist < radius + 16 * MM and found:
                        near = min(labels, key=lambda b: abs((b - bearing + 180) % 360 - 180))
                        if abs((near - bearing + 180) % 360 - 180) < 15:
                            labels[near].append(word)
                # arrowheads: small filled triangles inside the circle
                heads = [math.degrees(math.atan2(sum(x for x, _ in c["pts"][:3]) / 3 - cx,
                                                 cy - sum(y for _, y in c["pts"][:3]) / 3)) % 360
                         for c in page.curves if c["fill"] and c["x1"] - c["x0"] < 8 * MM
                         and math.hypot((c["x0"] + c["x1"]) / 2 - cx,
                                        (c["top"] + c["bottom"]) / 2 - cy) < radius]
                yield {"diameter": diameter, "marks": found, "inside": inside, "heads": heads,
                       "labels": {b: [w["text"] for w in sorted(ws, key=lambda w: w["top"])]
                                  for b, ws in labels.items()}}


@pytest.fixture(scope="module", params=["a4", "letter"])
def guide_pdf(request: pytest.FixtureRequest, charts,  # type: ignore[no-untyped-def]
              tmp_path_factory: pytest.TempPathFactory) -> Path:
    component = render_turn_guide(charts, request.param, "Surface Action · test")
    assert component.key == "turn-guide"
    return write(tmp_path_factory.mktemp("guide"), "guide.pdf", component.pdf)


def test_circles_are_exact_size(guide_pdf: Path) -> None:
    sizes = [g["diameter"] / MM for g in turn_guides(guide_pdf)]
    small = [d for d in sizes if abs(d - 1.25 * IN_MM) <= 0.05]
    large = [d for d in sizes if abs(d - 2.5 * IN_MM) <= 0.05]
    assert len(small) + len(large) == len(sizes), sizes  # no other size
    assert len(large) >= 2 and len(small) >= 4  # several of each to cut out


def test_twelve_marks_thirty_degrees_apart(guide_pdf: Path) -> None:
    for guide in turn_guides(guide_pdf):
        bearings = [b for b, _ in guide["marks"]]
        assert len(bearings) == 12, bearings
        for i, bearing in enumerate(bearings):
            assert abs(bearing - bearings[0] - 30 * i) <= 0.1, bearings
        # the ship heads up the card: the start sits at 9 o'clock (right) or 3 (left)
        heavy = [b for b, width in guide["marks"] if width > 1.0]
        assert len(heavy) == 1
        assert min(abs(heavy[0] - 270), abs(heavy[0] - 90)) <= 0.1


def test_labels_give_degrees_cost_and_counter(guide_pdf: Path) -> None:
    seen = set()
    for guide in turn_guides(guide_pdf):
        large = abs(guide["diameter"] / MM - 2.5 * IN_MM) <= 0.05
        per_step = 1.0 if large else 0.5  # the text: 1 in per 30° on 2.5 in, ½ in on 1.25 in
        inside = " ".join(guide["inside"])
        right = "RIGHT TURN" in inside
        assert right != ("LEFT TURN" in inside)
        assert ("BB, BC only" if large else "all but BB, BC") in inside
        order = []
        for bearing, _ in guide["marks"]:
            words = guide["labels"][bearing]
            assert len(words) == 3, words  # degrees, cost, counter: in that order down
            degrees = int(words[0].rstrip("°"))
            assert words[0].endswith("°")
            assert inches(words[1]) == degrees / 30 * per_step
            assert int(words[2]) == math.ceil(degrees / 30)
            order.append(degrees)
            seen.add((large, degrees, words[1]))
        assert sorted(order) == list(range(30, 361, 30))
        # the ship heads up the card with the centre on its turning side: a right turn
        # starts at 9 o'clock, a left one at 3 o'clock
        bearings = [b for b, _ in guide["marks"]]
        start_bearing = bearings[order.index(360)]
        assert abs(start_bearing - (270 if right else 90)) <= 0.1
        # the arrow leaves the start towards the 30° mark
        assert len(guide["heads"]) == 1
        step = (bearings[order.index(30)] - start_bearing + 180) % 360 - 180
        head = (guide["heads"][0] - start_bearing + 180) % 360 - 180
        assert step == pytest.approx(30 if right else -30, abs=0.1)
        assert 20 < abs(head) < 60 and head * step > 0
        # clockwise round the card the turn grows for a right guide and shrinks for a left
        start = order.index(360)
        rolled = order[start + 1:] + order[:start + 1]
        assert rolled == (list(range(30, 361, 30)) if right else list(range(330, -1, -30))[:-1]
                          + [360])
    assert (False, 90, "1½ in") in seen and (True, 90, "3 in") in seen
    assert (False, 30, "½ in") in seen and (True, 360, "12 in") in seen


def test_turn_guide_page_has_calibration_and_legible_type(guide_pdf: Path) -> None:
    check_pages(guide_pdf)


def test_guide_follows_the_charts(charts, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A house rule's circle and cost reach the card (the numbers are data)."""
    move = charts.movement.model_copy(update={"small_circle_in": 1.5, "small_cost_in": 0.75})
    house = charts.model_copy(update={"movement": move})
    path = write(tmp_path, "house.pdf", render_turn_guide(house, "a4", "t").pdf)
    small = [g for g in turn_guides(path) if abs(g["diameter"] / MM - 1.5 * IN_MM) <= 0.05]
    assert small
    costs = {g["labels"][b][1] for g in small for b, _ in g["marks"]
             if g["labels"][b][0] == "90°"}
    assert costs == {"2¼ in"}


# -- ruler -------------------------------------------------------------------------------------

def check_pages(path: Path) -> None:
    """Calibration bars, the margin, and no type under 7 pt, on every page."""
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            assert "Check this before you cut" in page.extract_text()
            bars = [r["width"] / MM for r in page.rects if r["fill"]
                    and abs(r["height"] - 2.2 * MM) < 0.01]
            assert any(abs(b - 100.0) <= 0.01 for b in bars)
            assert any(abs(b - 4 * IN_MM) <= 0.01 for b in bars)
            for obj in page.chars + page.rects + page.lines + page.curves:
                assert obj["x0"] >= 10 * MM - 0.01 and obj["x1"] <= page.width - 10 * MM + 0.01
                assert obj["top"] >= 10 * MM - 0.01
                assert obj["bottom"] <= page.height - 10 * MM + 0.01
            assert min(c["size"] for c in page.chars) >= 7.0 - 1e-6


def pieces(path: Path) -> Iterator[dict]:  # type: ignore[type-arg]
    """Each strip piece: its title, origin (page x of 0 in) and its ticks in inches.

    The origin comes from the printed inch numbers under the long ticks; every number on
    a piece must agree on it to 0.02 mm, or the piece is mis-ruled.
    """
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            outlines = [r for r in page.rects if r["stroke"] and not r["fill"]
                        and r["width"] > 40 * MM and 10 * MM < r["height"] < 60 * MM]
            for box in outlines:
                top, height = box["top"], box["height"]
                inside = page.crop((box["x0"], box["top"], box["x1"], box["bottom"]))
                ticks = sorted((ln["x0"], ln["bottom"] - ln["top"]) for ln in page.lines
                               if abs(ln["x0"] - ln["x1"]) < 1e-3 and abs(ln["top"] - top) < 0.01
                               and box["x0"] - 0.01 <= ln["x0"] <= box["x1"] + 0.01
                               and ln["bottom"] - ln["top"] < height - 1)
                major = [x for x, length in ticks if abs(length - 6 * MM) < 0.01]
                origins = []
                for word in inside.extract_words():
                    centre = (word["x0"] + word["x1"]) / 2
                    if word["text"].isdigit() and top + 6 * MM < word["top"] < top + 10 * MM:
                        tick = min(major, key=lambda x, c=centre: abs(x - c))
                        assert abs(tick - centre) < 0.05, (word, tick)
                        origins.append(tick - int(word["text"]) * PT_PER_IN)
                assert origins, "a piece without a single inch number"
                assert max(origins) - min(origins) <= 0.02 * MM, origins
                origin = origins[0]
                yield {"title": inside.extract_text(), "origin": origin, "page": page,
                       "box": box, "inside": inside,
                       "ticks": [(x - origin) / PT_PER_IN for x, _ in ticks],
                       "major": [(x - origin) / PT_PER_IN for x in major]}


@pytest.fixture(scope="module", params=["a4", "letter"])
def ruler_pdf(request: pytest.FixtureRequest, charts,  # type: ignore[no-untyped-def]
              tmp_path_factory: pytest.TempPathFactory) -> Path:
    component = render_ruler(charts, BANDS, SPEEDS, request.param, "Surface Action · test")
    assert component.key == "ruler"
    return write(tmp_path_factory.mktemp("ruler"), "ruler.pdf", component.pdf)


def test_whole_inches_are_25_4_mm_apart_to_the_last_band(ruler_pdf: Path) -> None:
    covered: set[int] = set()
    last = 0.0
    count = 0
    for piece in pieces(ruler_pdf):
        if "Range ruler" not in piece["title"]:
            continue
        count += 1
        major = piece["major"]
        for a, b in zip(major, major[1:], strict=False):
            assert abs((b - a) * IN_MM - IN_MM) <= 0.02, (a, b)
        for at in major:
            assert abs(at - round(at)) * IN_MM <= 0.02
            covered.add(round(at))
        for at in piece["ticks"]:  # every tick on the quarter inch
            assert abs(at * 4 - round(at * 4)) * IN_MM / 4 <= 0.02, at
        last = max(last, *piece["ticks"])
    assert count > 1  # a 36 in ruler is split into pieces that join
    assert covered == set(range(0, max(BANDS) + 1))
    assert abs(last - max(BANDS)) * IN_MM <= 0.02  # ruled exactly to the longest band


def test_bands_yards_and_rule_marks(ruler_pdf: Path) -> None:
    starts, ends, reds, text = set(), set(), [], ""
    for piece in pieces(ruler_pdf):
        if "Range ruler" not in piece["title"]:
            continue
        box, origin, page = piece["box"], piece["origin"], piece["page"]
        text += piece["title"] + "\n"
        for r in page.rects:
            if (r["fill"] and abs(r["height"] - 3.0 * MM) < 0.01
                    and box["x0"] - 0.01 <= r["x0"] and r["x1"] <= box["x1"] + 0.01
                    and box["top"] <= r["top"] <= box["bottom"]):
                if r["x0"] > box["x0"] + 1:  # not cut off by the piece's own edge
                    starts.add(round((r["x0"] - origin) / PT_PER_IN, 3))
                if r["x1"] < box["x1"] - 1:
                    ends.add(round((r["x1"] - origin) / PT_PER_IN, 3))
        for ln in page.lines:
            colour = ln.get("stroking_color")
            if (abs(ln["x0"] - ln["x1"]) < 1e-3 and box["x0"] < ln["x0"] < box["x1"]
                    and box["top"] <= ln["top"] and ln["bottom"] <= box["bottom"]
                    and colour is not None and len(colour) == 3 and colour[0] > 0.7
                    and colour[1] < 0.2):
                reds.append(round((ln["x0"] - origin) / PT_PER_IN, 4))
    assert starts == {0, 6, 12, 18, 24, 30}
    assert ends == {6, 12, 18, 24, 30, 36}
    for i, (lo, hi) in enumerate(zip([0, *BANDS], BANDS, strict=False), 1):
        assert f"band {i} · {lo}–{hi} in" in text
    assert sorted(set(reds)) == [6.0, 24.0]  # night limit (V.E), damage charts' −1
    assert "beyond 6 in: night hit value −1" in text
    assert "beyond 24 in: damage roll −1" in text
    for yd in range(0, 36001, 2000):  # 1 in = 1,000 yd
        assert f"{yd:,} yd" in text


def test_speed_scale_marks_each_ship(ruler_pdf: Path) -> None:
    speed = [p for p in pieces(ruler_pdf) if "Speed scale" in p["title"]]
    assert len(speed) == 1
    piece = speed[0]
    assert "1 in = 6 kn" in piece["title"]
    origin, page, box = piece["origin"], piece["page"], piece["box"]
    reds = {round((ln["x0"] - origin) / PT_PER_IN, 4) for ln in page.lines
            if abs(ln["x0"] - ln["x1"]) < 1e-3 and box["x0"] < ln["x0"] < box["x1"]
            and box["top"] <= ln["top"] and ln["bottom"] <= box["bottom"]
            and ln["linewidth"] == pytest.approx(0.9)}
    assert reds == {s for _, s in SPEEDS}
    words = piece["inside"].extract_words()
    for name, inches_ in SPEEDS:
        hit = [w for w in words if w["text"].rstrip(",") == name]
        assert hit, name
        # the label ends just left of its own line (6 kn per inch)
        line_x = origin + inches_ * PT_PER_IN
        label = [w for w in words if abs(w["top"] - hit[0]["top"]) < 0.5
                 and w["x1"] <= line_x + 0.01]
        assert max(w["x1"] for w in label) > line_x - 3 * MM
        assert f"{inches_ * 6:g} kn" in " ".join(w["text"] for w in label)
    # knots centred under every half inch: 3 kn steps
    for half in range(1, 13):
        x = origin + half * PT_PER_IN / 2
        assert [w for w in piece["inside"].extract_words(keep_blank_chars=True)
                if w["text"] == f"{half * 3} kn" and abs((w["x0"] + w["x1"]) / 2 - x) < 0.05]


def test_speed_labels_never_cross_a_line(charts) -> None:  # type: ignore[no-untyped-def]
    """A label only shares a row's height with lines that reach no lower than it does."""
    entries = speed_entries(charts, [(f"Ship {i}", 3 + i / 4) for i in range(12)])
    crowded = 0
    for e in entries:
        left = e.inches * PT_PER_IN - 1 * MM - fonts.string_width(e.label, fonts.NARROW_BOLD, 7)
        for other in entries:
            if other is not e and left - 1 * MM <= other.inches * PT_PER_IN <= e.inches * 72:
                assert other.row < e.row
                crowded += 1
    assert crowded >= 12  # 21 today: twelve ships 1/4 in apart crowd each other's labels


def test_generic_speed_scale_and_odd_bands(charts, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # a last band off the quarter-inch grid still ends the ruler exactly
    path = write(tmp_path, "generic.pdf", render_ruler(charts, [4, 9, 15.3], [], "a4", "t").pdf)
    ranges = [p for p in pieces(path) if "Range ruler" in p["title"]]
    assert abs(max(t for p in ranges for t in p["ticks"]) - 15.3) * IN_MM <= 0.02
    speed = [p for p in pieces(path) if "Speed scale" in p["title"]]
    assert len(speed) == 1
    text = speed[0]["title"]
    assert "½ in steps" in text
    for half in range(1, 17):  # every ½ in, 3 kn a step
        assert f"{half * 3} kn" in text
    page, box = speed[0]["page"], speed[0]["box"]
    assert not [ln for ln in page.lines if ln["linewidth"] == pytest.approx(0.9)
                and box["top"] <= ln["top"] and ln["bottom"] <= box["bottom"]]
    check_pages(path)


def test_ruler_pages_have_calibration_and_legible_type(ruler_pdf: Path) -> None:
    check_pages(ruler_pdf)


def test_bad_bands_are_refused(charts) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="grow from above 0"):
        range_strip(charts, [6, 6, 12])
    with pytest.raises(ValueError, match="grow from above 0"):
        range_strip(charts, [])


@pytest.mark.parametrize("value,text", [(0.5, "½ in"), (1.5, "1½ in"), (3, "3 in"),
                                        (1.25, "1¼ in"), (2.75, "2¾ in"), (1.1, "1.1 in")])
def test_inches_text(value: float, text: str) -> None:
    assert inches_text(value) == text
