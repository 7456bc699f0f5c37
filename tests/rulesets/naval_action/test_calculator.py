"""The rules calculator in the kit: matchup pages, victory sheet, dice sheet, CLI."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli.main import main
from generator.kit.pipeline import BuildResult, build_tables, compose, validated_library
from generator.kit.seam import KitOptions, Request
from generator.rules.dice import pairs, percent
from generator.rulesets.naval_action import RULESET
from generator.rulesets.naval_action.cardtables import TABLES, load_tables
from generator.rulesets.naval_action.matchups import expected_text, share_pages, ship_matchups
from generator.rulesets.naval_action.odds import Calculator
from generator.rulesets.naval_action.victory import loss_multipliers, points, ship_values
from tests import builds
from tests.pdftext import open_pages


def page_texts(path: Path) -> list[str]:
    """Each page's text in content order (pypdfium2), read once per session."""
    return builds.texts(path)


def labels(path: Path) -> list[str]:
    from pypdf import PdfReader

    return list(PdfReader(path).page_labels)


def savo_matchups(calc: Calculator, side: str) -> list:
    library = validated_library([])
    scenario = library.scenarios["savo-island"].model
    views = RULESET._views(library, scenario)
    enemies = [v for s in scenario.sides if s.id != side for v in views[s.id]]
    return [ship_matchups(calc, v, enemies, scenario.sea_state, scenario.date.year)
            for v in views[side]]


# -- victory ------------------------------------------------------------------------


def test_victory_ratio_matches_the_rule_texts_example() -> None:
    # Two heavy cruisers (10) against two destroyers (4); one ship sunk on each side.
    mult = loss_multipliers({"cruisers": Fraction(10), "destroyers": Fraction(4)})
    assert mult == {"cruisers": Fraction(5, 2), "destroyers": Fraction(1)}
    cruisers = ship_values([("A", "X", "CA", Fraction(5)), ("B", "X", "CA", Fraction(5))],
                           mult["cruisers"], Fraction(1, 2))
    destroyers = ship_values([("C", "Y", "DD", Fraction(2)), ("D", "Y", "DD", Fraction(2))],
                             mult["destroyers"], Fraction(1, 2))
    assert points(cruisers, ["A"], []) == Fraction(25, 2)  # the destroyers' 12.5
    assert points(destroyers, ["C"], []) == 2               # the cruisers' normal 2
    assert points(cruisers, [], ["B"]) == Fraction(25, 4)  # heavy damage: half


def test_victory_sheet_in_the_referee_packet_only(savo: BuildResult) -> None:
    referee = "\n".join(page_texts(savo.folder / "referee.pdf"))
    assert "scores 12.5 for the destroyers and 2 for the cruisers" in referee
    assert [line for line in referee.splitlines() if "losses score for" in line] == [
        "Japanese Striking Force: losses score for Allied Screening Force (× 1)",
        "Allied Screening Force: losses score for Japanese Striking Force (× 1)"]
    for side in ("japanese", "allied"):
        assert "victory points" not in "\n".join(page_texts(savo.folder / f"{side}.pdf"))


def test_victory_sheet_values_for_savo(savo: BuildResult) -> None:
    library = validated_library([])
    scenario = library.scenarios["savo-island"].model
    views = RULESET._views(library, scenario)
    totals = {s.id: sum(Fraction(v.comparative_strength) for v in views[s.id])
              for s in scenario.sides}
    # Savo's victory text scores plain CS: no ratio (issue 18 item 6).
    assert not scenario.strength_ratio
    mult = loss_multipliers(totals, scenario.strength_ratio)
    strong = max(totals, key=lambda k: totals[k])
    # Table rows as lines, whatever order the cells were drawn in (pdfplumber's layout).
    text = "\n".join(builds.layout_texts(savo.folder / "referee.pdf", "victory"))
    first = views[strong][0]
    value = Fraction(first.comparative_strength) * mult[strong]
    shown = f"{float(value):.2f}".rstrip("0").rstrip(".")
    assert re.search(rf"{re.escape(first.name)} .*? {shown}\b", text), (first.name, shown)


# -- matchups -----------------------------------------------------------------------


def test_one_matchup_page_per_armed_ship_with_bookmarks(savo: BuildResult) -> None:
    from pypdf import PdfReader

    calc = Calculator(load_tables())
    for side in ("japanese", "allied"):
        # Sisters with one fit share a page (issue 18 item 2).
        pages = share_pages([p for p in savo_matchups(calc, side) if p.guns or p.torpedoes])
        marks = labels(savo.folder / f"{side}.pdf")
        odds_pages = [m for m in marks if m.startswith(f"{side.upper()}-Odds-")]
        # Firers follow one another down the page (issue 29): fewer pages than firers,
        # and every firer's heading on one of them.
        assert 0 < len(odds_pages) < len(pages)
        text = " ".join(builds.layout_texts(savo.folder / f"{side}.pdf",
                                            "against every enemy"))
        assert all(f"{p.names[0]}" in text for p in pages)
        outline = PdfReader(savo.folder / f"{side}.pdf").outline
        titles = [o.title for o in outline if not isinstance(o, list)]
        assert "Matchups" in titles


def test_matchup_rows_equal_the_calculator(savo: BuildResult) -> None:
    calc = Calculator(load_tables())
    page = next(p for p in savo_matchups(calc, "japanese") if p.firer.name == "Chōkai")
    texts = builds.layout_texts(savo.folder / "japanese.pdf", "against every enemy")
    text = next(t for t in texts if "Chōkai (" in t and "against every enemy" in t)
    text = text[text.index("Chōkai ("):]  # firers share pages: from her heading on
    for m in page.guns:
        cells = [m.label]
        for band in ("close", "medium", "long"):
            o = m.bands[band]
            cells += [str(o.accuracy), *[f.label for f in o.faces],
                      percent(o.damage.at_least_one), expected_text(o.damage.expected)]
        # The target label may wrap, so compare the numeric run after the armor label.
        numbers = " ".join(cells[1:])
        assert numbers in text, (m.target.label, numbers)


def test_matchup_numbers_are_right_for_a_known_case() -> None:
    # Chōkai's 8-in (caliber 5) against a New Orleans (armor 5) at close range, accuracy 6:
    # faces dud D D D D HD; at least one damaging hit 995/1296 (brute force in test_odds).
    calc = Calculator(load_tables())
    page = next(p for p in savo_matchups(calc, "japanese") if p.firer.name == "Chōkai")
    row = next(m for m in page.guns if m.battery.position == "BOW"
               and "New Orleans class CA" in m.target.classes)
    close = row.bands["close"]
    assert close.accuracy == 6 and row.differential == 0
    assert [f.label for f in close.faces] == ["dud", "D", "D", "D", "D", "HD"]
    assert close.damage.at_least_one == Fraction(995, 1296)


def test_user_tables_change_the_matchups(tmp_path: Path) -> None:
    doc = yaml.safe_load((TABLES / "action-card.yaml").read_text(encoding="utf-8"))
    pen = doc["penetration"]
    pen["rows"][2] = ["S"] * len(pen["columns"])  # a 2 on the coloured die always sinks
    user = tmp_path / "my-card.yaml"
    user.write_text(yaml.safe_dump({"penetration": pen}), encoding="utf-8")
    # Only the packet's bytes are read: composed in memory, nothing written.
    kit = compose(Request("kit", scenario="savo-island"), options=KitOptions(tables=user))
    text = "\n".join(p.layout_text() for p in open_pages(kit.files["japanese.pdf"]))
    calc = Calculator(load_tables(user))
    page = next(p for p in savo_matchups(calc, "japanese") if p.firer.name == "Chōkai")
    row = page.guns[0]
    faces = [f.label for f in row.bands["medium"].faces]
    assert faces[1] == "S"
    assert " ".join(["5", *faces]) in text
    assert "your table: my-card.yaml" in text
    bundled = Calculator(load_tables())
    assert bundled.gunfire(5, 0, "medium", False)[1].expected < \
        calc.gunfire(5, 0, "medium", False)[1].expected


# -- dice sheet ---------------------------------------------------------------------


def dice_on_sheet(path: Path) -> tuple[int, list[tuple[int, int]]]:
    page = builds.page(path, 0)
    text = page.layout_text()
    seed = int(re.search(r"Seed (\d+)", text).group(1))  # type: ignore[union-attr]
    big = [c for c in page.chars if c["size"] > 10 and c["text"].isdigit()]
    # Pairs are printed column by column: group by column (x) then row (y).
    cells: dict[tuple[int, int], list[dict]] = {}
    for ch in big:
        col = int((ch["x0"] - 28) // (page.width / 8.5))
        cells.setdefault((col, round(ch["top"])), []).append(ch)
    ordered = sorted(cells.items(), key=lambda kv: (kv[0][0], kv[0][1]))
    found = []
    for _, chars in ordered:
        chars.sort(key=lambda c: c["x0"])
        found.append((int(chars[0]["text"]), int(chars[1]["text"])))
    return seed, found


def test_dice_sheet_regenerates_from_its_seed(tmp_path: Path) -> None:
    result = build_tables(None, out=tmp_path, options=KitOptions(seed=4242))
    seed, found = dice_on_sheet(result.folder / "dice.pdf")
    assert seed == 4242
    assert found == pairs(4242, len(found)) and len(found) == 240
    other = build_tables(None, out=tmp_path / "b", options=KitOptions(seed=4243))
    assert dice_on_sheet(other.folder / "dice.pdf")[1] != found
    assert all(1 <= w <= 6 and 1 <= r <= 6 for w, r in found)


# -- the tables command and odds ---------------------------------------------------------


def test_tables_command_writes_every_pdf(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["tables", "komandorski", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "komandorski" / "tables"
    names = {f["file"] for f in json.loads((folder / "manifest.json").read_text())["files"]}
    assert {"action-card.pdf", "resolution-tables.pdf", "dice.pdf", "victory.pdf"} <= names
    assert any(n.startswith("matchups-") for n in names)


def test_odds_answers_one_matchup_exactly() -> None:
    result = CliRunner().invoke(main, ["odds", "--firer", "Chokai", "--battery", "BOW",
                                       "--target", "Astoria", "--scenario", "savo-island"])
    assert result.exit_code == 0, result.output
    assert "995/1296" in result.output       # close range, checked by brute force
    assert "dud D D D D HD" in result.output


def test_odds_reports_unknown_battery_and_ambiguous_names() -> None:
    runner = CliRunner()
    bad = runner.invoke(main, ["odds", "--firer", "Chokai", "--battery", "BWO",
                               "--target", "Astoria", "--scenario", "savo-island"])
    assert bad.exit_code == 2
    assert "Chōkai has no battery 'BWO'; it has BOW, STN, torpedo; did you mean 'BOW'?" \
        in bad.output
    amb = runner.invoke(main, ["odds", "--firer", "Chokai", "--target", "Astoria"])
    assert amb.exit_code == 2
    assert "'Astoria' (--target) is a ship of several classes: cleveland, new-orleans" \
        in amb.output
    assert "Traceback" not in bad.output + amb.output


def test_bad_tables_file_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    user = tmp_path / "mine.yaml"
    user.write_text("penetraton: {}\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "--tables", str(user), "--out", str(out)])
    assert result.exit_code == 2
    assert f"{user}:1:1: penetraton: found unknown key 'penetraton'" in result.output
    assert "did you mean 'penetration'?" in result.output
    assert not out.exists()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calculator_pages_respect_the_margin_and_type_floor(paper: str) -> None:
    kit = builds.kit("second-sirte", command="tables", paper=paper)
    for name in kit.files:
        for page in builds.kit_pages("second-sirte", name, command="tables", paper=paper):
            margin = 10 / 25.4 * 72 - 0.01
            for ch in page.chars:
                assert ch["size"] >= 6.99, (name, ch["text"], ch["size"])
                assert ch["x0"] >= margin and ch["x1"] <= page.width - margin, name
                assert ch["top"] >= margin and ch["bottom"] <= page.height - margin
