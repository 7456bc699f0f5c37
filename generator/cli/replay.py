"""Answers kept to write again: a light command's output as it was written.

``list`` and ``odds`` draw tables that take rich longer to draw than everything else the
command does; the drawn text is kept in the user cache under what it was computed from,
and written again, byte for byte, while nothing it depends on changed.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.cache import Key


class Replay:
    """A command's output as it was written, kept in the user cache to write again.

    Keyed by what the answer was computed from (the checked library's key: code and
    data), rich's own files, and everything about the console that changes the drawing
    (width, colours, encoding, terminal), so a replay writes exactly the bytes the
    command would have written. Only an answer that completed is kept.
    """

    LIMIT = 64
    """Argument and terminal combinations remembered at once, per command."""

    def __init__(self, name: str, console: Any, found: Key | None, variant: str) -> None:
        self.name = name
        self.console = console
        self.parts: list[tuple[str, str]] = []
        self.key: Key | None = None
        self.variant = ""
        # Jupyter and legacy Windows consoles are written to differently: never cached.
        if found is not None and not console.is_jupyter and not console.legacy_windows:
            import rich

            from generator.cache import key

            stamp = []
            for part in ("console.py", "table.py", "segment.py", "text.py", "cells.py",
                         "markup.py", "box.py"):
                try:
                    info = (Path(rich.__file__).parent / part).stat()
                except OSError:
                    return
                stamp.append((part, info.st_size, info.st_mtime_ns))
            self.key = key("replay", found, stamp)
            self.variant = repr((variant, console.width, console.color_system,
                                 console.is_terminal, console.is_dumb_terminal,
                                 console.encoding, console.no_color,
                                 console.options.ascii_only))

    def _stored(self) -> dict[str, list[tuple[str, str]]]:
        from generator.cache import recall

        # Each answer's shape is checked where it is replayed.
        return recall(self.name, self.key, dict) or {}

    def replay(self) -> bool:
        """Write the remembered output, if there is one."""
        parts = self._stored().get(self.variant) if self.key is not None else None
        if not isinstance(parts, list) or not all(
                isinstance(p, tuple) and len(p) == 2 and p[0] in ("out", "err")
                and isinstance(p[1], str) for p in parts):
            return False
        for stream, text in parts:
            self._emit(stream, text)
        return True

    def print(self, renderable: Any) -> None:
        """Draw one renderable on the console and write it, as ``console.print`` does."""
        if self.key is None:
            self.console.print(renderable)
            return
        with self.console.capture() as captured:
            self.console.print(renderable)
        text = captured.get()
        self.parts.append(("out", text))
        self._emit("out", text)

    @contextlib.contextmanager
    def recording(self) -> Iterator[None]:
        """Keep whatever is written to stdout and stderr meanwhile (and still write it)."""
        if self.key is None:
            yield
            return
        saved = sys.stdout, sys.stderr
        sys.stdout = _Tee(saved[0], "out", self.parts)
        sys.stderr = _Tee(saved[1], "err", self.parts)
        try:
            yield
        finally:
            sys.stdout, sys.stderr = saved

    def _emit(self, stream: str, text: str) -> None:
        handle = self.console.file if stream == "out" else sys.stderr
        handle.write(text)
        handle.flush()

    def remember(self) -> None:
        """Keep what was written for the next identical command."""
        from generator.cache import keep

        if self.key is None or any(stream == "unsafe" for stream, _ in self.parts):
            return
        stored = self._stored()
        stored.pop(self.variant, None)
        while len(stored) >= self.LIMIT:
            stored.pop(next(iter(stored)))
        stored[self.variant] = self.parts
        keep(self.name, self.key, stored)


class _Tee:
    """A text stream that writes through to another and keeps a copy of what it wrote."""

    def __init__(self, stream: Any, name: str, parts: list[tuple[str, str]]) -> None:
        self._stream = stream
        self._name = name
        self._parts = parts

    def write(self, text: str) -> int:
        self._parts.append((self._name, text))
        return int(self._stream.write(text))

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, flush...
        if name == "buffer":  # bytes written past the copy: this answer is not kept
            self._parts.append(("unsafe", ""))
        return getattr(self._stream, name)


def with_file(found: Key, path: Path) -> Key | None:
    """``found`` extended by a file's path and contents (None: unreadable, do not cache)."""
    import stat

    from generator.cache import key

    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > 4 * 1024 * 1024:
            return None
        content = path.read_bytes()
    except OSError:
        return None
    return key("with-file", found, str(path.resolve()), content)
