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
The module's ``_step`` seam is called at every step, so tests can kill a write at each.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.core.errors import OutputError, UsageError

PREFIX = ".quarterdeck-"
"""Every temporary quarterdeck makes starts with this (and carries ``MARKER`` inside)."""

MARKER = ".quarterdeck-owned"
"""The file inside every folder quarterdeck made: a kit's, an event's, a temporary."""

REPLACES = ".quarterdeck-replaces"
"""In a folder swapped in: the name of the old folder it replaced, until that is removed.
A later run that finds the old folder (a run killed just after the swap) knows by it that
the old folder was superseded (its files carried over), not lost."""

MARKER_TEXT = (b"quarterdeck made this folder and may replace it whole when it rebuilds; "
               b"keep your own files elsewhere.\n")
"""The marker's exact content (a file of that name holding anything else is the user's)."""

NAME_MAX = 255
"""Bytes in one file name on the common file systems (ext4, APFS, NTFS in UTF-16 units)."""

MANIFEST = "manifest.json"

STARTED = time.time()
"""When this run began: temporaries older than this and not a live build's are stale."""

_TEMPORARY = re.compile(r"^\.quarterdeck-(new|tmp|old|gone)-(\d+)-([^-]+)(?:-(.*))?$", re.S)
"""A temporary's name: kind, process id, token and, for ``old``, the folder it was."""

_ACTIVE: contextvars.ContextVar[Transaction | None] = contextvars.ContextVar(
    "quarterdeck_output_transaction", default=None)

_MINE: set[Path] = set()
"""This process's live temporaries (forked workers inherit it): writing into them needs
no temporary of its own, since nothing reads them until they are moved into place."""


def _step(event: str) -> None:
    """A seam for tests: called at every step of a write, where a kill could strike."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_error(path: Path, exc: OSError) -> OutputError | UsageError:
    """The user's message for a failed write of ``path`` (a full disk, no permission...).

    Every command that writes maps its ``OSError`` through this, so a full disk reads the
    same everywhere (an ``OutputError``, exit 1); a name too long is the data's fault
    (a ``UsageError``, exit 2).
    """
    if exc.errno == errno.ENAMETOOLONG:
        return UsageError(f"cannot write {path}: the name is too long for a file; "
                          "shorten the id it is made from")
    return OutputError(f"cannot write {path}: {exc.strerror or exc}")


def check_name(folder: Path, name: str) -> None:
    """Refuse a file name no file system takes, or one of quarterdeck's own, before writing.

    Raises:
        UsageError: The name comes from data (a side or ship id), so exit 2.

    """
    size = len(name.encode("utf-8", "surrogateescape"))
    if size > NAME_MAX:
        raise UsageError(f"cannot write {folder / name[:40]}...: the file name is {size} bytes "
                         f"long, expected at most {NAME_MAX}; shorten the id it is made from")
    if name.startswith(PREFIX):
        raise UsageError(f"cannot write {folder / name}: names starting with '{PREFIX}' are "
                         "quarterdeck's own; rename the id it is made from")


# --- marked folders ---------------------------------------------------------------------

def owns(folder: Path) -> bool:
    """Whether ``folder`` is a folder quarterdeck made: it holds the exact marker file.

    The marker is opened without following links and without blocking (a FIFO of that
    name is the user's, not ours), and only its first bytes are read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(os.path.join(folder, MARKER), flags)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        return os.read(fd, len(MARKER_TEXT) + 1) == MARKER_TEXT
    except OSError:
        return False
    finally:
        os.close(fd)


def _mark(folder: Path) -> None:
    """Write the marker into a folder this process has just made."""
    fd = os.open(folder / MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~_umask())
    with os.fdopen(fd, "wb") as handle:
        handle.write(MARKER_TEXT)


def _temporary(parent: Path, kind: str) -> Path:
    """Make a marked temporary folder in ``parent`` (the marker before anything else)."""
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-{os.getpid()}-", dir=parent))
    try:
        _mark(folder)
    except BaseException:
        os.rmdir(folder)
        raise
    _MINE.add(folder)
    _step(f"made {kind}")
    return folder


def _remove(folder: Path) -> None:
    """Remove a marked folder of ours, the marker last (a half-removed one stays marked)."""
    _MINE.discard(folder)
    with os.scandir(folder) as entries:
        found = [(e.name, e.is_dir(follow_symlinks=False)) for e in entries]
    for name, is_dir in found:
        if name == MARKER:
            continue
        path = folder / name
        if is_dir:
            shutil.rmtree(path)
        else:
            path.unlink()
    (folder / MARKER).unlink(missing_ok=True)
    folder.rmdir()


def _is_mine(folder: Path) -> bool:
    """Whether ``folder`` lies inside one of this process's live temporaries."""
    return any(parent in _MINE for parent in (folder, *folder.parents))


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
        if _is_mine(Path(os.path.abspath(path.parent))):
            fd, tmp = tempfile.mkstemp(prefix=f"{PREFIX}file-", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600 files
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            return
        clean_stale(path.parent)
        folder = _temporary(path.parent, "tmp")
        try:
            temp = folder / "file"
            with open(temp, "xb") as handle:
                handle.write(data)
            _step("wrote")
            os.replace(temp, path)
            _step(f"replaced {path.name}")
        finally:
            _remove(folder)
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
            _write_new(staging / name, folder / name, files[name])
            entries.append(_entry(name, pages.get(name, 0), files[name]))
        manifest = {**extra, "files": entries}
        _write_new(staging / MANIFEST, folder / MANIFEST, _manifest_bytes(manifest))
    return folder / MANIFEST


def _write_new(path: Path, shown: Path, data: bytes) -> None:
    """Write a file into a private staging folder (no rename needed: nobody reads it yet)."""
    try:
        with open(path, "xb") as handle:
            handle.write(data)
    except OSError as exc:
        raise write_error(shown, exc) from exc
    _step(f"wrote {path.name}")


def _entry(name: str, pages: int, data: bytes) -> dict[str, object]:
    return {"file": name, "pages": pages, "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}


def _manifest_bytes(manifest: dict[str, Any]) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()


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
                staging = _temporary(target.parent, "new")
                mode = target.stat().st_mode & 0o7777 if target.is_dir() else \
                    0o777 & ~_umask()
                os.chmod(staging, mode)
                self._swapped.add(target)
            else:
                if not target.exists():
                    for missing in reversed([target, *target.parents]):
                        if not missing.exists():
                            missing.mkdir()
                            self._made.append(missing)
                clean_stale(target)
                staging = _temporary(target, "tmp")
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
                _remove(staging)
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
                    _carry_over(target, staging, target in self._manifest)
                    swaps.append((target, staging, _swap(target, staging)))
                    _step("renamed in")
                else:
                    if target in self._manifest:
                        _merge_manifest(staging, _read_manifest(target), target)
                    journal: list[tuple[Path, Path | None]] = []
                    made: list[Path] = []
                    moves.append((target, staging, journal, made))
                    _move_in(target, staging, journal, made)
        except BaseException as exc:
            for _, _, journal, made in reversed(moves):
                _move_back(journal, made)
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
                    _retire(swapped, aside)
            with contextlib.suppress(OSError):
                (swapped / REPLACES).unlink(missing_ok=True)
        for _, staging, _, _ in moves:
            with contextlib.suppress(OSError):
                _remove(staging)


# --- swapping a folder of ours ----------------------------------------------------------

def _carry_over(target: Path, staging: Path, manifest: bool) -> None:
    """Link what the old folder holds and the new one does not into the new one.

    Raises:
        OutputError: When a new file would replace a folder (or a folder a file).

    """
    if not target.is_dir():
        return
    for entry in os.scandir(target):
        if _ours(entry.name):
            continue  # the old marker, its record, another command's live temporaries
        new = staging / entry.name
        if os.path.lexists(new):
            if entry.is_dir(follow_symlinks=False) != new.is_dir():
                what = "folder" if entry.is_dir(follow_symlinks=False) else "file"
                raise OutputError(f"cannot write {target / entry.name}: a {what} of that "
                                  "name is in the way; move it and build again")
            continue
        _link_tree(Path(entry.path), new)
        _step(f"carried {entry.name}")
    if manifest:
        _merge_manifest(staging, _read_manifest(target), staging)


def _link_tree(source: Path, dest: Path) -> None:
    """Hard-link (or copy) a file or folder tree; links stay links."""
    if source.is_symlink():
        os.symlink(os.readlink(source), dest)
    elif source.is_dir():
        shutil.copytree(source, dest, symlinks=True, copy_function=_link_or_copy,
                        ignore=_ignore_temporaries)
    else:
        _link_or_copy(str(source), str(dest))


def _ignore_temporaries(folder: str, names: list[str]) -> set[str]:
    """Leave out another command's live temporaries; a sub-folder's marker is carried."""
    return {n for n in names if n != MARKER and _ours(n)}


def _ours(name: str) -> bool:
    """Whether an entry of a folder of ours is quarterdeck's bookkeeping, not content.

    The user's own ``.quarterdeck-notes`` is content: it is carried over like any file.
    """
    return name in (MARKER, REPLACES) or _TEMPORARY.match(name) is not None


def _link_or_copy(source: str, dest: str) -> None:
    try:
        os.link(source, dest)
    except OSError:
        shutil.copy2(source, dest)


def _read_manifest(folder: Path) -> dict[str, Any]:
    """The folder's manifest as read, or nothing if it is missing or not one of ours."""
    with contextlib.suppress(OSError, ValueError):
        loaded = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        if isinstance(loaded, dict):
            return loaded
    return {}


def _merge_manifest(staging: Path, old: dict[str, Any], where: Path) -> None:
    """Add the old manifest's entries for files left in place to the new manifest.

    An entry whose file no longer exists (in ``where``: the new folder after carrying
    over, or the user's folder written file by file) is dropped; a kept entry's size and
    hash are read from the file on disk, so the manifest always matches the folder.
    """
    path = staging / MANIFEST
    if not path.exists():
        return
    manifest = json.loads(path.read_text(encoding="utf-8"))
    entries = {e["file"]: e for e in manifest.get("files", [])}
    for item in old.get("files", []) if isinstance(old.get("files"), list) else []:
        name = item.get("file") if isinstance(item, dict) else None
        if not isinstance(name, str) or name in entries or name.startswith(PREFIX) \
                or name != os.path.basename(name) or name in ("", ".", ".."):
            continue
        file = where / name
        if not file.is_file() or file.is_symlink():
            continue
        pages = item.get("pages", 0)
        entries[name] = _entry(name, pages if isinstance(pages, int) else 0,
                               file.read_bytes())
    manifest["files"] = [entries[name] for name in sorted(entries)]
    os.unlink(path)  # it may be a hard link shared with the old folder: never edit in place
    _write_new(path, path, _manifest_bytes(manifest))


def _swap(target: Path, staging: Path) -> Path | None:
    """Rename the old folder aside and the staging folder in; the aside folder, if any."""
    if not target.exists():
        os.rename(staging, target)
        _MINE.discard(staging)
        return None
    token = staging.name.rsplit("-", 1)[-1]
    aside = target.parent / f"{PREFIX}old-{os.getpid()}-{token}-{target.name}"
    if len(aside.name.encode("utf-8", "surrogateescape")) > NAME_MAX:
        aside = target.parent / f"{PREFIX}old-{os.getpid()}-{token}"
    # Recorded before either rename, so a run killed after the swap leaves a record that
    # the old folder was replaced (see clean_stale).
    _write_new(staging / REPLACES, staging / REPLACES,
               aside.name.encode("utf-8", "surrogateescape"))
    os.rename(target, aside)
    try:
        _step("renamed aside")
        os.rename(staging, target)
    except BaseException:
        os.rename(aside, target)
        raise
    _MINE.discard(staging)
    return aside


def _retire(target: Path, aside: Path) -> None:
    """Remove the old folder once the new one is in place, losing nothing.

    It is first renamed to a ``gone`` name (so a later run knows it was replaced and may
    remove it). Anything in it that the new folder lacks (a file another program wrote
    while the new folder was being made) is moved into the new folder before it goes.
    The new folder's record of the swap goes before the old folder itself. A stale
    ``gone`` folder found by ``clean_stale`` is finished the same way.
    """
    found = _TEMPORARY.match(aside.name)
    token = found.group(3) if found else "x"
    gone = aside
    if found is None or found.group(1) != "gone":
        gone = aside.parent / f"{PREFIX}gone-{os.getpid()}-{token}-{target.name}"
        if len(gone.name.encode("utf-8", "surrogateescape")) > NAME_MAX:
            gone = aside.parent / f"{PREFIX}gone-{os.getpid()}-{token}"
        os.rename(aside, gone)
        _step("retired")
    with os.scandir(gone) as entries:
        names = [e.name for e in entries if not _ours(e.name)]
    for name in names:
        if not os.path.lexists(target / name):
            os.rename(gone / name, target / name)
    if _record(target) == token:  # before the folder goes: a gone folder needs no record
        (target / REPLACES).unlink()
    _remove(gone)
    _step("removed old")


# --- writing into a folder file by file -------------------------------------------------

def _move_in(target: Path, staging: Path, journal: list[tuple[Path, Path | None]],
             made: list[Path]) -> None:
    """Rename every staged file into ``target`` (the manifest last), one by one.

    Each file it replaces is first kept by a hard link (or a copy) in the staging folder,
    so a failure can put it back; ``journal`` records (placed file, kept old file or
    None) and ``made`` the sub-folders created, for ``_move_back``.

    Raises:
        OutputError: When a folder stands where a file goes (or a file where a folder).

    """
    keep = staging / f"{PREFIX}kept"
    files: list[Path] = []
    for folder, dirs, names in os.walk(staging):
        here = Path(folder)
        if here == staging:
            dirs[:] = [d for d in dirs if not d.startswith(PREFIX)]
            names = [n for n in names if not n.startswith(PREFIX)]
        files += [(here / n).relative_to(staging) for n in names]
    files.sort(key=lambda rel: (rel == Path(MANIFEST), rel.parts))
    for rel in files:
        dest = target / rel
        for parent in reversed(rel.parents[:-1] if len(rel.parts) > 1 else []):
            sub = target / parent
            if not os.path.lexists(sub):
                sub.mkdir()
                made.append(sub)
            elif not sub.is_dir():
                raise OutputError(f"cannot write {sub}: a file of that name is in the "
                                  "way; move it and export again")
        kept: Path | None = None
        if os.path.lexists(dest):
            if dest.is_dir() and not dest.is_symlink():
                raise OutputError(f"cannot write {dest}: a folder of that name is in the "
                                  "way; move it and export again")
            kept = keep / rel
            kept.parent.mkdir(parents=True, exist_ok=True)
            if dest.is_symlink():
                os.symlink(os.readlink(dest), kept)
            else:
                _link_or_copy(str(dest), str(kept))
        os.replace(staging / rel, dest)
        journal.append((dest, kept))
        _step(f"placed {rel}")


def _move_back(journal: list[tuple[Path, Path | None]], made: list[Path]) -> None:
    """Undo ``_move_in``: put back every replaced file, remove every added one."""
    for dest, kept in reversed(journal):
        with contextlib.suppress(OSError):
            if kept is None:
                dest.unlink()
            else:
                os.replace(kept, dest)
    for folder in reversed(made):
        with contextlib.suppress(OSError):
            folder.rmdir()


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
        found = _TEMPORARY.match(entry.name)
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
                _retire(parent / name, path)
            elif kind != "old":
                _remove(path)
            elif name and not os.path.lexists(parent / name):
                os.rename(path, parent / name)
            elif name and _record(parent / name) == token:
                _retire(parent / name, path)
            else:
                recovered = parent / f"{name or 'quarterdeck'}.recovered-{token}"
                os.rename(path, recovered)
                clean_stale(recovered)  # what the killed run left inside it


def _record(target: Path) -> str | None:
    """The token of the old folder ``target`` was swapped in for, from its record."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(target / REPLACES, flags)
    except OSError:
        return None
    try:
        record = os.read(fd, NAME_MAX + 1) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return None
    finally:
        os.close(fd)
    found = _TEMPORARY.match(record.decode("utf-8", "surrogateescape"))
    return found.group(3) if found and owns(target) else None


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
