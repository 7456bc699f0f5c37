"""The tiny example ruleset (tests/example_ruleset) builds through the real pipeline.

It is found the way a pip-installed ruleset is: through the ``quarterdeck.rulesets``
entry-point group, here from the ``qd_example-0.1.dist-info`` folder on PYTHONPATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.core.ownedfolders import MARKER
from generator.rules import dietable

EXAMPLE = Path(__file__).resolve().parent / "example_ruleset"


def _run(package: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(package), "QUARTERDECK_JOBS": "1"}
    return subprocess.run([sys.executable, "-c", "from generator.cli.main import main; main()",
                           *args], capture_output=True, text=True, env=env, check=False)


def _text(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("example")
    run = _run(EXAMPLE, "build", "skirmish", "--data", str(EXAMPLE / "data"), "--out", str(out))
    assert run.returncode == 0, run.stderr
    return out / "skirmish"


def test_registered_through_the_entry_point_group() -> None:
    run = _run(EXAMPLE, "list", "rulesets")
    assert run.returncode == 0, run.stderr
    assert "example-skirmish" in run.stdout and "Example Skirmish" in run.stdout


def test_recipe_gives_each_side_its_packet(built: Path) -> None:
    assert sorted(p.name for p in built.iterdir() if p.name != MARKER) == [
        "blue.pdf", "manifest.json", "red.pdf", "referee.pdf"]
    blue = _text(built / "blue.pdf")
    # page 1 is the shared print note; the recipe's contents follow
    assert "How to print this packet" in blue[0]
    assert blue[1].startswith("Roster: Blue")
    assert "Guards: attack 6, defence 5, move 4" in blue[1]
    assert "Combat results" in blue[2]
    referee = "\n".join(_text(built / "referee.pdf"))
    assert "Roster: Blue" in referee and "Roster: Red" in referee


def test_counter_backs_are_derived_half_strength_rounded_down(built: Path) -> None:
    pages = _text(built / "blue.pdf")
    front, back = pages[-2], pages[-1]
    assert "6-5-4" in front and "3-3-3" in front
    # Guards 6-5-4 -> 3-2-4, militia 3-3-3 -> 1-1-3; the movement is not halved.
    assert "3-2-4" in back and "1-1-3" in back
    assert "6-5-4" not in back


def test_crt_odds_equal_brute_force() -> None:
    table = dietable.load_die_table(EXAMPLE / "qd_example" / "tables" / "crt.yaml")
    for index in range(len(table.headings)):
        for shift in (0, 1, 5):
            counted: dict[str, Fraction] = {}
            for face in range(1, 7):
                column = min(index + shift, len(table.headings) - 1)
                result = table.cell(face, column)
                counted[result] = counted.get(result, Fraction(0)) + Fraction(1, 6)
            assert dietable.odds(table, index, shift=shift) == counted


@pytest.mark.parametrize(("file", "old", "new", "message"), [
    ("kit.yaml", '"roster:{side}", crt,', '"roster:{side}", crtt,',
     "example-skirmish/kit.yaml:8:35: kit.packets.0.contents.1: found component 'crtt', "
     "expected one of the registered components; did you mean 'crt'?"),
    ("faces/unit.yaml", "x: 1mm, y: 1mm, width: 14mm", "x: 1mm, y: 1mm, width: 18mm",
     "qd_example/faces/unit.yaml:10:49: faces.unit.fields.0.width: found x + width = 19.00mm, "
     "expected at most 15.00mm (the trim less the 1.00mm safe zone)"),
    ("tables/crt.yaml", "4: [AR, DR, DE, DE]", "4: [AR, DR, DE]",
     "qd_example/tables/crt.yaml:12:6: rows.4: found 3 cells, expected 4 (one per column)"),
])
def test_bad_ruleset_files_are_located_and_nothing_is_written(
        tmp_path: Path, file: str, old: str, new: str, message: str) -> None:
    package = tmp_path / "pkg"
    shutil.copytree(EXAMPLE, package)
    target = package / "qd_example" / file
    text = target.read_text(encoding="utf-8")
    assert old in text
    target.write_text(text.replace(old, new), encoding="utf-8")
    out = tmp_path / "out"
    run = _run(package, "build", "skirmish", "--data", str(package / "data"), "--out", str(out))
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    lines = [line.replace(str(package) + "/", "") for line in run.stderr.splitlines()]
    assert lines[0] == message
    assert not out.exists()
