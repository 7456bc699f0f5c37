"""quarterdeck vassal and tts on the command line: what they write, and a located refusal."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli.main import main


@pytest.mark.parametrize("command", ["vassal", "tts"])
def test_an_unknown_scenario_is_refused_with_exit_2(command: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, [command, "nowhere", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: no scenario 'nowhere'; `quarterdeck list "
                                     "scenarios` shows them")
    assert not (tmp_path / "x").exists()


def test_vassal_writes_the_module_and_leaves_the_users_files(tmp_path: Path) -> None:
    out = tmp_path / "modules"
    out.mkdir()
    (out / "mine.txt").write_text("kept")
    result = CliRunner().invoke(main, ["vassal", "mediterranean-1940", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"wrote {out / 'mediterranean-1940.pieces.json'}",
        f"wrote {out / 'mediterranean-1940.vmod'} (VASSAL 57 pieces in trays, 0 decks, "
        "3 charts, pieces at 127 dpi)"]
    assert (out / "mine.txt").read_text() == "kept"
    with zipfile.ZipFile(out / "mediterranean-1940.vmod") as archive:
        assert {"buildFile.xml", "moduledata", "help/about.html"} <= set(archive.namelist())
        assert b"127 dots per inch" in archive.read("help/about.html")
