"""The options commands share, declared once, and how a build's result is reported.

``--data``, ``--out``/``--paper``, ``--tables``/``--seed``/``--templates``: the core
commands and the rulesets' own commands take them from here, so an option means the same
in every command that has it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from generator.core.commandline import say, tell, warn
from generator.core.pathargs import SafePath

F = TypeVar("F", bound=Callable[..., Any])


def data_option(func: F) -> F:
    """``--data DIR`` (repeatable): the user's own folders of YAML."""
    return click.option("--data", "data", multiple=True,
                        type=SafePath(path_type=Path, file_okay=True),
                        help="Your own folder of YAML classes and scenarios "
                             "(extends and may override the bundled ones). Repeatable.")(func)


def write_options(func: F) -> F:
    """``--out DIR`` and ``--paper a4|letter`` for every command that writes PDFs."""
    # Case-insensitive: click hands back the choice as spelt here, so A4 arrives as a4.
    func = click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False),
                        default="a4", show_default=True, help="Paper size.")(func)
    func = click.option("--out", type=SafePath(path_type=Path, file_okay=False),
                        default=Path("output"), show_default=True,
                        help="Output folder.")(func)
    return func


class SeedType(click.ParamType):  # type: ignore[type-arg]
    """``--seed N`` (0..999999999) or ``--seed random`` (a fresh seed, printed on the sheets)."""

    name = "N|random"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        """A whole number in range, or a fresh seed for 'random'."""
        from generator.rules.dice import SEED_LIMIT, fresh_seed

        if isinstance(value, int):
            return value
        text = str(value).strip()
        if text.lower() == "random":
            return fresh_seed()
        # ASCII digits only ('²' is a digit to isdigit() but not to int()), and few of them
        # (int() refuses more than 4,300 digits; no seed has more than nine).
        if text.isascii() and text.isdigit() and len(text) <= 9 and int(text) < SEED_LIMIT:
            return int(text)
        self.fail(f"found '{text}', expected a whole number from 0 to {SEED_LIMIT - 1:,} "
                  "or 'random'", param, ctx)


def tables_options(func: F) -> F:
    """``--tables FILE`` and ``--seed N`` for every command that prints rules tables."""
    func = click.option("--seed", type=SeedType(), default=None,
                        help="Build seed for the pre-rolled dice (each packet's sheet gets "
                             "its own seed from it; the manifest records it). 'random' "
                             "draws a fresh one. Default: from the scenario id, so a kit "
                             "always prints the same dice.")(func)
    func = click.option("--tables", "tables", type=SafePath(path_type=Path, dir_okay=False),
                        default=None,
                        help="YAML file replacing some of the ruleset's tables with your "
                             "own values (see docs/tables-<ruleset>.md).")(func)
    return templates_option(func)


def templates_option(func: F) -> F:
    """``--templates DIR``: the user's Jinja2 templates, overriding bundled ones by name."""
    return click.option("--templates", "templates",
                        type=SafePath(path_type=Path, file_okay=False), default=None,
                        help="Folder of your own text templates; one with the same "
                             "relative name as a bundled one replaces it "
                             "(see docs/templates.md).")(func)


def report(result: Any, quiet: bool = False) -> None:
    """Print a build's notices, warnings and files."""
    for notice in result.notices:
        tell(f"note: {notice}")
    for message in result.warnings:
        warn(message)
    if not quiet:
        for name, pages in result.files.items():
            say(f"wrote {result.folder / name} ({pages} page{'s' if pages != 1 else ''})")
        say(f"wrote {result.manifest}")
        for line in getattr(result, "exports", []):
            say(f"wrote {line}")
