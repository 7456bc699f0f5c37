"""Card decks: one YAML model and one renderer for every ruleset's cards.

A deck file has a header (the deck's name, card size, colour and the back every card
shares) and a list of distinct cards, each with an id, a title, an optional timing
("When: ..."), an effect (the card's body text), optional named values and a quantity.
The timing and the effect are small text templates: ``{name}`` is replaced by the card's
own value of that name, its title or quantity, or a value from the tables the ruleset
hands in. Nothing else is evaluated: no attribute access, no expressions, no Jinja.

Cards become ``Piece`` objects, so the imposition engine, the PNG and the Tabletop
Simulator exports place them like any counter. Everything that can go wrong with a
deck (an unknown placeholder, text that does not fit the card at the smallest size,
a quantity out of range, a repeated id) is reported by ``load_deck`` as a located
``file:line:column`` problem before anything is drawn. The text's templates and its
fitting are ``generator.pieces.cardtext``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, ClassVar, TypeVar

from pydantic import BeforeValidator, Field, field_validator
from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.errors import Problem, RenderError
from generator.core.units import MM, parse_length
from generator.data.datamodel import Strict, once
from generator.data.validation import describe, load_model
from generator.data.yamlsource import Loc, SourceDoc
from generator.pages.autofit import Fitted, fit_label
from generator.pages.wordwrap import wrap
from generator.pieces.cardtext import (
    GAP,
    LEADING,
    TEXT_FLOOR,
    FitError,
    TemplateError,
    Value,
    fill,
    italic_font,
    set_text,
)
from generator.pieces.pieces import Art, Piece

CARD_ID = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
NAME = r"^[A-Za-z_][A-Za-z0-9_.-]*$"
COLOUR = r"^#[0-9A-Fa-f]{6}$"
SIZE_MIN_MM, SIZE_MAX_MM = 30.0, 200.0
"""Card sides outside this range are refused (a 30 mm card holds a title and a line)."""
TEXT_MAX = 2000
"""Longest text field in characters, checked before any measuring."""
VALUES_MAX = 40
CARDS_MAX = 300

PAD = 4 * MM
"""Text keeps this far from the trim: hand-cut cards are rarely cut within a millimetre."""
BAND = 13 * MM
"""Height of the title band."""
TITLE_SIZE, TITLE_FLOOR = 12.0, 9.0
TAG_SIZE = 7.0
TAG_PAD = 1.2 * MM
BACK_TEXT_SIZE = 7.5

PAPER = HexColor("#fbf8f1")
ACCENT = HexColor("#8a2a1b")
RULE = HexColor("#b9b2a3")
INK = HexColor("#1a1a1a")




def _card_length(value: object) -> str:
    """Check a card side given as a unit string ("63mm", "2.5in"); keep the text."""
    if not isinstance(value, str):
        raise ValueError("expected a length such as '63mm' or '2.5in'")
    try:
        points = parse_length(value)
    except ValueError:
        raise ValueError("expected a length such as '63mm' or '2.5in'") from None
    if not SIZE_MIN_MM * MM - 1e-9 <= points <= SIZE_MAX_MM * MM + 1e-9:
        raise ValueError(f"expected a length from {SIZE_MIN_MM:g}mm to {SIZE_MAX_MM:g}mm")
    return value


CardLength = Annotated[str, BeforeValidator(_card_length)]


class DeckInfo(Strict):
    """A deck's header: its name, card size, colour and the back all its cards share."""

    name: str = Field(min_length=1, max_length=80,
                      description="The deck's name, e.g. 'Surface Action event deck'.")
    card_width: CardLength = Field("2.5in", description="Card width, e.g. '2.5in' (30-200mm).")
    card_height: CardLength = Field("3.5in", description="Card height, e.g. '3.5in' (30-200mm).")
    colour: str = Field("#1d2f4a", pattern=COLOUR,
                        description="Colour of the title band and the back, '#rrggbb'.")
    back_title: str = Field(min_length=1, max_length=40,
                            description="Large text on every card back, e.g. 'SURFACE ACTION'.")
    back_subtitle: str | None = Field(None, min_length=1, max_length=40,
                                      description="Smaller text under it, e.g. 'Event'.")
    back_text: str | None = Field(None, min_length=1, max_length=300,
                                  description="A few words in small type at the foot of the back.")
    note: str | None = Field(None, min_length=1, max_length=TEXT_MAX,
                             description="Where the deck comes from (for the reader of the file).")

    @property
    def width(self) -> float:
        """Card width in points."""
        return parse_length(self.card_width)

    @property
    def height(self) -> float:
        """Card height in points."""
        return parse_length(self.card_height)


class BaseCard(Strict):
    """What every card has: id, title, optional timing, effect and quantity.

    A ruleset narrows the limits by subclassing and setting the class variables (and
    may add fields of its own, such as a time of day).
    """

    title_max: ClassVar[int] = 40
    effect_words: ClassVar[int | None] = None
    quantity_min: ClassVar[int] = 1
    quantity_max: ClassVar[int] = 60

    id: str = Field(pattern=CARD_ID, max_length=60,
                    description="Stable id, lowercase words joined by hyphens, e.g. 'dud-shells'.")
    title: str = Field(min_length=1, description="Title printed in the card's band.")
    timing: str | None = Field(None, min_length=1,
                               description="When the card is played (a template, printed "
                                           "after 'When:').")
    effect: str = Field(min_length=1,
                        description="What the card does: the body text (a template).")
    quantity: int = Field(description="Copies in the deck.")

    @field_validator("title")
    @classmethod
    def _title_fits(cls, value: str) -> str:
        if len(value) > cls.title_max:
            raise ValueError(f"expected a title of at most {cls.title_max} characters "
                             f"(it has {len(value)})")
        return value

    @field_validator("timing", "effect")
    @classmethod
    def _text_bounded(cls, value: str | None) -> str | None:
        if value is not None and len(value) > TEXT_MAX:
            raise ValueError(f"expected at most {TEXT_MAX} characters (it has {len(value)})")
        return value

    @field_validator("effect")
    @classmethod
    def _effect_fits(cls, value: str) -> str:
        count = len(value.split())
        if cls.effect_words is not None and count > cls.effect_words:
            raise ValueError(f"expected an effect of at most {cls.effect_words} words "
                             f"(it has {count})")
        return value

    @field_validator("quantity")
    @classmethod
    def _quantity_range(cls, value: int) -> int:
        if not cls.quantity_min <= value <= cls.quantity_max:
            raise ValueError(f"expected a quantity from {cls.quantity_min} to {cls.quantity_max}")
        return value



class Card(BaseCard):
    """A card of a general deck: the common fields plus named values for its templates."""

    values: dict[str, Value] = Field(default_factory=dict,
                                     description="Named values the templates may print "
                                                 "as {name}.")

    @field_validator("values", mode="before")
    @classmethod
    def _values_bounded(cls, values: object) -> object:
        # Before pydantic's own parsing, which would quietly turn true into 1.
        if not isinstance(values, dict):
            return values
        if len(values) > VALUES_MAX:
            raise ValueError(f"expected at most {VALUES_MAX} values (it has {len(values)})")
        for name, value in values.items():
            if not isinstance(name, str) or not re.match(NAME, name):
                raise ValueError(f"expected value names of letters, digits and _ . - "
                                 f"(not '{name}')")
            if (isinstance(value, bool) or not isinstance(value, str | int | float)
                    or isinstance(value, str) and len(value) > 200):
                raise ValueError(f"expected '{name}' to be a number or up to 200 characters "
                                 "of text")
        return values


class Deck(Strict):
    """A deck file: the header mapping, then the list of distinct cards."""

    deck: DeckInfo = Field(description="The deck's header.")
    cards: list[Card] = Field(min_length=1, max_length=CARDS_MAX,
                              description="The distinct cards, each with its quantity.")

    @field_validator("cards")
    @classmethod
    def _unique_ids(cls, cards: list[BaseCard]) -> list[BaseCard]:
        once([card.id for card in cards], "card id")
        return cards

    def total(self) -> int:
        """Number of physical cards in the deck (all quantities added)."""
        return sum(card.quantity for card in self.cards)


D = TypeVar("D", bound=Deck)




def card_names(card: BaseCard, tables: Mapping[str, Value] | None = None) -> dict[str, Value]:
    """What a card's templates may print: tables, then the card's title, quantity and values."""
    names: dict[str, Value] = dict(tables or {})
    names.update({"title": card.title, "quantity": card.quantity})
    if isinstance(card, Card):
        names.update(card.values)
    return names



@dataclass(frozen=True)
class Tag:
    """A small rounded label at the foot of a card's face (``night only``)."""

    text: str
    ground: Color
    ink: Color


TagRule = Callable[[BaseCard], Tag | None]
"""A ruleset's rule for which cards carry a tag (and which)."""


def card_front(card: BaseCard, info: DeckInfo, tables: Mapping[str, Value] | None = None,
               tag: TagRule | None = None, noun: str = "card") -> Art:
    """A card's face, with its templates filled and its text set before anything is drawn.

    Args:
        card: The card.
        info: The deck's header (size, colour).
        tables: Values the templates may print besides the card's own.
        tag: Which tag, if any, the card carries.
        noun: How messages name a card (``event card``).

    Raises:
        FitError: The title or the text cannot fit; the message names the card.
        TemplateError: A template names an unknown value.

    """
    card_w, card_h = info.width, info.height
    inner = card_w - 2 * PAD
    names = card_names(card, tables)
    timing = fill(card.timing, names) if card.timing else None
    effect = fill(card.effect, names)
    title = fit_label(card.title, fonts.BOLD, TITLE_SIZE, inner, floor=TITLE_FLOOR)
    if title.failed or title.abbreviated:
        raise FitError(f"{noun} '{card.id}': title '{card.title}' does not fit the "
                       f"title band at {TITLE_FLOOR:g} pt; shorten it", ("title",))
    chosen = tag(card) if tag is not None else None
    tag_label: Fitted | None = None
    tag_height = 0.0
    if chosen is not None:
        tag_label = fit_label(chosen.text, fonts.NARROW_BOLD, TAG_SIZE, inner - 2 * TAG_PAD)
        tag_height = TAG_SIZE + 2 * TAG_PAD * 0.6
    top = card_h - BAND - 3 * MM
    bottom = PAD + (tag_height + 2 * MM if chosen else 0.0)
    text = set_text(timing, effect, inner, top - bottom, f"{noun} '{card.id}' ({card.title})",
                    (card_w, card_h))
    italic = italic_font()
    band_colour = HexColor(info.colour)

    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        c.setFillColor(PAPER)
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        # The band runs into the bleed at the top and sides, so an off cut keeps it whole.
        c.setFillColor(band_colour)
        c.rect(-bleed, h - BAND, w + 2 * bleed, BAND + bleed, stroke=0, fill=1)
        c.setFillColor(white)
        title.draw(c, w / 2, h - BAND / 2 - 0.35 * title.size, "center")

        y = top
        if text.timing:
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
            y = rule - GAP
        y -= float(pdfmetrics.getAscent(fonts.REGULAR, text.effect_size))
        c.setFillColor(INK)
        c.setFont(fonts.REGULAR, text.effect_size)
        for line in text.effect:
            c.drawString(PAD, y, line)
            y -= text.effect_size * LEADING

        if chosen is not None and tag_label is not None:
            tw = tag_label.width + 2 * TAG_PAD
            c.setFillColor(chosen.ground)
            c.roundRect(w - PAD - tw, PAD, tw, tag_height, tag_height / 2, stroke=0, fill=1)
            c.setFillColor(chosen.ink)
            tag_label.draw(c, w - PAD - tw / 2, PAD + tag_height / 2 - 0.35 * TAG_SIZE,
                           "center")

    return art


def card_back(info: DeckInfo) -> Art:
    """The back every card of a deck shares: title, subtitle, an emblem and optional text.

    Raises:
        FitError: A text of the back does not fit the card.

    """
    w0, h0 = info.width, info.height
    inner = w0 - 4 * PAD
    scale = min(1.0, w0 / (63 * MM), h0 / (88 * MM))
    radius = 11 * MM * scale
    title = fit_label(info.back_title, fonts.BOLD, 15, inner, floor=TITLE_FLOOR)
    subtitle = (fit_label(info.back_subtitle, fonts.REGULAR, 11, inner, floor=TEXT_FLOOR)
                if info.back_subtitle else None)
    for fitted, text, field in ((title, info.back_title, "back_title"),
                                (subtitle, info.back_subtitle, "back_subtitle")):
        if fitted is not None and (fitted.failed or fitted.abbreviated):
            raise FitError(f"deck '{info.name}': card back text '{text}' does not fit the "
                           "card; shorten it", ("deck", field))
    lines: list[str] = []
    if info.back_text:
        # Under the subtitle, above the inner frame.
        room = h0 * 0.5 - radius * 1.25 - 5 * MM - 11 - 3 * MM - (PAD + 2 * MM)
        lines = wrap(info.back_text, fonts.REGULAR, BACK_TEXT_SIZE, inner) or []
        if not lines or len(lines) * BACK_TEXT_SIZE * LEADING > room:
            raise FitError(f"deck '{info.name}': card back text '{info.back_text}' does not "
                           "fit the card; shorten it", ("deck", "back_text"))
    ground = HexColor(info.colour)

    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        c.setFillColor(ground)
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        c.setStrokeColor(PAPER)
        c.setLineWidth(0.8)
        c.rect(PAD, PAD, w - 2 * PAD, h - 2 * PAD, stroke=1, fill=0)
        c.setLineWidth(0.4)
        c.rect(PAD + 1 * MM, PAD + 1 * MM, w - 2 * PAD - 2 * MM, h - 2 * PAD - 2 * MM,
               stroke=1, fill=0)
        # A compass rose: symmetric, so a back printed a little off still looks right.
        cx, cy, r = w / 2, h * 0.5, radius
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
        below = h * 0.5 - r * 1.25 - 5 * MM
        if subtitle is not None:
            subtitle.draw(c, w / 2, below - subtitle.size * 0.7, "center")
        y = below - 11 - 3 * MM
        c.setFont(fonts.REGULAR, BACK_TEXT_SIZE)
        for line in lines:
            c.drawCentredString(w / 2, y, line)
            y -= BACK_TEXT_SIZE * LEADING

    return art


CARD_SIZES: dict[str, tuple[str, str]] = {
    "poker": ("2.5in", "3.5in"),  # 63.5 x 88.9 mm
    "mini": ("44mm", "63mm"),
    "tarot": ("70mm", "120mm"),
}
"""The standard card sizes a user may print a deck at (``--card-size``): width, height."""


def sized(deck: D, size: str) -> D:
    """``deck`` printed at one of the ``CARD_SIZES``.

    Its text is set again at that size when its pieces are made: a text that does not
    fit is a fit error naming the card.
    """
    width, height = CARD_SIZES[size]
    info = deck.deck.model_copy(update={"card_width": width, "card_height": height})
    return deck.model_copy(update={"deck": info})


def card_pieces(deck: Deck, *, prefix: str = "card", group: str = "card",
                tables: Mapping[str, Value] | None = None, tag: TagRule | None = None,
                noun: str = "card") -> list[Piece]:
    """One piece per distinct card of the deck, with its quantity and the shared back.

    Args:
        deck: The deck.
        prefix: Start of every piece id (``event`` gives ``event.dud-shells``).
        group: The sprue group the cards go in.
        tables: Values the templates may print besides the cards' own.
        tag: Which tag, if any, each card carries.
        noun: How messages name a card.

    Returns:
        The cards in deck order, at the deck's card size.

    Raises:
        RenderError: A card's text, a title or the back's text cannot fit (the message
            names the card), or a template names an unknown value.

    """
    back = card_back(deck.deck)
    pieces: list[Piece] = []
    for card in deck.cards:
        try:
            front = card_front(card, deck.deck, tables, tag, noun)
        except TemplateError as exc:
            raise RenderError(f"{noun} '{card.id}': {exc.message}") from None
        pieces.append(Piece(f"{prefix}.{card.id}", card.title, deck.deck.width,
                            deck.deck.height, front, back, card.quantity, group,
                            deck=deck.deck.name))
    return pieces


# -- loading ----------------------------------------------------------------------------


def check_deck(deck: Deck, doc: SourceDoc, tables: Mapping[str, Value] | None = None,
               tag: TagRule | None = None) -> list[Problem]:
    """Everything about a valid deck that only setting its cards can tell, located.

    Args:
        deck: The validated deck.
        doc: Its source document (for positions).
        tables: Values the templates may print besides the cards' own.
        tag: The ruleset's tag rule (a tag takes room at the foot of a face).

    Returns:
        One problem per template naming an unknown value, text that does not fit, or
        a back whose text does not fit.

    """
    problems: list[Problem] = []
    try:
        card_back(deck.deck)
    except FitError as exc:
        problems.append(doc.problem(exc.field, _fit_message(deck.deck, exc.field, deck)))
    for index, card in enumerate(deck.cards):
        names = card_names(card, tables)
        broken = False
        for field in ("timing", "effect"):
            template = getattr(card, field)
            if template is None:
                continue
            try:
                fill(template, names)
            except TemplateError as exc:
                problems.append(doc.problem(("cards", index, field), exc.message))
                broken = True
        if broken:
            continue
        try:
            card_front(card, deck.deck, tables, tag)
        except FitError as exc:
            loc: Loc = ("cards", index, *exc.field)
            problems.append(doc.problem(loc, _fit_message(deck.deck, exc.field, card)))
    return problems


def _fit_message(info: DeckInfo, field: Loc, owner: BaseCard | Deck) -> str:
    size = f"a {info.card_width} x {info.card_height} card"
    if isinstance(owner, BaseCard):
        if field == ("title",):
            return (f"found {describe(owner.title)}, expected a title that fits the title "
                    f"band of {size} at {TITLE_FLOOR:g} pt or more")
        what = "a timing and effect that fit" if owner.timing else "an effect that fits"
        return (f"found {describe(owner.effect)}, expected {what} "
                f"{size} at {TEXT_FLOOR:g} pt or more; shorten it")
    text = getattr(info, str(field[-1]))
    return f"found {describe(text)}, expected text that fits the back of {size}"


def load_deck(path: Path, model: type[D] = Deck,  # type: ignore[assignment]
              tables: Mapping[str, Value] | None = None, tag: TagRule | None = None,
              display: str | None = None) -> D:
    """Load a deck file, validate it and check that every card can be set.

    Args:
        path: The deck's YAML file.
        model: The deck model (a ruleset's subclass of ``Deck`` for its own limits).
        tables: Values the cards' templates may print besides their own.
        tag: The ruleset's tag rule, if its cards carry tags.
        display: How to name the file in messages (defaults to the path).

    Returns:
        The validated deck.

    Raises:
        DataError: With every problem in the file, each located by line and column.

    """
    return load_model(model, path, display,
                      check=lambda deck, doc: check_deck(deck, doc, tables, tag))
