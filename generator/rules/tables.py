"""The tables in force: a ruleset's bundled YAML tables, with the user's ``--tables`` file.

Every ruleset loads its tables one way. It lists its bundled tables once, as a
``TableSet`` of ``TableFile``s (a model and how to read it, usually ``bundled_file``);
``TableSet.load(user_file)`` gives the ``InForce`` tables: each model's bundled instance,
with any top-level table the user's file gives replacing its own. The user's file is one
file for the whole ruleset, so it may hold the keys of any of the set's models; it is
validated against them all, and every problem in it is reported at once, located
(``file:line:col: field.path: found X, expected Y``).

A replaced table is checked as the bundled one is: by its field's type (bounds, keys,
``AfterValidator`` rules), by the set's ``precheck`` on the raw document and by its
``check`` on the validated tables. A model validator does not run on a replacement
(``validation.optional_fields``), so a rule that must hold there belongs in a type. A key
the user replaces drops out of its file's top-level ``defaults`` (``rules.defaults``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from generator.core.errors import DataError, Problem
from generator.data.validation import load_model, load_overrides
from generator.data.yamlsource import SourceDoc
from generator.rules.defaults import replaced_defaults

M = TypeVar("M", bound=BaseModel)

Precheck = Callable[[SourceDoc], list[Problem]]
"""Checks on a raw document that locate problems better than the models can."""

Check = Callable[[dict[str, Any], SourceDoc], list[Problem]]
"""Checks on the tables a user's file gives (key to validated value), located in it."""


@dataclass(frozen=True, eq=False)
class TableFile(Generic[M]):
    """One model of a ruleset's tables and how its bundled instance is read.

    Attributes:
        model: The model (its fields are the top-level keys a user's file may replace).
        read: Returns the bundled instance (read once: the reader caches).

    """

    model: type[M]
    read: Callable[[], M]


def bundled_file(model: type[M], path: Path, display: str, *,
                 precheck: Precheck | None = None,
                 check: Callable[[M, SourceDoc], list[Problem]] | None = None
                 ) -> TableFile[M]:
    """A bundled YAML file of tables, read once per run (and kept in the user cache).

    Args:
        model: The model of the whole file.
        path: The file.
        display: How messages name it (``<ruleset>/tables/<file>``).
        precheck: Checks on the raw document, before the model.
        check: Checks on the valid instance.

    """
    @functools.cache
    def read() -> M:
        return load_model(model, path, display, precheck=precheck, check=check)

    return TableFile(model, read)


@dataclass(frozen=True)
class InForce:
    """The tables in force for one build: each model's instance, and what the user gave.

    Attributes:
        tables: Model to its instance in force (the bundled one unless replaced).
        replaced: The top-level keys the user's file gave, sorted.
        source: The user's file (None: the bundled tables only).
        positions: Where each given table starts in the user's file (line, column), so
            that a later problem (a page it overflows) can point at it.

    """

    tables: Mapping[type[BaseModel], BaseModel]
    replaced: tuple[str, ...] = ()
    source: Path | None = None
    positions: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    def __getitem__(self, model: type[M]) -> M:
        """The instance in force of ``model`` (one of the set's models)."""
        table = self.tables[model]
        if not isinstance(table, model):
            raise TypeError(f"{model.__name__}: found {type(table).__name__}")
        return table


def locate(display: str, positions: Mapping[str, tuple[int, int]], names: Iterable[str],
           message: str) -> Problem:
    """A problem the tables cause on a page, located at the user's table behind it.

    Args:
        display: The user's tables file as messages name it ('bundled' for none).
        positions: Where each table the file gives starts (``InForce.positions``).
        names: The tables the page section prints (their file keys).
        message: ``found X, expected Y``.

    Returns:
        The problem at the first of ``names`` the user's file replaced, else at the first
        table the file gives (bundled tables alone always fit).

    """
    keys = [n for n in names if n in positions] or list(positions)
    if not keys:
        return Problem(display, 0, 0, "", message)
    line, column = positions[keys[0]]
    return Problem(display, line, column, keys[0], message)


class TableSet:
    """A ruleset's tables: its bundled models, and the checks a user's file meets."""

    def __init__(self, *files: TableFile[Any], precheck: Precheck | None = None,
                 check: Check | None = None,
                 recast: Callable[[Problem], Problem] | None = None) -> None:
        """The set of ``files``.

        Args:
            files: Every model a ruleset's ``--tables`` file may replace keys of.
            precheck: Checks on the user's raw document, before the models.
            check: Checks on the tables the user's file gives, against each other and
                the bundled tables they join.
            recast: Rewrites one of the user's problems (a model's own message that
                names no choices) while it is still located.

        """
        self.files = files
        self.precheck = precheck
        self.check = check
        self.recast = recast

    def bundled(self) -> InForce:
        """The tables as bundled."""
        return InForce({f.model: f.read() for f in self.files})

    def load(self, user_file: Path | None) -> InForce:
        """The tables in force: the bundled ones, with ``user_file``'s tables replacing.

        Raises:
            DataError: Every problem in the user's file, located.

        """
        if user_file is None:
            return self.bundled()
        positions: dict[str, tuple[int, int]] = {}

        def check(given: dict[str, Any], doc: SourceDoc) -> list[Problem]:
            positions.update({key: doc.mark((key,), key=True) for key in given})
            return self.check(given, doc) if self.check is not None else []

        try:
            given = load_overrides(user_file, *(f.model for f in self.files),
                                   precheck=self.precheck, check=check)
        except DataError as error:
            if self.recast is None:
                raise
            raise DataError([self.recast(p) for p in error.problems]) from None
        tables: dict[type[BaseModel], BaseModel] = {}
        for one in self.files:
            update = fields_given(one.model, given)
            if update and "defaults" in one.model.model_fields and "defaults" not in update:
                # A table the user replaced is theirs: no longer quarterdeck's DEFAULT.
                update["defaults"] = replaced_defaults(one.read().defaults, given)
            # A model the file does not touch stays the bundled object itself.
            tables[one.model] = one.read().model_copy(update=update) if update else one.read()
        return InForce(tables, tuple(sorted(given)), user_file, positions)


def fields_given(model: type[BaseModel], given: Mapping[str, Any]) -> dict[str, Any]:
    """The given tables that belong to ``model``, by field name (a file keys them by alias)."""
    return {name: given[info.alias or name] for name, info in model.model_fields.items()
            if (info.alias or name) in given}
