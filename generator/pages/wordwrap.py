"""The kit's one word-wrapper for text set line by line on a canvas (cards, aids).

Paragraph flowables wrap themselves; text drawn straight onto a canvas (a card face, a
note on a board aid) is broken here, measured with the same widths ReportLab draws with.
"""

from __future__ import annotations

from generator.core import fonts


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
    lines: list[str] = []
    line = ""
    for word in text.split():
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
            return None
        line = word
    lines.append(line)
    return lines
