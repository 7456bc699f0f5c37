"""Surface Action event cards: the deck's data model and its loader.

The rules say event cards carry their own timing and effect but print none, so
quarterdeck bundles a default deck (``tables/events.yaml``). A scenario or a
``--tables`` file may supply another deck in the same format.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from generator.datamodel import Strict, once
from generator.validation import load_model

DECK_PATH = Path(__file__).parent / "tables" / "events.yaml"
"""The bundled default deck."""

TITLE_MAX = 22
"""Longest title (characters) that fits the card's title band."""

EFFECT_MAX_WORDS = 45
"""Longest effect text (words separated by spaces) that fits the card face."""

QUANTITY_MIN = 1
QUANTITY_MAX = 3

CARD_ID = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"


class Card(Strict):
    """One distinct event card; ``quantity`` copies of it go into the deck."""

    id: str = Field(
        pattern=CARD_ID,
        description="Stable id, lowercase words joined by hyphens, e.g. 'dud-shells'.")
    title: str = Field(
        min_length=1,
        description=f"Title printed on the card, at most {TITLE_MAX} characters.")
    timing: str = Field(
        min_length=1,
        description="When the card is played: the phase and the moment, in one short sentence.")
    effect: str = Field(
        min_length=1,
        description=f"What the card does, in the game's terms, at most {EFFECT_MAX_WORDS} words.")
    quantity: int = Field(description=f"Copies in the deck, {QUANTITY_MIN} to {QUANTITY_MAX}.")
    night: bool = Field(False, description="Only playable in night scenarios.")
    day: bool = Field(False, description="Only playable in day scenarios.")

    @field_validator("title")
    @classmethod
    def _title_fits(cls, value: str) -> str:
        if len(value) > TITLE_MAX:
            raise ValueError(f"expected a title of at most {TITLE_MAX} characters "
                             f"(it has {len(value)})")
        return value

    @field_validator("effect")
    @classmethod
    def _effect_fits(cls, value: str) -> str:
        count = len(value.split())
        if count > EFFECT_MAX_WORDS:
            raise ValueError(f"expected an effect of at most {EFFECT_MAX_WORDS} words "
                             f"(it has {count})")
        return value

    @field_validator("quantity")
    @classmethod
    def _quantity_range(cls, value: int) -> int:
        if not QUANTITY_MIN <= value <= QUANTITY_MAX:
            raise ValueError(f"expected a quantity from {QUANTITY_MIN} to {QUANTITY_MAX}")
        return value

    @model_validator(mode="after")
    def _one_time_of_day(self) -> Card:
        if self.night and self.day:
            raise ValueError("expected at most one of 'night' and 'day'")
        return self


class DeckInfo(Strict):
    """The deck's header: its name, what the card backs say, and where it comes from."""

    name: str = Field(
        min_length=1,
        description="The deck's name, e.g. 'Surface Action event deck'.")
    back_title: str = Field(
        min_length=1,
        description="Large text on every card back, e.g. 'SURFACE ACTION'.")
    back_subtitle: str = Field(min_length=1, description="Smaller text under it, e.g. 'Event'.")
    note: str = Field(
        min_length=1,
        description="One sentence on where the deck comes from (printed with the deck).")


class Deck(Strict):
    """An event deck file: the header mapping, then the list of distinct cards."""

    deck: DeckInfo = Field(description="The deck's header.")
    cards: list[Card] = Field(
        min_length=1,
        description="The distinct cards, each with its quantity.")

    @field_validator("cards")
    @classmethod
    def _unique_ids(cls, cards: list[Card]) -> list[Card]:
        once([card.id for card in cards], "card id")
        return cards

    def total(self) -> int:
        """Number of physical cards in the deck (all quantities added)."""
        return sum(card.quantity for card in self.cards)


def load_deck(path: Path | None = None) -> Deck:
    """Load and validate an event deck.

    Args:
        path: The deck file; defaults to the bundled ``tables/events.yaml``.

    Returns:
        The validated deck.

    Raises:
        DataError: With every problem in the file, each located by line and column.

    """
    return load_model(Deck, DECK_PATH if path is None else path)


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
