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
        want_counters = [i for i, item in items.items() if item["kind"] == "counter"]
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
    assert (board.get("width"), board.get("height")) == ("9000", "6000")  # 180 x 120 cm


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


@pytest.mark.skipif(not CHECKER.exists(), reason=f"no vmod-check at {CHECKER}")
@pytest.mark.skipif(shutil.which("xvfb-run") is None and not os.environ.get("DISPLAY"),
                    reason="vmod-check --full needs xvfb-run (apt-get install xvfb xauth)")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_vassal_itself_accepts_the_module(scenario: str, out: Path) -> None:
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
