"""The command line: version, listing, scaffolding, one-ship kits, catalog, docs."""

from __future__ import annotations

import os
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from generator import __version__
from generator.cli.main import main
from generator.core.errors import UsageError
from generator.kit.seam import Ruleset
from tests.paths import ROOT
from tests.pdftext import open_pages, page_texts


def invoke(args: list[str], cwd: Path) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def test_version(tmp_path: Path) -> None:
    code, out, _ = invoke(["--version"], tmp_path)
    assert code == 0 and out.strip() == f"quarterdeck, version {__version__}"


def test_list_shows_rulesets_scenarios_and_classes(tmp_path: Path) -> None:
    code, out, _ = invoke(["list"], tmp_path)
    assert code == 0
    for text in ("naval-action", "savo-island", "second-sirte", "komandorski", "sunda-strait",
                 "new-orleans", "takao"):
        assert text in out


def test_designer_quickstart_round_trip(tmp_path: Path) -> None:
    code, out, _ = invoke(["new-class", "my-destroyer", "--nation", "UK", "--out", "mydata"],
                          tmp_path)
    assert code == 0, out
    scaffold = tmp_path / "mydata" / "my-destroyer.yaml"
    text = scaffold.read_text()
    assert "nation: UK" in text and text.count("#") > 10  # commented for the designer
    code, out, err = invoke(["check", "mydata"], tmp_path)
    assert code == 2 and "found placeholder" in err  # untouched, it cannot pass
    from tests.scaffolds import fill

    scaffold.write_text(fill(text, "My Destroyer"))
    code, out, err = invoke(["check", "mydata"], tmp_path)
    assert code == 0, err
    # Refuses to overwrite the designer's work.
    code, _, err = invoke(["new-class", "my-destroyer", "--out", "mydata"], tmp_path)
    assert code == 2 and "already exists" in err
    code, out, err = invoke(["build", "--class", "my-destroyer", "--data", "mydata",
                             "--out", "out", "--paper", "letter"], tmp_path)
    assert code == 0, err
    pdf_path = tmp_path / "out" / "class-my-destroyer" / "naval-action" / "my-destroyer.pdf"
    pages = open_pages(pdf_path)
    assert "FIRST SHIP" in pages[1].extract_text()  # after the print note
    assert (pages[0].width, pages[0].height) == (612, 792)


def test_user_data_overrides_bundled_class(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    source = ROOT / "shipdata/classes/us/new-orleans.yaml"
    (data / "new-orleans.yaml").write_text(
        source.read_text().replace("speed_kn: 32.7", "speed_kn: 31.1"))
    code, out, err = invoke(["build", "savo-island", "--data", "data", "--out", "out", "-q"],
                            tmp_path)
    assert code == 0, err
    assert "replaces the bundled ship-class 'new-orleans'" in err
    text = "\n".join(page_texts(tmp_path / "out/savo-island/allied.pdf"))
    assert "31.1" in text


def test_catalog_lists_every_class(tmp_path: Path) -> None:
    from generator.data.library import load_library

    code, out, err = invoke(["catalog", "--out", "out"], tmp_path)
    assert code == 0, err
    text = "\n".join(page_texts(tmp_path / "out/catalog.pdf"))
    for entry in load_library().classes_of("naval-action").values():
        # Names may wrap inside a cell; check their first word.
        assert entry.model.name.split()[0] in text, entry.model.name


def test_docs_reference_is_current(tmp_path: Path) -> None:
    code, out, err = invoke(["docs", "--check", "--out", str(ROOT / "docs")], ROOT)
    assert code == 0, err + out


# --- cli/ as a package (issue 28): one boundary, options declared once, calculators -------

COMMANDS = {"bombing", "build", "catalog", "check", "convert", "docs", "event", "export",
            "gauges", "import", "list", "markers", "merchant", "modern-odds", "naval-combat",
            "new-class", "new-scenario", "odds", "preflight", "preview", "rule27", "rulers",
            "serve", "strings", "tables", "tts", "vassal", "watch"}
"""Every command ``quarterdeck`` had before the package split, the rulesets' included, and
those added since: ``preflight`` (issue 31), the online exports ``vassal`` and ``tts``,
``serve`` (issue 34)."""


def _every_command() -> dict[str, click.Command]:
    ctx = click.Context(main)
    found = {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}
    return {name: command for name, command in found.items() if command is not None}


def test_every_command_keeps_its_name() -> None:
    assert set(_every_command()) == COMMANDS


@pytest.mark.parametrize(("error", "code", "shown"), [
    (RuntimeError("boom"), 70, "internal error: RuntimeError: boom\nThis is a bug in "
     "quarterdeck; run again with QUARTERDECK_DEBUG=1 for the details and report them."),
    (UsageError("found 'x', expected 'y'"), 2, "error: found 'x', expected 'y'"),
    (KeyboardInterrupt(), 130, "interrupted; nothing half-written was left behind"),
])
def test_every_command_runs_inside_the_one_boundary(monkeypatch: pytest.MonkeyPatch,
                                                    error: BaseException, code: int,
                                                    shown: str) -> None:
    # Each command's own body is replaced by one that fails, with no reported() of its
    # own: only the root group's boundary stands between the failure and a traceback.
    def fail(*args: object, **kwargs: object) -> None:
        raise error

    for name, command in _every_command().items():
        monkeypatch.setattr(command, "callback", fail)
        monkeypatch.setattr(command, "params", [])
        result = CliRunner().invoke(main, [name])
        assert (result.exit_code, result.stderr) == (code, f"{shown}\n"), name
        assert isinstance(result.exception, SystemExit), name


def test_a_ruleset_command_that_cannot_be_loaded_is_reported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.cli import rulesets

    def broken(group: click.Group) -> list[str]:
        raise ImportError("ruleset 'x': its commands module x.commands cannot be imported")

    monkeypatch.setattr(rulesets, "add_commands", broken)
    result = CliRunner().invoke(main, ["no-such-command"])
    assert result.exit_code == 70
    assert result.stderr.splitlines()[0] == (
        "internal error: ImportError: ruleset 'x': its commands module x.commands cannot be "
        "imported")


SHARED = ["--tables", "--seed", "--templates", "--data", "--out", "--paper", "--ruleset",
          "--dpi", "--quiet", "--component", "--png", "--class", "--ship", "--scenario"]


@pytest.mark.parametrize("option", SHARED)
def test_each_shared_option_is_declared_once(option: str) -> None:
    # Declared in generator/kit/options.py and nowhere else, commands' and rulesets' alike.
    places = [path.relative_to(ROOT).as_posix()
              for path in sorted((ROOT / "generator").rglob("*.py"))
              for _ in range(path.read_text(encoding="utf-8").count(f'"{option}"'))]
    assert places == ["generator/kit/options.py"]


def _declared() -> dict[str, list[str]]:
    """Each option name's declarations in ``generator/``: every ``click.option`` call naming it."""
    import ast

    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "generator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "option":
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and str(arg.value).startswith("-"):
                        found.setdefault(str(arg.value), []).append(
                            f"{path.relative_to(ROOT).as_posix()}:{node.lineno}")
    return found


ANOTHER_OPTION = {"--target": "generator/rulesets/modern_naval/commands.py"}
"""Option names two commands use for different things, and where the other one lives.

``modern-odds --target`` is a target's category (ship, aircraft...), not a ship by name
as in ``odds``; a separate option that happens to share the name.
"""


def test_every_option_commands_share_is_declared_by_one_factory() -> None:
    used: dict[str, set[str]] = {}
    for name, command in _every_command().items():
        for param in command.params:
            if isinstance(param, click.Option):
                for flag in [*param.opts, *param.secondary_opts]:
                    used.setdefault(flag, set()).add(name)
    declared = _declared()
    assert set(used) <= set(declared)  # the scan sees every option the commands have
    shared = {flag for flag, names in used.items() if len(names) > 1}
    assert {"--scenario", "--nation", "--tables", "--data"} <= shared
    # One declaration each: a decorator (or factory) every command having it shares.
    places = {flag: [p for p in declared[flag] if not p.startswith(ANOTHER_OPTION.get(flag, "?"))]
              for flag in shared}
    assert {flag: len(where) for flag, where in places.items()} == dict.fromkeys(shared, 1)
    assert [place.partition(":")[0] for flag in ("--scenario", "--nation")
            for place in places[flag]] == ["generator/kit/options.py"] * 2


def test_tables_means_the_same_in_every_command() -> None:
    from generator.core.pathargs import SafePath

    having = {}
    for name, command in _every_command().items():
        for param in command.params:
            if "--tables" in getattr(param, "opts", []):
                assert isinstance(param.type, SafePath) and not param.type.dir_okay, name
                assert param.help is not None and param.help.startswith(
                    "YAML file replacing some of the ruleset's tables with your own values")
                having[name] = param.name
    assert having == dict.fromkeys(["bombing", "build", "gauges", "markers", "merchant",
                                    "modern-odds", "naval-combat", "odds", "rule27", "rulers",
                                    "strings", "tables"], "tables")


def test_every_ruleset_registers_its_calculators_through_the_seam() -> None:
    from generator.rulesets import REGISTRY

    found = {name: [c.command for c in ruleset.calculators()]
             for name, ruleset in REGISTRY.items()}
    assert found == {"naval-action": ["odds"], "surface-action": ["odds"],
                     "rule-27": ["bombing"], "modern-naval": ["modern-odds"],
                     "naval-warfare": ["naval-combat", "merchant"]}
    for name, ruleset in REGISTRY.items():  # each answered by odds or by its own command
        own = {c.name for c in ruleset.commands()}
        assert {c.command for c in ruleset.calculators()} <= own | {"odds"}, name


@pytest.mark.parametrize(("args", "message"), [
    (["--scenario", "mediterranean-1940"],
     "Rule 27 answers its odds with `quarterdeck bombing` (a stack and its bombing hits), "
     "not `quarterdeck odds`"),
    (["--ruleset", "rule-27"],
     "Rule 27 answers its odds with `quarterdeck bombing` (a stack and its bombing hits), "
     "not `quarterdeck odds`"),
    (["--ruleset", "modern-naval"],
     "Modern naval answers its odds with `quarterdeck modern-odds` (the weapon, shooter and "
     "target by their ratings), not `quarterdeck odds`"),
    (["--ruleset", "naval-warfare"],
     "Naval Warfare 1942–45 answers its odds with `quarterdeck naval-combat` and "
     "`quarterdeck merchant` (forces as units or CVs), not `quarterdeck odds`"),
    (["--ruleset", "rule27"], "--ruleset: no ruleset 'rule27'; did you mean 'rule-27'?"),
    (["--ruleset", "rule-27", "--scenario", "savo-island"],
     "--ruleset: found 'rule-27', expected 'naval-action': the ruleset of scenario "
     "'savo-island' (or leave --ruleset out)"),
])
def test_odds_names_the_command_that_answers(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["odds", "--firer", "x", "--target", "y", *args])
    assert (result.exit_code, result.stderr.splitlines()) == (2, [f"error: {message}"])


@pytest.mark.parametrize(("args", "message"), [
    (["--ruleset", "rule-27"],
     "Rule 27 answers its odds with `quarterdeck bombing` (a stack and its bombing hits), "
     "not `quarterdeck odds`"),
    (["--scenario", "mediterranean-1940", "--firer", "Warspite"],
     "Rule 27 answers its odds with `quarterdeck bombing` (a stack and its bombing hits), "
     "not `quarterdeck odds`"),
    (["--scenario", "savo-island"],
     "--firer and --target: found nothing, expected the firing ship's name and the "
     "target's name (quarterdeck odds --help)"),
    (["--ruleset", "naval-action", "--firer", "Chokai"],
     "--target: found nothing, expected the target's name (quarterdeck odds --help)"),
])
def test_odds_without_its_ships_names_the_command_or_what_is_missing(
        args: list[str], message: str) -> None:
    # Asking `odds --ruleset NAME` alone is how a player finds where a ruleset's odds are.
    result = CliRunner().invoke(main, ["odds", *args])
    assert (result.exit_code, result.stderr.splitlines()) == (2, [f"error: {message}"])


def test_odds_with_ruleset_answers_for_it() -> None:
    result = CliRunner().invoke(main, ["odds", "--ruleset", "naval-action", "--firer",
                                       "Chokai", "--target", "new-orleans:Astoria",
                                       "--battery", "BOW", "--range", "medium"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Chōkai (Takao CA) firing at Astoria")


def _probe_package(root: Path, commands: str) -> type[Ruleset]:
    """A ruleset class in a fresh package ``qd_probe`` whose commands.py holds ``commands``."""
    import importlib
    import sys

    package = root / "qd_probe"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from generator.kit.seam import Ruleset\n\n"
        "class Probe(Ruleset):\n    name = 'probe'\n    title = 'Probe'\n", encoding="utf-8")
    if commands:
        (package / "commands.py").write_text(commands, encoding="utf-8")
    sys.modules.pop("qd_probe", None)
    sys.modules.pop("qd_probe.commands", None)
    return importlib.import_module("qd_probe").Probe  # type: ignore[no-any-return]


def test_a_ruleset_without_commands_py_has_no_commands_or_calculators(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = _probe_package(tmp_path, "")()
    assert (list(probe.commands()), probe.calculators()) == ([], ())
    with pytest.raises(UsageError) as raised:
        probe.odds(None, None, "a", "b", None, None, None)  # type: ignore[arg-type]
    assert str(raised.value) == ("Probe has no odds calculator; `quarterdeck tables` prints "
                                 "what it resolves")


def test_a_commands_py_that_fails_to_import_is_named(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    from generator.data.registry import RulesetImportError

    probe = _probe_package(tmp_path, "import qd_no_such_module\n")()
    with pytest.raises(RulesetImportError) as raised:  # a usage error: exit 2, no traceback
        probe.calculators()
    assert str(raised.value) == ("ruleset 'probe': its commands module qd_probe.commands "
                                 "cannot be imported: No module named 'qd_no_such_module'")


def test_calculators_must_be_declared_as_calculators(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = _probe_package(tmp_path, "CALCULATORS = ('odds',)\n")()
    with pytest.raises(TypeError) as raised:
        probe.calculators()
    assert str(raised.value) == "ruleset 'probe': CALCULATORS must be a tuple of Calculator"


def test_odds_names_each_calculator_with_what_it_asks(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # Calculators asking the same thing share one description; others keep their own.
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = _probe_package(tmp_path, (
        "from generator.kit.seam import Calculator\n"
        "CALCULATORS = (Calculator('odds', 'ships'), Calculator('volley', 'guns'),\n"
        "               Calculator('salvo', 'guns'), Calculator('raid', 'aircraft'))\n"
        "def commands():\n    return ['not a command']\n"))()
    with pytest.raises(UsageError) as raised:
        probe.odds(None, None, "a", "b", None, None, None)  # type: ignore[arg-type]
    assert str(raised.value) == (
        "Probe answers its odds with `quarterdeck volley` and `quarterdeck salvo` (guns) and "
        "`quarterdeck raid` (aircraft), not `quarterdeck odds`")
    with pytest.raises(TypeError) as wrong:
        probe.commands()
    assert str(wrong.value) == "ruleset 'probe': commands() must give click commands"
