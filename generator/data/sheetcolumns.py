"""A sheet's header: which field of the class model each column fills.

A header names a field of ``generator.data.shipclass.ShipClass`` as a dotted path
(``name``, ``armor.belt_in``, ``guns.0.bore_in``, ``ships.name``), perhaps with a unit
(``length (m)``, converted to the field's own). How a field's value sits in one cell
(``cell_shape``: a value, a line per entry, or a cell of YAML) is shared with the
export, which writes the same header.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from generator.core.errors import Problem
from generator.core.suggest import did_you_mean
from generator.core.units import QUANTITIES, unit_kind
from generator.data.sheettable import ROW_LIST, Table
from generator.data.shipclass import ShipClass
from generator.data.validation import describe

HEADER = re.compile(r"^\s*(?P<path>[A-Za-z_][\w.\-]*?)\s*(?:\((?P<unit>[^()]*)\))?\s*$")


@dataclass(frozen=True)
class Column:
    """What one column fills."""

    column: int
    path: tuple[str | int, ...]
    """Field path; for a per-row list it holds no index after ``ships``."""
    annotation: Any
    shape: Literal["value", "lines", "yaml"]
    unit: str | None = None
    """The header's unit, converted to ``field_unit``."""
    field_unit: str | None = None


def unwrap(annotation: Any) -> Any:
    """``X`` for ``X | None``; any other annotation as it is."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def is_model(annotation: Any) -> bool:
    """Whether the annotation is a model (its fields are columns of their own)."""
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def fields_of(model: type[BaseModel]) -> dict[str, Any]:
    """The model's fields by the key a file uses (alias where set)."""
    return {info.alias or name: info for name, info in model.model_fields.items()}


def list_item(annotation: Any) -> Any:
    """The item type of a list annotation (``Any`` when it names none)."""
    return unwrap(typing.get_args(annotation)[0]) if typing.get_args(annotation) else Any


def _max_items(info: Any) -> int:
    return min((getattr(m, "max_length", None) or 10**6 for m in info.metadata), default=10**6)


def cell_shape(annotation: Any, nested_in_row: bool) -> Literal["value", "lines", "yaml"] | None:
    """How a value of this type sits in one cell; None when it spans several columns."""
    annotation = unwrap(annotation)
    if typing.get_origin(annotation) is dict:
        return "yaml"
    if typing.get_origin(annotation) is list:
        item = list_item(annotation)
        if is_model(item):
            return "yaml" if nested_in_row else None
        return "lines"
    if is_model(annotation):
        return "yaml" if nested_in_row else None
    return "value"


def _field_unit(key: str) -> str | None:
    suffix = key.rsplit("_", 1)[-1] if "_" in key else ""
    return suffix if unit_kind(suffix) else None


def parse_header(table: Table) -> tuple[list[Column], list[Problem]]:
    """The columns the header names, and a located problem for every header cell it cannot use."""
    columns: list[Column] = []
    problems: list[Problem] = []
    used_columns = {c for _, cells in table.rows for c in cells}
    for col in sorted(set(table.header) | used_columns):
        text = table.header.get(col)
        if text is None:
            problems.append(table.problem(1, col, "", "found an empty header above values, "
                                          "expected the field the column fills, such as "
                                          "'name' or 'length (m)'"))
            continue
        column, problem = _column(table, col, str(text))
        if problem is not None:
            problems.append(problem)
            written = HEADER.match(str(text))
            if written is not None:
                table.refused.add(written.group("path"))
        elif column is not None:
            columns.append(column)
    seen: dict[tuple[Any, ...], int] = {}
    from openpyxl.utils import get_column_letter

    for column in columns:
        if column.path in seen:
            problems.append(table.problem(1, column.column, dotted(column.path), f"found the "
                                          f"field again (also column "
                                          f"{get_column_letter(seen[column.path])}), expected "
                                          "each field in one column"))
        seen.setdefault(column.path, column.column)
    problems += _missing_columns(table, columns)
    return columns, problems


def dotted(path: Iterable[str | int]) -> str:
    """A field path as a header writes it (``guns.0.bore_in``)."""
    return ".".join(str(p) for p in path)


def _column(table: Table, col: int, text: str) -> tuple[Column | None, Problem | None]:
    match = HEADER.match(text)
    if match is None or len(text) > 200:
        return None, table.problem(1, col, "", f"found the header {describe(text)}, expected a "
                                   "field path such as 'name', 'guns.0.bore_in' or "
                                   "'length (m)'")
    parts = match.group("path").split(".")
    unit = match.group("unit").strip() if match.group("unit") is not None else None
    model: Any = ShipClass
    path: list[str | int] = []
    in_row = False
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if not is_model(model):
            return None, table.problem(1, col, dotted(path), f"found '{part}' after "
                                       f"'{dotted(path)}', expected nothing more (it holds "
                                       "one value)")
        fields = fields_of(model)
        key, info = part, fields.get(part)
        if info is None and last and unit is not None:
            key = next((k for k in fields if k.startswith(part + "_") and _field_unit(k)), part)
            info = fields.get(key)
        if info is None:
            choices = [k.rsplit("_", 1)[0] if _field_unit(k) else k for k in fields]
            return None, table.problem(1, col, dotted([*path, part]), f"found unknown field "
                                       f"'{part}', expected one of "
                                       f"{', '.join(dict.fromkeys(fields))}"
                                       f"{did_you_mean(part, [*fields, *choices])}")
        path.append(key)
        annotation = unwrap(info.annotation)
        if last:
            break
        if typing.get_origin(annotation) is list and is_model(list_item(annotation)):
            following = parts[i + 1]
            if following.isdigit():
                index = int(following)
                if index >= _max_items(info):
                    return None, table.problem(1, col, dotted(path), f"found item {index}, "
                                               f"expected at most {_max_items(info)} items "
                                               f"(0-{_max_items(info) - 1})")
                path.append(index)
                parts_left = parts[i + 2:]
                if not parts_left:
                    return None, table.problem(1, col, dotted(path), "found an item with no "
                                               f"field, expected e.g. '{dotted(path)}."
                                               f"{next(iter(fields_of(list_item(annotation))))}'")
                rest = ".".join(parts_left)
                inner, problem = _column_in(table, col, list_item(annotation), rest, unit,
                                            tuple(path), in_row)
                return inner, problem
            if key != ROW_LIST or path != [ROW_LIST]:
                return None, table.problem(1, col, dotted(path), f"found no item number, "
                                           f"expected one such as '{dotted(path)}.0."
                                           f"{following}' (only ships may take a row each)")
            in_row = True
            model = list_item(annotation)
            continue
        model = annotation
    return _finish(table, col, tuple(path), annotation, unit, in_row)


def _column_in(table: Table, col: int, model: Any, rest: str, unit: str | None,
               prefix: tuple[str | int, ...], in_row: bool) -> tuple[Column | None,
                                                                    Problem | None]:
    """Resolve the rest of a header inside a list item (``guns.0.`` + ``bore (mm)``)."""
    sub = Table(table.display, table.sheet, {col: rest + (f" ({unit})" if unit else "")})
    column, problem = _resolve_from(sub, col, model, rest, unit)
    if problem is not None:
        # Report the whole path, not the part after the index.
        return None, table.problem(1, col, dotted([*prefix, *problem.path.split(".")])
                                   if problem.path else dotted(prefix), problem.message)
    assert column is not None
    shape = column.shape
    if in_row and shape != "value":
        shape = "yaml" if shape is None else shape
    return Column(col, (*prefix, *column.path), column.annotation, shape, column.unit,
                  column.field_unit), None


def _resolve_from(table: Table, col: int, model: Any, rest: str,
                  unit: str | None) -> tuple[Column | None, Problem | None]:
    parts = rest.split(".")
    path: list[str | int] = []
    annotation: Any = model
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if not is_model(annotation):
            return None, table.problem(1, col, dotted(path), f"found '{part}', expected "
                                       "nothing more (the field holds one value)")
        fields = fields_of(annotation)
        key, info = part, fields.get(part)
        if info is None and last and unit is not None:
            key = next((k for k in fields if k.startswith(part + "_") and _field_unit(k)), part)
            info = fields.get(key)
        if info is None:
            return None, table.problem(1, col, dotted([*path, part]), f"found unknown field "
                                       f"'{part}', expected one of {', '.join(fields)}"
                                       f"{did_you_mean(part, list(fields))}")
        path.append(key)
        annotation = unwrap(info.annotation)
        if not last and not is_model(annotation):
            return None, table.problem(1, col, dotted(path), f"found '{parts[i + 1]}' after "
                                       "it, expected nothing more (it holds one value or a "
                                       "cell of YAML)")
    return _finish(table, col, tuple(path), annotation, unit, True)


def _finish(table: Table, col: int, path: tuple[str | int, ...], annotation: Any,
            unit: str | None, in_row: bool) -> tuple[Column | None, Problem | None]:
    shape = cell_shape(annotation, in_row)
    if shape is None:
        example = next(iter(fields_of(list_item(annotation) if typing.get_origin(annotation)
                                    is list else annotation)))
        index = ".0" if typing.get_origin(annotation) is list else ""
        return None, table.problem(1, col, dotted(path), f"found a field that holds several "
                                   f"values, expected one of its fields, e.g. "
                                   f"'{dotted(path)}{index}.{example}'")
    own = _field_unit(str(path[-1]))
    if unit is None:
        return Column(col, path, annotation, shape), None
    kind = unit_kind(own) if own else None
    if kind is None:
        return None, table.problem(1, col, dotted(path), f"found the unit '{unit}', expected "
                                   "no unit: the field is not a length, mass or speed")
    if unit_kind(unit) != kind:
        return None, table.problem(1, col, dotted(path), f"found the unit '{unit}', expected "
                                   f"a {kind} unit: {', '.join(QUANTITIES[kind])}"
                                   f"{did_you_mean(unit, QUANTITIES[kind])}")
    return Column(col, path, annotation, shape, unit, own), None


def is_refused(table: Table, path: str) -> bool:
    """Whether a problem at ``path`` follows from a header cell already refused."""
    return any(path.startswith(prefix) for prefix in table.refused)


def _missing_columns(table: Table, columns: list[Column]) -> list[Problem]:
    """One problem per required top-level field no column fills (``id`` first)."""
    filled = {c.path[0] for c in columns}
    problems = []
    for key, info in fields_of(ShipClass).items():
        if is_refused(table, key):
            continue
        if info.is_required() and key not in filled and key != "kind":
            hint = f" or '{key.rsplit('_', 1)[0]} (unit)'" if _field_unit(key) else ""
            table.refused.add(key)  # each row need not say it lacks the value too
            problems.append(table.problem(1, 1, key, f"found no column, expected a header "
                                          f"'{key}'{hint} (required)"))
    return problems
