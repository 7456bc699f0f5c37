"""Paths from users and data: refusing what no file name holds, following links safely.

``click.Path`` asks the operating system about the path before quarterdeck sees it, and a
NUL byte makes that call raise ``ValueError`` (a traceback, not a message). ``SafePath``
refuses such a path first, as a usage error (exit 2), and otherwise behaves as
``click.Path``. ``resolved`` follows a path's links, or says it cannot (a loop).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

NUL_MESSAGE = "found a NUL byte in the path, expected a file or folder name"


class SafePath(click.Path):
    """``click.Path`` that refuses a NUL byte with a message instead of a traceback."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        """Refuse a NUL byte, then convert as ``click.Path`` does."""
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        if "\0" in text:
            self.fail(NUL_MESSAGE, param, ctx)
        return super().convert(value, param, ctx)


def resolved(path: Path) -> Path | None:
    """``path`` made absolute with every symbolic link followed, or None when it cannot be.

    ``Path.resolve`` raises on a loop of links (``RuntimeError`` up to Python 3.12,
    ``OSError`` with ELOOP later) and on a path too long for the system; a path named in
    data must give a message, not a crash.
    """
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return None
