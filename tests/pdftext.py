"""Text read back from PDFs through pypdfium2: words, lines, sizes (fast; no pdfplumber).

pdfplumber parses a page in Python and is the slowest part of the suite; pypdfium2 reads
the same text in C. This module gives the few things the tests need in pdfplumber's
shape (dicts with ``text``, ``x0``, ``x1``, ``top``, ``bottom`` in points, ``top``
measured from the page's top edge), so tests keep their assertions.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

X_TOLERANCE = 3.0
"""Gap (points) that ends a word, as pdfplumber's default ``x_tolerance``."""
Y_TOLERANCE = 3.0


@dataclass
class Page:
    """One page's characters (with boxes and sizes) and its plain text."""

    width: float
    height: float
    stream: list[dict[str, Any]]
    """Every character in content order, with the spaces pdfium inserts (``generated``)."""
    text: str
    _words: list[dict[str, Any]] | None = field(default=None, repr=False)
    rects: list[dict[str, Any]] = field(default_factory=list)
    """Axis-aligned rectangles drawn as paths (pdfplumber's ``rects``; ``geometry=True``)."""
    lines: list[dict[str, Any]] = field(default_factory=list)
    """Straight two-point paths (pdfplumber's ``lines``; ``geometry=True``)."""
    curves: list[dict[str, Any]] = field(default_factory=list)
    """Every other path (pdfplumber's ``curves``; ``geometry=True``)."""
    images: list[dict[str, Any]] = field(default_factory=list)
    """Image objects' boxes (pdfplumber's ``images``; ``geometry=True``)."""
    _layout: dict[tuple[bool, float], list[dict[str, Any]]] = field(default_factory=dict,
                                                                    repr=False)

    @property
    def chars(self) -> list[dict[str, Any]]:
        """The characters the page draws (pdfium's inserted spaces left out)."""
        return [c for c in self.stream if not c["generated"]]

    def extract_text(self) -> str:
        """The page's text in content order, lines joined with newlines."""
        return self.text

    def extract_words(self) -> list[dict[str, Any]]:
        """Words: runs of non-space characters on one line without a gap between them."""
        if self._words is None:
            self._words = words_of(self.stream)
        return self._words

    def layout_words(self, *, by_size: bool = False,
                     x_tolerance: float = X_TOLERANCE) -> list[dict[str, Any]]:
        """Words as pdfplumber's ``extract_words`` finds them: by position, not content order.

        Characters are clustered into lines by ``top`` (within ``Y_TOLERANCE``), each line
        read left to right, and a word ends at a space or a gap wider than ``X_TOLERANCE``
        (and with ``by_size`` where the size changes, as ``extra_attrs=["size"]`` does).
        """
        if (by_size, x_tolerance) in self._layout:
            return self._layout[by_size, x_tolerance]
        words: list[dict[str, Any]] = self._layout.setdefault((by_size, x_tolerance), [])
        for line in _cluster(self.chars, "top", Y_TOLERANCE):
            current: list[dict[str, Any]] = []
            for char in sorted(line, key=lambda c: c["x0"]):
                if char["text"].isspace():
                    _close(current, words)
                    continue
                if current and (char["x0"] - current[-1]["x1"] > x_tolerance
                                or by_size and char["size"] != current[-1]["size"]):
                    _close(current, words)
                current.append(char)
            _close(current, words)
        return words

    def layout_text(self) -> str:
        """The page's text as pdfplumber's ``extract_text``: lines by position, top down."""
        return "\n".join(" ".join(w["text"] for w in sorted(line, key=lambda w: w["x0"]))
                         for line in _cluster(self.layout_words(), "top", Y_TOLERANCE))

    def crop(self, x0: float, x1: float) -> Page:
        """The characters whose centre lies between ``x0`` and ``x1`` (a column)."""
        inside = [c for c in self.stream if x0 <= (c["x0"] + c["x1"]) / 2 < x1]
        return Page(self.width, self.height, inside, "")


def open_pages(source: Path | bytes, *, geometry: bool = False,
               only: list[int] | None = None, advance: bool = False) -> list[Page]:
    """Every page (or the ``only`` ones) of a PDF file or PDF bytes, with ``geometry`` paths.

    With ``advance``, an upright character of the kit's fonts ends where pdfminer ends it,
    at its origin plus its advance width (pdfium's box also spans ink that overhangs the
    advance, such as a "y"'s tail): for checks to 0.01 mm of where text was set.
    """
    data = source.read_bytes() if isinstance(source, Path) else source
    pdf = pdfium.PdfDocument(data)
    try:
        pages = []
        for i in range(len(pdf)) if only is None else only:
            page = pdf[i]
            one = _page(page, advance)
            if geometry:
                _paths(page, one)
            pages.append(one)
        return pages
    finally:
        pdf.close()


def page_texts(source: Path | bytes) -> list[str]:
    """Each page's text in content order (pdfium's own spacing), the fastest read there is.

    For substring checks (names, sentences) where positions do not matter.
    """
    data = source.read_bytes() if isinstance(source, Path) else source
    pdf = pdfium.PdfDocument(data)
    try:
        out = []
        for i in range(len(pdf)):
            textpage = pdf[i].get_textpage()
            try:
                out.append(textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
            finally:
                textpage.close()
        return out
    finally:
        pdf.close()


def _cluster(objs: list[dict[str, Any]], key: str,
             tolerance: float) -> list[list[dict[str, Any]]]:
    """Objects grouped by ``key`` (each within ``tolerance`` of the previous), in order."""
    groups: list[list[dict[str, Any]]] = []
    for obj in sorted(objs, key=lambda o: o[key]):
        if groups and obj[key] - groups[-1][-1][key] <= tolerance:
            groups[-1].append(obj)
        else:
            groups.append([obj])
    return groups


def _close(current: list[dict[str, Any]], words: list[dict[str, Any]]) -> None:
    if current:
        words.append({"text": "".join(c["text"] for c in current),
                      "x0": min(c["x0"] for c in current),
                      "x1": max(c["x1"] for c in current),
                      "top": min(c["top"] for c in current),
                      "bottom": max(c["bottom"] for c in current),
                      "size": current[0]["size"]})
        current.clear()


Matrix = tuple[float, float, float, float, float, float]


def _times(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF row-vector convention: a point maps by m, then by n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def _paths(page: pdfium.PdfPage, out: Page) -> None:
    """Fill ``out.rects``, ``lines`` and ``curves`` from the page's path objects.

    Classified as pdfminer does: each subpath on its own; two points make a line, four
    or five points on an axis-aligned rectangle make a rect, anything else a curve. Boxes
    are geometric (no stroke width), in points, ``top`` from the page's top edge.
    """
    height = out.height
    matrix = pdfium_c.FS_MATRIX()
    x, y = ctypes.c_float(), ctypes.c_float()

    def visit(obj: Any, outer: Matrix) -> None:
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            pdfium_c.FPDFPageObj_GetMatrix(obj, ctypes.byref(matrix))
            a, b, c, d, e, f = _times((matrix.a, matrix.b, matrix.c, matrix.d, matrix.e,
                                       matrix.f), outer)
            # An image fills the unit square of its matrix.
            xs = [e, e + a, e + c, e + a + c]
            ys = [f, f + b, f + d, f + b + d]
            out.images.append(_box(xs, ys, height))
            return
        if kind not in (pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_FORM):
            return
        pdfium_c.FPDFPageObj_GetMatrix(obj, ctypes.byref(matrix))
        own = _times((matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f), outer)
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM:
            for i in range(pdfium_c.FPDFFormObj_CountObjects(obj)):
                visit(pdfium_c.FPDFFormObj_GetObject(obj, i), own)
            return
        a, b, c, d, e, f = own
        subpaths: list[list[tuple[int, float, float]]] = []
        bezier = 0
        for i in range(pdfium_c.FPDFPath_CountSegments(obj)):
            seg = pdfium_c.FPDFPath_GetPathSegment(obj, i)
            kind = pdfium_c.FPDFPathSegment_GetType(seg)
            # A curve comes as three points (two controls, then its end): pdfminer keeps
            # only the end, so boxes and ``pts`` are those of the points on the path.
            bezier = bezier + 1 if kind == pdfium_c.FPDF_SEGMENT_BEZIERTO else 0
            if bezier % 3 in (1, 2):
                continue
            pdfium_c.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y))
            if pdfium_c.FPDFPathSegment_GetClose(seg):
                kind = -1 - kind  # closed here: the subpath ends with pdfminer's ``h``
            point = (kind, a * x.value + c * y.value + e, b * x.value + d * y.value + f)
            if kind == pdfium_c.FPDF_SEGMENT_MOVETO or not subpaths:
                subpaths.append([point])
            else:
                subpaths[-1].append(point)
        style = _style(obj)
        for sub in subpaths:
            _classify(sub, height, out, style)

    identity: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for i in range(pdfium_c.FPDFPage_CountObjects(page)):
        visit(pdfium_c.FPDFPage_GetObject(page, i), identity)


def _box(xs: list[float], ys: list[float], height: float) -> dict[str, Any]:
    box = {"x0": min(xs), "x1": max(xs), "top": height - max(ys), "bottom": height - min(ys)}
    box["width"] = box["x1"] - box["x0"]
    box["height"] = box["bottom"] - box["top"]
    return box


def _style(obj: Any) -> dict[str, Any]:
    """Fill and stroke flags and colours, in pdfplumber's keys.

    pdfium gives colours as 8-bit RGB(A): values come back within 1/255 of the PDF's, and a
    grey (r = g = b) is reported as one component ``(v,)`` as pdfplumber does for DeviceGray.
    """
    fillmode, stroke = ctypes.c_int(), ctypes.c_int()
    pdfium_c.FPDFPath_GetDrawMode(obj, ctypes.byref(fillmode), ctypes.byref(stroke))
    width = ctypes.c_float()
    pdfium_c.FPDFPageObj_GetStrokeWidth(obj, ctypes.byref(width))
    out: dict[str, Any] = {"fill": bool(fillmode.value), "stroke": bool(stroke.value),
                           "linewidth": width.value}
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    for key, get in (("stroking_color", pdfium_c.FPDFPageObj_GetStrokeColor),
                     ("non_stroking_color", pdfium_c.FPDFPageObj_GetFillColor)):
        if get(obj, ctypes.byref(r), ctypes.byref(g), ctypes.byref(b), ctypes.byref(a)):
            rgb = (r.value / 255, g.value / 255, b.value / 255)
            out[key] = rgb[:1] if rgb[0] == rgb[1] == rgb[2] else rgb
        else:
            out[key] = None
    return out


def _classify(sub: list[tuple[int, float, float]], height: float, out: Page,
              style: dict[str, Any]) -> None:
    box = _box([p[1] for p in sub], [p[2] for p in sub], height)
    box.update(style)
    box["pts"] = [(p[1], height - p[2]) for p in sub]
    closed = sub[-1][0] < 0
    curved = any(p[0] in (pdfium_c.FPDF_SEGMENT_BEZIERTO, -1 - pdfium_c.FPDF_SEGMENT_BEZIERTO)
                 for p in sub)
    if not curved and len(sub) == 2:
        box["object_type"] = "line"
        out.lines.append(box)
        return
    if not curved and (len(sub) == 4 and closed or len(sub) == 5):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = [(p[1], p[2]) for p in sub[:4]]
        loop = len(sub) == 4 or _same(sub[4][1], x0) and _same(sub[4][2], y0)
        if loop and ((_same(x0, x1) and _same(y1, y2) and _same(x2, x3) and _same(y3, y0))
                     or (_same(y0, y1) and _same(x1, x2) and _same(y2, y3)
                         and _same(x3, x0))):
            box["object_type"] = "rect"
            out.rects.append(box)
            return
    box["object_type"] = "curve"
    out.curves.append(box)


def _same(a: float, b: float) -> bool:
    """Equal but for float noise from the transforms (pdfminer compares exactly)."""
    return abs(a - b) < 1e-4


def _page(page: pdfium.PdfPage, advance: bool = False) -> Page:
    width, height = page.get_size()
    textpage = page.get_textpage()
    # Hot loop (a packet has ~100,000 characters): functions and out-parameters bound once,
    # and what every character of one text object shares (matrix, size, descent) read once.
    get_unicode, get_box = pdfium_c.FPDFText_GetUnicode, pdfium_c.FPDFText_GetLooseCharBox
    get_origin, get_object = pdfium_c.FPDFText_GetCharOrigin, pdfium_c.FPDFText_GetTextObject
    is_generated = pdfium_c.FPDFText_IsGenerated
    box = pdfium_c.FS_RECTF()
    x, y = ctypes.c_double(), ctypes.c_double()
    box_ref, x_ref, y_ref = ctypes.byref(box), ctypes.byref(x), ctypes.byref(y)
    shared: dict[int | None, tuple[bool, float, float, float, dict[str, Any],
                                  Callable[[str], float] | None]] = {}
    try:
        count = textpage.count_chars()
        text = textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n")
        chars = []
        for i in range(count):
            code = get_unicode(textpage, i)
            if code in (0xFFFE, 0xFFFF, 0):
                continue
            ch = chr(code)
            if ch in "\r\n":
                continue
            generated = ch.isspace() and bool(is_generated(textpage, i))
            # The loose box spans the advance width and the font's ascent and descent.
            get_box(textpage, i, box_ref)
            if generated:
                chars.append({"text": ch, "x0": box.left, "x1": box.right,
                              "top": height - box.top, "bottom": height - box.bottom,
                              "size": pdfium_c.FPDFText_GetFontSize(textpage, i),
                              "generated": True, "object_type": "char"})
                continue
            obj = get_object(textpage, i)
            key = ctypes.cast(obj, ctypes.c_void_p).value
            if key not in shared:
                shared[key] = _object_style(textpage, i, obj)
            upright, size, descent, scale, style, advance_of = shared[key]
            if upright:
                # Upright text: pdfminer's box, from the baseline's descent up one font
                # size (the descriptor's /Descent), so tops match pdfplumber's exactly;
                # it starts at the origin, not at the ink.
                get_origin(textpage, i, x_ref, y_ref)
                bottom = height - (y.value + descent * scale)
                right = (x.value + advance_of(ch) if advance and advance_of is not None
                         else box.right)
                chars.append({"text": ch, "x0": x.value, "x1": right,
                              "top": bottom - size, "bottom": bottom, "size": size,
                              "generated": False, **style})
            else:
                chars.append({"text": ch, "x0": box.left, "x1": box.right,
                              "top": height - box.top, "bottom": height - box.bottom,
                              "size": size, "generated": False, **style})
    finally:
        textpage.close()
    return Page(width, height, chars, text)


def _object_style(textpage: Any, index: int, obj: Any
                  ) -> tuple[bool, float, float, float, dict[str, Any],
                             Callable[[str], float] | None]:
    """(upright, size on the page, font descent at its size, vertical scale, style) of the
    text object a character belongs to.

    Every character of one text object shares its matrix, font and colour, so this is read
    once per object. ``style`` holds pdfplumber's ``fontname`` (the PDF's base font name),
    ``non_stroking_color`` (8-bit RGB as fractions; a grey as one value) and ``upright``.
    """
    matrix = pdfium_c.FS_MATRIX()
    pdfium_c.FPDFText_GetMatrix(textpage, index, ctypes.byref(matrix))
    fontsize = pdfium_c.FPDFText_GetFontSize(textpage, index)
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    length = pdfium_c.FPDFText_GetFontInfo(textpage, index, name, 256, ctypes.byref(flags))
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    colour: tuple[float, ...] | None = None
    if pdfium_c.FPDFText_GetFillColor(textpage, index, ctypes.byref(r), ctypes.byref(g),
                                      ctypes.byref(b), ctypes.byref(a)):
        rgb = (r.value / 255, g.value / 255, b.value / 255)
        colour = rgb[:1] if rgb[0] == rgb[1] == rgb[2] else rgb
    style = {"object_type": "char",
             "fontname": name.value.decode("utf-8", "replace") if length else "",
             "non_stroking_color": colour,
             # pdfminer's test: no rotation or mirroring of the glyphs
             "upright": matrix.a * matrix.d > 0 and matrix.b * matrix.c <= 0}
    upright = (abs(matrix.b) < 1e-9 and abs(matrix.c) < 1e-9 and matrix.a > 0
               and matrix.d > 0 and bool(obj))
    if not upright:
        return False, fontsize, 0.0, 1.0, style, None
    descent = ctypes.c_float()
    pdfium_c.FPDFFont_GetDescent(pdfium_c.FPDFTextObj_GetFont(obj), ctypes.c_float(fontsize),
                                 ctypes.byref(descent))
    font = _reportlab_font(style["fontname"].partition("+")[2] or style["fontname"])
    width = None
    if font is not None:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        size_x = fontsize * matrix.a

        def width(ch: str) -> float:
            return stringWidth(ch, font, size_x)
    return True, fontsize * matrix.d, descent.value, matrix.d, style, width


def _reportlab_font(name: str) -> str | None:
    """The ReportLab font (registered in this process) a PDF names ``name``, if any."""
    if name not in _FONTS:
        from reportlab.pdfbase import pdfmetrics

        from generator.core import fonts

        fonts.register()
        for registered in pdfmetrics.getRegisteredFontNames():
            face = getattr(pdfmetrics.getFont(registered), "face", None)
            found = getattr(face, "name", None)
            if isinstance(found, bytes):
                _FONTS.setdefault(found.decode(), registered)
    return _FONTS.get(name)


_FONTS: dict[str, str] = {}


def words_of(chars: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Group characters (content order) into words, as pdfplumber's ``extract_words``."""
    words: list[dict[str, Any]] = []
    current: list[dict[str, Any]] = []

    def close() -> None:
        if current:
            words.append({"text": "".join(c["text"] for c in current),
                          "x0": min(c["x0"] for c in current),
                          "x1": max(c["x1"] for c in current),
                          "top": min(c["top"] for c in current),
                          "bottom": max(c["bottom"] for c in current)})
            current.clear()

    for char in chars:
        if char["text"].isspace() or char["generated"]:
            close()
            continue
        if current:
            last = current[-1]
            if (char["x0"] - last["x1"] > X_TOLERANCE or char["x1"] < last["x0"]
                    or abs(char["top"] - last["top"]) > Y_TOLERANCE):
                close()
        current.append(char)
    close()
    return words


def lines_of(words: list[dict[str, Any]], tolerance: float = 2) -> list[list[dict[str, Any]]]:
    """Words grouped into lines (same baseline within ``tolerance``), top to bottom."""
    lines: list[list[dict[str, Any]]] = []
    for word in sorted(words, key=lambda w: (round(w["bottom"]), w["x0"])):
        if lines and abs(lines[-1][0]["bottom"] - word["bottom"]) < tolerance:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w["x0"]) for line in lines]
