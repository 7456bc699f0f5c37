"""The data files under a folder, and how each is named in messages.

Files of a user's folder are named relative to the working folder; bundled ones as
``shipdata/...`` from any folder. Links that lead out of a data folder are never read,
and a name that is not UTF-8 text is refused before the file is.
"""

from __future__ import annotations

import os
from pathlib import Path


def display_name(path: Path, root: Path, bundled: bool) -> str:
    """How messages name a data file: ``shipdata/...`` if bundled, else from here."""
    if bundled:
        return str(Path("shipdata") / path.relative_to(root))
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def data_files(root: Path) -> list[Path]:
    """YAML files under ``root`` (or ``root`` itself), sorted, never leaving ``root``.

    Symbolic links that point outside the folder are skipped, so data cannot pull in
    files from elsewhere on the machine.
    """
    if not root.is_dir():
        # A file, or something that is not one (a pipe, a device): the loader says which.
        return [root]
    base = root.resolve()
    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix.lower() not in (".yaml", ".yml") or not path.is_file():
            continue
        # rglob does not descend into linked folders, so only a link itself can lead
        # outside: resolving just those keeps this cheap for a large library.
        if os.path.islink(path) and not path.resolve().is_relative_to(base):
            continue
        found.append(path)
    return found


UNDECODABLE = ("found a file or folder name that is not UTF-8 text, expected a name in "
               "UTF-8 (a class or scenario file is named by its id); rename it")
"""The problem of a data file whose name (below the data folder) is not UTF-8."""


def decodable(path: Path, base: Path) -> bool:
    """Whether ``path``'s name below ``base`` is UTF-8 text.

    Python reads a name that is not as lone surrogates (``surrogateescape``); such a name
    cannot be a class or scenario id, nor be written into a manifest or a message as it
    is. The user's own folder (``base``) may be named anything.
    """
    try:
        relative = path.relative_to(base)
    except ValueError:
        relative = path
    try:
        str(relative).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
