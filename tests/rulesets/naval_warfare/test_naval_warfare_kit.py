"""The Naval Warfare 1942-45 kit: its data against the text, counters, charts, packets.

One campaign build (and one counter-sheet build) is shared by the module; every figure
is read back from the PDFs and compared with the rule text, transcribed here by hand.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pypdfium2 as pdfium
import pytest
import yaml

from generator.core.units import INCH, MM
from generator.kit.pipeline import BuildResult, prepared, validated_library
from generator.kit.seam import KitOptions, Rendered, Request
from generator.pieces import faces
from generator.rulesets import REGISTRY
from generator.rulesets.naval_warfare import CONTROL, Derived
from generator.rulesets.naval_warfare.campaign import annex_b, chart_rows, load_supply
from generator.rulesets.naval_warfare.components.counters import layouts
from generator.rulesets.naval_warfare.schema import COUNTER_SIZES
from generator.rulesets.naval_warfare.units import load_units
from tests.paths import ROOT

if TYPE_CHECKING:
    from tests.conftest import Kits

CAMPAIGN = ROOT / "shipdata" / "naval_warfare" / "scenarios" / "balance-1942.yaml"

# The text's unit table by id: fleet operations, commerce attack, commerce defence.
UNIT_TABLE = {
    "fleet-carrier": (1, 0, 0), "escort-carrier": (1, 0, 0), "heavy-ship": (5, 4, 2),
    "light-cruiser": (3, 4, 4), "escort": (1, 1, 2), "submarine": (1, 3, 0),
    "japanese-submarine": (1, 0, 0), "landing-craft": (0, 0, 0), "air": (10, 4, 6),
    "escort-carrier-air": (3, 4, 5), "strategic-bomber": (10, 6, 8),
}
# The Starting Naval Balance, Jan/Feb 1942: rows as in the text, nations in its order.
NATIONS = ["us", "de", "it", "uk", "jp", "ff", "nl", "vf", "su"]
BALANCE = {
    "fleet-carrier": [3, 0, 0, 4, 5, 0, 0, 0, 0],
    "escort-carrier": [0, 0, 0, 0, 0, 0, 0, 0, 0],
    "heavy-ship": [8, 2, 2, 7, 7, 1, 0, 0, 0],
    "light-cruiser": [3, 1, 2, 8, 5, 1, 1, 2, 0],
    "escort": [1, 0, 6, 12, 1, 1, 0, 2, 3],
    "submarine": [4, 10, 4, 3, 4, 0, 1, 2, 1],
    "tonnage": [95, 20, 9, 213, 56, 2, 8, 6, 2],
    "lsp": [4, 1, 0, 4, 9, 0, 0, 1, 0],
    "landing-craft": [0, 0, 0, 0, 0, 0, 0, 0, 0],
}
# Annex A, bases per nation (count, and one the OCR could garble).
ANNEX_A = {"uk": (19, "King George Sound"), "us": (10, "Pearl Harbour"), "jp": (7, "Saigon"),
           "de": (6, "Gotenhafen"), "it": (4, "Cagliari"), "su": (2, "Vladivostok"),
           "nl": (3, "Sabang"), "es": (1, "Cadiz"), "gr": (1, "Athens")}
# Annex B ("Example Merchant Routes Chart"), row for row as the text prints it: serial,
# route, Tonnage Points, Effective Lift; ANNEX_B_LENGTHS holds its Length of Route cells
# in the same order (Short, Med, Long with their factor).
ANNEX_B = [(1, "US/Can to UK Atlantic", 50, 50), (2, "UK/Alexandria Via Cape", 10, 5),
           (3, "UK - Argentina", 20, 10), (4, "UK – South Africa Via Atlantic", 10, 5),
           (5, "UK – Australia Via Panama", 30, 15), (6, "UK – India Via Cape", 20, 10),
           (7, "UK – Singapore Via Cape", 30, 15), (8, "UK - Gibraltar", 0, 0),
           (9, "UK – USSR Via Arctic", 4, 4), (10, "UK – Persia Via Cape", 20, 10),
           (11, "Japan – China / Port Arthur", 20, 40), (12, "Japan - Taiwan", 10, 10),
           (13, "Japan – Korea", 15, 30), (14, "Japan – Truk", 4, 4), (15, "Japan - Siam", 4, 4),
           (16, "Japan – Indo-China", 8, 8), (17, "Japan - Philippines", 12, 12),
           (18, "Italy – Libya", 4, 8), (19, "Italy – Albania", 2, 4),
           (20, "Italy – Sardinia", 2, 4), (21, "Germany - Norway", 15, 15),
           (22, "Germany – Sweden", 2, 4), (23, "Germany - Finland", 2, 4),
           (24, "USA West Coast – Australia", 16, 8), (25, "USA East Coast – Argentina", 16, 8),
           (26, "USA East Coast - Panama", 4, 4), (27, "USA West Coast - Panama", 4, 4),
           (28, "USA West Coast - Hawaii", 4, 4)]
ANNEX_B_LENGTHS = "MLLLLLLMMLSMSMMMMSSSMSSLLMMM"
"""S: Short (x2), M: Med (x1), L: Long (x1/2), one letter per row."""
LENGTH_CELLS = {"S": "Short (x2)", "M": "Med (x1)", "L": "Long (x1/2)"}
# The campaign's routes: Annex B's, by name as the file spells them, and the Supply
# Effectiveness row each length falls in (Annex B's Short, Med, Long).
ROUTES = [("US/Can to UK Atlantic", "Med"), ("UK/Alexandria via Cape", "Long"),
          ("UK - Argentina", "Long"), ("UK - South Africa via Atlantic", "Long"),
          ("UK - Australia via Panama", "Long"), ("UK - India via Cape", "Long"),
          ("UK - Singapore via Cape", "Long"), ("UK - Gibraltar", "Med"),
          ("UK - USSR via Arctic", "Med"), ("UK - Persia via Cape", "Long"),
          ("Japan - China / Port Arthur", "Short"), ("Japan - Taiwan", "Med"),
          ("Japan - Korea", "Short"), ("Japan - Truk", "Med"), ("Japan - Siam", "Med"),
          ("Japan - Indo-China", "Med"), ("Japan - Philippines", "Med"),
          ("Italy - Libya", "Short"), ("Italy - Albania", "Short"),
          ("Italy - Sardinia", "Short"), ("Germany - Norway", "Med"),
          ("Germany - Sweden", "Short"), ("Germany - Finland", "Short"),
          ("USA West Coast - Australia", "Long"), ("USA East Coast - Argentina", "Long"),
          ("USA East Coast - Panama", "Med"), ("USA West Coast - Panama", "Med"),
          ("USA West Coast - Hawaii", "Med")]
# A route row as the chart prints it: number, name, [Tonnage Points], sea areas, supply
# row and factor, [effective tonnage]; the bracketed figures are blank until filled.
ROUTE_ROW = re.compile(r"^(\d+) (.+?)(?: \(DEFAULT length\))? (?:(\d+) )?(\d+) "
                       r"(Short|Med|Long) x(\S+?)(?: (\d+))?$", re.M)
COUNTER = re.compile(r"^([A-Z]{1,4})( DAMAGED)?\r?\n([A-Z][A-Z-]*)\r?\n(\d+)-(\d+)-(\d+)\r?$",
                     re.M)


def pages(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(path)
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def kit(kits: Kits) -> BuildResult:
    return kits.build("balance-1942")


@pytest.fixture(scope="module")
def sheets(kits: Kits) -> BuildResult:
    return kits.markers("balance-1942")


@dataclass
class PlumbedPage:
    """What the geometry tests need of one page: pdfplumber's layout text, rects and words."""

    text: str
    rects: list[dict[str, Any]]
    words: list[dict[str, Any]]


@pytest.fixture(scope="module")
def usa_geometry(kit: BuildResult, derived: Derived) -> list[PlumbedPage]:
    """The pages of usa.pdf that hold a Task Force card, a route row or an escort label.

    pypdfium2 finds them and reads only those, once for both tests, in pdfplumber's shape
    (tests/pdftext.py: the same text, rects and words to 0.0001 pt). Any other page has
    nothing either test looks at.
    """
    import pypdfium2 as pdfium

    from tests.pdftext import open_pages

    path = kit.folder / "usa.pdf"
    assert derived.campaign is not None
    keys = ("TASK FORCE", "Escort", *(r.name for r in derived.campaign.routes))
    doc = pdfium.PdfDocument(str(path))
    try:
        flat = [" ".join(doc[i].get_textpage().get_text_range().split())
                for i in range(len(doc))]
    finally:
        doc.close()
    wanted = [i + 1 for i, text in enumerate(flat) if any(k in text for k in keys)]
    assert wanted
    return [PlumbedPage(page.layout_text(), page.rects, page.layout_words())
            for page in open_pages(path, geometry=True, only=[n - 1 for n in wanted])]


@pytest.fixture(scope="module")
def derived() -> Derived:
    library = validated_library([])
    # As a build prepares it: the pipeline sets the build seed the deal is drawn from.
    ctx, _ = prepared(REGISTRY["naval-warfare"], library,
                      Request("kit", scenario="balance-1942"), "a4", KitOptions())
    assert isinstance(ctx.data, Derived)
    return ctx.data


# ---- data ---------------------------------------------------------------------------

def test_unit_table_is_the_texts() -> None:
    units = load_units()
    assert {u.id: (u.fleet, u.attack, u.defence) for u in units.values()} == UNIT_TABLE
    assert units["japanese-submarine"].name == "Japanese Sub Flotilla"
    assert list(units)[:3] == ["fleet-carrier", "escort-carrier", "heavy-ship"]
    assert {u.id: u.range for u in units.values() if u.range != 4} == {
        "air": 0, "escort-carrier-air": 0, "strategic-bomber": 1}
    assert units["strategic-bomber"].later_range == 2
    assert units["heavy-ship"].damaged() == (2, 2, 1)


def test_campaign_balance_and_bases_are_the_texts(derived: Derived) -> None:
    nations = derived.nations
    for row, counts in BALANCE.items():
        for nation, count in zip(NATIONS, counts, strict=True):
            forces = nations[nation]
            if row in ("tonnage", "lsp"):
                found = getattr(forces, row)
            elif row == "submarine" and nation == "jp":
                found = forces.units["japanese-submarine"]
                assert "submarine" not in forces.units
            else:
                found = forces.units[row]
            assert found == count, (row, nation)
    for nation, (count, name) in ANNEX_A.items():
        bases = [b.name for b in nations[nation].bases]
        assert len(bases) == count and name in bases, nation
    saigon = next(b for b in nations["jp"].bases if b.name == "Saigon")
    assert saigon.from_turn == 4
    assert nations["jp"].ranges == {"air": 1}
    # Vichy (the text's France) and Free French share the French list between them.
    french = {b.name for b in nations["vf"].bases} | {b.name for b in nations["ff"].bases}
    assert {"Casablanca", "Tunis", "Dakar", "Libreville", "Djibouti", "Toulon", "Beirut",
            "Brest", "Diego Suarez", "Martinique"} <= french


def test_defaults_are_labelled_in_the_data_and_on_the_page(kit: BuildResult) -> None:
    data = yaml.safe_load(CAMPAIGN.read_text("utf-8"))
    for team in data["teams"]:
        assert {"nof", "mof", "advantage_cards"} <= set(team["defaults"])
    for nation in data["nations"]:
        if "garrisons" in nation:
            assert "garrisons" in nation["defaults"]
    first = next(p for p in pages(kit.folder / "usa.pdf") if "How to print this packet" not in p)
    assert "United States Allies US 3 2 6 4 DEFAULT: NOF, MOF, Advantage Cards, TF cards" \
        in first
    assert "DEFAULT readings (the text gives no figure; game control may change them): " \
           "garrisons, spares." in first


# ---- route chart ----------------------------------------------------------------------

def test_campaign_routes_leave_tonnage_to_the_teams(derived: Derived) -> None:
    """Annex B's tonnages are "for example only": the campaign's routes carry none."""
    assert derived.campaign is not None
    rows = chart_rows(derived.campaign, load_supply())
    assert [(r.route.name, r.route.tonnage, r.row.label, r.effective) for r in rows] == [
        (name, None, label, None) for name, label in ROUTES]


def test_annex_b_example_is_the_texts_and_its_lift_follows_the_factor() -> None:
    from fractions import Fraction

    chart = annex_b()
    assert [(r.serial, r.route, r.tonnage, r.lift) for r in chart.rows] == ANNEX_B
    assert [r.length for r in chart.rows] == [LENGTH_CELLS[c] for c in ANNEX_B_LENGTHS]
    for r in chart.rows:
        assert r.lift == r.tonnage * Fraction(r.factor), r
        assert r.length.endswith(f"(x{r.factor})")


def test_supply_table_from_length() -> None:
    supply = load_supply()
    assert [supply.effective(10, n) for n in (0, 1, 6, 7, 30)] == [20, 10, 10, 5, 5]
    assert supply.effective(15, 9) == 7  # 7 1/2 rounded down (DEFAULT)
    assert [r.length for r in supply.supply] == ["Start and finish in same sea",
                                                 "1 to 6 sea areas", "7+ sea areas"]


def test_master_chart_prints_every_route_blank_and_annex_b_labelled(kit: BuildResult) -> None:
    text = "\n".join(pages(kit.folder / "game-control.pdf")).replace("\r", "")
    found = {}
    for m in ROUTE_ROW.finditer(text):
        found.setdefault(int(m[1]), (m[2], m[3], m[5], m[7]))
    assert [found[i] for i in range(1, 29)] == [(n, None, label, None) for n, label in ROUTES]
    assert "FLEET BASE OF ORIGIN: Portsmouth (UK & Commonwealth)" in text
    # Before: Annex B's example gave Japan 73 of its 56 Tonnage Points, printed as its own.
    assert "over-allocated" not in text
    assert "Japan 56 ____ ____ ____" in text
    assert "UK & Commonwealth 213 ____ ____ ____" in text
    assert "The rules' example chart (Annex B): not this campaign's figures" in text
    assert "An example only: the rule text gives its figures as an illustration" in text
    example = text[text.index("Serial Route Tonnage Points Length of Route Effective Lift"):]
    for (serial, route, tonnage, lift), length in zip(ANNEX_B, ANNEX_B_LENGTHS, strict=True):
        assert f"\n{serial}. {route} {tonnage} {LENGTH_CELLS[length]} {lift}\n" in example


def test_team_chart_has_its_own_routes_only_and_no_example(kit: BuildResult) -> None:
    text = "\n".join(pages(kit.folder / "japan.pdf")).replace("\r", "")
    names = {m[2] for m in ROUTE_ROW.finditer(text)}
    assert names == {n for n, _ in ROUTES if n.startswith("Japan")}
    assert "Annex B" not in text and "Japan 56 ____ ____ ____" in text


def test_counter_slots_are_one_counter_plus_1mm(usa_geometry: list[PlumbedPage],
                                                derived: Derived) -> None:
    """Task Force cards hold 12 counters, route rows 4 escorts and 4 raiders, each slot
    the counter size plus 1 mm, to 0.01 mm."""
    assert derived.campaign is not None
    slot = derived.campaign.counter_size / MM + 1
    routes = {r.name for r in derived.campaign.routes if r.nation == "us"}
    found_tf = found_routes = 0
    for page in usa_geometry:
        text = page.text
        slots = [r for r in page.rects if abs(r["width"] / MM - slot) < 0.01
                 and abs(r["height"] / MM - slot) < 0.01]
        cards = text.count("TASK FORCE ")
        if cards:
            assert len(slots) == 12 * cards
            found_tf += cards
        rows = sum(1 for name in routes if name in text)
        # The two blank rows for new routes may share a page with named ones.
        blank = 2 if "NEW ROUTES" in text else 0
        if rows and not cards:
            assert len(slots) == 8 * (rows + blank)
            found_routes += rows
    assert found_tf == derived.teams["usa"].task_force_cards
    assert found_routes == len(routes)


# ---- counters -------------------------------------------------------------------------

@pytest.mark.parametrize("team", ["usa", "commonwealth", "germany", "japan"])
def test_counters_front_and_damaged_back(sheets: BuildResult, derived: Derived,
                                         team: str) -> None:
    text = "\n".join(pages(sheets.folder / f"counters-{team}.pdf"))
    air = {u.code for u in derived.units.values() if u.kind == "air"}
    seen = Counter((m[1], bool(m[2]), m[3], (int(m[4]), int(m[5]), int(m[6])))
                   for m in COUNTER.finditer(text) if m[3] not in air)
    expected: Counter[tuple[str, bool, str, tuple[int, int, int]]] = Counter()
    for nation in derived.team_nations(team):
        for unit in derived.units.values():
            count = nation.units.get(unit.id, 0) + nation.spares.get(unit.id, 0)
            if unit.kind != "ship" or not count:
                continue
            values = (unit.fleet, unit.attack, unit.defence)
            expected[(nation.code, False, unit.code, values)] += count
            # The back: every value halved, rounded down (computed here independently).
            expected[(nation.code, True, unit.code, tuple(v // 2 for v in values))] += count
    assert seen == expected
    assert expected


def test_heavy_ship_damaged_back_reads_2_2_1(sheets: BuildResult) -> None:
    text = "\n".join(pages(sheets.folder / "counters-usa.pdf")).replace("\r", "")
    assert text.count("US\nHVY\n5-4-2") == 9  # 8 in the balance, 1 spare
    assert text.count("US DAMAGED\nHVY\n2-2-1") == 9


def test_air_points_markers_and_flags(sheets: BuildResult, derived: Derived) -> None:
    text = "\n".join(pages(sheets.folder / "counters-japan.pdf")).replace("\r", "")
    jp = derived.nations["jp"]
    assert text.count("JP\nAIR\n10-4-6\nrange 0, land 1\n") == jp.spares["air"]
    assert text.count("JP\nLSP\n1\n") == jp.lsp + 2
    assert text.count("JP\nGarrison\nCV 8\n") == jp.garrisons
    # Tonnage counters add up to at least the nation's Tonnage Points.
    values = [int(v) for v in re.findall(r"JP\nTonnage\n(\d+)\n", text)]
    assert sum(values) >= jp.tonnage
    team = derived.teams["japan"]
    assert text.count("NOF\nnaval operations") == team.nof + team.advantage_cards + 1
    assert text.count("MOF\nmilitary offensive") == team.mof + 1
    assert [int(n) for n in re.findall(r"JP\nTF\n(\d+)\n", text)] == list(
        range(1, team.task_force_cards + 1))


@pytest.mark.parametrize("size", list(COUNTER_SIZES))
def test_counter_sizes_keep_labels_inside_the_safe_zone(size: str) -> None:
    points = COUNTER_SIZES[size]
    for name, layout in layouts(points).items():
        assert layout.size == (points, points)
        assert faces.layout_problems(layout) == [], name
        for field in layout.fields:
            if field.text is not None:
                assert field.x >= layout.safe - 1e-9 and field.y >= layout.safe - 1e-9
                assert field.x + field.width <= points - layout.safe + 1e-6, (name, field)
                assert field.y + field.height <= points - layout.safe + 1e-6, (name, field)
    assert abs(points / MM - {"1/2in": 12.7, "5/8in": 15.875, "3/4in": 19.05}[size]) < 0.01


def test_counter_size_is_a_campaign_option(tmp_path: Path) -> None:
    data = yaml.safe_load(CAMPAIGN.read_text("utf-8"))
    data.update(id="big-counters", counter_size="3/4in",
                nations=[n for n in data["nations"] if n["id"] == "it"],
                teams=[t for t in data["teams"] if t["id"] == "italy"],
                routes=[r for r in data["routes"] if r["nation"] == "it"])
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "big-counters.yaml").write_text(yaml.safe_dump(data), "utf-8")
    library = validated_library([tmp_path / "data"])
    ruleset = REGISTRY["naval-warfare"]
    ctx, _ = prepared(ruleset, library, Request("markers", scenario="big-counters"), "a4",
                      KitOptions())
    made = ruleset.component("counters")(ctx, "italy")
    assert isinstance(made, Rendered)
    pieces = made.pieces
    assert pieces and {(round(p.width / MM, 2), round(p.height / MM, 2)) for p in pieces} == {
        (19.05, 19.05)}
    assert abs(pieces[0].width - 0.75 * INCH) < 1e-9


# ---- packets and hidden information ----------------------------------------------------

def test_one_packet_per_team_and_game_control(kit: BuildResult, derived: Derived) -> None:
    assert set(kit.files) == {f"{t}.pdf" for t in derived.teams} | {
        "game-control.pdf", "back-offset-check.pdf"}


def test_no_team_packet_names_another_teams_forces(kit: BuildResult, derived: Derived) -> None:
    assert derived.campaign is not None
    for team in derived.teams.values():
        text = "\n".join(pages(kit.folder / f"{team.id}.pdf"))
        own = {n.id for n in derived.team_nations(team.id)}
        own_bases = {b.name for n in derived.team_nations(team.id) for b in n.bases}
        for other in derived.teams.values():
            if other.id != team.id:
                # A whole word: the rules card's "Japanese Sub Flotilla" is not Japan's team.
                assert not re.search(rf"\b{re.escape(other.name)}\b", text), (team.id,
                                                                               other.name)
        for nation in derived.nations.values():
            if nation.id in own:
                continue
            for base in nation.bases:
                if base.name not in own_bases:
                    assert f"Port: {base.name}" not in text and \
                        f"{base.name}\r\n" not in text, (team.id, base.name)
        for route in derived.campaign.routes:
            if route.nation not in own:
                assert route.name not in text, (team.id, route.name)
        assert "Advantage Cards: the deal" not in text
        codes = {m[1] for m in COUNTER.finditer(text)}
        assert codes == {n.code for n in derived.team_nations(team.id)}, team.id
    control = "\n".join(pages(kit.folder / "game-control.pdf"))
    assert all(t.name in control for t in derived.teams.values())
    assert "Vichy French" in control


def test_each_team_holds_its_dealt_cards(kit: BuildResult, derived: Derived) -> None:
    total = 0
    for team in derived.teams.values():
        text = "\n".join(pages(kit.folder / f"{team.id}.pdf"))
        fronts = re.findall(r"^Advantage \+(\d)\r?$", text, re.M)
        assert len(fronts) == team.advantage_cards
        assert Counter(int(f) for f in fronts) == Counter(
            int(c.rsplit("-", 1)[1]) for c in derived.deal[team.id])
        total += len(fronts)
    assert total == sum(t.advantage_cards for t in derived.teams.values())


# ---- bad input ----------------------------------------------------------------------------

BAD = """\
kind: scenario
ruleset: naval-warfare
id: bad-start
name: Bad start
date: Jan/Feb 1942
nations:
  - id: uk
    name: UK & Commonwealth
    code: UK
    units: {heavy-shp: 2, escort: -1}
    bases: [Portsmouth, Scapa Flow]
teams:
  - {id: uk, name: Britain, alliance: Allies, nations: [uk]}
routes:
  - {name: UK - Gibraltar, nation: uk, base: Portsmuth, tonnage: 4, length: 2.5}
"""
UNIT_IDS = ("fleet-carrier, escort-carrier, heavy-ship, light-cruiser, escort, submarine, "
            "japanese-submarine, landing-craft, air, escort-carrier-air, strategic-bomber")


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command line run in this process from ``cwd`` (the messages name files
    relative to it), as a finished process: exit code, stdout, stderr."""
    from click.testing import CliRunner

    from generator.cli.main import main

    with contextlib.chdir(cwd):
        result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    return subprocess.CompletedProcess(list(args), result.exit_code, result.stdout,
                                       result.stderr)


@pytest.mark.parametrize("command", ["build", "check"])
def test_bad_campaign_is_located_all_at_once(tmp_path: Path, command: str) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "bad-start.yaml").write_text(BAD, "utf-8")
    args = (["build", "bad-start", "--data", "data", "--out", "out"] if command == "build"
            else ["check", "data"])
    done = _cli(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines()
             if line.startswith("data/bad-start.yaml")]
    assert lines == [
        "data/bad-start.yaml:10:24: nations.0.units.heavy-shp: found 'heavy-shp', expected a "
        f"unit type of the rules: {UNIT_IDS}; did you mean 'heavy-ship'?",
        "data/bad-start.yaml:10:35: nations.0.units.escort: found -1, expected a number of at "
        "least 0",
        "data/bad-start.yaml:15:46: routes.0.base: found 'Portsmuth', expected a fleet base of "
        "'uk': Portsmouth, Scapa Flow; did you mean 'Portsmouth'?",
        "data/bad-start.yaml:15:77: routes.0.length: found 2.5, expected a whole number of sea "
        "areas (0 when the route starts and ends in the same sea area)",
    ]
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_bad_counter_size_and_team_nation(tmp_path: Path) -> None:
    text = BAD.replace("units: {heavy-shp: 2, escort: -1}", "units: {heavy-ship: 2}")
    text = text.replace("base: Portsmuth", "base: Portsmouth").replace("length: 2.5",
                                                                       "length: 2")
    text = text.replace("date: Jan/Feb 1942\n", "date: Jan/Feb 1942\ncounter_size: 7/8in\n")
    text = text.replace("nations: [uk]}", "nations: [ukk]}")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "bad-start.yaml").write_text(text, "utf-8")
    done = _cli("check", "data", cwd=tmp_path)
    assert done.returncode == 2
    lines = [line for line in (done.stdout + done.stderr).splitlines()
             if line.startswith("data/bad-start.yaml")]
    assert lines == [
        "data/bad-start.yaml:6:15: counter_size: found '7/8in', expected a counter size: "
        "1/2in, 5/8in, 3/4in",
        "data/bad-start.yaml:14:57: teams.0.nations.0: found 'ukk', expected a nation id of "
        "this file: uk; did you mean 'uk'?",
    ]


def test_tables_file_replaces_the_default_readings(tmp_path: Path) -> None:
    tables = tmp_path / "tables.yaml"
    tables.write_text("round: up\nlsp_spares: 0\n", "utf-8")
    library = validated_library([])
    ctx, _ = prepared(REGISTRY["naval-warfare"], library,
                      Request("kit", scenario="balance-1942"), "a4", KitOptions(tables=tables))
    d: Derived = ctx.data
    assert d.supply.effective(15, 9) == 8 and load_supply().effective(15, 9) == 7
    # The user's rounding is theirs: no longer the kit's DEFAULT reading.
    assert (d.supply.defaults, load_supply().defaults) == ([], ["round"])
    assert d.mix.lsp_spares == 0 and d.mix.garrison_cv == 8
    made = REGISTRY["naval-warfare"].component("counters")(ctx, "japan")
    assert isinstance(made, Rendered)
    lsp = next(p for p in made.pieces if p.id == "lsp.jp")
    assert lsp.quantity == d.nations["jp"].lsp


def test_the_deal_follows_the_seed(derived: Derived) -> None:
    from generator.rulesets.naval_warfare import deal_cards

    assert derived.campaign is not None
    one, again, other = (deal_cards(derived.campaign, seed) for seed in (1, 1, 2))
    assert one == again and one != other
    for deal in (one, other):
        assert {t: len(c) for t, c in deal.items()} == {
            t.id: t.advantage_cards for t in derived.campaign.teams}
        held = Counter(c for cards in deal.values() for c in cards)
        assert held["advantage-1"] <= 16 and held["advantage-2"] <= 12
        assert held["advantage-3"] <= 6


def test_bad_tables_file_is_located(tmp_path: Path) -> None:
    (tmp_path / "tables.yaml").write_text("round: sideways\nlsp_spares: -2\n", "utf-8")
    done = _cli("build", "balance-1942", "--tables", "tables.yaml", "--out", "out",
                cwd=tmp_path)
    assert done.returncode == 2
    lines = [line for line in (done.stdout + done.stderr).splitlines()
             if line.startswith("tables.yaml")]
    assert lines == ["tables.yaml:1:8: round: found 'sideways', expected one of down, up, "
                     "nearest",
                     "tables.yaml:2:13: lsp_spares: found -2, expected a number of at least 0"]
    assert not (tmp_path / "out").exists()


def test_control_keeps_the_nations_no_team_plays(kit: BuildResult, derived: Derived) -> None:
    text = "\n".join(pages(kit.folder / "game-control.pdf")).replace("\r", "")
    assert "VF\nCL\n3-4-4" in text and "VF DAMAGED\nCL\n1-2-2" in text
    # game control's view holds every nation; its own counter sheets only those no team
    # plays that have forces (Spain and Greece have bases only)
    assert [n.id for n in derived.team_nations(CONTROL)] == list(derived.nations)
    assert [n for n in derived.nations if derived.team_of(n) is None] == ["vf", "es", "gr"]
    codes = {n.code for n in derived.nations.values()}
    doc = pdfium.PdfDocument(kit.folder / "game-control.pdf")
    try:
        held = {line.split(" ")[0] for i in range(len(doc))
                if doc.get_page_label(i).startswith("CONTROL-Counters-")
                for line in doc[i].get_textpage().get_text_range().splitlines()}
    finally:
        doc.close()
    assert held & codes == {"VF"}


def _printed_sizes(path: Path) -> dict[str, float]:
    """The smallest size (pt) each visible word is printed at, across the file."""
    import pypdfium2.raw as raw

    smallest: dict[str, float] = {}
    doc = pdfium.PdfDocument(path)
    for page in doc:
        tp = page.get_textpage()
        word, size = "", 99.0
        for i in range(tp.count_chars()):
            ch = tp.get_text_range(i, 1)
            at = float(raw.FPDFText_GetFontSize(tp.raw, i))
            # Piece ids are printed at 1 pt for the tests; they are not read by players.
            if not ch.strip() or at < 2:
                if word:
                    smallest[word] = min(smallest.get(word, 99.0), size)
                word, size = "", 99.0
                continue
            word, size = word + ch, min(size, at)
        if word:
            smallest[word] = min(smallest.get(word, 99.0), size)
    return smallest


def test_counter_labels_are_6pt_or_larger_at_5_8in(sheets: BuildResult) -> None:
    """Every label on the default 5/8 in counters, DAMAGED and the notes included, is
    printed at 6 pt or more (the flag's note once shrank to 5.5 pt beside the pole)."""
    sizes = _printed_sizes(sheets.folder / "counters-usa.pdf")
    for word in ("DAMAGED", "military", "offensive", "naval", "operations", "logistic",
                 "manpower"):
        assert word in sizes
    small = {w: s for w, s in sizes.items() if s < 6 - 0.005}
    assert small == {}


def test_route_slots_clear_the_label_by_a_millimetre(usa_geometry: list[PlumbedPage]) -> None:
    """The dashed counter slots of a route row start at least 1 mm below the bottom of
    the 'Escort counters (stick below)' label above them."""
    slot = 5 / 8 * INCH + 1 * MM
    checked = 0
    for page in usa_geometry:
        labels = [w for w in page.words if w["text"] == "Escort"]
        tops = sorted({round(r["top"], 2) for r in page.rects
                       if abs(r["width"] - slot) < 0.01 and abs(r["height"] - slot) < 0.01})
        for label in labels:
            below = [t for t in tops if t > label["top"]]
            if not below:
                continue
            assert (below[0] - label["bottom"]) / MM >= 1.0
            checked += 1
    assert checked >= 4
