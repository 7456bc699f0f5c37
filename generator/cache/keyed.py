"""The one way into the user cache: a key made of parts, and ``remember``.

Every cached value in quarterdeck is kept under a ``Key`` that only ``key`` makes, and
``key`` always includes quarterdeck's version and the stamp of its code (every ``.py``
and ``.yaml`` of the package: an editable install changes them without changing the
version), then whatever else the caller names: the bytes of a file, a path, another key.
So no caller can forget the code, and a key is never a hand-made string to get wrong.

``remember(slot, key, make, accept)`` is how a value is used: read back if one with the
right shape is kept under ``key`` in ``slot`` (one file of the cache folder), otherwise
made and kept. ``recall`` and ``keep`` are its two halves, for the one caller that adds
to what it read (``cli.replay``). What is read back is never trusted for its shape:
``accept`` checks it (``usercache`` already checked that this user's quarterdeck wrote
it).

The storage itself, signed and kept out of others' reach, is ``usercache``; only this
package calls it (a test holds every other module to that).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any, NewType, TypeGuard, TypeVar

from generator.cache import usercache

T = TypeVar("T")

Key = NewType("Key", str)
"""A cache key: made only by ``key``, so it always names the version and the code."""

_SLOT = re.compile(r"[a-z][a-z0-9-]{0,79}")
"""A slot is a file name in the cache folder: short, lower case, nothing to escape."""


def key(*parts: object) -> Key:
    """The key of a value computed from ``parts``, quarterdeck's version and its code.

    Args:
        parts: Everything else the value depends on. ``bytes`` are hashed as they are
            (a file's contents), anything else by its ``repr`` (text, numbers, paths,
            tuples of them, another ``Key``). Each part is framed by its type and
            length, so no two lists of parts run together into the same key.

    """
    from generator import __version__

    digest = hashlib.sha256()
    for part in (__version__, usercache.package_stamp(), *parts):
        data = part if isinstance(part, bytes) else repr(part).encode("utf-8", "backslashreplace")
        digest.update(f"{type(part).__name__}:{len(data)}:".encode() + data)
    return Key(digest.hexdigest())


def slot(prefix: str, *parts: object) -> str:
    """The name of a cache file: ``prefix``, then one safe name, or else a digest of ``parts``.

    One slot holds one entry, so a caller gives one slot per thing it wants kept side by
    side (each ruleset's odds, each set of user folders). A single part that is already
    a safe file name is kept readable (``odds-index-`` and a bundled ruleset's name);
    anything else (a path, a user's ruleset name) becomes 16 hex digits, never a file
    name of its own.
    """
    if not _SLOT.fullmatch(prefix):
        raise ValueError(f"not a cache slot prefix: {prefix!r}")
    if not parts:
        return prefix
    if len(parts) == 1 and isinstance(parts[0], str) and _SLOT.fullmatch(parts[0]) \
            and len(prefix) + len(parts[0]) < 80:
        return f"{prefix}-{parts[0]}"
    digest = hashlib.sha256(repr(parts).encode("utf-8", "backslashreplace")).hexdigest()
    return f"{prefix}-{digest[:16]}"


Shape = type[T] | Callable[[Any], TypeGuard[T]]
"""What a value read back must be: of a class, or what a predicate accepts."""


def recall(name: str, found: Key | None, accept: Shape[T]) -> T | None:
    """The value kept in slot ``name`` under ``found`` if it has the shape ``accept``.

    None on any miss, and always when ``found`` is None (nothing to key it by).
    """
    if found is None:
        return None
    value = usercache.load(_checked(name), found)
    if value is None:
        return None
    fits = isinstance(value, accept) if isinstance(accept, type) else accept(value)
    return value if fits else None


def keep(name: str, found: Key | None, value: object) -> None:
    """Keep ``value`` in slot ``name`` under ``found`` (nothing when ``found`` is None)."""
    if found is not None:
        usercache.store(_checked(name), found, value)


def remember(name: str, found: Key | None, make: Callable[[], T],
             accept: Shape[T], *,
             kept: Callable[[T], bool] | None = None) -> T:
    """The value kept in slot ``name`` under ``found``, or ``make()``'s, kept for next time.

    Args:
        name: The slot (``slot``).
        found: The key (``key``); None when the value cannot be cached: then it is
            always made and never kept.
        make: Computes the value on a miss.
        accept: The class of what ``make`` returns, or a predicate saying a value read
            back has its shape (an entry of an older layout or another type is a miss).
        kept: Whether a made value may be kept (default: always).

    """
    cached = recall(name, found, accept)
    if cached is not None:
        return cached
    value = make()
    if kept is None or kept(value):
        keep(name, found, value)
    return value


def text_map(value: Any) -> TypeGuard[dict[str, str]]:
    """An ``accept`` for a dict of text to text."""
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str)
                                           for k, v in value.items())


def text_list(value: Any) -> TypeGuard[list[str]]:
    """An ``accept`` for a list of text."""
    return isinstance(value, list) and all(isinstance(n, str) for n in value)


def _checked(name: str) -> str:
    """``name`` if it is a slot ``slot`` could have made; a ValueError otherwise."""
    if not _SLOT.fullmatch(name):
        raise ValueError(f"not a cache slot: {name!r}")
    return name
