"""The Surface Action event deck: the bundled deck, located errors, and own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.core.errors import DataError
from generator.rulesets.surface_action.events import (
    DECK_PATH,
    Card,
    Deck,
    deck_cards,
    load_deck,
)
from tests.paths import ROOT

RULES = ROOT.parent / "shared" / "rules" / "surface-action.txt"

HEADER = """\
deck:
  name: Test deck
  back_title: SURFACE ACTION
  back_subtitle: Event
  note: A deck for the tests.
cards:
"""


def write(tmp_path: Path, cards: str) -> Path:
    path = tmp_path / "events.yaml"
    path.write_text(HEADER + cards, encoding="utf-8")
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_deck(path)
    return [str(p) for p in caught.value.problems]


def test_bundled_deck_loads() -> None:
    deck = load_deck()
    assert isinstance(deck, Deck)
    assert deck == load_deck(DECK_PATH)
    assert deck.deck.name == "Surface Action event deck"
    assert deck.deck.back_title == "SURFACE ACTION"
    assert deck.deck.back_subtitle == "Event"


def test_bundled_deck_size() -> None:
    deck = load_deck()
    pairs = deck_cards(deck)
    assert len(pairs) == len(deck.cards) >= 24
    assert len({card.id for card, _ in pairs}) == len(pairs)
    assert len({card.title for card, _ in pairs}) == len(pairs)
    total = sum(quantity for _, quantity in pairs)
    assert total == deck.total() == sum(card.quantity for card in deck.cards)
    assert 36 <= total <= 44
    assert all(1 <= quantity <= 3 for _, quantity in pairs)


def test_time_of_day_filter() -> None:
    deck = load_deck()
    night = deck_cards(deck, "night")
    day = deck_cards(deck, "day")
    assert all(not card.day for card, _ in night)
    assert all(not card.night for card, _ in day)
    assert any(card.night for card in deck.cards) and any(card.day for card in deck.cards)
    both = [card for card in deck.cards if not card.night and not card.day]
    assert len(night) + len(day) == len(deck.cards) + len(both)


def test_bundled_cards_fit_the_face() -> None:
    for card in load_deck().cards:
        assert len(card.title) <= 22, card.id
        assert len(card.effect.split()) <= 45, card.id
        assert card.timing.endswith("."), card.id
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", card.id), card.id


def test_bad_card_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, """\
  - id: dud-shells
    title: A title that is much too long
    timing: Gunfire Combat phase.
    effect: Cancel one effective hit.
    quantity: 4
  - id: Near_Miss
    title: Near Miss
    timing: Damage Resolution phase.
    effect: Reroll one damage die.
    quantity: 1
    colour: red
""")
    shown = str(path)
    assert problems(path) == [
        f"{shown}:8:12: cards.0.title: found 'A title that is much too long', expected a "
        "title of at most 22 characters (it has 29)",
        f"{shown}:11:15: cards.0.quantity: found 4, expected a quantity from 1 to 3",
        f"{shown}:12:9: cards.1.id: found 'Near_Miss', expected text matching "
        "^[a-z0-9]+(?:-[a-z0-9]+)*$",
        f"{shown}:17:5: cards.1.colour: found unknown key 'colour', expected one of id, title, "
        "timing, effect, quantity, night, day",
    ]


def test_long_effect_and_repeated_id(tmp_path: Path) -> None:
    long_effect = " ".join(["word"] * 46)
    path = write(tmp_path, f"""\
  - id: lucky-hit
    title: Lucky Hit
    timing: Damage Resolution phase.
    effect: {long_effect}
    quantity: 1
""")
    assert problems(path) == [
        f"{path}:10:13: cards.0.effect: found 'word word word word word word word wo...', "
        "expected an effect of at most 45 words (it has 46)",
    ]
    path = write(tmp_path, """\
  - id: lucky-hit
    title: Lucky Hit
    timing: Damage Resolution phase.
    effect: Raise or lower one damage die by 1.
    quantity: 1
  - id: lucky-hit
    title: Lucky Hit Again
    timing: Damage Resolution phase.
    effect: Raise or lower one damage die by 1.
    quantity: 2
""")
    assert problems(path) == [
        f"{path}:7:3: cards: found a list, expected each card id once (repeated: lucky-hit)",
    ]


def test_night_and_day_together_refused() -> None:
    with pytest.raises(ValueError, match="at most one of 'night' and 'day'"):
        Card(id="x", title="X", timing="Any phase.", effect="Nothing.", quantity=1,
             night=True, day=True)


WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
RUN = 12


def _words(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def test_deck_text_is_in_own_words() -> None:
    if not RULES.is_file():
        pytest.skip("rule text not available")
    rule_words = _words(RULES.read_text(encoding="utf-8", errors="ignore"))
    runs = {" ".join(rule_words[i:i + RUN]) for i in range(len(rule_words) - RUN + 1)}
    deck = load_deck()
    texts = [deck.deck.note] + [f"{c.title} {c.timing} {c.effect}" for c in deck.cards]
    for text in texts:
        words = _words(text)
        for i in range(len(words) - RUN + 1):
            assert " ".join(words[i:i + RUN]) not in runs, text
