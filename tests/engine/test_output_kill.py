"""A kill at any instant loses nothing that existed before (issue 35, item 1).

Each test first runs a write once to learn its steps (``generator.core.ownedfolders.step`` is
called at every one), then, for every step, forks a child that does the same write and kills
itself with SIGKILL at that step, as a power cut, Ctrl-C or the OOM killer would. The
parent then acts as the next quarterdeck run (its stale-temporary cleanup) and checks that
every file that existed before still exists, with its old content or, for a file the
write was asked to replace, the new one; that the folder the user named was never
renamed (same inode); and that no temporary is left.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.core import output, ownedfolders
from generator.core.output import transaction, write_atomic, write_kit
from generator.core.ownedfolders import MARKER, PREFIX
from tests.paths import TESTS

EXTRA = {"generator": "test", "kit": "savo", "paper": "a4"}

OLD_KIT = {"allied.pdf": b"old allied", "referee.pdf": b"old referee"}
NEW_KIT = {"allied.pdf": b"new allied", "japanese.pdf": b"new japanese"}
OLD_MARKERS = {"markers-allied.pdf": b"old markers"}
NEW_MARKERS = {"markers-allied.pdf": b"new markers", "markers-japanese.pdf": b"new m"}
NEW_PNGS = {"ship-a.png": b"new a", "ship-b.png": b"new b", "ship-b.back.png": b"new bb"}


def _files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by relative path (quarterdeck's markers left out)."""
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            if name != MARKER:
                found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def _temporaries(root: Path) -> list[str]:
    """quarterdeck's temporaries and records under ``root`` (a user's look-alikes aside)."""
    return [str(p) for p in root.rglob(f"{PREFIX}*")
            if ownedfolders.TEMPORARY.match(p.name) or p.name == ownedfolders.REPLACES]


def _steps(write: Callable[[], None]) -> list[str]:
    """The steps ``write`` passes, in order, recorded in a child (the tree is not changed)."""
    read, send = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        seen: list[str] = []
        ownedfolders.step = seen.append  # type: ignore[assignment]
        try:
            write()
        finally:
            os.write(send, json.dumps(seen).encode())
            os._exit(0)
    os.close(send)
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    return list(json.loads(b"".join(chunks)))


def _killed_at(write: Callable[[], None], step: int) -> bool:
    """Run ``write`` in a child killed by SIGKILL at its ``step``-th step; was it killed?"""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        count = [0]

        def kill(event: str) -> None:
            count[0] += 1
            if count[0] == step:
                os.kill(os.getpid(), signal.SIGKILL)

        ownedfolders.step = kill  # type: ignore[assignment]
        try:
            write()
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def _next_run(monkeypatch: pytest.MonkeyPatch, *folders: Path) -> None:
    """What the next quarterdeck run does first: clean the stale temporaries."""
    monkeypatch.setattr(output, "STARTED", output.time.time() + 10)
    monkeypatch.setattr(output, "_CLEANED", set())
    for folder in folders:
        output.clean_stale(folder)


def _kit_tree(out: Path) -> None:
    write_kit(out / "savo", OLD_KIT, {}, EXTRA)
    write_kit(out / "savo" / "markers", OLD_MARKERS, {}, EXTRA)
    (out / "savo" / "my-notes.txt").write_text("the user's notes on the kit")
    (out / "notes.txt").write_text("the user's own")
    (out / f"{PREFIX}notes").write_text("a user's file that looks like ours")


def _rebuild(out: Path) -> None:
    with transaction():
        write_kit(out / "savo", NEW_KIT, {}, EXTRA)
        write_kit(out / "savo" / "markers", NEW_MARKERS, {}, EXTRA)


def _allowed(before: dict[str, bytes], new: dict[str, bytes]) -> Callable[[str, bytes], bool]:
    def ok(name: str, data: bytes) -> bool:
        return data == before[name] or data == new.get(name) or name.endswith(
            "manifest.json")
    return ok


def _check_nothing_lost(root: Path, before: dict[str, bytes],
                        ok: Callable[[str, bytes], bool], where: str) -> None:
    after = _files(root)
    lost = sorted(set(before) - set(after))
    assert not lost, f"{where}: lost {lost}"
    changed = sorted(n for n in before if not ok(n, after[n]))
    assert not changed, f"{where}: changed {changed}"
    assert _temporaries(root) == [], where


def test_a_kill_at_any_step_of_a_kit_rebuild_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both folders swapped, killed at each step; the next run restores what it must."""
    probe = _scratch(tmp_path, "probe")
    steps = _steps(lambda: _rebuild(probe))
    assert "renamed aside" in steps and "renamed in" in steps and "retired" in steps
    for number, event in enumerate(steps, start=1):
        out = _scratch(tmp_path, f"k{number}")
        before = _files(out)
        assert _killed_at(lambda out=out: _rebuild(out), number), event
        _next_run(monkeypatch, out, out / "savo", out / "savo" / "markers")
        where = f"killed at step {number} ({event})"
        _check_nothing_lost(out, before, _allowed(before, {
            **{f"savo/{k}": v for k, v in NEW_KIT.items()},
            **{f"savo/markers/{k}": v for k, v in NEW_MARKERS.items()}}), where)
        # And the next build succeeds and leaves a consistent kit.
        _rebuild(out)
        _manifest_matches(out / "savo")
        assert (out / "savo" / "my-notes.txt").read_text() == "the user's notes on the kit"


def _scratch(tmp_path: Path, name: str) -> Path:
    out = tmp_path / name / "out"
    out.mkdir(parents=True)
    _kit_tree(out)
    return out


def _manifest_matches(folder: Path) -> None:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        data = (folder / entry["file"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()


def test_a_kill_between_the_renames_with_the_name_taken_keeps_the_old_kit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reported loss: killed between the renames, the folder made again by anyone."""
    out = _scratch(tmp_path, "taken")
    before = _files(out)
    probe = _scratch(tmp_path, "probe")
    steps = _steps(lambda: _rebuild(probe))
    last_aside = len(steps) - steps[::-1].index("renamed aside")  # the kit's, not markers'
    assert _killed_at(lambda: _rebuild(out), last_aside)
    assert not (out / "savo").exists()
    (out / "savo").mkdir()
    (out / "savo" / "new.txt").write_text("someone else's")
    _next_run(monkeypatch, out)
    recovered = [p for p in out.iterdir() if p.name.startswith("savo.recovered-")]
    assert len(recovered) == 1
    old = {k[len("savo/"):]: v for k, v in before.items() if k.startswith("savo/")}
    # The markers/ folder inside was already rebuilt (the deeper folder goes first).
    _check_nothing_lost(recovered[0], old, _allowed(old, {
        f"markers/{k}": v for k, v in NEW_MARKERS.items()}), "recovered")
    assert (recovered[0] / "allied.pdf").read_bytes() == OLD_KIT["allied.pdf"]
    assert (out / "savo" / "new.txt").read_text() == "someone else's"
    assert (out / "notes.txt").read_text() == "the user's own"


def _export_tree(tmp_path: Path, name: str) -> tuple[Path, Path]:
    out = _scratch(tmp_path, name)
    png = out.parent / "pictures"
    (png / "holiday").mkdir(parents=True)
    (png / "holiday" / "beach.jpg").write_bytes(b"the user's photo")
    (png / "ship-a.png").write_bytes(b"an old export")
    (png / f"{PREFIX}notes").write_text("the user's")
    (png / "thesis.tex").write_text("the user's thesis")
    return out, png


def _export(out: Path, png: Path) -> None:
    """A marker build with a PNG export, as ``markers --png`` writes them."""
    with transaction() as txn:
        write_kit(out / "savo" / "markers", NEW_MARKERS, {}, EXTRA)
        staging = txn.stage(png, named=True)
        for name, data in NEW_PNGS.items():
            write_atomic(staging / name, data)


def test_a_kill_at_any_step_of_an_export_loses_nothing_and_never_moves_the_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    probe_out, probe_png = _export_tree(tmp_path, "probe")
    steps = _steps(lambda: _export(probe_out, probe_png))
    assert any(s.startswith("placed") for s in steps)
    for number, event in enumerate(steps, start=1):
        out, png = _export_tree(tmp_path, f"k{number}")
        before, inode = _files(png), png.stat().st_ino
        assert _killed_at(lambda out=out, png=png: _export(out, png), number), event
        assert png.stat().st_ino == inode  # never renamed, not even for an instant
        _next_run(monkeypatch, out, out / "savo", out / "savo" / "markers", png)
        _check_nothing_lost(png, before, _allowed(before, NEW_PNGS),
                            f"killed at step {number} ({event})")
    # Uninterrupted, the export adds its files and touches nothing else.
    out, png = _export_tree(tmp_path, "whole")
    before, inode = _files(png), png.stat().st_ino
    _export(out, png)
    assert png.stat().st_ino == inode
    assert _files(png) == {**before, **NEW_PNGS}


def test_an_export_into_a_folder_never_copies_or_cleans_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files another program writes meanwhile stay; a working folder inside it stays."""
    out, png = _export_tree(tmp_path, "live")
    inode = (png / "holiday").stat().st_ino

    def meanwhile(event: str) -> None:
        if event.startswith("placed") and not (png / "written-meanwhile.txt").exists():
            (png / "written-meanwhile.txt").write_text("another program's")

    monkeypatch.setattr(ownedfolders, "step", meanwhile)
    _export(out, png)
    assert (png / "written-meanwhile.txt").read_text() == "another program's"
    assert (png / "holiday").stat().st_ino == inode  # a shell's working folder stays valid
    assert (png / f"{PREFIX}notes").read_text() == "the user's"


def test_a_file_written_into_an_old_kit_during_its_rebuild_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = _scratch(tmp_path, "race")

    def meanwhile(event: str) -> None:
        if event.startswith("carried"):  # after the carry-over, before the swap
            target = out / "savo" / "written-meanwhile.txt"
            if not target.exists():
                target.write_text("another program's")

    monkeypatch.setattr(ownedfolders, "step", meanwhile)
    _rebuild(out)
    assert (out / "savo" / "written-meanwhile.txt").read_text() == "another program's"


def test_a_folder_quarterdeck_did_not_make_is_written_file_by_file(tmp_path: Path) -> None:
    """An existing folder without the marker (a user's, an older kit) is never swapped."""
    kit = tmp_path / "savo"
    kit.mkdir()
    (kit / "allied.pdf").write_bytes(b"old")
    (kit / "mine.txt").write_text("mine")
    inode = kit.stat().st_ino
    write_kit(kit, NEW_KIT, {}, EXTRA)
    assert kit.stat().st_ino == inode
    assert not (kit / MARKER).exists()
    assert _files(kit) == {**NEW_KIT, "mine.txt": b"mine",
                           "manifest.json": (kit / "manifest.json").read_bytes()}
    listed = [e["file"] for e in json.loads((kit / "manifest.json").read_text())["files"]]
    assert listed == ["allied.pdf", "japanese.pdf"]
    # A folder quarterdeck makes is its own: marked, and swapped whole next time.
    write_kit(tmp_path / "fresh", NEW_KIT, {}, EXTRA)
    assert output.owns(tmp_path / "fresh")
    inode = (tmp_path / "fresh").stat().st_ino
    write_kit(tmp_path / "fresh", NEW_KIT, {}, EXTRA)
    assert (tmp_path / "fresh").stat().st_ino != inode


def test_write_atomic_leaves_a_users_look_alike_files_alone(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """The reported case: a user's ``.quarterdeck-notes`` was deleted as a stale temporary."""
    notes = tmp_path / f"{PREFIX}notes"
    notes.write_text("the user's")
    old = tmp_path / f"{PREFIX}file-1-abc"  # an old version's name, or the user's
    old.write_text("the user's too")
    past = output.STARTED - 60
    for path in (notes, old):
        os.utime(path, (past, past))
    _next_run(monkeypatch)
    write_atomic(tmp_path / "catalog.pdf", b"pdf")
    assert notes.read_text() == "the user's" and old.read_text() == "the user's too"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [notes.name, old.name, "catalog.pdf"])


def test_a_kill_while_writing_one_file_leaves_the_old_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "catalog.pdf"
    steps = _steps(lambda: write_atomic(tmp_path / "probe.pdf", b"x"))
    for number in range(1, len(steps) + 1):
        target.write_bytes(b"old catalog")
        assert _killed_at(lambda: write_atomic(target, b"new catalog"), number)
        _next_run(monkeypatch, tmp_path)
        assert target.read_bytes() in (b"old catalog", b"new catalog")
        assert _temporaries(tmp_path) == []


MARKER_DATA = TESTS / "data" / "markers"


def test_a_kill_at_each_kind_of_step_of_a_real_png_export_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``markers --png DIR`` itself, killed at the first and last step of every kind."""
    from click.testing import CliRunner

    from generator.cli.main import main

    monkeypatch.setenv("QUARTERDECK_JOBS", "1")  # one process: the seam sees every step

    template = tmp_path / "template"
    (template / "pictures" / "holiday").mkdir(parents=True)
    (template / "pictures" / "holiday" / "beach.jpg").write_bytes(b"the user's photo")
    (template / "pictures" / "ship.carrier.png").write_bytes(b"an old export of that piece")
    (template / "pictures" / f"{PREFIX}notes").write_text("the user's")
    first = CliRunner().invoke(main, ["markers", "carrier-test", "--data",
                                      str(MARKER_DATA), "--out", str(template / "out")])
    assert first.exit_code == 0, first.output

    def tree(name: str) -> tuple[Path, Path]:
        shutil.copytree(template, tmp_path / name, symlinks=True)
        return tmp_path / name / "out", tmp_path / name / "pictures"

    def export(out: Path, png: Path) -> None:
        CliRunner().invoke(main, ["markers", "carrier-test", "--data", str(MARKER_DATA),
                                  "--out", str(out), "--png", str(png), "--dpi", "72"])

    probe = tree("probe")
    steps = _steps(lambda: export(*probe))
    kinds: dict[str, list[int]] = {}
    for number, event in enumerate(steps, start=1):
        kinds.setdefault(event.split(" ")[0], []).append(number)
    assert {"made", "wrote", "placed", "renamed", "retired"} <= set(kinds)
    # The first step of each kind, and the last file placed into the user's folder.
    chosen = sorted({numbers[0] for numbers in kinds.values()} | {kinds["placed"][-1]})
    for number in chosen:
        out, png = tree(f"k{number}")
        before = {**{f"out/{k}": v for k, v in _files(out).items()},
                  **{f"pictures/{k}": v for k, v in _files(png).items()}}
        inode = png.stat().st_ino
        assert _killed_at(lambda out=out, png=png: export(out, png), number)
        assert png.stat().st_ino == inode
        kit = out / "carrier-test"
        _next_run(monkeypatch, out, kit, kit / "markers", png)
        after = {**{f"out/{k}": v for k, v in _files(out).items()},
                 **{f"pictures/{k}": v for k, v in _files(png).items()}}
        where = f"killed at step {number} ({steps[number - 1]})"
        assert set(before) <= set(after), (where, sorted(set(before) - set(after)))
        for name in ("pictures/holiday/beach.jpg", f"pictures/{PREFIX}notes"):
            assert after[name] == before[name], where
        assert _temporaries(tmp_path / f"k{number}") == [], where
