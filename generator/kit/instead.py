"""Where a ruleset's output lives when the asked command prints none for it.

``quarterdeck rulers`` on a modern scenario, ``tables`` on a Rule 27 one: a user who asks
a ruleset for an output it does not make is told which command makes what they are after,
worked out from what the ruleset registers (its recipes, its calculators), so no pair of
command and ruleset needs its own sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.kit.seam import Command, Ruleset

AIDS = ("rulers", "strings", "gauges")
"""The shared measuring-aid commands: one stands in for another."""


def _has(ruleset: Ruleset[Any], command: Command) -> bool:
    """Whether the ruleset's recipes print something for ``command``."""
    return getattr(ruleset.recipes, "class_" if command == "class" else command) is not None


def _quoted(commands: list[str]) -> str:
    """``quarterdeck X`` and ``quarterdeck Y``, as a message names commands."""
    return " and ".join(f"`quarterdeck {c}`" for c in commands)


def instead(ruleset: Ruleset[Any], command: Command) -> str:
    """What to run instead of ``command``, for the ruleset that prints nothing for it.

    A missing measuring aid points to the aids the ruleset does print; a missing tables
    output to its kit and its calculators; anything else to its kit, where everything it
    prints is.
    """
    if command in AIDS:
        others = [c for c in AIDS if c != command and _has(ruleset, c)]  # type: ignore[arg-type]
        if others:
            return f"its measuring aids come with {_quoted(others)}"
        return ("it prints no rulers, strings or gauges; everything it prints comes with "
                "`quarterdeck build SCENARIO`")
    if command == "tables":
        calculators = [c.command for c in ruleset.calculators()]
        said = (f"; {_quoted(calculators)} answer{'s' if len(calculators) == 1 else ''} its "
                "odds exactly" if calculators else "")
        return f"its tables are in its kit, `quarterdeck build SCENARIO`{said}"
    if command == "markers":
        return "its pieces are in its kit, `quarterdeck build SCENARIO`"
    return "everything it prints comes with `quarterdeck build SCENARIO`"
