"""The VASSAL module of every bundled scenario: the inventory's pieces, their images at size,
and VASSAL 3.8 itself (vmod-check --full --strict) accepting it with no error or warning."""

from __future__ import annotations

import functools
import io
import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
from PIL import Image

from generator.kit.tabletop import build_vassal
from generator.kit.vassal import DPI
from tests.needs import need_tool

SCENARIOS = ["balance-1942", "guadalcanal-battleships", "komandorski", "latakia-1973",
             "mediterranean-1940", "river-plate", "savo-island", "second-sirte",
             "sheffield-1982", "sunda-strait"]
ROOT = Path(__file__).resolve().parents[2]
CHECKER = Path(os.environ.get("VMOD_CHECK", ROOT.parent / "shared/tools/vmod-check/vmod-check"))


@functools.cache
def module(scenario: str, out: Path) -> tuple[Path, dict[str, object]]:
    build_vassal(scenario, out=out)
    inventory = json.loads((out / f"{scenario}.pieces.json").read_text())
    return out / f"{scenario}.vmod", inventory


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("vmod")


def _piece_id(text: str) -> str:
    """The piece id a slot's AddPiece names: its BasicPiece's image is ``<id>.png``."""
    found = re.findall(r"piece;;;([^;]+)\.png;", text)
    assert len(found) == 1, text
    return found[0]


def test_every_bundled_scenario_is_checked() -> None:
    from generator.data.library import validated_library

    assert sorted(validated_library([]).scenarios) == SCENARIOS


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_modules_pieces_are_the_inventorys_at_their_size(scenario: str,
                                                             out: Path) -> None:
    path, inventory = module(scenario, out)
    items = {item["id"]: item for item in inventory["items"]}  # type: ignore[attr-defined]
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        root = ElementTree.fromstring(archive.read("buildFile.xml"))
        data = ElementTree.fromstring(archive.read("moduledata"))
        assert root.get("VassalVersion") == data.findtext("VassalVersion") == "3.7.0"
        assert f"{DPI} dpi" in root.get("description", "")
        trays = [slot for window in root.iter("VASSAL.build.module.PieceWindow")
                 for slot in window.iter("VASSAL.build.widget.PieceSlot")]
        cards = [slot for slot in root.iter("VASSAL.build.widget.CardSlot")]
        in_trays = [_piece_id(slot.text or "") for slot in trays]
        in_decks = [_piece_id(slot.text or "") for slot in cards]
        want_counters = [i for i, item in items.items() if item["kind"] in ("counter", "token")]
        assert sorted(in_trays) == sorted(want_counters)
        want_cards = sorted(i for i, item in items.items() if item["kind"] == "card"
                            for _ in range(item["copies"]))
        assert sorted(in_decks) == want_cards
        for slot in trays + cards:
            item = items[_piece_id(slot.text or "")]
            # Within half a pixel of the exact size (a poker card is 444.5 px tall at
            # 127 dpi: either neighbour is the nearest whole pixel).
            exact = (item["width_mm"] * DPI / 25.4, item["height_mm"] * DPI / 25.4)

            def near(size: tuple[int, int], exact: tuple[float, float] = exact) -> bool:
                return all(abs(a - e) <= 0.5 + 1e-6 for a, e in zip(size, exact, strict=True))

            assert near((int(slot.get("width", 0)), int(slot.get("height", 0))))
            for face in item["faces"]:
                assert f"images/{face}" in names
                assert face in (slot.text or "")
                with Image.open(io.BytesIO(archive.read(f"images/{face}"))) as image:
                    assert near(image.size), face
        for chart in root.iter("VASSAL.build.widget.Chart"):
            assert f"images/{chart.get('fileName')}" in names
        dice = [(d.get("name"), d.get("nDice"), d.get("nSides"))
                for d in root.iter("VASSAL.build.module.DiceButton")]
        assert dice == [(item["title"], str(item["copies"]), str(item["sides"]))
                        for item in items.values() if item["kind"] == "die"]
        sides = [e.text for e in root.iter("entry")]
        assert sides == [side["name"] for side in inventory["sides"]]  # type: ignore[attr-defined]


def test_naval_action_rolls_a_white_and_a_red_d6_and_the_thread_reads_cm(out: Path) -> None:
    path, _ = module("komandorski", out)
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("buildFile.xml"))
    assert [(d.get("name"), d.get("nSides")) for d in
            root.iter("VASSAL.build.module.DiceButton")] == [("White d6", "6"), ("Red d6", "6")]
    (thread,) = root.iter("VASSAL.build.module.map.LOS_Thread")
    assert thread.get("scale") == "50" and thread.get("report") == "Measured $Range$ cm"
    (table,) = [m for m in root.iter("VASSAL.build.module.Map") if m.get("mapName") == "Table"]
    (board,) = table.iter("VASSAL.build.module.map.boardPicker.Board")
    # The scenario's table, 180 x 150 cm (its set-up block), at 50 px to the cm.
    assert (board.get("width"), board.get("height")) == ("9000", "7500")


def test_surface_actions_thread_reads_inches_and_its_deck_is_shuffled_face_down(
        out: Path) -> None:
    path, _ = module("river-plate", out)
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("buildFile.xml"))
    (thread,) = root.iter("VASSAL.build.module.map.LOS_Thread")
    assert thread.get("scale") == str(DPI) and thread.get("report") == "Measured $Range$ in"
    (deck,) = root.iter("VASSAL.build.module.map.DrawPile")
    assert (deck.get("faceDown"), deck.get("shuffle")) == ("Always", "Always")
    assert len(list(deck)) == 43


def test_naval_warfare_plays_on_its_route_chart(out: Path) -> None:
    path, _ = module("balance-1942", out)
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("buildFile.xml"))
        (table,) = root.iter("VASSAL.build.module.Map")
        (board,) = table.iter("VASSAL.build.module.map.boardPicker.Board")
        image = board.get("image", "")
        assert image == "board.route-chart-control.1.png"
        with Image.open(io.BytesIO(archive.read(f"images/{image}"))) as page:
            assert page.size == (round(210 * DPI / 25.4), round(297 * DPI / 25.4))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_vassal_itself_accepts_the_module(scenario: str, out: Path) -> None:
    need_tool(None if CHECKER.exists() else f"no vmod-check at {CHECKER}")
    need_tool(None if shutil.which("xvfb-run") or os.environ.get("DISPLAY") else
              "vmod-check --full needs xvfb-run (apt-get install xvfb xauth)")
    path, _ = module(scenario, out)
    done = subprocess.run([str(CHECKER), "--full", "--strict", str(path)],
                          capture_output=True, text=True, timeout=120, check=False)
    last = done.stdout.strip().splitlines()[-1]
    assert done.returncode == 0, done.stdout[-3000:]
    assert last.startswith("RESULT: PASS (0 error(s), 0 warning(s), 0 note(s), "
                           "0 not exercised; mode=full"), last


def test_each_sides_matchups_lie_on_a_desk_only_that_side_sees(out: Path) -> None:
    path, inventory = module("komandorski", out)
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("buildFile.xml"))
        names = set(archive.namelist())
    desks = {desk.get("side"): desk for desk in root.iter("VASSAL.build.module.PrivateMap")}
    assert sorted(desks) == ["Northern Force (5th Fleet)", "Task Group Mike"]
    charts = {item["id"]: item for item in inventory["items"]  # type: ignore[attr-defined]
              if item["kind"] == "chart"}
    for side in inventory["sides"]:  # type: ignore[attr-defined]
        desk = desks[side["name"]]
        assert desk.get("visible") == "false"
        pages = [re.findall(r"piece;;;([^;]+);", slot.text or "")[0]
                 for slot in desk.iter("VASSAL.build.widget.PieceSlot")]
        assert pages == list(charts[f"chart.matchups-{side['id']}"]["faces"])
        assert all(f"images/{page}" in names for page in pages)
    # The shared charts (the Action Card, the tables) are in the chart window, no matchups.
    window = [c.get("fileName") for c in root.iter("VASSAL.build.widget.Chart")]
    assert window and not [name for name in window if "matchups" in (name or "")]


def test_starting_positions_become_at_start_stacks_on_the_sea(tmp_path: Path) -> None:
    from generator.core.errors import RenderError
    from generator.kit.tabletop import online_kit
    from generator.kit.vassal import Placement, write_vmod

    kit, inventory = online_kit("komandorski")
    path = tmp_path / "setup.vmod"
    write_vmod(inventory, kit.pieces, kit.files, path,
               [Placement("ship.richmond", 20, 30), Placement("ship.nachi", 150, 90)])
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("buildFile.xml"))
    (table,) = root.iter("VASSAL.build.module.Map")
    stacks = [(s.get("owningBoard"), s.get("x"), s.get("y"), _piece_id(slot.text or ""))
              for s in table.iter("VASSAL.build.module.map.SetupStack")
              for slot in s.iter("VASSAL.build.widget.PieceSlot")]
    # 50 px to the cm: 20 cm across and 30 cm down is (1000, 1500).
    assert stacks == [("Open sea", "1000", "1500", "ship.richmond"),
                      ("Open sea", "7500", "4500", "ship.nachi")]
    if CHECKER.exists() and (shutil.which("xvfb-run") or os.environ.get("DISPLAY")):
        done = subprocess.run([str(CHECKER), "--full", "--strict", str(path)],
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stdout[-3000:]
    with pytest.raises(RenderError, match="setup: piece 'ship.nowhere' is not in the kit"):
        write_vmod(inventory, kit.pieces, kit.files, tmp_path / "bad.vmod",
                   [Placement("ship.nowhere", 1, 1)])
    assert not (tmp_path / "bad.vmod").exists()


# ---- the set-up: the map's positions are the module's at-start stacks ------------------

SET_UP = {"komandorski": "referee", "savo-island": "referee", "second-sirte": "referee",
          "sunda-strait": "referee", "river-plate": "referee",
          "guadalcanal-battleships": "referee", "latakia-1973": "umpire",
          "sheffield-1982": "umpire"}
"""Every bundled scenario with a ``setup:`` block, and its game master's packet."""


def _stacks(root: ElementTree.Element) -> dict[str, tuple[str, str, float, float]]:
    """Each at-start ship's piece id: (map, board, x mm, y mm from the board's top-left)."""
    found = {}
    for kind in ("VASSAL.build.module.Map", "VASSAL.build.module.PrivateMap"):
        for window in root.iter(kind):
            for stack in window.iter("VASSAL.build.module.map.SetupStack"):
                (slot,) = stack.iter("VASSAL.build.widget.PieceSlot")
                if "Kind,Side,PieceId" in (slot.text or "") and "mark;" in (slot.text or ""):
                    piece = _piece_id(slot.text or "")
                    if piece.startswith("chart."):
                        continue  # a side's matchup pages on its desk
                    found[piece] = (window.get("mapName", ""), stack.get("owningBoard", ""),
                                    int(stack.get("x", "0")) * 25.4 / DPI,
                                    int(stack.get("y", "0")) * 25.4 / DPI)
    return found


def _map_ships(scenario: str, master: str) -> tuple[list[tuple[float, float]], float]:
    """The game master's set-up map read back: each ship's middle in mm of table from the
    table's top-left corner, and how many mm of table half a mm of map is."""
    from generator.aids.setupmap import SIDE_COLOURS, WATER
    from generator.core.units import CM, MM
    from tests.builds import kit
    from tests.pdftext import open_pages

    made = kit(scenario)
    assert made.setup is not None
    scale = made.setup.scale
    (page,) = [p for p in open_pages(made.files[f"{master}.pdf"], geometry=True)
               if "Map scale" in p.text]
    stated = int(re.search(r"Map scale 1 cm = ([\d,]+) yd", page.text)
                 .group(1).replace(",", ""))  # type: ignore[union-attr]

    def close(colour: object, want: object) -> bool:
        rgb = tuple(colour) if colour else ()  # type: ignore[arg-type]
        target = (want.red, want.green, want.blue)  # type: ignore[attr-defined]
        return len(rgb) == 3 and all(abs(a - b) < 1.5 / 255 for a, b in zip(rgb, target,
                                                                              strict=True))

    (table,) = [r for r in page.rects if r["fill"] and close(r["non_stroking_color"], WATER)]
    per_mm = scale.yards_per_unit / stated * CM / (10.0 if scale.unit == "cm" else 25.4)
    hulls = [c for c in page.curves if c["fill"] and len(c["pts"]) >= 6
             and any(close(c["non_stroking_color"], k) for k in SIDE_COLOURS)]
    return ([(((h["x0"] + h["x1"]) / 2 - table["x0"]) / per_mm,
              ((h["top"] + h["bottom"]) / 2 - table["top"]) / per_mm) for h in hulls],
            0.5 * MM / per_mm)


@pytest.mark.parametrize(("scenario", "master"), list(SET_UP.items()))
def test_every_ship_starts_where_the_set_up_map_draws_her(scenario: str, master: str,
                                                          out: Path) -> None:
    from generator.data.setup import placements, table_size
    from tests.builds import kit

    path, inventory = module(scenario, out)
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("buildFile.xml"))
    stacks = _stacks(root)
    items = {item["id"]: item for item in inventory["items"]}  # type: ignore[attr-defined]
    names = {side["id"]: side["name"] for side in inventory["sides"]}  # type: ignore[attr-defined]
    # The pieces at start are the inventory's pieces with a starting position, each once.
    placed = {i: item for i, item in items.items() if item["at"] is not None}
    assert sorted(stacks) == sorted(placed)
    setup = kit(scenario).setup
    assert setup is not None
    mm = 10.0 if setup.scale.unit == "cm" else 25.4
    width, depth = table_size(setup.setup, setup.scale)
    groups = placements(setup.setup, setup.scale)
    assert len(placed) == sum(len(g.ships) for g in groups)
    drawn, slack = _map_ships(scenario, master)
    assert len(drawn) == len(placed)
    # Her position in mm from the top-left corner, as the set-up's numbers give it.
    want = {(g.side, ship.name): (ship.x * mm, (depth - ship.y) * mm,
                                  not all(g.seen_by(s) for s in names))
            for g in groups for ship in g.ships}
    for piece, (window, board, x, y) in stacks.items():
        item = placed[piece]
        title = item["title"]
        (key,) = [k for k in want if k[0] == item["side"]
                  and (title == k[1] or title.startswith(f"{k[1]} ("))]
        wx, wy, hidden = want.pop(key)
        # Within 0.5 mm of table (2.5 px at 127 dpi) of the set-up's position...
        assert abs(x - wx) <= 0.5 and abs(y - wy) <= 0.5, (piece, x, y, wx, wy)
        assert list(item["at"]) == pytest.approx([wx, wy], abs=0.01)
        # ... and of a ship the printed map draws there (to the map's own half millimetre).
        assert any(abs(x - mx) <= slack and abs(y - my) <= slack for mx, my in drawn), piece
        # A hidden group's ship starts on her side's plot, which only that side sees.
        side = names[item["side"]]
        assert (window, board) == ((f"{side} plot", f"{side} plot") if hidden
                                   else ("Table", "Open sea")), piece
        assert item["start_hidden"] is hidden
    assert not want
    (table,) = [m for m in root.iter("VASSAL.build.module.Map")]
    for board in root.iter("VASSAL.build.module.map.boardPicker.Board"):
        if board.get("name") == "Open sea" or (board.get("name") or "").endswith(" plot"):
            # The sea board is the set-up's table, at 50 px to the cm.
            assert (int(board.get("width", "0")), int(board.get("height", "0"))) == (
                round(width * mm * DPI / 25.4), round(depth * mm * DPI / 25.4))
    plots = {m.get("mapName"): m.get("side") for m in root.iter("VASSAL.build.module.PrivateMap")
             if (m.get("mapName") or "").endswith(" plot")}
    # A PrivateMap's side is a VASSAL string list: a comma in a side's name is escaped.
    assert all(name == f"{(side or '').replace(chr(92) + ',', ',')} plot"
               for name, side in plots.items())


def test_a_ship_with_no_counter_of_her_own_gets_a_token_like_the_maps_marker(
        out: Path) -> None:
    path, inventory = module("river-plate", out)
    tokens = [i for i in inventory["items"] if i["kind"] == "token"]  # type: ignore[attr-defined]
    assert [(t["id"], t["title"], t["side"]) for t in tokens] == [
        ("token.german.admiral-graf-spee", "Admiral Graf Spee", "german"),
        ("token.british.exeter", "Exeter", "british"),
        ("token.british.ajax", "Ajax", "british"),
        ("token.british.achilles", "Achilles", "british")]
    assert all((t["width_mm"], t["height_mm"], t["copies"]) == (24.0, 9.0, 1) for t in tokens)
    with zipfile.ZipFile(path) as archive:
        with Image.open(io.BytesIO(archive.read("images/token.german.admiral-graf-spee.png"))
                        ) as image:
            rgb = image.convert("RGB")
            # The hull in the German side's colour (the map's first), the bar's ends pale.
            from generator.aids.setupmap import SIDE_COLOURS

            red = SIDE_COLOURS[0]
            want = (round(red.red * 255), round(red.green * 255), round(red.blue * 255))
            assert rgb.getpixel((35, 8)) == want  # 7 mm in, 1.6 mm down: the hull
            assert rgb.getpixel((1, 1)) != want
    # Each starts on her course: VASSAL turns pieces anticlockwise from their bow at the
    # right-hand end (east), so 180° (south) is -90 and 0° (north) is 90; in the tray, 0.
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("buildFile.xml"))
    turns = {}
    for stack in root.iter("VASSAL.build.module.map.SetupStack"):
        for slot in stack.iter("VASSAL.build.widget.PieceSlot"):
            text = slot.text or ""
            if text.startswith("+/null/rotate;1;82,130;Rotate;;;Course;;;;;true"):
                state = re.split(r"(?<!\\)/", text)[3]
                turns[_piece_id(text)] = float(state.split("\t")[0])
    assert turns == {"token.german.admiral-graf-spee": -90.0, "token.british.exeter": 90.0,
                     "token.british.ajax": 90.0, "token.british.achilles": 90.0}
    trays = [slot.text or "" for slot in root.iter("VASSAL.build.widget.PieceSlot")
             if "token." in (slot.text or "") and slot not in
             [s for st in root.iter("VASSAL.build.module.map.SetupStack") for s in st]]
    assert len(trays) == 4 and all(
        re.split(r"(?<!\\)/", text)[3].startswith("0.0\t") for text in trays)
    # NAVAL ACTION prints a marker per ship: its own markers start, no tokens.
    _, savo = module("savo-island", out)
    kinds = {i["kind"] for i in savo["items"] if i["at"] is not None}  # type: ignore[attr-defined]
    assert kinds == {"counter"}


def test_without_a_set_up_the_sea_is_online_yamls() -> None:
    import dataclasses

    from generator.kit.inventory import inventory
    from tests.builds import kit

    made = kit("river-plate", command="markers")
    assert made.online is not None and made.setup is not None
    bare = inventory(dataclasses.replace(made, setup=None), made.online)
    assert (bare.board["width"], bare.board["height"]) == (180, 120)
    assert all(item.at is None and item.kind != "token" for item in bare.items)
    # With it: 72 x 48 in at 1,000 yd to the inch is 182.88 x 121.92 cm.
    full = inventory(made, made.online)
    assert (full.board["width"], full.board["height"]) == (182.88, 121.92)


def test_the_sea_board_shows_the_set_ups_land_where_the_map_draws_it(out: Path) -> None:
    from generator.aids.setupmap import LAND
    from generator.kit.vassalxml import SEA

    path, inventory = module("sunda-strait", out)
    board = inventory["board"]  # type: ignore[index]
    lands = {land["name"]: land for land in board["land"]}
    # Babi Island's first corner, 33,000 yd east and 20,000 yd north on a 60,000 yd (180 cm)
    # by 120 cm table: 99 cm from the west edge and 60 cm from the north edge.
    assert lands["Babi Island"]["outline"][0] == [990.0, 600.0]
    assert lands["Babi Island"]["kind"] == "land"
    with zipfile.ZipFile(path) as archive:
        root = ElementTree.fromstring(archive.read("buildFile.xml"))
        (table,) = root.iter("VASSAL.build.module.Map")
        (sea,) = table.iter("VASSAL.build.module.map.boardPicker.Board")
        assert sea.get("image") == "board.sea.png"
        about = archive.read("help/about.html").decode()
        assert ("The sea board is 180 by 120 cm with the set-up's land and shoals" in about
                and "on her course; Ctrl+R turns her" in about
                and "starts on her side's plot" in about)
        with Image.open(io.BytesIO(archive.read("images/board.sea.png"))) as image:
            assert image.size == (9000, 6000)
            rgb = image.convert("RGB")
    land = (round(LAND.red * 255), round(LAND.green * 255), round(LAND.blue * 255))
    outline = lands["Babi Island"]["outline"]
    middle = (sum(p[0] for p in outline) / len(outline), sum(p[1] for p in outline) / len(outline))
    assert rgb.getpixel((round(middle[0] * DPI / 25.4), round(middle[1] * DPI / 25.4))) == land
    # Open sea where the Allied cruisers start, and Java along the south edge.
    (perth,) = [i for i in inventory["items"] if i["id"] == "ship.perth"]  # type: ignore[attr-defined]
    at = (round(perth["at"][0] * DPI / 25.4), round(perth["at"][1] * DPI / 25.4))
    assert rgb.getpixel(at) == tuple(int(v) for v in SEA.split(","))
    assert rgb.getpixel((4500, 5990)) == land
    # A set-up without land keeps the plain sea board VASSAL draws itself.
    path, inventory = module("komandorski", out)
    assert inventory["board"]["land"] == []  # type: ignore[index]
    with zipfile.ZipFile(path) as archive:
        assert "images/board.sea.png" not in archive.namelist()
