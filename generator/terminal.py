"""The terminal: where commands print tables and answers that hold user text."""

from __future__ import annotations

from typing import Any


def user_console(**options: Any) -> Any:
    """A rich console for printing user text: no emoji codes (':fire:' stays ':fire:').

    rich replaces ``:name:`` codes even in escaped markup, so a ship's name would not
    print as its owner typed it. ``options`` go to ``rich.console.Console``; rich is
    imported here, on first use (light commands that print nothing never load it).
    """
    from rich.console import Console

    return Console(emoji=False, **options)
