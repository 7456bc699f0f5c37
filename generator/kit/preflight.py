"""A print shop's preflight of finished PDFs: what ``quarterdeck preflight`` reports.

A print shop runs every file it receives through a preflight before it reaches the
press, and rejects or queries the file for what would print wrong there. ``preflight``
checks the same things, per file:

- **page boxes**: every page has a TrimBox (the finished size) and a BleedBox, and
  TrimBox ⊆ BleedBox ⊆ MediaBox;
- **fonts**: every font is embedded (a standard-14 Type1 font such as Helvetica named
  without its program is a failure: the shop's RIP would substitute its own), an
  embedded subset carries a subset tag (``ABCDEF+Name``), and no font name stands for
  two different font programs in one file (a RIP that caches fonts by name mixes them);
- **colour**: the colour spaces used are listed; DeviceRGB in a file that declares PDF/X
  is a failure; text and thin lines (under 1 pt) in a "rich" black of all four inks, or in
  RGB 0/0/0 (which a RIP separates into four inks), cannot register cleanly at small
  sizes: a failure in a PDF/X file, a warning elsewhere;
- **images**: the effective resolution on paper of every placed image (its pixels over
  its placed size, from the transformation matrix): under 150 ppi a warning, under 100 ppi
  a failure;
- **hairlines**: strokes printing thinner than 0.25 pt (the width times the matrix's
  smallest scale), which may vanish on a press, are failures;
- **PDF/X markers**, for a file that declares PDF/X (or for every file with
  ``standard="pdfx4"``): an OutputIntent ``GTS_PDFX`` with its DestOutputProfile and
  condition, the XMP ``pdfxid:GTS_PDFXVersion``, ``Trapped`` set to True or False, and a
  PDF version the standard allows; in every file, a version header no older than the
  features the file uses.

Each finding names its page (or ``document``) and object; identical findings on several
pages are one line naming the pages. Names read from a file (fonts, images, colour
spaces, metadata) are shown with every control character escaped and cut to a length.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pikepdf

from generator.core.errors import Problem
from generator.core.terminal import inert
from generator.kit.pdfpaint import Mark, inherited, paints

__all__ = ["Finding", "Report", "Standard", "Unreadable", "preflight"]

Standard = Literal["any", "pdfx4"]
Severity = Literal["failure", "warning"]

HAIRLINE_PT = 0.25
"""Strokes printing thinner than this many points are failures."""
THIN_LINE_PT = 1.0
"""Strokes thinner than this are "thin lines" for the rich-black check."""
WARN_PPI = 150
"""Images placed at fewer pixels per inch than this are warnings..."""
FAIL_PPI = 100
"""...and fewer than this, failures."""
TOLERANCE_PT = 0.01
"""How far one page box may stick out of another (rounding in the writer)."""
PDFX_VERSION_LIMIT = {"PDF/X-4": (1, 6), "PDF/X-3:2003": (1, 4), "PDF/X-1a:2003": (1, 4),
                      "PDF/X-3:2002": (1, 3), "PDF/X-1a:2001": (1, 3)}
"""The newest PDF version each PDF/X standard allows (by the start of its version name)."""

STANDARD_14 = frozenset((
    "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic", "Helvetica",
    "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique", "Courier",
    "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique", "Symbol", "ZapfDingbats"))
_SUBSET = re.compile(r"[A-Z]{6}\+")
_LONGEST_NAME = 80


class Unreadable(Exception):
    """The file cannot be preflighted: missing, not a PDF, or encrypted."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


@dataclass(frozen=True)
class Finding:
    """One thing a print shop would reject (a failure) or query (a warning)."""

    file: str
    pages: tuple[int, ...]
    """1-based pages it was found on; empty for the document as a whole."""
    object: str
    severity: Severity
    what: str
    found: str
    expected: str

    def __str__(self) -> str:
        return (f"{self.file}: {_where(self.pages)}: {self.object}: {self.severity}: "
                f"{self.what} (found {self.found}, expected {self.expected})")


@dataclass
class Report:
    """One file's preflight: its findings and what it was found to use."""

    file: str
    findings: list[Finding] = field(default_factory=list)
    colour_spaces: set[str] = field(default_factory=set)
    fonts: int = 0
    embedded: int = 0
    pdfx: str = ""
    """The PDF/X version the file declares, or "" when it declares none."""

    @property
    def failures(self) -> int:
        """How many findings are failures."""
        return sum(f.severity == "failure" for f in self.findings)

    @property
    def warnings(self) -> int:
        """How many findings are warnings."""
        return sum(f.severity == "warning" for f in self.findings)

    def summary(self) -> str:
        """The file's one-line summary: verdict, counts, colour spaces, fonts, PDF/X."""
        verdict = "failed" if self.failures else "passed"
        spaces = ", ".join(sorted(self.colour_spaces)) or "none"
        return (f"{self.file}: {verdict}: {_count(self.failures, 'failure')}, "
                f"{_count(self.warnings, 'warning')}; colour spaces: {spaces}; "
                f"fonts: {self.fonts}, {self.embedded} embedded; "
                f"PDF/X: {self.pdfx or 'not declared'}")


def preflight(path: Path, standard: Standard = "any") -> Report:
    """Preflight one PDF file (see the module); raises ``Unreadable`` when it cannot."""
    shown = str(path)
    pdf = _open(path, shown)
    try:
        with pdf:
            report = _check(pdf, shown, standard)
    except pikepdf.PdfError as error:  # damage qpdf finds only once an object is read
        raise Unreadable(Problem(shown, 0, 0, "", f"found a damaged PDF "
                                 f"({_reason(error, path)}), expected a PDF file")) from None
    return report


def _check(pdf: pikepdf.Pdf, shown: str, standard: Standard) -> Report:
    """Every check of one open file (see the module)."""
    raw: list[tuple[int, str, Severity, str, str, str]] = []
    report = Report(shown)
    report.pdfx = _declared(pdf)
    pdfx = bool(report.pdfx) or standard == "pdfx4"
    pages = [pikepdf.Page(p) for p in pdf.pages]
    for number, page in enumerate(pages, start=1):
        raw += [(number, *f) for f in _boxes(page)]
        try:
            marks = paints(page)
        except pikepdf.PdfError as error:  # a content stream qpdf cannot tokenize
            raw.append((number, "page content", "failure", "cannot be read",
                        _reason(error, Path(shown)), "a content stream a RIP can read"))
            marks = []
        report.colour_spaces |= {m.colour.label for m in marks if m.colour is not None}
        raw += [(number, *f) for f in _marks(marks, pdfx=pdfx)]
        if pdfx and any(m.colour is not None and m.colour.family == "DeviceRGB"
                        for m in marks):
            raw.append((number, "colour space", "failure", "DeviceRGB in a PDF/X file",
                        "DeviceRGB", "the output intent's CMYK, gray or an ICC-based space"))
    raw += _fonts(pdf, pages, report)
    if pdfx:
        raw += [(0, *f) for f in _pdfx(pdf, report.pdfx, standard)]
    raw += [(0, *f) for f in _version(pdf, pdfx=pdfx)]
    report.findings = _grouped(shown, raw)
    return report


def _open(path: Path, shown: str) -> pikepdf.Pdf:
    """The file opened for reading, or ``Unreadable`` saying why not."""
    def unreadable(found: str) -> Unreadable:
        return Unreadable(Problem(shown, 0, 0, "", f"found {found}, expected a PDF file"))

    if not path.exists():
        raise unreadable("no such file")
    if not path.is_file():
        raise unreadable("a folder" if path.is_dir() else "something that is not a file")
    try:
        with path.open("rb") as head:
            start = head.read(1024)
    except OSError as error:
        raise unreadable(f"a file that cannot be read ({error.strerror})") from None
    if b"%PDF-" not in start:
        raise unreadable("a file that is not a PDF (no %PDF- header)")
    try:
        return pikepdf.open(path)
    except pikepdf.PasswordError:
        raise Unreadable(Problem(shown, 0, 0, "", "found an encrypted PDF that needs a "
                                 "password, expected an unencrypted PDF file")) from None
    except (pikepdf.PdfError, OSError, ValueError) as error:
        raise unreadable(f"a damaged PDF ({_reason(error, path)})") from None


def _reason(error: Exception, path: Path) -> str:
    """What qpdf said was wrong, without the file's name it starts with, safe to print."""
    return _shown(str(error).removeprefix(str(path) + ": ")).rstrip("…")[:200]


def _shown(value: Any) -> str:
    """A name or string read from the file, safe to print: escaped, without the slash."""
    text = str(value)
    text = text[1:] if isinstance(value, pikepdf.Name) else text
    text = inert(text, keep="")
    return text if len(text) <= _LONGEST_NAME else text[:_LONGEST_NAME - 1] + "…"


def _where(pages: tuple[int, ...]) -> str:
    """``document``, ``page 3`` or ``pages 1-4, 7``."""
    if not pages:
        return "document"
    if len(pages) == 1:
        return f"page {pages[0]}"
    runs: list[list[int]] = []
    for page in pages:
        if runs and page == runs[-1][-1] + 1:
            runs[-1].append(page)
        else:
            runs.append([page])
    return "pages " + ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _grouped(file: str, raw: Iterable[tuple[int, str, Severity, str, str, str]]) -> list[Finding]:
    """Findings with the pages each was found on: failures first, then by first page."""
    pages: dict[tuple[str, Severity, str, str, str], list[int]] = {}
    for page, obj, severity, what, found, expected in raw:
        on = pages.setdefault((obj, severity, what, found, expected), [])
        if page and page not in on:
            on.append(page)
    findings = [Finding(file, tuple(sorted(p)), *key) for key, p in pages.items()]
    return sorted(findings, key=lambda f: (f.severity != "failure", f.pages[:1]))


def _pt(value: float) -> str:
    """A length in points as printed: up to four decimals, no trailing zeros."""
    return f"{value:.4f}".rstrip("0").rstrip(".") + " pt"


# --- page boxes -------------------------------------------------------------------------

Raw = tuple[str, Severity, str, str, str]


def _box(value: Any) -> tuple[float, float, float, float] | None:
    """A box as (left, bottom, right, top), or None when it is not four numbers."""
    try:
        x0, y0, x1, y1 = (float(v) for v in value)
    except (TypeError, ValueError):
        return None
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _box_text(box: tuple[float, float, float, float]) -> str:
    return "[" + " ".join(f"{v:.2f}".rstrip("0").rstrip(".") for v in box) + "]"


def _boxes(page: pikepdf.Page) -> list[Raw]:
    """The page's TrimBox and BleedBox: present, and nested in each other and the media."""
    found: list[Raw] = []
    media = _box(inherited(page.obj, "/MediaBox"))
    trim = _box(page.obj.get("/TrimBox"))
    bleed = _box(page.obj.get("/BleedBox"))
    if media is None:
        found.append(("MediaBox", "failure", "missing", "no MediaBox", "the sheet's size"))
    if trim is None:
        found.append(("TrimBox", "failure", "missing", "no TrimBox",
                      "the finished page size as a TrimBox"))
    if bleed is None:
        found.append(("BleedBox", "failure", "missing", "no BleedBox",
                      "a BleedBox around the TrimBox"))
    for inner, outer, names in ((trim, bleed, ("TrimBox", "BleedBox")),
                                (bleed, media, ("BleedBox", "MediaBox")),
                                (trim, media, ("TrimBox", "MediaBox"))):
        if inner is None or outer is None:
            continue
        if (inner[0] < outer[0] - TOLERANCE_PT or inner[1] < outer[1] - TOLERANCE_PT
                or inner[2] > outer[2] + TOLERANCE_PT or inner[3] > outer[3] + TOLERANCE_PT):
            found.append((names[0], "failure", f"outside the {names[1]}", _box_text(inner),
                          f"inside {_box_text(outer)}"))
    return found


# --- what the pages paint ---------------------------------------------------------------

def _marks(marks: list[Mark], *, pdfx: bool) -> list[Raw]:
    """Rich-black and RGB-black text and thin lines, hairlines, low-resolution images."""
    found: list[Raw] = []
    black_severity: Severity = "failure" if pdfx else "warning"
    for mark in marks:
        colour = mark.colour
        if mark.kind == "stroke" and mark.width < HAIRLINE_PT:
            width = ("0 pt (the thinnest line the device can draw)" if mark.width == 0
                     else _pt(mark.width))
            found.append(("stroke", "failure", f"hairline thinner than {_pt(HAIRLINE_PT)}",
                          width, f"at least {_pt(HAIRLINE_PT)}"))
        if colour is not None and (mark.kind == "text" or
                                   (mark.kind == "stroke" and mark.width < THIN_LINE_PT)):
            what = "text" if mark.kind == "text" else "thin line"
            values = colour.values
            if colour.components == 4 and len(values) == 4 and all(v > 0 for v in values):
                inks = " ".join(f"{k} {_fraction(v)}" for k, v in zip("CMYK", values,
                                                                      strict=True))
                found.append((what, black_severity, "rich black of four inks",
                              f"{colour.label} {inks}", "black in K only"))
            elif (colour.components == 3 and colour.family in ("DeviceRGB", "ICCBased")
                  and len(values) == 3 and all(v == 0 for v in values)):
                found.append((what, black_severity,
                              "RGB black, which a print shop separates into four inks",
                              f"{colour.label} 0/0/0", "black in K only"))
        if mark.kind == "image" and mark.ppi < WARN_PPI:
            severity: Severity = "failure" if mark.ppi < FAIL_PPI else "warning"
            limit = FAIL_PPI if severity == "failure" else WARN_PPI
            found.append((f"image {_shown(mark.name)} ({mark.pixels[0]} × {mark.pixels[1]} px)",
                          severity, f"resolution under {limit} ppi",
                          f"{mark.ppi:.0f} ppi", f"at least {WARN_PPI} ppi"))
    return found


def _fraction(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


# --- fonts ------------------------------------------------------------------------------

def _font_dicts(resources: Any, seen: set[tuple[int, int]]) -> Iterable[Any]:
    """Every font a resource dictionary lists, with those of the forms it lists."""
    if not isinstance(resources, pikepdf.Dictionary):
        return
    fonts = resources.get("/Font")
    if isinstance(fonts, pikepdf.Dictionary):
        yield from (font for _, font in fonts.items() if isinstance(font, pikepdf.Dictionary))
    xobjects = resources.get("/XObject")
    if isinstance(xobjects, pikepdf.Dictionary):
        for _, xobject in xobjects.items():
            if (isinstance(xobject, pikepdf.Stream) and xobject.get("/Subtype") == "/Form"
                    and xobject.objgen not in seen):
                seen.add(xobject.objgen)
                yield from _font_dicts(xobject.get("/Resources"), seen)


def _program(font: Any) -> tuple[Any, bytes | None]:
    """A font's descriptor and a digest of its embedded program (None: not embedded)."""
    if font.get("/Subtype") == "/Type0":
        descendants = font.get("/DescendantFonts")
        font = descendants[0] if isinstance(descendants, pikepdf.Array) and descendants else {}
    descriptor = font.get("/FontDescriptor") if isinstance(font, pikepdf.Dictionary) else None
    if not isinstance(descriptor, pikepdf.Dictionary):
        return None, None
    for key in ("/FontFile", "/FontFile2", "/FontFile3"):
        program = descriptor.get(key)
        if isinstance(program, pikepdf.Stream):
            return descriptor, hashlib.sha256(program.read_raw_bytes()).digest()
    return descriptor, None


def _fonts(pdf: pikepdf.Pdf, pages: list[pikepdf.Page],
           report: Report) -> list[tuple[int, str, Severity, str, str, str]]:
    """Unembedded fonts, subsets without a tag, one name for several programs."""
    used: dict[tuple[int, int] | int, tuple[Any, list[int]]] = {}
    for number, page in enumerate(pages, start=1):
        for font in _font_dicts(inherited(page.obj, "/Resources"), set()):
            key = font.objgen if font.is_indirect else id(font)
            used.setdefault(key, (font, []))[1].append(number)
    found: list[tuple[int, str, Severity, str, str, str]] = []
    programs: dict[str, dict[bytes, list[int]]] = {}
    for font, numbers in used.values():
        report.fonts += 1
        if font.get("/Subtype") == "/Type3":  # glyphs drawn by the file's own procedures
            report.embedded += 1
            continue
        name = _shown(font.get("/BaseFont", pikepdf.Name("/unnamed")))
        _, digest = _program(font)
        if digest is None:
            standard = name in STANDARD_14 and font.get("/Subtype") == "/Type1"
            kind = ("a standard-14 Type1 font with no font program" if standard
                    else f"a {_shown(font.get('/Subtype', '?'))} font with no font program")
            found += [(n, f"font {name}", "failure", "not embedded", kind,
                       "the font program embedded") for n in numbers]
            continue
        report.embedded += 1
        if not _SUBSET.match(name):
            found += [(n, f"font {name}", "warning", "embedded without a subset tag", name,
                       "a subset named with a tag of six capitals, ABCDEF+Name")
                      for n in numbers]
        programs.setdefault(name, {}).setdefault(digest, []).extend(numbers)
    for name, variants in programs.items():
        if len(variants) > 1:
            numbers = sorted({n for pages_of in variants.values() for n in pages_of})
            found += [(n, f"font {name}", "failure",
                       f"one name for {len(variants)} different font programs",
                       f"{len(variants)} programs named {name}",
                       "one program per name, each subset with its own tag")
                      for n in numbers]
    return found


# --- PDF/X and the version --------------------------------------------------------------

def _intent(pdf: pikepdf.Pdf) -> Any:
    """The catalog's GTS_PDFX output intent, or None."""
    intents = pdf.Root.get("/OutputIntents")
    if isinstance(intents, pikepdf.Array):
        for intent in intents:
            if isinstance(intent, pikepdf.Dictionary) and intent.get("/S") == "/GTS_PDFX":
                return intent
    return None


def _xmp(pdf: pikepdf.Pdf, key: str) -> str | None:
    """One XMP property (``pdfxid:GTS_PDFXVersion``), or None when it is not there."""
    if not isinstance(pdf.Root.get("/Metadata"), pikepdf.Stream):
        return None
    try:
        value = pdf.open_metadata().get(key)
    except Exception:  # noqa: BLE001 - metadata a parser refuses is metadata not there
        return None
    return None if value is None else str(value)


def _declared(pdf: pikepdf.Pdf) -> str:
    """The PDF/X version the file claims (XMP, then Info, then a bare output intent)."""
    version = _xmp(pdf, "pdfxid:GTS_PDFXVersion")
    if version is None and "/GTS_PDFXVersion" in pdf.docinfo:
        version = str(pdf.docinfo["/GTS_PDFXVersion"])
    if version is None and _intent(pdf) is not None:
        version = "PDF/X (no version named)"
    return _shown(version) if version else ""


def _pdfx(pdf: pikepdf.Pdf, declared: str, standard: Standard) -> list[Raw]:
    """The markers a PDF/X file must carry."""
    found: list[Raw] = []
    if standard == "pdfx4" and not declared.startswith("PDF/X-4"):
        found.append(("PDF/X", "failure", "not PDF/X-4", declared or "no PDF/X version",
                      "PDF/X-4"))
    intent = _intent(pdf)
    if intent is None:
        found.append(("OutputIntent", "failure", "missing", "no GTS_PDFX output intent",
                      "one naming the printing condition, with its ICC profile"))
    else:
        if not isinstance(intent.get("/DestOutputProfile"), pikepdf.Stream):
            found.append(("OutputIntent", "failure", "no DestOutputProfile",
                          "no ICC profile", "the printing condition's ICC profile"))
        if "/OutputConditionIdentifier" not in intent:
            found.append(("OutputIntent", "failure", "no OutputConditionIdentifier", "none",
                          "the printing condition's name (FOGRA39, CGATS TR 006...)"))
    if _xmp(pdf, "pdfxid:GTS_PDFXVersion") is None:
        found.append(("XMP metadata", "failure", "no pdfxid:GTS_PDFXVersion", "none",
                      "the PDF/X version, such as PDF/X-4"))
    trapped = _xmp(pdf, "pdf:Trapped")
    info = pdf.docinfo.get("/Trapped")
    if trapped not in ("True", "False"):
        found.append(("Trapped", "failure", "not set in the XMP metadata",
                      _shown(trapped) if trapped else "none", "True or False"))
    elif info is not None and _shown(info) != trapped:
        found.append(("Trapped", "failure", "Info and XMP metadata disagree",
                      f"{_shown(info)} and {trapped}", "the same value in both"))
    limit = next((v for k, v in PDFX_VERSION_LIMIT.items() if declared.startswith(k)), None)
    version = _effective_version(pdf)
    if limit is not None and version > limit:
        found.append(("PDF version", "failure", f"newer than {declared} allows",
                      _dotted(version), f"at most {_dotted(limit)}"))
    return found


def _dotted(version: tuple[int, int]) -> str:
    return f"{version[0]}.{version[1]}"


def _parse_version(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"/?(\d+)\.(\d+)", text)
    return (int(match[1]), int(match[2])) if match else (0, 0)


def _effective_version(pdf: pikepdf.Pdf) -> tuple[int, int]:
    """The file's PDF version: its header, or the catalog's /Version when newer."""
    header = _parse_version(pdf.pdf_version)
    catalog = pdf.Root.get("/Version")
    return max(header, _parse_version(str(catalog))) if catalog is not None else header


def _features(pdf: pikepdf.Pdf) -> dict[str, tuple[int, int]]:
    """Features the file uses that need a newer version than 1.3, and the version each needs."""
    found: dict[str, tuple[int, int]] = {}
    root = pdf.Root
    if "/OutputIntents" in root:
        found["an output intent"] = (1, 4)
    if "/Metadata" in root:
        found["XMP metadata"] = (1, 4)
    if "/OCProperties" in root:
        found["optional content"] = (1, 5)
    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
            continue
        kind = obj.get("/Type")
        if ((kind == "/ExtGState" and any(k in obj for k in ("/CA", "/ca", "/BM")))
                or ("/SMask" in obj and obj.get("/SMask") != "/None")):
            found["transparency"] = (1, 4)
        elif kind == "/Group" and obj.get("/S") == "/Transparency":
            found["transparency"] = (1, 4)
        elif kind == "/ObjStm":
            found["object streams"] = (1, 5)
        elif kind == "/FontDescriptor" and isinstance(obj.get("/FontFile3"), pikepdf.Stream) \
                and obj.FontFile3.get("/Subtype") == "/OpenType":
            found["OpenType fonts"] = (1, 6)
    return found


def _version(pdf: pikepdf.Pdf, *, pdfx: bool) -> list[Raw]:
    """A version header older than the features the file uses."""
    version = _effective_version(pdf)
    found: list[Raw] = []
    for feature, needs in sorted(_features(pdf).items(), key=lambda item: item[1]):
        if needs > version:
            found.append(("PDF version", "failure" if pdfx else "warning",
                          f"older than {feature} need", f"PDF {_dotted(version)}",
                          f"PDF {_dotted(needs)} or newer"))
    return found
