"""Light commands load only what they need; the user cache is keyed, signed and optional."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cache import usercache
from generator.data.library import load_library
from tests.paths import ROOT

CLASS = ROOT / "shipdata" / "classes" / "us" / "fletcher.yaml"


def _python(code: str, cache: Path, **env: str) -> str:
    """Run ``code`` in a fresh interpreter with its own cache folder; its stdout."""
    run_env = {**os.environ, "XDG_CACHE_HOME": str(cache), **env}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=run_env, cwd=ROOT, timeout=300, check=True)
    return done.stdout


# Which modules ``--help`` and ``check`` import once cached, and ``check`` without the
# cache (it works and writes nothing): tests/cli/test_light_commands.py.


def test_one_ruleset_is_imported_alone(tmp_path: Path) -> None:
    code = ("import sys\nfrom generator.rulesets import REGISTRY\n"
            "r = REGISTRY['naval-action']\n"
            "print(sorted({m.split('.')[2] for m in sys.modules"
            " if m.startswith('generator.rulesets.') and m.count('.') >= 2}))")
    assert _python(code, tmp_path).strip() == "['lazy', 'naval_action']"


def _user_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    shutil.copy(CLASS, folder / "fletcher.yaml")
    return folder


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    folder = _user_folder(tmp_path)
    first = load_library([folder])
    assert not first.problems
    again = load_library([folder])  # from the cache: the same answer
    assert again.notices == first.notices and not again.problems
    path = folder / "fletcher.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("id: fletcher", "id: fletchr"),
                    encoding="utf-8")
    changed = load_library([folder])
    assert [p.message for p in changed.problems] == [
        "found 'fletchr', expected 'fletcher' (the file name without .yaml)"]


def test_a_cache_file_not_signed_with_the_users_key_is_ignored(tmp_path: Path) -> None:
    folder = _user_folder(tmp_path)
    load_library([folder])
    where = usercache.folder()
    assert where is not None and (where / "library").is_file()
    blob = (where / "library").read_bytes()
    # A payload altered after signing (or signed with someone else's key) is not loaded.
    (where / "library").write_bytes(blob[:-1] + bytes([blob[-1] ^ 1]))
    assert usercache.load("library", "anything") is None
    assert not load_library([folder]).problems  # rebuilt from the files
    (where / "library").write_bytes(b"not a cache at all")
    assert not load_library([folder]).problems


def test_a_key_others_can_read_is_not_trusted(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    usercache.store("probe", "k", [1, 2])
    assert usercache.load("probe", "k") == [1, 2]
    assert usercache.load("probe", "other key") is None
    key = tmp_path / "cache" / "quarterdeck" / "key"
    assert key.stat().st_mode & 0o777 == 0o600
    key.chmod(0o644)
    assert usercache.load("probe", "k") is None
    monkeypatch.setenv("QUARTERDECK_NO_CACHE", "1")
    assert usercache.folder() is None


def test_user_layers_on_the_cached_bundled_layer_equal_a_fresh_load(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _user_folder(tmp_path)  # replaces the bundled fletcher
    missing = tmp_path / "nowhere"
    load_library([])  # the bundled layer, cached
    cached = load_library([missing, folder])
    monkeypatch.setenv("QUARTERDECK_NO_CACHE", "1")
    fresh = load_library([missing, folder])
    assert [str(p) for p in cached.problems] == [str(p) for p in fresh.problems]
    assert "found no such file or folder" in str(cached.problems[0])
    assert cached.notices == fresh.notices and any("fletcher" in n for n in cached.notices)
    for ruleset in fresh.classes:
        assert sorted(cached.classes_of(ruleset)) == sorted(fresh.classes_of(ruleset))
        assert {k: e.bundled for k, e in cached.classes_of(ruleset).items()} == \
            {k: e.bundled for k, e in fresh.classes_of(ruleset).items()}
    assert sorted(cached.scenarios) == sorted(fresh.scenarios)


def test_a_library_with_user_files_leaves_the_bundled_one_cached(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (XDG_CACHE_HOME is the session's own folder, tests/conftest.py.)
    import generator.data.library as library

    monkeypatch.chdir(tmp_path)
    folder = _user_folder(tmp_path)
    library.checked_library([])
    library.checked_library([folder])  # a build with --data
    read: list[tuple[Path, ...]] = []
    load = library._load_library

    def counting(user_paths: list[Path] | tuple[Path, ...], bundled: bool) -> library.Library:
        read.append(tuple(user_paths))
        return load(user_paths, bundled)

    monkeypatch.setattr(library, "_load_library", counting)
    library.checked_library([])  # a plain command again: nothing read or validated
    library.checked_library([folder])
    monkeypatch.chdir(ROOT)  # ... from another folder too: bundled names do not depend on it
    library.checked_library([])
    assert read == []
