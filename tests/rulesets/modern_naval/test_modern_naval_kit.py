"""Modern naval data half (issue 16): unit data, ratings by documented rules, cards, packets.

Ratings are checked against the rules file read by hand here (not through derive.py), the
cards are read back from the PDF, the packets are checked for hidden information, and each
bad input gives its exact located message, exit 2 and no files.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pdfplumber
import pypdfium2 as pdfium
import pytest
import yaml
from click.testing import CliRunner

from generator.cli.main import main
from generator.core.errors import DataError
from generator.core.ownedfolders import MARKER
from generator.core.units import MM
from generator.data.library import load_library
from generator.kit.pipeline import build
from generator.rulesets.modern_naval import RULESET, derive
from generator.rulesets.modern_naval.model import UnitView
from generator.rulesets.modern_naval.schema import reach_km
from tests.paths import ROOT

if TYPE_CHECKING:
    from tests.conftest import Kits

TABLES = ROOT / "generator" / "rulesets" / "modern_naval" / "tables"
MODERN = ROOT / "shipdata" / "classes" / "modern"
RULES = yaml.safe_load((TABLES / "rating.yaml").read_text(encoding="utf-8"))["rating"]
WEAPONS = yaml.safe_load((TABLES / "weapons.yaml").read_text(encoding="utf-8"))["weapons"]
LIBRARY = load_library()


def _text(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]


def _pages(path: Path, wanted: Callable[[str, str], bool]) -> list[int]:
    """Page numbers (from 1) whose label and text (read by pypdfium2) are ``wanted``.

    pdfplumber, slow, then opens only these pages for the geometry.
    """
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [i + 1 for i in range(len(pdf))
                if wanted(pdf.get_page_label(i), pdf[i].get_textpage().get_text_range())]
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def latakia(kits: Kits) -> Path:
    return kits.build("latakia-1973").folder


@pytest.fixture(scope="module")
def sheffield(kits: Kits) -> Path:
    return kits.build("sheffield-1982").folder


def _band(bands: list[dict[str, object]], value: float, above: object) -> object:
    for band in bands:
        if value < float(band["below"]):  # type: ignore[arg-type]
            return band["value"]
    return above


def _gen(year: int) -> int:
    return int(_band(RULES["generation_year"], year, RULES["generation_above"]))  # type: ignore[call-overload]


# --- the one library ---------------------------------------------------------------------

def test_missile_era_classes_are_only_this_rulesets() -> None:
    modern = {p.stem for p in MODERN.rglob("*.yaml")
              if yaml.safe_load(p.read_text(encoding="utf-8"))["kind"] == "ship-class"}
    assert modern <= set(LIBRARY.classes_of("modern-naval"))
    for gun_era in ("naval-action", "surface-action"):
        assert not modern & set(LIBRARY.classes_of(gun_era))
        assert not modern & set(LIBRARY.unrated.get(gun_era, {}))
    # ...and this ruleset passes the gun-era classes by, without an unrated line.
    assert "takao" not in LIBRARY.classes_of("modern-naval")
    assert not LIBRARY.unrated.get("modern-naval")


def test_starter_library_size() -> None:
    ships = LIBRARY.classes_of("modern-naval")
    aircraft = LIBRARY.of_kind("modern-naval", "aircraft-class")
    assert len(ships) + len(aircraft) >= 30
    for entry in [*ships.values(), *aircraft.values()]:
        assert entry.model.sources, entry.model.id


def _resolves(data: object, path: str) -> bool:
    for part in path.split("."):
        if isinstance(data, list) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        elif isinstance(data, dict) and part in data:
            data = data[part]
        else:
            return False
    return True


def test_every_unverified_entry_names_a_figure_in_its_file() -> None:
    """An unverified line starts with the path of a figure the file holds."""
    files = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in MODERN.rglob("*.yaml")]
    lines = 0
    for data in [*files, *WEAPONS.values()]:
        for line in data.get("unverified", []):
            assert _resolves(data, line.split(" ")[0]), (data.get("id", data.get("name")), line)
            lines += 1
    assert lines >= 200  # 244 today: the check met the files that have unverified lines


# --- ratings by the documented rules ------------------------------------------------------

def _views(scenario: str) -> dict[str, list[UnitView]]:
    from generator.kit.seam import KitOptions, Request

    ctx = RULESET.prepare(LIBRARY, Request("kit", scenario=scenario), "a4", KitOptions())
    views: dict[str, list[UnitView]] = ctx.data.views
    return views


def test_type_42_rated_from_its_facts_by_the_rules_file() -> None:
    facts = yaml.safe_load((MODERN / "uk" / "type-42.yaml").read_text(encoding="utf-8"))
    sheffield = next(v for v in _views("sheffield-1982")["uk"] if v.name == "Sheffield")
    modern = facts["modern"]
    assert sheffield.size == _band(RULES["ship_size_t"], modern["full_load_t"],
                                   RULES["ship_size_above"]) == "medium"
    assert sheffield.damage == _band(RULES["ship_damage_t"], modern["full_load_t"],
                                     RULES["ship_damage_above"]) == 0
    assert sheffield.speed == min(6, math.floor(facts["speed_kn"] / RULES["knots_per_marker"])) == 5
    assert sheffield.mvr == _band(RULES["mvr_length_m"], modern["length_m"],
                                  RULES["mvr_above"]) == 6
    years = {s["role"]: s["year"] for s in modern["systems"]}
    assert (sheffield.fcs, sheffield.esm, sheffield.ecm, sheffield.eo) == (
        _gen(years["fcs"]), _gen(years["esm"]), _gen(years["ecm"]), None) == (2, 2, 2, None)
    assert sheffield.crew == 1  # the scenario's side crew quality
    dart = sheffield.weapons[0]
    assert (dart.name, dart.kind, dart.seeker, dart.generation) == ("Sea Dart (GWS30)", "sam",
                                                                    "SARH", 2)


def test_weapon_ranges_follow_the_ground_scale_and_damage_the_warhead() -> None:
    per_km = 1000 / RULES["metres_per_cm"]
    etendard = _views("sheffield-1982")["argentina"][0]
    exocet = etendard.weapons[0]
    low, high = WEAPONS["exocet-am39"]["range_km"]
    assert exocet.range_cm == (round(low * per_km), round(high * per_km)) == (16, 280)
    assert exocet.damage == _band(RULES["weapon_damage_kg"], WEAPONS["exocet-am39"]["warhead_kg"],
                                  RULES["weapon_damage_above"]) == 2
    assert (exocet.seeker, exocet.generation, exocet.ammunition) == ("ARH", 2, 1)
    assert etendard.category == "aircraft" and etendard.mvr == 0


def test_every_bundled_weapon_reads_the_tables_rows() -> None:
    tables = derive.bundled_tables()
    for wid, spec in tables.weapons.items():
        if spec.seeker in ("ARH", "SARH"):
            assert spec.generation in (1, 2, 3), wid
        else:
            assert spec.generation is None, wid
        low, high = reach_km(spec)
        assert 0 <= low <= high, wid


def test_a_range_in_nautical_miles_becomes_km_then_cm(tmp_path: Path) -> None:
    line = {k: v for k, v in WEAPONS["sea-dart"].items() if k != "range_km"}
    path = tmp_path / "tables.yaml"
    path.write_text(yaml.safe_dump({"weapons": {"sea-dart": dict(line, range_nm=[2, 40])}}),
                    encoding="utf-8")
    tables = derive.load_tables(path)
    per_km = 1000 / RULES["metres_per_cm"]
    assert derive.range_cm(tables.weapons["sea-dart"], tables.rating) == (
        round(2 * 1.852 * per_km), round(40 * 1.852 * per_km)) == (15, 296)
    both = dict(WEAPONS["sea-dart"], range_nm=[2, 40])
    path.write_text(yaml.safe_dump({"weapons": {"sea-dart": both}}), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        derive.load_tables(path)
    assert [p.message for p in caught.value.problems] == [
        "found a mapping, expected exactly one of range_km and range_nm"]


def test_tables_file_replaces_the_ground_scale(tmp_path: Path) -> None:
    changed = dict(RULES, metres_per_cm=500)
    path = tmp_path / "tables.yaml"
    path.write_text(yaml.safe_dump({"rating": changed}), encoding="utf-8")
    tables = derive.load_tables(path)
    spec = tables.weapons["p15-termit"]
    assert derive.range_cm(spec, tables.rating) == (8, 80)
    assert derive.range_cm(spec, derive.bundled_tables().rating) == (16, 160)


def test_side_crew_and_class_overrides() -> None:
    israel = _views("latakia-1973")["israel"]
    syria = _views("latakia-1973")["syria"]
    assert {v.crew for v in israel} == {1} and {v.crew for v in syria} == {-1}
    reshef = israel[0]
    assert (reshef.name, reshef.size, reshef.speed, reshef.mvr) == ("Reshef", "very-small", 5, 4)


# --- cards and packets --------------------------------------------------------------------

def test_each_side_sees_only_its_own_units(latakia: Path) -> None:
    assert sorted(p.name for p in latakia.iterdir() if p.name != MARKER) == [
        "back-offset-check.pdf", "israel.pdf", "manifest.json", "pieces.json", "syria.pdf",
        "umpire.pdf"]
    israel = "\n".join(_text(latakia / "israel.pdf"))
    syria = "\n".join(_text(latakia / "syria.pdf"))
    umpire = "\n".join(_text(latakia / "umpire.pdf"))
    for name in ("Reshef", "Mivtach", "Miznak", "Gaash", "Hanit"):
        assert name in israel and name not in syria and name in umpire
    for name in ("Yarmouk", "Syrian Osa A", "Syrian Komar B"):
        assert name in syria and name not in israel and name in umpire
    # Each side's set-up is its own; the umpire reads both and the starting conditions.
    assert "two columns" in israel and "two columns" not in syria
    assert "Starting conditions" in umpire and "Starting conditions" not in israel
    toc = [b.get_title() for b in pdfium.PdfDocument(str(latakia / "israel.pdf")).get_toc()]
    assert "Reshef (Sa'ar 4 (Reshef))" in toc and not any("Yarmouk" in t for t in toc)


def test_card_prints_every_rating_weapon_and_track(sheffield: Path) -> None:
    pages = _text(sheffield / "uk.pdf")
    card = next(p for p in pages if "Sheffield" in p and "Sea Dart" in p and "KO Weapon" in p)
    for text in ("Size", "Medium*", "Crew", "+1", "FCS", "2nd*", "EO", "None*", "ESM", "ECM",
                 "Speed", "5*", "MVR", "6 cm*", "Damage mod", "±0*",
                 "Sea Dart (GWS30)", "SARH 2nd", "16–296", "22",
                 "Damage level", "Light", "Heavy", "Critical", "Wrecked", "Speed 5: lost",
                 "MVR 6 cm: added", "+8 cm", "Fires", "Blackout", "Crew +1: lost",
                 "quarterdeck DEFAULT", f"1 cm = {RULES['metres_per_cm']} m"):
        assert text in card, text


def test_cards_are_half_pages_with_text_inside_the_frame(sheffield: Path) -> None:
    # Card pages carry the KO column; the reference card also names damage levels.
    wanted = _pages(sheffield / "uk.pdf",
                    lambda label, text: "Damage level" in text and "KO Weapon" in text)
    with pdfplumber.open(sheffield / "uk.pdf", pages=wanted) as pdf:
        card_pages = pdf.pages
        assert len(card_pages) == 4  # eight units, two cards a page
        for page in card_pages:
            frames = [r for r in page.rects if r["height"] > 100 * MM]
            assert len(frames) == 2
            for frame in frames:
                assert frame["width"] == pytest.approx(190 * MM, abs=0.01 * MM)
                assert frame["height"] > 120 * MM
            footer_top = min(f["bottom"] for f in frames)
            for char in page.chars:
                if char["top"] > footer_top:
                    continue  # the page footer, below both cards
                inside = [f for f in frames
                          if f["x0"] + 1 * MM <= char["x0"] and char["x1"] <= f["x1"] - 1 * MM
                          and f["top"] + 1 * MM <= char["top"]
                          and char["bottom"] <= f["bottom"] - 1 * MM]
                assert inside, (char["text"], char["x0"], char["top"])


def test_class_proof_card(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "--class", "type-21", "--ruleset", "modern-naval",
                                       "--out", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    pdf = next(tmp_path.rglob("type-21.pdf"))
    text = "\n".join(_text(pdf))
    assert "Amazon" in text and "Exocet MM38" in text and "Sea Cat" in text


# --- bad input ----------------------------------------------------------------------------

BAD_TABLES = """\
weapons:
  styx:
    name: Styx
    kind: missile
    seeker: SAHR
    targets: [surface]
    range_km: [-1, 40]
  gab:
    name: Gab
    kind: missile
    seeker: ARH
    generation: 4
    targets: [surface]
    range_km: [0, 20]
  heat:
    name: Heat
    kind: missile
    seeker: IR
    generation: 2
    targets: [air]
    range_km: [0, 5]
"""


def _refused(args: list[str], tmp_path: Path) -> list[str]:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [*args, "--out", str(out), "-q"])
    assert result.exit_code == 2, result.output
    assert not out.exists()
    assert "Traceback" not in result.output
    return [line for line in result.output.splitlines() if line and not line.startswith("error")]


def test_bad_seeker_generation_and_range_are_located(tmp_path: Path) -> None:
    tables = tmp_path / "tables.yaml"
    tables.write_text(BAD_TABLES, encoding="utf-8")
    t = str(tables)
    assert _refused(["build", "latakia-1973", "--tables", t], tmp_path) == [
        f"{t}:5:13: weapons.styx.seeker: found 'SAHR', expected a seeker type the SAM and "
        "missile tables have: ARH, SARH, CMD (V), CMD (R), CMD (Wire), IR; did you mean 'SARH'?",
        f"{t}:7:16: weapons.styx.range_km.0: found -1, expected a number of at least 0",
        f"{t}:12:17: weapons.gab.generation: found 4, expected generation 1, 2 or 3: the ARH "
        "rows of the SAM and missile tables are split by generation",
        f"{t}:19:17: weapons.heat.generation: found 2, expected no generation: the IR row has "
        "none in the tables",
    ]


def test_an_mvr_the_turning_table_lacks_is_located(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    text = (MODERN / "il" / "saar-3.yaml").read_text(encoding="utf-8")
    (data / "saar-3.yaml").write_text(text + "ratings:\n  modern-naval: {mvr: 5}\n",
                                      encoding="utf-8")
    lines = _refused(["build", "latakia-1973", "--data", str(data)], tmp_path)
    assert lines == [f"{data / 'saar-3.yaml'}:{text.count(chr(10)) + 2}:23: "
                     "ratings.modern-naval.mvr: found 5, expected one of the text's MVR values: "
                     "2, 4, 6, 8, 10"]


def test_a_weapon_range_override_below_zero_and_an_aircraft_mvr(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    text = (MODERN / "uk" / "lynx-has2.yaml").read_text(encoding="utf-8")
    (data / "lynx-has2.yaml").write_text(text + "ratings: {mvr: 4}\n", encoding="utf-8")
    tables = tmp_path / "tables.yaml"
    weapons = {"weapons": dict(WEAPONS, **{"sea-skua": dict(WEAPONS["sea-skua"],
                                                            range_cm=[-2, 100])})}
    tables.write_text(yaml.safe_dump(weapons), encoding="utf-8")
    lines = _refused(["build", "sheffield-1982", "--data", str(data)], tmp_path)
    assert len(lines) == 1 and lines[0].endswith(
        "ratings.mvr: found 4, expected no mvr: aircraft and helicopters do not turn "
        "by MVR")
    lines = _refused(["build", "sheffield-1982", "--tables", str(tables)], tmp_path)
    assert len(lines) == 1
    assert "weapons.sea-skua.range_cm.0: found -2, expected a number of at least 0" in lines[0]


def test_unknown_weapon_and_class_in_a_scenario(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    source = ROOT / "shipdata" / "modern_naval" / "scenarios" / "sheffield-1982.yaml"
    text = source.read_text(encoding="utf-8")
    text = text.replace("{weapon: sea-skua, launchers: 2", "{weapon: sea-skue, launchers: 2")
    text = text.replace("{class: rothesay, name: Yarmouth}", "{class: rothsay, name: Yarmouth}")
    path = data / "sheffield-1982.yaml"
    path.write_text(text, encoding="utf-8")
    lines = _refused(["build", "sheffield-1982", "--data", str(data)], tmp_path)
    assert [line.split(": ", 1)[1] for line in lines] == [
        "sides.0.units.4.class: found unknown class 'rothsay', expected a modern-naval class "
        "or aircraft type id; did you mean 'rothesay'?",
        "sides.0.units.7.weapons.0.weapon: found unknown weapon 'sea-skue', expected a weapon "
        "of the weapons table; did you mean 'sea-skua'?",
    ]


# --- hidden information from the scenario: dummies and a known order of battle -----------

def test_scenario_dummies_reach_each_sides_markers(latakia: Path) -> None:
    """``dummies:`` of each side (3 and 2) is the number of dummy contact backs printed."""
    israel = "\n".join(_text(latakia / "israel.pdf"))
    syria = "\n".join(_text(latakia / "syria.pdf"))
    umpire = "\n".join(_text(latakia / "umpire.pdf"))
    assert israel.count("DUMMY ") == 3 and syria.count("DUMMY ") == 2
    assert umpire.count("DUMMY ") == 5
    assert "Dummy contact markers: 3. Enemy order of battle: not known" in israel
    assert "Dummy contact markers: 2. Enemy order of battle: not known" in syria
    # The firer's speed on the matchup pages is an assumption, and says so.
    assert "own speed markers 2 (DEFAULT), which no scenario sets" in israel


def _scenario_copy(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    text = (ROOT / "shipdata" / "modern_naval" / "scenarios" / "latakia-1973.yaml"
            ).read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    (data / "latakia-1973.yaml").write_text(text, encoding="utf-8")
    return data


def test_a_side_that_knows_the_enemy_sees_its_classes(tmp_path: Path) -> None:
    data = _scenario_copy(tmp_path, ("    known: false", "    known: true"))
    folder = build("latakia-1973", out=tmp_path / "out", data=[data]).folder
    israel = "\n".join(_text(folder / "israel.pdf"))
    syria = "\n".join(_text(folder / "syria.pdf"))
    assert "Enemy order of battle: known" in israel
    # The matchup rows name the enemy units; Syria's still give Israel by its values.
    assert "Yarmouk" in israel and "by name (your side knows the enemy order" in israel
    assert "Reshef" not in syria and "not known to you" in syria


def test_bad_dummies_and_known_are_located(tmp_path: Path) -> None:
    data = _scenario_copy(tmp_path, ("    dummies: 3", "    dummies: -1"),
                          ("    known: false", "    known: maybe"))
    lines = _refused(["build", "latakia-1973", "--data", str(data)], tmp_path)
    assert len(lines) == 2, lines
    assert ":17:" in lines[0] and "sides.0.dummies: found -1" in lines[0]
    assert ":18:" in lines[1] and "sides.0.known: found 'maybe'" in lines[1]


def test_no_marker_text_below_six_points(sheffield: Path) -> None:
    """Every word printed on a marker (fronts and backs) is at least 6 pt.

    The sheet's piece ids (1 pt, for tools reading the PDF) are the only smaller text.
    """
    import re

    piece_id = re.compile(r"^[a-z-]+\.[a-z0-9.-]+$")
    seen = 0
    wanted = _pages(sheffield / "umpire.pdf", lambda label, text: "Cut on the grey lines"
                    in " ".join(text.split()) or "Backs of sheet" in " ".join(text.split()))
    assert wanted
    with pdfplumber.open(str(sheffield / "umpire.pdf"), pages=wanted) as pdf:
        for page in pdf.pages:
            for word in page.extract_words(extra_attrs=["size"]):
                if piece_id.match(word["text"]):
                    continue
                seen += 1
                assert word["size"] >= 5.99, (page.page_number, word["text"], word["size"])
    assert seen > 200
    assert "small arms only" in "\n".join(_text(sheffield / "umpire.pdf"))


def test_movement_gauge_read_back_from_the_pdf(latakia: Path) -> None:
    """In the side's packet: each full 5 cm band is 50.00 mm, and a zero line is printed.

    The strip engine leaves 6 mm of paper before the zero, so without a printed zero
    line a player would measure from the cut edge.
    """
    tints = {(0.8, 0.88, 0.97), (0.93, 0.96, 1.0)}
    wanted = _pages(latakia / "israel.pdf",
                    lambda label, text: "Movement: 5 cm bands · 1/2" in text)
    with pdfplumber.open(str(latakia / "israel.pdf"), pages=wanted[:1]) as pdf:
        page = pdf.pages[0]
        assert "Movement: 5 cm bands · 1/2" in (page.extract_text() or "")
        bands = sorted((r for r in page.rects
                        if tuple(round(v, 2) for v in r["non_stroking_color"] or ()) in tints),
                       key=lambda r: (r["top"], r["x0"]))
        first_row = [r for r in bands if abs(r["top"] - bands[0]["top"]) < 0.01]
        full = [r for r in first_row if r["width"] > 40 * MM]
        assert len(full) == 3
        for band in full:
            assert abs(band["width"] / MM - 50.0) < 0.01
        for left, right in zip(full, full[1:], strict=False):
            assert abs(right["x0"] - left["x1"]) < 0.01 * MM
        zero = full[0]["x0"]
        ticks = [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01
                 and ln["bottom"] < full[0]["top"] and ln["top"] > full[0]["top"] - 20 * MM]
        assert any(abs(t["x0"] - zero) < 0.01 * MM for t in ticks)          # the zero line
        assert any(abs(t["x0"] - zero - 50 * MM) < 0.01 * MM for t in ticks)  # 5 cm
        words = page.extract_words()
        assert any(w["text"] == "0" and abs((w["x0"] + w["x1"]) / 2 - zero) < 1 * MM
                   for w in words)


def test_super_etendard_weight_as_sourced(sheffield: Path) -> None:
    """The card prints the sourced maximum weight (11,900 kg: stef76.chez.com), not 12,000."""
    argentina = "\n".join(_text(sheffield / "argentina.pdf"))
    assert "11,900 kg max take-off" in argentina and "12,000 kg" not in argentina


def test_gauge_limit_labels_keep_a_millimetre_from_the_cut(latakia: Path) -> None:
    """Every range-limit label (bold 8 pt) stays 1 mm inside its strip's cut line."""
    checked = 0
    # Strips are cut out: only the aids and marker sheets have any.
    wanted = _pages(latakia / "umpire.pdf",
                    lambda label, text: label.startswith(("Aids-", "Markers-")))
    with pdfplumber.open(str(latakia / "umpire.pdf"), pages=wanted) as pdf:
        for page in pdf.pages:
            strips = [r for r in page.rects
                      if r["stroke"] and not r["fill"] and r["height"] > 10 * MM]
            for word in page.extract_words(extra_attrs=["size", "fontname"]):
                if abs(word["size"] - 8) > 0.01 or "Bold" not in word["fontname"]:
                    continue
                for r in strips:
                    if (r["x0"] - 0.1 <= word["x0"] and word["x1"] <= r["x1"] + 0.1
                            and r["top"] <= word["top"] and word["bottom"] <= r["bottom"]):
                        checked += 1
                        gap = min(word["x0"] - r["x0"], r["x1"] - word["x1"])
                        assert gap >= 1 * MM - 0.01, (page.page_number, word["text"], gap / MM)
    assert checked > 20


def test_a_side_without_dummies_gets_the_markers_tables_four(tmp_path: Path) -> None:
    data = _scenario_copy(tmp_path, ("    dummies: 3\n", ""))
    folder = build("latakia-1973", out=tmp_path / "out", data=[data]).folder
    israel = "\n".join(_text(folder / "israel.pdf"))
    assert israel.count("DUMMY ") == 4 and "Dummy contact markers: 4." in israel
