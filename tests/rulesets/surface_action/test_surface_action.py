"""Surface Action: charts as printed, exact odds against brute force, kits, errors, seam."""

from __future__ import annotations

import ast
import io
import itertools
import re
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from pypdf import PdfReader

from generator.cli.main import main
from generator.core.units import MM
from generator.kit.pipeline import Kit, validated_library
from generator.pages.autofit import LABEL_FLOOR
from generator.pieces.imposition import ID_SIZE
from generator.rules import dice
from generator.rulesets.surface_action import odds
from generator.rulesets.surface_action.charts import load_charts
from generator.rulesets.surface_action.schema import Weapon, Weapons
from tests import builds
from tests.paths import ROOT
from tests.pdftext import Page

RULES = ROOT.parent / "shared" / "rules" / "surface-action.txt"
# The rule text is an OCR scan: some letters are Cyrillic or Greek look-alikes.
LOOKALIKES = str.maketrans({"Р": "P", "Т": "T", "Α": "A", "_": ""})
CHARTS = load_charts()
WEAPONS = Weapons(bands_in=[6, 12, 18, 24, 30, 36],
                  guns={"8in": Weapon(hit=[5, 4, 3, 3, 2, 1], power=4)},
                  torpedoes={"24in": Weapon(hit=[4, 3, 2], power=6)})


# Each kit composed once for the session (in memory: no test here reads the disk).
BUILDS = {"guadalcanal": ("guadalcanal-battleships", "a4"), "plate_letter": ("river-plate",
                                                                            "letter")}


@pytest.fixture(scope="module")
def guadalcanal() -> Kit:
    return builds.kit("guadalcanal-battleships")


@pytest.fixture(scope="module")
def plate_letter() -> Kit:
    return builds.kit("river-plate", paper="letter")


def reader(fixture: str, name: str) -> PdfReader:
    scenario, paper = BUILDS[fixture]
    return PdfReader(io.BytesIO(builds.kit(scenario, paper=paper).files[name]))


def pages(fixture: str, name: str, *, geometry: bool = False,
          advance: bool = False) -> list[Page]:
    scenario, paper = BUILDS[fixture]
    return builds.kit_pages(scenario, name, paper=paper, geometry=geometry, advance=advance)


# ---- the charts, read back from the PDF, equal the rule text cell for cell ------------


def text_charts() -> dict[str, list[list[str]]]:
    """Each chart of the rule text as rows of cells (header first), look-alikes fixed."""
    if not RULES.exists():
        pytest.skip("rule text not present")
    lines = RULES.read_text(encoding="utf-8").splitlines()
    found: dict[str, list[list[str]]] = {}
    for number, line in enumerate(lines):
        title = line.strip()
        if title not in ("Gunfire/Bomb Damage Chart", "Torpedo Damage Chart",
                         "Random Movement Chart"):
            continue
        rows: list[list[str]] = []
        for body in lines[number + 1:]:
            cells = [c.strip().translate(LOOKALIKES) for c in body.split("\t")]
            if body.startswith("Carinic"):  # the scan's garbled repeat of the title
                continue
            if not body.strip():
                if rows:
                    break
                continue
            rows.append(cells)
        key = title if title not in found else title + " (carriers)"
        found[key] = rows
    return found


def pdf_lines(pages: list[Page]) -> list[list[str]]:
    """Words of the pages (as pdfplumber's extract_words finds them), lines top to bottom."""
    out: list[list[str]] = []
    for page in pages:
        rows: dict[int, list[dict]] = {}
        for word in page.layout_words():
            rows.setdefault(round(word["top"]), []).append(word)
        for top in sorted(rows):
            out.append([w["text"] for w in sorted(rows[top], key=lambda w: w["x0"])])
    return out


def test_damage_and_movement_charts_read_back_equal_the_text(guadalcanal: Kit) -> None:
    text = text_charts()
    read = reader("guadalcanal", "referee.pdf")
    card = next(o for o in read.outline if not isinstance(o, list)
                and o.title == "Reference card")
    start = read.get_destination_page_number(card)
    lines = pdf_lines(pages("guadalcanal", "referee.pdf")[start:start + 2])
    gunfire, torpedo = "Gunfire/Bomb Damage Chart", "Torpedo Damage Chart"
    for columns, title in ((["BB/BC", "CA", "CL/AKL", "DD/TB/AKS"], gunfire),
                           (["CV", "CVL", "CVE"], gunfire + " (carriers)"),
                           (["BB/BC/CV", "CA/CVL", "CL", "DD/TB/CVE"], torpedo)):
        # "S S" in the scan is one cell of two S hits
        expected = [[c.replace(" ", "") for c in row[1:1 + len(columns)]]
                    for row in text[title] if row[0][:1].isdigit()]
        assert text[title][0][1:1 + len(columns)] == columns
        at = next(i for i, line in enumerate(lines) if line == ["Roll", *columns])
        printed = [[cell if cell != "—" else "" for cell in line[1:]]
                   for line in lines[at + 1:at + 7]]
        assert [line[0] for line in lines[at + 1:at + 7]] == [str(n) for n in range(1, 7)]
        # a blank cell prints as a dash, so every printed row has every column
        assert printed == [row + [""] * (len(columns) - len(row)) for row in expected], title
    movement = [row for row in text["Random Movement Chart"][1:]]
    at = next(i for i, line in enumerate(lines) if line[:2] == ["Roll", "(2D6)"])
    printed = [[line[0], " ".join(line[1:])] for line in lines[at + 1:at + 1 + len(movement)]]
    assert printed == [[roll, result] for roll, result in movement]


# ---- exact odds against brute-force enumeration ---------------------------------------


def brute_effective(factors: int, hit: int, size: int, power: int) -> dict[int, Fraction]:
    """Roll every die of the three steps, every way it can fall."""
    out: Counter[int] = Counter()
    total = Fraction(0)

    def step(dice_left: int, targets: list[int], weight: Fraction) -> None:
        nonlocal total
        if not targets:
            out[dice_left] += weight
            return
        for faces in itertools.product(range(1, 7), repeat=dice_left):
            passed = sum(f <= targets[0] for f in faces)
            step(passed, targets[1:], weight / 6 ** dice_left)

    step(factors, [hit, size, power], Fraction(1))
    total = sum(out.values(), Fraction(0))
    assert total == 1
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("factors,hit,size,power", [(1, 5, 4, 2), (2, 3, 5, 1), (3, 4, 2, 6),
                                                     (2, 6, 6, 6)])
def test_effective_hits_equal_brute_force(factors: int, hit: int, size: int,
                                          power: int) -> None:
    shot = odds.Shot(hit, size, power, True)
    assert dice.distribution(odds.effective_hits(factors, shot)) == \
        brute_effective(factors, hit, size, power)
    assert shot.chance == Fraction(hit * size * power, 216)


def test_shot_adjustments_follow_the_text() -> None:
    gun = WEAPONS.guns["8in"]
    # power 4 less 1 per band beyond the closest, plus armor
    assert odds.shot("gunfire", gun, 0, 5, -1, night=False, weapons=WEAPONS,
                     charts=CHARTS) == odds.Shot(5, 5, 3, True)
    assert odds.shot("gunfire", gun, 2, 5, -1, night=False, weapons=WEAPONS,
                     charts=CHARTS) == odds.Shot(3, 5, 1, True)
    # below 1: raised to 1 but non-penetrating (S and F only)
    assert odds.shot("gunfire", gun, 3, 5, -1, night=False, weapons=WEAPONS,
                     charts=CHARTS) == odds.Shot(3, 5, 1, False)
    # night: hit values 1 lower beyond 6 in, never below 1
    assert odds.shot("gunfire", gun, 1, 3, 1, night=True, weapons=WEAPONS,
                     charts=CHARTS) == odds.Shot(3, 3, 4, True)
    assert odds.shot("gunfire", gun, 5, 3, 1, night=True, weapons=WEAPONS,
                     charts=CHARTS) == odds.Shot(1, 3, 1, False)
    assert odds.shot("gunfire", gun, 0, 3, 1, night=True, weapons=WEAPONS,
                     charts=CHARTS) == odds.Shot(5, 3, 5, True)
    # torpedoes: no loss of power with range, no night penalty, out of range is None
    torpedo = WEAPONS.torpedoes["24in"]
    assert odds.shot("torpedo", torpedo, 2, 1, -3, night=True, weapons=WEAPONS,
                     charts=CHARTS) == odds.Shot(2, 1, 3, True)
    assert odds.shot("torpedo", torpedo, 3, 1, -3, night=True, weapons=WEAPONS,
                     charts=CHARTS) is None


def test_maneuver_and_halving() -> None:
    assert [odds.halved(n) for n in (1, 2, 3, 5, 10)] == [1, 1, 2, 3, 5]
    f = Fraction
    assert odds.maneuver_factors(10, "early", f(1, 8), CHARTS) == 5
    assert odds.maneuver_factors(10, "early", f(1, 2), CHARTS) == 0
    assert odds.maneuver_factors(10, "regular", f(1, 8), CHARTS) == 10
    assert odds.maneuver_factors(10, "regular", f(1, 4), CHARTS) == 5
    assert odds.maneuver_factors(10, "regular", f(3, 4), CHARTS) == 0
    assert odds.maneuver_factors(10, "advanced", f(1, 2), CHARTS) == 5
    assert odds.maneuver_factors(10, "advanced", f(1, 1), CHARTS) == 5


def test_chart_odds_with_the_long_range_modifier() -> None:
    near = odds.cell_odds("gunfire", "BB", False, CHARTS)
    assert near == {"P": Fraction(1, 6), "M": Fraction(1, 6), "S": Fraction(1, 6),
                    "T": Fraction(1, 6), "": Fraction(1, 3)}
    # -1 beyond 24 in: a 1 and a 2 both read row 1
    far = odds.cell_odds("gunfire", "BB", True, CHARTS)
    assert far == {"P": Fraction(1, 3), "M": Fraction(1, 6), "S": Fraction(1, 6),
                   "T": Fraction(1, 6), "": Fraction(1, 6)}
    assert odds.cell_odds("torpedo", "DD", False, CHARTS)["Sunk"] == Fraction(1, 3)
    # the torpedo chart has no AKL column: the default reads CL
    assert odds.cell_odds("torpedo", "AKL", False, CHARTS) == \
        odds.cell_odds("torpedo", "CL", False, CHARTS)


def brute_fate(kind: str, ship_type: str, hits: int) -> tuple[Fraction, Fraction]:
    """Sunk and out-of-action chances, rolling every damage die and every M/S check."""
    chart, column = CHARTS.column(kind, ship_type)  # type: ignore[arg-type]
    checks = {"M": CHARTS.hit_checks.M, "S": CHARTS.hit_checks.S}
    sunk = out = Fraction(0)
    for rolls in itertools.product(range(1, 7), repeat=hits):
        cells = [chart.cell(r, column) for r in rolls]
        letters = [x for c in cells if c != "Sunk" for x in c]
        fires = sum(r in CHARTS.fires.natural for r in rolls)
        checked = [checks[x] for x in letters if x in checks]
        weight = Fraction(1, 6 ** hits)
        for faces in itertools.product(range(1, 7), repeat=len(checked)):
            w = weight / 6 ** len(checked)
            blown = any(f in c.explosion for f, c in zip(faces, checked, strict=True))
            burning = fires + sum(f in c.fire for f, c in zip(faces, checked, strict=True))
            if "Sunk" in cells or blown or letters.count("P") >= 3:
                sunk += w
            elif letters.count("P") >= 2 or burning >= 3:
                out += w
    return sunk, out


@pytest.mark.parametrize("kind,ship_type,hits", [("gunfire", "DD", 2), ("gunfire", "CA", 3),
                                                 ("torpedo", "CL", 2), ("gunfire", "BB", 3)])
def test_fates_equal_brute_force(kind: str, ship_type: str, hits: int) -> None:
    per_hit = odds.hit_damage(kind, ship_type, long_range=False,  # type: ignore[arg-type]
                              penetrating=True, readied=False,
                              checks={"M": CHARTS.hit_checks.M, "S": CHARTS.hit_checks.S},
                              charts=CHARTS)
    fate = odds.fates(per_hit, hits, CHARTS)[-1]
    assert (fate.sunk, fate.crippled + fate.abandoned) == brute_fate(kind, ship_type, hits)


# ---- the kit -----------------------------------------------------------------------------


def outline_titles(read: PdfReader) -> list[str]:
    return [o.title for o in read.outline if not isinstance(o, list)]


def test_packets_hold_every_component(guadalcanal: Kit) -> None:
    assert set(guadalcanal.files) == {"japanese.pdf", "american.pdf", "referee.pdf",
                                      "back-offset-check.pdf"}
    titles = outline_titles(reader("guadalcanal", "american.pdf"))
    # Run by run: pages to read, then fronts with their backs, then cut out of one side.
    assert titles == ["How to print this packet", "Briefing", "Set-up map",
                      "Data sheet: Task Force 64",
                      "Matchups: Task Force 64", "Resolution tables", "Pre-rolled dice",
                      "Reference card", "Counters: Task Force 64", "Turn guides",
                      "Ruler · 1 in = 1,000 yd"]
    referee = outline_titles(reader("guadalcanal", "referee.pdf"))
    assert referee.count("Event cards") == 1  # one deck per table, in the referee's packet
    assert "Data sheet: Emergency Bombardment Force" in referee
    assert "Data sheet: Task Force 64" in referee


def test_data_sheet_rows_come_from_the_class_files(guadalcanal: Kit) -> None:
    text = "".join(builds.kit_texts("guadalcanal-battleships", "japanese.pdf")[2:4])
    library = validated_library([])
    scenario = library.scenarios["guadalcanal-battleships"].model
    # Each ship as she was that night: Atago and Takao with their 1942 refit.
    for class_id, ship in (("takao", "Atago"), ("kongo", "Kirishima"), ("fubuki", "Shirayuki")):
        cls = library.model_at("surface-action", class_id, ship, scenario.date)
        for battery in cls.guns:
            assert f"{battery.weapon} {battery.factors}" in text
        if cls.torpedoes:
            assert cls.torpedoes.factors in text
        assert cls.size in text


def test_hit_boxes_per_ship(guadalcanal: Kit) -> None:
    """P 3, M 2, S 2, T 2 with torpedoes, F 5 (A 2 on carriers): 14 boxes, 12 without tubes."""
    page = pages("guadalcanal", "japanese.pdf", geometry=True)[3]  # after note, briefing, map
    rows = {w["text"]: w["top"] for w in page.layout_words() if w["text"] in
            ("Atago", "Kirishima")}
    for name, count in (("Atago", 14), ("Kirishima", 12)):
        top = rows[name]
        boxes = [r for r in page.rects if top - 2 <= r["top"] <= top + 12 * MM
                 and abs(r["width"] - r["height"]) < 0.01 and r["width"] < 4 * MM]
        assert len(boxes) == count, name


@pytest.mark.parametrize("fixture", ["guadalcanal", "plate_letter"])
def test_no_enemy_ship_named_in_a_side_packet(fixture: str,
                                              request: pytest.FixtureRequest) -> None:
    kit: Kit = request.getfixturevalue(fixture)
    library = validated_library([])
    scenario_id, paper = BUILDS[fixture]
    scenario = library.scenarios[scenario_id].model
    assert {f"{side.id}.pdf" for side in scenario.sides} < set(kit.files)
    for side in scenario.sides:
        own = "".join(builds.kit_texts(scenario_id, f"{side.id}.pdf", paper=paper))
        for other in scenario.sides:
            if other.id == side.id:
                continue
            for ref in other.ships:
                # matchups name enemy classes (what the model shows), never ships
                cleaned = re.sub(r"[\w ]+ class", "", own)
                assert not re.search(rf"(?<!\w){re.escape(ref.name)}(?!\w)", cleaned), \
                    (side.id, ref.name)


@pytest.mark.parametrize("fixture", ["guadalcanal", "plate_letter"])
def test_pages_sizes_and_type_floor(fixture: str, request: pytest.FixtureRequest) -> None:
    kit: Kit = request.getfixturevalue(fixture)
    for name in kit.files:
        labels = reader(fixture, name).page_labels
        # Where text was set (its advance), not its ink: an "f" at a full line's end
        # overhangs its advance by a fraction of a point, as in any typeset text.
        for number, page in enumerate(pages(fixture, name, geometry=True, advance=True)):
            # three 63 mm cards and their gutters need a little more than the 10 mm
            # margins leave on A4; their sheets keep 5 mm, which every printer prints
            margin = (5 if "Cards-" in labels[number] else 10) * MM
            # on a sheet of backs, a back's ground runs 1.5 mm past its trim (clipped
            # there): it may reach that far into the margin
            ground = 1.5 * MM if "Counters-" in labels[number] or "Cards-" in labels[number] \
                else 0.0
            for obj in page.chars + page.rects + page.lines:
                slack = 0.01 + (ground if obj["object_type"] == "rect" else 0.0)
                assert obj["x0"] >= margin - slack, (name, number, obj)
                assert obj["x1"] <= page.width - margin + slack, (name, number, obj)
            if not page.chars:
                assert "Counters-" in labels[number + 1] or "Cards-" in labels[number + 1]
                continue
            cut_out = "Counters-" in labels[number] or "Cards-" in labels[number]
            floor = LABEL_FLOOR if cut_out else 7.0
            sizes = [c["size"] for c in page.chars if abs(c["size"] - ID_SIZE) > 1e-6]
            # below the floor only as the label fitter's last resort, which the kit reports
            below = {f"{size:.2f}" for size in sizes if size < floor - 1e-6}
            assert not below or cut_out, (name, number, labels[number])
            assert all(any(f"at {size} pt" in w for w in kit.warnings) for size in below), \
                (name, number, below)


# ---- errors ----------------------------------------------------------------------------


def test_bad_scenario_reports_every_problem_located(tmp_path: Path) -> None:
    source = ROOT / "shipdata" / "surface_action" / "scenarios" / "river-plate.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["id"] = "plate-bad"
    data["time"] = "night"  # 36 in is no night range
    del data["weapons"]["guns"]["11in"]
    data["sides"][1]["ships"][0]["name"] = "Exter"
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "plate-bad.yaml").write_text(yaml.safe_dump(data, sort_keys=False),
                                           encoding="utf-8")
    before = (folder / "plate-bad.yaml").read_bytes()
    result = CliRunner().invoke(main, ["build", "plate-bad", "--data", str(folder),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if "plate-bad.yaml:" in line]
    messages = {line.split(": ", 2)[1]: line.split(": ", 2)[2] for line in lines}
    assert messages["weapons.guns"] == ("found no '11in' (carried by Admiral Graf Spee), "
                                        "expected every weapon type in play in the weapons "
                                        "table")  # no type is close enough to suggest
    assert messages["sighting_in"] == "found 36, expected a night sighting range of 4 to " \
                                      "18 inches"
    assert messages["sides.1.ships.0.name"] == (
        "found 'Exter', expected a ship of the York class (York, Exeter); did you mean 'Exeter'?")
    assert (folder / "plate-bad.yaml").read_bytes() == before
    assert not (tmp_path / "out").exists()


def test_bad_gun_factors_are_located(tmp_path: Path) -> None:
    source = ROOT / "shipdata" / "classes" / "uk" / "york.yaml"
    folder = tmp_path / "data"
    folder.mkdir()
    text = source.read_text(encoding="utf-8")
    bad = re.sub(r"factors: (\d+-\d+-\d+)", "factors: 4-6", text, count=1)
    (folder / "york.yaml").write_text(bad, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.exit_code == 2
    line = next(x for x in result.output.splitlines() if "york.yaml:" in x)
    assert "ratings.surface-action.guns.0.factors: found '4-6', expected " \
           "bow-broadside-stern factors such as '2-4-2'" in line
    assert re.match(r".*york\.yaml:\d+:\d+: ", line)


# ---- the seam ----------------------------------------------------------------------------


def imported_modules(folder: Path) -> set[str]:
    found = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
    return found


def test_rulesets_do_not_import_each_other() -> None:
    rulesets = ROOT / "generator" / "rulesets"
    sa = imported_modules(rulesets / "surface_action")
    na = imported_modules(rulesets / "naval_action")
    assert not [m for m in sa if "naval_action" in m]
    assert not [m for m in na if "surface_action" in m]
    # and Surface Action really does stand on the shared machinery
    for shared in ("generator.kit.seam", "generator.rules.dice", "generator.data.validation",
                   "generator.data.roster", "generator.pages.canvasdoc",
                   "generator.pages.component"):
        assert shared in sa, shared


def test_tables_file_replaces_a_chart(tmp_path: Path) -> None:
    override = tmp_path / "tables.yaml"
    override.write_text("hit_checks:\n  default: false\n  M: {explosion: [5, 6]}\n"
                        "  S: {fire: [6]}\n", encoding="utf-8")
    charts = load_charts(override)
    assert charts.hit_checks.M.explosion == [5, 6]
    assert charts.damage_charts == CHARTS.damage_charts
    shutil.copy(override, tmp_path / "copy.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("hit_cheks: {}\n", encoding="utf-8")
    with pytest.raises(Exception) as err:
        load_charts(bad)
    assert "did you mean 'hit_checks'" in str(err.value.problems[0])  # type: ignore[attr-defined]
