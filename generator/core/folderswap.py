"""Putting a staged folder in place: swapped in whole, or moved in file by file.

A folder quarterdeck owns is swapped: what the old one holds that the new one lacks is
carried over by hard links, the old one is renamed aside and the new one in, and the old
one is retired (anything that appeared in it meanwhile moved across first). A folder the
user named is written into file by file, each file it replaces kept by a hard link so a
failure can put everything back (``move_back``). ``generator.core.output`` decides which.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

from generator.core import ownedfolders
from generator.core.errors import OutputError
from generator.core.ownedfolders import (
    MANIFEST,
    MARKER,
    MINE,
    NAME_MAX,
    PREFIX,
    REPLACES,
    TEMPORARY,
    manifest_bytes,
    manifest_entry,
    remove_owned,
    swap_record,
    write_new,
)


def carry_over(target: Path, staging: Path, manifest: bool) -> None:
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
        ownedfolders.step(f"carried {entry.name}")
    if manifest:
        merge_manifest(staging, read_manifest(target), staging)


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
    return name in (MARKER, REPLACES) or TEMPORARY.match(name) is not None


def _link_or_copy(source: str, dest: str) -> None:
    try:
        os.link(source, dest)
    except OSError:
        shutil.copy2(source, dest)


def read_manifest(folder: Path) -> dict[str, Any]:
    """The folder's manifest as read, or nothing if it is missing or not one of ours."""
    with contextlib.suppress(OSError, ValueError):
        loaded = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        if isinstance(loaded, dict):
            return loaded
    return {}


def merge_manifest(staging: Path, old: dict[str, Any], where: Path) -> None:
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
        entries[name] = manifest_entry(name, pages if isinstance(pages, int) else 0,
                               file.read_bytes())
    manifest["files"] = [entries[name] for name in sorted(entries)]
    os.unlink(path)  # it may be a hard link shared with the old folder: never edit in place
    write_new(path, path, manifest_bytes(manifest))


def swap_in(target: Path, staging: Path) -> Path | None:
    """Rename the old folder aside and the staging folder in; the aside folder, if any."""
    if not target.exists():
        os.rename(staging, target)
        MINE.discard(staging)
        return None
    token = staging.name.rsplit("-", 1)[-1]
    aside = target.parent / f"{PREFIX}old-{os.getpid()}-{token}-{target.name}"
    if len(aside.name.encode("utf-8", "surrogateescape")) > NAME_MAX:
        aside = target.parent / f"{PREFIX}old-{os.getpid()}-{token}"
    # Recorded before either rename, so a run killed after the swap leaves a record that
    # the old folder was replaced (see clean_stale).
    write_new(staging / REPLACES, staging / REPLACES,
               aside.name.encode("utf-8", "surrogateescape"))
    os.rename(target, aside)
    try:
        ownedfolders.step("renamed aside")
        os.rename(staging, target)
    except BaseException:
        os.rename(aside, target)
        raise
    MINE.discard(staging)
    return aside


def retire(target: Path, aside: Path) -> None:
    """Remove the old folder once the new one is in place, losing nothing.

    It is first renamed to a ``gone`` name (so a later run knows it was replaced and may
    remove it). Anything in it that the new folder lacks (a file another program wrote
    while the new folder was being made) is moved into the new folder before it goes.
    The new folder's record of the swap goes before the old folder itself. A stale
    ``gone`` folder found by ``clean_stale`` is finished the same way.
    """
    found = TEMPORARY.match(aside.name)
    token = found.group(3) if found else "x"
    gone = aside
    if found is None or found.group(1) != "gone":
        gone = aside.parent / f"{PREFIX}gone-{os.getpid()}-{token}-{target.name}"
        if len(gone.name.encode("utf-8", "surrogateescape")) > NAME_MAX:
            gone = aside.parent / f"{PREFIX}gone-{os.getpid()}-{token}"
        os.rename(aside, gone)
        ownedfolders.step("retired")
    with os.scandir(gone) as entries:
        names = [e.name for e in entries if not _ours(e.name)]
    for name in names:
        if not os.path.lexists(target / name):
            os.rename(gone / name, target / name)
    if swap_record(target) == token:  # before the folder goes: a gone folder needs no record
        (target / REPLACES).unlink()
    remove_owned(gone)
    ownedfolders.step("removed old")


# --- writing into a folder file by file -------------------------------------------------

def move_in(target: Path, staging: Path, journal: list[tuple[Path, Path | None]],
             made: list[Path]) -> None:
    """Rename every staged file into ``target`` (the manifest last), one by one.

    Each file it replaces is first kept by a hard link (or a copy) in the staging folder,
    so a failure can put it back; ``journal`` records (placed file, kept old file or
    None) and ``made`` the sub-folders created, for ``move_back``.

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
        ownedfolders.step(f"placed {rel}")


def move_back(journal: list[tuple[Path, Path | None]], made: list[Path]) -> None:
    """Undo ``move_in``: put back every replaced file, remove every added one."""
    for dest, kept in reversed(journal):
        with contextlib.suppress(OSError):
            if kept is None:
                dest.unlink()
            else:
                os.replace(kept, dest)
    for folder in reversed(made):
        with contextlib.suppress(OSError):
            folder.rmdir()
