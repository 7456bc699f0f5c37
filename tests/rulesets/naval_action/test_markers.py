"""NAVAL ACTION markers: 1:12,000 sizes, cells, silhouettes, pools, exports and CLI."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from PIL import Image

from generator.cli.main import main
from generator.core.units import MM
from generator.kit.pipeline import BuildResult, build_markers
from generator.kit.seam import KitOptions
from generator.pieces.imposition import CUT_GREY, ID_SIZE
from generator.pieces.shipmarkers import TURRET_FILL
from tests import builds
from tests.paths import ROOT
from tests.pdftext import page_texts

CLASSES = ROOT / "shipdata" / "classes"
TEST_DATA = ROOT / "tests" / "data" / "markers"
TOL = 0.01 * MM
COLOUR_TOL = 0.6 / 255
"""pypdfium2 reports colours in 8 bits (the cut grey 0.55 comes back as 140/255); a colour
one step away in 8 bits is a different colour."""


@functools.cache
def class_files() -> dict[str, dict]:
    """Every bundled class file's data, parsed once for the module (callers only read it)."""
    return {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in CLASSES.rglob("*.yaml")}


def scenario_ships(path: Path) -> dict[str, list[tuple[str, str]]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {s["id"]: [(r["class"], r["name"]) for r in s["ships"]] for s in data["sides"]}


def grey(colour) -> float:
    if isinstance(colour, (list, tuple)):
        return colour[0] if len(colour) == 1 else -1.0
    return -1.0 if colour is None else float(colour)


def same_colour(colour: tuple | None, rgb: tuple) -> bool:
    """``colour`` (a grey as one value, as pypdfium2's reader gives it) is ``rgb``."""
    if not colour:
        return False
    full = colour * 3 if len(colour) == 1 else colour
    return all(abs(a - b) < COLOUR_TOL for a, b in zip(full, rgb, strict=True))


def read_cells(path: Path) -> list[dict]:
    """Every placed copy on every page: its id (the invisible text) and its cut rectangle."""
    out = []
    for number, page in enumerate(builds.pages(path, geometry=True)):
        h = page.height
        cuts = [(r["x0"], h - r["bottom"], r["x1"], h - r["top"]) for r in page.rects
                if not r["fill"]
                and abs(grey(r.get("stroking_color")) - CUT_GREY) < COLOUR_TOL]
        words = [w for w in page.layout_words(by_size=True, x_tolerance=0.5)
                 if abs(w["size"] - ID_SIZE) < 1e-6]
        chars = [c for c in page.chars if c["size"] > ID_SIZE + 1e-6]
        curves = page.curves
        for word in words:
            x, y = word["x0"] - 0.2 * MM, h - word["bottom"]
            # a front and the back folded behind it (duplex off) are cut as one outline:
            # each has the part of it from its own id to the next one's
            outline = [c for c in cuts if abs(c[1] - y) < 0.6 and c[0] - 0.3 < x < c[2]]
            assert outline, word["text"]
            whole = min(outline, key=lambda c: abs(c[0] - x))
            ends = [w["x0"] - 0.2 * MM for w in words
                    if abs(h - w["bottom"] - y) < 0.6 and x + 0.3 < w["x0"] - 0.2 * MM < whole[2]]
            cell = (max(whole[0], x) if abs(whole[0] - x) >= 0.3 else whole[0], whole[1],
                    min(ends, default=whole[2]), whole[3])
            out.append({"id": word["text"], "page": number, "cell": cell, "chars": chars,
                        "curves": curves, "height": h})
    return out


@pytest.fixture(scope="module")
def savo_markers(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    return build_markers("savo-island", out=tmp_path_factory.mktemp("markers"))


@pytest.fixture(scope="module")
def carrier(tmp_path_factory: pytest.TempPathFactory) -> tuple[BuildResult, Path]:
    out = tmp_path_factory.mktemp("carrier")
    result = build_markers("carrier-test", data=[TEST_DATA], out=out, png=out / "png",
                           dpi=150, tts=out / "tts")
    return result, out


def test_ship_markers_are_the_ships_length_at_1_to_12000(savo_markers):
    classes = class_files()
    ships = scenario_ships(ROOT / "shipdata/naval_action/scenarios/savo-island.yaml")
    for side, refs in ships.items():
        path = savo_markers.folder / f"markers-{side}.pdf"
        cells = {c["id"]: c["cell"] for c in read_cells(path)}
        for class_id, name in refs:
            from generator.pieces.shipmarkers import slug
            sid = slug(name)
            want = classes[class_id]["length_ft"] * 304.8 / 12000  # mm
            for kind in ("ship", "prev"):
                x0, y0, x1, y1 = cells[f"{kind}.{sid}"]
                assert abs((x1 - x0) / MM - want) < 0.01, (kind, name)


def test_every_label_and_drawing_lies_inside_its_cell(savo_markers, carrier):
    for path in [*savo_markers.folder.glob("markers-*.pdf"),
                 *carrier[0].folder.glob("markers-*.pdf")]:
        cells = read_cells(path)
        by_page: dict[int, list[tuple]] = {}
        for c in cells:
            by_page.setdefault(c["page"], []).append(c["cell"])
        for number, page in enumerate(builds.pages(path, geometry=True)):
            h = page.height
            boxes = by_page.get(number, [])
            heading_floor = max((b[3] for b in boxes), default=0)
            for ch in page.chars:
                if ch["size"] <= ID_SIZE + 1e-6:
                    continue
                x0, x1, y0, y1 = ch["x0"], ch["x1"], h - ch["bottom"], h - ch["top"]
                inside = [b for b in boxes if b[0] - TOL <= x0 and x1 <= b[2] + TOL
                          and b[1] - TOL <= y0 and y1 <= b[3] + TOL]
                in_cell_x = [b for b in boxes if b[0] - 1 < (x0 + x1) / 2 < b[2] + 1
                             and b[1] - 1 < (y0 + y1) / 2 < b[3] + 1]
                # a glyph that belongs to a piece never crosses its cut line
                if in_cell_x:
                    assert inside, (path.name, number, ch["text"], x0, x1)
                else:  # headings and the footer: outside every piece
                    assert y0 > heading_floor - 1 or y1 < 20 * MM or not boxes or all(
                        x1 < b[0] or x0 > b[2] or y1 < b[1] or y0 > b[3] for b in boxes)
            for rect in page.rects:
                x0, y0, x1, y1 = rect["x0"], h - rect["bottom"], rect["x1"], h - rect["top"]
                if y1 < 20 * MM:  # the footer's scale bar
                    continue
                # a back's ground runs on past its trim by half the 3 mm gutter (clipped
                # there), so a misregistered back shows no white edge
                slack = TOL + (1.5 * MM if number % 2 else 0.0)
                assert any(b[0] - slack <= x0 and x1 <= b[2] + slack and b[1] - slack <= y0
                           and y1 <= b[3] + slack for b in boxes), (path.name, rect["x0"])


def test_silhouette_turrets_match_the_batteries(savo_markers, carrier):
    classes = class_files()
    turret = tuple(round(v, 3) for v in (TURRET_FILL.red, TURRET_FILL.green, TURRET_FILL.blue))
    checked = 0
    for path, scenario in [
        *[(p, ROOT / "shipdata/naval_action/scenarios/savo-island.yaml")
          for p in savo_markers.folder.glob("markers-*.pdf")],
        *[(p, TEST_DATA / "carrier-test.yaml") for p in carrier[0].folder.glob("markers-*.pdf")],
    ]:
        refs = {name: cls for refs in scenario_ships(scenario).values() for cls, name in refs}
        from generator.pieces.shipmarkers import slug
        ids = {f"ship.{slug(name)}": cls for name, cls in refs.items()}
        for cell in read_cells(path):
            if cell["id"] not in ids or cell["page"] % 2:  # fronts only
                continue
            x0, y0, x1, y1 = cell["cell"]
            h = cell["height"]
            circles = [c for c in cell["curves"] if same_colour(c.get("non_stroking_color"),
                                                               turret)
                       and x0 <= c["x0"] and c["x1"] <= x1 and y0 <= h - c["bottom"]
                       and h - c["top"] <= y1]
            guns = classes[ids[cell["id"]]].get("guns", [])
            want = sum(g.get("turrets") or g["guns"] for g in guns)
            assert len(circles) == want, cell["id"]
            checked += 1
    assert checked >= 10


def test_pools_are_sized_by_the_ships(carrier):
    result, out = carrier
    counts: dict[str, int] = {}
    for cell in read_cells(result.folder / "markers-us.pdf"):
        if cell["page"] == 0:
            counts[cell["id"]] = counts.get(cell["id"], 0) + 1
    # Yorktown class: 20 fighters, 38 dive bombers, 13 torpedo bombers each; the rule
    # text's own example rounds 13 to 2 elements and 15 to 3.
    assert counts["aircraft.us.fighter"] == 2 * 3
    assert counts["aircraft.us.dive-bomber"] == 2 * 6
    assert counts["aircraft.us.torpedo-bomber"] == 2 * 2
    assert counts["aircraft.us.level-bomber"] == 2       # 9 planes: 1.5 rounds to 2
    assert counts["damage"] == counts["burning"] == 4    # one each per ship
    assert counts["smoke"] == 2                          # one destroyer, 2 per destroyer
    assert counts["depth.grouper"] == 1
    assert counts["torpedo.us.21in.5"] == 2              # Fletcher: two quintuple mounts
    assert counts["torpedo.us.21in.4"] >= 1              # a spread after one hit
    targets = [k for k in counts if k.startswith("target.")]
    assert len(targets) == 2 + 2 + 1 + 2                 # one per gun battery


def test_depth_track_marks_the_crush_depth_by_nation(carrier):
    result, _ = carrier
    for side, sub, crush in (("us", "depth.grouper", "T"), ("jp", "depth.u-81", "Ab")):
        cell = next(c for c in read_cells(result.folder / f"markers-{side}.pdf")
                    if c["id"] == sub)
        x0, y0, x1, y1 = cell["cell"]
        h = cell["height"]
        inside = [c for c in cell["chars"] if x0 <= c["x0"] and c["x1"] <= x1
                  and y0 <= h - c["bottom"] and h - c["top"] <= y1]
        text = "".join(c["text"] for c in sorted(inside, key=lambda c: (-round(c["top"]), c["x0"])))
        for level in ("P", "D", "R", "T", "Ab"):
            assert level in text
        crush_x = [c["x0"] for c in inside if c["text"] == "c"][0]
        box = [c for c in inside if c["size"] > 7 and c["text"] == crush[0]][-1]
        assert abs(crush_x - box["x0"]) < 12  # the crush note sits under that depth's box


def test_png_sizes_follow_the_dpi_and_ids_match_pdf_and_tts(carrier):
    result, out = carrier
    classes = class_files()
    png = out / "png"
    img = Image.open(png / "ship.enterprise.png")
    length_mm = classes["yorktown"]["length_ft"] * 304.8 / 12000
    assert img.size == (round(length_mm * 150 / 25.4), round(10 * 150 / 25.4))  # 10 mm across
    assert img.info["dpi"][0] == pytest.approx(150, abs=0.02)
    for name, (w, h) in {"damage.png": (10, 10), "damage.back.png": (10, 10),
                         "depth.grouper.png": (52, 12)}.items():
        assert Image.open(png / name).size == (round(w * 150 / 25.4), round(h * 150 / 25.4))
    pdf_ids = {c["id"] for side in ("us", "jp")
               for c in read_cells(result.folder / f"markers-{side}.pdf")}
    png_ids = {p.name.removesuffix(".png") for p in png.glob("*.png")}
    assert pdf_ids == png_ids
    tts = json.loads((out / "tts" / "tts.json").read_text(encoding="utf-8"))
    tts_ids = {s["id"] for sheet in tts["sheets"] for s in sheet["slots"]}
    assert tts_ids == {i for i in pdf_ids if not i.endswith(".back")}
    for sheet in tts["sheets"]:
        assert sheet["columns"] <= 10 and sheet["rows"] <= 7
        assert sheet["hidden_slot"] == sheet["columns"] * sheet["rows"] - 1
        with Image.open(out / "tts" / sheet["file"]) as image:
            assert max(image.size) <= 4096


def test_packets_carry_each_sides_markers_on_a_right_hand_page(savo):
    import pypdf

    for side in ("japanese", "allied"):
        reader = pypdf.PdfReader(savo.folder / f"{side}.pdf")
        marks = {o.title: reader.get_destination_page_number(o) for o in reader.outline
                 if not isinstance(o, list)}
        start = next(page for title, page in marks.items() if title.startswith("Markers"))
        assert start % 2 == 0  # 0-based even: page 1, 3, 5... a right-hand page
        text = page_texts(savo.folder / f"{side}.pdf")[start]
        assert f"prev.{'chokai' if side == 'japanese' else 'chicago'}" in text


def test_cli_markers_options_and_errors(tmp_path):
    runner = CliRunner()
    ok = runner.invoke(main, ["markers", "savo-island", "--out", str(tmp_path), "--duplex",
                              "short", "--bleed", "--cut", "both", "--back-offset", "0.5,-1",
                              "--paper", "letter"])
    assert ok.exit_code == 0, ok.output
    folder = tmp_path / "savo-island" / "markers"
    assert {p.name for p in folder.glob("*.pdf")} == {
        "markers-japanese.pdf", "markers-allied.pdf", "back-offset-check.pdf"}
    pages = builds.pages(folder / "markers-allied.pdf")
    assert (pages[0].width, pages[0].height) == (612, 792)
    assert "flip on the short edge, back offset +0.5, -1.0 mm" in pages[1].layout_text()
    bad = runner.invoke(main, ["markers", "savo-island", "--out", str(tmp_path),
                               "--back-offset", "left"])
    assert bad.exit_code == 2
    assert "--back-offset: found 'left', expected X,Y in mm such as 0.5,-1" in bad.output
    assert "Traceback" not in bad.output
    bad = runner.invoke(main, ["markers", "savo-iland", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "did you mean 'savo-island'" in bad.output
    bad = runner.invoke(main, ["markers", "savo-island", "--dpi", "5000", "--png",
                               str(tmp_path / "p")])
    assert bad.exit_code == 2 and not (tmp_path / "p").exists()


def test_duplex_off_puts_backs_beside_fronts_and_no_check_sheet(tmp_path):
    result = build_markers("savo-island", out=tmp_path, options=KitOptions(
        sheets=__import__("generator.pieces.imposition",
                          fromlist=["Options"]).Options(duplex="off")))
    assert "back-offset-check.pdf" not in result.files
    ids = [c["id"] for c in read_cells(result.folder / "markers-japanese.pdf")]
    assert ids.count("damage.back") == ids.count("damage") == 8
    assert ids.count("ship.chokai.back") == 1 and "smoke.back" not in ids


def test_class_marker_image_stays_in_the_data_folder(tmp_path):
    src = (CLASSES / "us" / "fletcher.yaml").read_text(encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    (data / "fletcher.yaml").write_text(src + "marker_image: ../outside.png\n", encoding="utf-8")
    Image.new("RGB", (200, 40), (20, 40, 90)).save(tmp_path / "outside.png")
    bad = CliRunner().invoke(main, ["check", str(data)])
    assert bad.exit_code == 2
    assert ("fletcher.yaml:" in bad.output and "marker_image: found '../outside.png', "
            "expected a path inside the data folder" in bad.output)
    (data / "fletcher.yaml").write_text(src + "marker_image: top.png\n", encoding="utf-8")
    Image.new("RGB", (5000, 40)).save(data / "top.png")
    bad = CliRunner().invoke(main, ["check", str(data)])
    assert "expected at most 4096 px a side (it is 5000 x 40)" in bad.output
    Image.new("RGB", (400, 60), (20, 40, 90)).save(data / "top.png")
    scen = yaml.safe_load((TEST_DATA / "carrier-test.yaml").read_text(encoding="utf-8"))
    (data / "carrier-test.yaml").write_text(yaml.safe_dump(scen), encoding="utf-8")
    result = build_markers("carrier-test", data=[data], out=tmp_path / "out")
    images = builds.page(result.folder / "markers-us.pdf", 0, geometry=True).images
    assert len(images) == 1  # Fletcher's own picture instead of the silhouette
    assert math.isclose(images[0]["width"] / images[0]["height"], 400 / 60, rel_tol=0.01)


def test_user_tables_and_sprue_change_the_sheets(tmp_path):
    tables = tmp_path / "tables.yaml"
    tables.write_text("marker_ship: {scale: 6000, width: 10mm, silhouette_beam: 3mm, "
                      "bow_bar: 1mm}\n", encoding="utf-8")
    sprue = tmp_path / "sprue.yaml"
    sprue.write_text("kind: sprue\nid: mine\ntitle: Mine\norientation: landscape\n"
                     "gutter: 0.25in\nregions:\n  - title: Everything\n    groups: [ship, "
                     "previous-turn, battery-target, aircraft, torpedo-spread, smoke, burning, "
                     "damage, depth-track]\n", encoding="utf-8")
    runner = CliRunner()
    ok = runner.invoke(main, ["markers", "savo-island", "--out", str(tmp_path), "--tables",
                              str(tables), "--sprue", str(sprue), "--duplex", "off"])
    assert ok.exit_code == 0, ok.output
    path = tmp_path / "savo-island" / "markers" / "markers-japanese.pdf"
    cells = {c["id"]: c["cell"] for c in read_cells(path)}
    x0, y0, x1, y1 = cells["ship.chokai"]
    assert abs((x1 - x0) / MM - class_files()["takao"]["length_ft"] * 304.8 / 6000) < 0.01
    assert abs((y1 - y0) / MM - 10) < 0.01
    first = builds.page(path, 0)
    assert first.width > first.height  # the sprue's landscape
    sprue.write_text("kind: sprue\nid: mine\ntitle: Mine\nmargin: 2mm\nregions: []\n",
                     encoding="utf-8")
    bad = runner.invoke(main, ["markers", "savo-island", "--out", str(tmp_path), "--sprue",
                               str(sprue)])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    assert f"{sprue}:4:9: margin: found '2mm', expected a length from 5mm to 40mm" in bad.output
    assert f"{sprue}:5:10: regions: found a list, expected at least 1 item(s)" in bad.output
