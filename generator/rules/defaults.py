"""DEFAULT: a value the rule text omits or garbles, chosen by quarterdeck and labelled.

One mechanism for every ruleset. In the data, a mapping the kit chose whole (a table, a
row, a set of checks) says ``default: true`` (the ``Default`` field); a mapping some of
whose entries the kit chose lists their keys under ``defaults:`` (the ``Defaults``
field), which is how a scalar (a rounding rule) or a table's key is marked. ``is_default``
reads either. On the page, ``mark`` (or ``label``) puts the one label beside the value.

A DEFAULT is the user's to replace: a table a ``--tables`` file replaces is the user's,
so it is no longer marked unless the file marks it (``generator.rules.tables`` drops a
replaced key from the file's top-level ``defaults`` unless the user's file gives its own
``defaults``; a replaced table's ``default`` flag is what the user's file says, false
unless it says so).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

from pydantic import Field

LABEL = "DEFAULT"
"""The label of a value quarterdeck chose."""

Default = Annotated[bool, Field(
    description="True when quarterdeck chose this where the rule text is silent or garbled "
                "(printed DEFAULT); replace it with your own reading.")]
"""The flag of a mapping the kit chose whole (a field named ``default``, false unless set)."""

Defaults = Annotated[list[Annotated[str, Field(max_length=60)]], Field(
    max_length=60, description="The keys here that quarterdeck chose where the rule text is "
                               "silent or garbled (printed DEFAULT).")]
"""The keys of a mapping the kit chose (a field named ``defaults``)."""


def is_default(holder: object, key: str | None = None) -> bool:
    """Whether ``holder`` (or its entry ``key``) is one quarterdeck chose.

    Args:
        holder: A model with a ``default`` flag, a ``defaults`` list, or both.
        key: An entry of ``holder`` (a scalar's name, a table's key); None for the whole.

    """
    if key is None:
        return bool(getattr(holder, "default", False))
    keys: Iterable[str] = getattr(holder, "defaults", ()) or ()
    return key in keys


def label(default: bool, detail: str = "") -> str:
    """The label that follows a value quarterdeck chose: ``" (DEFAULT)"``, else nothing.

    ``detail`` says what was chosen or why, inside the label: ``" (DEFAULT length)"``,
    ``" (DEFAULT reading: the text does not say)"``.
    """
    if not default:
        return ""
    return f" ({LABEL} {detail})" if detail else f" ({LABEL})"


def mark(text: str, default: bool) -> str:
    """``text`` labelled as a DEFAULT when it is one: ``"Very Large (DEFAULT)"``."""
    return text + label(default)


def note(text: str, sign: str = "") -> str:
    """A note about values quarterdeck chose: ``"DEFAULT: the text lost the sign"``.

    ``sign`` is the mark that ties the note to its values on the page (``"* DEFAULT: ..."``).
    """
    return f"{sign} {LABEL}: {text}" if sign else f"{LABEL}: {text}"


def replaced_defaults(defaults: Iterable[str], replaced: Iterable[str]) -> list[str]:
    """A file's top-level ``defaults`` once the user's file replaced ``replaced``."""
    gone = set(replaced)
    return [key for key in defaults if key not in gone]
