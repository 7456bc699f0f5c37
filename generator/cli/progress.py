"""The progress bar long commands (``build``, ``event``) draw on a terminal."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any


@contextlib.contextmanager
def progress_bar(description: str, counter: str) -> Iterator[Callable[..., None]]:
    """A transient progress bar on stderr; yields ``update(**fields)`` to move it.

    rich is imported only when there is a terminal to draw on. No refresh thread: builds
    fork, which is only safe in a single-threaded process, so the bar is redrawn as each
    update arrives instead. A new description is shown as text, never as markup.
    """
    from rich.markup import escape
    from rich.progress import BarColumn, Progress, TextColumn

    from generator.core.terminal import user_console

    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                  TextColumn(counter), console=user_console(stderr=True), transient=True,
                  auto_refresh=False) as bar:
        task = bar.add_task(description, total=None)

        def update(**fields: Any) -> None:
            if "description" in fields:
                fields["description"] = escape(fields["description"])
            bar.update(task, **fields)
            bar.refresh()

        yield update
