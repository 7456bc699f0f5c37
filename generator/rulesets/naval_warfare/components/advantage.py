"""The Advantage Card deck: the default deck, each team's dealt hand, the deal list.

The deck is a ``generator.pieces.decks`` file (``decks/advantage.yaml``). Each team is dealt
its allotment from the shuffled deck (seeded, so a kit prints the same hands again);
a team's packet holds its own hand only, and game control's holds the deal list.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.safetext import markup
from generator.kit.seam import Context, Rendered, sheet_component
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pieces import decks
from generator.pieces.cardtext import fill
from generator.pieces.sprue import user_or_bundled
from generator.rulesets.naval_warfare.registry import COMPONENTS

if TYPE_CHECKING:
    from generator.rulesets.naval_warfare import Derived

FOLDER = Path(__file__).parent.parent
DECK_FILE = FOLDER / "decks" / "advantage.yaml"


@functools.lru_cache(maxsize=1)
def load_advantage_deck() -> decks.Deck:
    """The default Advantage Card deck (located DataError when malformed)."""
    return decks.load_deck(DECK_FILE, display="naval_warfare/decks/advantage.yaml")


def hand(d: Derived, team: str) -> decks.Deck:
    """The cards dealt to one team, as a deck of its own (quantities counted)."""
    deck = load_advantage_deck()
    counts = Counter(d.deal.get(team, []))
    cards = [c.model_copy(update={"quantity": counts[c.id]}) for c in deck.cards
             if counts[c.id]]
    return deck.model_copy(update={"cards": cards})


@COMPONENTS("advantage-cards")
def advantage_cards(ctx: Context[Derived], team: str | None) -> Component | Rendered:
    """A team's dealt Advantage Cards on card sheets, or game control's deal list."""
    from generator.rulesets.naval_warfare import CONTROL

    d: Derived = ctx.data
    if team is None or team == CONTROL:
        return deal_list(d, ctx)
    name = d.teams[team].name
    dealt = hand(d, team)
    sprue = user_or_bundled(None, FOLDER / "sprues" / "cards.yaml",
                            "naval_warfare/sprues/cards.yaml")
    if not dealt.cards:
        doc = CanvasDoc(ctx.paper, f"Advantage Cards: {name}", d.foot)
        doc.paragraph(markup("{name} holds no Advantage Cards.", name=name), "body")
        pdf, pages = doc.finish()
        return Component(f"advantage-cards:{team}", f"Advantage Cards: {name}",
                         f"{team.upper()}-Cards-", pdf, pages)
    pieces = decks.card_pieces(decks.sized(dealt, ctx.options.sheets.card_size),
                               prefix=f"advantage.{team}", group="advantage")
    return sheet_component(ctx, pieces, sprue, f"advantage-cards:{team}",
                           f"Advantage Cards: {name}", f"{team.upper()}-Cards-",
                           f"{d.foot} · {name}")


def deal_list(d: Derived, ctx: Context[Derived]) -> Component:
    """Game control's record: which cards each team was dealt, and what is left."""
    deck = load_advantage_deck()
    titles = {c.id: fill(c.title, decks.card_names(c)) for c in deck.cards}
    doc = CanvasDoc(ctx.paper, "Advantage Cards: the deal", f"{d.foot} · game control")
    width = doc.box.width
    rows = []
    for team in d.teams.values():
        counts = Counter(d.deal.get(team.id, []))
        rows.append([team.name, str(team.advantage_cards),
                     ", ".join(f"{counts[c]} x {titles[c]}" for c in titles if counts[c])
                     or "none"])
    dealt = Counter(c for cards in d.deal.values() for c in cards)
    rows.append(["Not dealt", str(deck.total() - sum(dealt.values())),
                 ", ".join(f"{c.quantity - dealt[c.id]} x {titles[c.id]}" for c in deck.cards
                           if c.quantity - dealt[c.id]) or "none"])
    doc.section("Advantage Cards: the deal",
                "Dealt from the shuffled default deck (the same seed deals the same hands).",
                Grid([width * 0.28, width * 0.12, width * 0.6],
                     [["Team", "Cards", "Hand"]], rows, aligned(1, 2) + ["left"],
                     wrap=frozenset({2})))
    pdf, pages = doc.finish()
    return Component("advantage-cards:control", "Advantage Cards: the deal", "GC-Cards-", pdf,
                     pages, doc.bookmarks)
