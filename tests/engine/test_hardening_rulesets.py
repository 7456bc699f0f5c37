"""Issue 35, item 8: the rulesets' commands and files end in a located message, never a crash.

The hostile corpus (``tests/hostile_corpus/rulesets/``) holds sprue files, tables files,
class files and ``cases.yaml``, the command lines that use them. Each case runs the real
command line through ``tests/hostile.run_cli`` (exit 0 or a located exit 2, no traceback,
no process started, no canary file opened) and must print exactly the lines it lists.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from tests.hostile import run_cli
from tests.paths import TESTS

CORPUS = TESTS / "hostile_corpus" / "rulesets"
CASES: list[dict[str, Any]] = yaml.safe_load((CORPUS / "cases.yaml").read_text("utf-8"))


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The placeholders of cases.yaml: a FIFO, a symlink loop and a folder (and a canary)."""
    root = tmp_path_factory.mktemp("hostile-rulesets")
    fifo, loop, folder = root / "pipe.yaml", root / "loop.yaml", root / "folder.yaml"
    os.mkfifo(fifo)
    loop.symlink_to(loop)
    folder.mkdir()
    (root / "canary").mkdir()
    return {"fifo": str(fifo), "loop": str(loop), "folder": str(folder), "root": str(root)}


def _fill(text: str, places: dict[str, str]) -> str:
    for key, value in places.items():
        text = text.replace("{" + key + "}", value)
    return text


def test_the_corpus_is_large_and_named_once() -> None:
    names = [case["name"] for case in CASES]
    assert len(names) >= 20 and len(set(names)) == len(names)
    assert all(case["exit"] in (0, 2) for case in CASES)
    assert all(("stderr" in case) == (case["exit"] == 2) for case in CASES), \
        "every exit-2 case lists its exact lines (and only those)"


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_hostile_case(case: dict[str, Any], places: dict[str, str], tmp_path: Path,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS)  # the corpus's files are named relative to it, as messages show
    filled = {**places, "out": str(tmp_path / "out")}
    args = [_fill(str(a), filled) for a in case["args"]]
    code, _, stderr = run_cli(args, Path(places["root"]) / "canary")
    assert code == case["exit"], stderr
    if code == 2:
        lines = [line for line in stderr.splitlines() if line.strip()]
        assert lines == [_fill(line, filled) for line in case["stderr"]]


# --- a rating module that cannot be imported ---------------------------------------------

SA_RATING = "generator.rulesets.surface_action.rating"


def _importing(monkeypatch: pytest.MonkeyPatch, error: ImportError) -> None:
    """Make importing Surface Action's rating module fail with ``error``."""
    import importlib

    real = importlib.import_module

    def fake(name: str, package: str | None = None) -> Any:
        if name == SA_RATING:
            raise error
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", fake)


def test_a_failing_import_inside_a_rating_module_fails_loudly(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A ruleset whose rating module fails to load is named (exit 2), not 'unknown class' x 73."""
    from generator.cli.main import main

    # A class folder of this test alone: no library in the user cache answers for it.
    name = "syrian-destroyer.yaml"
    (tmp_path / name).write_bytes((CORPUS / "classes" / "gun-era-syrian" / name).read_bytes())
    _importing(monkeypatch, ModuleNotFoundError("No module named 'no_such_dependency'",
                                                name="no_such_dependency"))
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[0] == (
        "error: ruleset 'surface-action': its rating module "
        f"{SA_RATING} cannot be imported: No module named 'no_such_dependency'")
    assert "unknown class" not in result.output


def test_a_ruleset_without_a_rating_module_is_passed_by(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.data.shipclass import deriver, rating_modules

    _importing(monkeypatch, ModuleNotFoundError(f"No module named '{SA_RATING}'",
                                                name=SA_RATING))
    found = rating_modules()
    assert "surface-action" not in found and "naval-action" in found
    with pytest.raises(KeyError, match="^'surface-action'$"):
        deriver("surface-action")


def test_an_exception_while_importing_a_rating_module_names_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.data.shipclass import RatingModuleError, deriver

    _importing(monkeypatch, ImportError("cannot import name 'Rating'"))
    with pytest.raises(RatingModuleError, match=f"ruleset 'surface-action': its rating "
                                                f"module {SA_RATING} cannot be imported"):
        deriver("surface-action")


# --- the printable area sheet_component reports is the one imposition lays out ------------

@pytest.mark.parametrize("bleed", [False, True])
@pytest.mark.parametrize("cut", ["lines", "marks"])
def test_the_reported_room_is_imposition_s(bleed: bool, cut: str) -> None:
    """A piece just inside the room is imposed; one just outside is reported, located."""
    from generator.core.errors import RenderError
    from generator.core.units import MM
    from generator.kit.seam import _too_large
    from generator.pieces.imposition import Options, layout
    from generator.pieces.pieces import Piece
    from generator.pieces.sprue import load_sprue

    sprue = load_sprue(CORPUS / "sprues" / "wide-margin.yaml", "wide-margin.yaml")
    options = Options(paper="a4", bleed=bleed, cut=cut)  # type: ignore[arg-type]
    def piece(width: float, height: float) -> Piece:
        return Piece(id="p", title="p", width=width, height=height,
                     front=lambda *_: None, group="ship")

    problem = _too_large([piece(1000 * MM, 10 * MM)], sprue, options)
    assert problem is not None and (problem.file, problem.line, problem.path) == (
        "wide-margin.yaml", 6, "margin")
    room = problem.message.removeprefix("found room for ").split(" mm")[0]
    width, height = (float(x) * MM for x in room.split(" x "))
    border = 2 * sprue.bleed if bleed else 0.0
    for grow, fits in ((-0.2 * MM, True), (0.2 * MM, False)):
        for one in (piece(width - border + grow, 10 * MM),
                    piece(10 * MM, height - border + grow)):
            assert (_too_large([one], sprue, options) is None) == fits
            if fits:
                layout([one], sprue, options)
            else:
                with pytest.raises(RenderError, match="larger than the sheet"):
                    layout([one], sprue, options)


@pytest.mark.parametrize("seed", ["²", "٣", "1234567890", "9" * 5000])
def test_a_seed_that_is_no_ascii_number_in_range_is_a_usage_error(seed: str) -> None:
    """``--seed ²`` was a ValueError traceback ('²' is a digit to isdigit(), not to int());
    5,000 digits passed int()'s own limit the same way."""
    code, _, err = run_cli(["tables", "--seed", seed, "--out", "/nonexistent-qd"])
    assert code == 2
    assert err.splitlines()[-1] == (
        f"Error: Invalid value for '--seed': found '{seed}', expected a whole number from 0 "
        "to 999,999,999 or 'random'")


def test_a_click_usage_error_inside_a_command_is_not_an_internal_error() -> None:
    """``reported`` turned a click.ClickException raised in a command body into exit 70."""
    import click

    from generator.core.commandline import reported

    @click.command()
    @reported
    def command() -> None:
        raise click.UsageError("found 'x', expected 'y'")

    result = CliRunner().invoke(command, [])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == "Error: found 'x', expected 'y'"
