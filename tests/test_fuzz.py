"""Fuzz the command line with mutated data files (issue 20, item 6).

Hypothesis takes the bundled files (ship classes, both rulesets' scenarios, the tables a
``--tables`` file may replace), parses them, changes one to three things (a value
replaced by one of another type or an extreme size, a key or list item deleted, a list
item duplicated), dumps the result back to YAML and runs the real command line on it in
this process: ``check DIR`` for classes and scenarios, ``build SCENARIO --data DIR --out
TMP -q`` for a few scenarios and for every tables file. Every run must end in one of two
ways:

- exit 0, and a build's kit folder holds exactly the files its manifest lists;
- exit 2, every problem line on stderr located (``file:line:column: field: found X,
  expected Y``) or a usage error (``error: ...``), and nothing written at all.

An internal error (exit 70), any other exit code, a traceback or a run longer than
``HANG_SECONDS`` fails the test.

The budget is fixed and the examples derandomized, so the suite is reproducible and fast:
``QUARTERDECK_FUZZ_EXAMPLES`` (default 24) mutated files per check strategy, checked
``BATCH`` at a time (one ``check`` of a folder holding four mutants, each under its own id,
costs about what one mutant did: the bundled library is loaded once per check), an eighth
of that per tables build strategy and a twelfth per scenario build strategy. A longer run
on demand::

    QUARTERDECK_FUZZ_EXAMPLES=2000 pytest tests/test_fuzz.py

(add ``QUARTERDECK_FUZZ_RANDOM=1`` to draw fresh examples instead of the derandomized ones).
Crashes found so far in files owned elsewhere are pinned below as strict xfail tests, with
the exact input, so they turn into failures the day they are fixed.
"""

from __future__ import annotations

import copy
import datetime
import functools
import json
import os
import re
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.output import MARKER

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = int(os.environ.get("QUARTERDECK_FUZZ_EXAMPLES", "24"))
BATCH = 4
"""Mutated files per ``check`` run (each its own file and id)."""
BUILD_EXAMPLES = max(1, EXAMPLES // 8)
HANG_SECONDS = 120
"""A single command taking longer than this counts as a hang (builds take ~2 s)."""

FUZZ = settings(
    max_examples=max(1, EXAMPLES // BATCH),
    derandomize=not os.environ.get("QUARTERDECK_FUZZ_RANDOM"),
    database=None,
    deadline=None,  # wall time is machine-dependent; HANG_SECONDS bounds it instead
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
    # Shrinking a failure of a 200-line class can take minutes; ask for it when hunting.
    phases=[Phase.explicit, Phase.reuse, Phase.generate]
    + ([Phase.shrink] if os.environ.get("QUARTERDECK_FUZZ_SHRINK") else []),
)
FUZZ_BUILD = settings(FUZZ, max_examples=BUILD_EXAMPLES)

# A problem with the whole document (an empty tables file) has no field path to name.
LOCATED = re.compile(r"^\S+:\d+:\d+: (\S.*: )?found .*, expected .*")
USAGE = re.compile(r"^error: \S")
ASIDE = re.compile(r"^(note|warning): ")

CLASS_FILES = [ROOT / "shipdata" / "classes" / path for path in (
    "us/fletcher.yaml", "su/gangut.yaml", "jp/takao.yaml", "de/bismarck.yaml")]
NA_SCENARIO = ROOT / "shipdata" / "naval_action" / "scenarios" / "savo-island.yaml"
SA_SCENARIO = ROOT / "shipdata" / "surface_action" / "scenarios" / "river-plate.yaml"
TABLES = ROOT / "generator" / "rulesets"
NA_TABLES = [TABLES / "naval_action" / "tables" / name
             for name in ("action-card.yaml", "derivation.yaml", "markers.yaml")]
SA_TABLES = [TABLES / "surface_action" / "tables" / "charts.yaml"]


def _load(path: Path) -> Any:
    return copy.deepcopy(_parsed(path))


@functools.cache
def _parsed(path: Path) -> Any:
    # Each bundled file parsed once (strategies are built from the same few at import).
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _top_level(paths: list[Path]) -> list[tuple[str, Any]]:
    """Every (key, value) a ``--tables`` file may replace, from the bundled files."""
    return [item for path in paths for item in _load(path).items()]


# -- values and mutations -------------------------------------------------------------

ODD_TEXT = [
    "", " ", "x" * 5000, "Alpha<img src=\"/etc/passwd\"/>", "a < b & c", "<b>bold</b>",
    "Tribal[/]", "[bold]x[/bold]", "\x1b[31mred\x1b[0m", "tab\there", "nul\x00byte",
    "Киров 2", "Αθήνα", "Chōkai", "1942-02-30", "3mm", "0.125in", "1/0", "nan", "-1",
    "{{ 7 * 7 }}", "%s%n", "../../outside.png", "*alias", "!!python/object:os.system",
]

ODD_NUMBERS = [0, -1, 1, 2, 6, 7, 12, 99, -99, 2**31, 2**63, -(2**63), 10**400, 0.5, -0.0,
               1e-300, 1e308, -1e308, float("inf"), float("-inf"), float("nan")]

leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(ODD_NUMBERS),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(ODD_TEXT),
    st.text(max_size=30),
    st.dates(min_value=datetime.date(1, 1, 1)),
)
values = st.recursive(
    leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=6,
)


def _slots(node: Any) -> Iterator[tuple[Any, Any]]:
    """(container, key or index) of every value inside ``node``, depth first."""
    if isinstance(node, dict):
        items: Any = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    else:
        return
    for key, value in items:
        yield node, key
        yield from _slots(value)


@st.composite
def mutated(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` with one to three changes: a value replaced, a key or item deleted or doubled."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        slots = list(_slots(doc))
        if slots and draw(st.booleans()):
            # Half the changes hit a top-level key, which a uniform draw over hundreds of
            # nested values (a class lists 58 ships) would almost never pick.
            slots = [slot for slot in slots if slot[0] is doc]
        if not slots:
            break
        container, key = draw(st.sampled_from(slots))
        action = draw(st.sampled_from(["replace", "replace", "replace", "delete", "double"]))
        if action == "replace":
            container[key] = draw(values)
        elif action == "delete":
            del container[key]
        elif isinstance(container, list):
            container.insert(key, copy.deepcopy(container[key]))
        else:  # a mapping cannot hold a key twice: double the value into a list instead
            container[key] = [copy.deepcopy(container[key])] * 2
    return doc


@st.composite
def retexted(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` with one text value replaced by odd text: mostly still valid, so it builds."""
    doc = copy.deepcopy(doc)
    slots = [slot for slot in _slots(doc) if isinstance(slot[0][slot[1]], str)]
    container, key = draw(st.sampled_from(slots))
    container[key] = draw(st.one_of(st.sampled_from(ODD_TEXT), st.text(max_size=40)))
    return doc


def _dump(doc: Any, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100),
                    encoding="utf-8")
    return path


# -- running the command line ---------------------------------------------------------

class Hang(Exception):
    """A command ran longer than HANG_SECONDS."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang(f"a command ran longer than {HANG_SECONDS} s")


def run(*args: str) -> Result:
    """Run the CLI in-process; fail on a hang, a traceback or an exit other than 0 or 2."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_SECONDS)
    try:
        result = CliRunner().invoke(main, list(args))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    if isinstance(result.exception, Hang):
        raise result.exception
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{args}: {result.exception!r}\n{result.output}")
    assert result.exit_code in (0, 2), f"{args}: exit {result.exit_code}\n{result.output}"
    assert "Traceback" not in result.output, result.output
    if result.exit_code == 2:
        lines = [line for line in result.stderr.split("\n") if line.strip()]
        problems = [line for line in lines if not ASIDE.match(line)]
        assert problems, f"{args}: exit 2 without a message\n{result.output}"
        for line in problems:
            assert LOCATED.match(line) or USAGE.match(line), (
                f"{args}: unlocated problem line {line!r}\n{result.output}")
    return result


def check_file(doc: Any, name: str) -> Result:
    with tempfile.TemporaryDirectory() as tmp:
        data = _dump(doc, Path(tmp) / "data" / name).parent
        return run("check", str(data))


def check_files(docs: tuple[Any, ...], stem: str) -> Result:
    """Check a folder of mutants, the i-th as ``STEM-i.yaml`` (the id it was given)."""
    with tempfile.TemporaryDirectory() as tmp:
        for i, doc in enumerate(docs):
            _dump(doc, Path(tmp) / "data" / f"{stem}-{i}.yaml")
        return run("check", str(Path(tmp) / "data"))


def build_kit(scenario: str, *extra: str) -> Result:
    """Build into a fresh folder and check the kit is whole (exit 0) or absent (exit 2)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        result = run("build", scenario, "--out", str(out), "-q", *extra)
        event(f"build exit {result.exit_code}")  # --hypothesis-show-statistics counts them
        # quarterdeck's marker in the folders it made is not part of the kit.
        written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                         if p.is_file() and p.name != MARKER) if out.exists() else []
        if result.exit_code == 2:
            assert not written, f"exit 2 but files were written: {written}"
        else:
            kit = out / scenario
            listed = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))["files"]
            assert sorted(f"{scenario}/{f['file']}" for f in listed) == sorted(
                path for path in written if path != f"{scenario}/manifest.json")
        return result


def _with_id(path: Path, new_id: str) -> Any:
    doc = _load(path)
    doc["id"] = new_id
    return doc


CLASSES = [_with_id(path, "fuzz-class") for path in CLASS_FILES]  # the file is fuzz-class.yaml
NA_DOC = _with_id(NA_SCENARIO, "fuzz-na")
SA_DOC = _with_id(SA_SCENARIO, "fuzz-sa")


def batch(doc_for: Any, stem: str) -> st.SearchStrategy[tuple[Any, ...]]:
    """``BATCH`` mutants, the i-th mutated from a document with the id ``STEM-i``."""
    return st.tuples(*(doc_for(f"{stem}-{i}") for i in range(BATCH)))


def _class_batch(new_id: str) -> st.SearchStrategy[Any]:
    return st.sampled_from([_with_id(path, new_id) for path in CLASS_FILES]).flatmap(mutated)


# -- the fuzz tests -------------------------------------------------------------------

@FUZZ
@given(batch(_class_batch, "fuzz-class"))
def test_mutated_class_files_are_checked(docs: tuple[Any, ...]) -> None:
    check_files(docs, "fuzz-class")


@FUZZ
@given(batch(lambda new_id: mutated(_with_id(NA_SCENARIO, new_id)), "fuzz-na"))
def test_mutated_naval_action_scenarios_are_checked(docs: tuple[Any, ...]) -> None:
    check_files(docs, "fuzz-na")


@FUZZ
@given(batch(lambda new_id: mutated(_with_id(SA_SCENARIO, new_id)), "fuzz-sa"))
def test_mutated_surface_action_scenarios_are_checked(docs: tuple[Any, ...]) -> None:
    check_files(docs, "fuzz-sa")


def test_unmutated_batches_check_clean() -> None:
    """A batch of unchanged files passes: each mutant's problems are its own, not the batch's."""
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(BATCH):  # every batch of the three strategies, in one folder
            for stem, path in (("fuzz-class", CLASS_FILES[i % len(CLASS_FILES)]),
                               ("fuzz-na", NA_SCENARIO), ("fuzz-sa", SA_SCENARIO)):
                _dump(_with_id(path, f"{stem}-{i}"), Path(tmp) / "data" / f"{stem}-{i}.yaml")
        result = run("check", str(Path(tmp) / "data"))
    assert result.exit_code == 0, result.output


@settings(FUZZ_BUILD, max_examples=max(1, EXAMPLES // 12))
@given(st.sampled_from([("fuzz-na", NA_DOC), ("fuzz-sa", SA_DOC)]).flatmap(
    lambda pair: st.tuples(st.just(pair[0]), st.one_of(mutated(pair[1]), retexted(pair[1])))))
def test_mutated_scenarios_build_whole_or_not_at_all(case: tuple[str, Any]) -> None:
    scenario, doc = case
    with tempfile.TemporaryDirectory() as tmp:
        data = _dump(doc, Path(tmp) / f"{scenario}.yaml").parent
        build_kit(scenario, "--data", str(data))


def _tables_case(scenario: str, items: list[tuple[str, Any]]) -> st.SearchStrategy[Any]:
    return st.sampled_from(items).flatmap(
        lambda item: st.tuples(st.just(scenario), mutated({item[0]: item[1]})))


@FUZZ_BUILD
@given(st.one_of(_tables_case("komandorski", _top_level(NA_TABLES)),
                 _tables_case("river-plate", _top_level(SA_TABLES))))
def test_mutated_tables_files_build_whole_or_not_at_all(case: tuple[str, Any]) -> None:
    scenario, doc = case
    with tempfile.TemporaryDirectory() as tmp:
        tables = _dump(doc, Path(tmp) / "tables.yaml")
        build_kit(scenario, "--tables", str(tables))


def test_the_checks_can_fail() -> None:
    """The located-line and whole-kit assertions reject what they must reject."""
    assert LOCATED.match("d/x.yaml:6:7: type: found 7, expected one of BB, BC")
    assert not LOCATED.match("Traceback (most recent call last):")
    assert not LOCATED.match("x.yaml: type: found 7, expected BB")  # no line and column
    assert LOCATED.match("t.yaml:1:1: found no tables, expected a mapping of table names")
    doc = copy.deepcopy(CLASSES[0])
    doc["speed_kn"] = [1]
    result = check_file(doc, "fuzz-class.yaml")
    assert result.exit_code == 2
    assert any(LOCATED.match(line) and "speed_kn: found a list, expected a number" in line
               for line in result.stderr.splitlines()), result.stderr


# -- crashes the fuzzer found, kept as regression tests (the last one still open) ------

def _expect_located(result: Result, line: str) -> None:
    assert result.exit_code == 2, result.output
    assert line in result.stderr.split("\n"), result.stderr


@pytest.mark.parametrize(("value", "found"), [("[a]", "a list"), ("{}", "a mapping")])
def test_a_ruleset_that_is_not_text_is_located(tmp_path: Path, value: str, found: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = data / "fuzz-sa.yaml"
    path.write_text(f"kind: scenario\nruleset: {value}\nid: fuzz-sa\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(data)])
    from generator.rulesets import REGISTRY

    _expect_located(result, f"{path}:2:10: ruleset: found {found}, "
                    f"expected one of {', '.join(REGISTRY)}")


# Found by emptying each top-level table in turn; each was a build that ended in exit 70.
EMPTIED_TABLES_CRASH = [
    ("caliber_factor", "[]", "IndexError"),
    ("torpedo_penetration", "{}", "KeyError: 21"),
    ("comparative_strength_by_type", "{}", "KeyError: 'CL'"),
    ("battery_arcs", "{}", "KeyError: 'BOW'"),
    ("arc_exclusions", "{}", "KeyError: 'BOW'"),
]


@pytest.mark.parametrize(("key", "empty", "crash"), EMPTIED_TABLES_CRASH)
def test_an_emptied_table_is_located(tmp_path: Path, key: str, empty: str, crash: str) -> None:
    tables = tmp_path / "tables.yaml"
    tables.write_text(f"{key}: {empty}\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "komandorski", "--tables", str(tables),
                                       "--out", str(out), "-q"])
    assert result.exit_code == 2, f"{crash}: {result.output}"
    assert any(line.startswith(f"{tables}:1:") and f"{key}" in line and LOCATED.match(line)
               for line in result.stderr.split("\n")), result.stderr
    assert not out.exists() or not any(out.rglob("*"))


def test_a_key_with_a_line_break_stays_on_one_problem_line(tmp_path: Path) -> None:
    doc = copy.deepcopy(CLASSES[0])
    doc["armor"]["x\ny"] = 1
    result = check_file(doc, "fuzz-class.yaml")
    assert result.exit_code == 2
    lines = [line for line in result.stderr.split("\n") if line.strip()]
    assert all(LOCATED.match(line) or USAGE.match(line) for line in lines), lines
