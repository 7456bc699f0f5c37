"""Rewrite an old per-ruleset class file as one shared class file (``quarterdeck convert``).

The ruleset that owned the old file turns it into shared facts plus its own ``ratings:``
block (its ``Ruleset.from_old_file``). When that ruleset's files lacked facts the others
need (its ``Ruleset.old_file_lacks``), every other ruleset that rates shared classes is
marked unrated until a designer adds them. This module never names a ruleset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from generator.core.errors import DataError
from generator.data.shipclass import rating_modules
from generator.data.validation import describe
from generator.data.yamlsource import load_yaml

HEADER = ("# Ship class, written once for every ruleset. Reference: docs/shipdata.md\n"
          "# Converted by `quarterdeck convert` from a {ruleset} class file.\n")


def unrated_note(ruleset: str, lacks: str) -> str:
    """Why the other rulesets cannot rate a class converted from ``ruleset``'s file."""
    return (f"converted from a {ruleset} class file, which gives no {lacks}; add them and "
            "delete this line")


def convert_data(data: dict[str, Any], ruleset: str) -> dict[str, Any]:
    """A shared class file's data from an old per-ruleset class file's data."""
    from generator.data.registry import REGISTRY

    modules = rating_modules()
    out: dict[str, Any] = REGISTRY[ruleset].from_old_file(data)
    lacks = REGISTRY[ruleset].old_file_lacks
    if lacks:
        ratings = out.setdefault("ratings", {})
        for other in modules:
            if other != ruleset:
                ratings.setdefault(other, {})["unrated"] = unrated_note(ruleset, lacks)
    return out


def dump(data: dict[str, Any]) -> str:
    """YAML text of a class file, keys in the order given."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100,
                          default_flow_style=False)


def convert_file(path: Path) -> str:
    """The shared class file text for an old per-ruleset class file.

    Raises:
        DataError: The file is not a per-ruleset class file, or not a valid one.

    """
    doc, problems = load_yaml(path, str(path))
    if problems:
        raise DataError(problems)
    data = doc.data
    ruleset = data.get("ruleset") if isinstance(data, dict) else None
    from generator.data.registry import REGISTRY

    known = [name for name in rating_modules() if REGISTRY[name].converts_old_files]
    if not isinstance(data, dict) or data.get("kind") != "ship-class" or ruleset not in known:
        raise DataError([doc.problem(("ruleset",), f"found {describe(ruleset)}, expected a "
                                     f"class file of one ruleset ({', '.join(known)}) to "
                                     "convert")])
    # The old file is validated as the library reads it (its ruleset's class model)
    # before it is rewritten: a value of the wrong shape (``armor: abc``) is a located
    # problem here, not a failure halfway through the conversion.
    from generator.data.validation import validate

    model = REGISTRY[str(ruleset)].data_kinds.get("ship-class")
    if model is not None:
        _, problems = validate(model, doc)
        if problems:
            raise DataError(problems)
    return HEADER.format(ruleset=ruleset) + dump(convert_data(data, str(ruleset)))
