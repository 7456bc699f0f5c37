"""quarterdeck tts: a Tabletop Simulator saved object of the inventory's pieces, decks and dice."""

from __future__ import annotations

import functools
import json
import re
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


def test_the_scenarios_ships_start_on_the_table_where_the_set_up_puts_them(out: Path) -> None:
    save, inventory = saved("river-plate", out / "river-plate")
    tiles = {o["Description"]: o["Transform"] for o in save["ObjectStates"]  # type: ignore[attr-defined]
             if o["Name"] == "Custom_Tile"}
    # TTS counts inches from the table's middle, x east and z north; the 72 x 48 in table's
    # set-up puts Graf Spee 36 in from the west edge and 7 in from the north, on 180°, and
    # Exeter 28 in from the west and 25 in from the north, on 0°. Bows are the images'
    # right-hand ends (east when upright, at 180°): a course turns them clockwise.
    spee, exeter = tiles["token.german.admiral-graf-spee"], tiles["token.british.exeter"]
    assert (spee["posX"], spee["posZ"], spee["rotY"]) == (0.0, 17.0, 270.0)
    assert (exeter["posX"], exeter["posZ"], exeter["rotY"]) == (-8.0, -1.0, 90.0)
    assert spee["scaleX"] == pytest.approx(24 / 25.4)
    placed = {i["id"] for i in inventory["items"] if i["at"] is not None}  # type: ignore[attr-defined]
    assert set(tiles) == placed | {"board.sea"}
    # Under them the table: a locked sea tile 72 in across (48 in deep, its image's shape)
    # with its middle at the origin.
    (sea,) = [o for o in save["ObjectStates"]  # type: ignore[attr-defined]
              if o.get("Description") == "board.sea"]
    assert sea["Locked"] is True and sea["CustomImage"]["CustomTile"]["Stretch"] is True
    assert (sea["Transform"]["posX"], sea["Transform"]["posZ"]) == (0.0, 0.0)
    assert sea["Transform"]["scaleX"] == 72.0
    with Image.open(_file(sea["CustomImage"]["ImageURL"])) as image:
        assert image.size == (72 * 20, 48 * 20)
    in_bags = [t["Description"] for o in save["ObjectStates"]  # type: ignore[attr-defined]
               if o["Name"] == "Bag" for t in o["ContainedObjects"]]
    assert not placed & set(in_bags)


def test_a_hidden_groups_ships_stay_in_their_sides_bag(out: Path) -> None:
    save, inventory = saved("sheffield-1982", out / "sheffield")
    hidden = {i["id"] for i in inventory["items"] if i["start_hidden"]}  # type: ignore[attr-defined]
    assert hidden == {"token.argentina.2-p-112-proni-leston"}
    on_table = {o["Description"] for o in save["ObjectStates"]  # type: ignore[attr-defined]
                if o["Name"] == "Custom_Tile"}
    bags = {o["Nickname"]: [t["Description"] for t in o["ContainedObjects"]]
            for o in save["ObjectStates"] if o["Name"] == "Bag"}  # type: ignore[attr-defined]
    assert not hidden & on_table
    assert "token.argentina.2-p-112-proni-leston" in bags["Argentine naval aviation pieces"]


def test_image_url_names_the_uploaded_folder_instead_of_this_machines(tmp_path: Path) -> None:
    build_tts("river-plate", out=tmp_path, image_url="https://example.org/clubs/river-plate")
    text = (tmp_path / "river-plate.json").read_text()
    urls = re.findall(r'"(?:ImageURL|ImageSecondaryURL|FaceURL|BackURL)": "([^"]+)"', text)
    assert urls and "file:" not in text
    base = "https://example.org/clubs/river-plate/"
    for url in urls:
        assert url.startswith(base), url
        # Every address names a file the command wrote, under the folder to upload.
        assert (tmp_path / unquote(url.removeprefix(base))).is_file(), url
    assert any("/deck-1/" in url for url in urls)


def test_a_bad_image_url_is_refused_before_anything_is_built(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from generator.cli.main import main

    done = CliRunner().invoke(main, ["tts", "river-plate", "--out", str(tmp_path / "x"),
                                     "--image-url", "ftp://example.org/kit"])
    assert done.exit_code == 2
    assert ("--image-url: found 'ftp://example.org/kit', expected the http:// or https:// "
            "address of the folder the images are uploaded to, e.g. "
            "https://example.org/my-scenario-tts/") in done.output
    assert "Traceback" not in done.output and not (tmp_path / "x").exists()
