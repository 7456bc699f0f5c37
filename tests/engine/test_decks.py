"""The shared card deck: templates filled from values and tables, quantities, backs, errors."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.core.errors import DataError, RenderError
from generator.core.units import MM
from generator.pieces.cardtext import TemplateError, Value, fill
from generator.pieces.decks import Deck, card_pieces, load_deck
from generator.pieces.imposition import Options, impose
from generator.pieces.sprue import load_sprue

TOL = 0.01 * MM

HEADER = """\
deck:
  name: Convoy deck
  card_width: 2.5in
  card_height: 3.5in
  colour: "#2a4d3a"
  back_title: CONVOY
  back_subtitle: Orders
  back_text: Shuffle before play.
cards:
"""

CARDS = """\
  - id: flank-speed
    title: Flank Speed
    timing: Start of your {phase}.
    effect: One ship moves {extra} extra {unit} this turn; {{braces}} stay.
    quantity: 3
    values:
      extra: 2.5
  - id: fog-bank
    title: Fog Bank
    effect: Sighting ranges drop to {sight} {unit} until the next turn.
    quantity: 1
"""

TABLES = {"phase": "movement phase", "unit": "inches", "sight": 6}

SPRUE = """\
kind: sprue
id: test-cards
title: Test cards
margin: 7mm
gutter: 3mm
regions:
  - title: Cards
    groups: [order]
"""


def write(tmp_path: Path, cards: str, header: str = HEADER) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(header + cards, encoding="utf-8")
    return path


def problems(path: Path, tables: dict[str, Value] | None = None) -> list[str]:
    with pytest.raises(DataError) as caught:
        load_deck(path, tables=tables)
    return [str(p) for p in caught.value.problems]


def page_texts(pdf: bytes) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [" ".join(page.get_textpage().get_text_range().split()) for page in document]
    finally:
        document.close()


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Deck, list[str]]:
    folder = tmp_path_factory.mktemp("deck")
    deck = load_deck(write(folder, CARDS), tables=TABLES)
    sprue_path = folder / "sprue.yaml"
    sprue_path.write_text(SPRUE, encoding="utf-8")
    pieces = card_pieces(deck, prefix="order", group="order", tables=TABLES)
    imposed = impose(pieces, load_sprue(sprue_path), Options(), "Cards", "test")
    return deck, page_texts(imposed.pdf)


def test_templates_are_filled_from_values_and_tables(printed: tuple[Deck, list[str]]) -> None:
    _, pages = printed
    text = " ".join(pages)
    assert "When: Start of your movement phase." in text
    assert "One ship moves 2.5 extra inches this turn; {braces} stay." in text
    assert "Sighting ranges drop to 6 inches until the next turn." in text
    assert "{phase}" not in text and "{extra}" not in text


def test_each_card_is_printed_as_often_as_its_quantity(printed: tuple[Deck, list[str]]) -> None:
    deck, pages = printed
    text = " ".join(pages)
    assert deck.total() == 4
    assert Counter({"Flank Speed": text.count("Flank Speed"),
                    "Fog Bank": text.count("Fog Bank")}) == Counter(
        {"Flank Speed": 3, "Fog Bank": 1})
    # one back per copy: title, subtitle and the back's own text
    assert text.count("CONVOY") == text.count("Orders") == 4
    assert text.count("Shuffle before play.") == 4


def test_backs_follow_their_fronts(printed: tuple[Deck, list[str]]) -> None:
    _, pages = printed
    assert len(pages) == 2
    assert "Flank Speed" in pages[0] and "CONVOY" not in pages[0]
    assert "CONVOY" in pages[1] and "Flank Speed" not in pages[1]


def test_card_size_comes_from_the_unit_strings(printed: tuple[Deck, list[str]]) -> None:
    deck, _ = printed
    pieces = card_pieces(deck, prefix="order", group="order", tables=TABLES)
    assert [(p.id, p.quantity, p.group) for p in pieces] == [
        ("order.flank-speed", 3, "order"), ("order.fog-bank", 1, "order")]
    for piece in pieces:
        assert abs(piece.width - 63.5 * MM) <= TOL and abs(piece.height - 88.9 * MM) <= TOL
        assert piece.back is pieces[0].back  # one back for the whole deck


def test_fill_is_a_name_lookup_and_nothing_more() -> None:
    assert fill("{a} and {{a}} and {b}", {"a": 1, "b": 0.25}) == "1 and {a} and 0.25"
    for template, message in (
        ("{a.__class__}", "found unknown placeholder '{a.__class__}', expected one of a"),
        ("{a:>9}", "found unknown placeholder '{a:>9}', expected one of a"),
        ("{A}", "found unknown placeholder '{A}', expected one of a; did you mean 'a'?"),
        ("one } brace", "found a single '}', expected {name} or a doubled '}}' for a brace"),
    ):
        with pytest.raises(TemplateError) as caught:
            fill(template, {"a": 1})
        assert caught.value.message == message


def test_unknown_placeholder_is_located_with_a_hint(tmp_path: Path) -> None:
    path = write(tmp_path, """\
  - id: fog-bank
    title: Fog Bank
    timing: Start of the {phse}.
    effect: Sighting ranges drop to {sight} {units}.
    quantity: 1
""")
    assert problems(path, TABLES) == [
        f"{path}:12:13: cards.0.timing: found unknown placeholder '{{phse}}', expected one "
        "of phase, quantity, sight, title, unit; did you mean 'phase'?",
        f"{path}:13:13: cards.0.effect: found unknown placeholder '{{units}}', expected one "
        "of phase, quantity, sight, title, unit; did you mean 'unit'?",
    ]


def test_text_too_long_for_the_card_is_located(tmp_path: Path) -> None:
    wordy = " ".join(["Each ship of the convoy rolls one die for its cargo."] * 12)
    path = write(tmp_path, f"""\
  - id: storm
    title: Storm
    effect: {wordy}
    quantity: 1
""", HEADER.replace("3.5in", "50mm").replace("  back_text: Shuffle before play.\n", ""))
    assert problems(path) == [
        f"{path}:11:13: cards.0.effect: found 'Each ship of the convoy rolls one die...', "
        "expected an effect that fits a 2.5in x 50mm card at 6.5 pt or more; shorten it",
    ]
    # the same words fit a taller card, set smaller than the preferred size
    path = write(tmp_path, f"""\
  - id: storm
    title: Storm
    effect: {wordy}
    quantity: 1
""")
    assert load_deck(path).cards[0].effect == wordy
    deck = Deck.model_validate({"deck": {"name": "D", "back_title": "B", "card_height": "50mm"},
                                "cards": [{"id": "storm", "title": "Storm", "effect": wordy,
                                           "quantity": 1}]})
    with pytest.raises(RenderError, match=r"^card 'storm' \(Storm\): its effect does not fit "
                                          r"a 63 x 50 mm card even at 6.5 pt"):
        card_pieces(deck)


def test_title_too_wide_for_the_band_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, """\
  - id: wide
    title: WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW
    timing: Any time.
    effect: Nothing.
    quantity: 1
""")
    assert problems(path) == [
        f"{path}:11:12: cards.0.title: found 'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW', expected a "
        "title that fits the title band of a 2.5in x 3.5in card at 9 pt or more",
    ]


def test_text_over_the_character_bound_is_refused_before_measuring(tmp_path: Path) -> None:
    path = write(tmp_path, f"""\
  - id: storm
    title: Storm
    timing: {"x" * 2001}
    effect: Nothing.
    quantity: 1
""")
    assert problems(path) == [
        f"{path}:12:13: cards.0.timing: found 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...', "
        "expected at most 2000 characters (it has 2001)",
    ]


def test_bad_quantity_size_colour_and_repeated_id(tmp_path: Path) -> None:
    header = HEADER.replace("2.5in", "2.5 furlongs").replace('"#2a4d3a"', "green")
    path = write(tmp_path, """\
  - id: fog-bank
    title: Fog Bank
    effect: Nothing happens.
    quantity: 0
  - id: fog-bank
    title: Fog Bank again
    effect: Nothing happens.
    quantity: 61
""", header)
    assert problems(path) == [
        f"{path}:3:15: deck.card_width: found '2.5 furlongs', expected a length such as "
        "'63mm' or '2.5in'",
        f"{path}:5:11: deck.colour: found 'green', expected text matching ^#[0-9A-Fa-f]{{6}}$",
        f"{path}:13:15: cards.0.quantity: found 0, expected a quantity from 1 to 60",
        f"{path}:17:15: cards.1.quantity: found 61, expected a quantity from 1 to 60",
    ]
    path = write(tmp_path, """\
  - id: fog-bank
    title: Fog Bank
    effect: Nothing happens.
    quantity: 1
  - id: fog-bank
    title: Fog Bank again
    effect: Nothing happens.
    quantity: 2
""")
    assert problems(path) == [
        f"{path}:10:3: cards: found a list, expected each card id once (repeated: fog-bank)",
    ]


def test_card_side_out_of_range_and_back_text_too_long(tmp_path: Path) -> None:
    header = HEADER.replace("3.5in", "25mm").replace(
        "Shuffle before play.", " ".join(["Shuffle well."] * 20))
    path = write(tmp_path, CARDS, header)
    assert problems(path, TABLES) == [
        f"{path}:4:16: deck.card_height: found '25mm', expected a length from 30mm to 200mm",
    ]
    header = HEADER.replace("Shuffle before play.", " ".join(["Shuffle well."] * 20))
    path = write(tmp_path, CARDS, header)
    assert problems(path, TABLES) == [
        f"{path}:8:14: deck.back_text: found 'Shuffle well. Shuffle well. Shuffle w...', "
        "expected text that fits the back of a 2.5in x 3.5in card",
    ]


def test_long_header_text_says_how_long_it_may_be(tmp_path: Path) -> None:
    path = write(tmp_path, CARDS, HEADER.replace("back_title: CONVOY", "back_title: " + "C" * 41))
    assert problems(path, TABLES) == [
        f"{path}:6:15: deck.back_title: found 'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC...', "
        "expected text of at most 40 character(s)",
    ]


def test_values_are_bounded(tmp_path: Path) -> None:
    path = write(tmp_path, """\
  - id: fog-bank
    title: Fog Bank
    effect: Ranges drop to {sight}.
    quantity: 1
    values:
      sight: true
""")
    assert problems(path) == [
        f"{path}:15:7: cards.0.values: found a mapping, expected 'sight' to be a number or "
        "up to 200 characters of text",
    ]


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_card_size_prints_every_deck_at_that_size(size: str) -> None:
    """``--card-size``: Surface Action's event cards and Naval Warfare's advantage cards
    are cut to the standard size asked for, read back from the sheets to 0.01 mm."""
    from generator.core.units import MM, parse_length
    from generator.kit.pipeline import compose
    from generator.kit.seam import KitOptions, Request
    from generator.pieces.cardtext import FitError
    from generator.pieces.decks import CARD_SIZES
    from generator.pieces.imposition import Options
    from tests.pdftext import open_pages

    width, height = (parse_length(v) for v in CARD_SIZES[size])
    expected = {"poker": (63.5, 88.9), "mini": (44.0, 63.0), "tarot": (70.0, 120.0)}[size]
    assert (round(width / MM, 2), round(height / MM, 2)) == expected
    options = KitOptions(sheets=Options(card_size=size))  # type: ignore[arg-type]
    kit = compose(Request("markers", scenario="river-plate"), options=options, export=True)
    cards = [p for p in kit.pieces if p.group == "event"]
    assert cards and all((p.width, p.height) == (width, height) for p in cards)
    page = open_pages(kit.files["event-cards.pdf"], geometry=True, only=[0])[0]
    cut = [r for r in page.rects if abs(r["width"] - width) < 0.01 * MM
           and abs(r["height"] - height) < 0.01 * MM]
    assert cut, size  # the cut outline of each card on the first sheet
    if size == "mini":  # the advantage cards' back text needs more than 44 x 63 mm
        with pytest.raises(FitError, match="card back text .* does not fit the card"):
            compose(Request("kit", scenario="balance-1942"), options=options, export=True)
        return
    nw = compose(Request("kit", scenario="balance-1942"), options=options, export=True)
    advantage = [p for p in nw.pieces if p.group == "advantage"]
    assert advantage and all((p.width, p.height) == (width, height) for p in advantage)
