"""The one label fitter: every label on every piece goes through ``fit_label``.

A label on a 10 mm destroyer marker has a few millimetres; it must never spill over
the cut line, never vanish without a word, never stop a build, and never print a name
it is not. ``fit_label`` applies the one rule, in this order:

1. **Whole**: the text at its preferred size, else at the size that just fits (text
   width is proportional to type size, so this is one exact step, not a search), as
   long as that is not below the floor (6 pt).
2. **Abbreviate**: at the floor, the longest honest abbreviation that fits, grown back
   towards the preferred size. An abbreviation keeps every numeral and ordinal ("14th",
   "IV", "No. 3") whole and cuts other words, as little as will do, to no fewer than
   three letters and a full stop ("14th Squadriglia" → "14th Squad."); a word is never
   dropped nor reduced to an initial. Given the kit's labels (``Vocabulary``) it is
   *honest* only while it still names its label alone: it is not equal to, nor a
   possible abbreviation of, any other label of the kit ("Bagl. DD" beside "Benham DD";
   never "Ben. DD" beside "Benham DD" and "Benson DD"). The words that tell a label from
   another of the kit (its distinguishing words) are cut last.
3. **Last resort**: when no honest form fits at the floor, the shortest honest form at
   the largest size that fits the room, which is below the floor. It is printed (still
   inside the room, so never across the cut) and the result is marked ``failed``;
   ``LabelFitter`` reports it, one warning per label and outcome naming its pieces
   (``grouped``). Only a room with no width at all prints nothing, and that is reported
   the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from generator.core import fonts

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


_ROMAN = re.compile(r"^(?=[MDCLXVI])M{0,3}(C[MD]|D?C{0,3})(X[CL]|L?X{0,3})(I[XV]|V?I{0,3})$")
_ORDINALS = frozenset(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
    "twentieth thirtieth fortieth fiftieth no no. nr nr.".split())
_EDGE = ",.;:!?()[]{}'\"«»“”‘’"
STEM = 3
"""Letters an abbreviated word keeps: never fewer, so a word never becomes an initial."""


def word_key(word: str) -> str:
    """A word as it is compared between labels: no punctuation at its ends, any case."""
    return word.strip(_EDGE).casefold()


def is_numeral(word: str) -> bool:
    """True for a numeral or ordinal ("14th", "3", "IV", "Third", "No."): never shortened."""
    core = word.strip(_EDGE)
    return (any(ch.isdigit() for ch in core) or bool(_ROMAN.match(core))
            or core.casefold() in _ORDINALS or word.strip(",;:()").casefold() in _ORDINALS)


class Vocabulary:
    """The labels of one kit, to tell which words of a label distinguish it.

    A word of a label is *distinguishing* when another label holds every other word of
    this one but not that word: dropping or cutting it is what would let the two be
    confused ("14th" in "14th Squadriglia" beside "15th Squadriglia"). The word of a
    one-word label is always distinguishing once the kit has another label.
    """

    def __init__(self, labels: Iterable[str]) -> None:
        """Index ``labels`` (repeats count once)."""
        labels = list(labels)
        self._labels: list[frozenset[str]] = []
        self._index: dict[str, set[int]] = {}
        for words in dict.fromkeys(frozenset(map(word_key, text.split())) for text in labels):
            for key in words:
                self._index.setdefault(key, set()).add(len(self._labels))
            self._labels.append(words)
        self._known: dict[str, frozenset[str]] = {}
        # Each distinct label as its words, by how many words it has: an abbreviation
        # keeps the count, so only labels of the same length can be confused with it.
        self._by_count: dict[int, list[tuple[str, tuple[str, ...]]]] = {}
        for text in dict.fromkeys(labels):
            split = tuple(text.split())
            self._by_count.setdefault(len(split), []).append((text, split))

    def distinguishing(self, text: str) -> frozenset[str]:
        """The keys (``word_key``) of the words of ``text`` that must be kept whole."""
        found = self._known.get(text)
        if found is None:
            words = frozenset(map(word_key, text.split()))
            everyone = set(range(len(self._labels)))
            kept = set()
            for key in words:
                # Labels holding all the other words of this one but not this word.
                others = everyone.intersection(*(self._index.get(k, set())
                                                 for k in words if k != key))
                if any(self._labels[i] != words and key not in self._labels[i] for i in others):
                    kept.add(key)
            found = self._known[text] = frozenset(kept)
        return found

    def tells_apart(self, text: str, form: str) -> bool:
        """True when ``form``, an abbreviation of ``text``, still names ``text`` alone.

        It does unless another label of the kit could be read in it: a label equal to it,
        or one it is a possible abbreviation of (every word equal, or a stem with a full
        stop that the other label's word begins with). So no other label could abbreviate
        to it either.
        """
        words = form.split()
        return not any(other != text and all(map(_could_be, words, theirs))
                       for other, theirs in self._by_count.get(len(words), ()))


def _split(word: str) -> tuple[str, str, str]:
    """A word's leading punctuation, letters and trailing punctuation."""
    core = word.strip(_EDGE)
    head = word[:word.index(core)] if core else word
    return head, core, word[len(head) + len(core):]


def _could_be(shown: str, word: str) -> bool:
    """True when a reader could take ``shown`` (a word of an abbreviation) for ``word``."""
    key, other = word_key(shown), word_key(word)
    if key == other:
        return True
    head, core, tail = _split(shown)
    return tail.startswith(".") and core.isalpha() and other.startswith(core.casefold())


Part = tuple[str, str, str]
"""A word that may be cut: its leading punctuation, letters and trailing punctuation."""


def _cut(text: str, keep: AbstractSet[str],
         late: AbstractSet[str] = frozenset()) -> list[tuple[int, Part]]:
    """The words of ``text`` that may be cut, by position, in the order they are cut.

    The words in ``late`` (the distinguishing ones) come last; otherwise the longest,
    then the last, first. Numerals, ordinals and the words in ``keep`` are never cut.
    """
    parts = []
    for index, word in enumerate(text.split(" ")):
        head, core, tail = _split(word)
        if (core.isalpha() and len(core) > STEM + 1 and not is_numeral(word)
                and word_key(word) not in keep):
            parts.append((index, (head, core, tail)))
    return sorted(parts, key=lambda p: (word_key(p[1][1]) in late, -len(p[1][1]), -p[0]))


def _form(text: str, parts: list[tuple[int, Part]], count: int, cap: int) -> str:
    """``text`` with its first ``count`` cuttable words cut to ``cap`` letters and a stop."""
    words = text.split(" ")
    for index, (head, core, tail) in parts[:count]:
        if len(core) > cap + 1:  # a cut that saves nothing is not made
            words[index] = f"{head}{core[:cap]}.{tail.lstrip('.')}"
    return " ".join(words)


def _caps(parts: list[tuple[int, Part]]) -> range:
    """The caps that cut something, from the least cut to the most."""
    return range(max(len(core) for _, (_, core, _) in parts) - 2 if parts else 0,
                 STEM - 1, -1)


def _honest(text: str, kit: Vocabulary | None) -> Callable[[str], bool]:
    """Whether a form of ``text`` is honest: with a kit, when it names ``text`` alone."""
    if kit is None:
        return lambda form: True
    return lambda form: kit.tells_apart(text, form)


def abbreviations(text: str, keep: AbstractSet[str] = frozenset(),
                  kit: Vocabulary | None = None) -> list[str]:
    """Every abbreviation of ``text`` the fitter may print, most readable first.

    Every numeral and ordinal and every word in ``keep`` (``word_key`` forms) stay
    whole. Other words of more than ``STEM`` + 1 letters are cut to no fewer than
    ``STEM`` letters and a full stop: as little as will do, then as few words as will do
    at that depth (the distinguishing words of ``kit`` last, else the longest first). No
    word is ever dropped or reduced to an initial. With ``kit``, only the forms that
    still name ``text`` alone (``Vocabulary.tells_apart``).
    """
    parts = _cut(text, keep, kit.distinguishing(text) if kit is not None else frozenset())
    honest = _honest(text, kit)
    forms = (_form(text, parts, count, cap) for cap in _caps(parts)
             for count in range(1, len(parts) + 1))
    return [f for f in dict.fromkeys(forms) if f != text and honest(f)]


def _least(parts: list[tuple[int, Part]], fits: Callable[[int, int], bool],
           honest: Callable[[int, int], bool]) -> tuple[int, int]:
    """The (count, cap) of the first form of ``abbreviations`` that fits; (0, 0) if none.

    Cutting deeper, or cutting more words, only ever shortens the label, so the least
    deep cut that fits and the fewest words cut that fit are found by bisection: a label
    of thousands of words costs a few dozen measurements. From there the forms are read
    in order until one is honest (an honest form is almost always the first).
    """
    if not parts or not fits(len(parts), STEM):
        return 0, 0
    caps = _caps(parts)
    first, last = 0, len(caps) - 1  # the least deep cut that fits with every word cut
    while first < last:
        middle = (first + last) // 2
        first, last = (first, middle) if fits(len(parts), caps[middle]) else (middle + 1, last)
    for cap in caps[first:]:
        low, high = 1, len(parts)  # the fewest words cut that deep that fit
        while low < high:
            middle = (low + high) // 2
            low, high = (low, middle) if fits(middle, cap) else (middle + 1, high)
        for count in range(low, len(parts) + 1):
            if honest(count, cap):
                return count, cap
    return 0, 0


def _hundredths(points: float) -> float:
    """Round a size down to a hundredth of a point, so the drawn width never exceeds the room."""
    return int(points * 100) / 100


def shrunk_size(text: str, font: str, size: float, width: float,
                floor: float = fonts.MIN_SIZE) -> float:
    """Largest size <= ``size`` (and >= ``floor``) at which ``text`` fits ``width``.

    The first step of the one rule, for text that is never abbreviated (a table cell, a
    strip's name): at the floor a text wider than ``width`` is left to the caller.
    """
    natural = fonts.string_width(text, font, size)
    if natural <= width:
        return size
    return max(floor, size * width / natural)


def fit_label(text: str, font: str, size: float, width: float,
              floor: float = LABEL_FLOOR, keep: AbstractSet[str] = frozenset(),
              abbreviate: bool = True, kit: Vocabulary | None = None) -> Fitted:
    """Fit ``text`` into ``width`` points by the one rule (see the module docstring).

    Args:
        text: The label.
        font: A registered font name.
        size: Preferred size (points).
        width: Room available (points).
        floor: Smallest size allowed before the last resort.
        keep: Words (``word_key`` forms) never cut (``LabelFitter`` keeps every word of
            a label it was not told about).
        abbreviate: False skips step 2 (a number must not lose digits).
        kit: The labels of the kit: an abbreviation must still name ``text`` alone
            among them, and its distinguishing words are cut last. Without it any
            form that keeps the numerals is honest.

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
    late = kit.distinguishing(text) if kit is not None and abbreviate else frozenset()
    parts = _cut(text, keep, late) if abbreviate else []
    honest = _honest(text, kit)

    def fits(count: int, cap: int) -> bool:
        return fonts.string_width(_form(text, parts, count, cap), font, floor) <= width

    count, cap = _least(parts, fits, lambda n, c: honest(_form(text, parts, n, c)))
    best = _form(text, parts, count, cap) if count else ""
    if best and best != text:
        drawn = fonts.string_width(best, font, floor)
        # Grow back towards the preferred size as far as the shorter form allows.
        # (Rounding down to a hundredth never takes it below the floor it fitted at.)
        grown = max(floor, min(size, _hundredths(floor * width / drawn))) if drawn else size
        return Fitted(best, grown, fonts.string_width(best, font, grown), True, font)
    # The last resort: the shortest honest form (every cuttable word cut as deep as
    # still names the label alone), as large as the room allows (below the floor), and
    # reported.
    shortest = next((form for form in (_form(text, parts, len(parts), c)
                                       for c in reversed(_caps(parts))) if honest(form)),
                    text)
    at_floor = fonts.string_width(shortest, font, floor)
    forced = _hundredths(floor * width / at_floor) if at_floor and width > 0 else 0.0
    if forced <= 0:
        return Fitted("", floor, 0.0, True, font, forced=True)
    return Fitted(shortest, forced, fonts.string_width(shortest, font, forced),
                  shortest != text, font, forced=True)


def quoted(text: str) -> str:
    """A label as quoted in a message: in quotes, long ones cut short."""
    return f"'{text}'" if len(text) <= _SHOWN else f"'{text[:_SHOWN - 3]}...'"


_NAMED = 3
"""Pieces a grouped warning names before "and N more"."""

_ABOUT_PIECE = re.compile(r"^piece (\S+): (label .*)$", re.DOTALL)


def grouped(warnings: Iterable[str]) -> list[str]:
    """The warnings with each label's outcome said once, naming the pieces it is on.

    A label that fits only below the floor is reported per piece (``piece ID: label
    ...``, the form a ``Piece`` carries); a kit of 28 destroyers would say the same
    thing 28 times. The pieces' reports of one label and one outcome become one
    warning, in the place of the first: "label 'Kamikaze DD' printed as 'Kam. DD' at
    5.20 pt (below 6 pt) on 4 pieces: ship.yunagi, ship.a, ship.b and 1 more". Other
    warnings pass unchanged, each once.
    """
    pieces: dict[str, list[str]] = {}
    order: dict[str, None] = {}
    for warning in warnings:
        about = _ABOUT_PIECE.match(warning)
        if about is None:
            order[warning] = None
            continue
        piece, what = about.groups()
        named = pieces.setdefault(what, [])
        if piece not in named:
            named.append(piece)
        order[what] = None
    out = []
    for what in order:
        if what not in pieces:
            out.append(what)
            continue
        named = pieces[what]
        listed = ", ".join(named[:_NAMED])
        if len(named) > _NAMED:
            listed += f" and {len(named) - _NAMED} more"
        noun = "piece" if len(named) == 1 else "pieces"
        out.append(f"{what} on {len(named)} {noun}: {listed}")
    return out


@dataclass
class LabelFitter:
    """Fits the labels of many pieces and collects the warnings, each naming its piece.

    Every ruleset's pieces fit their labels through one of these, so the one rule (and
    its one warning) holds for every piece. Results are cached: names and legends repeat
    across a fleet's markers. The kit's warnings say each label's outcome once, naming
    its pieces (``grouped``, applied by the pipeline).

    Attributes:
        labels: The labels of the kit (or of the sheet) the fitter serves: an
            abbreviation must still name its label alone among them
            (``Vocabulary.tells_apart``); a label fitted that is not among them keeps
            every word whole.
        warnings: Every warning so far, in order, one per piece and label
            (``piece ID: label ...``; ``grouped`` joins them).
        by_piece: The same warnings by piece id (a piece carries its own, see
            ``Piece.warnings``).

    """

    labels: Iterable[str] = ()
    warnings: list[str] = field(default_factory=list)
    by_piece: dict[str, list[str]] = field(default_factory=dict)
    _fitted: dict[tuple[object, ...], Fitted] = field(default_factory=dict, repr=False)
    _vocabulary: Vocabulary = field(init=False, repr=False)
    _known: frozenset[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        """Index the labels once."""
        self.labels = tuple(self.labels)
        self._vocabulary = Vocabulary(self.labels)
        self._known = frozenset(self.labels)

    def keep(self, text: str) -> frozenset[str]:
        """The words of ``text`` never cut: none but numerals of a known label, else all."""
        if text in self._known:
            return frozenset()
        return frozenset(map(word_key, text.split()))

    def fit(self, piece_id: str, text: str, font: str, size: float, width: float,
            floor: float = LABEL_FLOOR, abbreviate: bool = True) -> Fitted:
        """Fit one label of piece ``piece_id`` (see ``fit_label``); warn at the last resort."""
        key = (text, font, size, width, floor, abbreviate)
        fitted = self._fitted.get(key)
        if fitted is None:
            if len(self._fitted) >= 4096:  # a long-running process: keep memory bounded
                self._fitted.clear()
            kit = self._vocabulary if text in self._known else None
            fitted = self._fitted[key] = fit_label(text, font, size, width, floor,
                                                   self.keep(text), abbreviate, kit)
        if fitted.failed:
            message = f"piece {piece_id}: {outcome(text, fitted, floor)}"
            if message not in self.by_piece.get(piece_id, ()):
                self.warnings.append(message)
                self.by_piece.setdefault(piece_id, []).append(message)
        return fitted

    def of(self, piece_ids: Iterable[str]) -> tuple[str, ...]:
        """The warnings about the given pieces (to attach to a ``Piece``)."""
        return tuple(w for pid in dict.fromkeys(piece_ids) for w in self.by_piece.get(pid, ()))


def outcome(text: str, fitted: Fitted, floor: float = LABEL_FLOOR) -> str:
    """What became of a label fitted below the floor, as a warning says it."""
    if not fitted.text:
        return f"label {quoted(text)} not printed (no room)"
    return (f"label {quoted(text)} printed as {quoted(fitted.text)} at {fitted.size:.2f} pt "
            f"(below {floor:g} pt)")
