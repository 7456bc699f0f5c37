"""Text read back from PDFs through pypdfium2: words, lines, sizes (fast; no pdfplumber).

pdfplumber parses a page in Python and is the slowest part of the suite; pypdfium2 reads
the same text in C. This module gives the few things the tests need in pdfplumber's
shape (dicts with ``text``, ``x0``, ``x1``, ``top``, ``bottom`` in points, ``top``
measured from the page's top edge), so tests keep their assertions.
"""

from __future__ import annotations

import ctypes
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

    def crop(self, x0: float, x1: float) -> Page:
        """The characters whose centre lies between ``x0`` and ``x1`` (a column)."""
        inside = [c for c in self.stream if x0 <= (c["x0"] + c["x1"]) / 2 < x1]
        return Page(self.width, self.height, inside, "")


def open_pages(source: Path | bytes) -> list[Page]:
    """Every page of a PDF file or PDF bytes, read once."""
    data = source.read_bytes() if isinstance(source, Path) else source
    pdf = pdfium.PdfDocument(data)
    try:
        return [_page(pdf[i]) for i in range(len(pdf))]
    finally:
        pdf.close()


def _page(page: pdfium.PdfPage) -> Page:
    width, height = page.get_size()
    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        text = textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n")
        chars = []
        box = pdfium_c.FS_RECTF()
        for i in range(count):
            code = pdfium_c.FPDFText_GetUnicode(textpage, i)
            if code in (0xFFFE, 0xFFFF, 0):
                continue
            ch = chr(code)
            if ch in "\r\n":
                continue
            # The loose box spans the font's ascent and descent, as pdfplumber's does.
            pdfium_c.FPDFText_GetLooseCharBox(textpage, i, ctypes.byref(box))
            chars.append({"text": ch, "x0": box.left, "x1": box.right,
                          "top": height - box.top, "bottom": height - box.bottom,
                          "size": pdfium_c.FPDFText_GetFontSize(textpage, i),
                          "generated": bool(pdfium_c.FPDFText_IsGenerated(textpage, i))})
    finally:
        textpage.close()
    return Page(width, height, chars, text)


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
