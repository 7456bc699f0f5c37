"""The ruleset seam: recipes as data, one pipeline, a registry that names no ruleset."""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from generator.core.errors import DataError
from generator.core.parallel import fork_safe
from generator.kit.pipeline import BuildResult, build, build_markers, prepared, validated_library
from generator.kit.recipe import load_recipes, plan
from generator.kit.seam import Request
from generator.rulesets import REGISTRY, default_ruleset, default_scenario
from tests.paths import ROOT

if TYPE_CHECKING:
    from generator.data.registry import DataRuleset, Registry
    from tests.conftest import Kits

SHRINK = """\
marker_ship: {scale: 12000, width: 2mm, silhouette_beam: 1mm, bow_bar: 0.3mm}
marker_sizes: {aircraft: 6mm x 4mm, torpedo-spread: 5mm x 5mm, battery-target: 5mm x 3mm,
               depth-track: 20mm x 4mm}
"""


def _files(result: BuildResult) -> dict[str, bytes]:
    return {name: (result.folder / name).read_bytes() for name in result.files}


def _both_ways(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, scenario: str,
               **kwargs: object) -> tuple[BuildResult, BuildResult]:
    """The scenario built in one process, then forked (and it must really fork)."""
    forks = []
    fork = os.fork

    def counting() -> int:
        pid = fork()
        if pid:  # the parent counts; a child only works and leaves
            forks.append(pid)
        return pid

    monkeypatch.setenv("QUARTERDECK_JOBS", "1")
    alone = build(scenario, out=tmp_path / "one", **kwargs)  # type: ignore[arg-type]
    monkeypatch.setenv("QUARTERDECK_JOBS", "2")  # forked even when the machine is busy
    monkeypatch.setattr(os, "fork", counting)
    forked = build(scenario, out=tmp_path / "many", **kwargs)  # type: ignore[arg-type]
    monkeypatch.undo()
    assert forks, "the build ran in one process: nothing forked to compare"
    return alone, forked


# FORK PATH: these two tests compare a build forked into workers with the same build in one
# process. One small scenario is enough for the comparison (the warnings test adds a
# NAVAL ACTION kit); every scenario's kit is read back by the packet tests.
@pytest.mark.skipif(not fork_safe(), reason="needs fork")
@pytest.mark.parametrize("scenario", ["mediterranean-1940"])
def test_forked_build_equals_single_process_build(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path, scenario: str) -> None:
    alone, forked = _both_ways(monkeypatch, tmp_path, scenario)
    assert _files(alone) == _files(forked)
    assert alone.warnings == forked.warnings


@pytest.mark.skipif(not fork_safe(), reason="needs fork")
def test_warnings_come_back_from_forked_workers(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    from generator.kit.seam import KitOptions

    tables = tmp_path / "shrink.yaml"
    tables.write_text(SHRINK, encoding="utf-8")
    options = KitOptions(tables=tables)
    alone, forked = _both_ways(monkeypatch, tmp_path, "savo-island", options=options)
    labels = [w for w in forked.warnings if w.startswith("label ")]
    assert labels, "the shrunk markers must warn"
    assert alone.warnings == forked.warnings
    assert _files(alone) == _files(forked)
    # The markers command says the same about the same markers.
    markers = build_markers("savo-island", out=tmp_path / "m", options=options)
    assert set(labels) == {w for w in markers.warnings if w.startswith("label ")}


@pytest.mark.parametrize("scenario", ["savo-island", "river-plate"])
def test_progress_total_is_the_recipe_length(kits: Kits, scenario: str) -> None:
    # The session's shared build records every progress call the pipeline made.
    calls = kits.progress_of(scenario)
    library = validated_library([])
    ruleset = REGISTRY[library.scenarios[scenario].model.ruleset]
    from generator.kit.seam import KitOptions

    _, work = prepared(ruleset, library, Request("kit", scenario=scenario), "a4", KitOptions())
    assert {total for _, total in calls} == {len(work.jobs)}
    assert len(calls) == len(work.jobs)
    assert sorted(step for step, _ in calls) == sorted(j.key for j in work.jobs)


def test_default_ruleset_and_scenario_come_from_the_registry() -> None:
    assert default_ruleset() is next(iter(REGISTRY.values()))
    assert default_scenario() == default_ruleset().default_scenario
    assert default_scenario() in validated_library([]).scenarios


def test_recipe_naming_an_unknown_component_is_located(tmp_path: Path) -> None:
    path = tmp_path / "kit.yaml"
    path.write_text("kit:\n  folder: x\n  packets:\n    - file: a.pdf\n"
                    "      contents: [card, matchup]\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_recipes(path, "kit.yaml", ["card", "matchups"])
    assert [str(p) for p in info.value.problems] == [
        "kit.yaml:5:24: kit.packets.0.contents.1: found component 'matchup', expected one "
        "of the registered components; did you mean 'matchups'?"]


def test_recipe_side_item_needs_a_per_side_packet(tmp_path: Path) -> None:
    path = tmp_path / "kit.yaml"
    path.write_text("kit:\n  folder: x\n  packets:\n    - file: a.pdf\n"
                    "      contents: ['sheets:{side}']\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_recipes(path, "kit.yaml", ["sheets"])
    assert [str(p) for p in info.value.problems] == [
        "kit.yaml:5:18: kit.packets.0.contents.0: found 'sheets:{side}' in a packet without "
        "'per: side', expected NAME:* or a packet with per: side"]


def test_plan_expands_sides_and_flags() -> None:
    recipe = default_ruleset().recipe("tables")
    without = plan(recipe, {}, set(), {"scale": "tabletop"})
    assert [p.file for p in without.packets] == ["action-card.pdf", "resolution-tables.pdf",
                                                  "dice.pdf"]
    assert without.folder == "tables"
    sides = {"a": "Side A", "b": "Side B"}
    with_scenario = plan(recipe, sides, {"scenario"}, {"scenario": "x"})
    assert with_scenario.folder == "x/tables"
    assert [p.file for p in with_scenario.packets][3:] == ["matchups-a.pdf", "matchups-b.pdf",
                                                           "victory.pdf"]
    assert [j.key for j in with_scenario.jobs] == ["card", "odds", "dice", "matchups:a",
                                                   "matchups:b", "victory"]


def _ruleset_and_scenario_names() -> set[str]:
    names = set(REGISTRY)
    names |= {m.name for m in (p.parent for p in (ROOT / "generator" / "rulesets").glob(
        "*/kit.yaml"))}
    names |= set(validated_library([]).scenarios)
    return names


def test_no_shared_module_names_a_ruleset_or_scenario() -> None:
    """Shared code names no ruleset or scenario in its code (strings, names, imports)."""
    names = _ruleset_and_scenario_names()
    offenders = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        if "rulesets" in path.relative_to(ROOT / "generator").parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            text = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docstrings:
                text = node.value
            elif isinstance(node, (ast.ImportFrom,)):
                text = node.module or ""
            elif isinstance(node, ast.Name):
                text = node.id
            if text and any(n in text or n.replace("-", "_") in text for n in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:60]!r}")
    assert offenders == []


def test_rulesets_register_through_the_entry_point_group() -> None:
    from importlib import metadata

    found = {p.name for p in metadata.entry_points(group="quarterdeck.rulesets")}
    assert set(REGISTRY) <= found | {"example"}


def test_odds_works_for_surface_action() -> None:
    from click.testing import CliRunner

    from generator.cli.main import main

    run = CliRunner().invoke(main, ["odds", "--scenario", "river-plate", "--firer", "Exeter",
                                    "--target", "Admiral Graf Spee", "--battery", "broadside",
                                    "--range", "12"])
    assert run.exit_code == 0, run.output
    assert "Exeter" in run.output and "≥1 effective hit" in run.output
    assert "8in broadside" in run.output


def test_odds_on_a_ruleset_without_odds_says_so() -> None:
    from generator.core.errors import UsageError
    from generator.kit.seam import Ruleset

    class Bare(Ruleset):
        name = "bare"
        title = "Bare"

    with pytest.raises(UsageError, match="Bare has no odds calculator"):
        Bare().odds(validated_library([]), None, "a", "b", None, None, None)


# --- the registry: rulesets found by entry point, a broken one named, never skipped -------

def _broken_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str,
                 target: str = "qd_broken:RULESET") -> Registry[DataRuleset]:
    """A registry holding one entry point, ``broken``, whose module is ``source``."""
    from generator.data import registry

    (tmp_path / "qd_broken.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "qd_broken", raising=False)
    store = registry._Store()
    store._targets = {"broken": target}
    return registry.Registry(store, registry.DataRuleset)


@pytest.mark.parametrize(("source", "target", "message"), [
    ("import qd_nowhere\n", "qd_broken:RULESET",
     "cannot import module 'qd_broken': ModuleNotFoundError: No module named 'qd_nowhere'"),
    ("raise RuntimeError('tables missing')\n", "qd_broken:RULESET",
     "cannot import module 'qd_broken': RuntimeError: tables missing"),
    ("OTHER = 1\n", "qd_broken:RULESET",
     "cannot read RULESET from module 'qd_broken': AttributeError: module 'qd_broken' has "
     "no attribute 'RULESET'"),
    ("RULESET = 1\n", "qd_broken:RULESET",
     "found int, expected a quarterdeck Ruleset (generator.kit.seam.Ruleset)"),
])
def test_a_ruleset_that_cannot_be_loaded_is_an_error_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, target: str,
        message: str) -> None:
    from generator.data.registry import RulesetImportError

    view = _broken_view(tmp_path, monkeypatch, source, target)
    for ask in (lambda: list(view.values()), lambda: view["broken"]):
        with pytest.raises(RulesetImportError) as caught:
            ask()
        assert str(caught.value) == f"ruleset entry point 'broken' ({target}): {message}"
        assert caught.value.exit_code == 2


def test_the_kit_layer_registry_refuses_a_ruleset_that_is_not_a_whole_ruleset(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Enough for the data layer (name, kinds, checks, rating hooks), but no ``prepare``."""
    from generator.data.registry import RulesetImportError
    from generator.kit.seam import Ruleset

    source = ("class Half:\n    name = 'broken'\n    title = 'Half'\n    order = 1\n"
              "    data_kinds = {}\n    class_model = None\n"
              "    def check(self, library): return [], []\n"
              "    def describe_class(self, entry): return ('', '', '', '')\n"
              "    rates_missile_era = converts_old_files = False\n"
              "    old_file_lacks = None\n"
              "    def from_old_file(self, data): return data\n"
              "RULESET = Half()\n")
    view = _broken_view(tmp_path, monkeypatch, source)
    assert view["broken"].title == "Half"  # the data layer's view takes it
    whole = view.typed(Ruleset)
    with pytest.raises(RulesetImportError) as caught:
        whole["broken"]
    assert str(caught.value) == ("ruleset entry point 'broken' (qd_broken:RULESET): found "
                                 "Half, expected a generator.kit.seam.Ruleset")


@pytest.mark.parametrize("args", [["list", "rulesets"], ["--help"], ["no-such-command"]])
def test_a_broken_installed_ruleset_stops_the_command_with_exit_2(tmp_path: Path,
                                                                  args: list[str]) -> None:
    """A ruleset installed as a pip package would be, broken: its error, exit 2, no traceback.

    Also where the command line looks for the rulesets' own commands (``--help``, a
    command it does not know), outside any command's error boundary.
    """
    import subprocess

    site = tmp_path / "site"
    dist = site / "qd_broken-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: qd-broken\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[quarterdeck.rulesets]\n"
                                           "broken = qd_broken:RULESET\n")
    (site / "qd_broken.py").write_text("import qd_nowhere\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)]),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "QUARTERDECK_JOBS": "1"}
    env.pop("QUARTERDECK_DEBUG", None)
    run = subprocess.run([sys.executable, "-c", "from generator.cli.main import main; main()",
                          *args], capture_output=True, text=True, env=env,
                         check=False, cwd=tmp_path)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == ("error: ruleset entry point 'broken' (qd_broken:RULESET): cannot "
                          "import module 'qd_broken': ModuleNotFoundError: No module named "
                          "'qd_nowhere'\n")


# --- preview: every ruleset's components, from the seam ---------------------------------

def test_preview_offers_each_rulesets_class_recipe_components() -> None:
    from generator.kit.preview import component_names

    offered = {name: list(component_names(REGISTRY[name])) for name in REGISTRY}
    # The class recipe's components by name, then the ruleset's short names for them;
    # a ruleset with no class proof has only its catalog card.
    assert offered["rule-27"] == ["card", "rating", "counters", "status", "counter"]
    assert offered["modern-naval"] == ["card", "cards", "status"]
    assert offered["naval-warfare"] == ["card"]
    assert component_names(REGISTRY["rule-27"])["counter"] == "counters:ship"


@pytest.mark.parametrize(("ruleset", "class_id", "kind", "title"), [
    ("rule-27", "kent", "counters", "Counters: Australia"),
    ("rule-27", "kent", "status", "Rule 27 rating: Kent (County) class"),
    ("modern-naval", "belgrano", "status", "Unit cards: General Belgrano")])
def test_preview_renders_a_component_of_any_ruleset(ruleset: str, class_id: str, kind: str,
                                                     title: str) -> None:
    from generator.kit.preview import preview

    made = preview(class_id, ruleset=ruleset, kind=kind, dpi=36)
    assert (made.ruleset, made.title) == (ruleset, title)
    assert made.png.startswith(b"\x89PNG")


def test_preview_names_the_components_it_offers() -> None:
    from generator.core.errors import UsageError
    from generator.kit.preview import preview

    with pytest.raises(UsageError) as caught:
        preview("kent", ruleset="rule-27", kind="counterz", dpi=36)
    assert str(caught.value) == ("--component: found 'counterz', expected one of Rule 27's "
                                 "components: card, rating, counters, status, counter; did "
                                 "you mean 'counter'?")
