"""The ``quarterdeck`` command: its root group, the commands in it, and the process exit.

The commands live one module per group of verbs (``kits``: build, tables, markers and the
aids; ``data``: check, list, scaffolds, spreadsheets, catalog, docs; ``calculators``:
odds; ``events``; ``preview``: preview and watch); each module lists its commands in
``COMMANDS``. The rulesets' own commands come through the seam (``Ruleset.commands``,
see ``generator.cli.rulesets``), loaded only when one is asked for. Every command runs
inside one error boundary (``generator.cli.boundary``).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from generator import __version__
from generator.cli import (
    calculators,
    data,
    events,
    kits,
    online,
    preflight,
    preview,
    rulesets,
    serve,
)
from generator.cli.boundary import guarded


class _Commands(click.Group):
    """The core commands plus the rulesets' own, importing a ruleset only when needed.

    ``--help`` lists the rulesets' commands from the user cache (their names and one-line
    help, keyed like the ruleset order), so it imports no ruleset either.
    """

    _listing = False

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        if self._listing:
            stub = rulesets.command_help(self).get(cmd_name)
            if stub is not None:
                return click.Command(cmd_name, help=stub)
        rulesets.add_commands(self)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = set(super().list_commands(ctx))
        if self._listing:
            names |= set(rulesets.command_help(self))
        else:
            rulesets.add_commands(self)
            names |= set(super().list_commands(ctx))
        return sorted(names)

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        # --help lists the rulesets' commands while parsing: inside the boundary too (a
        # ruleset that cannot load is its error, exit 2).
        return guarded(lambda: super(_Commands, self).make_context(info_name, args, parent,
                                                                   **extra))

    def invoke(self, ctx: click.Context) -> Any:
        # Finding the command (a ruleset's, imported now), parsing its options and
        # running it: all inside the boundary.
        return guarded(lambda: super(_Commands, self).invoke(ctx))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="quarterdeck")
def main() -> None:
    """Turn naval-wargame ship data into printed kits (status sheets, catalogs, packets)."""


for _module in (kits, calculators, data, preview, events, preflight, online, serve):
    for _command in _module.COMMANDS:
        main.add_command(_command)


def run() -> None:
    """The ``quarterdeck`` command: the CLI, then leave without tearing the heap down.

    When a command returns, everything it writes is written and closed; Python's orderly
    exit would then spend up to a tenth of a second freeing a build's objects one by one.
    The output streams are flushed and the process ends at once, with click's status.
    """
    from generator.core.terminal import inert

    try:
        main()
        status = 0
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            status = done.code or 0
        else:  # a message instead of a status, as sys.exit("...") gives
            print(inert(str(done.code)), file=sys.stderr)
            status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (| head): nothing more to say
            status = status or 120
    os._exit(status)
