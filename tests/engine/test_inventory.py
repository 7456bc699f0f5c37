"""The kit inventory, pieces.json: the marker sheets' pieces, each side's, as data."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from generator.kit.inventory import PIECES_JSON
from generator.kit.pipeline import run
from generator.kit.seam import Request
from tests.builds import kit

KINDS = {"counter", "token", "card", "deck", "chart", "board", "die"}


def _markers(scenario: str) -> tuple[dict[str, object], Counter[str]]:
    """pieces.json of a scenario's markers, and the sheets' own count of copies per title."""
    made = kit(scenario, command="markers")
    printed: Counter[str] = Counter()
    for key, component in made.components.items():
        if key == "duplex-check":
            continue
        for sheet in component.inventory:
            printed.update(sheet)
    return json.loads(made.inventory), printed


def test_a_markers_build_writes_pieces_json_in_its_manifest(tmp_path: Path) -> None:
    result = run(Request("markers", scenario="river-plate"), out=tmp_path)
    manifest = json.loads(result.manifest.read_text())
    assert PIECES_JSON in [entry["file"] for entry in manifest["files"]]
    assert (result.folder / PIECES_JSON).read_bytes() == kit(
        "river-plate", command="markers").inventory


@pytest.mark.parametrize("scenario", ["komandorski", "river-plate", "balance-1942",
                                      "mediterranean-1940", "latakia-1973"])
def test_pieces_json_counts_what_the_marker_sheets_print(scenario: str) -> None:
    data, printed = _markers(scenario)
    listed: Counter[str] = Counter()
    for item in data["items"]:  # type: ignore[attr-defined]
        if item["kind"] in ("counter", "card"):
            listed[item["title"]] += item["copies"]
    assert listed == printed
    assert sum(printed.values()) > 0


def test_pieces_json_is_well_formed() -> None:
    data, _ = _markers("river-plate")
    assert data["format"] == 1 and data["scenario"] == "river-plate"
    assert data["ruleset"] == "surface-action"
    sides = {side["id"]: side["name"] for side in data["sides"]}
    assert list(sides.items()) == [("german", "Admiral Graf Spee"), ("british", "Force G")]
    items = data["items"]
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids))
    by_id = {item["id"]: item for item in items}
    for item in items:
        assert item["kind"] in KINDS
        assert item["side"] is None or item["side"] in sides
        assert item["copies"] >= 1
        if item["kind"] in ("counter", "token", "card"):
            assert item["width_mm"] > 0 and item["height_mm"] > 0
            assert item["faces"][0] == f"{item['id']}.png"
            assert item["faces"][1:] in ([], [f"{item['id']}.back.png"])
    # The event deck: one deck the table shares, poker size (63.5 x 88.9 mm), 43 cards.
    (deck,) = [item for item in items if item["kind"] == "deck"]
    assert deck["side"] is None and (deck["width_mm"], deck["height_mm"]) == (63.5, 88.9)
    assert deck["copies"] == sum(by_id[card]["copies"] for card in deck["cards"]) == 43
    # Torpedo markers belong to the side whose sheet prints them.
    assert by_id["torpedo.german.1"]["side"] == "german"
    # The dice: the rules roll two d6 and add them.
    (die,) = [item for item in items if item["kind"] == "die"]
    assert (die["title"], die["copies"], die["sides"]) == ("2d6", 2, 6)


def test_each_ships_markers_are_its_sides() -> None:
    data, _ = _markers("komandorski")
    by_id = {item["id"]: item for item in data["items"]}  # type: ignore[attr-defined]
    ships = [item for item in by_id.values() if item["group"] == "ship"]
    assert ships and all(item["side"] in ("american", "japanese") for item in ships)
    assert all(len(item["faces"]) == 2 for item in ships)


def test_a_build_writes_pieces_json_with_charts_and_the_board() -> None:
    data = json.loads(kit("balance-1942").inventory)
    kinds = Counter(item["kind"] for item in data["items"])
    assert kinds["board"] == 1 and kinds["chart"] == 2 and kinds["die"] == 1
    (board,) = [item for item in data["items"] if item["kind"] == "board"]
    assert board["id"] == "board.route-chart-control"
    assert board["pages"][0]["file"] == "game-control.pdf"
    # Each team is dealt its own hand of Advantage cards: one deck per team.
    decks = [item for item in data["items"] if item["kind"] == "deck"]
    assert {deck["side"] for deck in decks} == {side["id"] for side in data["sides"]}


def test_the_png_and_tts_exports_carry_the_inventory_naming_their_images(
        tmp_path: Path) -> None:
    from generator.kit.pipeline import build_markers

    build_markers("mediterranean-1940", out=tmp_path / "out", png=tmp_path / "png",
                  tts=tmp_path / "tts", dpi=72)
    data = json.loads((tmp_path / "png" / PIECES_JSON).read_text())
    assert (tmp_path / "tts" / PIECES_JSON).read_text() == json.dumps(
        data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    faces = [face for item in data["items"] if item["kind"] in ("counter", "card")
             for face in item["faces"]]
    assert faces and sorted(faces) == sorted(
        p.name for p in (tmp_path / "png").iterdir() if p.suffix == ".png")


def test_pieces_json_places_every_ship_where_the_set_up_puts_her() -> None:
    data, _ = _markers("river-plate")
    placed = {item["id"]: (item["kind"], item["at"], item["heading"], item["start_hidden"])
              for item in data["items"] if item["at"] is not None}  # type: ignore[attr-defined]
    # 1,000 yd to the inch on a 72 x 48 in table, mm from its top-left corner: Graf Spee
    # 36,000 yd east and 41,000 yd north is 36 in across and 7 in down; Achilles follows
    # Ajax (48,000 / 23,000 yd) 1,000 yd astern on a northerly course, 1 in further down.
    assert placed == {
        "token.german.admiral-graf-spee": ("token", [914.4, 177.8], 180.0, False),
        "token.british.exeter": ("token", [711.2, 635.0], 0.0, False),
        "token.british.ajax": ("token", [1219.2, 635.0], 0.0, False),
        "token.british.achilles": ("token", [1219.2, 660.4], 0.0, False)}
    assert (data["board"]["width"], data["board"]["height"]) == (182.88, 121.92)  # type: ignore[index]
    # NAVAL ACTION prints a marker per ship: her own marker carries her start, no token.
    komandorski, _ = _markers("komandorski")
    items = komandorski["items"]  # type: ignore[attr-defined]
    assert not [item for item in items if item["kind"] == "token"]
    ships = [item for item in items if item["group"] == "ship"]
    assert ships and all(item["at"] is not None for item in ships)
    assert all(item["at"] is None for item in items if item["group"] != "ship")

