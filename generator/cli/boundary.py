"""The one error boundary every ``quarterdeck`` command runs inside.

The root group runs each command through ``guarded``: whatever escapes a command (or the
finding and loading of one) is handed to ``generator.core.commandline.reported``, so a
QuarterdeckError is a located message with exit 2, an interruption exit 130, a closed
pipe exit 141 and anything unexpected "internal error" with exit 70 — never a
traceback, whether or not the command wrapped its own body in ``reported``. click's own
errors and exits pass through to click, their messages made inert.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from typing import Any, NoReturn, TypeVar

import click

from generator.core.commandline import reported
from generator.core.terminal import inert

T = TypeVar("T")


@contextlib.contextmanager
def inert_usage_errors() -> Iterator[None]:
    """Show click's own errors (``Error: No such command '...'``) with user text inert.

    click quotes what was typed (a command, an option, a value) in its messages and
    prints them itself; the message an error shows is made inert on its way out.
    """
    try:
        yield
    except click.ClickException as exc:
        shown = exc.format_message
        setattr(exc, "format_message", lambda: inert(shown()))  # noqa: B010 (a method)
        raise


def guarded(call: Callable[[], T]) -> T:
    """``call()`` inside the boundary: what escapes it is reported as ``reported`` does.

    click's exceptions (usage errors, ``--help``'s exit, an abort) are click's to show;
    ``SystemExit`` is a status already decided. Anything else is raised again inside
    ``reported``, the boundary's one implementation, which prints it and exits.
    """
    with inert_usage_errors():
        try:
            return call()
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - the boundary itself
            reported(functools.partial(_raise, exc))()
            raise  # not reached: reported exits for every exception it is given


def _raise(exc: BaseException) -> NoReturn:
    """Raise ``exc`` again (inside ``reported``, which prints it and exits)."""
    raise exc


def inert_output(callback: Callable[..., Any]) -> Callable[..., Any]:
    """``callback`` with stdout and stderr inert while it runs (``terminal.InertStream``).

    A ruleset's command may print user text (a label from a ``--tables`` file) with
    ``click.echo`` rather than through ``say``, ``tell`` or ``user_console``.
    """
    from generator.core.terminal import InertStream

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = InertStream(saved[0]), InertStream(saved[1])
        try:
            return callback(*args, **kwargs)
        finally:
            sys.stdout, sys.stderr = saved

    run.inert = True  # type: ignore[attr-defined]
    return run
