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

    QUARTERDECK_FUZZ_EXAMPLES=2000 pytest tests/engine/test_fuzz.py

(add ``QUARTERDECK_FUZZ_RANDOM=1`` to draw fresh examples instead of the derandomized ones).
Crashes found so far in files owned elsewhere are pinned below as strict xfail tests, with
the exact input, so they turn into failures the day they are fixed.

The newer surfaces are mutated here too (issue 35): user templates (rendered with a real
build's values), marker SVGs (loaded and drawn by the real loader) and spreadsheets
(imported by the real command). Their corpora of hand-made hostile inputs live in
``tests/hostile_corpus/`` and run from the ``test_hardening_*`` files.
"""

from __future__ import annotations

import copy
import datetime
import functools
import io
import json
import os
import re
import signal
import tempfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, Phase, event, example, given, settings
from hypothesis import strategies as st

from generator.cli.main import main
from generator.core.errors import DataError
from generator.core.ownedfolders import MARKER
from generator.pages import templating
from generator.pages.markup import markup_to_flowables
from tests.engine.test_hardening_sheets import CANARIES
from tests.engine.test_hardening_svg import SEED_SVG, _canary, _data
from tests.engine.test_hardening_templates import (
    FRAGMENTS,
    REFERENCE,
    SECONDS,
    _bundled,
    captured,
    deadline,
)
from tests.engine.test_hardening_templates import LOCATED as TEMPLATE_LOCATED
from tests.hostile import run_cli, watch
from tests.paths import ROOT

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


# --- user templates (issue 35 item 2) ----------------------------------------------------
# A bundled template a build renders, mutated one to three times (fragments that recurse,
# double strings, loop, break the markup), rendered with the values a real build gives it:
# it renders (and ReportLab parses it) or is refused with a located problem, in seconds.

@st.composite
def mutants(draw: st.DrawFn) -> tuple[str, str]:
    """A bundled template (one a build renders), changed one to three times."""
    name = draw(st.sampled_from(sorted(captured())))
    source = _bundled(name)
    for _ in range(draw(st.integers(1, 3))):
        # half the changes at a line's start, where an inserted tag still parses
        starts = [0, *(i + 1 for i, char in enumerate(source) if char == "\n")]
        at = draw(st.one_of(st.integers(0, len(source)), st.sampled_from(starts)))
        kind = draw(st.sampled_from(["insert", "delete", "repeat", "loop"]))
        size = draw(st.integers(1, 400))
        piece = source[at:at + size]
        if kind == "insert":
            source = source[:at] + draw(st.sampled_from(FRAGMENTS)) + source[at:]
        elif kind == "delete":
            source = source[:at] + source[at + size:]
        elif kind == "repeat":
            source = source[:at] + piece * draw(st.integers(2, 60)) + source[at + size:]
        else:  # the piece run many times over
            times = draw(st.sampled_from([2, 100, 9999, 99999]))
            source = (f"{source[:at]}{{% for i in range({times}) %}}{piece}{{% endfor %}}"
                      f"{source[at + size:]}")
    return name, source


@settings(max_examples=EXAMPLES, derandomize=not os.environ.get("QUARTERDECK_FUZZ_RANDOM"),
          database=None, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutants())
# always tried (Phase.explicit): a reference to no character, an overlong word
@example((REFERENCE, _bundled(REFERENCE) + "\nA ship &#9999999; apart.\n"))
@example((REFERENCE, _bundled(REFERENCE) + "\n" + "x" * 600 + "\n"))
def test_mutated_templates_render_or_are_refused_quickly(mutant: tuple[str, str]) -> None:
    name, source = mutant
    escape, required, context = captured()[name]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / name).parent.mkdir(parents=True)
        (folder / name).write_text(source, encoding="utf-8")
        started = time.monotonic()
        try:
            with deadline(), templating.user_templates(folder):
                if required is None:
                    text = templating.render_text(name, escape, **context)
                    if escape:
                        markup_to_flowables(text)  # ReportLab parses each one
                else:
                    templating.render_blocks(name, required, escape, **context)
        except DataError as err:
            problems = [str(p) for p in err.problems]
            assert problems, "a DataError without problems"
            assert all(TEMPLATE_LOCATED.match(p) for p in problems), problems
        took = time.monotonic() - started
    assert took < SECONDS, f"{name} took {took:.1f} s"


# --- SVG images (issue 35 item 3) --------------------------------------------------------
# A marker SVG with one to four attributes, elements, texts or font names changed, loaded
# by the real loader and drawn: drawn, or refused with a reason; never a process started,
# never a file opened outside its folder.

FONT_NAMES = ["@CANARY@/canary", "canary", "../canary/canary", "DejaVu Sans", "Sans:bold",
              "--help", "http://127.0.0.1:9/f", "data:font/ttf;base64,AAAA", "'unclosed",
              "a, b, c", "", " ", "QD-Sans", "Arial Narrow", "monospace", "x" * 300,
              "Κύριλλος", "nul\x00byte"]
NUMBERS = ["0", "-0", "1e308", "-1e308", "1e-308", "nan", "inf", "-inf", "1e999", "99999",
           "100001", "-5", "3.5%", "12px", "1em", "1 2 3 4", "", "0 0 0 0", "1,2"]
ATTRIBUTES = ["font-family", "font-weight", "font-style", "font-size", "style", "class",
              "x", "y", "dx", "dy", "width", "height", "viewBox", "transform", "href", "id",
              "fill", "r", "d", "xml:space", "text-anchor", "baseline-shift"]
ELEMENTS = ["text", "tspan", "g", "use", "style", "rect", "svg", "symbol", "textPath",
            "image", "a", "switch", "clipPath", "linearGradient"]

attribute_values = st.one_of(
    st.sampled_from(FONT_NAMES), st.sampled_from(NUMBERS),
    st.sampled_from(["bold", "900", "bolder", "italic", "oblique 10deg", "#hull", "#nope",
                     "url(#hull)", "font-family:@CANARY@/canary", "scale(1e308)",
                     "rotate(nan)", "matrix(1 0 0 1 0 0)", "M 0 0 L nan 1"]),
    st.text(max_size=12),
)


@st.composite
def mutated_svg(draw: st.DrawFn) -> bytes:
    """The seed SVG with one to four things changed: attributes, elements, text, names."""
    from lxml import etree

    root = etree.fromstring(SEED_SVG.encode())
    for _ in range(draw(st.integers(1, 4))):
        elements = list(root.iter(etree.Element))
        element = elements[draw(st.integers(0, len(elements) - 1))]
        how = draw(st.sampled_from(["set", "set", "set", "delete", "copy", "wrap", "add",
                                    "text"]))
        try:
            if how == "set":
                name = draw(st.sampled_from(ATTRIBUTES))
                if name == "href" and draw(st.booleans()):
                    name = "{http://www.w3.org/1999/xlink}href"
                elif name == "xml:space":
                    name = "{http://www.w3.org/XML/1998/namespace}space"
                element.set(name, draw(attribute_values))
            elif how == "delete" and element is not root:
                element.getparent().remove(element)
            elif how == "copy" and element is not root:
                element.addnext(etree.fromstring(etree.tostring(element)))
            elif how == "wrap" and element is not root:
                wrapper = etree.Element(f"{{http://www.w3.org/2000/svg}}"
                                        f"{draw(st.sampled_from(ELEMENTS))}")
                element.addprevious(wrapper)
                wrapper.append(element)
            elif how == "add":
                child = etree.SubElement(element, "{http://www.w3.org/2000/svg}"
                                         f"{draw(st.sampled_from(ELEMENTS))}")
                child.text = draw(st.sampled_from(["Hood", "", "x" * 200, "Ωmega",
                                                   "text { font-family: canary }"]))
                child.set(draw(st.sampled_from(ATTRIBUTES[:4])), draw(attribute_values))
            elif how == "text":
                element.text = draw(st.text(max_size=20))
        except ValueError:  # lxml refuses a name or a control character: keep the rest
            pass
    return bytes(etree.tostring(root))


SVG_FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=not os.environ.get("QUARTERDECK_FUZZ_RANDOM"),
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate]
    + ([Phase.shrink] if os.environ.get("QUARTERDECK_FUZZ_SHRINK") else []),
)


@pytest.fixture(scope="module")
def fuzz_canary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _canary(tmp_path_factory.mktemp("fuzz"))


@SVG_FUZZ
@given(svg=mutated_svg())
def test_mutated_svg_images_load_or_are_refused(tmp_path_factory: pytest.TempPathFactory,
                                                fuzz_canary: Path, svg: bytes) -> None:
    """A mutated SVG loads and draws, or is refused with a reason; never a crash or a process.

    The real loader: ``check_image`` (what ``check`` runs), then ``load_image`` and
    ``draw_fitted`` into a PDF canvas (what a marker sheet or a footer logo does).
    """
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.data.images import check_image, draw_fitted, load_image

    data, path = _data(tmp_path_factory.mktemp("fuzz"), svg, fuzz_canary)
    cwd = Path.cwd()
    os.chdir(fuzz_canary)
    try:
        with watch(fuzz_canary) as seen:
            found, expected = check_image(path, data, "top.svg")
            if found is not None:
                canvas = Canvas(io.BytesIO())
                draw_fitted(canvas, load_image(found), 10, 10, 200, 50)
                canvas.save()
    finally:
        os.chdir(cwd)
    seen.assert_inert()
    assert (found is None) == bool(expected)
    assert found is not None or expected.startswith("expected "), expected
    event("drawn" if found is not None else expected.split(" (")[0][:60])


# --- spreadsheets (issue 35 item 4) ------------------------------------------------------
# The workbook ``export classes`` writes, with one to four changes to its cells, its XML
# parts or its zip bytes, imported by the real command: class files written, or a located
# refusal with nothing written, in seconds.

SHEET_FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=not os.environ.get("QUARTERDECK_FUZZ_RANDOM"),
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture],
    print_blob=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate]
    + ([Phase.shrink] if os.environ.get("QUARTERDECK_FUZZ_SHRINK") else []),
)
_EXPORTED: dict[str, dict[str, bytes]] = {}


def _exported_parts() -> dict[str, bytes]:
    """The parts of the workbook ``export classes`` writes for four bundled classes."""
    if not _EXPORTED:
        from generator.data.sheetexport import export_xlsx
        from generator.data.shipclass import ShipClass
        from generator.data.validation import validate
        from generator.data.yamlsource import load_yaml

        models = []
        for name in ("us/fletcher", "us/atlanta", "au/perth", "us/casablanca"):
            doc, problems = load_yaml(ROOT / "shipdata" / "classes" / f"{name}.yaml")
            model, invalid = validate(ShipClass, doc)
            assert model is not None and not problems and not invalid, name
            models.append(model)
        with zipfile.ZipFile(io.BytesIO(export_xlsx(models))) as archive:
            _EXPORTED["parts"] = {i.filename: archive.read(i) for i in archive.infolist()}
    return _EXPORTED["parts"]


VALUES = st.one_of(
    st.sampled_from(["nan", "inf", "-inf", "1e999", "1e306", "-1", "0", "", "9" * 400,
                     "99999-01-01", "1940-13-01", "=1+1", "true", "#REF!", "\x00", "\ud800",
                     "A1048576", "-0", "1e-400", " 12 "]),
    st.text(max_size=12),
    st.integers(-10**20, 10**20).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
CHANGES = ["cell-value"] * 6 + ["cell-type"] * 3 + ["header-unit"] * 2 + [
    "cell-ref", "cell-formula", "attribute", "part-bytes", "part-cut", "part-drop"]
"""Mostly cells (each mutant of a part's XML is refused as a whole, whatever else it holds)."""
UNITS = [(b"length_ft", b"km"), (b"length_ft", b"nmi"), (b"length_ft", b"mm"),
         (b"speed_kn", b"km/h"), (b"speed_kn", b"mph"), (b"displacement_t", b"kg"),
         (b"guns.0.bore_in", b"mm"), (b"armor.belt_in", b"yd"), (b"length_ft", b"kg")]
"""Header fields given a unit (the last of the wrong kind)."""
CELL = re.compile(rb"<c r=\"[A-Z]+[0-9]+\"[^>]*?(?:/>|>.*?</c>)", re.S)


def _changed_cell(draw: st.DrawFn, how: str, cell: bytes, escaped: bytes) -> bytes:
    """One cell's XML changed: its value and type, its type, its reference or a formula."""
    ref = re.search(rb'r="([A-Z]+[0-9]+)"', cell).group(1)  # type: ignore[union-attr]
    if how == "cell-value":
        kind = draw(st.sampled_from([b"n", b"s", b"b", b"d", b"e", b"str", b"x"]))
        return b'<c r="' + ref + b'" t="' + kind + b'"><v>' + escaped + b"</v></c>"
    if how == "cell-type":
        kind = draw(st.sampled_from([b"n", b"b", b"d", b"s", b"e"]))
        return re.sub(rb' t="[^"]*"', b"", cell).replace(b"<c ", b'<c t="' + kind + b'" ', 1)
    if how == "cell-ref":
        return cell.replace(b'r="' + ref + b'"', b'r="' + escaped.replace(b'"', b"&quot;")
                            + b'"', 1)
    return b'<c r="' + ref + b'"><f>' + escaped + b"</f></c>"


def _changed_part(draw: st.DrawFn, how: str, data: bytes, escaped: bytes) -> bytes | None:
    """A part's bytes changed (some bytes, cut short, an attribute's value), or None: dropped."""
    if how == "part-bytes" and data:
        at = draw(st.integers(0, len(data) - 1))
        return data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at + 1:]
    if how == "part-cut":
        return data[:draw(st.integers(0, len(data)))]
    if how == "attribute":
        return re.sub(rb'="[^"]*"', b'="' + escaped.replace(b'"', b"&quot;") + b'"', data,
                      count=1)
    return None if how == "part-drop" else data


@st.composite
def mutated_workbook(draw: st.DrawFn) -> bytes:
    """The exported workbook with one to four changes to its cells, its XML or its bytes."""
    parts = dict(_exported_parts())
    sheet = "xl/worksheets/sheet1.xml"
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(CHANGES))
        value = draw(VALUES).encode("utf-8", "surrogatepass")
        escaped = value.replace(b"&", b"&amp;").replace(b"<", b"&lt;")
        if how == "header-unit":  # the numbers below it now read in another unit
            field, unit = draw(st.sampled_from(UNITS))
            sheet_xml = parts.get(sheet, b"")
            parts[sheet] = sheet_xml.replace(b"<t>" + field + b"</t>",
                                             b"<t>" + field.rsplit(b"_", 1)[0] + b" (" + unit
                                             + b")</t>", 1)
            continue
        if how.startswith("cell-"):
            xml = parts.get(sheet, b"")
            cells = list(CELL.finditer(xml))
            if cells:  # else the sheet was dropped or broken already
                target = cells[draw(st.integers(0, len(cells) - 1))]
                parts[sheet] = (xml[:target.start()]
                                + _changed_cell(draw, how, target.group(), escaped)
                                + xml[target.end():])
            continue
        name = draw(st.sampled_from(sorted(parts)))
        changed = _changed_part(draw, how, parts[name], escaped)
        if changed is None:
            del parts[name]
        else:
            parts[name] = changed
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    blob = buffer.getvalue()
    if draw(st.sampled_from([False] * 7 + [True])):  # now and then a byte of the zip itself
        at = draw(st.integers(0, len(blob) - 1))
        blob = blob[:at] + bytes([draw(st.integers(0, 255))]) + blob[at + 1:]
    return blob


@SHEET_FUZZ
@given(blob=mutated_workbook())
def test_mutated_spreadsheets_import_or_are_refused(tmp_path_factory: pytest.TempPathFactory,
                                                    blob: bytes) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    sheet = folder / "fuzz.xlsx"
    sheet.write_bytes(blob)
    start = time.perf_counter()
    code, _, err = run_cli(["import", str(sheet), "--out", str(folder / "out")], *CANARIES)
    assert time.perf_counter() - start < 10
    event(f"exit {code}")
    if code == 2:
        assert not (folder / "out").exists(), err
        event(re.sub(r"'[^']*'|\d+", "_", err.splitlines()[0].split(": ", 1)[-1])[:70])
