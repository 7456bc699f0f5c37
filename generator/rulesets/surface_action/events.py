"""Surface Action event cards: the shared deck format with the game's own limits.

The rules say event cards carry their own timing and effect but print none, so
quarterdeck bundles a default deck (``tables/events.yaml``) in the shared deck format
(``generator.pieces.decks``). A Surface Action card must say when it is played, and may be
marked for night or day scenarios only.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

from pydantic import Field, model_validator
from reportlab.lib.colors import HexColor, white

from generator.pieces import decks

DECK_PATH = Path(__file__).parent / "tables" / "events.yaml"
"""The bundled default deck."""

TITLE_MAX = 22
"""Longest title (characters) that fits the card's title band."""

EFFECT_MAX_WORDS = 45
"""Longest effect text (words separated by spaces) that fits the card face."""

QUANTITY_MIN = 1
QUANTITY_MAX = 3


class Card(decks.BaseCard):
    """One distinct event card; ``quantity`` copies of it go into the deck."""

    title_max: ClassVar[int] = TITLE_MAX
    effect_words: ClassVar[int | None] = EFFECT_MAX_WORDS
    quantity_min: ClassVar[int] = QUANTITY_MIN
    quantity_max: ClassVar[int] = QUANTITY_MAX

    timing: str = Field(
        min_length=1,
        description="When the card is played: the phase and the moment, in one short sentence.")
    night: bool = Field(False, description="Only playable in night scenarios.")
    day: bool = Field(False, description="Only playable in day scenarios.")

    @model_validator(mode="after")
    def _one_time_of_day(self) -> Card:
        if self.night and self.day:
            raise ValueError("expected at most one of 'night' and 'day'")
        return self


NIGHT = decks.Tag("night only", HexColor("#1d2f4a"), white)
DAY = decks.Tag("day only", HexColor("#f2c744"), HexColor("#1a1a1a"))


def time_tag(card: decks.BaseCard) -> decks.Tag | None:
    """The time-of-day tag a card carries at the foot of its face, if any."""
    if isinstance(card, Card) and card.night:
        return NIGHT
    if isinstance(card, Card) and card.day:
        return DAY
    return None


class Deck(decks.Deck):
    """An event deck file: the header mapping, then the list of distinct cards."""

    cards: list[Card] = Field(  # type: ignore[assignment]
        min_length=1,
        description="The distinct cards, each with its quantity.")


def load_deck(path: Path | None = None) -> Deck:
    """Load and validate an event deck, checking that every card can be printed.

    Args:
        path: The deck file; defaults to the bundled ``tables/events.yaml``.

    Returns:
        The validated deck.

    Raises:
        DataError: With every problem in the file, each located by line and column.

    """
    return decks.load_deck(DECK_PATH if path is None else path, Deck, tag=time_tag)


def deck_cards(deck: Deck, time: Literal["day", "night"] | None = None) -> list[tuple[Card, int]]:
    """The deck's distinct cards paired with their number of copies, in file order.

    Args:
        deck: A loaded deck.
        time: If given, leave out cards that only work at the other time of day.

    Returns:
        ``(card, quantity)`` for each card kept.

    """
    kept = [card for card in deck.cards
            if time is None or not (card.night and time == "day" or card.day and time == "night")]
    return [(card, card.quantity) for card in kept]
