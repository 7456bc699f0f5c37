"""Surface Action counters and event cards, imposed by the shared engine and read back."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.core.errors import DataError, RenderError
from generator.core.units import MM
from generator.pieces.imposition import CUT_GREY, ID_SIZE, Imposed, Options, impose, layout
from generator.pieces.pieces import Piece
from generator.pieces.sprue import Sprue, load_sprue
from generator.rulesets.surface_action.charts import load_charts
from generator.rulesets.surface_action.components.counters import (
    deal_numbers,
    reload_sets,
    side_counter_pieces,
    side_nation,
    turn_legend,
)
from generator.rulesets.surface_action.components.event_cards import (
    CARD_HEIGHT,
    CARD_WIDTH,
    TEXT_FLOOR,
    event_card_pieces,
)
from generator.rulesets.surface_action.countertables import COUNTERS_FILE, bundled_counters
from generator.rulesets.surface_action.derive import ShipView, ship_view
from generator.rulesets.surface_action.events import Deck, load_deck
from generator.rulesets.surface_action.schema import ShipClass, parse_torpedoes
from tests.paths import ROOT
from tests.pdftext import open_pages

SPRUES = ROOT / "generator/rulesets/surface_action/sprues"
TOL = 0.01 * MM
SIDE = "us"
SIDE_NAME = "Task Force 64"
DUMMIES, TORPEDO_DUMMIES, SEED = 3, 2, 11


def ship_class(cid: str, kind: str, ships: int, torpedoes: str | None = None,
               nation: str = "US") -> ShipClass:
    data = {
        "kind": "ship-class", "ruleset": "surface-action", "id": cid, "name": cid.title(),
        "nation": nation, "type": kind,
        "ships": [{"name": f"{cid.title()} {i + 1}", "commissioned": "1941-01-01"}
                  for i in range(ships)],
        "facts": {"length_ft": 500, "speed_kn": 33, "armament": "test guns"},
        "guns": [{"weapon": "5in", "factors": "2-4-2", "role": "main"}],
        "size": "3/3", "armor": 0, "fire_control": "regular", "damage_control": 3,
        "sources": ["test"],
    }
    if torpedoes:
        data["torpedoes"] = {"weapon": "21in", "factors": torpedoes}
    return ShipClass.model_validate(data)


def side_views() -> list[ShipView]:
    """Two destroyers with one reload each, a light cruiser without, two heavy cruisers
    without tubes, a carrier; one Australian among Americans."""
    charts = load_charts()
    classes = [ship_class("benson", "DD", 2, "4/4 (8)"), ship_class("leander", "CL", 1, "4",
                                                                      nation="AU"),
               ship_class("wichita", "CA", 2), ship_class("wasp", "CV", 1)]
    return [ship_view(c, s, None, None, SIDE, charts) for c in classes for s in c.ships]


# -- reading an imposed PDF back ---------------------------------------------------------


COLOUR_TOL = 0.6 / 255
"""pypdfium2 reports colours in 8 bits (the cut grey 0.55 comes back as 140/255)."""


def grey(colour: object) -> float:
    if isinstance(colour, (list, tuple)):
        return float(colour[0]) if len(colour) == 1 else -1.0
    return -1.0 if colour is None else float(colour)  # type: ignore[arg-type]


@dataclass
class Cell:
    """One placed copy: its id, page and cut box (points, top down, as pdfplumber gives them)."""

    id: str
    page: int
    box: tuple[float, float, float, float]  # x0, top, x1, bottom
    chars: list[dict]
    graphics: list[dict]

    @property
    def width(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]

    def flat(self) -> str:
        """All the text, rows in order, whitespace dropped (labels set apart have none)."""
        return "".join(self.text().replace(" / ", "").split())

    def text(self) -> str:
        rows: dict[int, list[dict]] = {}
        for ch in self.chars:
            rows.setdefault(round(ch["bottom"]), []).append(ch)
        return " / ".join("".join(c["text"] for c in sorted(row, key=lambda c: c["x0"]))
                          for _, row in sorted(rows.items()))


BACK_GROUND = 1.5 * MM
"""How far a back's ground may run past its trim: half the widest gutter, 3 mm."""


def _scale_bar(obj: dict) -> bool:
    """The footer's 50 mm scale bar (a filled rectangle, 1.2 mm tall)."""
    return (obj["object_type"] == "rect" and abs(obj["width"] - 50 * MM) < TOL
            and abs(obj["height"] - 1.2 * MM) < TOL)


def _inside(obj: dict, box: tuple[float, float, float, float], slack: float) -> bool:
    return (box[0] - slack <= obj["x0"] and obj["x1"] <= box[2] + slack
            and box[1] - slack <= obj["top"] and obj["bottom"] <= box[3] + slack)


def read_cells(pdf: bytes, tmp: Path) -> tuple[list[Cell], list[dict]]:
    """Every placed copy, found by its invisible id, with the glyphs and drawings in it;
    and everything drawn that lies in no cell (headings, footers)."""
    path = tmp / "read.pdf"
    path.write_bytes(pdf)
    cells: list[Cell] = []
    loose: list[dict] = []
    doc = open_pages(pdf, geometry=True)
    for number, page in enumerate(doc):
        cuts = [(r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects
                if not r["fill"] and abs(grey(r.get("stroking_color")) - CUT_GREY) < COLOUR_TOL]
        ids = [w for w in page.layout_words(by_size=True, x_tolerance=0.5)
               if abs(w["size"] - ID_SIZE) < 1e-6]
        found = []
        for word in ids:
            box = min(cuts, key=lambda c: abs(c[0] - word["x0"]) + abs(c[3] - word["bottom"]))
            assert abs(box[0] + 0.2 * MM - word["x0"]) < 0.3, word["text"]
            found.append(Cell(word["text"], number, box, [], []))
        drawn = [c for c in page.chars if c["size"] > ID_SIZE + 1e-6]
        shapes = [g for g in (*page.rects, *page.lines, *page.curves)
                  if g["fill"] or abs(grey(g.get("stroking_color")) - CUT_GREY) > COLOUR_TOL]
        for obj, into in [*((c, "chars") for c in drawn), *((g, "graphics") for g in shapes)]:
            cx, cy = (obj["x0"] + obj["x1"]) / 2, (obj["top"] + obj["bottom"]) / 2
            owner = [c for c in found if c.box[0] - 1 < cx < c.box[2] + 1
                     and c.box[1] - 1 < cy < c.box[3] + 1]
            if owner:
                getattr(owner[0], into).append(obj)
            else:
                loose.append(obj)
        cells.extend(found)
    return cells, loose


def fronts(cells: list[Cell]) -> list[Cell]:
    return [c for c in cells if not c.id.endswith(".back")]


def backs(cells: list[Cell]) -> dict[str, Cell]:
    return {c.id.removesuffix(".back"): c for c in cells if c.id.endswith(".back")}


# -- fixtures ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def views() -> list[ShipView]:
    return side_views()


@pytest.fixture(scope="module")
def counter_pieces(views: list[ShipView]) -> list[Piece]:
    return side_counter_pieces(SIDE, SIDE_NAME, views, DUMMIES, TORPEDO_DUMMIES, SEED)


@pytest.fixture(scope="module")
def counters(counter_pieces: list[Piece],
             tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Cell], list[dict]]:
    imposed = impose(counter_pieces, load_sprue(SPRUES / "counters.yaml"), Options(),
                     "Counters", "test")
    return read_cells(imposed.pdf, tmp_path_factory.mktemp("counters"))


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck()


def impose_cards(deck: Deck, paper: str) -> Imposed:
    return impose(event_card_pieces(deck), load_sprue(SPRUES / "cards.yaml"),
                  Options(paper=paper), "Event cards", "test")  # type: ignore[arg-type]


@pytest.fixture(scope="module", params=["a4", "letter"])
def cards(request: pytest.FixtureRequest, deck: Deck,
          tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Cell], list[dict], Imposed]:
    imposed = impose_cards(deck, request.param)
    cells, loose = read_cells(imposed.pdf, tmp_path_factory.mktemp(f"cards-{request.param}"))
    return cells, loose, imposed


# -- counters ---------------------------------------------------------------------------


def test_counts_follow_the_tables(counters, views):
    cells, _ = counters
    counts = Counter(c.id for c in fronts(cells))
    t = bundled_counters()
    ships = len(views)
    armed = [v for v in views if v.torpedoes is not None]
    carriers = [v for v in views if v.carrier]
    assert (ships, len(armed), len(carriers)) == (6, 3, 1)
    # the brief's defaults, stated outright, then every letter from the tables
    assert counts["hit.us.p"] == 3 * ships
    assert counts["hit.us.t"] == 2 * len(armed)
    assert counts["hit.us.a"] == 2 * len(carriers)
    for letter, marker in t.hit_markers.items():
        eligible = {"torpedoes": len(armed), "carriers": len(carriers), None: ships}[marker.only]
        assert counts[f"hit.us.{letter.lower()}"] == marker.per_ship * eligible, letter
    assert counts["fire.us"] == t.fire.per_ship * ships == 2 * ships
    for number in range(1, 7):
        assert counts[f"turn.us.{number}"] == ships
    assert sum(n for i, n in counts.items() if i.startswith("turn.")) == 6 * ships
    blanks = [i for i in counts if i.startswith("blank.")]
    assert len(blanks) == ships + DUMMIES
    # three ships with tubes, the two destroyers with one full reload each, two dummies
    torpedoes = [i for i in counts if i.startswith("torpedo.")]
    assert len(torpedoes) == 3 + 2 + TORPEDO_DUMMIES
    assert all(counts[i] == 1 for i in blanks + torpedoes)


def test_a_side_without_tubes_or_carriers_gets_no_t_a_or_torpedo_markers():
    charts = load_charts()
    cls = ship_class("wichita", "CA", 2)
    views = [ship_view(cls, s, None, None, "jp", charts) for s in cls.ships]
    ids = {p.id for p in side_counter_pieces("jp", "Raiders", views, 0, 0, 1)}
    assert not {"hit.jp.t", "hit.jp.a"} & ids
    assert not [i for i in ids if i.startswith("torpedo.")]
    assert {"blank.jp.1", "blank.jp.2"} <= ids and "blank.jp.3" not in ids


@pytest.mark.parametrize("kind, size_mm", [("blank", 20), ("torpedo", 20), ("turn", 15),
                                           ("hit", 15), ("fire", 15)])
def test_counters_measure_exactly_their_size(counters, kind, size_mm):
    cells, _ = counters
    mine = [c for c in cells if c.id.split(".")[0] == kind]
    assert mine
    for cell in mine:
        assert abs(cell.width - size_mm * MM) <= TOL, cell.id
        assert abs(cell.height - size_mm * MM) <= TOL, cell.id


def _signature(cell: Cell) -> tuple[list[tuple], list[tuple], str]:  # type: ignore[type-arg]
    """What the face shows apart from its number: every glyph's style and place, every
    drawing; and the number itself."""
    x0, top = cell.box[0], cell.box[1]
    style = []
    for c in cell.chars:
        digit = c["text"].isdigit()
        # Digits differ by design (and in width), so only their style is compared.
        style.append(("#" if digit else c["text"], c["fontname"], round(c["size"], 2),
                      tuple(c["non_stroking_color"] or ()), round(c["top"] - top, 2),
                      None if digit else round(c["x0"] - x0, 2)))
    style.sort(key=repr)
    shapes = sorted((g["object_type"], round(g["x0"] - x0, 2), round(g["top"] - top, 2),
                     round(g["width"], 2), round(g["height"], 2),
                     tuple(g.get("non_stroking_color") or ())) for g in cell.graphics)
    number = "".join(c["text"] for c in sorted(cell.chars, key=lambda c: c["x0"])
                     if c["text"].isdigit() and c["size"] > 10)
    return style, shapes, number


@pytest.mark.parametrize("kind, real_back, dummy_back, dummies", [
    ("blank", "Formation", "Dummy", DUMMIES), ("torpedo", "Torpedoes", "Dummy", TORPEDO_DUMMIES)])
def test_real_and_dummy_fronts_are_identical_and_only_backs_differ(
        counters, kind, real_back, dummy_back, dummies):
    cells, _ = counters
    faces = [c for c in fronts(cells) if c.id.startswith(f"{kind}.")]
    back_of = backs(cells)
    first_style, first_shapes, _ = _signature(faces[0])
    assert SIDE_NAME in faces[0].text()
    numbers = []
    for face in faces:
        style, shapes, number = _signature(face)
        assert (style, shapes) == (first_style, first_shapes), face.id
        assert re.fullmatch(rf"{kind}\.{SIDE}\.\d+", face.id)  # the id gives nothing away
        assert number == face.id.rsplit(".", 1)[1]
        numbers.append(int(number))
    assert sorted(numbers) == list(range(1, len(faces) + 1))
    said = {face.id: back_of[face.id].text() for face in faces}
    fakes = [i for i, text in said.items() if text.startswith(dummy_back)]
    reals = [i for i, text in said.items() if text.startswith(real_back)]
    assert len(fakes) == dummies and len(reals) == len(faces) - dummies
    for i in fakes + reals:
        assert i.rsplit(".", 1)[1] in said[i]  # the back repeats the front's number
    assert len({back_of[i].text() for i in reals}) == len(reals)  # numbers differ, words match


def back_words(seed: int, tmp: Path) -> dict[str, str]:
    """What each formation blank's back says, for a side dealt with ``seed``."""
    pieces = [p for p in side_counter_pieces(SIDE, SIDE_NAME, side_views(), DUMMIES,
                                             TORPEDO_DUMMIES, seed) if p.group == "blank"]
    imposed = impose(pieces, load_sprue(SPRUES / "counters.yaml"), Options(), "t", "t")
    cells, _ = read_cells(imposed.pdf, tmp)
    return {i: cell.text().split(" / ")[0] for i, cell in backs(cells).items()}


def test_numbers_are_dealt_at_random_and_reproducibly(tmp_path):
    deals = [deal_numbers(5, 3, random.Random(seed)) for seed in range(20)]
    for deal in deals:
        assert sorted(deal) == list(range(1, 9))
        assert sum(deal.values()) == 5
    dummy_sets = {frozenset(n for n, real in deal.items() if not real) for deal in deals}
    assert len(dummy_sets) > 5  # not the highest numbers, nor any other fixed ones
    # the side's seed is what deals: the same seed prints the same backs, others differ
    first = back_words(SEED, tmp_path)
    assert back_words(SEED, tmp_path) == first
    assert Counter(first.values()) == {"Formation": 6, "Dummy": DUMMIES}
    assert any(back_words(seed, tmp_path) != first for seed in (1, 2, 3))


def test_turn_hit_and_fire_faces_say_what_they_mean(counters):
    cells, _ = counters
    text = {c.id: c.text() for c in fronts(cells)}
    assert text["turn.us.3"] == "3 / 61-90°"
    assert text["turn.us.1"] == "1 / 1-30°" and text["turn.us.6"] == "6 / 151-180°"
    assert text["hit.us.p"] == "P / speed ½"
    for letter, marker in bundled_counters().hit_markers.items():
        assert text[f"hit.us.{letter.lower()}"] == f"{letter} / {marker.meaning}"
    assert text["fire.us"].startswith("FIRE")
    cell = next(c for c in cells if c.id == "hit.us.p")
    big = max(cell.chars, key=lambda c: c["size"])
    assert big["text"] == "P" and big["size"] >= 3 * min(c["size"] for c in cell.chars)


def test_nothing_on_a_counter_sheet_leaves_its_cell(counters):
    cells, loose = counters
    for cell in cells:
        # a back's ground runs half a gutter past its trim (clipped there): a back
        # printed a little off its front still reaches the cut
        slack = TOL + (BACK_GROUND if cell.id.endswith(".back") else 0.0)
        for obj in (*cell.chars, *cell.graphics):
            assert _inside(obj, cell.box, slack), (cell.id, obj.get("text"), obj["object_type"])
    # what lies in no cell is text: headings and the footer
    assert all(obj["object_type"] == "char" or _scale_bar(obj) for obj in loose)


def test_reload_sets_side_nation_and_legends(views):
    assert reload_sets(parse_torpedoes("8 (8)")) == 1
    assert reload_sets(parse_torpedoes("4/4 (8)")) == 1
    assert reload_sets(parse_torpedoes("8 (4)")) == 1
    assert reload_sets(parse_torpedoes("8 (16)")) == 2
    assert reload_sets(parse_torpedoes("8")) == 0 and reload_sets(None) == 0
    assert side_nation(views) == "US"  # five Americans and an Australian
    assert side_nation([views[2], views[0]]) == "AU"  # a tie goes to the first listed
    assert turn_legend(4, 30) == "91-120°"


def test_counter_tables_report_located_problems(tmp_path):
    text = COUNTERS_FILE.read_text(encoding="utf-8")
    bad = tmp_path / "counters.yaml"
    bad.write_text(text.replace("blank: 20mm x 20mm", "blank: 5mm x 20mm")
                   .replace("P: {per_ship: 3", "P: {per_ship: three"), encoding="utf-8")
    with pytest.raises(DataError) as err:
        bundled_counters(bad)
    messages = [str(p) for p in err.value.problems]
    assert any("sizes.blank: found '5mm x 20mm', expected each side from 8mm to 60mm" in m
               for m in messages), messages
    assert any("hit_markers.P.per_ship: found 'three', expected a whole number" in m
               for m in messages), messages
    assert all(re.match(rf"{re.escape(str(bad))}:\d+:\d+:", m) for m in messages)


def test_a_label_that_cannot_fit_is_printed_small_and_warned_about(views, tmp_path):
    text = COUNTERS_FILE.read_text(encoding="utf-8")
    mark = '{text: "{number}", x: 1mm, y: 1.58mm, width: 13mm'
    assert mark in text
    narrow = tmp_path / "counters.yaml"
    narrow.write_text(text.replace(mark, mark.replace("13mm", "0.5mm")), encoding="utf-8")
    warnings: list[str] = []
    pieces = side_counter_pieces(SIDE, SIDE_NAME, views, 0, 0, 1, bundled_counters(narrow),
                                 warnings)
    # never a crash, never an omission: the number is printed below the floor, warned
    first = next(p for p in pieces if p.id == "turn.us.1")
    assert first.warnings == ("piece turn.us.1: label '1' printed as '1' at 2.49 pt "
                              "(below 6 pt)",)
    assert [w for w in warnings if w.startswith("piece turn.")] == [
        w for n in range(1, 7) for w in next(p for p in pieces if p.id == f"turn.us.{n}").warnings]
    # the one other piece reported: the fire counter's note has no word to cut that would
    # bring it to 6 pt in 13 mm, so it prints whole a little smaller and says so
    assert [w for w in warnings if not w.startswith("piece turn.")] == [
        "piece fire.us: label 'seen +12 in at night' printed as 'seen +12 in at night' at "
        "5.34 pt (below 6 pt)"]
    assert [p.id for p in pieces if p.warnings and not p.id.startswith("turn.")] == ["fire.us"]


# -- event cards ------------------------------------------------------------------------


def test_every_card_is_printed_as_often_as_its_quantity(cards, deck):
    cells, _, _ = cards
    counts = Counter(c.id for c in fronts(cells))
    assert counts == Counter({f"event.{card.id}": card.quantity for card in deck.cards})
    assert sum(counts.values()) == deck.total()
    back_counts = Counter(c.id.removesuffix(".back") for c in cells if c.id.endswith(".back"))
    assert back_counts == counts  # every copy has its back behind it


def test_cards_are_poker_size_and_keep_everything_inside(cards):
    cells, loose, _ = cards
    for cell in cells:
        # poker size, 2.5 x 3.5 in = 63.5 x 88.9 mm
        assert abs(cell.width - 63.5 * MM) <= TOL and abs(cell.height - 88.9 * MM) <= TOL, cell.id
        # a back's ground runs half a gutter past its trim (clipped there): a back
        # printed a little off its front still reaches the cut
        slack = TOL + (BACK_GROUND if cell.id.endswith(".back") else 0.0)
        for obj in (*cell.chars, *cell.graphics):
            assert _inside(obj, cell.box, slack), (cell.id, obj.get("text"), obj["object_type"])
    assert all(obj["object_type"] == "char" or _scale_bar(obj) for obj in loose)


def test_card_faces_carry_title_timing_effect_and_tag(cards, deck):
    cells, _, _ = cards
    by_id = {c.id: c for c in fronts(cells)}
    for card in deck.cards:
        cell = by_id[f"event.{card.id}"]
        flat = cell.flat()
        compact = ["".join(text.split()) for text in (card.title, card.timing, card.effect)]
        assert flat.startswith(compact[0] + "When:" + compact[1]), card.id
        assert compact[2] in flat, card.id
        assert ("nightonly" in flat) == card.night and ("dayonly" in flat) == card.day
        when = [c for c in cell.chars if c["text"] == "W" and "Italic" in c["fontname"]]
        assert len(when) == 1, card.id  # "When:" is set in the italic
        body = [c for c in cell.chars if "Bold" not in c["fontname"]]
        assert min(c["size"] for c in body) >= TEXT_FLOOR - 1e-6
    back = backs(cells)[f"event.{deck.cards[0].id}"]
    assert back.text() == f"{deck.deck.back_title} / {deck.deck.back_subtitle}"
    assert len({b.text() for b in backs(cells).values()}) == 1  # one back for all


def test_cards_fill_a4_three_by_three(deck):
    sheets = layout(event_card_pieces(deck), load_sprue(SPRUES / "cards.yaml"),
                    Options(paper="a4"))
    per_page = [len(s.slots) for s in sheets if s.face == "front"]
    assert per_page[0] == 9 and sum(per_page) == deck.total()
    rows = sorted({round(s.y) for s in sheets[0].slots})
    columns = sorted({round(s.x) for s in sheets[0].slots})
    assert len(rows) == len(columns) == 3


@pytest.mark.xfail(strict=True, reason="the shared engine keeps a 6 mm heading and a 5 mm "
                   "footer inside the margins; 3 x 88 mm rows need 264 mm of the 279.4 mm "
                   "Letter page, which leaves too little. Passes once the engine can drop the "
                   "heading and set the footer in the margin.")
def test_cards_fill_letter_three_by_three(deck):
    sprue: Sprue = load_sprue(SPRUES / "cards.yaml").model_copy(update={"margin": 5 * MM,
                                                                         "gutter": 0.0})
    sheets = layout(event_card_pieces(deck), sprue, Options(paper="letter"))
    assert len(sheets[0].slots) == 9


def test_card_text_that_cannot_fit_is_an_error_naming_the_card(deck):
    long_timing = " ".join(["Gunfire Combat phase, after one of your batteries rolls"] * 30)
    data = deck.model_dump()
    data["cards"] = [{**data["cards"][0], "id": "wordy", "title": "Wordy",
                      "timing": long_timing}]
    with pytest.raises(RenderError, match=r"event card 'wordy' \(Wordy\).*6.5 pt"):
        event_card_pieces(Deck.model_validate(data))
    # a long but possible text is set smaller, not refused
    data["cards"][0]["timing"] = " ".join(["after one of your batteries rolls"] * 4)
    piece = event_card_pieces(Deck.model_validate(data))[0]
    assert (piece.width, piece.height) == (CARD_WIDTH, CARD_HEIGHT)
