"""Writing results whole or not at all, without ever touching a file that is not ours.

Two kinds of folder are written, and they are written differently:

- **Folders quarterdeck makes and owns**: a kit's folder (``OUT/<scenario>/`` and its
  ``tables/``, ``markers/``, ``aids/``), an event's folder (``OUT/<event>/``). Each holds
  a marker file, ``.quarterdeck-owned``, written when quarterdeck created it. A half-written
  kit (new sheets with an old manifest, one side's packet missing) is worse than the old
  kit, so such a folder is rebuilt in a staging folder beside it and swapped in whole: the
  old folder is renamed aside, the new one renamed into place, the old one removed.
  Whatever the old folder holds that the new files do not replace (the user's notes, the
  ``markers/`` another command wrote) is carried over by hard links first, and anything
  that appears in the old folder while the swap runs is moved across before it goes.
- **Folders the user names** (``--png DIR``, ``--tts DIR``) and any existing folder
  without the marker (a kit folder from an older quarterdeck, a folder the user made):
  never renamed, swapped, copied or cleaned. The new files are written into a marked
  temporary folder inside it, then renamed into place one by one (each rename atomic),
  and nothing else in the folder is touched. A failure before the end puts back every
  file it replaced (kept by hard link) and removes every file it added.

Every temporary is a folder named ``.quarterdeck-<kind>-<pid>-<token>`` holding the marker
file. A later run removes a temporary only when it carries the marker, is older than that
run, and its process is gone: never by name alone, so a user's ``.quarterdeck-notes`` is
safe. An old folder renamed aside by a run killed between its two renames is renamed back;
one whose replacement was swapped in (the new folder records its name in
``.quarterdeck-replaces``) is removed as that run would have; any other (something new
now stands in its place) is renamed to a visible ``<name>.recovered-<token>``: an old
folder is never removed unless its files were carried into the new one.
``ownedfolders.step`` is called at every step, so tests can kill a write at each.

What is owned (markers, temporaries, names) is ``generator.core.ownedfolders``; how a staged
folder is swapped or moved into place is ``generator.core.folderswap``; here are the writes
themselves (a file, a kit, a transaction) and the cleaning up of what killed runs left.
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from generator.core import ownedfolders
from generator.core.errors import OutputError
from generator.core.folderswap import (
    carry_over,
    merge_manifest,
    move_back,
    move_in,
    read_manifest,
    retire,
    swap_in,
)
from generator.core.ownedfolders import (
    MANIFEST,
    PREFIX,
    REPLACES,
    TEMPORARY,
    check_name,
    current_umask,
    is_mine,
    make_temporary,
    manifest_bytes,
    manifest_entry,
    owns,
    remove_owned,
    swap_record,
    write_error,
    write_new,
)

STARTED = time.time()
"""When this run began: temporaries older than this and not a live build's are stale."""

_ACTIVE: contextvars.ContextVar[Transaction | None] = contextvars.ContextVar(
    "quarterdeck_output_transaction", default=None)


# --- single files -----------------------------------------------------------------------

def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, touching nothing else in its folder.

    The file is written inside a marked temporary folder in the same folder and renamed
    into place, so a kill at any moment leaves either the old file or the new one, and
    at worst a marked temporary that a later run removes. Inside a folder that is already
    one of this run's temporaries a plain temporary file does.

    Args:
        path: Destination.
        data: Bytes to write.

    Raises:
        OutputError: When the folder cannot be created or written.
        UsageError: When the file name is too long for the file system.

    """
    check_name(path.parent, path.name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if is_mine(Path(os.path.abspath(path.parent))):
            fd, tmp = tempfile.mkstemp(prefix=f"{PREFIX}file-", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.chmod(tmp, 0o666 & ~current_umask())  # mkstemp makes 0600 files
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            return
        clean_stale(path.parent)
        folder = make_temporary(path.parent, "tmp")
        try:
            temp = folder / "file"
            with open(temp, "xb") as handle:
                handle.write(data)
            ownedfolders.step("wrote")
            os.replace(temp, path)
            ownedfolders.step(f"replaced {path.name}")
        finally:
            remove_owned(folder)
    except OSError as exc:
        raise write_error(path, exc) from exc


# --- kits -------------------------------------------------------------------------------

def write_kit(folder: Path, files: dict[str, bytes], pages: dict[str, int],
              extra: dict[str, object]) -> Path:
    """Write every file of a kit and its ``manifest.json``, whole or not at all.

    Inside ``transaction()`` the files are staged and put in place when it ends;
    otherwise before this returns. Files already in the folder that this kit does not
    replace stay, and keep their manifest entries.

    Args:
        folder: The kit's output folder.
        files: File name to content.
        pages: File name to page count.
        extra: Additional manifest fields (scenario, paper, version...).

    Returns:
        The manifest's path (in ``folder``).

    Raises:
        OutputError: When the kit cannot be written; the old folder is left as it was.
        UsageError: When a file name is too long for the file system.

    """
    for name in files:
        check_name(folder, name)
    with transaction() as txn:
        staging = txn.stage(folder, manifest=True)
        entries = []
        for name in sorted(files):
            write_new(staging / name, folder / name, files[name])
            entries.append(manifest_entry(name, pages.get(name, 0), files[name]))
        manifest = {**extra, "files": entries}
        write_new(staging / MANIFEST, folder / MANIFEST, manifest_bytes(manifest))
    return folder / MANIFEST



@contextlib.contextmanager
def transaction() -> Iterator[Transaction]:
    """Group the writes of one command: all of them are put in place at the end, or none.

    Nested uses join the outermost transaction. On an exception every staging folder is
    removed and every target is left as it was.
    """
    active = _ACTIVE.get()
    if active is not None:
        yield active
        return
    txn = Transaction()
    token = _ACTIVE.set(txn)
    try:
        yield txn
        txn.commit()
    except BaseException:
        txn.discard()
        raise
    finally:
        _ACTIVE.reset(token)


class Transaction:
    """Staging folders for one command's targets, put in place together by ``commit``."""

    def __init__(self) -> None:
        """Start with nothing staged."""
        self._staged: dict[Path, Path] = {}
        self._swapped: set[Path] = set()
        """Targets replaced whole (quarterdeck's own folders); the others file by file."""
        self._manifest: set[Path] = set()
        """Targets whose ``manifest.json`` keeps the old entries of files left in place."""
        self._made: list[Path] = []
        """Folders the user named that this transaction created (removed if it fails)."""

    def stage(self, folder: Path, *, named: bool = False, manifest: bool = False) -> Path:
        """The private folder to write ``folder``'s new files into (made on first call).

        Args:
            folder: The target.
            named: The user named this folder (``--png DIR``): never swap it, even if it
                does not exist yet; write file by file.
            manifest: Keep the old manifest's entries for files this write leaves.

        Raises:
            OutputError: When ``folder`` is a file or its parent cannot be written.

        """
        target = Path(os.path.abspath(folder))
        try:
            whole = not named and (not os.path.lexists(target) or owns(target))
            if whole and target.is_symlink():  # swap the real folder; the link finds it
                target = target.resolve()
            if target in self._staged:
                return self._staged[target]
            if target.exists() and not target.is_dir():
                raise OutputError(f"cannot write {folder}: it is a file, not a folder")
            if whole:
                target.parent.mkdir(parents=True, exist_ok=True)
                clean_stale(target.parent)
                if target.is_dir():
                    clean_stale(target)  # put back what a killed run left inside first
                staging = make_temporary(target.parent, "new")
                mode = target.stat().st_mode & 0o7777 if target.is_dir() else \
                    0o777 & ~current_umask()
                os.chmod(staging, mode)
                self._swapped.add(target)
            else:
                if not target.exists():
                    for missing in reversed([target, *target.parents]):
                        if not missing.exists():
                            missing.mkdir()
                            self._made.append(missing)
                clean_stale(target)
                staging = make_temporary(target, "tmp")
        except OSError as exc:
            raise write_error(folder, exc) from exc
        self._staged[target] = staging
        if manifest:
            self._manifest.add(target)
        return staging

    def discard(self) -> None:
        """Remove every staging folder not yet put in place, and folders made for them."""
        for staging in self._staged.values():
            with contextlib.suppress(OSError):
                remove_owned(staging)
        self._staged.clear()
        for made in reversed(self._made):
            with contextlib.suppress(OSError):
                made.rmdir()  # only if still empty
        self._made.clear()

    def commit(self) -> None:
        """Put every staged folder in place; on any failure undo every one done.

        Deeper targets go first, so a folder staged inside another target's old folder
        is in place before that folder is carried over.

        Raises:
            OutputError: When a step fails (every target is as it was).

        """
        swaps: list[tuple[Path, Path, Path | None]] = []
        moves: list[tuple[Path, Path, list[tuple[Path, Path | None]], list[Path]]] = []
        target = Path()
        try:
            for target in sorted(self._staged, key=lambda p: len(p.parts), reverse=True):
                staging = self._staged[target]
                if target in self._swapped:
                    carry_over(target, staging, target in self._manifest)
                    swaps.append((target, staging, swap_in(target, staging)))
                    ownedfolders.step("renamed in")
                else:
                    if target in self._manifest:
                        merge_manifest(staging, read_manifest(target), target)
                    journal: list[tuple[Path, Path | None]] = []
                    made: list[Path] = []
                    moves.append((target, staging, journal, made))
                    move_in(target, staging, journal, made)
        except BaseException as exc:
            for _, _, journal, made in reversed(moves):
                move_back(journal, made)
            for swapped, staging, aside in reversed(swaps):
                with contextlib.suppress(OSError):
                    os.rename(swapped, staging)
                    if aside is not None:
                        os.rename(aside, swapped)
            self.discard()
            if isinstance(exc, OSError):
                raise write_error(target, exc) from exc
            raise
        self._staged.clear()
        self._made.clear()
        for swapped, _, aside in swaps:
            # A folder swapped inside another swapped one has its old folder inside the
            # other's old folder: it goes with that one, and its own retire finds nothing.
            if aside is not None:
                with contextlib.suppress(OSError):
                    retire(swapped, aside)
            with contextlib.suppress(OSError):
                (swapped / REPLACES).unlink(missing_ok=True)
        for _, staging, _, _ in moves:
            with contextlib.suppress(OSError):
                remove_owned(staging)


# --- what killed runs left behind -------------------------------------------------------

_CLEANED: set[Path] = set()
"""Folders already cleaned in this run (an export writes a thousand files into one)."""


def clean_stale(parent: Path) -> None:
    """Remove what killed runs left in ``parent``: only marked temporaries, only stale ones.

    A temporary is stale when it was last changed before this run began and the process
    named in it is gone. Only folders holding the marker are removed (an empty one without
    it, from a kill just after it was made, is removed only because it is empty). An old
    folder renamed aside by a run killed between its two renames is renamed back; one
    whose replacement is in place (recorded in ``REPLACES``) is retired; when something
    else now has its name, it is renamed to ``<name>.recovered-<token>``.
    Each folder is looked at once per run.
    """
    parent = Path(os.path.abspath(parent))
    if parent in _CLEANED:
        return
    _CLEANED.add(parent)
    try:
        with os.scandir(parent) as scan:
            entries = [e for e in scan if e.name.startswith(PREFIX)]
    except OSError:
        return
    for entry in sorted(entries, key=lambda e: not e.name.startswith(f"{PREFIX}old-")):
        found = TEMPORARY.match(entry.name)
        if found is None:
            continue
        kind, pid, token, name = found.groups()
        try:
            if not entry.is_dir(follow_symlinks=False) or \
                    entry.stat(follow_symlinks=False).st_mtime >= STARTED:
                continue
        except OSError:
            continue
        if _alive(int(pid)):
            continue
        path = Path(entry.path)
        with contextlib.suppress(OSError):
            if not owns(path):
                path.rmdir()  # made and killed before its marker: removed only if empty
                continue
            if kind == "gone" and name and (parent / name).is_dir():
                retire(parent / name, path)
            elif kind != "old":
                remove_owned(path)
            elif name and not os.path.lexists(parent / name):
                os.rename(path, parent / name)
            elif name and swap_record(parent / name) == token:
                retire(parent / name, path)
            else:
                recovered = parent / f"{name or 'quarterdeck'}.recovered-{token}"
                os.rename(path, recovered)
                clean_stale(recovered)  # what the killed run left inside it


def _alive(pid: int) -> bool:
    """Whether a process with this id runs (this one counts: its temporaries are live)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    except OSError:
        return False
    return True
