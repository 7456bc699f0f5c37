"""Ship classes out to a spreadsheet (``quarterdeck export classes``).

One row per ship, the class's own cells on its first row, under the header the import
reads (``generator.data.sheetcolumns``); text a spreadsheet program would run as a
formula is written as text.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import typing
from pathlib import Path
from typing import Any

import yaml

from generator.data.sheetcolumns import (
    cell_shape,
    dotted,
    fields_of,
    is_model,
    list_item,
    unwrap,
)
from generator.data.sheettable import EMPTY_TEXT, FORMULA_START, ROW_LIST
from generator.data.shipclass import ShipClass
from generator.data.spreadsheet import class_dict, plain_values
from generator.data.validation import validate


def _flatten(value: Any, annotation: Any, path: tuple[str | int, ...], in_row: bool,
             out: dict[tuple[str | int, ...], Any]) -> None:
    annotation = unwrap(annotation)
    shape = cell_shape(annotation, in_row)
    if shape == "value":
        out[path] = value
    elif shape == "lines":
        out[path] = "\n".join(str(v) for v in value)
    elif shape == "yaml":
        out[path] = yaml.safe_dump(plain_values(value), default_flow_style=True, sort_keys=False,
                                   allow_unicode=True, width=10**6).strip()
    elif is_model(annotation):
        fields = fields_of(annotation)
        for key, inner in value.items():
            _flatten(inner, fields[key].annotation, (*path, key), in_row, out)
    else:
        item = list_item(annotation)
        for index, inner in enumerate(value):
            _flatten(inner, item, (*path, index), in_row, out)


def _order(path: tuple[str | int, ...]) -> tuple[Any, ...]:
    """Sort key: the schema's field order, list items by number."""
    key: list[Any] = []
    model: Any = ShipClass
    for part in path:
        if isinstance(part, int):
            key.append((0, part))
            continue
        if part == "*":
            key.append((0, -1))
            continue
        fields = list(fields_of(model)) if is_model(model) else []
        key.append((1, fields.index(part) if part in fields else len(fields)))
        if is_model(model) and part in fields_of(model):
            annotation = unwrap(fields_of(model)[part].annotation)
            model = list_item(annotation) if typing.get_origin(annotation) is list else annotation
    return tuple(key)


def export_rows(models: list[ShipClass]) -> tuple[list[str], list[list[Any]]]:
    """The header and rows for a list of classes: one row per ship, class cells on the first."""
    rows: list[dict[tuple[str | int, ...], Any]] = []
    ships_field = fields_of(ShipClass)[ROW_LIST]
    for model in models:
        data = class_dict(model)
        top: dict[tuple[str | int, ...], Any] = {}
        for key, value in data.items():
            if key == ROW_LIST:
                continue
            _flatten(value, fields_of(ShipClass)[key].annotation, (key,), False, top)
        for index, ship in enumerate(data[ROW_LIST]):
            row: dict[tuple[str | int, ...], Any] = dict(top) if index == 0 else {
                ("id",): data["id"]}
            flat: dict[tuple[str | int, ...], Any] = {}
            ship_fields = fields_of(list_item(unwrap(ships_field.annotation)))
            for key, value in ship.items():
                _flatten(value, ship_fields[key].annotation, (ROW_LIST, "*", key), True, flat)
            row.update(flat)
            rows.append(row)
    paths = sorted({p for row in rows for p in row}, key=_order)
    header = [dotted(p for p in path if p != "*") for path in paths]
    return header, [[row.get(p) for p in paths] for row in rows]


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if value == "":
        return EMPTY_TEXT
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    text = str(value)
    if isinstance(value, str) and text[:1] in FORMULA_START:
        return "'" + text  # a spreadsheet program must not run it as a formula
    if isinstance(value, str) and text[:1] == "'" and text[1:2] in FORMULA_START:
        return "'" + text
    return text


def export_csv(models: list[ShipClass]) -> bytes:
    """The classes as CSV (UTF-8, one row per ship)."""
    header, rows = export_rows(models)
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_csv_cell(v) for v in row])
    return buffer.getvalue().encode("utf-8")


def export_xlsx(models: list[ShipClass]) -> bytes:
    """The classes as an .xlsx workbook (sheet 'classes', one row per ship)."""
    import openpyxl
    from openpyxl.cell import WriteOnlyCell

    header, rows = export_rows(models)
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("classes")
    sheet.append(header)
    for row in rows:
        cells: list[Any] = []
        for value in row:
            if value == "":
                value = EMPTY_TEXT
            if isinstance(value, str) and value[:1] in FORMULA_START:
                cell = WriteOnlyCell(sheet, value)
                cell.data_type = "s"  # text, never a formula
                cells.append(cell)
            else:
                cells.append(value)
        sheet.append(cells)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def library_classes(data: list[Path]) -> list[ShipClass]:
    """Every shared class of the bundled library and ``data`` (a user's replacing a bundled)."""
    from generator.data.library import bundled_data_dir, data_files, validated_library
    from generator.data.yamlsource import load_yaml

    validated_library(data)  # refuses a broken library with every problem located
    found: dict[str, ShipClass] = {}
    for root in [bundled_data_dir(), *data]:
        for path in data_files(root):
            doc, problems = load_yaml(path)
            if problems or not isinstance(doc.data, dict):
                continue
            if doc.data.get("kind") != "ship-class" or "ruleset" in doc.data:
                continue
            model, invalid = validate(ShipClass, doc)
            if model is not None:
                found[model.id] = model
    return sorted(found.values(), key=lambda m: (m.nation.value, m.id))
