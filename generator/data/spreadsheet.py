"""Ship classes in from spreadsheets (``quarterdeck import``): cells to checked class files.

A sheet is a table whose first row names fields of the shared class model
(``generator.data.shipclass.ShipClass``) as dotted paths: ``name``, ``armor.belt_in``,
``guns.0.bore_in``, ``ships.name``. Rows with the same ``id`` are one class (an empty
``id`` continues the class above); ``ships.<field>`` columns give one ship per row, and
``ships.N.<field>`` columns give several ships on one row. A header may name a unit,
``length (m)`` or ``armor.belt (mm)``, and the values are converted to the field's own
unit (``length_ft``, ``belt_in``) through ``generator.core.units``. A list of texts
(``sources``, ``unverified``, ``ships.aka``) is one cell, a line for each entry; anything
deeper (``ratings``, ``ships.fits``) is a cell of YAML such as
``{<ruleset>: {<rating field>: <value>}}``. A cell holding ``""`` is the empty text.

Every cell is untrusted: the file, the rows, the columns and each cell's text are bounded,
merged cells and formulas are refused, and every problem is reported at its cell
(``ships.xlsx:Sheet1!C14`` or ``ships.csv:14:3``), all at once, before anything is written.
An .xlsx is bounded by what it really holds before openpyxl reads any of it (its zip's
parts, their XML, the cells of its first sheet that hold a value: ``generator.data.xlsxscan``), and
whatever openpyxl still raises is a located problem, never a traceback. The sheet's file
name is written into each class file only as one escaped comment line (``comment_text``).

The sheet is read by ``generator.data.sheetread`` (bounds in ``generator.data.sheettable``
and ``generator.data.xlsxscan``), its header by ``generator.data.sheetcolumns``; here its
cells become values, its rows classes, checked as ``check`` would a file and written one
file per class. The export is ``generator.data.sheetexport``.
"""

from __future__ import annotations

import datetime as dt
import enum
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.core.errors import DataError, Problem, UsageError
from generator.core.units import convert
from generator.data.sheetcolumns import Column, dotted, is_refused, parse_header, unwrap
from generator.data.sheetread import read_table
from generator.data.sheettable import (
    EMPTY_TEXT,
    FORMULA_START,
    MAX_CELL_CHARS,
    ROW_LIST,
    Cell,
    Table,
    comment_text,
)
from generator.data.shipclass import ShipClass, cross_check, derivers, unknown_rulesets
from generator.data.validation import describe, validate
from generator.data.yamlsource import Loc, SourceDoc

# --- cells to values -------------------------------------------------------------------

def _cell_value(value: Cell, column: Column) -> Any:
    """A cell as the field's type, or as found (validation then says what is wrong).

    Raises:
        ValueError: A number that converted to the field's unit is out of range
            (``found 1e+306 km, expected a length from -1e+09 to 1e+09 ft``).

    """
    target = unwrap(column.annotation)
    if column.shape == "lines":
        text = _as_text(value)
        return [line.rstrip("\r") for line in text.split("\n")] if text else []
    if target is bool:
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "false",
                                                               "no", "0"):
            return value.strip().lower() in ("true", "yes", "1")
        return value
    if target in (int, float):
        number: Any = value
        if isinstance(value, str):
            text = value.strip()
            # Thousands separators only ("1,600"): "4,5" is not read as 45.
            if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", text):
                text = text.replace(",", "")
            try:
                number = float(text)
            except ValueError:
                return value
        if isinstance(number, bool) or not isinstance(number, int | float):
            return value
        if not math.isfinite(number):
            return value
        if column.unit is not None and column.field_unit not in (None, column.unit):
            number = convert(number, column.unit, column.field_unit)
            number = round(number) if target is int else round(number, 2)
        if target is int:
            return int(number) if float(number).is_integer() else number
        return float(number)
    if target is dt.date:
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, str) and re.fullmatch(r"\s*\d{4}-\d\d-\d\d\s*", value):
            try:
                return dt.date.fromisoformat(value.strip())
            except ValueError:
                return value
        return value
    # Text, a choice (enum, Literal) or anything else: the cell's text.
    return _as_text(value)


def _as_text(value: Cell) -> str:
    if isinstance(value, str):
        if value == EMPTY_TEXT:
            return ""
        if len(value) > 1 and value[0] == "'" and value[1] in FORMULA_START:
            return value[1:]
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _yaml_cell(text: str, display: str) -> tuple[Any, str | None]:
    """A cell of YAML read through the safe loader (no tags, bounded), or why not."""
    from generator.data.yamlsource import _Builder, _Loader, _TooBig

    doc = SourceDoc(Path(display), display, None)
    try:
        loader = _Loader(text)
        node = loader.get_single_node()
        if node is None:
            return None, None
        builder = _Builder(doc, loader)
        data = builder.build(node, ())
    except yaml.YAMLError as exc:
        reason = getattr(exc, "problem", None) or "syntax error"
        return None, f"found YAML that cannot be read ({reason}), expected YAML such as " \
                     "{key: value} or [a, b]"
    except _TooBig:
        return None, "found too many values, expected a small YAML value"
    if builder.problems:
        return None, builder.problems[0].message
    return data, None


# --- rows to classes -------------------------------------------------------------------

@dataclass
class Imported:
    """One class read from the sheet: its data, where each value came from, its model."""

    class_id: str
    row: int
    doc: SourceDoc
    model: ShipClass | None = None
    refused: set[str] = field(default_factory=set)
    """Paths of cells already refused (validation need not say they are missing)."""
    gaps: bool = False
    """Numbered items left out: the class is not validated (its numbers would shift)."""


def _set(target: dict[str, Any], path: tuple[str | int, ...], value: Any) -> None:
    """Put ``value`` at ``path``, making mappings and (sparse, indexed) lists on the way."""
    node: Any = target
    for part, following in zip(path, path[1:], strict=False):
        if isinstance(part, int):
            node = node.setdefault(part, {})
        else:
            node = node.setdefault(part, {} if not isinstance(following, int) else {})
    node[path[-1]] = value


def _lists(value: Any, loc: Loc = (), gaps: list[tuple[Loc, int]] | None = None) -> Any:
    """Lists kept as ``{index: item}`` while reading turned into lists, in index order.

    An item number left out (``guns.2`` given, ``guns.1`` not) is noted in ``gaps``.
    """
    if isinstance(value, dict):
        if value and all(isinstance(k, int) for k in value):
            for expected, index in enumerate(sorted(value)):
                if index != expected and gaps is not None:
                    gaps.append(((*loc, index), expected))
                    break
            return [_lists(value[k], (*loc, k), gaps) for k in sorted(value)]
        return {k: _lists(v, (*loc, k), gaps) for k, v in value.items()}
    return value


def classes_from(table: Table, columns: list[Column]) -> tuple[list[Imported], list[Problem]]:
    """Group rows into classes by ``id`` and build each class's data with cell positions."""
    problems: list[Problem] = []
    by_path = {c.path: c for c in columns}
    id_column = by_path.get(("id",))
    groups: dict[str, list[tuple[int, dict[int, Cell]]]] = {}
    current: str | None = None
    for row, cells in table.rows:
        found = cells.get(id_column.column) if id_column else None
        if found is not None:
            current = _as_text(found).strip()
        if current is None:
            problems.append(table.problem(row, id_column.column if id_column else 1, "id",
                                          "found nothing, expected the class id (later rows "
                                          "of a class may leave it empty)"))
            continue
        groups.setdefault(current, []).append((row, cells))
    imported = []
    for class_id, rows in groups.items():
        item, faults = _one_class(table, class_id, rows, columns)
        imported.append(item)
        problems += faults
    return imported, problems


def _one_class(table: Table, class_id: str, rows: list[tuple[int, dict[int, Cell]]],
               columns: list[Column]) -> tuple[Imported, list[Problem]]:
    problems: list[Problem] = []
    refused: set[str] = set()
    data: dict[str, Any] = {"kind": "ship-class"}
    marks: dict[Loc, tuple[int, int]] = {(): (rows[0][0], 1)}
    given: dict[tuple[str | int, ...], tuple[Any, int]] = {}
    ship_index = -1
    for row, cells in rows:
        row_ship = any(c.path[0] == ROW_LIST and not isinstance(c.path[1], int)
                       and c.column in cells for c in columns)
        if row_ship:
            ship_index += 1
        for column in columns:
            if column.column not in cells:
                continue
            raw = cells[column.column]
            if isinstance(raw, str) and len(raw) > MAX_CELL_CHARS:
                problems.append(table.problem(row, column.column, dotted(column.path),
                                              f"found {len(raw)} characters, expected at "
                                              f"most {MAX_CELL_CHARS} in a cell"))
                refused.add(dotted(column.path))
                continue
            path = column.path
            if path[0] == ROW_LIST and not isinstance(path[1], int):
                path = (ROW_LIST, ship_index, *path[1:])
            if column.shape == "yaml":
                value, why = _yaml_cell(_as_text(raw), table.display)
                if why is not None:
                    problems.append(table.problem(row, column.column, dotted(path), why))
                    refused.add(dotted(path))
                    continue
            else:
                try:
                    value = _cell_value(raw, column)
                except ValueError as exc:  # a number out of range in the header's unit
                    problems.append(table.problem(row, column.column, dotted(path),
                                                  str(exc)))
                    refused.add(dotted(path))
                    continue
            if path in given:
                if given[path][0] != value:
                    problems.append(table.problem(row, column.column, dotted(path), f"found "
                                                  f"{describe(value)}, expected "
                                                  f"{describe(given[path][0])} as in row "
                                                  f"{given[path][1]} (or an empty cell)"))
                continue
            given[path] = (value, row)
            _set(data, path, value)
            marks[path] = (row, column.column)
            for i in range(1, len(path)):
                marks.setdefault(path[:i], (row, column.column))
            if column.shape == "lines" and isinstance(value, list):
                for i in range(len(value)):
                    marks[(*path, i)] = (row, column.column)
    gaps: list[tuple[Loc, int]] = []
    data = _lists(data, (), gaps)
    for loc, missing in gaps:
        line, col = marks.get(loc, marks[()])
        problems.append(table.problem(line, col, dotted(loc), f"found item {loc[-1]} "
                                      f"without item {missing}, expected items numbered from "
                                      "0 with none left out"))
    doc = SourceDoc(Path(table.display), table.display, data, value_marks=marks)
    return Imported(class_id, rows[0][0], doc, refused=refused, gaps=bool(gaps)), problems


def _located(table: Table, problem: Problem) -> Problem:
    """A problem from the class's pseudo-document, placed at its cell."""
    return table.problem(problem.line, problem.column, problem.path, problem.message)


def check_classes(table: Table, imported: list[Imported],
                  rulesets: list[str] | None) -> list[Problem]:
    """Validate every class as ``check`` would a file, each problem at its cell."""
    problems: list[Problem] = []
    found = derivers()
    for item in imported:
        if item.gaps:
            continue
        model, invalid = validate(ShipClass, item.doc)
        if invalid or model is None:
            problems += [_located(table, p) for p in invalid
                         if p.path not in item.refused and not is_refused(table, p.path)]
            continue
        item.model = model
        located = cross_check(model, item.doc)
        located += [item.doc.problem(loc, message)
                    for loc, message in unknown_rulesets(model, list(found))]
        for name, derive in found.items():
            rating = derive(model)
            located += [item.doc.problem(loc, message) for loc, message in rating.problems]
            if rulesets and name in rulesets and rating.model is None and not rating.problems:
                why = f" ({rating.unrated})" if rating.unrated else ""
                located.append(item.doc.problem(("id",), f"found a class {name} cannot rate"
                                                f"{why}, expected one it rates (--ruleset)"))
        problems += [_located(table, p) for p in located]
    return problems


# --- writing class files ----------------------------------------------------------------

def plain_values(value: Any) -> Any:
    """Model dump values as YAML can write them (enums as their text)."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {k: plain_values(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_values(v) for v in value]
    return value


def class_dict(model: ShipClass) -> dict[str, Any]:
    """A class as the data a file holds: schema order, defaults left out."""
    dumped = model.model_dump(by_alias=True, exclude_defaults=True)
    dumped = {"kind": "ship-class", **{k: v for k, v in dumped.items() if k != "kind"}}
    return dict(plain_values(dumped))



def class_yaml(model: ShipClass, origin: str) -> str:
    """A class file's text, headed by where it was imported from (one comment line)."""
    body = yaml.safe_dump(class_dict(model), sort_keys=False, allow_unicode=True, width=100)
    return f"# Imported from {comment_text(origin)} by `quarterdeck import`.\n{body}"


def import_table(path: Path, out: Path, rulesets: list[str] | None = None,
                 display: str | None = None) -> list[Path]:
    """Read a spreadsheet of classes and write one checked class file per class.

    Returns:
        The files written (``OUT/<nation>/<id>.yaml``).

    Raises:
        DataError: Every problem in the sheet, at its cell; nothing is written.
        UsageError: The file is not a spreadsheet, or a class file already exists.

    """
    from generator.core.output import write_atomic

    table = read_table(path, display)
    columns, problems = parse_header(table)
    if any(p.path == "id" for p in problems) or not any(c.path == ("id",) for c in columns):
        raise DataError(problems)
    imported, found = classes_from(table, columns)
    problems += found
    problems += check_classes(table, imported, rulesets)
    if not imported and not problems:
        problems.append(table.problem(2, 1, "", "found no rows, expected a row per class "
                                                "or per ship under the header"))
    if problems:
        raise DataError(problems)
    targets = {}
    for item in imported:
        assert item.model is not None
        targets[out / item.model.nation.value.lower() / f"{item.model.id}.yaml"] = item
    existing = [comment_text(str(t)) for t in targets if t.exists()]
    if existing:
        raise UsageError(f"{', '.join(existing[:5])}{' ...' if len(existing) > 5 else ''} "
                         "already exist; not overwriting them (choose another --out)")
    for target, item in targets.items():
        assert item.model is not None
        write_atomic(target, class_yaml(item.model, f"{table.display} row {item.row}")
                     .encode())
    return list(targets)
