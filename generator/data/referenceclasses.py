"""Whom a one-ship proof kit matches a class against: a ruleset's reference classes.

A proof kit (``quarterdeck build --class ID``) shows how a new class fires and is fired
upon by matching it against a few well-known classes of the other side. Each ruleset
names them in its own ``tables/reference-classes.yaml``; the file's shape and the choice
of side are the same for every ruleset, so they are read here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

from generator.data.datamodel import Strict

if TYPE_CHECKING:
    from generator.data.library import Library


class ReferenceClasses(Strict):
    """``tables/reference-classes.yaml``: whom a proof kit matches a class against."""

    axis_navies: list[str] = Field(max_length=20)
    allied: list[str] = Field(min_length=1, max_length=10)
    axis: list[str] = Field(min_length=1, max_length=10)


def reference_classes(path: Path, shown: str, library: Library, ruleset: str,
                      own: Any) -> list[Any]:
    """The other side's reference classes the library holds, ``own`` left out.

    A class of a navy listed under ``axis_navies`` meets the ``allied`` set, any other
    the ``axis`` set; a class missing from the library (a user's ``--data`` may remove
    one) is passed over.

    Args:
        path: The ruleset's ``reference-classes.yaml``.
        shown: How messages name that file.
        library: The library the classes come from.
        ruleset: The ruleset whose class models to return.
        own: The class of the proof (its ``id`` and ``nation``).

    Returns:
        The ruleset's class models, in the file's order.

    """
    from generator.data.validation import load_model

    chosen = load_model(ReferenceClasses, path, shown)
    known = library.classes_of(ruleset)
    names = chosen.allied if own.nation.value in chosen.axis_navies else chosen.axis
    return [known[c].model for c in names if c in known and c != own.id]
