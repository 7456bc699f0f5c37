"""Designers (issue 19 items 4-7): scaffolds, spreadsheets, previews, proof kits."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli import main
from tests.scaffolds import fill

NATIONS = "US, UK, AU, CA, NZ, IN, JP, DE, IT, FR, NL, SU, PL, GR, NO"
TYPES = "BB, BC, CV, CVL, CVE, CA, CL, CLAA, DL, DD, DE, TB, SS, AK, AP, AKL, AKS"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


# --- item 7: scaffolds that cannot lie ----------------------------------------------------

@pytest.mark.parametrize(("option", "value", "message"), [
    ("--nation", "GB", f"error: --nation: found 'GB', expected a navy code: {NATIONS}; "
                       "did you mean 'UK'?"),
    ("--nation", "jp", f"error: --nation: found 'jp', expected a navy code: {NATIONS}; "
                       "did you mean 'JP'?"),
    ("--nation", "XQ", f"error: --nation: found 'XQ', expected a navy code: {NATIONS}"),
    ("--type", "XX", f"error: --type: found 'XX', expected a type code: {TYPES}"),
    ("--type", "destroyer", f"error: --type: found 'destroyer', expected a type code: "
                            f"{TYPES}; did you mean 'DD'?"),
    ("--type", "CLA", f"error: --type: found 'CLA', expected a type code: {TYPES}; "
                      "did you mean 'CLAA'?"),
])
def test_new_class_refuses_unknown_codes(tmp_path: Path, option: str, value: str,
                                         message: str) -> None:
    result = run("new-class", "my-dd", option, value, "--out", str(tmp_path))
    assert (result.exit_code, result.output) == (2, message + "\n")
    assert not list(tmp_path.iterdir())  # nothing written


SCAFFOLD_PLACEHOLDERS = [
    (7, 7, "name", "class name as printed, 1-60 characters"),
    (11, 11, "ships.0.name", "ship name"),
    (12, 19, "ships.0.commissioned", "date commissioned, YYYY-MM-DD"),
    (17, 12, "length_ft", "overall length in feet, 50-1300"),
    (18, 17, "displacement_t", "standard displacement in long tons"),
    (19, 11, "speed_kn", "maximum speed in knots"),
    (21, 12, "armor.belt_in", "main belt in inches, 0 if unarmoured"),
    (22, 12, "armor.deck_in", "armour deck in inches, 0 if none"),
    (25, 15, "guns.0.position", "BOW C STN L R LB RB LS or RS"),
    (26, 11, "guns.0.guns", "number of guns in the battery"),
    (27, 14, "guns.0.bore_in", "bore in inches"),
    (28, 19, "guns.0.max_range_yd", "maximum range in yards"),
    (29, 21, "guns.0.rounds_per_gun", "rounds carried per gun"),
    (40, 5, "sources.0", "title of the page or book (address): which facts"),
]


@pytest.mark.parametrize("ruleset", [None, "naval-action", "surface-action"])
def test_untouched_class_scaffold_fails_check_listing_every_placeholder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str | None) -> None:
    monkeypatch.chdir(tmp_path)
    extra = ["--ruleset", ruleset] if ruleset else []
    made = run("new-class", "my-dd", "--nation", "UK", "--type", "DD", "--out", "mine", *extra)
    assert made.exit_code == 0, made.output
    checked = CliRunner().invoke(main, ["check", "mine"])
    assert checked.exit_code == 2
    lines = checked.stderr.splitlines()
    assert lines == [
        f"mine/my-dd.yaml:{line}:{col}: {path}: found placeholder '<fill in: {what}>', "
        f"expected your own value (replace all 14 placeholders the scaffold left)"
        for line, col, path, what in SCAFFOLD_PLACEHOLDERS] + ["error: 14 problems in the data"]


def test_filled_class_scaffold_passes_and_one_left_placeholder_is_named(
        tmp_path: Path) -> None:
    assert run("new-class", "my-dd", "--out", str(tmp_path)).exit_code == 0
    path = tmp_path / "my-dd.yaml"
    scaffold = path.read_text(encoding="utf-8")
    path.write_text(fill(scaffold), encoding="utf-8")
    ok = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert ok.exit_code == 0, ok.output
    assert ok.stdout.startswith("ok: ")
    # Forget one: only that one is named, with its place in the file.
    path.write_text(fill(scaffold).replace("speed_kn: 35",
                                           'speed_kn: "<fill in: maximum speed in knots>"'))
    one = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert one.exit_code == 2
    assert one.stderr.splitlines()[0] == (
        f"{path}:19:11: speed_kn: found placeholder '<fill in: maximum speed in knots>', "
        "expected your own value (replace all 1 placeholders the scaffold left)")


SCENARIO_FILLS = {
    "naval-action": ["My Battle", "1942-08-09", "night", "good", "calm",
                     "allied", "Allies", "new-orleans", "Astoria",
                     "japanese", "Japanese", "takao", "Takao",
                     "Both lines of ships meet.", "Sink more than you lose.",
                     "'Test source (test): the order of battle'"],
}


@pytest.mark.parametrize("ruleset", ["naval-action", "surface-action"])
def test_new_scenario_fails_check_until_filled(tmp_path: Path, ruleset: str) -> None:
    made = run("new-scenario", "my-battle", "--ruleset", ruleset, "--out", str(tmp_path))
    assert made.exit_code == 0, made.output
    text = (tmp_path / "my-battle.yaml").read_text(encoding="utf-8")
    assert f"ruleset: {ruleset}" in text and "id: my-battle" in text
    holes = re.findall(r'(?<=[:-] )"<fill in:[^"]*"', text)
    checked = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert checked.exit_code == 2
    named = [line for line in checked.stderr.splitlines() if "found placeholder" in line]
    assert len(named) == len(holes) >= 10
    assert checked.stderr.splitlines()[-1] == f"error: {len(holes)} problems in the data"
    if ruleset in SCENARIO_FILLS:
        values = iter(SCENARIO_FILLS[ruleset])
        filled = re.sub(r'(?<=[:-] )"<fill in:[^"]*"', lambda m: next(values), text)
        (tmp_path / "my-battle.yaml").write_text(filled, encoding="utf-8")
        ok = CliRunner().invoke(main, ["check", str(tmp_path)])
        assert ok.exit_code == 0, ok.output


def test_new_scenario_refuses_unknown_ruleset(tmp_path: Path) -> None:
    result = run("new-scenario", "x", "--ruleset", "naval-actoin", "--out", str(tmp_path))
    assert (result.exit_code, result.output) == (
        2, "error: --ruleset: no ruleset 'naval-actoin'; did you mean 'naval-action'?\n")


@pytest.mark.parametrize(("scenario", "ruleset"), [(None, "naval-action"),
                                                   ("river-plate", "surface-action")])
def test_tables_export_is_the_bundled_tables(tmp_path: Path, scenario: str | None,
                                             ruleset: str) -> None:
    path = tmp_path / "mine.yaml"
    result = run("tables", *([scenario] if scenario else []), "--export", str(path))
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ") and "source: default" in text
    # Read back as --tables, it replaces every table with an equal one.
    if ruleset == "naval-action":
        from generator.rulesets.naval_action.cardtables import load_tables

        given, bundled = load_tables(path), load_tables()
        assert (given.card, given.rules, given.markers) == (bundled.card, bundled.rules,
                                                            bundled.markers)
        assert "accuracy" in given.replaced and "marker_pools" in given.replaced
    else:
        from generator.rulesets.surface_action.charts import bundled_charts, load_charts

        assert load_charts(path) == bundled_charts()
    again = run("tables", *([scenario] if scenario else []), "--export", str(path))
    assert (again.exit_code, again.output) == (
        2, f"error: {path} already exists; not overwriting it\n")
