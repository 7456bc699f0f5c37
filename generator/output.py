"""Writing results whole or not at all: staged folders swapped in, manifests with hashes.

A kit is many files, and a half-written kit (new sheets with an old manifest, one side's
packet missing) is worse than the old kit. So every file of a command goes into a hidden
folder beside its target, and only when everything has been written is that folder
swapped in: the old folder is renamed aside, the new one renamed into place, the old one
removed. On any failure the old folder is put back and the staging folder removed.

Several commands write into one folder (``rulers``, ``gauges`` and ``strings`` share
``aids/``; a kit's folder holds ``tables/`` and ``markers/``), so whatever the old folder
holds that the new files do not replace is carried over (hard-linked, or copied where
links are impossible) and its ``manifest.json`` entries are kept.

Every name this module makes starts with ``.quarterdeck-``, so a later build can tell its
own leftovers (from a killed build) from the user's files and remove only those.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.errors import OutputError, UsageError

PREFIX = ".quarterdeck-"
"""Every temporary file or folder quarterdeck makes starts with this."""

NAME_MAX = 255
"""Bytes in one file name on the common file systems (ext4, APFS, NTFS in UTF-16 units)."""

MANIFEST = "manifest.json"

STARTED = time.time()
"""When this run began: temporaries older than this and not a live build's are stale."""

_ACTIVE: contextvars.ContextVar[Transaction | None] = contextvars.ContextVar(
    "quarterdeck_output_transaction", default=None)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _oserror(path: Path, exc: OSError) -> OutputError | UsageError:
    """The user's message for a failed write; a name too long is the data's fault."""
    if exc.errno == errno.ENAMETOOLONG:
        return UsageError(f"cannot write {path}: the name is too long for a file; "
                          "shorten the id it is made from")
    return OutputError(f"cannot write {path}: {exc.strerror or exc}")


def check_name(folder: Path, name: str) -> None:
    """Refuse a file name no file system takes, before anything is written.

    Raises:
        UsageError: The name comes from data (a side or ship id), so exit 2.

    """
    size = len(name.encode("utf-8", "surrogateescape"))
    if size > NAME_MAX:
        raise UsageError(f"cannot write {folder / name[:40]}...: the file name is {size} bytes "
                         f"long, expected at most {NAME_MAX}; shorten the id it is made from")


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename.

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
        clean_stale(path.parent)
        fd, tmp = tempfile.mkstemp(prefix=f"{PREFIX}file-{os.getpid()}-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            # mkstemp creates 0600 files; give the result the user's normal permissions.
            os.chmod(tmp, 0o666 & ~_umask())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise _oserror(path, exc) from exc


def write_kit(folder: Path, files: dict[str, bytes], pages: dict[str, int],
              extra: dict[str, object]) -> Path:
    """Write every file of a kit and its ``manifest.json``, whole or not at all.

    Inside ``transaction()`` the files are staged and swapped in when it ends; otherwise
    they are swapped in before this returns. Files already in the folder that this kit
    does not replace stay, and keep their manifest entries.

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
        staging = txn.stage(folder)
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
        raise _oserror(shown, exc) from exc


def _entry(name: str, pages: int, data: bytes) -> dict[str, object]:
    return {"file": name, "pages": pages, "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}


def _manifest_bytes(manifest: dict[str, Any]) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()


@contextlib.contextmanager
def transaction() -> Iterator[Transaction]:
    """Group the writes of one command: all of them are swapped in at the end, or none.

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
    """Staging folders for one command's targets, swapped in together by ``commit``."""

    def __init__(self) -> None:
        """Start with nothing staged."""
        self._staged: dict[Path, Path] = {}

    def stage(self, folder: Path) -> Path:
        """The private folder to write ``folder``'s new files into (made on first call).

        Raises:
            OutputError: When ``folder`` is a file or its parent cannot be written.

        """
        target = Path(os.path.abspath(folder))
        try:
            if target.is_symlink():  # swap the real folder; the user's link still finds it
                target = target.resolve()
            if target in self._staged:
                return self._staged[target]
            if target.exists() and not target.is_dir():
                raise OutputError(f"cannot write {folder}: it is a file, not a folder")
            target.parent.mkdir(parents=True, exist_ok=True)
            clean_stale(target.parent)
            staging = Path(tempfile.mkdtemp(prefix=f"{PREFIX}new-{os.getpid()}-",
                                            dir=target.parent))
            mode = target.stat().st_mode & 0o7777 if target.is_dir() else 0o777 & ~_umask()
            os.chmod(staging, mode)
        except OSError as exc:
            raise _oserror(folder, exc) from exc
        self._staged[target] = staging
        return staging

    def discard(self) -> None:
        """Remove every staging folder not yet swapped in."""
        for staging in self._staged.values():
            shutil.rmtree(staging, ignore_errors=True)
        self._staged.clear()

    def commit(self) -> None:
        """Swap every staged folder in; on any failure put every old folder back.

        Deeper targets go first, so a folder staged inside another target's old folder
        is in place before that folder is carried over.

        Raises:
            OutputError: When a swap fails (the old folders are restored).

        """
        done: list[tuple[Path, Path, Path | None]] = []
        try:
            for target in sorted(self._staged, key=lambda p: len(p.parts), reverse=True):
                staging = self._staged[target]
                _carry_over(target, staging)
                done.append((target, staging, _swap(target, staging)))
        except BaseException as exc:
            for target, staging, aside in reversed(done):
                with contextlib.suppress(OSError):
                    os.rename(target, staging)
                    if aside is not None:
                        os.rename(aside, target)
            self.discard()
            if isinstance(exc, OSError):
                raise _oserror(target, exc) from exc
            raise
        self._staged.clear()
        for _, _, aside in done:
            if aside is not None:
                shutil.rmtree(aside, ignore_errors=True)


def _carry_over(target: Path, staging: Path) -> None:
    """Link what the old folder holds and the new one does not into the new one.

    Raises:
        OutputError: When a new file would replace a folder (or a folder a file).

    """
    if not target.is_dir():
        return
    old_manifest: dict[str, Any] = {}
    for entry in os.scandir(target):
        if entry.name.startswith(PREFIX):
            continue
        new = staging / entry.name
        if entry.name == MANIFEST:
            with contextlib.suppress(OSError, ValueError):
                loaded = json.loads(Path(entry.path).read_text(encoding="utf-8"))
                old_manifest = loaded if isinstance(loaded, dict) else {}
            if new.exists():
                continue
        if os.path.lexists(new):
            if entry.is_dir(follow_symlinks=False) != new.is_dir():
                what = "folder" if entry.is_dir(follow_symlinks=False) else "file"
                raise OutputError(f"cannot write {target / entry.name}: a {what} of that "
                                  "name is in the way; move it and build again")
            continue
        _link_tree(Path(entry.path), new)
    _merge_manifest(staging, old_manifest)


def _link_tree(source: Path, dest: Path) -> None:
    """Hard-link (or copy) a file or folder tree; links stay links."""
    if source.is_symlink():
        os.symlink(os.readlink(source), dest)
    elif source.is_dir():
        shutil.copytree(source, dest, symlinks=True, copy_function=_link_or_copy,
                        ignore=shutil.ignore_patterns(f"{PREFIX}*"))
    else:
        _link_or_copy(str(source), str(dest))


def _link_or_copy(source: str, dest: str) -> None:
    try:
        os.link(source, dest)
    except OSError:
        shutil.copy2(source, dest)


def _merge_manifest(staging: Path, old: dict[str, Any]) -> None:
    """Add the old manifest's entries for carried-over files to the new manifest.

    An entry whose file no longer exists is dropped; a carried entry's size and hash are
    read from the file on disk, so the manifest always matches the folder.
    """
    path = staging / MANIFEST
    if not path.exists():
        return
    manifest = json.loads(path.read_text(encoding="utf-8"))
    entries = {e["file"]: e for e in manifest.get("files", [])}
    for item in old.get("files", []) if isinstance(old.get("files"), list) else []:
        name = item.get("file") if isinstance(item, dict) else None
        if not isinstance(name, str) or name in entries or name.startswith(PREFIX):
            continue
        file = staging / name
        if not file.is_file() or file.parent != staging:
            continue
        pages = item.get("pages", 0)
        entries[name] = _entry(name, pages if isinstance(pages, int) else 0,
                               file.read_bytes())
    manifest["files"] = [entries[name] for name in sorted(entries)]
    os.unlink(path)  # it may be a hard link shared with nothing, but never edit in place
    _write_new(path, path, _manifest_bytes(manifest))


def _swap(target: Path, staging: Path) -> Path | None:
    """Rename the old folder aside and the staging folder in; the aside folder, if any."""
    if not target.exists():
        os.rename(staging, target)
        return None
    token = staging.name.rsplit("-", 1)[-1]
    aside = target.parent / f"{PREFIX}old-{os.getpid()}-{token}-{target.name}"
    if len(aside.name.encode("utf-8", "surrogateescape")) > NAME_MAX:
        aside = target.parent / f"{PREFIX}old-{os.getpid()}-{token}"
    os.rename(target, aside)
    try:
        _between_renames()
        os.rename(staging, target)
    except BaseException:
        os.rename(aside, target)
        raise
    return aside


def _between_renames() -> None:
    """A seam for tests: a failure here is a build killed between the two renames."""


_CLEANED: set[Path] = set()
"""Folders already cleaned in this run (an export writes a thousand files into one)."""


def clean_stale(parent: Path) -> None:
    """Remove what killed builds left in ``parent``: only our own names, only stale ones.

    An old folder renamed aside whose target is missing (a build killed between the two
    renames) is put back instead of removed. Each folder is looked at once per run.
    """
    if parent in _CLEANED:
        return
    _CLEANED.add(parent)
    try:
        entries = [e for e in os.scandir(parent) if e.name.startswith(PREFIX)]
    except OSError:
        return
    for entry in entries:
        kind, _, rest = entry.name[len(PREFIX):].partition("-")
        pid_text, _, rest = rest.partition("-")
        if kind not in ("new", "old", "file") or not pid_text.isdigit():
            continue
        try:
            if entry.stat(follow_symlinks=False).st_mtime >= STARTED:
                continue
        except OSError:
            continue
        if _alive(int(pid_text)):
            continue
        path = Path(entry.path)
        if kind == "old":
            name = rest.partition("-")[2]
            if name and not os.path.lexists(parent / name):
                with contextlib.suppress(OSError):
                    os.rename(path, parent / name)
                    continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


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
