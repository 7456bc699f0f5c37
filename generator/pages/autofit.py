"""Text auto-fit for labels on pieces: one rule for every piece.

A label on a 10 mm destroyer marker has a few millimetres; it must never spill over
the cut line, never vanish without a word, and never stop a build. ``fit_label``
applies the one rule, in this order:

1. **Shrink**: the text at its preferred size, else at the size that just fits (text
   width is proportional to type size, so this is one exact step, not a search), as
   long as that is not below the floor.
2. **Abbreviate**: at the floor, the longest of the caller's shorter wordings and the
   automatic abbreviations that fits, found by bisection over each family of
   abbreviations (a 10,000-character label costs a few dozen measurements, not ten
   thousand), then grown back towards the preferred size.
3. **Last resort**: the shortest form (the label's first character) at the largest size
   that fits the room, which is below the floor. It is printed (still inside the room,
   so never across the cut) and the result is marked ``failed``; ``LabelFitter`` turns
   that into a warning naming the piece. Only a room with no width at all prints
   nothing, and that is warned about the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from generator.core import fonts
from generator.core.units import MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

LABEL_FLOOR = 6.0
"""Smallest size a label on a piece is set in (points).

The kit's body type never goes below ``fonts.MIN_SIZE``; a 1:12,000 destroyer marker is
shorter than its own name at that size, so piece labels get their own, lower floor.
6 pt narrow still reads on a marker held in the hand at arm's length; below it a
name is abbreviated rather than shrunk.
"""

SAFE_INSET = 1.0
"""Millimetres every label keeps inside its piece's cut line (a slightly-off cut
leaves it whole)."""

_SHOWN = 40
"""Characters of a label quoted in a warning (a 10,000-character label is cut short)."""


@dataclass
class Fitted:
    """A label as it will be drawn.

    Attributes:
        text: What is drawn (possibly abbreviated; empty only when the room has no width).
        size: Type size in points.
        width: Drawn width in points.
        abbreviated: True when ``text`` is shorter than the label asked for.
        font: The font it was fitted in.
        forced: True when even the shortest form only fits below the floor (the last
            resort of the rule; see the module docstring).

    """

    text: str
    size: float
    width: float
    abbreviated: bool
    font: str
    forced: bool = False

    @property
    def failed(self) -> bool:
        """True when the label could not be fitted at or above the floor."""
        return self.forced

    def top_baseline(self, top: float) -> float:
        """Baseline that keeps the whole line box (the font's ascent) below ``top``."""
        return top - float(fonts.metrics().getAscent(self.font, self.size))

    def bottom_baseline(self, bottom: float) -> float:
        """Baseline that keeps the font's descent above ``bottom``."""
        return bottom - float(fonts.metrics().getDescent(self.font, self.size))

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


def _initials(words: list[str]) -> str:
    return " ".join(w[0] + "." for w in words)


def _stem(base: str, end: int) -> str:
    """``base`` cut to ``end`` characters and marked with a full stop ('' if nothing is left)."""
    stem = base[:end].rstrip(" .-")
    return stem + "." if stem else ""


def _families(text: str) -> list[tuple[int, Callable[[int], str]]]:
    """The abbreviations of ``text`` as families of ever shorter forms.

    Each family is (count, form) where ``form(0)`` is its longest member and
    ``form(count - 1)`` its shortest, so a bisection can find the longest one that fits.
    Multi-word labels first lose leading words to initials ("Salt Lake City" →
    "S. Lake City" → "S. L. City"), then the last word is cut back letter by letter
    ("S. L. Ci."), then the initials alone ("SLC"), then the first letter.
    """
    words = text.split()
    families: list[tuple[int, Callable[[int], str]]] = []
    prefix, base = "", text
    if len(words) > 1:
        families.append((len(words) - 1, lambda i: " ".join(
            [_initials(words[:i + 1]), *words[i + 1:]])))
        prefix, base = _initials(words[:-1]) + " ", words[-1]
    if len(base) > 1:
        families.append((len(base) - 1, lambda i: prefix + _stem(base, len(base) - 1 - i)
                         if _stem(base, len(base) - 1 - i) else ""))
    if len(words) > 1:
        families.append((1, lambda i: "".join(w[0] for w in words)))
    families.append((1, lambda i: text[:1]))
    return families


def abbreviations(text: str) -> list[str]:
    """Every shorter form of ``text``, most readable (longest) first.

    For reading and testing; ``fit_label`` never builds this list, which for a long label
    would hold as many strings as the label has characters.
    """
    seen: dict[str, None] = {}
    for count, form in _families(text):
        for i in range(count):
            candidate = form(i)
            if candidate and candidate != text:
                seen.setdefault(candidate)
    # Shortest-last keeps the search monotone: the first form that fits is the longest.
    return sorted(seen, key=len, reverse=True)


def _longest_fitting(text: str, fits: Callable[[str], bool]) -> str:
    """The longest abbreviation of ``text`` that ``fits``, or '' when none does.

    Within a family the forms only get shorter, so the first that fits is found by
    bisection; across families the longest winner is taken (the earlier family on a tie).
    """
    best = ""
    for count, form in _families(text):
        lo, hi = 0, count  # find the first index in [lo, hi) whose form fits
        while lo < hi:
            mid = (lo + hi) // 2
            candidate = form(mid)
            if candidate and candidate != text and fits(candidate):
                hi = mid
            else:
                lo = mid + 1
        if lo < count:
            candidate = form(lo)
            if candidate and candidate != text and fits(candidate) and len(candidate) > len(best):
                best = candidate
    return best


def _hundredths(points: float) -> float:
    """Round a size down to a hundredth of a point, so the drawn width never exceeds the room."""
    return int(points * 100) / 100


def fit_label(text: str, font: str, size: float, width: float,
              floor: float = LABEL_FLOOR, shorter: tuple[str, ...] = (),
              abbreviate: bool = True) -> Fitted:
    """Fit ``text`` into ``width`` points by the one rule (see the module docstring).

    Args:
        text: The label.
        font: A registered font name.
        size: Preferred size (points).
        width: Room available (points).
        floor: Smallest size allowed before the last resort.
        shorter: Shorter wordings the caller knows (a class's type code for its name),
            tried in order before the automatic abbreviations of the last of them.
        abbreviate: False skips step 2 (a number must not lose digits); the last resort
            is then the whole text below the floor.

    Returns:
        What to draw; ``Fitted.failed`` is True in the last resort, which the caller
        reports naming the piece (``LabelFitter`` does).

    """
    if not text:
        return Fitted("", size, 0.0, False, font)
    natural = fonts.string_width(text, font, size)
    if natural <= width:
        return Fitted(text, size, natural, False, font)
    if width > 0:
        shrunk = _hundredths(size * width / natural)
        if shrunk >= floor:
            return Fitted(text, shrunk, fonts.string_width(text, font, shrunk), False, font)

    def fits(form: str) -> bool:
        return fonts.string_width(form, font, floor) <= width

    found = next((form for form in shorter if fits(form)), "") if abbreviate else ""
    if abbreviate and not found:
        found = _longest_fitting(shorter[-1] if shorter else text, fits)
    if found:
        drawn = fonts.string_width(found, font, floor)
        # Grow back towards the preferred size as far as the shorter form allows.
        best = min(size, _hundredths(floor * width / drawn)) if drawn else size
        return Fitted(found, best, fonts.string_width(found, font, best), True, font)
    # The last resort: the first character (or, not abbreviating, the whole text), as
    # large as the room allows.
    shortest = ((shorter[-1] if shorter else text).strip()[:1] or text[:1]) if abbreviate else text
    at_floor = fonts.string_width(shortest, font, floor)
    forced = _hundredths(floor * width / at_floor) if at_floor and width > 0 else 0.0
    if forced <= 0:
        return Fitted("", floor, 0.0, True, font, forced=True)
    return Fitted(shortest, forced, fonts.string_width(shortest, font, forced), True, font,
                  forced=True)


def quoted(text: str) -> str:
    """A label as quoted in a message: in quotes, long ones cut short."""
    return f"'{text}'" if len(text) <= _SHOWN else f"'{text[:_SHOWN - 3]}...'"


@dataclass
class LabelFitter:
    """Fits the labels of many pieces and collects the warnings, each naming its piece.

    Every ruleset's pieces fit their labels through one of these, so the one rule (and
    its one warning) holds for every piece. Results are cached: names and legends repeat
    across a fleet's markers.

    Attributes:
        warnings: Every warning so far, in order.
        by_piece: The same warnings by piece id (a piece carries its own, see
            ``Piece.warnings``).

    """

    warnings: list[str] = field(default_factory=list)
    by_piece: dict[str, list[str]] = field(default_factory=dict)
    _fitted: dict[tuple[object, ...], Fitted] = field(default_factory=dict, repr=False)

    def fit(self, piece_id: str, text: str, font: str, size: float, width: float,
            shorter: tuple[str, ...] = (), floor: float = LABEL_FLOOR,
            abbreviate: bool = True) -> Fitted:
        """Fit one label of piece ``piece_id`` (see ``fit_label``); warn at the last resort."""
        key = (text, font, size, width, shorter, floor, abbreviate)
        fitted = self._fitted.get(key)
        if fitted is None:
            if len(self._fitted) >= 4096:  # a long-running process: keep memory bounded
                self._fitted.clear()
            fitted = self._fitted[key] = fit_label(text, font, size, width, floor, shorter,
                                                        abbreviate)
        if fitted.failed:
            printed = (f"printed {quoted(fitted.text)} at {fitted.size:.2f} pt"
                       if fitted.text else "nothing printed (too little room)")
            how = "even abbreviated at" if abbreviate else "at"
            message = (f"piece {piece_id}: label {quoted(text)} does not fit "
                       f"{width / MM:.2f} mm {how} {floor:g} pt; {printed}")
            self.warnings.append(message)
            self.by_piece.setdefault(piece_id, []).append(message)
        return fitted

    def of(self, piece_ids: Iterable[str]) -> tuple[str, ...]:
        """The warnings about the given pieces (to attach to a ``Piece``)."""
        return tuple(w for pid in dict.fromkeys(piece_ids) for w in self.by_piece.get(pid, ()))
