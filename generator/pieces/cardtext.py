"""A card's text: its small templates filled, and set as large as fits the card.

A template (a card's timing or effect) replaces ``{name}`` by a value and nothing else:
no attribute access, no expressions, no Jinja (``fill``). The filled text is then set
from EFFECT_SIZE down to TEXT_FLOOR until it fits (``set_text``); what does not fit
even then is a ``FitError`` naming the field to shorten. ``generator.pieces.decks``
draws the cards with it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from generator.core import fonts
from generator.core.errors import RenderError
from generator.core.suggest import did_you_mean
from generator.core.units import MM
from generator.data.yamlsource import Loc
from generator.pages.wordwrap import wrap

Value = str | int | float
"""A named value a template may print."""

EFFECT_SIZE = 11.0
"""Preferred size of the effect text; the timing is set a little smaller (TIMING_SCALE)."""
TIMING_SCALE = 0.85
TEXT_FLOOR = 6.5
"""Smallest size card text is set in."""
STEP = 0.25
LEADING = 1.22
GAP = 2.2 * MM
"""Space above and below the rule between timing and effect."""

ITALIC = fonts.ITALIC
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


# -- templates --------------------------------------------------------------------------


class TemplateError(ValueError):
    """A template names something that is not there, or has a stray brace.

    Attributes:
        message: ``found X, expected Y`` text for a located problem.

    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _shown(value: Value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def fill(template: str, names: Mapping[str, Value]) -> str:
    """Replace every ``{name}`` in ``template`` by its value; ``{{`` and ``}}`` are braces.

    Only whole names are looked up in ``names``: there is no attribute access, indexing,
    format spec or expression, so data from a file cannot reach anything else.

    Raises:
        TemplateError: An unknown name (with a did-you-mean hint) or a stray brace.

    """

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        name = match.group(1)
        if name is None:
            raise TemplateError(f"found a single '{token}', expected {{name}} or a doubled "
                                f"'{token}{token}' for a brace")
        if name not in names:
            known = sorted(names)
            listed = ", ".join(known) if len(known) <= 12 else f"{len(known)} names"
            raise TemplateError(f"found unknown placeholder '{{{name}}}', expected one of "
                                f"{listed or 'no names'}{did_you_mean(name, known)}")
        return _shown(names[name])

    return _PLACEHOLDER.sub(replace, template)


# -- setting the text -------------------------------------------------------------------


class FitError(RenderError):
    """Card text that cannot fit; ``field`` names the deck field to shorten."""

    def __init__(self, message: str, field: Loc) -> None:
        super().__init__(message)
        self.field = field


def italic_font() -> str:
    """PT Sans Italic, registered with the kit's fonts, by name.

    The italic ships with the upright faces, so the cards use it rather than faking a
    slant.
    """
    fonts.register()
    return ITALIC


@dataclass(frozen=True)
class CardText:
    """A card's timing and effect as they will be set."""

    timing: list[str]
    effect: list[str]
    timing_size: float
    effect_size: float
    label_width: float

    def height(self) -> float:
        """Height of the whole block: timing and the rule with its gaps (if any), effect."""
        above = (len(self.timing) * self.timing_size * LEADING + 2 * GAP) if self.timing else 0
        return above + len(self.effect) * self.effect_size * LEADING


def _mm(points: float) -> str:
    return f"{points / MM:.0f}"


def set_text(timing: str | None, effect: str, width: float, height: float,
             what: str, card_size: tuple[float, float]) -> CardText:
    """Set a card's timing and effect as large as fits ``width`` x ``height``.

    Args:
        timing: The filled timing text, or None.
        effect: The filled effect text.
        width: Line width (points).
        height: Room for the block (points).
        what: How to name the card in the message (``event card 'x' (X)``).
        card_size: The card's trim size (points), for the message.

    Raises:
        FitError: Not even ``TEXT_FLOOR`` fits; the message names the card.

    """
    size = EFFECT_SIZE
    while size >= TEXT_FLOOR - 1e-9:
        timing_size = max(TEXT_FLOOR, round(size * TIMING_SCALE, 2))
        label = fonts.string_width("When: ", italic_font(), timing_size) if timing else 0.0
        timing_lines = wrap(timing, fonts.REGULAR, timing_size, width, label) if timing else []
        effect_lines = wrap(effect, fonts.REGULAR, size, width)
        if timing_lines is not None and effect_lines is not None:
            text = CardText(timing_lines, effect_lines, timing_size, size, label)
            if text.height() <= height:
                return text
        size -= STEP
    parts = "timing and effect do" if timing else "effect does"
    raise FitError(f"{what}: its {parts} not fit a {_mm(card_size[0])} x {_mm(card_size[1])} "
                   f"mm card even at {TEXT_FLOOR:g} pt; shorten them", ("effect",))
