"""Light commands (`list`, `check`, `odds`, `--help`) import only what they use (issue 21).

Each command runs in a fresh interpreter against one user cache folder, warmed once, as
a user's second and later commands are; the modules it imported are read back from
``sys.modules``. A change that makes a light command import the page engine, pypdf,
the dice library or a ruleset it does not need fails here, not only in ``bench/``.
The cached answers are checked against fresh ones, and a changed file against a
re-read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from generator.cache import usercache
from generator.core.errors import DataError
from generator.data.validation import load_model
from tests.paths import ROOT

CLASS = ROOT / "shipdata" / "classes" / "us" / "fletcher.yaml"
ODDS = ["odds", "--firer", "Chokai", "--battery", "BOW", "--target", "Astoria",
        "--range", "medium", "--scenario", "savo-island"]

RUN = """
import json, sys
from generator.cli.main import main
code = 0
try:
    main({args!r})
except SystemExit as exc:
    code = exc.code
sys.stdout.flush()
print("\\n@@" + json.dumps([code, sorted(sys.modules)]))
"""


def run(args: list[str], cache: Path, cwd: Path = ROOT,
        **env: str) -> tuple[int, str, str, set[str]]:
    """``quarterdeck ARGS`` in a fresh interpreter: exit code, stdout, stderr, modules."""
    full = {k: v for k, v in os.environ.items()
            if k not in ("QUARTERDECK_NO_CACHE", "COLUMNS", "FORCE_COLOR", "NO_COLOR")}
    full.update(XDG_CACHE_HOME=str(cache), **env)
    done = subprocess.run([sys.executable, "-c", RUN.format(args=args)], capture_output=True,
                          text=True, env=full, cwd=cwd, timeout=300, check=True)
    out, _, tail = done.stdout.rpartition("\n@@")
    code, modules = json.loads(tail)
    return code, out, done.stderr, set(modules)


SERVER = """
import json, os, sys, traceback
import importlib
from generator.cli.main import main
# What a command that computes imports (every bundled ruleset, the library, the
# validation): imported once here, so each forked command pays only for its own work.
import generator.data.library, generator.kit.pipeline, generator.data.validation
from generator.rulesets import BUNDLED
for target in BUNDLED.values():
    importlib.import_module(target.partition(":")[0])
print("ready", flush=True)
for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        try:
            os.environ.clear()
            os.environ.update(job["env"])
            os.chdir(job["cwd"])
            for fd, name in ((1, "out"), (2, "err")):
                os.dup2(os.open(job[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
            code = 0
            try:
                main(job["args"])
            except SystemExit as exc:
                code = exc.code
            sys.stdout.flush()
            sys.stderr.flush()
            with open(job["code"], "w") as handle:
                json.dump(code, handle)
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    print(status, flush=True)
"""


class Forked:
    """Commands run each in a child forked from one interpreter that imported them once.

    For runs whose point is the answer, not the imports: every command is still its own
    process (nothing computed in one is in memory for the next; the parent runs none),
    with the environment and folder it is given, and its own stdout and stderr files.
    Imports are checked on real fresh interpreters (``run``) only.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR",
                                                                 "NO_COLOR")}
        self.server = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        assert self.server.stdout is not None and self.server.stdout.readline() == "ready\n"

    def run(self, args: list[str], cache: Path, cwd: Path = ROOT,
            **env: str) -> tuple[int, str, str]:
        """``quarterdeck ARGS`` in a forked child: exit code, stdout, stderr."""
        full = {k: v for k, v in os.environ.items()
                if k not in ("QUARTERDECK_NO_CACHE", "COLUMNS", "FORCE_COLOR", "NO_COLOR")}
        full.update(XDG_CACHE_HOME=str(cache), **env)
        self.count += 1
        files = {name: str(self.folder / f"{self.count}.{name}")
                 for name in ("out", "err", "code")}
        assert self.server.stdin is not None and self.server.stdout is not None
        self.server.stdin.write(json.dumps({"args": args, "env": full, "cwd": str(cwd),
                                            **files}) + "\n")
        self.server.stdin.flush()
        status = self.server.stdout.readline()
        out, err = (Path(files[n]).read_text(encoding="utf-8") for n in ("out", "err"))
        assert status == "0\n", err
        return json.loads(Path(files["code"]).read_text()), out, err

    def close(self) -> None:
        assert self.server.stdin is not None
        self.server.stdin.close()
        self.server.wait(timeout=60)


@pytest.fixture(scope="module")
def forked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forked]:
    server = Forked(tmp_path_factory.mktemp("forked"))
    yield server
    server.close()


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory, forked: Forked) -> Path:
    """One user cache folder, warmed by a first run of every light command."""
    folder = tmp_path_factory.mktemp("light-cache")
    for args in (["check"], ["list"], ["list", "scenarios"], ["list", "classes"], ["--help"],
                 ODDS):
        code, _, err = forked.run(args, folder)
        assert code in (0, None), err
    return folder


HEAVY = ("reportlab", "pypdf", "pypdfium2", "icepool", "jinja2", "pydantic", "yaml", "PIL",
         "generator.kit.pipeline", "generator.kit.packets", "generator.pages.component",
         "generator.data.shipclass",
         "generator.rulesets.", "importlib.metadata")


def heavy(modules: set[str], allowed: tuple[str, ...] = ()) -> list[str]:
    """The heavy modules a command imported, beyond ``allowed`` prefixes."""
    return sorted(m for m in modules if m.startswith(HEAVY) and not m.startswith(allowed))


@pytest.mark.parametrize("args", [["list"], ["list", "scenarios"], ["list", "classes"],
                                  ["check"], ["--help"]])
def test_cached_light_commands_import_no_ruleset_and_no_pydantic(cache: Path,
                                                                  args: list[str]) -> None:
    code, out, _, modules = run(args, cache)
    assert code in (0, None) and out
    assert heavy(modules) == [], args
    if args in (["check"], ["--help"]):  # plain lines: not even the console library
        assert [m for m in modules if m == "rich" or m.startswith("rich.")] == [], args


def test_odds_imports_its_ruleset_only_and_no_page_engine(cache: Path) -> None:
    # A question not asked before, with the library and the ruleset's odds index (filled
    # by the first question, in the fixture) from the cache: answered from the index's
    # computed results, without pydantic, the schema, the tables, YAML or icepool.
    code, out, err, modules = run([*ODDS[:-4], "--range", "close", "--scenario",
                                   "savo-island"], cache)
    assert code in (0, None), err
    assert "Chōkai (Takao CA) firing at Astoria" in out and "┃ close" in out
    assert {"generator.rulesets.naval_action.ask", "generator.rulesets.naval_action.odds"} \
        <= modules
    assert heavy(modules, ("generator.kit.seam", "generator.rulesets.naval_action",
                           "generator.rulesets.lazy")) == []
    assert sorted(m for m in modules if m.startswith("generator.rulesets.naval_action.")) == [
        f"generator.rulesets.naval_action.{m}" for m in ("ask", "matchups", "odds", "views")]
    # Another ship, without --scenario: the class's ships are in the index too.
    code, out, err, modules = run(["odds", "--firer", "new-orleans:Vincennes", "--target", "Tenryu",
                                   "--range", "long"], cache)
    assert code in (0, None), err
    assert "Vincennes (New Orleans CA) firing at Tenryū" in out
    assert heavy(modules, ("generator.kit.seam", "generator.rulesets.naval_action",
                           "generator.rulesets.lazy")) == []
    assert "generator.rulesets.naval_action.ruleset" not in modules
    other = sorted(m for m in modules if m.startswith("generator.rulesets.")
                   and m.split(".")[2] not in ("base", "lazy", "naval_action"))
    assert other == []
    # Odds draw no page: no PDF writer, no platypus, no templates, no pipeline.
    drawn = [m for m in modules if m.startswith(("pypdf", "reportlab.platypus", "jinja2",
                                                 "generator.kit.pipeline", "generator.kit.packets",
                                                 "generator.pages.component",
                                                 "generator.pages.pages", "generator.aids.gauges",
                                                 "generator.aids.strips",
                                                 "generator.pieces.imposition",
                                                 "generator.pages.templating"))]
    assert drawn == []
    assert "generator.rulesets.naval_action.aids" not in modules
    # The same question asked again is written from the cache: nothing heavy at all.
    code, again, _, modules = run(ODDS, cache)
    assert code in (0, None) and "67/162" in again
    assert heavy(modules, ("generator.kit.seam",)) == []


def test_each_ruleset_keeps_its_own_odds_index(cache: Path, forked: Forked) -> None:
    # Surface Action's first question builds its index (in a forked child); the next,
    # in a fresh interpreter, reads it: no pydantic, charts, YAML or dice library.
    sa = ["odds", "--scenario", "guadalcanal-battleships", "--target", "Kirishima"]
    code, _, err = forked.run([*sa, "--firer", "Washington"], cache)
    assert code in (0, None), err
    code, out, err, modules = run([*sa, "--firer", "Walke", "--battery", "torpedo"], cache)
    assert code in (0, None), err
    assert "Walke (Sims DD) firing at Kirishima" in out and "21in beam: 4 factor(s)" in out
    assert heavy(modules, ("generator.kit.seam", "generator.rulesets.surface_action",
                           "generator.rulesets.lazy")) == []
    assert sorted(m for m in modules if m.startswith("generator.rulesets.surface_action.")) \
        == ["generator.rulesets.surface_action.ask"]
    # NAVAL ACTION's index is still there: a new question of its own stays light.
    code, out, err, modules = run(["odds", "--firer", "Aoba", "--target", "Chicago",
                                   "--scenario", "savo-island"], cache)
    assert code in (0, None) and "Aoba (Aoba CA) firing at Chicago" in out, err
    assert heavy(modules, ("generator.kit.seam", "generator.rulesets.naval_action",
                           "generator.rulesets.lazy")) == []
    assert {p.name for p in (cache / "quarterdeck").glob("odds-index-*")} == {
        "odds-index-naval-action", "odds-index-surface-action"}


def test_cached_answers_equal_fresh_ones(cache: Path, forked: Forked) -> None:
    """With the cache (filled or replayed) and without it, every byte is the same."""
    # ``check`` in fresh interpreters, the others in forked children (the same answers).
    # Without the cache nothing is written to the cache folder, and ``check`` still works.
    fresh = run(["check"], cache / "unused", QUARTERDECK_NO_CACHE="1")[:3]
    assert fresh[0] in (0, None) and "ok:" in fresh[1]
    assert not (cache / "unused").exists()
    assert run(["check"], cache)[:3] == fresh
    for args in (["list"], ["list", "classes", "--nation", "jp"], ["check"],
                 ["list", "--ruleset", "rule-27"], ODDS):
        fresh = forked.run(args, cache, QUARTERDECK_NO_CACHE="1")
        cached = forked.run(args, cache)
        assert cached == fresh, args


def test_listing_follows_the_terminal_width_and_colours(cache: Path, forked: Forked) -> None:
    """The drawing is keyed by the console: another width or colours is drawn afresh."""
    outs = {}
    for columns, colour in (("100", ""), ("60", ""), ("100", "1")):
        env = {"COLUMNS": columns, **({"FORCE_COLOR": "1"} if colour else {})}
        first = run(["list", "scenarios"], cache, **env)[1]
        again = run(["list", "scenarios"], cache, **env)[1]
        fresh = forked.run(["list", "scenarios"], cache, QUARTERDECK_NO_CACHE="1", **env)[1]
        assert first == again == fresh
        outs[(columns, colour)] = first
    assert len(set(outs.values())) == 3
    assert max(len(line) for line in outs[("60", "")].splitlines()) <= 60
    assert "\x1b[" in outs[("100", "1")] and "\x1b[" not in outs[("100", "")]


def test_a_failing_listing_is_not_replayed_as_a_success(cache: Path) -> None:
    for _ in range(2):
        code, out, err, _ = run(["list", "--nation", "XX"], cache)
        assert code == 2 and "Rulesets" in out and "Scenarios" in out
        assert err.strip().endswith("error: --nation: no class of nation 'XX'")


def test_check_of_a_changed_file_checks_it_again(cache: Path, forked: Forked,
                                                 tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "fletcher.yaml"
    shutil.copy(CLASS, path)
    good = run(["check", str(folder)], cache, cwd=tmp_path)
    assert good[0] in (0, None) and "ok:" in good[1]
    assert "replaces the bundled ship-class 'fletcher'" in good[2]
    again = run(["check", str(folder)], cache, cwd=tmp_path)
    assert again[:3] == good[:3] and heavy(again[3]) == []  # from the cache
    assert forked.run(["check"], cache, cwd=tmp_path)[0] in (0, None)  # other folders between
    between = run(["check", str(folder)], cache, cwd=tmp_path)
    assert between[:3] == good[:3] and heavy(between[3]) == []
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("id: fletcher", "id: fletchr"), encoding="utf-8")
    for runner in (run, forked.run):  # a fresh interpreter, then a forked child
        code, out, err = runner(["check", str(folder)], cache, cwd=tmp_path)[:3]
        assert code == 2 and not out
        assert "data/fletcher.yaml:" in err
        assert "id: found 'fletchr', expected 'fletcher' (the file name without .yaml)" in err
    path.write_text(text, encoding="utf-8")  # back as it was: the good answer again
    assert forked.run(["check", str(folder)], cache, cwd=tmp_path) == good[:3]
    # A file added to the folder is read too.
    shutil.copy(ROOT / "shipdata" / "classes" / "us" / "gleaves.yaml", folder / "gleaves.yaml")
    code, _, err = forked.run(["check", str(folder)], cache, cwd=tmp_path)
    assert code in (0, None) and "replaces the bundled ship-class 'gleaves'" in err


def test_the_entry_points_are_read_again_when_a_distribution_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import rulesets

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = tmp_path / "site"
    dist = site / "qd_fake-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: qd-fake\nVersion: 1.0\n")
    points = dist / "entry_points.txt"
    points.write_text("[quarterdeck.rulesets]\nfake-one = qd_fake:ONE\n")
    monkeypatch.syspath_prepend(str(site))
    assert rulesets._targets()["fake-one"] == "qd_fake:ONE"
    assert rulesets._targets()["fake-one"] == "qd_fake:ONE"  # from the cache
    stamp = rulesets._distributions_stamp()
    points.write_text("[quarterdeck.rulesets]\nfake-two = qd_fake:TWO\n")
    os.utime(points, ns=(1, 1))  # a different mtime even on a coarse clock
    assert rulesets._distributions_stamp() != stamp
    found = rulesets._targets()
    assert found["fake-two"] == "qd_fake:TWO" and "fake-one" not in found
    shutil.rmtree(dist)  # uninstalled
    assert "fake-two" not in rulesets._targets()
    assert set(rulesets.BUNDLED) <= set(rulesets._targets())


class Pair(BaseModel):
    """A tiny table that ``load_model`` caches when it is bundled."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    a: int
    b: str


CHECKED: list[str] = []
"""What ``check_pair`` was called with: a module-level check carries no run-time state."""


def check_pair(pair: Pair, doc: object) -> list:  # type: ignore[type-arg]
    """Record each validation that ran (a cached load runs none)."""
    CHECKED.append(pair.b)
    return []


def test_a_cached_table_is_read_again_when_its_file_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.data import validation

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    CHECKED.clear()
    path = tmp_path / "bundled" / "pair.yaml"
    path.parent.mkdir()
    monkeypatch.setattr(validation, "PACKAGE", path.parent.resolve())  # as if shipped
    path.write_text("a: 1\nb: one\n")
    assert load_model(Pair, path, check=check_pair) == Pair(a=1, b="one")
    assert load_model(Pair, path, check=check_pair) == Pair(a=1, b="one")
    assert CHECKED == ["one"]  # the second came from the cache
    where = usercache.folder()
    assert where is not None and any(p.name.startswith("model-") for p in where.iterdir())
    path.write_text("a: 2\nb: two\n")
    assert load_model(Pair, path, check=check_pair) == Pair(a=2, b="two")
    path.write_text("a: 2\nb: two\nc: 3\n")
    with pytest.raises(DataError) as raised:
        load_model(Pair, path, check=check_pair)
    assert [p.message for p in raised.value.problems] == [
        "found unknown key 'c', expected one of a, b"]
    assert CHECKED == ["one", "two"]


def test_library_entries_thaw_to_what_a_fresh_load_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.data.library import load_library

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    load_library([])
    cached = load_library([])  # every entry frozen, thawed field by field on first use
    monkeypatch.setenv("QUARTERDECK_NO_CACHE", "1")
    fresh = load_library([])
    for ruleset in ("naval-action", "surface-action"):
        for cid in ("fletcher", "takao", "new-orleans"):
            one, two = cached.classes_of(ruleset)[cid], fresh.classes_of(ruleset)[cid]
            assert one.model == two.model and one.facts == two.facts
            assert one.root == two.root and one.doc.display == two.doc.display
            assert one.doc.data == two.doc.data and one.overrides == two.overrides
    # Ratings of one class file still share its file and facts after the round trip.
    na, sa = (cached.classes_of(r)["takao"] for r in ("naval-action", "surface-action"))
    assert na.facts is sa.facts and na.doc is sa.doc
    assert cached.scenarios["savo-island"].model == fresh.scenarios["savo-island"].model


def test_odds_are_answered_again_when_the_tables_file_changes(cache: Path, forked: Forked,
                                                              tmp_path: Path) -> None:
    card = ROOT / "generator" / "rulesets" / "naval_action" / "tables" / "action-card.yaml"
    text = card.read_text(encoding="utf-8")
    start = text.index("\npenetration:\n") + 1
    section = text[start:text.index("\ntorpedo_hits:\n", start) + 1]
    house = tmp_path / "house.yaml"
    args = [*ODDS, "--tables", str(house)]
    answers = []
    # Every damaging result of the penetration rows made a sinking: other odds for sure.
    harsh = "".join(line.replace('"(D)"', '"S"').replace('"D"', '"S"').replace('"HD"', '"S"')
                    if line.strip()[:1].isdigit() else line
                    for line in section.splitlines(keepends=True))
    for content in (section, harsh):
        house.write_text(content, encoding="utf-8")
        fresh = forked.run(args, cache, cwd=tmp_path, QUARTERDECK_NO_CACHE="1")
        # The answer to the changed file in a fresh interpreter; the first in a forked child.
        first = (run if content is harsh else forked.run)(args, cache, cwd=tmp_path)[:3]
        again = run(args, cache, cwd=tmp_path)
        assert first == again[:3] == fresh and fresh[0] in (0, None)
        assert "tables: house.yaml" in fresh[1]
        answers.append(fresh[1])
    assert answers[0] != answers[1]
    assert heavy(again[3], ("generator.kit.seam",)) == []  # the replay computed nothing
    # Another question is answered, not replayed from this one.
    code, out, _ = forked.run([*ODDS[:-4], "--range", "long", "--scenario", "savo-island"],
                              cache)
    assert code in (0, None) and "┃ long" in out and "medium" not in out


def test_only_output_fully_seen_is_replayed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from rich.console import Console

    from generator.cli.replay import Replay

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    seen = Replay("probe", Console(), "key", "seen")
    with seen.recording():
        print("to stdout")
        print("to stderr", file=sys.stderr)
    seen.remember()
    assert capsys.readouterr() == ("to stdout\n", "to stderr\n")
    assert Replay("probe", Console(), "key", "seen").replay()
    assert capsys.readouterr() == ("to stdout\n", "to stderr\n")
    assert not Replay("probe", Console(), "another key", "seen").replay()
    # Bytes written straight to the buffer bypass the copy: such an answer is not kept.
    past = Replay("probe", Console(), "key", "past")
    with past.recording():
        sys.stdout.write("text, then bytes\n")
        sys.stdout.buffer.flush()
    past.remember()
    assert not Replay("probe", Console(), "key", "past").replay()
    assert Replay("probe", Console(), "key", "seen").replay()
