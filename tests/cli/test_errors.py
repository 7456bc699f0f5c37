"""Bad input: every problem at once, located, exit status 2, nothing written or changed."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from generator.cli.main import main
from tests.paths import ROOT, TESTS

BAD = TESTS / "bad"

EXPECTED = {
    "typo": [
        "tests/bad/typo/broken-cruiser.yaml:1:1: length_ft: found nothing, expected a number "
        "(required)",
        "tests/bad/typo/broken-cruiser.yaml:1:1: sources: found nothing, expected a list "
        "(required)",
        "tests/bad/typo/broken-cruiser.yaml:6:7: type: found 'CAA', expected one of BB, BC, CV, "
        "CVL, CVE, CA, CL, CLAA, DL, DD, DE, TB, SS, AK, AP; did you mean 'CLAA'?",
        "tests/bad/typo/broken-cruiser.yaml:9:1: lenght_ft: found unknown key 'lenght_ft', "
        "expected one of kind, ruleset, id, name, nation, type, ships, length_ft, armor, "
        "speed_kn, guns, aa_guns, torpedoes, radar, aircraft, comparative_strength, funnels, "
        "marker_image, overrides, "
        "sources, unverified, notes; did you mean 'length_ft'?",
        "tests/bad/typo/broken-cruiser.yaml:11:11: speed_kn: found 'fast', expected a number",
        "tests/bad/typo/broken-cruiser.yaml:13:16: guns.0.position: found 'BOWW', expected one "
        "of BOW, C, STN, L, R, LB, RB, LS, RS; did you mean 'BOW'?",
        "error: 6 problems in the data",
    ],
    "tag": [
        "tests/bad/tag/evil.yaml:4:7: name: found YAML tag "
        "'tag:yaml.org,2002:python/object/apply:os.system', expected plain YAML (tags that "
        "construct objects are refused)",
        "error: 1 problem in the data",
    ],
    "syntax": [
        "tests/bad/syntax/unclosed.yaml:5:1: found a YAML syntax error (did not find expected "
        "',' or ']'), expected valid YAML",
        "error: 1 problem in the data",
    ],
    "scenario": [
        "tests/bad/scenario/typo-battle.yaml:14:17: sides.0.ships.0.class: found unknown class "
        "'new-orlean', expected a class id; did you mean 'new-orleans'?",
        "tests/bad/scenario/typo-battle.yaml:15:36: sides.0.ships.1.name: found 'Astorai', "
        "expected a ship of the New Orleans class (New Orleans, Astoria, Minneapolis, "
        "Tuscaloosa, San Francisco, Quincy, Vincennes); did you mean 'Astoria'?",
        "tests/bad/scenario/typo-battle.yaml:18:29: sides.0.ships.2.special.disabled: found "
        "battery 'C', expected one of the Northampton class's batteries (BOW, L, R, STN)",
        "error: 3 problems in the data",
    ],
}


def run(args: list[str], cwd: Path) -> tuple[int, str, str]:
    runner = CliRunner()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = runner.invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def test_each_bad_folder_reports_exact_messages() -> None:
    root = ROOT
    for folder, lines in EXPECTED.items():
        code, out, err = run(["check", f"tests/bad/{folder}"], root)
        assert code == 2, folder
        assert err.splitlines() == lines, folder
        assert "Traceback" not in err + out


def test_all_problems_of_all_files_at_once() -> None:
    root = ROOT
    code, _, err = run(["check", "tests/bad"], root)
    assert code == 2
    expected = sorted(line for lines in EXPECTED.values() for line in lines[:-1])
    assert sorted(err.splitlines()[:-1]) == expected
    assert err.splitlines()[-1] == "error: 11 problems in the data"


def test_failed_build_writes_nothing_and_changes_no_input(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(BAD / "scenario", data)
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in data.rglob("*")}
    out = tmp_path / "out"
    code, _, err = run(["build", "savo-island", "--data", str(data), "--out", str(out)],
                       tmp_path)
    assert code == 2
    assert "did you mean 'new-orleans'?" in err
    assert not out.exists()
    after = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in data.rglob("*")}
    assert before == after


def test_unknown_scenario_suggests(tmp_path: Path) -> None:
    code, _, err = run(["build", "savo-islnd", "--out", str(tmp_path)], tmp_path)
    assert code == 2
    assert "error: no scenario 'savo-islnd'; did you mean 'savo-island'?" in err
    assert not any(tmp_path.iterdir())


def test_alias_bomb_is_refused(tmp_path: Path) -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 8):
        prev = "a" if i == 1 else f"a{i - 1}"
        lines.append(f"a{i}: &a{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, "
                     f"*{prev}, *{prev}, *{prev}, *{prev}]")
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n")
    code, _, err = run(["check", str(bomb)], tmp_path)
    assert code == 2
    assert "expected a data file" in err


def test_symlink_out_of_data_folder_is_ignored(tmp_path: Path) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_text("kind: nonsense\n")
    data = tmp_path / "data"
    data.mkdir()
    (data / "link.yaml").symlink_to(outside)
    code, out, _ = run(["check", str(data)], tmp_path)
    assert code == 0, out
