"""What quarterdeck owns on disk: marked folders, their temporaries, the names it takes.

A folder quarterdeck made holds the marker file ``MARKER`` with exactly ``MARKER_TEXT``
(``owns``); every temporary is a marked folder named ``.quarterdeck-<kind>-<pid>-<token>``
(``TEMPORARY``). ``step`` is the seam tests replace to kill a write at each of its steps:
every module that writes calls it through this module (``ownedfolders.step(...)``), so
one assignment reaches them all.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
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

TEMPORARY = re.compile(r"^\.quarterdeck-(new|tmp|old|gone)-(\d+)-([^-]+)(?:-(.*))?$", re.S)
"""A temporary's name: kind, process id, token and, for ``old``, the folder it was."""

MINE: set[Path] = set()
"""This process's live temporaries (forked workers inherit it): writing into them needs
no temporary of its own, since nothing reads them until they are moved into place."""


def step(event: str) -> None:
    """A seam for tests: called at every step of a write, where a kill could strike."""


def current_umask() -> int:
    """The process's umask (read by setting it, so set back at once)."""
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
    fd = os.open(folder / MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~current_umask())
    with os.fdopen(fd, "wb") as handle:
        handle.write(MARKER_TEXT)


def make_temporary(parent: Path, kind: str) -> Path:
    """Make a marked temporary folder in ``parent`` (the marker before anything else)."""
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-{os.getpid()}-", dir=parent))
    try:
        _mark(folder)
    except BaseException:
        os.rmdir(folder)
        raise
    MINE.add(folder)
    step(f"made {kind}")
    return folder


def remove_owned(folder: Path) -> None:
    """Remove a marked folder of ours, the marker last (a half-removed one stays marked)."""
    MINE.discard(folder)
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


def is_mine(folder: Path) -> bool:
    """Whether ``folder`` lies inside one of this process's live temporaries."""
    return any(parent in MINE for parent in (folder, *folder.parents))



def write_new(path: Path, shown: Path, data: bytes) -> None:
    """Write a file into a private staging folder (no rename needed: nobody reads it yet)."""
    try:
        with open(path, "xb") as handle:
            handle.write(data)
    except OSError as exc:
        raise write_error(shown, exc) from exc
    step(f"wrote {path.name}")


def manifest_entry(name: str, pages: int, data: bytes) -> dict[str, object]:
    """A file's entry in ``manifest.json``: name, pages, size and SHA-256."""
    return {"file": name, "pages": pages, "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}


def manifest_bytes(manifest: dict[str, Any]) -> bytes:
    """A manifest as the file holds it (indented JSON, UTF-8, a final newline)."""
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()



def swap_record(target: Path) -> str | None:
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
    found = TEMPORARY.match(record.decode("utf-8", "surrogateescape"))
    return found.group(3) if found and owns(target) else None
