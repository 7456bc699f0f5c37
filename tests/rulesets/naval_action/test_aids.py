"""Precision aids read back from the PDF: every tick, knot, arc and bar where it belongs.

Nominal positions come from the rule text's own figures ("3cm per 1000 yds./.5cm per
knot", "1,333 yards wide -4"/cm") or from the class files by the text's arithmetic, never
from the code under test; the layout only says which page and segment to look on.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pypdfium2
import pytest
import yaml
from click.testing import CliRunner
from pypdf import PdfReader

from generator.aids.rangestrings import render_tapes
from generator.aids.strips import OVERLAP, SegmentView
from generator.cli.main import main
from generator.core.scales import NAMED_SCALES, parse_scale
from generator.core.units import MM
from generator.kit.pipeline import BuildResult, build, build_aids
from generator.pages.calibration import bar_positions
from generator.pages.layout import safe_box
from generator.rulesets.naval_action.aids import range_strings
from generator.rulesets.naval_action.cardtables import load_tables
from generator.rulesets.naval_action.components.aids import render_gauge_strips, render_rulers
from generator.rulesets.naval_action.rules import bundled_rules
from tests import builds
from tests.paths import ROOT
from tests.pdftext import Page


def read(path: Path) -> list[Page]:
    """Every page with its chars, rects, lines and curves (pypdfium2), read once."""
    return builds.pages(path, geometry=True)

TOL = 0.01 * MM
CLASSES = ROOT / "shipdata" / "classes"


def vertical_lines(page: Page, view: SegmentView) -> list[dict]:
    """Vertical lines inside a segment's strip (page y measured from the bottom)."""
    top = page.height - view.top
    bottom = page.height - view.bottom
    return [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 1e-3
            and ln["top"] >= top - TOL and ln["bottom"] <= bottom + TOL]


def ticks(page: Page, view: SegmentView) -> list[float]:
    """Strip coordinates (mm from zero) of ticks hanging from a segment's top edge."""
    top = page.height - view.top
    return sorted(round((ln["x0"] - view.origin) / MM, 4) for ln in vertical_lines(page, view)
                  if abs(ln["top"] - top) < TOL and ln["bottom"] - ln["top"] < view.height - 1)


def knots(page: Page, view: SegmentView) -> list[float]:
    """Strip coordinates (mm) of knots: lines crossing the whole strip, drawn 0.9 pt.

    A knot line is broken where a label sits on it, so its pieces at one x are joined.
    """
    spans: dict[float, list[tuple[float, float]]] = {}
    for ln in vertical_lines(page, view):
        if abs(ln["linewidth"] - 0.9) < 1e-3:
            spans.setdefault(round(ln["x0"], 3), []).append((ln["top"], ln["bottom"]))
    return sorted(round((x - view.origin) / MM, 4) for x, parts in spans.items()
                  if max(b for _, b in parts) - min(t for t, _ in parts) > view.height - TOL)


def on_segment(positions_mm: list[float], view: SegmentView) -> list[float]:
    """The nominal positions a segment shows: its body and its glue tab."""
    lo = (view.start - view.tab) / MM - 1e-6
    hi = view.end / MM + 1e-6
    return sorted(p for p in positions_mm if lo <= p <= hi)


def assert_positions(found: list[float], expected: list[float]) -> None:
    assert len(found) == len(expected), (found, expected)
    for f, e in zip(found, expected, strict=True):
        assert abs(f - e) <= 0.01, (f, e)


@pytest.fixture(scope="module")
def tables():  # type: ignore[no-untyped-def]
    return load_tables()


# -- rulers ------------------------------------------------------------------------------------

@pytest.mark.parametrize("scale_name,mm_per_1000yd,mm_per_knot,turn_mm", [
    # the text: "3cm per 1000 yds./.5cm per knot", 3" and .5", 6" and 1"; turns lose
    # 1 unit per 60° at 333, 2 at 166 (the text's 100:3, 166:2, 333:1, 667:0.5)
    ("tabletop", 30.0, 5.0, 10.0),
    ("floor", 76.2, 12.7, 25.4),
    ("large-floor", 152.4, 25.4, 50.8),
])
def test_ruler_ticks_and_turn_costs(scale_name: str, mm_per_1000yd: float, mm_per_knot: float,
                                    turn_mm: float, tables, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    scale = NAMED_SCALES[scale_name]
    component, views = render_rulers(scale, 24000, 35, tables, "a4", "test")
    path = tmp_path / "rulers.pdf"
    path.write_bytes(component.pdf)
    range_ticks = [yd / 1000 * mm_per_1000yd for yd in range(0, 24001, 100)]
    knot_ticks = [kn * mm_per_knot for kn in range(0, 36)]
    seen = {"range": 0, "move": 0}
    pdf = read(path)
    for view in views:
        page = pdf[view.page]
        nominal = range_ticks if view.strip.startswith("range") else knot_ticks
        assert_positions(ticks(page, view), on_segment(nominal, view))
        seen[view.strip.split("-")[0]] += len(on_segment(nominal, view))
        if view.strip.startswith("move") and view.index == 0:
            # turn-cost bands: 60°, 120°, 180° each one step long
            bands = sorted((r for r in page.rects if r["fill"] and
                            abs(r["height"] - 3.0 * MM) < TOL), key=lambda r: r["x0"])
            assert [round((r["x0"] - view.origin) / MM, 3) for r in bands] == \
                pytest.approx([0, turn_mm, 2 * turn_mm], abs=0.01)
            assert all(abs(r["width"] / MM - turn_mm) < 0.01 for r in bands)
    assert seen["range"] >= 241 and seen["move"] >= 36


def test_segments_overlap_by_the_glue_tab(tables, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Each later piece repeats the last 12 mm of the one before, and joins edge to line."""
    component, views = render_rulers(NAMED_SCALES["floor"], 30000, 40, tables, "letter", "t")
    path = tmp_path / "rulers.pdf"
    path.write_bytes(component.pdf)
    pieces = [v for v in views if v.strip.startswith("range")]
    assert len(pieces) > 3
    pdf = read(path)
    for before, after in zip(pieces, pieces[1:], strict=False):
        assert after.tab == pytest.approx(OVERLAP)
        assert after.start == pytest.approx(before.end)  # body starts at the cut edge
        page_b, page_a = pdf[before.page], pdf[after.page]
        # ticks in the tab equal the previous piece's last 12 mm, in strip coordinates
        tab = [t for t in ticks(page_a, after) if t < after.start / MM - 1e-6]
        tail = [t for t in ticks(page_b, before) if t >= (before.end - OVERLAP) / MM - 1e-6]
        assert tab and tab == pytest.approx(tail, abs=0.01)
        # the cut outline of the earlier piece ends at its body's end; the later piece
        # has a join line where that edge goes
        outline = [r for r in page_b.rects if not r["fill"]
                   and abs(r["bottom"] - (page_b.height - before.bottom)) < TOL
                   and abs(r["height"] - before.height) < TOL]
        assert len(outline) == 1
        assert outline[0]["x1"] - before.origin == pytest.approx(before.end, abs=TOL)
        joins = [ln for ln in vertical_lines(page_a, after)
                 if abs(ln["x0"] - after.x(after.start)) < TOL
                 and ln["bottom"] - ln["top"] > after.height - TOL]
        assert joins


# -- range strings and tapes -------------------------------------------------------------------

def class_ranges(class_id: str) -> list[int]:
    path = next(CLASSES.glob(f"*/{class_id}.yaml"))
    return [g["max_range_yd"] for g in yaml.safe_load(path.read_text())["guns"]]


def test_takao_string_rounds_up_as_the_text_says(tmp_path: Path) -> None:
    """Takao's 8in: 32,150 yd; 1/3 and 2/3 rounded up; each knot at whole cm, rounded up."""
    assert class_ranges("takao")[0] == 32150
    close, medium = math.ceil(Fraction(32150, 3)), math.ceil(Fraction(2 * 32150, 3))
    assert (close, medium) == (10717, 21434)
    # 3 cm per 1,000 yd: 32.151 -> 33, 64.302 -> 65, 96.45 -> 97
    expected = [math.ceil(Fraction(3 * yd, 1000)) for yd in (close, medium, 32150)]
    assert expected == [33, 65, 97]
    result = build_aids("strings", "savo-island", scale="tabletop", out=tmp_path)
    pdf = read(result.folder / "strings-japanese.pdf")
    text = " ".join(p.layout_text() for p in pdf)
    assert "C 33 cm (close, 10,717 yd)" in text
    assert "M 65 cm (medium, 21,434 yd)" in text
    assert "L 97 cm (long (maximum), 32,150 yd)" in text
    assert "Chōkai (BOW, STN)" in text


def test_tape_knots_equal_the_strings(tables, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from generator.data.library import validated_library
    from generator.rulesets.naval_action import RULESET

    library = validated_library([])
    scenario = library.scenarios["savo-island"].model
    for scale_name, mm_per_unit in (("tabletop", 10.0), ("floor", 25.4)):
        scale = NAMED_SCALES[scale_name]
        views = RULESET._views(library, scenario, scale)["allied"]
        strings = range_strings(views, scale, tables)
        # identical ranges are grouped: one string per distinct (close, medium, max)
        distinct = {(b.close_yd, b.medium_yd, b.max_range_yd) for v in views
                    for b in v.batteries}
        assert len([s for s in strings if s.what.endswith("guns")]) == len(distinct)
        assert len({s.color_name for s in strings}) == len(strings)
        component, segs = render_tapes(strings, scale, "a4", "t", "tapes:allied", "Tapes", "T-")
        path = tmp_path / f"tapes-{scale_name}.pdf"
        path.write_bytes(component.pdf)
        pdf = read(path)
        for string in strings:
            fired = [b for v in views for b in v.batteries
                     if string.key == f"guns-{b.max_range_yd}-{b.close_yd}-{b.medium_yd}"]
            assert bool(fired) == string.what.endswith("guns"), string.key  # knots checked
            for b in fired:
                # the text's arithmetic, independently: thirds of max, rounded up, in units
                yards_per_unit = Fraction(1000, 3)
                want = [math.ceil(Fraction(math.ceil(Fraction(b.max_range_yd * k, 3)))
                                  / yards_per_unit) for k in (1, 2, 3)]
                assert [k.units for k in string.knots] == want
            found: list[float] = []
            for view in (s for s in segs if s.strip == f"tape-{string.key}"):
                found += [k for k in knots(pdf[view.page], view)
                          if k >= view.start / MM - 1e-6]  # the tab repeats one
            assert_positions(sorted(found),
                             [k.units * mm_per_unit for k in string.knots])


def test_strings_for_a_list_of_classes_via_cli(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["strings", "--classes", "fletcher,takao", "--scale",
                                       "floor", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pdf = read(tmp_path / "aids" / "floor" / "strings-classes.pdf")
    text = pdf[0].layout_text()
    assert "Takao class" in text and "Fletcher class" in text
    # Fletcher's 5in/38: 18,200 yd; 1/3 = 6,067 yd = 18.2 in -> 19 in
    fletcher = class_ranges("fletcher")[0]
    close = math.ceil(Fraction(fletcher, 3))
    assert f"C {math.ceil(Fraction(3 * close, 1000))} in (close, {close:,} yd)" in text


# -- gauges ------------------------------------------------------------------------------------

def points(page: Page, line: dict) -> list[tuple[float, float]]:
    """A line's end points in PDF coordinates (y up; ``pts`` are from the top)."""
    return [(x, page.height - top) for x, top in line["pts"]]


def radial_bearings(page: Page, cx: float, cy: float,
                    min_r: float, max_r: float) -> set[float]:
    """Bearings (clockwise from up) of lines on a ray from the centre within a radius band."""
    out = set()
    for ln in page.lines:
        pts = [(x - cx, y - cy) for x, y in points(page, ln)]
        r = [math.hypot(*p) for p in pts]
        if not (min_r - TOL <= min(r) and max(r) <= max_r + TOL) or max(r) - min(r) < TOL:
            continue
        far, near = pts[r.index(max(r))], pts[r.index(min(r))]
        if abs(far[0] * near[1] - far[1] * near[0]) > 1e-4 * max(r) * min(r):
            continue  # not on a ray from the centre
        if far[0] * near[0] + far[1] * near[1] < 0:
            continue  # a diameter (the crosshair), not a ray
        out.add(round(math.degrees(math.atan2(far[0], far[1])) % 360, 4))
    return out


def centre_of(page: Page) -> tuple[float, float]:
    """The crosshair's centre: the middle of the longest vertical and horizontal lines."""
    vertical = max((ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 1e-3),
                   key=lambda ln: ln["height"])
    horizontal = max((ln for ln in page.lines if abs(ln["top"] - ln["bottom"]) < 1e-3),
                     key=lambda ln: ln["width"])
    return vertical["x0"], page.height - horizontal["top"]


@pytest.fixture(scope="module")
def gauges_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gauges")
    result = CliRunner().invoke(main, ["gauges", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out / "aids" / "tabletop" / "gauges.pdf"


def labelled(path: Path, label: str) -> int:
    """The index of the page labelled ``label`` (the file opens with its print note)."""
    return list(PdfReader(path).page_labels).index(label)


def test_protractor_arcs_are_the_texts(gauges_pdf: Path) -> None:
    rules = bundled_rules()
    # the text's limits, independently of the YAML: BOW/STN 35° off the far centreline,
    # L/R 15° off both, quarter batteries 15° across their own and 60° off the far one
    text = {"BOW": [(-145, 145)], "STN": [(35, 325)], "C": [(35, 145), (215, 325)],
            "L": [(195, 345)], "R": [(15, 165)], "LB": [(240, 375)], "RB": [(-15, 120)],
            "LS": [(165, 300)], "RS": [(60, 195)]}
    assert {k: [tuple(a) for a in v] for k, v in rules.battery_arcs.items()} == text
    for position, arcs in text.items():
        for zone in rules.arc_exclusions[position]:
            for a, b in arcs:  # a forbidden zone never overlaps the arc
                lo, hi = zone
                assert not any(a < x % 360 < b or a < x % 360 + 360 < b
                               for x in (lo + 0.5, (lo + hi) / 2, hi - 0.5)), position
    pdf = read(gauges_pdf)
    page = pdf[labelled(gauges_pdf, "Gauge-1")]
    cx, cy = centre_of(page)
    radius = max(math.hypot(x - cx, y - cy) for ln in page.lines
                 if abs(ln["linewidth"] - 0.5) < 1e-3 for x, y in points(page, ln))
    found = radial_bearings(page, cx, cy, 10 * MM, radius)
    expected = {round(x % 360, 4) for arcs in text.values() for a in arcs for x in a}
    for bearing in expected:
        assert any(abs(bearing - f) <= 0.01 or abs(bearing - f) >= 359.99 for f in found), \
            bearing
    words = page.layout_text()
    for label in ("35°", "15°", "60°", "BOW", "STN", "L | R", "LB", "RS"):
        assert label in words


def test_turn_gauge_sectors_and_costs(gauges_pdf: Path) -> None:
    pdf = read(gauges_pdf)
    page = pdf[labelled(gauges_pdf, "Gauge-2")]
    text = page.layout_text()
    assert "Turn gauge · 333 yd per cm (tabletop)" in text
    for cost in ("−1 cm", "−2 cm", "−3 cm"):
        assert text.count(cost) == 2  # left and right
    heavy = [ln for ln in page.lines if abs(ln["linewidth"] - 0.8) < 1e-3]
    ends = [(round(x, 2), round(y, 2)) for ln in heavy for x, y in points(page, ln)]
    cx, cy = max(set(ends), key=ends.count)  # the pivot every 60° spoke starts from
    assert ends.count((cx, cy)) >= 6
    spokes = {round(math.degrees(math.atan2(x - cx, y - cy)) % 360, 3)
              for ln in heavy for x, y in points(page, ln)
              if math.hypot(x - cx, y - cy) > 20 * MM}
    expected = [0.0, 60.0, 120.0, 180.0, 240.0, 300.0]
    assert len(spokes) == len(expected)
    for spoke in spokes:  # the pivot is read to 0.01 pt, so allow 0.01°
        assert min(abs((spoke - e + 180) % 360 - 180) for e in expected) <= 0.01


def test_spread_gauge_widths(tables, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """1,333 yd at the end of the run is 4 cm, 667 yd halfway 2 cm; two turns 8 and 6 cm."""
    component, views = render_gauge_strips(tables, NAMED_SCALES["tabletop"],
                                           [(21, 8000, False), (24, 20000, True)], "a4", "t")
    path = tmp_path / "g.pdf"
    path.write_bytes(component.pdf)
    # The text's widths in yards (1,333 at the end, half that halfway, 2,000 and 2,667 in
    # a Long Lance's second turn) at its 3 cm per 1,000 yd: 0.03 mm per yard.
    text_yd = {"spread-21-8000-1": {120.0: 666.5, 240.0: 1333},
               "spread-24-20000-2": {150.0: 666.5, 300.0: 1333, 450.0: 2000, 600.0: 2667}}
    expect = {key: {at: yd * 0.03 for at, yd in widths.items()}
              for key, widths in text_yd.items()}
    pdf = read(path)
    for key, widths in expect.items():
        found: dict[float, float] = {}
        for view in (v for v in views if v.strip == key):
            for ln in vertical_lines(pdf[view.page], view):
                at = round((ln["x0"] - view.origin) / MM, 2)
                if ln["linewidth"] == pytest.approx(0.6) and ln["height"] > 10 * MM:
                    found[at] = ln["height"] / MM
        assert sorted(found) == pytest.approx(sorted(widths), abs=0.01), key
        for at, width in widths.items():
            assert found[at] == pytest.approx(width, abs=0.01), (key, at)


def test_detection_and_radar_gauges(gauges_pdf: Path) -> None:
    pdf = read(gauges_pdf)
    text = " ".join(p.layout_text() for p in pdf[2:])
    for phrase in ("Night detection, Japanese", "12,000 yd", "6,000 yd", "1,500 yd",
                   "Night detection, all others", "3,000 yd", "1,000 yd", "Radar SC",
                   "20,000 yd", "Radar SG", "30,000 yd", "Aerial torpedo range", "2,500 yd",
                   "1 in 6", "3 in 6", "automatic"):
        assert phrase in text, phrase


# -- print truth -------------------------------------------------------------------------------

def aid_files(root: Path) -> Iterator[Path]:
    yield from sorted(root.rglob("*.pdf"))


@pytest.fixture(scope="module")
def all_aids(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("aids")
    runner = CliRunner()
    for args in (["rulers", "--scale", "floor"], ["strings", "savo-island", "--scale",
                                                   "tabletop"],
                 ["gauges", "--scale", "large-floor", "--paper", "letter"],
                 ["rulers", "--scale", "250 yards per cm", "--paper", "letter"]):
        result = runner.invoke(main, [*args, "--out", str(out)])
        assert result.exit_code == 0, result.output
    return out


def test_every_aid_page_has_calibration_bars_inside_the_margin(all_aids: Path) -> None:
    files = list(aid_files(all_aids))
    assert len(files) >= 5
    for path in files:
        assert PdfReader(path).trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == \
            "/None"
        labels = PdfReader(path).page_labels
        pdf = read(path)
        for number, page in enumerate(pdf):
            if labels[number] in ("Note-1", "Blank"):
                continue  # the print note and blank backs are not aids
            assert "Check this before you cut" in page.layout_text(), path
            bars = [r["width"] / MM for r in page.rects if r["fill"]
                    and abs(r["height"] - 2.2 * MM) < TOL]
            assert any(abs(b - 100.0) <= 0.01 for b in bars), path
            assert any(abs(b - 101.6) <= 0.01 for b in bars), path
            for obj in page.chars + page.rects + page.lines + page.curves:
                assert obj["x0"] >= 10 * MM - TOL and obj["x1"] <= page.width - 10 * MM + TOL
                assert obj["top"] >= 10 * MM - TOL
                assert obj["bottom"] <= page.height - 10 * MM + TOL
            assert min(c["size"] for c in page.chars) >= 7.0 - 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_bar_measures_100_mm_at_600_dpi(all_aids: Path, paper: str) -> None:
    path = next(p for p in aid_files(all_aids) if p.name == "rulers.pdf"
                and (("250" in str(p)) == (paper == "letter")))
    pdf = pypdfium2.PdfDocument(str(path))
    page = pdf[0]
    width, height = page.get_size()
    dpi = 600
    image = page.render(scale=dpi / 72).to_pil().convert("L")
    box = safe_box(paper, landscape=width > height)  # type: ignore[arg-type]
    for (x, y, length), nominal_px in zip(bar_positions(box),
                                          (100 / 25.4 * dpi, 4 * dpi), strict=True):
        row = round((height - (y + 1.1 * MM)) * dpi / 72)
        start = round(x * dpi / 72)
        pixels = image.crop((start - 30, row, start + round(length * dpi / 72) + 30, row + 1))
        dark = [i for i in range(pixels.width) if pixels.getpixel((i, 0)) < 128]
        run = dark[-1] - dark[0] + 1
        assert len(dark) == run  # one solid bar
        assert abs(run - nominal_px) <= 1, (run, nominal_px)


def test_cli_errors_are_clear(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["rulers", "--scale", "1:1000", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "--scale: found '1:1000', expected tabletop, floor, large-floor, marker or " \
        "'N yards per cm|in'" in result.output
    result = runner.invoke(main, ["strings", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "strings needs a SCENARIO or --classes" in result.output
    result = runner.invoke(main, ["strings", "--classes", "takoa", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "no class 'takoa'; did you mean 'takao'?" in result.output
    assert not list(tmp_path.rglob("*.pdf"))


def test_scenario_packets_carry_aids_at_its_scale(tmp_path: Path) -> None:
    """A scenario at a custom scale gets rulers, strings, tapes and gauges at that scale."""
    data = tmp_path / "data"
    data.mkdir()
    source = ROOT / "shipdata" / "naval_action" / "scenarios" / "savo-island.yaml"
    text = source.read_text().replace("id: savo-island", "id: savo-floor")
    assert "scale:" not in text or "scale: tabletop" in text
    text = text.replace("scale: tabletop\n", "")
    (data / "savo-floor.yaml").write_text(text + "\nscale: 500 yards per in\n")
    result: BuildResult = build("savo-floor", data=[data], out=tmp_path / "out")
    scale = parse_scale("500 yards per in")
    reader = PdfReader(result.folder / "allied.pdf")
    outline = [getattr(o, "title", "") for o in reader.outline if not isinstance(o, list)]
    for title in ("Range strings: Allied Screening Force", "Range tapes: Allied Screening Force",
                  f"Rulers · {scale.describe()}", "Gauges", f"Gauge strips · {scale.describe()}"):
        assert title in outline, (title, outline)
    assert "Range tapes: Japanese Striking Force" not in outline
    labels = reader.page_labels
    first = labels.index("ALLIED-Strings-1")
    assert "500 yd per in" in builds.page(result.folder / "allied.pdf", first).layout_text()


def test_users_torpedo_runs_and_a_class_run_change_the_strings(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("torpedo_runs:\n"
                     "  yards_per_turn: {18: 3000, 21: 6000, 24: 9000}\n"
                     "  two_turn_turns: 2\n")
    runner = CliRunner()
    result = runner.invoke(main, ["strings", "savo-island", "--tables", str(house),
                                  "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    pdf = read(tmp_path / "a" / "savo-island" / "aids" / "strings-allied.pdf")
    text = pdf[0].layout_text()
    # 6,000 yd at 3 cm per 1,000 yd; half the run 3,000 yd = 9 cm
    assert "R 18 cm (spread 1,333 yd wide, 6,000 yd)" in text
    assert "½ 9 cm (spread 667 yd wide, 3,000 yd)" in text
    assert "DEFAULT" not in text
    # a class's own run replaces the table for its mounts only
    data = tmp_path / "data"
    data.mkdir()
    source = next(CLASSES.glob("*/fletcher.yaml")).read_text()
    changed = source.replace("torpedoes:\n  - {", "torpedoes:\n  - {run_yd: 10000, ", 1)
    assert changed != source
    (data / "fletcher.yaml").write_text(changed)
    result = runner.invoke(main, ["strings", "--classes", "fletcher,benson", "--data",
                                  str(data), "--out", str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    pdf = read(tmp_path / "b" / "aids" / "tabletop" / "strings-classes.pdf")
    text = pdf[0].layout_text()
    assert "R 30 cm (spread 1,333 yd wide, 10,000 yd)" in text   # Fletcher's own
    assert "R 24 cm (spread 1,333 yd wide, 8,000 yd)" in text    # Benson: the table


def test_split_pieces_fit_join_and_keep_clear_of_knots() -> None:
    """Random strips: pieces fit the row, meet end to end, and no cut lands on a knot."""
    import random

    from generator.aids.strips import CLEAR, LEAD, TAIL, split

    rng = random.Random(4)
    width = 259.4 * MM
    for _ in range(2000):
        length = rng.uniform(50, 3000) * MM
        avoid = sorted([rng.uniform(0, length) for _ in range(rng.randint(0, 8))] + [length])
        spans = split(length, width, avoid)
        assert spans[0][0] == -LEAD and spans[-1][1] == pytest.approx(length + TAIL)
        assert spans[0][1] - spans[0][0] <= width + 1e-6
        assert all(b - a <= width - OVERLAP + 1e-6 for a, b in spans[1:])
        assert all(b == c for (_, b), (c, _) in zip(spans, spans[1:], strict=False))
        for _, cut in spans[:-1]:
            assert not any(cut - CLEAR < k < cut + CLEAR for k in avoid), (length, avoid)
        if len(spans) > 1:  # even pieces, no stub
            assert min(b - a for a, b in spans) > 40 * MM
