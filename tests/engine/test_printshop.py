"""Print-shop files (issue 31 items 1-2): page boxes, fonts, crop marks, PDF/X-4 in CMYK.

Every file: a TrimBox and a BleedBox on every page, no font it does not embed, subset
names unique per subset, crop marks 5 mm long, 3 mm clear of the trim and outside the
bleed. With ``--print-shop`` (``print_shop: true`` in an event): PDF/X-4, an output
intent embedding the kit's profile, XMP naming the version, PDF 1.6, and every colour
in CMYK, black as black ink alone. Everything is read back from the files.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner
from PIL import Image, ImageCms
from pypdf import PdfReader
from pypdf.generic import ContentStream

from generator.cli.main import main
from generator.core.units import MM
from generator.kit.event import build_event
from generator.kit.pipeline import compose
from generator.kit.seam import KitOptions, Request
from generator.pages import cmykprofile, pdfx
from generator.pieces.cropmarks import MARK_EDGE, MARK_LENGTH, MARK_TRIM_CLEAR
from generator.pieces.imposition import Options, cut_boxes, impose
from tests.engine.test_imposition import pieces, read, sprue
from tests.needs import need_tool
from tests.paths import ROOT

if TYPE_CHECKING:
    from tests.conftest import Kits

TOL = 0.01 * MM
SCENARIO = "savo-island"


def _box(page: Any, name: str) -> tuple[float, ...]:
    return tuple(float(v) for v in page[name])


def _fonts(reader: PdfReader) -> Iterator[Any]:
    """Every font dictionary the pages (and the forms they place) name, each once."""
    seen: set[int] = set()

    def walk(resources: Any) -> Iterator[Any]:
        if not resources:
            return
        resources = resources.get_object()
        for ref in (resources.get("/Font") or {}).values():
            if ref.idnum not in seen:
                seen.add(ref.idnum)
                yield ref.get_object()
        for ref in (resources.get("/XObject") or {}).values():
            if ref.idnum not in seen:
                seen.add(ref.idnum)
                form = ref.get_object()
                if form.get("/Subtype") == "/Form":
                    yield from walk(form.get("/Resources"))

    for page in reader.pages:
        yield from walk(page.get("/Resources"))


def _embedded(font: Any) -> bool:
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and "/FontFile2" in descriptor.get_object()


# ------------------------------------------------------------------ every file


def test_every_page_of_a_kit_has_its_boxes(kits: Kits) -> None:
    """A page is trimmed to itself; a sheet of pieces to its block, inside the page."""
    built = kits.build(SCENARIO)
    sheets = 0
    for name, pages in built.files.items():
        reader = PdfReader(built.folder / name)
        assert len(reader.pages) == pages
        for page in reader.pages:
            media, trim = _box(page, "/MediaBox"), _box(page, "/TrimBox")
            bleed = _box(page, "/BleedBox")
            run = {round(v, 2) for v in (trim[0] - bleed[0], trim[1] - bleed[1],
                                         bleed[2] - trim[2], bleed[3] - trim[3])}
            if trim != media:
                sheets += 1
                assert media[0] < bleed[0] <= trim[0] < trim[2] <= bleed[2] < media[2]
                assert media[1] < bleed[1] <= trim[1] < trim[3] <= bleed[3] < media[3]
                text = page.extract_text()
                # no bleed was asked for; a back's ground runs past its trim anyway
                # (half the 3 mm gutter), so a misregistered back leaves no white edge
                expected = {round(1.5 * MM, 2)} if "Backs of sheet" in text else {0.0}
                assert run == expected, (name, text[-80:])
                assert "Cut on the grey lines" in text or "Backs of sheet" in text
            else:
                assert run == {0.0}
    assert sheets  # the kit's counter sheets


def test_no_file_names_a_font_it_does_not_embed(kits: Kits) -> None:
    built = kits.build(SCENARIO)
    for name in built.files:
        data = (built.folder / name).read_bytes()
        assert b"/Helvetica" not in data, name
        fonts = list(_fonts(PdfReader(io.BytesIO(data))))
        assert fonts, name
        assert all(_embedded(font) for font in fonts), name


def test_a_subset_tag_is_taken_from_what_the_subset_holds(kits: Kits) -> None:
    programs: dict[str, set[str]] = {}
    built = kits.build(SCENARIO)
    for name in built.files:
        for font in _fonts(PdfReader(built.folder / name)):
            base = str(font["/BaseFont"])
            assert re.fullmatch(r"/[A-Z]{6}\+PTSans-[A-Za-z]+", base), base
            data = font["/FontDescriptor"].get_object()["/FontFile2"].get_object().get_data()
            programs.setdefault(base, set()).add(hashlib.sha256(data).hexdigest())
    assert len(programs) > 4  # more subsets than faces: the tags tell them apart
    assert all(len(found) == 1 for found in programs.values()), programs


def test_a_piece_sheet_is_trimmed_to_its_block_and_bled_past_it() -> None:
    sp = sprue(gutter="6mm")
    imposed = impose(pieces(back=False)[:3], sp, Options(bleed=True, cut="marks"), "t", "")
    reader = PdfReader(io.BytesIO(imposed.pdf))
    for sheet, page in zip(imposed.sheets, reader.pages, strict=True):
        boxes = cut_boxes(sheet.slots)
        trim = (min(x for x, _, _, _ in boxes), min(y for _, y, _, _ in boxes),
                max(x + w for x, _, w, _ in boxes), max(y + h for _, y, _, h in boxes))
        bleed = (trim[0] - imposed.bleed, trim[1] - imposed.bleed,
                 trim[2] + imposed.bleed, trim[3] + imposed.bleed)
        assert all(abs(a - b) < TOL for a, b in zip(_box(page, "/TrimBox"), trim, strict=True))
        assert all(abs(a - b) < TOL for a, b in zip(_box(page, "/BleedBox"), bleed,
                                                    strict=True))
        assert imposed.bleed == pytest.approx(3 * MM)


def _marks(pdf: bytes) -> list[tuple[float, float, float, float]]:
    """The black strokes of a sheet (x0, y0, x1, y1, from the bottom): the crop marks."""
    page = read(pdf)[0]
    return [(ln["x0"], page.height - ln["bottom"], ln["x1"], page.height - ln["top"])
            for ln in page.lines if ln.get("stroking_color") in ((0.0,), 0.0, (0,))]


@pytest.mark.parametrize(("margin", "bleed"), [("5mm", False), ("10mm", True), ("6mm", True)])
def test_crop_marks_are_long_clear_of_the_trim_and_outside_the_bleed(margin: str,
                                                                      bleed: bool) -> None:
    """A margin too narrow for the marks is widened so they keep their length and gaps."""
    sp = sprue(margin=margin, gutter="2mm")
    imposed = impose(pieces(back=False)[:4], sp, Options(bleed=bleed, cut="marks"), "t", "")
    slots = imposed.sheets[0].slots
    marks = _marks(imposed.pdf)
    assert marks
    width, height = read(imposed.pdf)[0].width, read(imposed.pdf)[0].height
    for x0, y0, x1, y1 in marks:
        assert abs(max(x1 - x0, y1 - y0) - MARK_LENGTH) < TOL
        assert min(x0, y0, width - x1, height - y1) >= MARK_EDGE - TOL  # on the paper
        for s in slots:
            gap = max(s.x - x1, x0 - s.x - s.width, s.y - y1, y0 - s.y - s.height)
            assert gap >= MARK_TRIM_CLEAR - TOL
            assert gap > imposed.bleed


# ------------------------------------------------------------------ print-shop files


def test_the_profile_is_read_by_littlecms_and_prints_grey_in_black_alone() -> None:
    profile = ImageCms.ImageCmsProfile(io.BytesIO(cmykprofile.profile()))
    assert ImageCms.getProfileDescription(profile).strip() == cmykprofile.DESCRIPTION
    image = Image.new("RGB", (3, 1))
    image.putpixel((0, 0), (0, 0, 0))
    image.putpixel((1, 0), (128, 128, 128))
    image.putpixel((2, 0), (255, 255, 255))
    cmyk = ImageCms.applyTransform(image, pdfx._transform())
    assert cmyk is not None
    assert [cmyk.getpixel((i, 0)) for i in range(3)] == [
        (0, 0, 0, 255), (0, 0, 0, 127), (0, 0, 0, 0)]
    for rgb in ((0.8, 0.1, 0.1), (0.2, 0.6, 0.2), (0.1, 0.2, 0.9), (0.5, 0.5, 0.5)):
        ink = cmykprofile.to_cmyk(rgb)
        assert min(ink[:3]) == 0.0  # the grey part is in black
        assert cmykprofile.to_srgb(ink) == pytest.approx(rgb)


def test_recolouring_rewrites_operators_and_leaves_strings() -> None:
    content = (b"BT /F1 9 Tf (0 0 0 rg) Tj ET 0 0 0 rg 1 1 1 RG 0.5 g 0 G <30207267> Tj\n"
               b"% 0 0 0 rg\n0.8 0.1 0.1 rg")
    assert pdfx.recolour(content) == (
        b"BT /F1 9 Tf (0 0 0 rg) Tj ET 0 0 0 1 k 0 0 0 0 K 0 0 0 0.5 k 0 0 0 1 K "
        b"<30207267> Tj\n% 0 0 0 rg\n0 0.875 0.875 0.2 k")


@pytest.fixture(scope="module")
def shop_kit() -> dict[str, bytes]:
    kit = compose(Request("kit", scenario=SCENARIO), options=KitOptions(print_shop=True))
    return kit.files


def _operations(data: bytes, index: int) -> list[tuple[list[Any], bytes]]:
    reader = PdfReader(io.BytesIO(data))
    return ContentStream(reader.pages[index].get_contents(), reader).operations


def test_black_text_and_rules_are_black_ink_alone(kits: Kits,
                                                   shop_kit: dict[str, bytes]) -> None:
    """Each RGB black of a page is ``0 0 0 1 k`` in its print-shop twin; no RGB remains."""
    built = kits.build(SCENARIO)
    for name, data in shop_kit.items():
        screen = (built.folder / name).read_bytes()
        for index in (0, 1):
            before = _operations(screen, index)
            after = _operations(data, index)
            blacks = sum(1 for args, op in before if op in (b"rg", b"g")
                         and all(float(v) == 0 for v in args))
            inks = sum(1 for args, op in after if op == b"k"
                       and [float(v) for v in args] == [0, 0, 0, 1])
            assert blacks and inks == blacks, (name, index)
            assert not [op for _, op in after if op in (b"rg", b"RG", b"g", b"G")]
            shown = [op for _, op in after if op in (b"Tj", b"TJ")]
            assert shown and len(after) == len(before)  # the same drawing, recoloured


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example event (A4 only), built with ``print_shop: true``."""
    folder = tmp_path_factory.mktemp("shop-event")
    shutil.copytree(ROOT / "examples" / "branding", folder / "branding")
    text = (ROOT / "examples" / "convention.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^paper: .*$", "paper: [a4]\nprint_shop: true", text)
    (folder / "convention.yaml").write_text(text, encoding="utf-8")
    return build_event(folder / "convention.yaml", out=folder / "out").folder / "a4"


def test_the_print_shop_bundle_names_each_subset_once(event: Path) -> None:
    """One name, one font program, across every packet and cover of the bundle."""
    by_name: dict[str, set[str]] = {}
    by_program: dict[str, set[str]] = {}
    for font in _fonts(PdfReader(event / "print-shop.pdf")):
        assert _embedded(font), font["/BaseFont"]
        data = font["/FontDescriptor"].get_object()["/FontFile2"].get_object().get_data()
        digest = hashlib.sha256(data).hexdigest()
        by_name.setdefault(str(font["/BaseFont"]), set()).add(digest)
        by_program.setdefault(digest, set()).add(str(font["/BaseFont"]))
    assert len(by_name) > 20
    assert all(len(v) == 1 for v in by_name.values())
    assert all(len(v) == 1 for v in by_program.values())


@pytest.mark.parametrize("name", ["print-shop.pdf", "table-01-savo-island.pdf",
                                  "table-01-savo-island/japanese.pdf",
                                  "extras/river-plate/resolution-tables.pdf"])
def test_event_files_are_pdfx4(event: Path, name: str) -> None:
    path = event / name
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1.6\n")
    reader = PdfReader(path)
    root = reader.trailer["/Root"]
    assert "/Version" not in root
    (intent,) = root["/OutputIntents"]
    intent = intent.get_object()
    assert intent["/S"] == "/GTS_PDFX"
    assert intent["/OutputConditionIdentifier"] == cmykprofile.CONDITION
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4 and profile.get_data() == cmykprofile.profile()
    xmp = root["/Metadata"].get_object().get_data().decode()
    assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
    ids = re.findall(r"<xmpMM:(?:Document|Instance)ID>uuid:([0-9a-f-]{36})<", xmp)
    assert len(ids) == 2
    assert "<pdf:Trapped>False</pdf:Trapped>" in xmp
    info = reader.trailer["/Info"].get_object()
    assert info["/Trapped"] == "/False"
    assert info["/Title"]  # the same title in both places, as PDF/X asks
    assert f'<rdf:li xml:lang="x-default">{info["/Title"]}</rdf:li>' in xmp
    for page in reader.pages:
        assert "/TrimBox" in page and "/BleedBox" in page
        resources = page["/Resources"].get_object()
        for ref in (resources.get("/XObject") or {}).values():
            image = ref.get_object()
            if image.get("/Subtype") == "/Image":
                assert image["/ColorSpace"] != "/DeviceRGB"


def test_ghostscript_renders_a_print_shop_pack_without_a_warning(event: Path) -> None:
    gs = shutil.which("gs")
    need_tool(None if gs else "Ghostscript (gs) is not installed here; .ci/run installs it")
    assert gs is not None
    done = subprocess.run([gs, "-dNOPAUSE", "-dBATCH", "-dNOSAFER", "-sDEVICE=nullpage",
                           str(event / "table-01-savo-island.pdf")],
                          capture_output=True, text=True, timeout=120, check=False)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    lines = [line for line in said.splitlines()
             if not re.fullmatch(r"Page \d+|Processing pages 1 through \d+\.", line)
             and not line.startswith(("GPL Ghostscript", "Copyright", "This software",
                                      "see the file"))]
    assert lines == [], lines


def test_print_shop_flag_on_tables_and_markers(tmp_path: Path) -> None:
    runner = CliRunner()
    for args in (["tables", "--print-shop"], ["markers", SCENARIO, "--print-shop"],
                 ["tables"]):
        out = tmp_path / "-".join(args)
        result = runner.invoke(main, [*args, "--out", str(out)])
        assert result.exit_code == 0, result.output
        files = sorted(out.rglob("*.pdf"))
        assert files
        for path in files:
            header = path.read_bytes()[:8]
            assert header == (b"%PDF-1.6" if "--print-shop" in args else b"%PDF-1.3"), path


def test_a_print_shop_file_is_the_same_bytes_every_time(kits: Kits) -> None:
    data = (kits.build(SCENARIO).folder / "referee.pdf").read_bytes()
    once = pdfx.convert(data)
    assert pdfx.convert(data) == once
    assert len(PdfReader(io.BytesIO(once)).pages) == len(PdfReader(io.BytesIO(data)).pages)


def test_print_shop_in_an_event_file_is_true_or_false(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "convention.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^paper: .*$", "paper: [a4]\nprint_shop: maybe", text)
    (tmp_path / "cup.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "branding").mkdir()
    line = text.splitlines().index("print_shop: maybe") + 1
    result = CliRunner().invoke(main, ["event", str(tmp_path / "cup.yaml"),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert (f"cup.yaml:{line}:13: print_shop: found 'maybe', expected true or false"
            in result.output)
    assert "Traceback" not in result.output


def test_an_rgb_image_is_converted_through_the_profile() -> None:
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    picture = Image.new("RGB", (2, 1))
    picture.putpixel((0, 0), (0, 0, 0))
    picture.putpixel((1, 0), (128, 128, 128))
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(100, 100), invariant=1)
    canvas.drawImage(ImageReader(picture), 10, 10, 20, 10)
    canvas.showPage()
    canvas.save()
    reader = PdfReader(io.BytesIO(pdfx.convert(buffer.getvalue())))
    (ref,) = reader.pages[0]["/Resources"]["/XObject"].values()
    image = ref.get_object()
    assert image["/ColorSpace"] == "/DeviceCMYK"
    assert image.get_data() == bytes((0, 0, 0, 255, 0, 0, 0, 127))  # black ink alone


def test_converting_says_nothing_on_the_terminal(kits: Kits,
                                                 capsys: pytest.CaptureFixture[str],
                                                 caplog: pytest.LogCaptureFixture) -> None:
    """pypdf's note that the copy holds more objects than the source's trailer counts
    (its own trailer is right) is not shown to a user building a kit."""
    data = (kits.build(SCENARIO).folder / "allied.pdf").read_bytes()
    with caplog.at_level(logging.WARNING):
        pdfx.convert(data)
    assert caplog.records == []
    assert capsys.readouterr().err == ""
