"""`quarterdeck event`: a convention's table packs, covers, print-shop bundle and inventory."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from generator.cli.main import main
from generator.core.units import MM
from generator.kit.event import build_event, slug, table_seed

if TYPE_CHECKING:
    from tests.conftest import Kits

EVENT = """\
kind: event
name: Test Cup 2026
date: 2026-11-28
club: Test Club
paper: [a4, letter]
seed: 5
combined: true
extras: [tables]
scenarios:
  - id: river-plate
    tables: 2
  - id: komandorski
    tables: 1
    seeds: [77]
"""


def _texts(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("event")
    event = folder / "cup.yaml"
    event.write_text(EVENT, encoding="utf-8")
    result = build_event(event, out=folder / "out")
    return result.folder, event


def test_every_table_has_its_packs_per_paper(built: tuple[Path, Path]) -> None:
    root, _ = built
    assert root.name == slug("Test Cup 2026") == "test-cup-2026"
    for paper in ("a4", "letter"):
        tables = sorted(p.name for p in (root / paper).iterdir() if p.is_dir()
                        and p.name.startswith("table-"))
        assert tables == ["table-01-river-plate", "table-02-river-plate",
                          "table-03-komandorski"]
        assert (root / paper / "print-shop.pdf").is_file()
        assert (root / paper / "table-01-river-plate.pdf").is_file()  # combined
        assert sorted(p.name for p in (root / paper / "extras" / "river-plate").iterdir())
    manifest = json.loads((root / "manifest.json").read_text())
    assert {t["table"] for t in manifest["tables"]} == {1, 2, 3}


def test_a4_and_letter_are_their_own_sizes(built: tuple[Path, Path]) -> None:
    root, _ = built
    for paper, (w, h) in (("a4", (210, 297)), ("letter", (215.9, 279.4))):
        pdfs = sorted((root / paper / "table-01-river-plate").glob("*.pdf"))
        assert [p.name for p in pdfs] == ["british.pdf", "german.pdf", "referee.pdf"]
        for pdf in pdfs:
            box = PdfReader(pdf).pages[0].mediabox
            assert (round(float(box.width) / MM, 1), round(float(box.height) / MM, 1)) == (w, h)


def test_cover_names_event_table_side_and_contents(built: tuple[Path, Path]) -> None:
    root, _ = built
    folder = root / "a4" / "table-02-river-plate"
    packets = sorted(folder.glob("*.pdf"))
    assert packets, "no packets"
    for path in packets:
        pdf = path.read_bytes()
        texts = _texts(pdf)
        cover = texts[0]
        assert "Test Cup 2026" in cover and "Test Club" in cover
        assert "Table 2: Battle of the River Plate" in cover.replace("\r\n", " ")
        assert "How to print" in cover and "100 %" in cover
        # The contents are the outline's sections, each at the page the outline points at.
        reader = PdfReader(io.BytesIO(pdf))
        lines = cover.replace("\r", "").split("\n")
        contents = lines[lines.index("Section Page") + 1:lines.index("How to print")]
        assert contents == [f"{item.title} {reader.get_destination_page_number(item) + 1}"
                            for item in reader.outline if not isinstance(item, list)]
        assert len(contents) >= 9, contents
        # The packet proper starts on a right-hand page.
        assert len(texts) > 2


def test_tables_roll_different_dice(built: tuple[Path, Path]) -> None:
    assert len({table_seed(5, "river-plate", n) for n in range(1, 50)}) == 49
    root, _ = built
    manifest = json.loads((root / "manifest.json").read_text())
    seeds = [t for t in manifest["tables"] if t["paper"] == "a4"]
    assert seeds
    one = (root / "a4" / "table-01-river-plate").glob("*.pdf")
    two = (root / "a4" / "table-02-river-plate").glob("*.pdf")
    assert {p.name for p in one} == {p.name for p in two}
    first = _texts((root / "a4" / "table-01-river-plate" / "referee.pdf").read_bytes())
    second = _texts((root / "a4" / "table-02-river-plate" / "referee.pdf").read_bytes())
    assert f"dice seed {table_seed(5, 'river-plate', 1)}" in first[0]
    assert f"dice seed {table_seed(5, 'river-plate', 2)}" in second[0]
    komandorski = _texts((root / "a4" / "table-03-komandorski" / "referee.pdf").read_bytes())
    assert "dice seed 77" in komandorski[0]


def test_print_shop_bundle_holds_every_pack_in_order(built: tuple[Path, Path]) -> None:
    root, _ = built
    manifest = json.loads((root / "manifest.json").read_text())
    for paper in ("a4", "letter"):
        packs = [t for t in manifest["tables"] if t["paper"] == paper]
        extras = [f for f in manifest["files"] if f["name"].startswith(f"{paper}/extras/")]
        bundle = PdfReader(root / paper / "print-shop.pdf")
        summary = bundle.pages[0].extract_text()
        assert "print-shop bundle" in summary
        padded = sum(p["pages"] + p["pages"] % 2 for p in packs) + sum(
            f["pages"] + f["pages"] % 2 for f in extras)
        summary_pages = len(bundle.pages) - padded
        assert summary_pages in (2, 4)
        for pack in packs:
            assert pack["file"].split("/", 1)[1] in " ".join(
                p.extract_text() for p in bundle.pages[:summary_pages]).replace("\n", " ")


def test_inventory_lists_pieces_sheet_by_sheet(built: tuple[Path, Path]) -> None:
    root, _ = built
    rows = list(csv.DictReader(io.StringIO((root / "inventory.csv").read_text())))
    assert rows
    assert {r["paper"] for r in rows} == {"a4", "letter"}
    assert all(int(r["copies"]) >= 1 and int(r["sheet"]) >= 1 for r in rows)
    # Every table of a scenario cuts the same pieces.
    one = sorted((r["packet"], r["piece"], r["copies"]) for r in rows
                 if r["table"] == "1" and r["paper"] == "a4")
    two = sorted((r["packet"], r["piece"], r["copies"]) for r in rows
                 if r["table"] == "2" and r["paper"] == "a4")
    assert one == two and one


@pytest.fixture(scope="module")
def rebuilt(built: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
            ) -> tuple[Path, Path, list[tuple[int, int]]]:
    """The same event built again, in two forked workers: its folder, out and progress."""
    _, event = built
    out = tmp_path_factory.mktemp("again")
    calls: list[tuple[int, int]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("QUARTERDECK_JOBS", "2")
        result = build_event(event, out=out,
                             progress=lambda done, total: calls.append((done, total)),
                             announce=ANNOUNCED.append)
    return result.folder, out, calls


ANNOUNCED: list[str] = []
"""What ``rebuilt``'s build said of each build as it finished."""


def test_each_build_is_announced_once_by_its_table_or_extra(
        built: tuple[Path, Path], rebuilt: tuple[Path, Path, list[tuple[int, int]]]) -> None:
    from generator.data.library import validated_library
    from generator.kit.eventfile import load_event, plan

    event, _, _ = load_event(built[1], validated_library([]))
    expected = [f"{b.paper} · {b.extra} of {b.scenario.id}" if b.extra else
                f"{b.paper} · table {b.number} · {b.scenario.id}" for b in plan(event)]
    assert sorted(ANNOUNCED) == sorted(expected)
    assert len(ANNOUNCED) == len(rebuilt[2]) - 1  # one per build; progress also said 0
    assert "a4 · table 3 · komandorski" in ANNOUNCED


def test_the_same_event_rebuilds_byte_for_byte(
        built: tuple[Path, Path], rebuilt: tuple[Path, Path, list[tuple[int, int]]]) -> None:
    root, _ = built
    again = rebuilt[0]
    for name in ("a4/table-03-komandorski/referee.pdf", "letter/print-shop.pdf",
                 "inventory.csv"):
        assert (again / name).read_bytes() == (root / name).read_bytes(), name


def _refused(tmp_path: Path, text: str) -> tuple[Path, str]:
    """An event file of ``text`` built: refused (exit 2); the file and the output."""
    event = tmp_path / "bad.yaml"
    event.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["event", str(event), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    return event, result.output


def test_unknown_scenario_is_located_with_a_suggestion(tmp_path: Path) -> None:
    event, output = _refused(tmp_path, EVENT.replace("id: komandorski", "id: komandorsky"))
    assert (f"{event}:12:9: scenarios.1.id: found 'komandorsky', expected a scenario "
            "(quarterdeck list scenarios):") in output
    assert "did you mean 'komandorski'?" in output
    assert not (tmp_path / "o").exists()


def test_bad_fields_are_located_all_at_once(tmp_path: Path) -> None:
    event = tmp_path / "bad.yaml"
    event.write_text(EVENT.replace("tables: 2", "tables: 0").replace("paper: [a4, letter]",
                                                                      "paper: [a4, a3]"),
                     encoding="utf-8")
    result = CliRunner().invoke(main, ["event", str(event), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert f"{event}:5:" in result.output and "paper.1" in result.output
    assert "scenarios.0.tables" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_a_logo_that_is_not_an_image_is_refused(tmp_path: Path) -> None:
    (tmp_path / "logo.png").write_bytes(b"not a png at all")
    event = tmp_path / "bad.yaml"
    event.write_text(EVENT.replace("club: Test Club", "club: Test Club\nlogo: logo.png"),
                     encoding="utf-8")
    result = CliRunner().invoke(main, ["event", str(event), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert f"{event}:5:7: logo: found 'logo.png'" in result.output
    assert not (tmp_path / "o").exists()


def test_a_logo_outside_the_event_folder_is_refused(tmp_path: Path) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    event = inner / "bad.yaml"
    event.write_text(EVENT.replace("club: Test Club", "club: Test Club\nlogo: ../x.png"),
                     encoding="utf-8")
    result = CliRunner().invoke(main, ["event", str(event), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "logo: found '../x.png'" in result.output


# --- branding ---------------------------------------------------------------------------

def _brand_folder(tmp_path: Path, extra: str = "") -> Path:
    from PIL import Image

    folder = tmp_path / "brand"
    folder.mkdir()
    Image.new("RGB", (40, 20), (200, 30, 30)).save(folder / "logo.png")
    (folder / "branding.yaml").write_text(
        "footer: Harbour Games 2026\nclub: Test Club\nlogo: logo.png\n"
        "cover: {background: '#1d3a5f', text: '#ffffff'}\n" + extra, encoding="utf-8")
    return folder


@pytest.mark.parametrize("scenario", ["river-plate", "komandorski"])
def test_branding_puts_the_club_on_every_page(tmp_path: Path, scenario: str) -> None:
    from generator.kit.pipeline import build
    from generator.kit.seam import KitOptions

    folder = _brand_folder(tmp_path)
    result = build(scenario, out=tmp_path / "out", options=KitOptions(templates=folder))
    for name in result.files:
        pdf = (result.folder / name).read_bytes()
        doc = pdfium.PdfDocument(pdf)
        for number, page in enumerate(doc, start=1):
            text = page.get_textpage().get_text_range()
            if "intentionally blank" in text:
                continue
            assert "Test Club" in text, (name, number)
            assert "quarterdeck ·" not in text, (name, number)
            images = [o for o in page.get_objects()
                      if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
            assert images, (name, number)
        doc.close()


def test_without_branding_the_footers_stay_plain(kits: Kits) -> None:
    result = kits.build("river-plate")
    text = _texts((result.folder / "referee.pdf").read_bytes())
    assert any("quarterdeck" in t for t in text)
    assert not any("Test Club" in t for t in text)


def test_bad_branding_is_located(tmp_path: Path) -> None:
    folder = _brand_folder(tmp_path, "colour: red\n")
    (folder / "logo.png").write_bytes(b"GIF89a not a png")
    result = CliRunner().invoke(main, ["build", "river-plate", "--templates", str(folder),
                                       "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert f"{folder / 'branding.yaml'}:5:1: colour: found unknown key" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


# --- progress per build, forked or not ------------------------------------------------

def _pid_of(index: int) -> tuple[int, int]:
    import os

    if index == 3:
        raise ValueError("task 3 fails")
    return index, os.getpid()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_fork_map_hands_each_result_over_as_it_finishes(monkeypatch: pytest.MonkeyPatch,
                                                        jobs: str) -> None:
    import os
    from functools import partial

    from generator.core.parallel import fork_map

    monkeypatch.setenv("QUARTERDECK_JOBS", jobs)
    seen: list[tuple[int, tuple[int, int]]] = []
    tasks = [partial(_pid_of, i) for i in (0, 1, 2, 4, 5, 6, 7)]
    results = fork_map(tasks, on_result=lambda i, v: seen.append((i, v)))
    assert [r[0] for r in results] == [0, 1, 2, 4, 5, 6, 7]
    assert sorted(i for i, _ in seen) == list(range(7))  # once each
    assert all(results[i] == v for i, v in seen)
    forked = {pid for _, pid in results} - {os.getpid()}
    assert bool(forked) == (jobs == "2")
    # A task that fails in a child fails here, as if nothing had been forked.
    with pytest.raises(ValueError, match="task 3 fails"):
        fork_map([partial(_pid_of, i) for i in range(6)], on_result=lambda i, v: None)


TINY = """\
kind: event
name: Tiny Cup
date: 2026-11-28
paper: [a4, letter]
extras: [tables]
scenarios:
  - id: river-plate
    tables: 2
"""


def test_progress_advances_once_per_build_in_forked_workers(
        rebuilt: tuple[Path, Path, list[tuple[int, int]]]) -> None:
    folder, out, calls = rebuilt
    # Three tables and two extras on each of two papers: ten builds, one call each.
    assert calls == [(n, 10) for n in range(11)]
    assert (folder / "letter" / "table-02-river-plate" / "referee.pdf").is_file()
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


# --- the bundle is streamed from the files written ----------------------------------------

def test_bundle_outline_opens_each_pack_on_its_first_page(built: tuple[Path, Path]) -> None:
    root, _ = built
    manifest = json.loads((root / "manifest.json").read_text())
    bundle = PdfReader(root / "a4" / "print-shop.pdf", strict=True)
    marks = [m for m in bundle.outline if not isinstance(m, list)]
    assert marks[0].title == "Summary" and bundle.get_destination_page_number(marks[0]) == 0
    packs = [t for t in manifest["tables"] if t["paper"] == "a4"]
    titled = {m.title: bundle.get_destination_page_number(m) for m in marks}
    texts = _texts((root / "a4" / "print-shop.pdf").read_bytes())
    for pack in packs:
        title = f"Table {pack['table']}: {pack['scenario']}, {pack['side']}"
        page = titled[title]
        own = _texts((root / pack["file"]).read_bytes())
        # The pack's pages follow one another from there, then a blank page if it is odd.
        assert texts[page:page + len(own)] == own, title
        assert page % 2 == 0, title  # every pack starts on a new sheet
    sizes = {f["name"]: f for f in manifest["files"]}
    import hashlib

    data = (root / "a4" / "print-shop.pdf").read_bytes()
    assert sizes["a4/print-shop.pdf"]["sha256"] == hashlib.sha256(data).hexdigest()
    assert sizes["a4/print-shop.pdf"]["pages"] == len(bundle.pages)


def test_combined_table_pack_holds_each_packet_behind_its_cover(
        built: tuple[Path, Path]) -> None:
    root, _ = built
    folder = root / "letter" / "table-03-komandorski"
    combined = _texts((root / "letter" / "table-03-komandorski.pdf").read_bytes())
    at = 0
    for path in sorted(folder.glob("*.pdf")):
        own = _texts(path.read_bytes())
        assert combined[at:at + len(own)] == own, path.name
        at += len(own) + len(own) % 2
    assert at == len(combined)


def test_an_extra_a_ruleset_lacks_is_refused_before_building(tmp_path: Path) -> None:
    event, output = _refused(tmp_path, TINY.replace("river-plate", "mediterranean-1940"))
    assert (f"{event}:5:10: extras.0: found 'tables', expected an extra every scenario's "
            "ruleset prints (mediterranean-1940, a Rule 27 scenario, has none)"
            ) in output
    assert not (tmp_path / "o").exists()


# --- SVG logos ---------------------------------------------------------------------------

SVG_LOGO = """\
<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40" viewBox="0 0 80 40">
  <rect x="0" y="0" width="80" height="40" fill="#c81e1e"/>
  <circle cx="40" cy="20" r="15" fill="#ffcc00"/>
</svg>
"""


@pytest.fixture(scope="module")
def svg_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("svg")
    brand = folder / "brand"
    brand.mkdir()
    (brand / "logo.svg").write_text(SVG_LOGO, encoding="utf-8")
    (brand / "branding.yaml").write_text("footer: Svg Cup\nclub: Test Club\nlogo: logo.svg\n",
                                         encoding="utf-8")
    (folder / "club.svg").write_text(SVG_LOGO, encoding="utf-8")
    event = folder / "svg.yaml"
    event.write_text("kind: event\nname: Svg Cup\ndate: 2026-11-28\nlogo: club.svg\n"
                     "templates: brand\npaper: [a4]\nscenarios:\n  - id: river-plate\n"
                     "    tables: 1\n", encoding="utf-8")
    return build_event(event, out=folder / "out").folder


def _forms(page: pdfium.PdfPage) -> list[tuple[float, ...]]:
    """Where each form XObject on the page lies: (left, bottom, right, top) in mm."""
    return [tuple(v / MM for v in o.get_bounds()) for o in page.get_objects()
            if o.type == pdfium.raw.FPDF_PAGEOBJ_FORM]


def test_an_svg_logo_is_on_the_cover_and_every_page(svg_event: Path) -> None:
    from generator.pages.canvasdoc import CanvasDoc
    from generator.pages.furniture import FOOTER_LOGO

    head = CanvasDoc("a4", "", "")
    right, top = (head.box.x + head.box.width) / MM, head.y / MM
    # The 80 x 40 logo fitted into the masthead's 30 mm square, 2 mm in from its corner.
    cover = (right - 32, top - 32 + 7.5, right - 2, top - 2 - 7.5)
    packets = sorted((svg_event / "a4" / "table-01-river-plate").glob("*.pdf"))
    assert packets
    for path in packets:
        doc = pdfium.PdfDocument(path.read_bytes())
        first = doc[0]
        assert any(all(abs(a - b) < 0.01 for a, b in zip(form, cover, strict=True))
                   for form in _forms(first)), (path.name, _forms(first))
        # The logo's own colours are drawn there: its yellow disc at the centre.
        scale = 2.0
        image = first.render(scale=scale).to_pil().convert("RGB")
        x = (cover[0] + cover[2]) / 2 * MM * scale
        y = (first.get_height() - (cover[1] + cover[3]) / 2 * MM) * scale
        assert image.getpixel((round(x), round(y))) == (255, 204, 0)
        for number, page in enumerate(doc, start=1):
            if "intentionally blank" in page.get_textpage().get_text_range():
                continue
            feet = [f for f in _forms(page)
                    if abs((f[3] - f[1]) - FOOTER_LOGO / MM) < 0.01
                    or abs((f[3] - f[1]) - 2.6) < 0.01]
            assert feet, (path.name, number, _forms(page))
            left, bottom, far, tip = feet[0]
            assert abs((far - left) - 2 * (tip - bottom)) < 0.01  # 2:1, as drawn
            # At the left margin, in the foot (above the calibration bars where a page has
            # them).
            assert left < 25 and bottom < 50, (path.name, number, feet[0])
        # The cover's foot names the event once, then the club.
        foot = first.get_textpage().get_text_range()
        assert "Svg Cup · 2026-11-28 · Test Club" in foot and "Svg Cup · Svg Cup" not in foot
        doc.close()
    bundle = pdfium.PdfDocument((svg_event / "a4" / "print-shop.pdf").read_bytes())
    summary = _forms(bundle[0])  # the summary is branded too
    assert any(abs((f[3] - f[1]) - FOOTER_LOGO / MM) < 0.01 for f in summary), summary
    bundle.close()


BAD_SVGS = [
    ("broken.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect>'
                   "</svg>", "expected a well-formed SVG (Opening and ending tag mismatch"),
    ("passwd.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                   '<image href="file:///etc/passwd" width="10" height="10"/></svg>',
     "expected an SVG that refers to nothing outside itself (its <image> links "
     "'file:///etc/passwd')"),
    ("up.svg", '<svg xmlns="http://www.w3.org/2000/svg" '
               'xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
               '<image xlink:href="../x.png" width="10" height="10"/></svg>',
     "expected an SVG that refers to nothing outside itself (its <image> links '../x.png')"),
    ("huge.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="200000" height="10">'
                 '<rect width="5" height="5"/></svg>',
     "expected an SVG of at most 100000 units a side (its width is '200000')"),
    ("big.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                + "<!-- padding -->" * 150_000 + "</svg>",
     "expected an image of at most 2 MB (it has 2.4 MB)"),
    ("../x.svg", None, "expected a PNG or SVG inside the template folder"),
]


@pytest.mark.parametrize(("name", "svg", "expected"), BAD_SVGS,
                         ids=[n for n, _, _ in BAD_SVGS])
def test_a_bad_svg_logo_is_a_located_error(tmp_path: Path, name: str, svg: str | None,
                                           expected: str) -> None:
    folder = tmp_path / "brand"
    folder.mkdir()
    (tmp_path / "x.svg").write_text(SVG_LOGO, encoding="utf-8")  # real, but outside
    (tmp_path / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    if svg is not None:
        (folder / name).write_text(svg, encoding="utf-8")
    (folder / "branding.yaml").write_text(f"club: Test Club\nlogo: {name}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "river-plate", "--templates", str(folder),
                                       "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert (f"{folder / 'branding.yaml'}:2:7: logo: found '{name}', {expected}"
            in result.output.replace("\n", " ")), result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_an_event_svg_logo_with_an_outside_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "club.svg").write_text(BAD_SVGS[1][1] or "", encoding="utf-8")
    event = tmp_path / "bad.yaml"
    event.write_text(EVENT.replace("club: Test Club", "club: Test Club\nlogo: club.svg"),
                     encoding="utf-8")
    result = CliRunner().invoke(main, ["event", str(event), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert (f"{event}:5:7: logo: found 'club.svg', expected an SVG that refers to nothing "
            "outside itself (its <image> links 'file:///etc/passwd')") in result.output
    assert not (tmp_path / "o").exists()


def _small_pdf(label: str, pages: int) -> bytes:
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(300, 400))
    for n in range(1, pages + 1):
        c.setFont("Helvetica", 12)
        c.drawString(50, 200, f"{label} page {n}")
        c.bookmarkPage(f"p{n}")
        c.addOutlineEntry(f"{label} {n}", f"p{n}")
        c.showPage()
    c.save()
    return buffer.getvalue()


def test_streamed_pdf_joins_parts_with_their_outlines(tmp_path: Path) -> None:
    from generator.pages.pdfstream import StreamedPdf

    (tmp_path / "a.pdf").write_bytes(_small_pdf("A", 3))
    outputs = []
    for name in ("one.pdf", "two.pdf"):
        with StreamedPdf(tmp_path / name) as pdf:
            pdf.append(tmp_path / "a.pdf", "Part A", pad=_small_pdf("blank", 1))
            pdf.append(_small_pdf("B", 2), "Part B")
            pdf.append(_small_pdf("B", 2), "Part B again")
        assert pdf.pages == 8
        outputs.append((tmp_path / name).read_bytes())
    assert outputs[0] == outputs[1]  # deterministic, /ID included
    import hashlib

    assert pdf.sha256 == hashlib.sha256(outputs[0]).hexdigest()
    reader = PdfReader(tmp_path / "one.pdf", strict=True)
    assert [p.extract_text().strip() for p in reader.pages] == [
        "A page 1", "A page 2", "A page 3", "blank page 1", "B page 1", "B page 2",
        "B page 1", "B page 2"]
    tree = reader.outline
    tops = [(m.title, reader.get_destination_page_number(m)) for m in tree
            if not isinstance(m, list)]
    assert tops == [("Part A", 0), ("Part B", 4), ("Part B again", 6)]
    below = [(m.title, reader.get_destination_page_number(m)) for m in tree[1]]
    assert below == [("A 1", 0), ("A 2", 1), ("A 3", 2)]
    # The font all four parts declare alike is written once.
    fonts = [o for o in outputs[0].split(b"endobj") if b"/Type /Font" in o]
    assert len(fonts) == 1, fonts
