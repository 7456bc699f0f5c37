"""Deflated font subsets and their Unicode maps, kept between packets and builds.

Split from ``kitdoc`` (which writes packets through it) so each module does one job:
kitdoc lays out the PDF objects, this keeps the expensive bytes.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.cache import Key


class Subsets:
    """Deflated font subsets and their Unicode maps, kept between packets and builds.

    A packet's font subsets are most of its bytes and of the time it takes to write it;
    the same glyphs of the same face make the same file in every packet and every build
    (the sides of one kit share most of theirs, a rebuild all of them). They are kept
    here, in this process, and in the user cache (``usercache``, keyed by quarterdeck's
    code): the most recently used, at most ``LIMIT`` bytes of them (a kit needs a few
    hundred kilobytes; reading the entry back costs a few milliseconds).
    """

    LIMIT = 3_000_000
    ENTRY = "font-subsets"

    def __init__(self) -> None:
        self._made: dict[tuple[Any, ...], tuple[bytes, int | None]] | None = None
        self._new = False

    def _key(self) -> Key:
        from generator.cache import key

        # The streams are deflated here: another zlib could deflate them otherwise.
        return key(self.ENTRY, zlib.ZLIB_VERSION)

    def get(self, key: tuple[Any, ...], make: Callable[[], bytes]
            ) -> tuple[bytes, int | None]:
        """The deflated stream for ``key`` and, for a font file, its size; made if new.

        ``make`` gives the raw content; a key starting "font" is a font file.
        """
        if self._made is None:
            from generator.cache import recall

            self._made = recall(self.ENTRY, self._key(), dict) or {}
        found = self._made.pop(key, None)
        if found is None:
            raw = make()
            # ReportLab deflates streams with zlib's default level: the bytes stay the same.
            found = (zlib.compress(raw), len(raw) if key[0] == "font" else None)
            self._new = True
        self._made[key] = found  # most recently used last
        return found

    def save(self) -> None:
        """Keep the subsets in the user cache, if any were new (never fails)."""
        if not self._new or self._made is None:
            return
        kept: dict[tuple[Any, ...], tuple[bytes, int | None]] = {}
        size = 0
        for key, value in reversed(self._made.items()):  # the most recently used first
            size += len(value[0])
            if size > self.LIMIT:
                break
            kept[key] = value
        kept = dict(reversed(kept.items()))
        self._made = kept
        from generator.cache import keep

        keep(self.ENTRY, self._key(), kept)
        self._new = False


SUBSETS = Subsets()
"""The one store of this process (``kitdoc`` writes through it, ``packets`` saves it)."""
