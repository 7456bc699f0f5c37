"""The user cache trusts nothing it did not write (issue 35, item 6).

A cache folder someone else owns or others may write in is not used at all (one warning
per process); the key and entries are read only when they are regular files of this user's
(an entry under ``usercache.MAX_ENTRY`` bytes), opened without following links and
without ever waiting on a FIFO.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cache import usercache
from generator.cli.main import main
from tests.paths import ROOT

ROOT_ONLY = pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0,
                               reason="giving a file to another user takes root")
OTHER_UID = 54321


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache folder with one good entry ``probe``, and no warning given yet."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(usercache.ENV_OFF, raising=False)
    monkeypatch.setattr(usercache, "_warned", [])
    usercache.store("probe", "k", [1, 2])
    assert usercache.load("probe", "k") == [1, 2]
    where = usercache.folder()
    assert where is not None
    return where


class Blocked(Exception):  # noqa: N818 - what happened, not an error class
    """Raised by ``deadline``: not an OSError, so no ``except OSError`` in the code eats it."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail (instead of hanging the suite) if the block takes longer than ``seconds``."""
    def expired(signum: int, frame: object) -> None:
        raise Blocked(f"blocked for {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _warning(where: Path, why: str) -> str:
    return (f"warning: not using the cache folder {where}: {why}; set XDG_CACHE_HOME to a "
            f"folder of your own, or {usercache.ENV_OFF}=1 to go without\n")


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o1777, 0o702], ids=oct)
def test_a_folder_others_may_write_in_is_neither_read_nor_written(
        cache: Path, capsys: pytest.CaptureFixture[str], mode: int) -> None:
    cache.chmod(mode)
    before = sorted(p.name for p in cache.iterdir())
    assert usercache.load("probe", "k") is None  # a good entry, but in an unsafe place
    usercache.store("other", "k", [3])
    usercache.store("probe", "k", [4])
    assert usercache.load("other", "k") is None
    assert sorted(p.name for p in cache.iterdir()) == before  # nothing written either
    drawn = {0o777: "drwxrwxrwx", 0o770: "drwxrwx---", 0o1777: "drwxrwxrwt",
             0o702: "drwx----w-"}[mode]
    assert capsys.readouterr().err == _warning(  # once, however many uses
        cache, f"others may write in it (mode {drawn}); chmod go-w it, or remove it")
    cache.chmod(0o700)
    assert usercache.load("probe", "k") == [1, 2]  # safe again: used again


@ROOT_ONLY
def test_a_folder_someone_else_owns_is_not_used(
        cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.chown(cache, OTHER_UID, -1)
    assert usercache.load("probe", "k") is None
    usercache.store("probe", "k", [4])
    assert capsys.readouterr().err == _warning(
        cache, f"it belongs to user {OTHER_UID}, not to you (user 0)")
    os.chown(cache, 0, -1)
    assert usercache.load("probe", "k") == [1, 2]


def test_a_file_in_the_folders_place_is_not_used(
        cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    shutil.rmtree(cache)
    cache.write_bytes(b"")
    assert usercache.load("probe", "k") is None
    usercache.store("probe", "k", [4])
    assert cache.read_bytes() == b""
    assert capsys.readouterr().err == _warning(cache, "it is not a folder")


def test_the_warning_shows_a_control_character_in_the_path_inert(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    base = tmp_path / "x\x1b]0;owned\x07"
    monkeypatch.setenv("XDG_CACHE_HOME", str(base))
    monkeypatch.setattr(usercache, "_warned", [])
    (base / "quarterdeck").mkdir(parents=True, mode=0o700)
    (base / "quarterdeck").chmod(0o777)
    assert usercache.load("probe", "k") is None
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert f"{tmp_path}/x\\x1b]0;owned\\x07/quarterdeck: others may write" in err


def test_the_warning_reaches_the_user_once_through_the_command_line(
        cache: Path) -> None:
    cache.chmod(0o777)
    result = CliRunner().invoke(main, ["list", "scenarios"])
    assert result.exit_code == 0, result.output
    warned = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warned == [_warning(cache, "others may write in it (mode drwxrwxrwx); chmod "
                               "go-w it, or remove it").rstrip("\n")]
    assert "river-plate" in result.stdout


def test_an_entry_that_is_a_fifo_is_a_miss_without_waiting(cache: Path) -> None:
    os.unlink(cache / "probe")
    os.mkfifo(cache / "probe")
    with deadline(5):
        assert usercache.load("probe", "k") is None
        usercache.store("probe", "k", [5])  # replaced by a regular file, as any entry
    assert usercache.load("probe", "k") == [5]


def test_a_key_that_is_a_fifo_is_no_key_and_nothing_waits(cache: Path) -> None:
    os.unlink(cache / "key")
    os.mkfifo(cache / "key", 0o600)
    with deadline(5):
        assert usercache.load("probe", "k") is None
        usercache.store("other", "k", [6])
    assert not (cache / "other").exists()  # unsigned: never written


def test_an_entry_that_is_a_link_or_a_folder_is_a_miss(cache: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    os.replace(cache / "probe", elsewhere)  # a validly signed entry, linked to
    (cache / "probe").symlink_to(elsewhere)
    assert usercache.load("probe", "k") is None
    (cache / "probe").unlink()
    (cache / "probe").mkdir()
    assert usercache.load("probe", "k") is None


@ROOT_ONLY
def test_an_entry_someone_else_owns_is_a_miss(cache: Path) -> None:
    os.chown(cache / "probe", OTHER_UID, -1)
    assert usercache.load("probe", "k") is None


def test_an_entry_over_the_bound_is_neither_read_nor_written(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    size = (cache / "probe").stat().st_size
    monkeypatch.setattr(usercache, "MAX_ENTRY", size)
    assert usercache.load("probe", "k") == [1, 2]  # at the bound: read
    monkeypatch.setattr(usercache, "MAX_ENTRY", size - 1)
    assert usercache.load("probe", "k") is None  # one byte over: a miss
    usercache.store("big", "k", [1, 2])  # the same size: it would never be read back
    assert not (cache / "big").exists()


def test_the_bound_is_far_above_the_entries_a_build_writes() -> None:
    # The session's cache (tests/conftest.py) holds what the suite's builds stored so
    # far; the bound was chosen from a cache after building every bundled scenario, whose
    # largest entry (the font subsets) kitdoc keeps near 3 MB.
    from generator.pages.subsets import Subsets

    assert usercache.MAX_ENTRY >= 20 * Subsets.LIMIT
    where = usercache.folder()
    if where is not None and where.is_dir():
        sizes = [p.stat().st_size for p in where.iterdir() if p.is_file()]
        assert max(sizes, default=0) * 10 < usercache.MAX_ENTRY


def test_the_readme_states_the_bound() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert usercache.MAX_ENTRY == 64 * 2**20 and "up to 64 MiB" in readme
