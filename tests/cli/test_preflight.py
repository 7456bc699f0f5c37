"""``quarterdeck preflight``: small PDFs that fail a print shop's checks one way each.

Most files are written with pikepdf, operator by operator, so each holds exactly the
fault under test and the finding line is known to the character; the good file and the
unembedded Helvetica are ReportLab's, as the kits are. Font programs in the pikepdf files
are stand-in bytes: preflight compares programs, it never renders them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from click.testing import CliRunner
from reportlab.pdfgen.canvas import Canvas

from generator.cli.main import main
from generator.kit.pdfpaint import thinnest
from generator.kit.preflight import Finding, preflight

Resources = Callable[[pikepdf.Pdf], dict[str, Any]]

FONT_OK = ("f.pdf: passed: 0 failures, 0 warnings; colour spaces: {spaces}; fonts: 1, "
           "1 embedded; PDF/X: not declared")


def run(args: list[str], cwd: Path) -> tuple[int, list[str], list[str]]:
    """Run the command in ``cwd``; its status, stdout and stderr lines."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout.splitlines(), result.stderr.splitlines()


def font(pdf: pikepdf.Pdf, name: str = "ABCDEF+Stand-in", program: bytes = b"glyphs") -> Any:
    """An embedded TrueType font whose program is ``program`` (stand-in bytes)."""
    descriptor = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor,
                                    FontName=pikepdf.Name("/" + name),
                                    FontFile2=pdf.make_stream(program))
    return pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.TrueType,
        BaseFont=pikepdf.Name("/" + name), FontDescriptor=descriptor))


def with_font(pdf: pikepdf.Pdf) -> dict[str, Any]:
    """Resources holding one embedded, tagged font as /F1."""
    return {"/Font": pikepdf.Dictionary(F1=font(pdf))}


def image(pdf: pikepdf.Pdf, pixels: int) -> Any:
    """A square DeviceGray image ``pixels`` wide."""
    return pdf.make_stream(bytes(pixels * pixels), Type=pikepdf.Name.XObject,
                           Subtype=pikepdf.Name.Image, Width=pixels, Height=pixels,
                           ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)


def page_pdf(path: Path, content: bytes, resources: Resources | None = None, *,
             trim: tuple[float, ...] | None = (10, 10, 190, 190),
             bleed: tuple[float, ...] | None = (1, 1, 199, 199),
             setup: Callable[[pikepdf.Pdf], None] | None = None,
             version: str | None = None) -> Path:
    """A one-page 200 × 200 pt PDF drawing ``content`` (boxes set unless told not to)."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    page = pdf.pages[0].obj
    page.Contents = pdf.make_stream(content)
    page.Resources = pikepdf.Dictionary(resources(pdf) if resources else {})
    if trim is not None:
        page.TrimBox = pikepdf.Array(trim)
    if bleed is not None:
        page.BleedBox = pikepdf.Array(bleed)
    if setup is not None:
        setup(pdf)
    pdf.save(path, min_version=version or "")
    return path


def claim_pdfx(pdf: pikepdf.Pdf, *, intent: bool = False) -> None:
    """XMP saying PDF/X-4, Trapped False; with ``intent``, a GTS_PDFX output intent."""
    with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
        meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-4"
        meta["pdf:Trapped"] = "False"
    if intent:
        from PIL import ImageCms

        profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
        pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String("sRGB"),
            DestOutputProfile=pdf.make_stream(profile, N=3))])


TEXT = b"BT /F1 10 Tf 20 100 Td (x) Tj ET"


def test_a_good_file_passes_with_one_summary_line(tmp_path: Path) -> None:
    from generator.core.fonts import REGULAR, register

    register()
    canvas = Canvas(str(tmp_path / "good.pdf"), pagesize=(200, 200), invariant=1,
                    initialFontName=REGULAR, trimBox=(10, 10, 190, 190),
                    bleedBox=(1, 1, 199, 199))
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.setStrokeColorCMYK(0, 0, 0, 1)
    canvas.setFont(REGULAR, 10)
    canvas.drawString(20, 100, "Ready for the press")
    canvas.setLineWidth(0.5)
    canvas.line(20, 90, 180, 90)
    canvas.showPage()
    canvas.save()
    assert run(["preflight", "good.pdf"], tmp_path) == (0, [
        "good.pdf: passed: 0 failures, 0 warnings; colour spaces: DeviceCMYK; fonts: 1, "
        "1 embedded; PDF/X: not declared"], [])


def test_reportlab_default_helvetica_is_an_unembedded_font(tmp_path: Path) -> None:
    canvas = Canvas(str(tmp_path / "helvetica.pdf"), pagesize=(200, 200), invariant=1,
                    trimBox=(10, 10, 190, 190), bleedBox=(1, 1, 199, 199))
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.drawString(20, 100, "Helvetica, not embedded")
    canvas.showPage()
    canvas.drawString(20, 100, "and again")
    canvas.showPage()
    canvas.save()
    code, out, _ = run(["preflight", "helvetica.pdf"], tmp_path)
    assert code == 2
    assert out == [
        "helvetica.pdf: pages 1-2: font Helvetica: failure: not embedded (found a standard-14 "
        "Type1 font with no font program, expected the font program embedded)",
        # The second page's text is in the initial colour, gray 0: black in K only too.
        "helvetica.pdf: failed: 1 failure, 0 warnings; colour spaces: DeviceCMYK, DeviceGray; "
        "fonts: 1, 0 embedded; PDF/X: not declared"]


def test_rgb_black_text_warns_and_fails_in_a_pdfx_file(tmp_path: Path) -> None:
    page_pdf(tmp_path / "f.pdf", b"0 0 0 rg " + TEXT, with_font)
    assert run(["preflight", "f.pdf"], tmp_path) == (0, [
        "f.pdf: page 1: text: warning: RGB black, which a print shop separates into four inks "
        "(found DeviceRGB 0/0/0, expected black in K only)",
        "f.pdf: passed: 0 failures, 1 warning; colour spaces: DeviceRGB; fonts: 1, 1 embedded; "
        "PDF/X: not declared"], [])
    page_pdf(tmp_path / "x.pdf", b"0 0 0 rg " + TEXT, with_font,
             setup=lambda pdf: claim_pdfx(pdf, intent=True), version="1.6")
    code, out, _ = run(["preflight", "x.pdf"], tmp_path)
    assert code == 2
    assert out == [
        "x.pdf: page 1: text: failure: RGB black, which a print shop separates into four inks "
        "(found DeviceRGB 0/0/0, expected black in K only)",
        "x.pdf: page 1: colour space: failure: DeviceRGB in a PDF/X file (found DeviceRGB, "
        "expected the output intent's CMYK, gray or an ICC-based space)",
        "x.pdf: failed: 2 failures, 0 warnings; colour spaces: DeviceRGB; fonts: 1, "
        "1 embedded; PDF/X: PDF/X-4"]


def test_rich_black_text_and_thin_lines(tmp_path: Path) -> None:
    page_pdf(tmp_path / "f.pdf", b"0.6 0.5 0.4 1 k " + TEXT + b" 0.6 0.5 0.4 1 K 0.5 w "
             b"20 20 m 180 20 l S 3 w 20 40 m 180 40 l S 0 0.5 0.4 1 k " + TEXT, with_font)
    assert run(["preflight", "f.pdf"], tmp_path)[1] == [
        "f.pdf: page 1: text: warning: rich black of four inks (found DeviceCMYK C 0.6 M 0.5 "
        "Y 0.4 K 1, expected black in K only)",
        "f.pdf: page 1: thin line: warning: rich black of four inks (found DeviceCMYK C 0.6 "
        "M 0.5 Y 0.4 K 1, expected black in K only)",
        FONT_OK.format(spaces="DeviceCMYK").replace("0 warnings", "2 warnings")]


@pytest.mark.parametrize(("content", "found"), [
    (b"0.1 w 20 20 m 180 20 l S", "0.1 pt"),
    (b"0 w 20 20 m 180 20 l S", "0 pt (the thinnest line the device can draw)"),
    # 1 pt drawn under a matrix that squeezes y to a fifth: across a horizontal line,
    # 0.2 pt; preflight takes the direction that prints thinnest.
    (b"1 0 0 0.2 0 0 cm 1 w 20 20 m 180 20 l S", "0.2 pt"),
    # A 0.5 pt line inside a form placed at 40%: 0.2 pt on paper.
    (b"q 0.4 0 0 0.4 0 0 cm /Fm0 Do Q", "0.2 pt"),
    # The same form inside one whose own /Matrix halves it, placed at 80%: 0.2 pt.
    (b"q 0.8 0 0 0.8 0 0 cm /Fm1 Do Q", "0.2 pt"),
])
def test_hairlines_are_measured_on_paper(tmp_path: Path, content: bytes, found: str) -> None:
    def form(pdf: pikepdf.Pdf) -> dict[str, Any]:
        drawn = pdf.make_stream(b"0.5 w 0 0 m 100 0 l S", Type=pikepdf.Name.XObject,
                                Subtype=pikepdf.Name.Form, BBox=[0, 0, 100, 100])
        outer = pdf.make_stream(b"/Fm0 Do", Type=pikepdf.Name.XObject,
                                Subtype=pikepdf.Name.Form, BBox=[0, 0, 100, 100],
                                Matrix=[0.5, 0, 0, 0.5, 0, 0],
                                Resources=pikepdf.Dictionary(
                                    XObject=pikepdf.Dictionary(Fm0=drawn)))
        return {"/XObject": pikepdf.Dictionary(Fm0=drawn, Fm1=outer)}

    page_pdf(tmp_path / "f.pdf", b"0 0 0 1 K " + content, form)
    code, out, _ = run(["preflight", "f.pdf"], tmp_path)
    assert code == 2
    assert out[0] == ("f.pdf: page 1: stroke: failure: hairline thinner than 0.25 pt "
                      f"(found {found}, expected at least 0.25 pt)")
    assert out[1].startswith("f.pdf: failed: 1 failure, 0 warnings; colour spaces: DeviceCMYK")


def test_a_quarter_point_line_is_no_hairline(tmp_path: Path) -> None:
    page_pdf(tmp_path / "f.pdf", b"0 0 0 1 K 0.25 w 20 20 m 180 20 l S "
             b"q 0.5 0 0 0.5 0 0 cm 0.5 w 0 0 m 9 9 l S Q")
    assert run(["preflight", "f.pdf"], tmp_path)[1] == [
        "f.pdf: passed: 0 failures, 0 warnings; colour spaces: DeviceCMYK; fonts: 0, "
        "0 embedded; PDF/X: not declared"]


def test_image_resolution_from_the_placing_matrix(tmp_path: Path) -> None:
    def images(pdf: pikepdf.Pdf) -> dict[str, Any]:
        return {"/XObject": pikepdf.Dictionary(Im0=image(pdf, 72), Im1=image(pdf, 120),
                                               Im2=image(pdf, 300))}

    # Each image one inch (72 pt) square: 72, 120 and 300 ppi; Im2 stretched to two
    # inches wide prints at 150 ppi across, still enough.
    page_pdf(tmp_path / "f.pdf", b"q 72 0 0 72 10 10 cm /Im0 Do Q q 72 0 0 72 90 10 cm "
             b"/Im1 Do Q q 144 0 0 72 10 100 cm /Im2 Do Q "
             b"q 36 0 0 36 10 10 cm BI /W 20 /H 20 /CS /G /BPC 8 ID " + bytes(400)
             + b" EI Q", images)
    assert run(["preflight", "f.pdf"], tmp_path) == (2, [
        "f.pdf: page 1: image Im0 (72 × 72 px): failure: resolution under 100 ppi "
        "(found 72 ppi, expected at least 150 ppi)",
        "f.pdf: page 1: image inline (20 × 20 px): failure: resolution under 100 ppi "
        "(found 40 ppi, expected at least 150 ppi)",
        "f.pdf: page 1: image Im1 (120 × 120 px): warning: resolution under 150 ppi "
        "(found 120 ppi, expected at least 150 ppi)",
        "f.pdf: failed: 2 failures, 1 warning; colour spaces: DeviceGray; fonts: 0, "
        "0 embedded; PDF/X: not declared"], [])


def test_page_boxes_present_and_nested(tmp_path: Path) -> None:
    page_pdf(tmp_path / "none.pdf", b"", trim=None, bleed=None)
    page_pdf(tmp_path / "inside.pdf", b"", trim=(10, 10, 190, 190), bleed=(20, 20, 180, 180))
    page_pdf(tmp_path / "media.pdf", b"", trim=(10, 10, 190, 190), bleed=(-5, 0, 200, 200))
    code, out, _ = run(["preflight", "none.pdf", "inside.pdf", "media.pdf"], tmp_path)
    assert code == 2
    assert [line for line in out if ": failure: " in line] == [
        "none.pdf: page 1: TrimBox: failure: missing (found no TrimBox, expected the finished "
        "page size as a TrimBox)",
        "none.pdf: page 1: BleedBox: failure: missing (found no BleedBox, expected a BleedBox "
        "around the TrimBox)",
        "inside.pdf: page 1: TrimBox: failure: outside the BleedBox (found [10 10 190 190], "
        "expected inside [20 20 180 180])",
        "media.pdf: page 1: BleedBox: failure: outside the MediaBox (found [-5 0 200 200], "
        "expected inside [0 0 200 200])"]
    assert out[-1] == "preflight: 3 files: 0 passed, 3 failed"


def test_one_subset_name_for_two_programs(tmp_path: Path) -> None:
    def two(pdf: pikepdf.Pdf) -> dict[str, Any]:
        return {"/Font": pikepdf.Dictionary(
            F1=font(pdf, "AAAAAA+X", b"program one"), F2=font(pdf, "AAAAAA+X", b"program two"),
            # The same program under the same name twice is one font: no finding.
            F3=font(pdf, "BBBBBB+Y", b"same"), F4=font(pdf, "BBBBBB+Y", b"same"),
            F5=font(pdf, "Whole", b"untagged"))}

    page_pdf(tmp_path / "f.pdf", b"", two)
    assert run(["preflight", "f.pdf"], tmp_path) == (2, [
        "f.pdf: page 1: font AAAAAA+X: failure: one name for 2 different font programs "
        "(found 2 programs named AAAAAA+X, expected one program per name, each subset with "
        "its own tag)",
        "f.pdf: page 1: font Whole: warning: embedded without a subset tag (found Whole, "
        "expected a subset named with a tag of six capitals, ABCDEF+Name)",
        "f.pdf: failed: 1 failure, 1 warning; colour spaces: none; fonts: 5, 5 embedded; "
        "PDF/X: not declared"], [])


def test_pdfx_claim_without_its_markers(tmp_path: Path) -> None:
    page_pdf(tmp_path / "f.pdf", b"0 0 0 1 k " + TEXT, with_font, setup=claim_pdfx)
    assert run(["preflight", "f.pdf"], tmp_path) == (2, [
        "f.pdf: document: OutputIntent: failure: missing (found no GTS_PDFX output intent, "
        "expected one naming the printing condition, with its ICC profile)",
        "f.pdf: document: PDF version: failure: older than XMP metadata need (found PDF 1.3, "
        "expected PDF 1.4 or newer)",
        "f.pdf: failed: 2 failures, 0 warnings; colour spaces: DeviceCMYK; fonts: 1, "
        "1 embedded; PDF/X: PDF/X-4"], [])


def test_a_complete_pdfx4_file_passes_the_pdfx4_standard(tmp_path: Path) -> None:
    page_pdf(tmp_path / "f.pdf", b"0 0 0 1 k " + TEXT, with_font, version="1.6",
             setup=lambda pdf: claim_pdfx(pdf, intent=True))
    assert run(["preflight", "--standard", "pdfx4", "f.pdf"], tmp_path) == (0, [
        "f.pdf: passed: 0 failures, 0 warnings; colour spaces: DeviceCMYK; fonts: 1, "
        "1 embedded; PDF/X: PDF/X-4"], [])


def test_the_pdfx4_standard_asks_every_file_for_the_markers(tmp_path: Path) -> None:
    page_pdf(tmp_path / "f.pdf", b"0 0 0 1 k " + TEXT, with_font)
    code, out, _ = run(["preflight", "--standard", "pdfx4", "f.pdf"], tmp_path)
    assert code == 2
    assert out == [
        "f.pdf: document: PDF/X: failure: not PDF/X-4 (found no PDF/X version, expected "
        "PDF/X-4)",
        "f.pdf: document: OutputIntent: failure: missing (found no GTS_PDFX output intent, "
        "expected one naming the printing condition, with its ICC profile)",
        "f.pdf: document: XMP metadata: failure: no pdfxid:GTS_PDFXVersion (found none, "
        "expected the PDF/X version, such as PDF/X-4)",
        "f.pdf: document: Trapped: failure: not set in the XMP metadata (found none, expected "
        "True or False)",
        "f.pdf: failed: 4 failures, 0 warnings; colour spaces: DeviceCMYK; fonts: 1, "
        "1 embedded; PDF/X: not declared"]


@pytest.mark.parametrize(("change", "finding"), [
    (lambda pdf: pdf.Root.OutputIntents[0].__delitem__("/DestOutputProfile"),
     "OutputIntent: failure: no DestOutputProfile (found no ICC profile, expected the "
     "printing condition's ICC profile)"),
    (lambda pdf: pdf.Root.OutputIntents[0].__delitem__("/OutputConditionIdentifier"),
     "OutputIntent: failure: no OutputConditionIdentifier (found none, expected the "
     "printing condition's name (FOGRA39, CGATS TR 006...))"),
    (lambda pdf: pdf.docinfo.__setitem__("/Trapped", pikepdf.Name("/True")),
     "Trapped: failure: Info and XMP metadata disagree (found True and False, expected the "
     "same value in both)"),
    (lambda pdf: pdf.Root.__setitem__("/Version", pikepdf.Name("/1.7")),
     "PDF version: failure: newer than PDF/X-4 allows (found 1.7, expected at most 1.6)"),
])
def test_each_pdfx_marker_is_checked(tmp_path: Path, change: Callable[[pikepdf.Pdf], None],
                                     finding: str) -> None:
    def setup(pdf: pikepdf.Pdf) -> None:
        claim_pdfx(pdf, intent=True)
        change(pdf)

    page_pdf(tmp_path / "f.pdf", b"0 0 0 1 k " + TEXT, with_font, version="1.6", setup=setup)
    code, out, _ = run(["preflight", "f.pdf"], tmp_path)
    assert (code, out[:-1]) == (2, [f"f.pdf: document: {finding}"])


def test_a_content_stream_that_cannot_be_read_is_a_failure(tmp_path: Path) -> None:
    def broken(pdf: pikepdf.Pdf) -> None:
        pdf.pages[0].obj.Contents = pdf.make_stream(b"not deflated",
                                                    Filter=pikepdf.Name.FlateDecode)

    page_pdf(tmp_path / "f.pdf", b"", setup=broken)
    code, out, _ = run(["preflight", "f.pdf"], tmp_path)
    assert code == 2
    assert out[0].startswith("f.pdf: page 1: page content: failure: cannot be read (found ")
    assert out[0].endswith(", expected a content stream a RIP can read)")


def test_operands_of_the_wrong_kind_are_skipped(tmp_path: Path) -> None:
    # Each bad operator is skipped as a renderer would; the good ones after it still count.
    page_pdf(tmp_path / "f.pdf", b"/X 1 2 3 4 5 cm (a) w [1 2] G /Nope Do /Nope gs 0 0 0 1 K "
             b"0.1 w 0 0 m 9 9 l S")
    assert run(["preflight", "f.pdf"], tmp_path)[1][0] == (
        "f.pdf: page 1: stroke: failure: hairline thinner than 0.25 pt (found 0.1 pt, expected "
        "at least 0.25 pt)")


def test_unreadable_files_are_located_errors(tmp_path: Path) -> None:
    (tmp_path / "notes.pdf").write_text("not a PDF at all")
    (tmp_path / "cut.pdf").write_bytes(b"%PDF-1.4\n1 0 obj <<")
    (tmp_path / "folder.pdf").mkdir()
    locked = pikepdf.new()
    locked.add_blank_page()
    locked.save(tmp_path / "locked.pdf", encryption=pikepdf.Encryption(user="u", owner="o"))
    page_pdf(tmp_path / "ok.pdf", b"")
    code, out, err = run(["preflight", "notes.pdf", "missing.pdf", "folder.pdf", "locked.pdf",
                          "ok.pdf"], tmp_path)
    assert code == 2
    assert err[:4] == [
        "notes.pdf: found a file that is not a PDF (no %PDF- header), expected a PDF file",
        "missing.pdf: found no such file, expected a PDF file",
        "folder.pdf: found a folder, expected a PDF file",
        "locked.pdf: found an encrypted PDF that needs a password, expected an unencrypted "
        "PDF file"]
    assert err[-1] == "error: 4 files could not be preflighted"
    assert out[-1] == "preflight: 5 files: 1 passed, 0 failed, 4 unreadable"
    cut_code, _, cut_err = run(["preflight", "cut.pdf"], tmp_path)
    assert cut_code == 2
    assert cut_err[0].startswith("cut.pdf: found a damaged PDF (")


def test_names_from_the_file_cannot_act_on_the_terminal(tmp_path: Path) -> None:
    def hostile(pdf: pikepdf.Pdf) -> dict[str, Any]:
        evil = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                  BaseFont=pikepdf.Name("/Evil\x1b]0;owned\x07\nX\u202e"))
        return {"/Font": pikepdf.Dictionary(F1=evil)}

    page_pdf(tmp_path / "f.pdf", b"", hostile)
    _, out, _ = run(["preflight", "f.pdf"], tmp_path)
    assert out[0] == ("f.pdf: page 1: font Evil\\x1b]0;owned\\x07\\nX\\u202e: failure: not "
                      "embedded (found a Type1 font with no font program, expected the font "
                      "program embedded)")
    assert len(out) == 2


def test_thinnest_is_the_smaller_scale_of_a_matrix() -> None:
    # Rotated by 30° and scaled 2 across, 0.5 up: the rotation changes nothing.
    import math

    cos, sin = math.cos(math.pi / 6), math.sin(math.pi / 6)
    matrix = (2 * cos, 2 * sin, -0.5 * sin, 0.5 * cos, 7.0, 9.0)
    assert thinnest(matrix) == pytest.approx(0.5, abs=1e-12)
    assert thinnest((1.0, 0.0, 0.0, 1.0, 0.0, 0.0)) == 1.0


def test_a_bundled_kit_reports_what_its_files_hold(savo: Any) -> None:
    """A kit file's findings follow what the file holds, read independently with pypdf.

    Today's kits have no TrimBox and list an unembedded Helvetica; when the print-shop
    work gives every page its boxes and drops the Helvetica, the expected lines go with
    them, and this test keeps passing only if preflight agrees.
    """
    from pypdf import PdfReader

    path = savo.folder / "referee.pdf"
    report = preflight(path)
    reader = PdfReader(path)
    pages = len(reader.pages)
    everywhere = (f"pages 1-{pages}" if pages > 1 else "page 1")
    lines = [str(f) for f in report.findings]
    no_trim = [n for n, p in enumerate(reader.pages, 1) if "/TrimBox" not in p]
    trim_line = (f"{path}: {everywhere}: TrimBox: failure: missing (found no TrimBox, "
                 "expected the finished page size as a TrimBox)")
    assert (trim_line in lines) == (len(no_trim) == pages)
    assert any(": TrimBox: " in line for line in lines) == bool(no_trim)
    helvetica = any(
        font.get("/BaseFont") == "/Helvetica" and "/FontDescriptor" not in font
        for page in reader.pages
        for font in page["/Resources"].get("/Font", {}).values())
    assert any(": font Helvetica: failure: not embedded " in line
               for line in lines) == helvetica
    assert report.failures == sum(f.severity == "failure" for f in report.findings)
    assert {f.object for f in report.findings} <= {
        "TrimBox", "BleedBox", "font Helvetica", "stroke", "text", "thin line"}
    assert all(isinstance(f, Finding) and f.file == str(path) for f in report.findings)
