"""One cache module with one key function; rulesets never touch it (issue 28, item 5).

``generator.cache.key`` is the only way to make a key and always names quarterdeck's
version and code; ``remember`` (with ``recall``/``keep``) is the only way to use one, and
checks the shape of what it reads back. ``load_model`` decides by itself which loads are
cached: a bundled file whose checks carry nothing but constants. The source is held to
it: no module outside ``generator/cache/`` calls the storage underneath, makes a ``Key``
by hand or passes a cache flag.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

import generator
from generator.cache import Key, keep, key, recall, remember, slot, text_map, usercache
from generator.core.errors import Problem
from generator.data import validation
from generator.data.validation import load_model
from generator.data.yamlsource import SourceDoc
from tests.paths import ROOT

PACKAGE = ROOT / "generator"

NOT_YET_MOVED: set[str] = set()
"""Callers of ``usercache`` outside ``generator.cache``: none is left (the font subsets
were the last), and the check below keeps it so."""


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty user cache for each test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(usercache.ENV_OFF, raising=False)
    return tmp_path / "xdg" / "quarterdeck"


def test_a_key_names_the_version_and_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    before = key("recipes", b"kit: {}")
    assert key("recipes", b"kit: {}") == before  # the same parts: the same key
    monkeypatch.setattr(generator, "__version__", "0.0.0-other")
    assert key("recipes", b"kit: {}") != before
    monkeypatch.undo()
    monkeypatch.setattr(usercache, "package_stamp", lambda: "edited code")
    assert key("recipes", b"kit: {}") != before


def test_parts_never_run_together() -> None:
    assert key("ab", "c") != key("a", "bc")
    assert key(b"x") != key("x") != key(repr(b"x"))
    assert key(("a", "b")) != key("a", "b")
    assert key(None) != key("None") != key()
    assert len({key(1), key(1.0), key("1"), key(True)}) == 4


def test_a_slot_is_a_safe_file_name() -> None:
    assert slot("summary") == "summary"
    assert slot("odds-index", "naval-action") == "odds-index-naval-action"
    for odd in ("../etc", "Naval Action", "a/b", "x" * 90, ""):
        name = slot("odds-index", odd)
        assert name.startswith("odds-index-") and len(name) == len("odds-index-") + 16
        assert odd not in name or odd == ""
    assert slot("summary", "/home/me", ["a"]) != slot("summary", "/home/me", ["b"])
    with pytest.raises(ValueError, match="slot prefix"):
        slot("../up")
    with pytest.raises(ValueError, match="not a cache slot"):
        keep("../up", key("x"), 1)


def test_remember_makes_on_a_miss_and_reads_back_on_a_hit(cache: Path) -> None:
    made: list[int] = []

    def make() -> dict[str, str]:
        made.append(1)
        return {"odds": "answer"}

    found = key("probe")
    assert remember("probe", found, make, text_map) == {"odds": "answer"}
    assert remember("probe", found, make, text_map) == {"odds": "answer"}
    assert made == [1]  # the second was read back
    assert remember("probe", key("another"), make, text_map) == {"odds": "answer"}
    assert made == [1, 1]  # another key is a miss


def test_a_value_of_the_wrong_shape_is_a_miss(cache: Path) -> None:
    found = key("probe")
    keep("probe", found, {"odds": 3})  # an older layout, say
    assert recall("probe", found, text_map) is None
    assert recall("probe", found, dict) == {"odds": 3}
    assert recall("probe", found, list) is None
    assert remember("probe", found, lambda: {"odds": "new"}, text_map) == {"odds": "new"}
    assert recall("probe", found, text_map) == {"odds": "new"}  # and replaced


def test_nothing_is_kept_without_a_key_or_when_told_not_to(cache: Path) -> None:
    made: list[int] = []

    def make() -> list[str]:
        made.append(1)
        return ["naval-action"]

    assert remember("probe", None, make, list) == ["naval-action"]
    assert remember("probe", None, make, list) == ["naval-action"]
    assert made == [1, 1] and not cache.exists()  # not even a key file written
    found = key("probe")
    remember("probe", found, make, list, kept=lambda names: len(names) > 1)
    assert recall("probe", found, list) is None
    remember("probe", found, make, list, kept=lambda names: len(names) == 1)
    assert recall("probe", found, list) == ["naval-action"]


class Pair(BaseModel):
    """A tiny table for ``load_model``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    a: int
    b: str


CHECKED: list[str] = []
"""What each check ran on: a cached load runs none."""


def check_pair(pair: Pair, doc: SourceDoc) -> list[Problem]:
    """A check of the code alone: it carries nothing from where it was made."""
    CHECKED.append(pair.b)
    return []


def checking(label: str) -> Callable[[Pair, SourceDoc], list[Problem]]:
    """A check that carries one constant, as ``faces_precheck("faces")`` does."""
    def check(pair: Pair, doc: SourceDoc) -> list[Problem]:
        CHECKED.append(label)
        return []

    return check


@pytest.fixture
def bundled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A table in a folder ``load_model`` takes for the package's own."""
    path = tmp_path / "package" / "pair.yaml"
    path.parent.mkdir()
    path.write_text("a: 1\nb: one\n")
    monkeypatch.setattr(validation, "PACKAGE", path.parent.resolve())
    CHECKED.clear()
    return path


def test_a_bundled_table_is_cached_without_being_asked(bundled: Path) -> None:
    for _ in range(2):
        assert load_model(Pair, bundled, check=check_pair) == Pair(a=1, b="one")
    assert CHECKED == ["one"]


def test_a_users_file_is_never_cached(bundled: Path, tmp_path: Path) -> None:
    own = tmp_path / "mine.yaml"
    own.write_text("a: 1\nb: one\n")
    for _ in range(2):
        assert load_model(Pair, own, check=check_pair) == Pair(a=1, b="one")
    assert CHECKED == ["one", "one"]


def test_a_check_with_constants_is_keyed_by_them(bundled: Path) -> None:
    for label in ("faces", "faces", "marker_faces"):
        load_model(Pair, bundled, check=checking(label))
    assert CHECKED == ["faces", "marker_faces"]  # the same constant hit; another did not


def test_a_check_holding_run_time_state_is_run_every_time(bundled: Path) -> None:
    seen: list[str] = []

    def check(pair: Pair, doc: SourceDoc) -> list[Problem]:  # holds `seen`: a list
        seen.append(pair.b)
        return []

    for _ in range(2):
        load_model(Pair, bundled, check=check)
    assert seen == ["one", "one"]


def _calls(tree: ast.AST) -> list[tuple[str, str]]:
    """(object, attribute) of every ``object.attribute(...)`` call."""
    return [(node.func.value.id, node.func.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)]


def test_keys_are_made_and_the_storage_called_only_in_the_cache_package() -> None:
    storage: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name.startswith("generator/cache/"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(obj == "usercache" for obj, _ in _calls(tree)):
            storage.add(name)
        made = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Name) and n.func.id == Key.__name__]
        assert not made, f"{name} makes a Key by hand: use generator.cache.key"
        if name.startswith("generator/rulesets/"):
            flags = [k.arg for n in ast.walk(tree) if isinstance(n, ast.Call)
                     for k in n.keywords if k.arg == "cache"]
            assert not flags, f"{name} passes a cache flag: load_model decides"
    assert storage == NOT_YET_MOVED, "only generator.cache calls usercache"


def test_the_source_check_finds_a_hand_made_key() -> None:
    tree = ast.parse("from generator.cache import usercache\n"
                     "usercache.load('x', repr((1, 2)))\n")
    assert ("usercache", "load") in _calls(tree)
