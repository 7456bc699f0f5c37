"""The options commands share, each declared once, and how a build's result is reported.

``--data``, ``--out``/``--paper``, ``--tables``/``--seed``/``--templates``, ``--ruleset``,
``--dpi``...: the core commands and the rulesets' own commands take them from here, so an
option means the same (its type, its checks, its default) in every command that has it.
Where commands differ only in what the help says about it, the decorator takes that text.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

import click

from generator.core.commandline import say, tell, warn
from generator.core.pathargs import SafePath

F = TypeVar("F", bound=Callable[..., Any])


class Decorator(Protocol):
    """What an option factory gives: a decorator that adds the option to a command."""

    def __call__(self, func: F, /) -> F:
        """``func`` with the option added."""


def data_option(func: F) -> F:
    """``--data DIR`` (repeatable): the user's own folders of YAML."""
    return click.option("--data", "data", multiple=True,
                        type=SafePath(path_type=Path, file_okay=True),
                        help="Your own folder of YAML classes and scenarios "
                             "(extends and may override the bundled ones). Repeatable.")(func)


def out_option(help: str | None = "Output folder.", default: Path | None = Path("output"),
               *, file: bool = False, required: bool = False) -> Decorator:
    """``--out``: the folder (or with ``file``, the one file) a command writes."""
    kind = SafePath(path_type=Path, dir_okay=False) if file \
        else SafePath(path_type=Path, file_okay=False)
    return click.option("--out", type=kind, default=default, required=required,
                        show_default=default is not None, help=help)


def paper_option(func: F) -> F:
    """``--paper a4|letter``."""
    # Case-insensitive: click hands back the choice as spelt here, so A4 arrives as a4.
    return click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False),
                        default="a4", show_default=True, help="Paper size.")(func)


def write_options(func: F) -> F:
    """``--out DIR`` and ``--paper a4|letter`` for every command that writes PDFs."""
    return out_option()(paper_option(func))


def ruleset_option(help: str, *, multiple: bool = False) -> Decorator:
    """``--ruleset NAME`` (``rulesets``, repeatable, with ``multiple``)."""
    return click.option("--ruleset", "rulesets" if multiple else "ruleset", multiple=multiple,
                        default=None, help=help)


def scenario_option(help: str | None = None, *, alias: bool = False) -> Decorator:
    """``--scenario ID``: a scenario by id (``scenario``).

    With ``alias`` it is the old spelling of a command's SCENARIO argument, kept working
    but hidden from the help (``scenario_option``; the command says which one counts).
    """
    return click.option("--scenario", "scenario_option" if alias else "scenario",
                        hidden=alias, default=None, help=None if alias else help)


def nation_option(help: str, default: str | None = None) -> Decorator:
    """``--nation CODE``: a navy (US, JP...); ``default`` when the command needs one."""
    return click.option("--nation", "nation", default=default,
                        show_default=default is not None, help=help)


def class_option(help: str) -> Decorator:
    """``--class ID``: one ship class (``class_id``)."""
    return click.option("--class", "class_id", default=None, help=help)


def ship_option(help: str) -> Decorator:
    """``--ship NAME``: one ship of a class."""
    return click.option("--ship", default=None, help=help)


def quiet_option(func: F) -> F:
    """``--quiet``/``-q``: no progress display."""
    return click.option("--quiet", "-q", is_flag=True, help="No progress display.")(func)


def component_option(help: str) -> Decorator:
    """``--component``: which piece of one class to render (``kind``)."""
    # Free text: each ruleset offers its own components (``kit.preview.component_names``),
    # and an unknown one is an error listing them.
    return click.option("--component", "kind", default="status", show_default=True,
                        help=help)


def png_option(help: str, *, folder: bool = False) -> Decorator:
    """``--png``: the PNG file to write (with ``folder``, a folder of them)."""
    kind = SafePath(path_type=Path, file_okay=False) if folder \
        else SafePath(path_type=Path, dir_okay=False)
    return click.option("--png", "png", type=kind, default=None, help=help)


def dpi_option(low: int = 36, high: int = 600, default: int = 100,
               help: str | None = None) -> Decorator:
    """``--dpi N``: a PNG's resolution, within what the command can render."""
    return click.option("--dpi", type=click.IntRange(low, high), default=default,
                        show_default=True, help=help)


def tables_option(detail: str | None = None) -> Decorator:
    """``--tables FILE``: the user's YAML replacing some of the ruleset's tables.

    ``detail`` says which tables a command reads, or where they are described.
    """
    text = "YAML file replacing some of the ruleset's tables with your own values"
    return click.option("--tables", "tables", type=SafePath(path_type=Path, dir_okay=False),
                        default=None, help=f"{text} ({detail})." if detail else f"{text}.")


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
    """``--tables FILE``, ``--seed N`` and ``--templates`` for commands that print rules tables."""
    func = click.option("--seed", type=SeedType(), default=None,
                        help="Build seed for the pre-rolled dice (each packet's sheet gets "
                             "its own seed from it; the manifest records it). 'random' "
                             "draws a fresh one. Default: from the scenario id, so a kit "
                             "always prints the same dice.")(func)
    func = tables_option("see docs/tables-<ruleset>.md")(func)
    return templates_option(func)


def print_shop_option(func: F) -> F:
    """``--print-shop``: PDF/X-4 files in CMYK, for a print shop (``print_shop``)."""
    return click.option("--print-shop", "print_shop", is_flag=True,
                        help="Write print-shop files (PDF/X-4): colours in CMYK through "
                             "the kit's output profile, text and rules in black ink only "
                             "(see docs/clubs.md).")(func)


def card_size_option(func: F) -> F:
    """``--card-size``: the standard size decks print at (``decks.CARD_SIZES``)."""
    return click.option("--card-size", "card_size", default="poker", show_default=True,
                        type=click.Choice(["poker", "mini", "tarot"]),
                        help="Card size of decks: poker 63.5 x 88.9 mm, mini 44 x 63 mm, "
                             "tarot 70 x 120 mm.")(func)


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
