"""The rulesets' own commands, added to ``quarterdeck`` through the seam.

Each ruleset brings its commands with ``Ruleset.commands`` (by default those of its
folder's ``commands.py``). They are imported only when a command not among the core
ones is asked for; ``--help`` lists them from the user cache (names and one-line help,
keyed like the ruleset order), so it imports no ruleset. Nothing here names a ruleset.
"""

from __future__ import annotations

import click

from generator.cli.boundary import inert_output

_ADDED: dict[int, list[str]] = {}
"""Per group (by id): the names of the commands the rulesets added to it, once they were."""


def add_commands(group: click.Group) -> list[str]:
    """Add every ruleset's commands to ``group`` once; their names.

    A ruleset's command runs with its output inert (``boundary.inert_output``), and a
    name already taken is a ruleset's bug, reported by the boundary as one.
    """
    from generator.rulesets import REGISTRY

    if id(group) in _ADDED:
        return _ADDED[id(group)]
    added = _ADDED[id(group)] = []  # once, even when no ruleset brings a command
    for ruleset in REGISTRY.values():
        for command in ruleset.commands():
            if command.name in group.commands:
                raise RuntimeError(f"ruleset {ruleset.name} adds a command "
                                   f"'{command.name}' that already exists")
            if command.callback is not None and not hasattr(command.callback, "inert"):
                command.callback = inert_output(command.callback)
            group.add_command(command)
            added.append(str(command.name))
    return added


def command_help(group: click.Group) -> dict[str, str]:
    """Each ruleset command's one-line help, by name, from the user cache when it can."""
    from generator.cache import key, remember, text_map
    from generator.rulesets import cache_key

    # The rulesets' key stamps their modules; the help text comes from nowhere else.
    rulesets = cache_key()
    return remember("commands", key("commands", rulesets) if rulesets is not None else None,
                    lambda: {name: group.commands[name].get_short_help_str(limit=200)
                             for name in add_commands(group) if name in group.commands},
                    text_map)
