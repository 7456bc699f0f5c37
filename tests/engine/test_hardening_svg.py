"""SVG images can neither read files nor start programs (issue 35, items 3 and 8).

svglib resolves a ``font-family`` it does not know by opening ``<name>.ttf`` (an absolute
path, one relative to the working folder, ReportLab's font path, even a URL) and by
running ``fc-match`` with the name; a font from outside the data folder then ends up
embedded in the PDF. quarterdeck rewrites every SVG font to a bundled one and gives
svglib a font map that never looks anything up (``generator.data.images``).

Every file of ``tests/hostile_corpus/svg/`` (named for its attack; ``@CANARY@`` stands for
the canary folder's absolute path) is a class's ``marker_image`` in a data folder, and
``check`` of that folder, the cheapest command that loads the image, runs in this process
with the working folder set to a *canary* folder: PT-Sans-free fonts (Bitstream Vera from
ReportLab, under the names svglib would guess) and files an SVG might point at. The run
must open nothing there, start no process (``tests.hostile`` watches both through audit
hooks), and end in exit 0 or the exact located refusal listed in ``CORPUS``.

Also here: the text-element bound, the PDF of a passing font attack (only bundled fonts
embedded), symbolic-link loops for the three images data names (a class's marker image,
the branding logo, an event's logo), and a hypothesis fuzz of a valid SVG through the real
image loader and a PDF canvas.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.hostile import run_cli, watch
from tests.paths import ROOT

CORPUS_DIR = ROOT / "tests" / "hostile_corpus" / "svg"
FLETCHER = (ROOT / "shipdata" / "classes" / "us" / "fletcher.yaml").read_text(encoding="utf-8")
CARRIER_TEST = (ROOT / "tests" / "data" / "markers" / "carrier-test.yaml").read_text(
    encoding="utf-8")
EXAMPLES = int(os.environ.get("QUARTERDECK_FUZZ_EXAMPLES", "24"))

BUNDLED_FACES = {"PTSans-Regular", "PTSans-Bold", "PTSans-Italic", "PTSans-Narrow",
                 "PTSans-NarrowBold"}
"""PostScript names of the faces ``generator.core.fonts`` registers."""


def _short(text: str) -> str:
    """A long value as a message quotes it (``generator.data.images`` cuts at 40 characters)."""
    return text if len(text) <= 40 else text[:37] + "..."


def _outside(element: str, target: str) -> Callable[[Path], str]:
    def expected(canary: Path) -> str:
        link = _short(target.replace("@CANARY@", str(canary)))
        return ("expected an SVG that refers to nothing outside itself (its "
                f"<{element}> links '{link}')")

    return expected


def _url(element: str, target: str) -> str:
    return (f"expected an SVG that refers to nothing outside itself (its <{element}> uses "
            f"url({target}))")


DOCTYPE = "expected an SVG without DOCTYPE or ENTITY declarations"
TEXTS = "expected an SVG of at most 1,000 text elements (<text>, <tspan>), counting copies"
FAR = "expected an SVG whose shapes lie within 1,000,000 units of its origin"
FINITE = "expected an SVG whose figures are all finite numbers"

CORPUS: dict[str, str | Callable[[Path], str] | None] = {
    # Fonts: each would open a canary file or run fc-match before the fix; now drawn in
    # the bundled fonts (None: the check passes).
    "font-absolute-path": None,
    "font-absolute-path-bold": None,
    "font-absolute-path-italic": None,
    "font-absolute-path-numeric-weight": None,
    "font-relative-working-folder": None,
    "font-dotdot-path": None,
    "font-fc-match-name": None,
    "font-fc-match-pattern": None,
    "font-fc-match-option": None,
    "font-url": None,
    "font-data-uri": None,
    "font-unbalanced-quote": None,  # svglib's own split failed on it ("No closing quotation")
    "font-list-with-path": None,
    "font-style-attribute": None,
    "font-style-sheet": None,
    "font-style-sheet-id": None,
    "font-face-local": None,
    "font-face-url": _url("style", "../canary/canary.ttf"),
    "font-inherited-from-group": None,
    "font-on-tspan": None,
    "font-through-use-copy": None,
    "font-narrow-bold": None,
    "font-serif-italic": None,
    "font-uppercase-property": None,
    "font-empty": None,
    # Text elements.
    "text-copies-through-use": TEXTS,
    "text-huge-font-size": f"{FAR} (they reach no finite distance)",
    "text-per-character-positions": f"{FAR} (they reach no finite distance)",
    # References out of the file.
    "image-file-uri": _outside("image", "file://@CANARY@/canary.png"),
    "image-relative-path": _outside("image", "../canary/canary.png"),
    "image-http": _outside("image", "http://127.0.0.1:9/canary.png"),
    "image-data-uri": _outside("image", "data:image/png;base64,iVBORw0KGgo="),
    "image-data-uri-svg": _outside("image", "data:image/svg+xml;utf8,<svg/>"),
    "use-external-file": _outside("use", "../canary/canary.svg#hull"),
    "use-file-uri": _outside("use", "file://@CANARY@/canary.svg#hull"),
    "use-loop": "expected an SVG whose <use> copies hold no <use> themselves (it copies '#b')",
    "use-fan-out": "expected an SVG of at most 50000 elements, counting copies",
    "feimage-external": _outside("feImage", "../canary/canary.png"),
    "gradient-external": _outside("linearGradient", "../canary/canary.svg#g"),
    "anchor-link": _outside("a", "../canary/passwd"),
    "foreign-object-iframe": _outside("iframe", "../canary/passwd"),
    "css-import": "expected an SVG without CSS @import (in its <style>)",
    "css-import-string": "expected an SVG without CSS @import (in its <style>)",
    "css-url-fill": _url("rect", "../canary/canary.svg#g"),
    "xml-stylesheet": ("expected an SVG without processing instructions (it has "
                       "<?xml-stylesheet?>)"),
    "xinclude": "expected an SVG without XInclude",
    # XML entities.
    "xxe-system-entity": DOCTYPE,
    "xxe-parameter-entity": DOCTYPE,
    "external-dtd": DOCTYPE,
    "billion-laughs": DOCTYPE,
    # Sizes and shapes.
    "huge-width": "expected an SVG of at most 100000 units a side (its width is '1e308')",
    "huge-viewbox": ("expected an SVG of at most 100000 units a side (its viewBox is "
                     "'0 0 1e309 20')"),
    "zero-size": "expected an SVG that can be drawn",
    "nested-too-deep": "expected SVG elements nested at most 64 deep",
    "shape-far-away": f"{FAR} (they reach 7.5e+299)",
    # A group's bounds drop a NaN (found by the SVG fuzz in tests/engine/test_fuzz.py: ReportLab
    # then failed mid-page).
    "text-offset-infinite-nan-bounds": f"{FAR} (they reach no finite distance)",
    "stroke-width-nan": f"{FINITE} (a Rect's strokeWidth is nan)",
    "dash-infinite": f"{FINITE} (a Rect's strokeDashArray is [inf, 2.0])",
    # Styles svglib cannot read: said in the file's words, not svglib's.
    "style-attribute-two-colons": ("expected an SVG whose style attributes hold 'name: value' "
                                   "declarations (its <text> has 'font-family:a:b')"),
    "style-sheet-not-css": ("expected an SVG whose <style> is valid CSS (EOF reached before {} "
                            "block for a qualified rule.)"),
    "style-sheet-bad-selector": ("expected an SVG whose <style> is valid CSS (a selector: "
                                 "Invalid arguments for :nth-child())"),
    "style-sheet-unclosed": None,  # CSS closes it at the end; the font is rewritten
    # Not an SVG, or not only one.
    "utf16": "expected an SVG in UTF-8",
    "html-root": "expected an SVG image (its root element is not <svg>)",
    "script-element": None,  # never run: svglib draws shapes only
}

_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20" '
        'viewBox="0 0 100 20">{}</svg>')
GENERATED: dict[str, tuple[str, str | None]] = {
    # The hang: 3,000 text elements, each naming its own unknown font.
    "texts-3000-unknown-fonts": (_SVG.format("".join(
        f'<text y="{i % 20}" font-family="nosuchfont{i}">{i}</text>' for i in range(3000))),
        TEXTS),
    "tspans-1001": (_SVG.format("<text>" + "<tspan>x</tspan>" * 1000 + "</text>"), TEXTS),
    "texts-1000-accepted": (_SVG.format("".join(
        f'<text y="{i % 20}" font-family="nosuchfont{i}">{i}</text>' for i in range(1000))),
        None),
}


# --- the folders -------------------------------------------------------------------------

def _canary(tmp_path: Path) -> Path:
    """Files an SVG may point at, outside the data: fonts under svglib's guessed names."""
    canary = tmp_path / "canary"
    canary.mkdir()
    vera = Path(__import__("reportlab").__file__).parent / "fonts"
    for name, source in (("canary.ttf", "Vera.ttf"), ("canarybd.ttf", "VeraBd.ttf"),
                         ("canaryi.ttf", "VeraIt.ttf"), ("canarybi.ttf", "VeraBI.ttf")):
        shutil.copyfile(vera / source, canary / name)
    for name in ("canary.png", "canary.svg", "canary.css", "canary.dtd", "passwd"):
        (canary / name).write_text("canary\n", encoding="utf-8")
    return canary


def _class_file(data: Path, stem: str, image: str) -> Path:
    """A copy of Fletcher under the id ``stem`` (its file name) naming ``image``."""
    path = data / f"{stem}.yaml"
    path.write_text(FLETCHER.replace("id: fletcher\n", f"id: {stem}\n", 1)
                    + f"marker_image: {image}\n", encoding="utf-8")
    return path


def _data(tmp_path: Path, svg: bytes, canary: Path) -> tuple[Path, Path]:
    """A data folder whose Fletcher names ``top.svg``; the folder and the class file."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "top.svg").write_bytes(svg.replace(b"@CANARY@", str(canary).encode()))
    return data, _class_file(data, "fletcher", "top.svg")


# --- the corpus --------------------------------------------------------------------------

@dataclass
class CorpusRun:
    """One ``check`` of a data folder holding every case, each its own class and image."""

    canary: Path
    classes: dict[str, Path]
    code: int
    lines: list[str]


@pytest.fixture(scope="module")
def corpus_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CorpusRun]:
    """Every corpus and generated case checked at once (one library load serves them all).

    The run starts in the canary folder, so a name relative to the working folder lands
    there; ``run_cli`` fails it on a process started or a canary file opened.
    """
    tmp_path = tmp_path_factory.mktemp("corpus")
    canary = _canary(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    images = {case: (CORPUS_DIR / f"{case}.svg").read_bytes() for case in CORPUS}
    images.update({case: svg.encode() for case, (svg, _) in GENERATED.items()})
    classes = {}
    for case, svg in images.items():
        (data / f"{case}.svg").write_bytes(svg.replace(b"@CANARY@", str(canary).encode()))
        classes[case] = _class_file(data, f"svg-{case}", f"{case}.svg")
    cwd = Path.cwd()
    os.chdir(canary)
    try:
        code, _, stderr = run_cli(["check", str(data)], canary)
    finally:
        os.chdir(cwd)
    yield CorpusRun(canary, classes, code, stderr.splitlines())


def _outcome(run: CorpusRun, case: str, expected: str | None) -> None:
    """The case's class file is named in no problem, or in exactly its located refusal."""
    path = run.classes[case]
    mine = [line for line in run.lines if line.startswith(f"{path}:")]
    if expected is None:
        assert mine == [], mine
    else:
        line = FLETCHER.count("\n") + 1
        assert mine == [f"{path}:{line}:15: marker_image: found '{case}.svg', {expected}"], mine


def test_the_corpus_and_its_expectations_match(corpus_run: CorpusRun) -> None:
    assert sorted(p.stem for p in CORPUS_DIR.glob("*.svg")) == sorted(CORPUS)
    assert len(CORPUS) >= 30
    # Refusals make it exit 2; each problem line belongs to one case (checked below).
    assert corpus_run.code == 2
    assert all(any(line.startswith(f"{path}:") for path in corpus_run.classes.values())
               for line in corpus_run.lines if ": marker_image: " in line)


@pytest.mark.parametrize("case", sorted(CORPUS))
def test_hostile_svg_corpus(corpus_run: CorpusRun, case: str) -> None:
    expected = CORPUS[case]
    if callable(expected):
        expected = expected(corpus_run.canary)
    _outcome(corpus_run, case, expected)


@pytest.mark.parametrize("case", sorted(GENERATED))
def test_text_elements_are_bounded(corpus_run: CorpusRun, case: str) -> None:
    _outcome(corpus_run, case, GENERATED[case][1])


def test_a_font_attack_alone_is_inert(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One case in a folder of its own: svglib's own font map is process-wide, so in the
    corpus run a name another case had looked up first would not be looked up again."""
    canary = _canary(tmp_path)
    data, _ = _data(tmp_path, (CORPUS_DIR / "font-list-with-path.svg").read_bytes(), canary)
    monkeypatch.chdir(canary)
    code, _, stderr = run_cli(["check", str(data)], canary)
    assert code == 0, stderr


# --- the fonts a passing SVG prints with --------------------------------------------------

FONT_ATTACKS = """\
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" viewBox="0 0 200 40">
  <style>.c { font-family: "@CANARY@/canary"; font-style: italic }</style>
  <rect width="200" height="40" fill="#dddddd"/>
  <text x="2" y="10" font-size="8" font-family="@CANARY@/canary">Regular</text>
  <text x="2" y="20" font-size="8" font-family="canary" font-weight="bold">Heavy</text>
  <text x="2" y="30" font-size="8" class="c">Slanted</text>
  <text x="90" y="10" font-size="8" style="font-family:DejaVu Sans Condensed">Narrowly</text>
  <text x="90" y="20" font-size="8" font-family="Arial Narrow" font-weight="800">Tight</text>
  <text x="90" y="30" font-size="8" font-family="serif" font-weight="bold"
        font-style="italic">Both</text>
</svg>
"""


def _strings(node: Any) -> list[Any]:
    from reportlab.graphics.shapes import String

    if isinstance(node, String):
        return [node]
    return [s for child in getattr(node, "contents", []) for s in _strings(child)]


def test_svg_text_is_set_in_the_bundled_faces(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.data.images import check_image, load_image

    canary = _canary(tmp_path)
    data, path = _data(tmp_path, FONT_ATTACKS.encode(), canary)
    monkeypatch.chdir(canary)
    with watch(canary) as seen:
        found, expected = check_image(path, data, "top.svg")
        assert found is not None, expected
        drawing = load_image(found)
    seen.assert_inert()
    faces = {s.text: s.fontName for s in _strings(drawing)}
    assert faces == {"Regular": "QD-Sans", "Heavy": "QD-Sans-Bold",
                     "Slanted": "QD-Sans-Italic", "Narrowly": "QD-Narrow",
                     "Tight": "QD-Narrow-Bold", "Both": "QD-Sans-Bold"}


def test_every_font_family_in_the_tree_is_rewritten() -> None:
    """Attributes, ``style`` attributes and style sheets: svglib sees only bundled names."""
    from lxml import etree

    from generator.data.svgtree import bundle_fonts

    root = etree.fromstring(
        '<svg xmlns="http://www.w3.org/2000/svg"><style>a { font-family: "/x/y", serif }'
        " b{font-family:Arial Narrow}</style><g font-family=\"'/x/y\"><text style=\"fill:red;"
        'font-family: canary ;font-size:3\">t</text></g></svg>')
    bundle_fonts(root)
    sheet, group = root
    assert sheet.text == 'a { font-family: QD-Sans} b{font-family:QD-Narrow}'
    assert group.get("font-family") == "QD-Sans"
    assert group[0].get("style") == "fill:red;font-family: QD-Sans;font-size:3"


def _embedded_fonts(pdf: Path) -> set[str]:
    """PostScript names (subset tag dropped) of every font a PDF embeds, in forms too."""
    from pypdf import PdfReader

    names: set[str] = set()
    seen: set[int] = set()

    def walk(resources: Any) -> None:
        if resources is None or id(resources) in seen:
            return
        seen.add(id(resources))
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is not None and any(k in descriptor.get_object() for k in (
                    "/FontFile", "/FontFile2", "/FontFile3")):
                names.add(str(font["/BaseFont"]).lstrip("/").split("+")[-1])
        for xobject in (resources.get("/XObject") or {}).values():
            walk(xobject.get_object().get("/Resources"))

    for page in PdfReader(pdf).pages:
        walk(page.get("/Resources"))
    return names


def test_a_font_attack_prints_in_bundled_fonts_only(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.pdftext import page_texts

    canary = _canary(tmp_path)
    data, _ = _data(tmp_path, FONT_ATTACKS.encode(), canary)
    (data / "carrier-test.yaml").write_text(CARRIER_TEST, encoding="utf-8")
    monkeypatch.chdir(canary)
    out = tmp_path / "out"
    code, _, stderr = run_cli(["markers", "carrier-test", "--data", str(data), "--out",
                               str(out)], canary)
    assert code == 0, stderr
    sheet = out / "carrier-test" / "markers" / "markers-us.pdf"
    text = set(" ".join(page_texts(sheet)).split())
    assert {"Regular", "Heavy", "Slanted", "Narrowly", "Tight", "Both"} <= text
    embedded = _embedded_fonts(sheet)
    assert "PTSans-Italic" in embedded  # the marker sheet has no italic of its own
    assert embedded <= BUNDLED_FACES, embedded


# --- symbolic-link loops -------------------------------------------------------------------

LOOP = "expected a file, not a symbolic link that loops (or a path that cannot be resolved)"


def _loop(folder: Path, name: str) -> None:
    """``name`` and ``name.loop`` in ``folder``, each a link to the other."""
    (folder / name).symlink_to(f"{name}.loop")
    (folder / f"{name}.loop").symlink_to(name)


@pytest.mark.parametrize("image", ["top.svg", "sub/top.svg"])
def test_a_marker_image_that_loops_is_located(tmp_path: Path, image: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = data / "fletcher.yaml"
    path.write_text(FLETCHER + f"marker_image: {image}\n", encoding="utf-8")
    _loop(data, image.split("/")[0])
    code, _, stderr = run_cli(["check", str(data)])
    assert code == 2
    assert (f"{path}:{FLETCHER.count(chr(10)) + 1}:15: marker_image: found '{image}', {LOOP}"
            in stderr.splitlines()), stderr


def test_a_branding_logo_that_loops_is_located(tmp_path: Path) -> None:
    brand = tmp_path / "brand"
    brand.mkdir()
    (brand / "branding.yaml").write_text("club: Test Club\nlogo: logo.svg\n", encoding="utf-8")
    _loop(brand, "logo.svg")
    code, _, stderr = run_cli(["build", "river-plate", "--templates", str(brand), "--out",
                               str(tmp_path / "o"), "-q"])
    assert code == 2
    assert f"{brand / 'branding.yaml'}:2:7: logo: found 'logo.svg', {LOOP}" in stderr, stderr
    assert not (tmp_path / "o").exists()


def test_an_event_logo_that_loops_is_located(tmp_path: Path) -> None:
    event = tmp_path / "cup.yaml"
    event.write_text("kind: event\nname: Loop Cup\ndate: 2026-11-28\nlogo: club.svg\n"
                     "paper: [a4]\nscenarios:\n  - id: river-plate\n    tables: 1\n",
                     encoding="utf-8")
    _loop(tmp_path, "club.svg")
    code, _, stderr = run_cli(["event", str(event), "--out", str(tmp_path / "o"), "-q"])
    assert code == 2
    assert f"{event}:4:7: logo: found 'club.svg', {LOOP}" in stderr, stderr


# --- fuzz ----------------------------------------------------------------------------------

SEED_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     width="120" height="30" viewBox="0 0 120 30">
  <style>.l { font-family: Georgia, serif; font-weight: bold }</style>
  <defs><g id="hull"><rect x="2" y="8" width="100" height="14" fill="#345"/></g></defs>
  <use href="#hull"/>
  <g font-family="Helvetica" transform="translate(4 2)">
    <text x="6" y="18" font-size="9" class="l">Hood<tspan dx="2"
      font-style="italic">41</tspan></text>
    <circle cx="100" cy="15" r="4" style="fill:#c00;stroke:#000"/>
  </g>
  <path d="M 2 15 L 12 8 L 12 22 Z"/>
</svg>
"""



def test_check_sees_an_image_edited_after_a_passing_check(tmp_path: Path) -> None:
    """The library cache was keyed by the YAML alone: an SVG edited after a passing
    ``check`` still passed, from the cache."""
    data = tmp_path / "data"
    data.mkdir()
    good = b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="10">' \
           b'<rect width="40" height="10"/></svg>'
    (data / "top.svg").write_bytes(good)
    path = _class_file(data, "fletcher", "top.svg")
    assert run_cli(["check", str(data)])[0] == 0
    (data / "top.svg").write_bytes(good.replace(b"<rect", b'<image href="file:///etc/passwd"'
                                                b' width="1" height="1"/><rect'))
    code, _, err = run_cli(["check", str(data)])
    assert code == 2
    assert f"{path}:" in err and ": marker_image: found 'top.svg'" in err
