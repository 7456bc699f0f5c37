"""Text auto-fit for labels on pieces: shrink to a floor, then abbreviate, then warn.

A label on a 9 mm destroyer marker has a few millimetres; it must never spill over
the cut line. ``fit_label`` tries the text at its natural size, then smaller down to
a floor, then ever shorter abbreviations at the floor, and only when even a single
initial cannot fit does it give up, draw nothing, and say so naming the piece.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator import fonts

LABEL_FLOOR = 4.5
"""Smallest size a label on a piece is set in (points).

The kit's body type never goes below ``fonts.MIN_SIZE``; a 1:12,000 destroyer marker is
shorter than its own name at that size, so piece labels get their own, lower floor.
4.5 pt bold narrow still reads on a marker held in the hand.
"""


@dataclass
class Fitted:
    """A label as it will be drawn.

    Attributes:
        text: What is drawn (possibly abbreviated; empty when nothing fits).
        size: Type size in points.
        width: Drawn width in points.
        abbreviated: True when ``text`` is shorter than the label asked for.
        font: The font it was fitted in.

    """

    text: str
    size: float
    width: float
    abbreviated: bool
    font: str

    @property
    def failed(self) -> bool:
        """True when nothing could be drawn."""
        return not self.text

    def top_baseline(self, top: float) -> float:
        """Baseline that keeps the whole line box (the font's ascent) below ``top``."""
        return top - float(pdfmetrics.getAscent(self.font, self.size))

    def bottom_baseline(self, bottom: float) -> float:
        """Baseline that keeps the font's descent above ``bottom``."""
        return bottom - float(pdfmetrics.getDescent(self.font, self.size))

    def draw(self, c: Canvas, x: float, y: float, align: str = "left") -> None:
        """Draw at baseline ``y``; ``x`` is the left edge, centre or right edge."""
        if not self.text:
            return
        c.setFont(self.font, self.size)
        # The width is known: aligning by it saves ReportLab measuring the string again
        # (a third of the drawing time on a 1,200-marker sheet).
        if align == "center":
            x -= self.width / 2
        elif align == "right":
            x -= self.width
        c.drawString(x, y, self.text)


def abbreviations(text: str) -> list[str]:
    """Ever shorter forms of ``text``, most readable first.

    Multi-word labels lose their leading words to initials first ("Salt Lake City" →
    "S. Lake City" → "S. L. City" → "SLC"), because the last word carries the name;
    then the remaining text is cut back letter by letter with a full stop.
    """
    words = text.split()
    forms: list[str] = []
    initials = ""
    prefix, base = "", text
    if len(words) > 1:
        for count in range(1, len(words)):
            forms.append(" ".join([w[0] + "." for w in words[:count]] + words[count:]))
        initials = "".join(w[0] for w in words)
        prefix, base = " ".join(w[0] + "." for w in words[:-1]) + " ", words[-1]
    for end in range(len(base) - 1, 0, -1):
        stem = base[:end].rstrip(" .-")
        if stem:
            forms.append(prefix + stem + ".")
    if initials:
        forms.append(initials)
    forms.append(text[0])
    seen: list[str] = []
    for form in forms:
        if form != text and form not in seen:
            seen.append(form)
    # Shortest-last keeps the search monotone: the first form that fits is the longest.
    return sorted(seen, key=len, reverse=True)


def fit_label(text: str, font: str, size: float, width: float,
              floor: float = LABEL_FLOOR, shorter: tuple[str, ...] = ()) -> Fitted:
    """Fit ``text`` into ``width`` points: shrink to ``floor``, then abbreviate.

    Args:
        text: The label.
        font: A registered font name.
        size: Preferred size (points).
        width: Room available (points).
        floor: Smallest size allowed.
        shorter: Shorter wordings the caller knows (a class's type code for its name),
            tried in order before letters are cut off.

    Returns:
        What to draw. ``Fitted.failed`` is True when not even one letter fits; the
        caller reports that naming the piece.

    """
    natural = fonts.string_width(text, font, size)
    if natural <= width:
        return Fitted(text, size, natural, False, font)
    shrunk = size * width / natural
    if shrunk >= floor:
        # Round down to a hundredth of a point so the drawn width never exceeds the room.
        shrunk = int(shrunk * 100) / 100
        return Fitted(text, shrunk, fonts.string_width(text, font, shrunk), False, font)
    for form in (*shorter, *abbreviations(shorter[-1] if shorter else text)):
        drawn = fonts.string_width(form, font, floor)
        if drawn <= width:
            # Grow back towards the preferred size as far as the shorter form allows.
            best = min(size, int(floor * width / drawn * 100) / 100) if drawn else size
            return Fitted(form, best, fonts.string_width(form, font, best), True, font)
    return Fitted("", floor, 0.0, True, font)
