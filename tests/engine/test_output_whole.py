"""A kit is written whole or not at all (issue 20 item 5; issue 18 item 12)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.core import folderswap, output, ownedfolders, parallel
from generator.core.errors import OutputError, UsageError
from generator.core.output import transaction, write_kit
from generator.core.ownedfolders import MARKER, MARKER_TEXT, PREFIX
from tests.paths import TESTS

EXTRA = {"generator": "test", "kit": "k", "paper": "a4"}


def _on_disk(folder: Path) -> dict[str, bytes]:
    """Every file in the folder but quarterdeck's marker (no temporaries among them)."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and p.name != MARKER}


def _manifest_matches(folder: Path) -> dict[str, object]:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        data = (folder / entry["file"]).read_bytes()
        assert entry["bytes"] == len(data)
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    listed = {e["file"] for e in manifest["files"]}
    assert listed == {n for n in _on_disk(folder) if n != "manifest.json"}
    return manifest


def _no_temporaries(parent: Path) -> None:
    left = [str(p) for p in parent.rglob(f"{PREFIX}*") if p.name != MARKER]
    assert left == []


@pytest.fixture
def old_kit(tmp_path: Path) -> Path:
    folder = tmp_path / "out" / "savo"
    write_kit(folder, {"allied.pdf": b"old allied", "referee.pdf": b"old referee"},
              {"allied.pdf": 3, "referee.pdf": 2}, EXTRA)
    return folder


def test_a_kit_replaces_its_files_and_lists_them(old_kit: Path) -> None:
    write_kit(old_kit, {"allied.pdf": b"new allied", "referee.pdf": b"new referee"},
              {"allied.pdf": 4, "referee.pdf": 1}, EXTRA)
    assert _on_disk(old_kit) == {"allied.pdf": b"new allied", "referee.pdf": b"new referee",
                                 "manifest.json": (old_kit / "manifest.json").read_bytes()}
    manifest = _manifest_matches(old_kit)
    assert [(e["file"], e["pages"]) for e in manifest["files"]] == [("allied.pdf", 4),
                                                                     ("referee.pdf", 1)]
    _no_temporaries(old_kit.parent)


def test_a_failing_write_leaves_the_old_kit(old_kit: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    before = _on_disk(old_kit)
    real = output.write_new

    def full_disk(path: Path, shown: Path, data: bytes) -> None:
        if path.name == "referee.pdf":
            raise OutputError(f"cannot write {shown}: No space left on device")
        real(path, shown, data)

    monkeypatch.setattr(output, "write_new", full_disk)
    with pytest.raises(OutputError, match="referee.pdf: No space left on device"):
        write_kit(old_kit, {"allied.pdf": b"new", "referee.pdf": b"new"}, {}, EXTRA)
    assert _on_disk(old_kit) == before
    _manifest_matches(old_kit)
    _no_temporaries(old_kit.parent)


def test_a_real_os_error_becomes_an_output_error(old_kit: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(folderswap, "_link_or_copy", full)  # fails while carrying a file over
    before = _on_disk(old_kit)
    with pytest.raises(OutputError) as caught:
        write_kit(old_kit, {"axis.pdf": b"new"}, {}, EXTRA)
    assert str(caught.value) == f"cannot write {old_kit}: No space left on device"
    assert _on_disk(old_kit) == before
    _no_temporaries(old_kit.parent)


def test_a_folder_in_the_way_is_refused(old_kit: Path) -> None:
    (old_kit / "referee.pdf").unlink()
    (old_kit / "referee.pdf").mkdir()
    (old_kit / "referee.pdf" / "mine.txt").write_text("user file")
    with pytest.raises(OutputError) as caught:
        write_kit(old_kit, {"allied.pdf": b"new", "referee.pdf": b"new"}, {}, EXTRA)
    assert str(caught.value) == (f"cannot write {old_kit / 'referee.pdf'}: a folder of that "
                                 "name is in the way; move it and build again")
    assert (old_kit / "allied.pdf").read_bytes() == b"old allied"
    assert (old_kit / "referee.pdf" / "mine.txt").read_text() == "user file"
    _no_temporaries(old_kit.parent)


def test_a_kill_between_the_renames_restores_the_old_kit(
        old_kit: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = _on_disk(old_kit)

    def killed(event: str) -> None:
        if event == "renamed aside":
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(ownedfolders, "step", killed)
    with pytest.raises(OutputError, match="Input/output error"):
        write_kit(old_kit, {"allied.pdf": b"new"}, {}, EXTRA)
    assert _on_disk(old_kit) == before
    _manifest_matches(old_kit)
    _no_temporaries(old_kit.parent)


def test_a_failure_in_a_second_folder_rolls_back_the_first(
        old_kit: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The marker sheets and their PNG export are swapped in together, or neither."""
    before = _on_disk(old_kit)
    pngs = tmp_path / "png"
    pngs.mkdir()
    (pngs / "old.png").write_bytes(b"old png")
    seen: list[str] = []

    def second_fails(event: str) -> None:
        seen.append(event)
        if event == "placed new.png":  # the PNG folder's second file (added.png is in)
            raise OSError(28, "No space left on device")

    (pngs / "new.png").write_bytes(b"the user's")
    monkeypatch.setattr(ownedfolders, "step", second_fails)
    with pytest.raises(OutputError) as caught, transaction() as txn:
        write_kit(old_kit, {"allied.pdf": b"new"}, {}, EXTRA)
        (txn.stage(pngs, named=True) / "new.png").write_bytes(b"new png")
        (txn.stage(pngs, named=True) / "added.png").write_bytes(b"new png")
    assert str(caught.value) == f"cannot write {pngs}: No space left on device"
    # the kit was renamed in before the PNG folder failed, and is put back
    assert seen.index("renamed in") < seen.index("placed added.png") < len(seen) - 1
    assert _on_disk(old_kit) == before
    assert _on_disk(pngs) == {"old.png": b"old png", "new.png": b"the user's"}
    _no_temporaries(tmp_path)


def test_an_export_failure_leaves_the_old_kit(old_kit: Path, tmp_path: Path) -> None:
    before = _on_disk(old_kit)
    with pytest.raises(OutputError, match="PNG export failed"), transaction() as txn:
        write_kit(old_kit, {"allied.pdf": b"new"}, {}, EXTRA)
        txn.stage(tmp_path / "png" / "sub", named=True)
        raise OutputError("PNG export failed")
    assert _on_disk(old_kit) == before
    assert not (tmp_path / "png").exists()
    _no_temporaries(tmp_path)


def test_a_name_too_long_for_a_file_is_a_usage_error(old_kit: Path) -> None:
    before = _on_disk(old_kit)
    name = "x" * 300 + ".pdf"
    with pytest.raises(UsageError) as caught:
        write_kit(old_kit, {name: b"new", "allied.pdf": b"new"}, {}, EXTRA)
    assert str(caught.value) == (f"cannot write {old_kit / ('x' * 40)}...: the file name is "
                                 "304 bytes long, expected at most 255; shorten the id it is "
                                 "made from")
    assert _on_disk(old_kit) == before


def test_commands_sharing_a_folder_merge_their_manifests(tmp_path: Path) -> None:
    """``rulers``, ``gauges`` and ``strings`` into one folder leave all three listed."""
    aids = tmp_path / "aids"
    (tmp_path / "aids").mkdir()
    (aids / "notes.txt").write_text("mine")  # the user's own file stays, unlisted
    write_kit(aids, {"rulers.pdf": b"r"}, {"rulers.pdf": 1}, EXTRA)
    write_kit(aids, {"gauges.pdf": b"g"}, {"gauges.pdf": 2}, EXTRA)
    write_kit(aids, {"strings-a.pdf": b"s", "tapes-a.pdf": b"t"}, {}, EXTRA)
    manifest = _manifest_files(aids)
    assert manifest == ["gauges.pdf", "rulers.pdf", "strings-a.pdf", "tapes-a.pdf"]
    assert (aids / "notes.txt").read_text() == "mine"
    # A listed file the user deleted drops out of the manifest at the next write.
    (aids / "gauges.pdf").unlink()
    write_kit(aids, {"rulers.pdf": b"r2"}, {"rulers.pdf": 1}, EXTRA)
    assert _manifest_files(aids) == ["rulers.pdf", "strings-a.pdf", "tapes-a.pdf"]
    listed = json.loads((aids / "manifest.json").read_text())["files"]
    assert [e["pages"] for e in listed] == [1, 0, 0]
    assert {e["file"]: e["sha256"] for e in listed}["rulers.pdf"] == hashlib.sha256(
        b"r2").hexdigest()


def _manifest_files(folder: Path) -> list[str]:
    return [e["file"] for e in json.loads((folder / "manifest.json").read_text())["files"]]


def test_subfolders_of_a_kit_survive_its_rebuild(old_kit: Path) -> None:
    """A scenario's folder holds tables/ and markers/ from other commands."""
    write_kit(old_kit / "markers", {"markers-a.pdf": b"m"}, {}, EXTRA)
    write_kit(old_kit, {"allied.pdf": b"new"}, {}, EXTRA)
    assert (old_kit / "markers" / "markers-a.pdf").read_bytes() == b"m"
    assert _manifest_files(old_kit) == ["allied.pdf", "referee.pdf"]
    _no_temporaries(old_kit.parent)


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _marked(folder: Path) -> Path:
    folder.mkdir()
    (folder / MARKER).write_bytes(MARKER_TEXT)
    return folder


def test_stale_temporaries_are_cleaned_and_user_files_kept(tmp_path: Path) -> None:
    """Only marked temporaries of dead runs go; nothing is removed by its name alone."""
    out = tmp_path / "out"
    out.mkdir()
    dead = _dead_pid()
    stale_new = _marked(out / f"{PREFIX}new-{dead}-abc123")
    (stale_new / "allied.pdf").write_bytes(b"half")
    stale_tmp = _marked(out / f"{PREFIX}tmp-{dead}-t0k3n")
    (stale_tmp / "file").write_bytes(b"half")
    gone = _marked(out / f"{PREFIX}gone-{dead}-g0n3")  # killed while removing an old kit
    aside = _marked(out / f"{PREFIX}old-{dead}-q1w2-lost")  # killed between the renames
    (aside / "allied.pdf").write_bytes(b"previous")
    taken = _marked(out / f"{PREFIX}old-{dead}-e3r4-taken")  # ... and its name reused since
    (taken / "allied.pdf").write_bytes(b"previous kit")
    (out / "taken").mkdir()
    (out / "taken" / "mine.txt").write_text("made since")
    empty = out / f"{PREFIX}new-{dead}-empty"  # killed before its marker was written
    empty.mkdir()
    live = _marked(out / f"{PREFIX}new-{os.getpid()}-mine")  # this run's own: not stale
    unmarked = out / f"{PREFIX}new-{dead}-users"  # looks like ours, holds no marker
    unmarked.mkdir()
    (unmarked / "thesis.tex").write_text("user")
    fake = out / f"{PREFIX}tmp-{dead}-fake"  # a marker with other content is the user's
    fake.mkdir()
    (fake / MARKER).write_text("my own notes")
    users = [out / ".quarterdeck", out / ".hidden.tmp", out / f"{PREFIX}notes",
             out / f"{PREFIX}file-{dead}-xyz"]
    for path in users:
        path.write_text("user")
    past = output.STARTED - 60  # before this run began, however long the run has been
    for path in (stale_new, stale_tmp, gone, aside, taken, empty, live, unmarked, fake,
                 *users):
        os.utime(path, (past, past))
    write_kit(out / "savo", {"allied.pdf": b"new"}, {}, EXTRA)
    assert not stale_new.exists() and not stale_tmp.exists() and not gone.exists()
    assert not empty.exists()
    assert (out / "lost" / "allied.pdf").read_bytes() == b"previous"
    assert (out / "taken.recovered-e3r4" / "allied.pdf").read_bytes() == b"previous kit"
    assert (out / "taken" / "mine.txt").read_text() == "made since"
    assert live.exists()
    assert (unmarked / "thesis.tex").read_text() == "user"
    assert (fake / MARKER).read_text() == "my own notes"
    assert all(path.read_text() == "user" for path in users)


def test_a_new_temporary_of_another_live_build_is_kept(tmp_path: Path) -> None:
    fresh = _marked(tmp_path / f"{PREFIX}new-{_dead_pid()}-abc")
    # made after this run started: another build's, still running
    write_kit(tmp_path / "kit", {"a.pdf": b"a"}, {}, EXTRA)
    assert fresh.exists()


def test_forked_children_die_with_their_parent(tmp_path: Path) -> None:
    """A killed build leaves no workers behind (PR_SET_PDEATHSIG)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("Linux only")
    pids = tmp_path / "pids"
    script = f"""
import os, time
from generator.core import parallel
def child():
    with open({str(pids)!r}, "a") as f:
        f.write(str(os.getpid()) + "\\n")
    time.sleep(30)
    return 0
parallel.can_fork = lambda: True
parallel.fork_map([lambda: time.sleep(30), child])
"""
    build = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.time() + 10
    while not (pids.exists() and pids.read_text().strip()) and time.time() < deadline:
        time.sleep(0.05)
    child = int(pids.read_text())
    build.kill()
    build.wait()
    deadline = time.time() + 5
    while _running(child) and time.time() < deadline:
        time.sleep(0.05)
    assert not _running(child)


def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return status != "Z"


def test_a_child_whose_parent_is_gone_leaves_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[int, ...]] = []

    class Libc:
        def prctl(self, *args: int) -> int:
            asked.append(args)
            return 0

    monkeypatch.setattr(parallel.sys, "platform", "linux")
    monkeypatch.setattr(parallel.ctypes, "CDLL", lambda *a, **k: Libc())
    monkeypatch.setattr(os, "getppid", lambda: 1)
    exits: list[int] = []

    def leave(code: int) -> None:
        exits.append(code)

    monkeypatch.setattr(os, "_exit", leave)
    parallel._die_with(os.getpid() + 1)
    assert asked == [(1, 9, 0, 0, 0)]  # PR_SET_PDEATHSIG, SIGKILL
    assert exits == [1]


MARKER_DATA = TESTS / "data" / "markers"


def test_a_png_export_failure_leaves_the_previous_markers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from generator.cli.main import main
    from generator.core.errors import RenderError
    from generator.pieces import export

    args = ["markers", "carrier-test", "--data", str(MARKER_DATA), "--out", str(tmp_path),
            "--png", str(tmp_path / "png"), "--dpi", "72"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    folder = tmp_path / "carrier-test" / "markers"
    sheets, images = _on_disk(folder), _on_disk(tmp_path / "png")
    assert len(images) == 59  # 58 faces and the kit's inventory, pieces.json

    def fails(pieces: object, where: Path, dpi: int) -> list[object]:
        (where / "half.png").write_bytes(b"half")
        raise RenderError("cannot draw the front of ship-x: broken")

    monkeypatch.setattr(export, "export_pngs", fails)
    second = CliRunner().invoke(main, [*args, "--duplex", "off"])
    assert second.exit_code == 1
    assert "error: cannot draw the front of ship-x: broken" in second.output
    assert _on_disk(folder) == sheets  # back-offset-check.pdf is still there, unchanged
    assert _on_disk(tmp_path / "png") == images
    _manifest_matches(folder)
    _no_temporaries(tmp_path)


def test_rulers_gauges_and_strings_share_one_manifest(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from generator.cli.main import main

    for command in ("rulers", "gauges", "strings"):
        result = CliRunner().invoke(main, [command, "savo-island", "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
    aids = tmp_path / "savo-island" / "aids"
    assert _manifest_files(aids) == ["gauges.pdf", "rulers.pdf", "strings-allied.pdf",
                                     "strings-japanese.pdf", "tapes-allied.pdf",
                                     "tapes-japanese.pdf"]
    _manifest_matches(aids)
    _no_temporaries(tmp_path)
