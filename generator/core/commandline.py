"""What every command prints through: result lines, messages, warnings, the error boundary.

User text in any of them is shown inert (``generator.core.terminal.inert``); only
quarterdeck's own labels are coloured. ``reported`` turns quarterdeck's errors into
messages and exit statuses (2 for the user's data or usage, 1 for output, 70 for a bug),
never a traceback. The core commands and every ruleset's own commands use these, so
there is one boundary for all of them.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from generator.core.errors import DataError, QuarterdeckError
from generator.core.terminal import inert

F = TypeVar("F", bound=Callable[..., Any])


def say(message: str) -> None:
    """Print a result line on stdout; user text in it is shown inert (``terminal.inert``)."""
    click.echo(inert(message))


def tell(message: str) -> None:
    """Print a message on stderr; user text in it is shown inert (``terminal.inert``)."""
    click.echo(inert(message), err=True)


def labelled(label: str, colour: str, message: str, *, bold: bool = False) -> None:
    """Print ``label message`` on stderr, the label in colour on a terminal.

    Only ``message`` is made inert: the label's colour is quarterdeck's own escape
    sequence (click drops it when stderr is not a terminal).
    """
    click.echo(f"{click.style(label, fg=colour, bold=bold)} {inert(message)}", err=True)


def reported(func: F) -> F:
    """Turn quarterdeck errors into messages and exit statuses, never tracebacks."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except DataError as exc:
            for problem in exc.problems:
                tell(str(problem))
            labelled("error:", "red", str(exc), bold=True)
            sys.exit(exc.exit_code)
        except QuarterdeckError as exc:
            labelled("error:", "red", str(exc), bold=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            tell("interrupted; nothing half-written was left behind")
            sys.exit(130)
        except click.ClickException:  # a usage error click reports itself (exit 2)
            raise
        except BrokenPipeError:  # output piped into a reader that stopped (| head)
            # Nothing more can be said there: end as a pipe's writer does.
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except Exception as exc:  # a bug: say so plainly, keep the details for a report
            if os.environ.get("QUARTERDECK_DEBUG"):
                raise
            labelled("internal error:", "red",
                     f"{type(exc).__name__}: {str(exc)[:300]}\nThis is a bug in quarterdeck; "
                     "run again with QUARTERDECK_DEBUG=1 for the details and report them.",
                     bold=True)
            sys.exit(70)

    return wrapper  # type: ignore[return-value]


def warn(message: str) -> None:
    """Print a warning on stderr."""
    labelled("warning:", "yellow", message)
