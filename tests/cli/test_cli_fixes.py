"""Command-line fixes (issue 18 item 11, issue 20's small items): one test per item."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli.main import main
from generator.core.suggest import did_you_mean
from generator.kit.pipeline import validated_library
from generator.rulesets import REGISTRY


def run(*args: str, columns: int = 80) -> Result:
    return CliRunner(env={"COLUMNS": str(columns)}).invoke(main, list(args))


@pytest.fixture(scope="module")
def library():  # type: ignore[no-untyped-def]
    return validated_library([])


@pytest.fixture
def tribal(tmp_path: Path) -> Path:
    """A class whose names carry console markup."""
    assert run("new-class", "tribal-x", "--nation", "UK", "--out", str(tmp_path)).exit_code == 0
    path = tmp_path / "tribal-x.yaml"
    from tests.scaffolds import fill

    text = fill(path.read_text(encoding="utf-8"), '"Tribal[/]"')
    text = text.replace("  - name: First Ship", '  - name: "Maori[bold]"\n'
                        "    commissioned: 1940-01-01\n  - name: Second Ship", 1)
    path.write_text(text, encoding="utf-8")
    return tmp_path


def test_list_never_cuts_an_id(library) -> None:  # type: ignore[no-untyped-def]
    for what, ids in (("scenarios", list(library.scenarios)),
                      ("classes", [c for r in REGISTRY for c in library.classes_of(r)])):
        result = run("list", what, columns=50)
        assert result.exit_code == 0, result.output
        cells = {cell.strip() for line in result.output.splitlines() for cell in line.split("│")}
        assert set(ids) <= cells, what
        assert "surface-action" in cells  # the ruleset column is an id too
        assert "…" not in result.output


def test_list_classes_of_one_ruleset_and_navy(library) -> None:  # type: ignore[no-untyped-def]
    result = run("list", "classes", "--ruleset", "surface-action", "--nation", "jp",
                 columns=200)
    assert result.exit_code == 0, result.output
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in result.output.splitlines()
            if line.startswith("│")]
    ruleset = REGISTRY["surface-action"]
    expected = sorted(cid for cid, entry in library.classes_of("surface-action").items()
                      if ruleset.describe_class(entry)[2] == "JP")
    assert sorted(r[0] for r in rows) == expected and expected
    assert {(r[1], r[3]) for r in rows} == {("surface-action", "JP")}
    bad = run("list", "classes", "--ruleset", "surface")
    assert bad.exit_code == 2
    assert "error: --ruleset: no ruleset 'surface'; did you mean 'surface-action'?" in bad.output
    navy = run("list", "classes", "--nation", "XX")
    assert navy.exit_code == 2
    assert "error: --nation: no class of nation 'XX'" in navy.output


def test_paper_is_case_insensitive(tmp_path: Path) -> None:
    result = run("rulers", "--paper", "LETTER", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "aids" / "tabletop" / "manifest.json").read_text())
    assert manifest["paper"] == "letter"
    assert f"wrote {tmp_path / 'aids' / 'tabletop' / 'rulers.pdf'} (1 page)\n" in result.output


def test_rulers_and_gauges_take_the_scenario_as_an_argument(tmp_path: Path) -> None:
    for command, file in (("rulers", "rulers.pdf"), ("gauges", "gauges.pdf")):
        result = run(command, "savo-island", "--out", str(tmp_path / "new"))
        assert result.exit_code == 0, result.output
        assert (tmp_path / "new" / "savo-island" / "aids" / file).is_file()
        old = run(command, "--scenario", "savo-island", "--out", str(tmp_path / "old"))
        assert old.exit_code == 0, old.output
        assert (tmp_path / "old" / "savo-island" / "aids" / file).is_file()
        assert "--scenario" not in run(command, "--help").output
        assert f"Usage: main {command} [OPTIONS] [SCENARIO]" in run(command, "--help").output
        both = run(command, "savo-island", "--scenario", "komandorski")
        assert both.exit_code == 2
        assert ("error: give the scenario once: found 'savo-island' and --scenario "
                "'komandorski'") in both.output


def test_a_misspelt_scenario_gets_a_did_you_mean(tmp_path: Path) -> None:
    result = run("build", "savo", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert ("error: no scenario 'savo'; did you mean 'savo-island'?; "
            "`quarterdeck list scenarios` shows them") in result.output
    assert did_you_mean("sav", ["savo-island", "second-sirte"]) == "; did you mean 'savo-island'?"
    # Too short to mean anything, or ambiguous: the first of several that begin so.
    assert did_you_mean("s", ["savo-island", "second-sirte"]) == ""
    assert did_you_mean("river", ["river-plate", "river-plate-2"]) == (
        "; did you mean 'river-plate'?")
    assert did_you_mean("takoa", ["takao", "tone"]) == "; did you mean 'takao'?"


def test_an_option_that_does_not_apply_is_an_error(tmp_path: Path) -> None:
    seed = run("tables", "river-plate", "--seed", "5", "--out", str(tmp_path))
    assert seed.exit_code == 2
    assert seed.output == ("error: --seed: Surface Action tables have no dice sheet to seed; "
                           "leave --seed out\n")
    assert not (tmp_path / "river-plate").exists()
    ship = run("build", "--ship", "Fletcher", "--out", str(tmp_path))
    assert ship.exit_code == 2
    assert ship.output == "error: --ship goes with --class ID\n"
    ok = run("tables", "--seed", "5", "--out", str(tmp_path))  # NAVAL ACTION prints dice
    assert ok.exit_code == 0, ok.output
    assert f"wrote {tmp_path / 'tables' / 'dice.pdf'} (1 page)" in ok.output


def test_check_a_folder_without_yaml(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not data")
    result = run("check", str(tmp_path))
    assert result.exit_code == 2
    assert result.output == (f"error: {tmp_path}: found no YAML files (.yaml, .yml), expected "
                             "a folder of class and scenario files\n")


def test_odds_on_a_surface_action_scenario_answers() -> None:
    result = run("odds", "--scenario", "river-plate", "--firer", "Exeter", "--target",
                 "Admiral Graf Spee", columns=120)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Exeter (York CA) firing at Admiral Graf Spee "
                                    "(Deutschland CA, size 4/4, armor +0); day\n")
    assert "did you mean 'river-plate'" not in result.output


def test_catalog_help_names_its_file() -> None:
    result = run("catalog", "--help", columns=100)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "Write OUT/catalog.pdf, every class with its game values." in text
    assert "OUT/catalog-<ruleset>.pdf" in text


@pytest.mark.parametrize("value", ["nan,nan", "inf,0", "0,-inf", "NaN,1"])
def test_back_offset_must_be_finite(value: str, tmp_path: Path) -> None:
    result = run("markers", "savo-island", "--back-offset", value, "--out", str(tmp_path))
    assert result.exit_code == 2
    assert result.output == (f"error: --back-offset: found '{value}', expected X,Y in mm such "
                             "as 0.5,-1 (finite numbers)\n")


def _listed_and_asked(folder: Path, firer: str, target: str) -> tuple[str, str]:
    """``list classes`` and ``odds`` over the data in ``folder`` (both succeed): outputs."""
    listed = run("list", "classes", "--data", str(folder), "--nation", "UK", columns=200)
    assert listed.exit_code == 0, listed.output
    odds = run("odds", "--data", str(folder), "--firer", firer, "--target", target,
               columns=200)
    assert odds.exit_code == 0, odds.output
    return listed.output, odds.output


def test_console_markup_in_user_text_is_printed_as_text(tribal: Path) -> None:
    listed, odds = _listed_and_asked(tribal, "Maori[bold]", "Second Ship")
    assert re.search(r"│ tribal-x +│ naval-action +│ Tribal\[/\] +│ UK +│ DD +│", listed)
    assert odds.startswith("Maori[bold] (Tribal[/] DD) firing at Second Ship "
                                  "(Tribal[/] DD, armor 2)")
    checked = run("check", str(tribal))
    assert checked.exit_code == 0, checked.output
    assert "ok: " in checked.output
    # A problem message quoting the name prints it as written.
    (tribal / "tribal-x.yaml").rename(tribal / "tribal.yaml")
    text = (tribal / "tribal.yaml").read_text().replace("id: tribal-x", "id: tribal")
    (tribal / "tribal.yaml").write_text(text)
    bad = run("check", str(tribal))
    assert bad.exit_code == 2
    assert ("second-sirte.yaml:35:31: sides.0.ships.8.name: found 'Sikh', expected a ship of "
            "the Tribal[/] class (Maori[bold], Second Ship)") in bad.output


def test_output_into_a_pipe_that_closed_ends_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    # `quarterdeck list | head -1`: the reader stops, the next write finds the pipe closed.
    from rich.console import Console

    def closed(self: Console, *args: object, **kwargs: object) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(Console, "print", closed)
    result = run("list", "classes")
    assert result.exit_code == 141
    assert "internal error" not in result.output and "Traceback" not in result.output


def test_the_command_leaves_with_clicks_status(monkeypatch: pytest.MonkeyPatch) -> None:
    # ``run`` (the console script) ends the process at once, with the status click gave.
    import generator.cli.main as cli

    left: list[int] = []
    monkeypatch.setattr(cli.os, "_exit", left.append)
    for argv, status in ((["--version"], 0), (["no-such-command"], 2),
                         (["build", "no-such-scenario"], 2)):
        monkeypatch.setattr("sys.argv", ["quarterdeck", *argv])
        cli.run()
        assert left.pop() == status


def test_emoji_codes_in_user_text_are_printed_as_typed(tribal: Path) -> None:
    # rich turns ":fire:" into a flame by default; a ship's name prints as its owner typed it.
    path = tribal / "tribal-x.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Tribal[/]", "Tribal :fire:")
                    .replace("Maori[bold]", "Maori :warning:"), encoding="utf-8")
    # (A colon in a ship's name is the name's, not CLASS:SHIP.)
    listed, odds = _listed_and_asked(tribal, "Maori :warning:", "tribal-x:Second Ship")
    assert re.search(r"│ tribal-x +│ naval-action +│ Tribal :fire: +│ UK +│ DD +│", listed)
    assert odds.startswith("Maori :warning: (Tribal :fire: DD) firing at Second Ship")


def test_markers_quiet_lists_no_files_but_writes_them(tmp_path: Path) -> None:
    """``markers -q`` says nothing on success, like ``build -q``, and still writes the kit."""
    loud = run("markers", "savo-island", "--out", str(tmp_path / "loud"))
    quiet = run("markers", "savo-island", "-q", "--out", str(tmp_path / "quiet"))
    assert loud.exit_code == quiet.exit_code == 0, quiet.output
    assert "wrote " in loud.output and quiet.output == ""
    written = sorted(p.name for p in (tmp_path / "quiet" / "savo-island" / "markers").iterdir())
    assert written == sorted(p.name for p in
                             (tmp_path / "loud" / "savo-island" / "markers").iterdir())
    assert "back-offset-check.pdf" in written
