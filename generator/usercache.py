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


def _key(where: Path) -> bytes | None:
    """The per-user signing key, created once with mode 0600; None if it is not safe."""
    path = where / "key"
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as handle:
                handle.write(secrets.token_bytes(32))
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            # A key others can read (or that someone else owns) could sign anything.
            if not stat.S_ISREG(info.st_mode) or info.st_mode & 0o077 \
                    or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
                return None
            key = handle.read(64)
    except OSError:
        return None
    return key if len(key) == 32 else None


def load(name: str, key: str) -> Any | None:
    """The value stored as ``name`` under ``key``, or None on any miss or doubt."""
    where = folder()
    if where is None:
        return None
    secret = _key(where)
    if secret is None:
        return None
    try:
        blob = (where / name).read_bytes()
    except OSError:
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
    where = folder()
    if where is None:
        return
    secret = _key(where)
    if secret is None:
        return
    try:
        payload = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - something unpicklable: simply not cached
        return
    blob = MAGIC + hmac.new(secret, payload, hashlib.sha256).digest() + payload
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


def code_stamp(folders: list[Path]) -> str:
    """A digest of every Python and YAML file's path, size and mtime under ``folders``.

    Cached results depend on the code and its bundled tables as well as on the data, and
    an editable install changes them without changing the version.
    """
    digest = hashlib.sha256()
    for base in folders:
        found = []
        # os.walk, like rglob, does not descend into linked folders; it is much cheaper.
        for folder, _, names in os.walk(base):
            found += [os.path.join(folder, n) for n in names
                      if n.endswith((".py", ".yaml", ".yml"))]
        for path in sorted(found):
            try:
                info = os.stat(path)
            except OSError:
                continue
            digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


@functools.cache
def package_stamp() -> str:
    """``code_stamp`` of the ``generator`` package, computed once per process."""
    return code_stamp([Path(__file__).resolve().parent])
