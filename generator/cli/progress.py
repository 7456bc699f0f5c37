"""The progress bar long commands (``build``, ``event``) draw on a terminal.

Run as a job of ``quarterdeck serve`` (``QUARTERDECK_PROGRESS=lines``), the same
commands report their progress as lines the server reads (``generator.web.jobs``).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any


def shown(quiet: bool) -> bool:
    """Whether a command shows its progress: on a terminal, or to the web server's job."""
    from generator.web.jobs import PROGRESS_ENV

    return not quiet and (sys.stderr.isatty() or os.environ.get(PROGRESS_ENV) == "lines")


@contextlib.contextmanager
def progress_bar(description: str, counter: str) -> Iterator[Callable[..., None]]:
    """A transient progress bar on stderr; yields ``update(**fields)`` to move it.

    rich is imported only when there is a terminal to draw on. No refresh thread: builds
    fork, which is only safe in a single-threaded process, so the bar is redrawn as each
    update arrives instead. A new description is shown as text, never as markup.
    """
    from generator.web.jobs import PROGRESS_ENV

    if os.environ.get(PROGRESS_ENV) == "lines" and not sys.stderr.isatty():
        yield _lines(description)
        return
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


def _lines(description: str) -> Callable[..., None]:
    """``update(**fields)`` as ``progress_bar`` takes it, writing progress lines instead."""
    from generator.web.jobs import progress_line

    state = {"completed": 0, "total": 0}
    said = [description]

    def update(**fields: Any) -> None:
        state["total"] = int(fields.get("total", state["total"]) or 0)
        state["completed"] = int(fields.get("completed", state["completed"]
                                            + int(fields.get("advance", 0))))
        said[0] = str(fields.get("description", said[0]))
        print(progress_line(state["completed"], state["total"], said[0]), file=sys.stderr,
              flush=True)

    return update
