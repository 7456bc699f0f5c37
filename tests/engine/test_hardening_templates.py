"""User templates bounded in time and memory (issue 35, item 2; the template parts of 8).

The hostile corpus (``tests/hostile_corpus/templates/``) holds one user-template folder
per attack, named for it, each with the template it replaces and ``expected.txt``: the
located problem the build must report, relative to the folder. Each case runs through
the real command line in this process (``tests/hostile.run_cli``: exit 0 or a located
exit 2, no traceback, no process started, no canary opened) on the cheapest build that
renders a user template: a one-ship Surface Action proof kit, whose reference card is
``surface_action/reference.md.j2``. Two cases cannot live in git as files: ``fifo`` (a
named pipe, made by the test where its ``MAKE-FIFO`` says) and, on checkouts without
symbolic links, ``symlink-loop``.

tests/engine/test_fuzz.py mutates the bundled templates and renders them with the values a real
build gives them (``captured`` and ``FRAGMENTS`` here): every run ends in text the layout
accepts or a located DataError, quickly.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from generator.core.errors import DataError
from generator.pages import templating
from generator.pages.markup import safe_markup
from tests.hostile import run_cli
from tests.paths import TESTS

CORPUS = TESTS / "hostile_corpus" / "templates"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
REFERENCE = "surface_action/reference.md.j2"
BUILD = ["build", "--class", "kent", "--ruleset", "surface-action", "-q"]
SECONDS = 3.0
"""Longest a hostile case may take, build included (each takes well under a second on a
loaded two-CPU machine; a build of its own takes about 0.3 s)."""
HANG_SECONDS = 60
"""A case still running after this is stopped and fails (instead of hanging the suite)."""
LOCATED = re.compile(r"^\S+?(:\d+:\d+)?: found .+, expected .+")
EXAMPLES = int(os.environ.get("QUARTERDECK_FUZZ_EXAMPLES", "24"))


class Hang(Exception):
    """A case ran longer than HANG_SECONDS."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang(f"still running after {HANG_SECONDS} s")


@contextlib.contextmanager
def deadline() -> Iterator[None]:
    """Fail a run that hangs, instead of hanging the suite."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def case_folder(name: str, scratch: Path) -> Path:
    """The case's template folder (a copy holding a FIFO for the FIFO case)."""
    folder = CORPUS / name
    fifo = folder / "MAKE-FIFO"
    if not fifo.exists():
        return folder
    copy = scratch / name
    shutil.copytree(folder, copy, symlinks=True)
    pipe = copy / fifo.read_text(encoding="utf-8").strip()
    pipe.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(pipe)
    return copy


def expected(name: str, folder: Path) -> list[str]:
    """The problems a case must report, located in ``folder``."""
    text = (CORPUS / name / "expected.txt").read_text(encoding="utf-8")
    return [f"{folder}/{line}" for line in text.splitlines()]


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    """One ordinary build first, so no case pays for the imports (and the timing holds)."""
    with tempfile.TemporaryDirectory() as out:
        code, _, stderr = run_cli([*BUILD, "--out", out])
    assert code == 0, stderr


def test_corpus_is_big_enough() -> None:
    assert len(CASES) >= 30
    for name in CASES:
        assert (CORPUS / name / "expected.txt").is_file(), name


@pytest.mark.parametrize("name", CASES)
def test_hostile_template(name: str, tmp_path: Path) -> None:
    folder = case_folder(name, tmp_path)
    canary = tmp_path / "canary"
    canary.mkdir()
    (canary / "secret.j2").write_text("secret", encoding="utf-8")
    started = time.monotonic()
    with deadline():
        code, _, stderr = run_cli([*BUILD, "--templates", str(folder),
                                   "--out", str(tmp_path / "out")], canary)
    took = time.monotonic() - started
    assert (code, stderr.splitlines()) == (2, [*expected(name, folder),
                                               "error: 1 problem in the data"])
    assert took < SECONDS, f"{name} took {took:.1f} s"
    assert not (tmp_path / "out").exists()


# --- pieces the corpus cannot reach --------------------------------------------------


def test_fifo_appearing_after_the_check(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The loader refuses a FIFO too, should one appear after the folder was checked."""
    folder = tmp_path / "mine"
    (folder / "surface_action").mkdir(parents=True)
    (folder / REFERENCE).write_text("{% include 'surface_action/_pipe.md.j2' %}",
                                    encoding="utf-8")
    monkeypatch.setattr(templating, "check_user_dir", lambda folder: None)
    os.mkfifo(folder / "surface_action" / "_pipe.md.j2")
    with deadline(), pytest.raises(DataError) as err, templating.user_templates(folder):
        templating.render_text(REFERENCE)
    assert [str(p) for p in err.value.problems] == [
        f"{folder}/surface_action/_pipe.md.j2: found a FIFO (named pipe), expected a regular "
        "file"]


def _run_event(tmp_path: Path) -> tuple[int, str, str]:
    """``event`` on a one-table event file naming the template folder ``brand``."""
    event = tmp_path / "event.yaml"
    event.write_text("kind: event\nname: X\ndate: 2026-11-28\ntemplates: brand\n"
                     "paper: [a4]\nscenarios:\n  - id: river-plate\n    tables: 1\n",
                     encoding="utf-8")
    return run_cli(["event", str(event), "--out", str(tmp_path / "out")])


def test_symlink_loop_in_an_event_template_folder(tmp_path: Path) -> None:
    """A link loop inside the folder an event file names: located, exit 2."""
    brand = tmp_path / "brand" / "surface_action"
    brand.mkdir(parents=True)
    (brand / "reference.md.j2").symlink_to("reference.md.j2")
    with deadline():
        code, _, stderr = _run_event(tmp_path)
    assert (code, stderr.splitlines()) == (2, [
        f"{brand}/reference.md.j2: found a symbolic link loop, expected a template file",
        "error: 1 problem in the data"])


def test_templates_folder_that_is_a_symlink_loop(tmp_path: Path) -> None:
    """``--templates DIR`` where DIR is a link to itself: located, exit 2."""
    (tmp_path / "mine").symlink_to("mine")
    with deadline():
        code, _, stderr = run_cli([*BUILD, "--templates", str(tmp_path / "mine"),
                                   "--out", str(tmp_path / "out")])
    assert (code, stderr.splitlines()) == (2, [
        f"{tmp_path}/mine: found a symbolic link loop, expected a folder of templates",
        "error: 1 problem in the data"])


@pytest.mark.parametrize("name", ["macro-recursion-2-to-the-40", "string-doubling-tilde",
                                  "character-reference-9999999"])
def test_hostile_template_through_an_event_file(tmp_path: Path, name: str) -> None:
    """The same attacks through an event file's ``templates:`` folder: located, exit 2."""
    shutil.copytree(CORPUS / name, tmp_path / "brand", symlinks=True)
    (tmp_path / "brand" / "expected.txt").unlink()
    with deadline():
        code, _, stderr = _run_event(tmp_path)
    assert (code, stderr.splitlines()) == (2, [*expected(name, tmp_path / "brand"),
                                               "error: 1 problem in the data"])


def test_layout_limits_apply_to_block_templates(tmp_path: Path) -> None:
    """``render_blocks`` text (the chart notes) is bounded for the layout as well."""
    from generator.rulesets.surface_action.charts import load_charts
    from generator.rulesets.surface_action.components.reference_card import chart_notes

    folder = tmp_path / "mine"
    (folder / "surface_action").mkdir(parents=True)
    blocks = "".join(f"{{% block {b} %}}x{{% endblock %}}"
                     for b in ("floor", "blank", "fires", "thresholds", "checks_title",
                               "night", "turning"))
    (folder / "surface_action" / "chart-notes.md.j2").write_text(
        "{% block long_range %}{{ 'y' * 501 }}{% endblock %}" + blocks, encoding="utf-8")
    with pytest.raises(DataError) as err, templating.user_templates(folder):
        chart_notes(load_charts())
    assert [str(p) for p in err.value.problems] == [
        f"{folder}/surface_action/chart-notes.md.j2: found a word of 501 characters "
        "('yyyyyyyyyyyyyyyyyyyy...'), expected at most 500"]


@pytest.mark.parametrize(("markup", "safe"), [
    ("&#9999999;", "&amp;#9999999;"),
    ("&#x110000;", "&amp;#x110000;"),
    ("&#xD800;", "&amp;#xD800;"),
    ("&#x10FFFF; &#65;", "&#x10FFFF; &#65;"),
])
def test_safe_markup_prints_a_reference_to_no_character_as_text(markup: str,
                                                                 safe: str) -> None:
    assert safe_markup(markup) == safe


@pytest.mark.parametrize(("source", "text"), [
    # what the limits must not refuse: ordinary use of the same features
    ("{% set ns = namespace(n=0) %}{% for i in range(1000) %}{% set ns.n = ns.n + i %}"
     "{% endfor %}{{ ns.n }}", "499500"),
    ("{{ (['a', 'b'] * 3) | join(', ') }}", "a, b, a, b, a, b"),
    ("{{ ([[1], [2, 3]]) | sum(start=[]) }}", "[1, 2, 3]"),
    ("{{ 'Q %s %d' | format('x', 2) }} {{ '%(a)s-%(a)s' % {'a': 1} }}", "Q x 2 1-1"),
    ("{{ '{0}/{1:>4}'.format('a', 7) }}", "a/   7"),
    ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ n }}{% endif %}{% endmacro %}{{ f(40) }}",
     "".join(str(n) for n in range(1, 41))),
    ("{{ ('word ' * 6) | wordwrap(12) }}", "word word\nword word\nword word"),
    ("{{ [1, 2][1:] }} {{ 'abc'[::-1] }} {{ 'b' in 'abc' }}", "[2] cba True"),
])
def test_ordinary_templates_still_render(tmp_path: Path, source: str, text: str) -> None:
    folder = tmp_path / "mine"
    (folder / "surface_action").mkdir(parents=True)
    (folder / REFERENCE).write_text(source, encoding="utf-8")
    with templating.user_templates(folder):
        rendered = templating.render_text(REFERENCE)
    assert rendered == text


# --- fuzzing the bundled templates -----------------------------------------------------

FRAGMENTS = [
    "{{ 'x' * 999999 }}", "{% endfor %}", "{{ lipsum(99) }}", "{{ lipsum(10, max=1000) }}",
    "&#9999999;", "&#x110000;", "{{ ", " }}", "- ", "\n", "\n\n", "# ",
    "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", "{{ ''.__class__ }}",
    "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}"
    "{% endfor %}", "{% include 'surface_action/reference.md.j2' %}", "| wordwrap(1)",
    "{{ self }}", "{% if %}", "{{ 10 ** 99 }}", "{% raw %}", "x" * 600, "<b>", "</i>",
    "{{ range(10**6) | list }}", "{{ (range(999) | list) * 999 }}", "| join('y' * 9999)",
    "{% for c in 'x' * 9999 %}{% for d in 'y' * 999 %}", "{% endfor %}{% endfor %}",
    "{{ loop.cycle(1, 2) }}", "{{ caller() }}", "{% extends 'naval_action/briefing.md.j2' %}",
]


def _capture() -> dict[str, tuple[bool, Any, dict[str, Any]]]:
    """What a real build renders: each template's name, escape flag and values.

    Builds a one-ship Surface Action kit and Second Sirte (NAVAL ACTION) once, recording
    every ``render_text``/``render_blocks`` call: the bundled templates a user may
    replace, with the values a build gives them.
    """
    seen: dict[str, tuple[bool, Any, dict[str, Any]]] = {}
    real_text, real_blocks = templating.render_text, templating.render_blocks

    def text(name: str, escape: bool = True, **context: Any) -> str:
        seen.setdefault(name, (escape, None, context))
        return real_text(name, escape, **context)

    def blocks(name: str, required: Any, escape: bool = True, **context: Any) -> Any:
        seen.setdefault(name, (escape, tuple(required), context))
        return real_blocks(name, required, escape, **context)

    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as out:
        for module in ("generator.rulesets.surface_action.components.reference_card",
                       "generator.rulesets.naval_action.components.briefing"):
            patch.setattr(f"{module}.render_text", text, raising=False)
            patch.setattr(f"{module}.render_blocks", blocks, raising=False)
        for args in ([*BUILD, "--out", out], ["build", "second-sirte", "-q", "--out", out]):
            code, _, stderr = run_cli(args)
            assert code == 0, stderr
    return seen


_CAPTURED: dict[str, tuple[bool, Any, dict[str, Any]]] = {}


def captured() -> dict[str, tuple[bool, Any, dict[str, Any]]]:
    if not _CAPTURED:
        _CAPTURED.update(_capture())
    return _CAPTURED


def _bundled(name: str) -> str:
    return (templating.templates_dir() / name).read_text(encoding="utf-8")
