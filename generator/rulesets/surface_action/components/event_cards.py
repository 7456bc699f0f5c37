"""Surface Action event cards as pieces: 63.5 x 88.9 mm (poker size), one piece per card.

The shared deck renderer (``generator.pieces.decks``) sets the face: the title in a band, when
the card is played (after an italic "When:") and what it does, as large as the card
allows and never below 6.5 pt. Surface Action adds a tag for cards that only work at
night or by day.
"""

from __future__ import annotations

from generator.core.units import INCH
from generator.pieces import decks
from generator.pieces.cardtext import TEXT_FLOOR
from generator.pieces.pieces import Piece
from generator.rulesets.surface_action.events import time_tag

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "GROUP", "TEXT_FLOOR", "event_card_pieces"]

CARD_WIDTH = 2.5 * INCH  # poker size, 63.5 mm
CARD_HEIGHT = 3.5 * INCH  # 88.9 mm
GROUP = "event"


def event_card_pieces(deck: decks.Deck) -> list[Piece]:
    """One piece per distinct card of the deck, with its quantity and the shared back.

    Args:
        deck: The event deck.

    Returns:
        The cards in deck order, at the deck's size (63.5 x 88.9 mm), group ``event``.

    Raises:
        RenderError: A card's text cannot fit at 6.5 pt, or a title or the back's text
            cannot fit; the message names the card.

    """
    return decks.card_pieces(deck, prefix="event", group=GROUP, tag=time_tag,
                             noun="event card")
