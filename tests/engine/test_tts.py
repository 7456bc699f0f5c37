"""quarterdeck tts: a Tabletop Simulator saved object of the inventory's pieces, decks and dice."""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from generator.kit.tabletop import build_tts
from generator.kit.ttssave import DPI


@functools.cache
def saved(scenario: str, out: Path) -> tuple[dict[str, object], dict[str, object]]:
    build_tts(scenario, out=out)
    return (json.loads((out / f"{scenario}.json").read_text()),
            json.loads((out / "pieces.json").read_text()))


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tts")


def _file(url: str) -> Path:
    assert url.startswith("file:///")
    return Path(unquote(urlparse(url).path))


@pytest.mark.parametrize("scenario", ["river-plate", "balance-1942"])
def test_every_piece_is_a_tile_in_its_sides_bag(scenario: str, out: Path) -> None:
    save, inventory = saved(scenario, out / scenario)
    sides = {side["name"] for side in inventory["sides"]}  # type: ignore[attr-defined]
    want: Counter[str] = Counter()
    for item in inventory["items"]:  # type: ignore[attr-defined]
        if item["kind"] == "counter":
            want[item["id"]] += item["copies"]
    got: Counter[str] = Counter()
    for bag in save["ObjectStates"]:  # type: ignore[attr-defined]
        if bag["Name"] != "Bag":
            continue
        assert bag["Nickname"].removesuffix(" pieces") in sides | {"Table"}
        for tile in bag["ContainedObjects"]:
            got[tile["Description"]] += 1
            image = tile["CustomImage"]
            front, back = _file(image["ImageURL"]), _file(image["ImageSecondaryURL"])
            assert front.name == f"{tile['Description']}.png" and back.exists()
    assert got == want
    by_id = {i["id"]: i for i in inventory["items"]}  # type: ignore[attr-defined]
    for piece_id in list(got)[:20]:
        item = by_id[piece_id]
        with Image.open(out / scenario / f"{piece_id}.png") as image:
            assert image.size == (round(item["width_mm"] * DPI / 25.4),
                                  round(item["height_mm"] * DPI / 25.4))


def test_the_event_deck_is_one_custom_deck_of_every_card(out: Path) -> None:
    save, inventory = saved("river-plate", out / "river-plate")
    decks = [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]  # type: ignore[attr-defined]
    (deck,) = decks
    (listed,) = [i for i in inventory["items"] if i["kind"] == "deck"]  # type: ignore[attr-defined]
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == listed["copies"] == 43
    for number, sheet in deck["CustomDeck"].items():
        assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
        for url in (sheet["FaceURL"], sheet["BackURL"]):
            with Image.open(_file(url)) as image:
                assert max(image.size) <= 4096
                assert image.size[0] % sheet["NumWidth"] == 0
        slots = sheet["NumWidth"] * sheet["NumHeight"]
        assert all(0 <= card % 100 < slots - 1 for card in deck["DeckIDs"]
                   if card // 100 == int(number))


def test_the_dice_are_the_rules(out: Path) -> None:
    save, _ = saved("river-plate", out / "river-plate")
    dice = [o["Name"] for o in save["ObjectStates"] if o["Name"].startswith("Die_")]  # type: ignore[attr-defined]
    assert dice == ["Die_6", "Die_6"]  # two dice, added
