"""A per-user cache of work that is slow to redo: the validated library, ruleset order.

The cache lives in the user's cache folder (``$XDG_CACHE_HOME/quarterdeck`` or
``~/.cache/quarterdeck``), never in the project or the output folder, and
``QUARTERDECK_NO_CACHE=1`` turns it off. Every entry is stored under a key that names
everything it was computed from (quarterdeck's version, the code, the contents of every
data file), so a changed input is simply a miss.

A cache file is untrusted input like any other file: another program or user may have
written it. Entries are pickled (validated models are Python objects), and unpickling
runs code, so every file carries an HMAC-SHA256 made with a per-user key file created
with mode 0600. A file whose signature does not verify, whose key is readable by others
or belongs to someone else, or that cannot be read back, is ignored and rebuilt.

Nothing in the folder is trusted that quarterdeck did not write there for this user:

- a cache folder someone else owns, or that others may write in (where they could plant
  or swap files), is not used at all, neither read nor written, with one warning per
  process;
- the key and every entry are opened without following a link and without waiting
  (``O_NOFOLLOW | O_NONBLOCK``: a FIFO planted under an entry's name cannot hang a
  command), and read only when they are regular files of this user's, an entry at most
  ``MAX_ENTRY`` bytes long.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import hmac
import os
import pickle
import secrets
import stat
import tempfile
from pathlib import Path
from typing import Any

MAGIC = b"QDCACHE1"
ENV_OFF = "QUARTERDECK_NO_CACHE"
"""Set to 1 to neither read nor write the cache."""
MAX_ENTRY = 64 * 1024 * 1024
"""Bytes one entry may hold: a longer file is a miss, and a longer value is not stored.

The largest entries after building every bundled scenario and answering an odds question
are the font subsets (3.1 MB; ``subsets.Subsets.LIMIT`` keeps them near 3 MB) and the
checked bundled library (2.7 MB); the next, an odds index, is 0.6 MB. 64 MiB leaves room
for a user's own data twenty times the size of the bundled library, and is still a read
that costs well under a second and bounded memory.
"""
_OPEN = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
         | getattr(os, "O_CLOEXEC", 0))
"""How the key and entries are opened: never through a link, never waiting on a FIFO."""
_warned: list[str] = []
"""The warning about an unsafe cache folder, once it was given (once per process)."""


def folder() -> Path | None:
    """The cache folder, or None when caching is off or no home folder is known."""
    if os.environ.get(ENV_OFF, "") not in ("", "0"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base and Path(base).is_absolute():
        return Path(base) / "quarterdeck"
    try:
        return Path.home() / ".cache" / "quarterdeck"
    except RuntimeError:  # no home folder (a bare container user)
        return None


def _secret() -> tuple[Path, bytes] | None:
    """The cache folder and the per-user signing key; None when caching is off or unsafe."""
    where = folder()
    if where is None:
        return None
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
    except FileExistsError:
        pass  # something else of that name: _safe_folder says so
    except OSError:
        return None
    if not _safe_folder(where):
        return None
    secret = _key(where)
    return (where, secret) if secret is not None else None


def _safe_folder(where: Path) -> bool:
    """Whether only this user may write in ``where``; warns once per process if not."""
    try:
        info = os.stat(where)
    except OSError:
        return False
    mine = os.getuid() if hasattr(os, "getuid") else info.st_uid
    if not stat.S_ISDIR(info.st_mode):
        why = "it is not a folder"
    elif info.st_uid != mine:
        why = f"it belongs to user {info.st_uid}, not to you (user {mine})"
    elif info.st_mode & 0o022:
        why = (f"others may write in it (mode {stat.filemode(info.st_mode)}); "
               "chmod go-w it, or remove it")
    else:
        return True
    _warn_once(f"not using the cache folder {where}: {why}; set XDG_CACHE_HOME to a folder "
               f"of your own, or {ENV_OFF}=1 to go without")
    return False


def _warn_once(message: str) -> None:
    """A warning on stderr through the command line's ``warn``, the first time only.

    ``warn`` makes the message inert: the folder's path comes from the environment and
    may hold control characters.
    """
    if _warned:
        return
    _warned.append(message)
    from generator.core.commandline import warn

    warn(message)


def _read(path: Path, limit: int, *, private: bool = False) -> bytes | None:
    """A regular file of this user's, at most ``limit`` bytes; None for anything else.

    With ``private``, also None when others may read or write the file.

    Opened without following a link or waiting for a writer (a FIFO opens at once and is
    refused), and read only after ``fstat`` says what it is.
    """
    try:
        fd = os.open(path, _OPEN)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if (not stat.S_ISREG(info.st_mode) or info.st_size > limit
                    or (private and info.st_mode & 0o077)
                    or (hasattr(os, "getuid") and info.st_uid != os.getuid())):
                return None
            blob = handle.read(info.st_size + 1)
    except OSError:
        return None
    return blob if len(blob) == info.st_size else None  # changed while read: a miss


def _key(where: Path) -> bytes | None:
    """The per-user signing key, created once with mode 0600; None if it is not safe."""
    path = where / "key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                     0o600)
    except FileExistsError:
        pass
    except OSError:
        return None
    else:
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(secrets.token_bytes(32))
        except OSError:
            return None
    # A key others can read (or that someone else owns) could sign anything.
    key = _read(path, 64, private=True)
    return key if key is not None and len(key) == 32 else None


def load(name: str, key: str) -> Any | None:
    """The value stored as ``name`` under ``key``, or None on any miss or doubt."""
    found = _secret()
    if found is None:
        return None
    where, secret = found
    blob = _read(where / name, MAX_ENTRY)
    if blob is None:
        return None
    head = len(MAGIC) + 32
    if len(blob) < head or not blob.startswith(MAGIC):
        return None
    signature, payload = blob[len(MAGIC):head], blob[head:]
    if not hmac.compare_digest(signature, hmac.new(secret, payload, hashlib.sha256).digest()):
        return None
    # Unpickling makes many small objects at once: without the collector scanning them
    # again and again on the way, a large entry loads several times faster.
    collecting = gc.isenabled()
    gc.disable()
    try:  # signed by this user's key: written by quarterdeck for this user
        stored_key, value = pickle.loads(payload)  # noqa: S301 - verified above
    except Exception:  # noqa: BLE001 - an old format or a class that moved: a miss
        return None
    finally:
        if collecting:
            gc.enable()
    return value if stored_key == key else None


def store(name: str, key: str, value: Any) -> None:
    """Store ``value`` as ``name`` under ``key``, atomically; never fails the caller."""
    found = _secret()
    if found is None:
        return
    where, secret = found
    try:
        payload = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - something unpicklable: simply not cached
        return
    blob = MAGIC + hmac.new(secret, payload, hashlib.sha256).digest() + payload
    if len(blob) > MAX_ENTRY:  # it would never be read back
        return
    try:
        fd, temp = tempfile.mkstemp(dir=where, prefix=f".{name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(blob)
            os.replace(temp, where / name)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        return


def code_stamp(folders: list[Path], suffixes: tuple[str, ...] = (".py", ".yaml", ".yml")
               ) -> str:
    """A digest of the path, size and mtime of every file under ``folders`` with a suffix.

    Cached results depend on the code and its bundled tables as well as on the data, and
    an editable install changes them without changing the version; the library's key
    stamps the images a data folder holds the same way.
    """
    digest = hashlib.sha256()
    for base in folders:
        found = []
        # os.walk, like rglob, does not descend into linked folders; it is much cheaper.
        for folder, _, names in os.walk(base):
            found += [os.path.join(folder, n) for n in names
                      if n.lower().endswith(suffixes)]
        for path in sorted(found):
            try:
                info = os.stat(path)
            except OSError:
                continue
            digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


@functools.cache
def package_stamp() -> str:
    """``code_stamp`` of the whole ``generator`` package, computed once per process."""
    return code_stamp([Path(__file__).resolve().parents[1]])
