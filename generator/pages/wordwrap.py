"""The kit's one word-wrapper for text set line by line on a canvas (cards, aids, tables).

Paragraph flowables wrap themselves; text drawn straight onto a canvas (a card face, a
note on a board aid, a table cell, a print note) is broken here, measured with the same
widths ReportLab draws with. Three entry points share one greedy line filler:

* ``wrap``: words kept whole; None when a single word is wider than a line, so the
  caller can try a smaller size.
* ``lines``: the same, but a word wider than a line is cut after its punctuation
  (a part still too wide gets a line of its own, for the caller to shrink), and a
  newline always starts a new line.
* ``wrap_list``: a comma-separated list, broken between its items.
"""

from __future__ import annotations

import re

from generator.core import fonts


def _fill(words: list[str], font: str, size: float, width: float, first: float = 0.0,
          strict: bool = True) -> list[str] | None:
    """Greedy lines of ``words``; None if ``strict`` and a word is wider than a line."""
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        room = width - (first if not lines else 0.0)
        if fonts.string_width(candidate, font, size) <= room:
            line = candidate
            continue
        if line or first and not lines:
            # The word goes to the next line (a first line may stay empty after its label
            # only when the label leaves no room for the word).
            lines.append(line)
        if fonts.string_width(word, font, size) > width:
            if strict:
                return None
            *whole, word = _pieces(word, font, size, width)
            lines += whole
        line = word
    lines.append(line)
    return lines


def _pieces(word: str, font: str, size: float, width: float) -> list[str]:
    """A word wider than the line, cut after its dots, hyphens, slashes or underscores.

    ``ratings.some-ruleset.guns`` becomes ``ratings.some-`` and ``ruleset.guns``; a
    part still too wide stays whole (to be shrunk where it is drawn).
    """
    out = [""]
    for part in re.findall(r"[^./_-]+[./_-]*|[./_-]+", word):
        if out[-1] and fonts.string_width(out[-1] + part, font, size) > width:
            out.append(part)
        else:
            out[-1] += part
    return out


def wrap(text: str, font: str, size: float, width: float, first: float = 0.0) -> list[str] | None:
    """Break ``text`` into lines no wider than ``width``, words kept whole.

    Args:
        text: The words.
        font: Font name.
        size: Type size (points).
        width: Line width (points).
        first: Room taken at the start of the first line (by a label set before it).

    Returns:
        The lines, or None when a single word is wider than a line at this size.

    """
    return _fill(text.split(), font, size, width, first)


def lines(text: str, font: str, size: float, width: float) -> list[str]:
    """Break ``text`` into lines no wider than ``width``; never fails.

    Each newline starts a new line; a word wider than the line is cut after its dots,
    hyphens, slashes or underscores, and a part still wider stands on a line of its own
    (to be shrunk where it is drawn). Text with no words gives no lines.
    """
    out: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if words:
            out += _fill(words, font, size, width, strict=False) or []
    return out


def wrap_list(text: str, width: float, size: float, font: str = fonts.NARROW) -> list[str]:
    """Wrap a comma-separated list between its items, never inside one.

    "Aoba class CA, Kako class CA" breaks only after the comma, so a name stays with
    its own words; an item too long on its own wraps by words. A line is measured with
    the comma that ends it, so the comma never reaches past the width.
    """
    items = text.split(", ")
    out: list[str] = []
    for n, item in enumerate(items):
        piece = f"{item}," if n + 1 < len(items) else item
        if out and fonts.string_width(f"{out[-1]} {piece}", font, size) <= width:
            out[-1] = f"{out[-1]} {piece}"
        elif fonts.string_width(piece, font, size) <= width:
            out.append(piece)
        else:
            out.extend(lines(piece, font, size, width))
    return out or [""]
