"""Surface Action event cards as pieces: 63 x 88 mm (poker size), one piece per card.

The front carries the card's title in a band, when it is played (after an italic
"When:") and what it does; the text is set as large as the card allows and never below
6.5 pt; a card whose words do not fit even then is an error naming it, because a card
that cannot be read is worse than none. Every card shares one back, so the deck cannot
be read from behind.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from generator import fonts
from generator.autofit import Fitted, fit_label
from generator.errors import RenderError
from generator.pieces import Art, Piece
from generator.rulesets.surface_action.events import Card, Deck
from generator.units import MM

CARD_WIDTH = 63 * MM
CARD_HEIGHT = 88 * MM
GROUP = "event"
PAD = 4 * MM
"""Text keeps this far from the trim: hand-cut cards are rarely cut within a millimetre."""
BAND = 13 * MM
"""Height of the title band."""
TITLE_SIZE, TITLE_FLOOR = 12.0, 9.0
EFFECT_SIZE = 11.0
"""Preferred size of the effect text; the timing is set a little smaller (TIMING_SCALE)."""
TIMING_SCALE = 0.85
TEXT_FLOOR = 6.5
"""Smallest size card text is set in."""
STEP = 0.25
LEADING = 1.22
GAP = 2.2 * MM
"""Space above and below the rule between timing and effect."""
TAG_SIZE = 7.0
TAG_PAD = 1.2 * MM

NAVY = HexColor("#1d2f4a")
PAPER = HexColor("#fbf8f1")
ACCENT = HexColor("#8a2a1b")
RULE = HexColor("#b9b2a3")
INK = HexColor("#1a1a1a")
NIGHT = (HexColor("#1d2f4a"), white)
DAY = (HexColor("#f2c744"), HexColor("#1a1a1a"))

ITALIC = "QD-Sans-Italic"


@functools.cache
def italic_font() -> str:
    """Register PT Sans Italic once and return its name.

    The kit's font module registers only the upright faces; the italic ships in the
    same package, so the cards use it rather than faking a slant.
    """
    fonts.register()
    path = resources.files("fontpkg_pt_sans") / "files" / "PT_Sans-Web-Italic.ttf"
    pdfmetrics.registerFont(TTFont(ITALIC, str(path)))
    return ITALIC


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


@dataclass(frozen=True)
class CardText:
    """A card's timing and effect as they will be set."""

    timing: list[str]
    effect: list[str]
    timing_size: float
    effect_size: float
    label_width: float

    def height(self) -> float:
        """Height of the whole block: timing, the rule with its gaps, effect."""
        return (len(self.timing) * self.timing_size * LEADING + 2 * GAP
                + len(self.effect) * self.effect_size * LEADING)


def set_text(card: Card, width: float, height: float) -> CardText:
    """Set a card's timing and effect as large as fits ``width`` x ``height``.

    Raises:
        RenderError: Not even 6.5 pt fits; the message names the card.

    """
    size = EFFECT_SIZE
    while size >= TEXT_FLOOR - 1e-9:
        timing_size = max(TEXT_FLOOR, round(size * TIMING_SCALE, 2))
        label = fonts.string_width("When: ", italic_font(), timing_size)
        timing = wrap(card.timing, fonts.REGULAR, timing_size, width, label)
        effect = wrap(card.effect, fonts.REGULAR, size, width)
        if timing is not None and effect is not None:
            text = CardText(timing, effect, timing_size, size, label)
            if text.height() <= height:
                return text
        size -= STEP
    raise RenderError(f"event card '{card.id}' ({card.title}): its timing and effect do not "
                      f"fit a {CARD_WIDTH / MM:.0f} x {CARD_HEIGHT / MM:.0f} mm card even at "
                      f"{TEXT_FLOOR:g} pt; shorten them")


def _tag(card: Card) -> tuple[str, tuple[Color, Color]] | None:
    """The time-of-day tag: its words and (ground, ink)."""
    if card.night:
        return "night only", NIGHT
    if card.day:
        return "day only", DAY
    return None


def card_front(card: Card) -> Art:
    """A card's face, with its text set and checked before anything is drawn."""
    inner = CARD_WIDTH - 2 * PAD
    title = fit_label(card.title, fonts.BOLD, TITLE_SIZE, inner, floor=TITLE_FLOOR)
    if title.failed or title.abbreviated:
        raise RenderError(f"event card '{card.id}': title '{card.title}' does not fit the "
                          f"title band at {TITLE_FLOOR:g} pt; shorten it")
    tag = _tag(card)
    tag_label: Fitted | None = None
    tag_height = 0.0
    if tag is not None:
        tag_label = fit_label(tag[0], fonts.NARROW_BOLD, TAG_SIZE, inner - 2 * TAG_PAD)
        tag_height = TAG_SIZE + 2 * TAG_PAD * 0.6
    top = CARD_HEIGHT - BAND - 3 * MM
    bottom = PAD + (tag_height + 2 * MM if tag else 0.0)
    text = set_text(card, inner, top - bottom)
    italic = italic_font()

    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        c.setFillColor(PAPER)
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        # The band runs into the bleed at the top and sides, so an off cut keeps it whole.
        c.setFillColor(NAVY)
        c.rect(-bleed, h - BAND, w + 2 * bleed, BAND + bleed, stroke=0, fill=1)
        c.setFillColor(white)
        title.draw(c, w / 2, h - BAND / 2 - 0.35 * title.size, "center")

        y = top - float(pdfmetrics.getAscent(fonts.REGULAR, text.timing_size))
        c.setFillColor(ACCENT)
        c.setFont(italic, text.timing_size)
        c.drawString(PAD, y, "When:")
        c.setFillColor(INK)
        c.setFont(fonts.REGULAR, text.timing_size)
        for number, line in enumerate(text.timing):
            c.drawString(PAD + (text.label_width if number == 0 else 0.0), y, line)
            y -= text.timing_size * LEADING
        y += text.timing_size * LEADING
        rule = y + float(pdfmetrics.getDescent(fonts.REGULAR, text.timing_size)) - GAP
        c.setStrokeColor(RULE)
        c.setLineWidth(0.5)
        c.line(PAD, rule, w - PAD, rule)
        y = rule - GAP - float(pdfmetrics.getAscent(fonts.REGULAR, text.effect_size))
        c.setFillColor(INK)
        c.setFont(fonts.REGULAR, text.effect_size)
        for line in text.effect:
            c.drawString(PAD, y, line)
            y -= text.effect_size * LEADING

        if tag is not None and tag_label is not None:
            ground, ink = tag[1]
            tw = tag_label.width + 2 * TAG_PAD
            c.setFillColor(ground)
            c.roundRect(w - PAD - tw, PAD, tw, tag_height, tag_height / 2, stroke=0, fill=1)
            c.setFillColor(ink)
            tag_label.draw(c, w - PAD - tw / 2, PAD + tag_height / 2 - 0.35 * TAG_SIZE,
                           "center")

    return art


def card_back(deck: Deck) -> Art:
    """The back every card of the deck shares: deck title, subtitle and an emblem."""
    inner = CARD_WIDTH - 4 * PAD
    title = fit_label(deck.deck.back_title, fonts.BOLD, 15, inner, floor=TITLE_FLOOR)
    subtitle = fit_label(deck.deck.back_subtitle, fonts.REGULAR, 11, inner, floor=TEXT_FLOOR)
    for fitted, text in ((title, deck.deck.back_title), (subtitle, deck.deck.back_subtitle)):
        if fitted.failed or fitted.abbreviated:
            raise RenderError(f"event deck '{deck.deck.name}': card back text '{text}' does "
                              "not fit the card; shorten it")

    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        c.setFillColor(NAVY)
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        c.setStrokeColor(PAPER)
        c.setLineWidth(0.8)
        c.rect(PAD, PAD, w - 2 * PAD, h - 2 * PAD, stroke=1, fill=0)
        c.setLineWidth(0.4)
        c.rect(PAD + 1 * MM, PAD + 1 * MM, w - 2 * PAD - 2 * MM, h - 2 * PAD - 2 * MM,
               stroke=1, fill=0)
        # A compass rose: symmetric, so a back printed a little off still looks right.
        cx, cy, r = w / 2, h * 0.5, 11 * MM
        c.setLineWidth(0.7)
        c.circle(cx, cy, r, stroke=1, fill=0)
        c.setFillColor(PAPER)
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            path = c.beginPath()
            path.moveTo(cx + dx * r * 1.25, cy + dy * r * 1.25)
            path.lineTo(cx + dy * r * 0.18, cy - dx * r * 0.18)
            path.lineTo(cx - dy * r * 0.18, cy + dx * r * 0.18)
            path.close()
            c.drawPath(path, stroke=0, fill=1)
        title.draw(c, w / 2, h * 0.5 + r * 1.25 + 5 * MM, "center")
        subtitle.draw(c, w / 2, h * 0.5 - r * 1.25 - 5 * MM - subtitle.size * 0.7, "center")

    return art


def event_card_pieces(deck: Deck) -> list[Piece]:
    """One piece per distinct card of the deck, with its quantity and the shared back.

    Args:
        deck: The event deck.

    Returns:
        The cards in deck order, 63 x 88 mm, group ``event``.

    Raises:
        RenderError: A card's text cannot fit at 6.5 pt, or a title or the back's text
            cannot fit; the message names the card.

    """
    back = card_back(deck)
    return [Piece(f"event.{card.id}", card.title, CARD_WIDTH, CARD_HEIGHT, card_front(card),
                  back, card.quantity, GROUP) for card in deck.cards]
