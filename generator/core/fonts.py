"""Fonts: installed as Python packages, registered once, checked for coverage.

PT Sans (ParaType, OFL) covers Latin Extended and Cyrillic in static TTFs, which
ReportLab needs; PT Sans Narrow is used for dense tables. No system font is used.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reportlab.pdfbase.ttfonts import TTFont as RLTTFont

pdfmetrics: Any = None
"""ReportLab's font registry once imported (``metrics``): a command that only reads
tables (``odds``) never loads ReportLab."""


def metrics() -> Any:
    """ReportLab's ``pdfmetrics`` module, imported on first use."""
    global pdfmetrics
    if pdfmetrics is not None:
        return pdfmetrics
    from reportlab.pdfbase import pdfmetrics as loaded

    pdfmetrics = loaded
    return loaded

REGULAR = "QD-Sans"
BOLD = "QD-Sans-Bold"
NARROW = "QD-Narrow"
NARROW_BOLD = "QD-Narrow-Bold"
ITALIC = "QD-Sans-Italic"
"""PT Sans Italic: card flavour text (``generator.pieces.decks``), never a label."""

_FILES = {
    REGULAR: ("fontpkg_pt_sans", "PT_Sans-Web-Regular.ttf"),
    BOLD: ("fontpkg_pt_sans", "PT_Sans-Web-Bold.ttf"),
    NARROW: ("fontpkg_pt_sans_narrow", "PT_Sans-Narrow-Web-Regular.ttf"),
    NARROW_BOLD: ("fontpkg_pt_sans_narrow", "PT_Sans-Narrow-Web-Bold.ttf"),
    ITALIC: ("fontpkg_pt_sans", "PT_Sans-Web-Italic.ttf"),
}
FACES = tuple(_FILES)
"""Every face the kit prints with, in the order a build numbers their characters."""

MIN_SIZE = 7.0
"""Smallest type size anything prints at (legibility floor for the whole kit)."""

# ReportLab embeds TrueType fonts in subsets of 256 codes, numbering characters in
# order of first use (ASCII keeps its own codes). A build numbers every character up
# front (``every_character``, used by ``generator.pages.kitdoc``): ASCII and the primer's
# characters fill subset 0, so a packet's text seldom needs a second subset.
# The order puts what the kit's own text uses first (punctuation, signs, Latin-1, the
# macron vowels of romanised Japanese names), so a packet's text fits in one subset.
_PREFERRED = (
    list("–—‘’“”•…†‡″′−≤≥Δ→←↑↓✓ŌōŪūĀāĒēĪī")
    + [chr(c) for c in range(0xA1, 0x100)]
    + [chr(c) for c in range(0x100, 0x250)]
    + [chr(c) for c in range(0x400, 0x460)]
)


class _Probe:
    """A stand-in document: ReportLab keys its subset state by (weakref to) document."""


@functools.cache
def primer(font: str) -> str:
    """The text that fills ``font``'s first embedded subset exactly (see above)."""
    register()
    face = metrics().getFont(font)
    probe = _Probe()
    text = "".join(chr(c) for c in range(32, 127))
    face.splitString(text, probe)
    for ch in _PREFERRED:
        if face.state[probe].nextCode >= 256:
            break
        if ord(ch) in _cmap(font):
            face.splitString(ch, probe)
            text += ch
    del face.state[probe]
    return text


@functools.cache
def every_character(font: str) -> str:
    """Every character ``font`` can draw: the primer's first, then by code point.

    A build's canvas (``generator.pages.kitdoc``) numbers them all before drawing anything, so
    a character's code never depends on what was drawn first: a kit comes out byte for
    byte the same however its packets were dealt to workers.
    """
    first = primer(font)
    seen = set(first)
    return first + "".join(chr(c) for c in sorted(_cmap(font))
                           if chr(c) not in seen and c > 32 and c != 0xA0)


def _font_path(name: str) -> Path:
    package, filename = _FILES[name]
    return Path(str(resources.files(package) / "files" / filename))


@functools.cache
def register() -> None:
    """Register the kit's fonts with ReportLab (idempotent)."""
    for name in _FILES:
        from reportlab.pdfbase.ttfonts import TTFont as RLTTFont

        font = RLTTFont(name, str(_font_path(name)))
        _memoize_subsets(font)
        metrics().registerFont(font)
    metrics().registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR,
                                  boldItalic=BOLD)
    pdfmetrics.registerFontFamily(NARROW, normal=NARROW, bold=NARROW_BOLD, italic=NARROW,
                                  boldItalic=NARROW_BOLD)


def _memoize_subsets(font: RLTTFont) -> None:
    """Build each distinct font subset once per process.

    Packets often embed the same subset (sides of one kit, every table of an event);
    ReportLab would otherwise cut it out of the font file again for each of them.
    """
    build = font.face.makeSubset
    made: dict[tuple[int, ...], bytes] = {}

    def make_subset(subset: list[int]) -> bytes:
        key = tuple(subset)
        if key not in made:
            if len(made) >= 256:  # a long-running process: keep memory bounded
                made.clear()
            made[key] = build(subset)
        return made[key]

    font.face.makeSubset = make_subset


@functools.cache
def _cmap(name: str) -> frozenset[int]:
    """Code points the font maps to a glyph (ReportLab has already parsed the cmap)."""
    register()
    return frozenset(metrics().getFont(name).face.charToGlyph)


def missing_characters(text: str, font: str = REGULAR) -> list[str]:
    """Characters of ``text`` that ``font`` cannot draw (whitespace ignored).

    Args:
        text: Text to be printed.
        font: One of the registered font names.

    Returns:
        The uncovered characters, each once, in order of appearance.

    """
    cmap = _cmap(font)
    seen: list[str] = []
    for ch in text:
        if not ch.isspace() and ord(ch) not in cmap and ch not in seen:
            seen.append(ch)
    return seen


def string_width(text: str, font: str, size: float) -> float:
    """Width of ``text`` in points."""
    register()
    return float(metrics().stringWidth(text, font, size))


def clip_text(text: str, font: str, size: float, width: float) -> str:
    """Shorten ``text`` with an ellipsis until it fits ``width`` at ``size``."""
    if string_width(text, font, size) <= width:
        return text
    # Bisect on the kept length (widths grow with it): a long text costs a few dozen
    # measurements, not one per character.
    low, high = 0, len(text)  # text[:low] + "…" fits (or low is 0); text[:high] + "…" does not
    while high - low > 1:
        middle = (low + high) // 2
        if string_width(text[:middle] + "…", font, size) <= width:
            low = middle
        else:
            high = middle
    return text[:low].rstrip() + "…"
