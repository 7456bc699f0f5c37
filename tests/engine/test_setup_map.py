"""Issue 33: the set-up map of every tactical scenario, read back from the packets.

Each map page is found by its "Map scale 1 cm = N yd" line. The table is the rectangle
filled with the map's water colour; from it and the stated scale the tests compute where
every ship must be (``generator.data.setup.placements``, in table units) and find her
outline there, within 0.5 mm; the scale bars must be their stated lengths to 0.01 mm;
every land outline must lie inside the table; a side's map must name none of the enemy
groups hidden from it. A bad ``setup:`` block gives located messages.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.aids.setupmap import LAND, SIDE_COLOURS, WATER
from generator.cli.main import main
from generator.core.scales import Scale, parse_scale
from generator.core.units import CM, MM
from generator.data.library import load_library
from generator.data.setup import Setup, placements, table_length, table_size
from generator.kit.recipe import Packet, Recipe, plan
from tests.builds import kit
from tests.pdftext import Page, open_pages

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = {
    "savo-island": "naval-action", "second-sirte": "naval-action",
    "komandorski": "naval-action", "sunda-strait": "naval-action",
    "river-plate": "surface-action", "guadalcanal-battleships": "surface-action",
    "latakia-1973": "modern-naval", "sheffield-1982": "modern-naval",
}
MASTER = {"naval-action": "referee", "surface-action": "referee", "modern-naval": "umpire"}


def _scale(ruleset: str, scenario: object) -> Scale:
    """The scale each ruleset plays the scenario at (its kit's default)."""
    if ruleset == "naval-action":
        return parse_scale(scenario.scale)  # type: ignore[attr-defined]
    if ruleset == "surface-action":
        return parse_scale("1000 yd per in")
    yards = Fraction("250") / Fraction("0.9144")
    return parse_scale(f"{yards.numerator}/{yards.denominator} yd per cm")


@pytest.fixture(scope="module")
def library() -> object:
    return load_library()


def _close(colour: object, want: object) -> bool:
    rgb = tuple(colour) if colour else ()  # type: ignore[arg-type]
    target = (want.red, want.green, want.blue)  # type: ignore[attr-defined]
    if len(rgb) == 1:
        rgb = rgb * 3
    return len(rgb) == 3 and all(abs(a - b) < 1.5 / 255 for a, b in zip(rgb, target, strict=True))


def _map_page(scenario: str, name: str) -> Page:
    data = kit(scenario).files[name]
    pages = open_pages(data, geometry=True)
    found = [p for p in pages if "Map scale" in p.text]
    assert len(found) == 1, f"{scenario}/{name}: {len(found)} map pages"
    return found[0]


def _cases() -> list[tuple[str, str]]:
    return [(s, f) for s, r in SCENARIOS.items()
            for f in (f"{MASTER[r]}.pdf", "*")]


@pytest.mark.parametrize(("scenario", "ruleset"), list(SCENARIOS.items()))
def test_every_map_draws_its_table_scale_bars_ships_and_land_where_the_data_puts_them(
        scenario: str, ruleset: str, library: object) -> None:
    model = library.scenarios[scenario].model  # type: ignore[attr-defined]
    setup: Setup = model.setup
    assert setup is not None, f"{scenario} has no setup block"
    scale = _scale(ruleset, model)
    width, depth = table_size(setup, scale)
    sides = [s.id for s in model.sides]
    for name in [f"{MASTER[ruleset]}.pdf", *(f"{s}.pdf" for s in sides)]:
        viewer = None if name.startswith(MASTER[ruleset]) else name[:-4]
        page = _map_page(scenario, name)
        stated = int(re.search(r"Map scale 1 cm = ([\d,]+) yd", page.text)
                     .group(1).replace(",", ""))  # type: ignore[union-attr]
        tables = [r for r in page.rects if r["fill"] and _close(r["non_stroking_color"], WATER)]
        assert len(tables) == 1, name
        table = tables[0]
        per_unit = scale.yards_per_unit / stated * CM  # points of map per table unit
        assert table["width"] == pytest.approx(width * per_unit, abs=0.01 * MM), name
        assert table["height"] == pytest.approx(depth * per_unit, abs=0.01 * MM), name
        # The scale bars: "N cm of table" (or in) and "M yd of sea", each exactly its length.
        units = float(re.search(rf"([\d.]+) {scale.unit} of table", page.text)
                      .group(1))  # type: ignore[union-attr]
        sea = int(re.search(r"([\d,]+) yd of sea", page.text)
                  .group(1).replace(",", ""))  # type: ignore[union-attr]
        bars = sorted(r["width"] for r in page.rects
                      if abs(r["height"] - 2 * MM) < 0.01 * MM and _close(
                          r["non_stroking_color"], _white()) and r["stroke"])
        want = sorted([units * per_unit, sea / stated * CM])
        assert bars == pytest.approx(want, abs=0.01 * MM), name
        # Every ship the reader may see, at her position (her outline's middle).
        hulls = [c for c in page.curves if c["fill"] and len(c["pts"]) >= 6
                 and any(_close(c["non_stroking_color"], k) for k in SIDE_COLOURS)]
        seen = [g for g in placements(setup, scale) if g.seen_by(viewer)]
        assert len(hulls) == sum(len(g.ships) for g in seen), name
        for group in seen:
            assert group.name in page.text.replace("\n", " "), (name, group.name)
            for ship in group.ships:
                x = table["x0"] + ship.x * per_unit
                top = table["bottom"] - ship.y * per_unit
                near = [h for h in hulls if abs((h["x0"] + h["x1"]) / 2 - x) < 0.5 * MM
                        and abs((h["top"] + h["bottom"]) / 2 - top) < 0.5 * MM]
                assert near, f"{scenario}/{name}: {ship.name} not drawn at her position"
        # What the reader may not know is not on the page: hidden groups, enemy ships' names.
        for group in seen:
            if viewer is not None and group.side != viewer:
                for ship in group.ships:
                    assert not re.search(rf"\b{re.escape(ship.name)}\b", page.text), \
                        (name, ship.name)
        hidden = [g for g in placements(setup, scale) if not g.seen_by(viewer)]
        for group in hidden:
            assert group.name not in page.text, (name, group.name)
            for ship in group.ships:
                assert not re.search(rf"\b{re.escape(ship.name)}\b", page.text), \
                    (name, ship.name)
        # Land is drawn inside the table (as the data check demands).
        for land in (c for c in page.curves
                     if c["fill"] and _close(c["non_stroking_color"], LAND)):
            assert land["x0"] >= table["x0"] - 0.01 and land["x1"] <= table["x1"] + 0.01
            assert land["top"] >= table["top"] - 0.01 and land["bottom"] <= table["bottom"] + 0.01


def _white() -> object:
    from reportlab.lib import colors

    return colors.white


def test_a_side_sees_only_its_own_hidden_groups_and_the_referee_sees_all() -> None:
    savo = _map_page("savo-island", "japanese.pdf").text.replace("\n", " ")
    assert "Japanese column" in savo
    assert "Southern group" not in savo and "Canberra" not in savo
    assert "no enemy group is known to you at the start" in savo
    referee = _map_page("savo-island", "referee.pdf").text.replace("\n", " ")
    assert "Southern group" in referee and "Japanese column" in referee
    assert "referee's map: every group" in referee
    # Sheffield: the Neptune had held contact for hours, so the British pickets are known.
    argentina = _map_page("sheffield-1982", "argentina.pdf").text.replace("\n", " ")
    assert "Centre picket" in argentina and "Neptune" in argentina
    # An enemy group a side knows of is a position and a count, never ship names.
    assert "Centre picket: enemy, 1 ship." in argentina and "Sheffield" not in argentina
    assert "umpire's map" in _map_page("sheffield-1982", "umpire.pdf").text.replace("\n", " ")


def test_the_lay_out_text_is_computed_from_the_same_numbers() -> None:
    text = _map_page("savo-island", "referee.pdf").text.replace("\n", " ")
    # Chōkai at [12100, 28200] yd at 1,000/3 yd per cm: 36.3 cm and 84.6 cm.
    assert ("Japanese column (Japanese Striking Force): Chōkai, Aoba, Kako, Kinugasa, "
            "Furutaka, Tenryū, Yūbari, Yūnagi. Leader 36.3 cm from the west edge and 84.6 cm "
            "from the south edge, course 120°, 26 kn, in line ahead 1,300 yd (3.9 cm) "
            "apart.") in text
    assert "The table is 180 cm × 135 cm (60,000 yd × 45,000 yd)" in text
    # The closest pair of ships: Yūnagi (last) and Blue, measured by hand from the data.
    assert "Japanese column to Picket Blue 8,210 yd (24.6 cm)" in text


def test_places_and_placements_follow_the_block() -> None:
    tabletop = parse_scale("tabletop")
    setup = Setup.model_validate({
        "units": "km", "table": {"width": "20 km", "depth": "6 ft"},
        "groups": [{"name": "A", "side": "x", "ships": ["a", "b", "c"], "at": [10, 5],
                    "heading": 90, "speed_kn": 20, "spacing": 1}]})
    assert table_length("20 km", tabletop) == pytest.approx(20000 / 0.9144 * 3 / 1000)
    assert table_length("6 ft", tabletop) == pytest.approx(182.88)
    assert table_length("60000 yd", tabletop) == pytest.approx(180)
    assert table_length("6 ft", parse_scale("1000 yd per in")) == pytest.approx(72)
    group = placements(setup, tabletop)[0]
    # Line ahead on 090: each ship 1 km (1093.6 yd, 3.28 cm) astern, to the west.
    per_km = 1000 / 0.9144 * 3 / 1000
    assert [(round(s.x, 6), round(s.y, 6)) for s in group.ships] == [
        (round(10 * per_km - i * per_km, 6), round(5 * per_km, 6)) for i in range(3)]


def _scenario_copy(folder: Path, **replace: str) -> Path:
    text = (ROOT / "shipdata/naval_action/scenarios/savo-island.yaml").read_text("utf-8")
    text = text.replace("id: savo-island", "id: savo-bad", 1)
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    path = folder / "savo-bad.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _line(before: int) -> int:
    """A line of the Savo file's ``setup:`` block, numbered as when these tests were written.

    The block's lines are counted from ``setup:`` (then line 102), so an edit to the
    scenario's text above it does not break every expected message.
    """
    text = (ROOT / "shipdata/naval_action/scenarios/savo-island.yaml").read_text("utf-8")
    return before - 102 + text.splitlines().index("setup:") + 1


def _check(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[str]]:
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["check", "savo-bad.yaml"])
    return result.exit_code, [x for x in result.output.splitlines()
                              if x.startswith("savo-bad.yaml")]


def test_a_bad_setup_block_gives_located_messages(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _scenario_copy(tmp_path, **{
        "    - name: Southern group\n      side: allied":
            "    - name: Southern group\n      side: alied",
        "at: [15000, 36000]": "at: [15000, 76000]",
        "      ships: [Jarvis]": "      ships: [Jarvis, Blue]",
        "      ships: [Patterson, Bagley]": "      ships: [Paterson, Bagley]",
        "      at: [12100, 28200]": "      at: [2000, 28200]",
        "      hidden: true\n      arcs:": "      hidden: true\n      known_to: [japanese]\n"
                                          "      arcs:"})
    code, lines = _check(tmp_path, monkeypatch)
    assert code == 2
    assert lines == [
        f"savo-bad.yaml:{_line(130)}:11: "
        "setup.groups.0.at: found a formation that runs off the table "
        "('Kako' at -0.8, 88.5 cm), expected every ship on the table (180 × 135 cm)",
        f"savo-bad.yaml:{_line(136)}:13: "
        "setup.groups.1.side: found 'alied', expected a side id "
        "(japanese, allied); did you mean 'allied'?",
        f"savo-bad.yaml:{_line(144)}:15: "
        "setup.groups.2.ships.0: found 'Paterson', expected a ship of "
        "side 'allied' (Canberra, Chicago, Bagley, Patterson, Vincennes, Quincy, Astoria, "
        "Helm, Wilson, Blue, Ralph Talbot, Jarvis); did you mean 'Patterson'?",
        f"savo-bad.yaml:{_line(167)}:13: "
        "setup.groups.5.name: found 'Picket Blue', expected a name that "
        "names none of the group's ships (other sides' maps show it; it names Blue)",
        f"savo-bad.yaml:{_line(170)}:11: "
        "setup.groups.5.at: found [15000, 76000], expected a point on "
        "the table (x 0-60,000, y 0-45,000 yd)",
        f"savo-bad.yaml:{_line(185)}:23: "
        "setup.groups.7.ships.1: found 'Blue' again, expected each ship "
        "in one group (she is in 'Picket Blue')",
    ]


def test_a_bad_value_is_refused_by_the_schema_with_its_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _scenario_copy(tmp_path, **{"table: {width: 180, depth: 135}":
                                "table: {width: 6 furlongs, depth: 135}",
                                "      heading: 120": "      heading: 360",
                                "      speed_kn: 26": "      sped_kn: 26"})
    code, lines = _check(tmp_path, monkeypatch)
    assert code == 2
    assert lines[0] == (f"savo-bad.yaml:{_line(104)}:18: "
        "setup.table.width: found '6 furlongs', expected "
                        "a number of table units or a length such as '60000 yd', '30 km' or "
                        "'6 ft' (units: yd, m, km, nmi, cm, mm, in, ft)")
    assert lines[1:3] == [
        f"savo-bad.yaml:{_line(127)}:7: "
        "setup.groups.0.speed_kn: found nothing, expected a number "
        "(required)",
        f"savo-bad.yaml:{_line(131)}:16: "
        "setup.groups.0.heading: found 360, expected a number less "
        "than 360"]
    assert "setup.groups.0.sped_kn: found unknown key 'sped_kn'" in " ".join(lines)
    assert "did you mean 'speed_kn'?" in " ".join(lines)


def test_a_packet_prints_the_map_only_when_the_scenario_has_a_setup() -> None:
    recipe = Recipe(folder="x", packets=[Packet(
        file="{side}.pdf", per="side", contents=["briefing:{side}", "setup-map:{side}"],
        needs={"setup-map": "setup"})])
    without = plan(recipe, {"a": "A"}, {"scenario"}, {})
    assert without.packets[0].keys == ["briefing:a"]
    with_map = plan(recipe, {"a": "A"}, {"scenario", "setup"}, {})
    assert with_map.packets[0].keys == ["briefing:a", "setup-map:a"]


def test_rule_27_prints_every_force_s_starting_base(library: object) -> None:
    model = library.scenarios["mediterranean-1940"].model  # type: ignore[attr-defined]
    for side in model.sides:
        text = " ".join(p.text for p in open_pages(kit("mediterranean-1940")
                                                   .files[f"{side.id}.pdf"])[:3])
        text = text.replace("\n", " ")
        for force in side.forces:
            assert force.base, force.name
            assert f"{force.name} (starts at {force.base}" in text


def test_savo_places_cape_esperance_tulagi_and_lunga_point_where_a_referee_can_measure(
        library: object) -> None:
    setup: Setup = library.scenarios["savo-island"].model.setup  # type: ignore[attr-defined]
    places = {p.name: p for p in setup.places}
    ring = places["20,000 yd from Savo"]
    assert ring.radius == 20000
    # Cape Esperance is a corner of Guadalcanal's coast, about 19,900 yd from Savo on 225°.
    cape = places["Cape Esperance"]
    coast = next(land for land in setup.land if land.name == "Guadalcanal")
    assert tuple(cape.at) in [tuple(p) for p in coast.outline]
    dx, dy = cape.at[0] - ring.at[0], cape.at[1] - ring.at[1]
    assert math.hypot(dx, dy) == pytest.approx(19_900, abs=100)
    assert math.degrees(math.atan2(dx, dy)) % 360 == pytest.approx(225, abs=1)
    # Each anchorage's arrow stands on the table's edge, on the line from Savo to it, and
    # points along that line; the anchorage lies beyond, at the distance its name gives.
    width, depth = table_size(setup, parse_scale("tabletop"))
    for name, bearing, yards in (("Tulagi 40,200 yd from Savo", 84, 40_200),
                                 ("Lunga Point 41,500 yd from Savo", 141, 41_500)):
        place = places[name]
        assert place.pointer == bearing
        x, y = place.at
        assert x in (0, width * 1000 / 3) or y in (0, depth * 1000 / 3), name
        dx, dy = x - ring.at[0], y - ring.at[1]
        assert math.degrees(math.atan2(dx, dy)) % 360 == pytest.approx(bearing, abs=1), name
        assert math.hypot(dx, dy) < yards, name
    text = _map_page("savo-island", "referee.pdf").text.replace("\n", " ")
    assert ("Places: 20,000 yd from Savo: a ring of 20,000 yd (60 cm) round the point 90 cm "
            "from the west edge and 81 cm from the south edge; Cape Esperance: 48 cm from the "
            "west edge and 38.4 cm from the south edge; Tulagi 40,200 yd from Savo: 180 cm "
            "from the west edge and 90 cm from the south edge, arrow on 84°; Lunga Point "
            "41,500 yd from Savo: 155.1 cm from the west edge and 0 cm from the south edge, "
            "arrow on 141°.") in text
    for side in ("japanese.pdf", "allied.pdf"):
        assert "Tulagi 40,200 yd from Savo" in _map_page("savo-island", side).text


def test_check_warns_of_scenario_text_no_font_can_print(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A prime in a source's coordinates would print as an empty box: check says where."""
    _scenario_copy(tmp_path, **{"9°06'S 160°09'E": "9°06′S 160°09′E"})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "savo-bad.yaml"])
    assert result.exit_code == 0
    text = (ROOT / "shipdata/naval_action/scenarios/savo-island.yaml").read_text("utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "'Tulagi'" in row)
    assert (f"warning: savo-bad.yaml:{line}:5: sources.8: has '′' (U+2032) that no bundled "
            "font can print; it would show as an empty box") in result.output.splitlines()


def _one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("scenario", "ruleset"), list(SCENARIOS.items()))
def test_each_briefing_names_the_table_and_the_ranges_its_map_gives(scenario: str,
                                                                     ruleset: str) -> None:
    """Issue 33 item 2: the briefing says the table's size and the starting ranges, the
    same as the packet's own map (a side's: only the enemy groups it knows of)."""
    from tests.builds import kit_texts

    for name in kit(scenario).files:
        if name.startswith("back-offset") or not name.endswith(".pdf"):
            continue
        texts = [_one_line(t) for t in kit_texts(scenario, name)]
        (briefing,) = [t for t in texts if "The table " in t and "north at the top edge" in t]
        (drawn,) = [t for t in texts if "Map scale" in t]
        size = re.search(r"The table is (.+?\)) at ", drawn)
        assert size is not None
        assert f"The table {size.group(1)}, north at the top edge; the set-up map shows " \
               "where " in briefing, name
        on_map = re.search(r"Starting ranges \(closest ships\): (.+?)\.(?: |$)", drawn)
        said = re.search(r"Starting ranges \(closest (?:ships|units)\): (.+?)\.(?: |$)",
                         briefing)
        if on_map is None:  # a side that knows of no enemy group at the start
            assert said is None and name != f"{MASTER[ruleset]}.pdf", name
            assert re.search(r"No enemy (group|formation|unit) is known to you at the "
                             r"start\.", briefing), name
        else:
            assert said is not None, name
            assert said.group(1) == on_map.group(1), name
