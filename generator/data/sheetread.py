"""Reading a spreadsheet's first sheet (.csv or .xlsx) into a ``Table``, bounded.

Every cell is untrusted: the file, the rows, the columns and each cell's text are
bounded, merged cells and formulas are refused, and every problem is reported at its
cell, all at once. An .xlsx is bounded by what it really holds before openpyxl reads any
of it (``generator.data.xlsxscan``), and whatever openpyxl still raises is a located
problem, never a traceback.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import warnings
import zipfile
from pathlib import Path
from typing import Any

from generator.core.errors import DataError, Problem, UsageError
from generator.data.sheettable import (
    MAX_COLUMNS,
    MAX_FILE_BYTES,
    MAX_ROWS,
    Cell,
    Table,
    comment_text,
    short_reason,
)
from generator.data.validation import describe
from generator.data.xlsxscan import check_parts, scan_sheet


def read_table(path: Path, display: str | None = None) -> Table:
    """Read a .csv or .xlsx file's first sheet, bounded; raise every problem at once.

    Raises:
        UsageError: Not a .csv or .xlsx file, or no such file.
        DataError: The file is too big, merged cells, formulas, too many rows or columns.

    """
    shown = display or str(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise UsageError(f"{comment_text(shown)}: found a "
                         f"'{comment_text(suffix) or 'nameless'}' file, expected a .csv "
                         "or .xlsx spreadsheet")
    if not path.is_file():
        raise UsageError(f"{comment_text(shown)}: found no such file, expected a .csv or "
                         ".xlsx spreadsheet")
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise DataError([Problem(shown, 0, 0, "", f"found a file of {size / 1e6:.1f} MB, "
                                 f"expected a spreadsheet of at most "
                                 f"{MAX_FILE_BYTES // (1024 * 1024)} MB")])
    return _read_csv(path, shown) if suffix == ".csv" else _read_xlsx(path, shown)


def _read_csv(path: Path, shown: str) -> Table:
    table = Table(shown, None)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError([Problem(shown, 0, 0, "", f"found bytes that are not UTF-8 at byte "
                                 f"{exc.start}, expected a UTF-8 CSV file (save it as "
                                 "'CSV UTF-8')")]) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    problems: list[Problem] = []
    start = 1
    try:
        for number, record in enumerate(reader):
            if number > MAX_ROWS:
                raise DataError([table.problem(start, 1, "", f"found more than {MAX_ROWS} "
                                               f"rows, expected at most {MAX_ROWS} rows of "
                                               "classes and ships (split the file)")])
            if len(record) > MAX_COLUMNS:
                problems.append(table.problem(start, MAX_COLUMNS + 1, "", f"found "
                                              f"{len(record)} columns, expected at most "
                                              f"{MAX_COLUMNS}"))
                record = record[:MAX_COLUMNS]
            cells: dict[int, Cell] = {i + 1: v for i, v in enumerate(record) if v.strip()}
            if number == 0:
                table.header = cells
            elif cells:
                table.rows.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise DataError([table.problem(reader.line_num, 1, "", f"found unreadable CSV "
                                       f"({exc}), expected comma-separated values")]) from None
    if problems:
        raise DataError(problems)
    return table


def _read_xlsx(path: Path, shown: str) -> Table:
    """Read the first worksheet, every part bounded before openpyxl reads any of it.

    The zip's parts are checked first (how many, how big, how compressed), then every XML
    part is streamed once through expat, bounded (no DOCTYPE, so no entities; at most
    ``MAX_ELEMENTS`` elements in all, ``MAX_STYLE_ELEMENTS`` in the styles, nested at most
    ``MAX_DEPTH`` deep). openpyxl then opens the workbook read-only (so it never loads the
    sheet's comments, drawings, images, tables or pivot tables, none of which a sheet of
    classes needs; ``load_workbook`` in full did, and failed on any of them), the first
    worksheet's cells are
    streamed by ``scan_sheet`` (merged cells, formulas, values of the wrong type, cells
    beyond the bounds, all located) and only then are its values read, up to the last
    cell that really holds one. Anything openpyxl still raises is a located problem.
    """
    import openpyxl

    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise DataError([Problem(shown, 0, 0, "", f"found a file that is not an .xlsx "
                                 f"workbook ({str(exc)[:80]}), expected an Excel .xlsx "
                                 "file")]) from None
    with archive:
        check_parts(archive, shown)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                book = openpyxl.load_workbook(path, read_only=True, data_only=False,
                                              keep_links=False)
        except Exception as exc:  # openpyxl raises many kinds for a broken workbook
            raise DataError([Problem(shown, 0, 0, "", f"found an unreadable workbook "
                                     f"({short_reason(exc)}), expected an Excel .xlsx "
                                     "file")]) from None
        try:
            return _read_first_sheet(archive, book, shown)
        finally:
            book.close()


def _read_first_sheet(archive: zipfile.ZipFile, book: Any, shown: str) -> Table:
    from openpyxl.utils import get_column_letter

    if not book.worksheets:
        raise DataError([Problem(shown, 0, 0, "", "found a workbook without a worksheet, "
                                 "expected the classes on its first sheet")])
    sheet = book.worksheets[0]
    table = Table(shown, str(sheet.title))
    part = getattr(sheet, "_worksheet_path", None)
    strings = getattr(sheet, "_shared_strings", None)
    if not isinstance(part, str) or part not in archive.namelist() or strings is None:
        raise DataError([table.problem(0, 0, "", "found a worksheet openpyxl cannot locate, "
                                       "expected an Excel .xlsx file")])
    scan = scan_sheet(archive, archive.getinfo(part), table, len(strings))
    if scan.problems:
        raise DataError(scan.problems)
    problems: list[Problem] = []
    if not scan.max_row:
        return table
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rows = sheet.iter_rows(min_row=1, max_row=scan.max_row, min_col=1,
                                   max_col=scan.max_col)
            for number, row in enumerate(rows, start=1):
                cells: dict[int, Cell] = {}
                for column, cell in enumerate(row, start=1):
                    value = cell.value
                    if value is None or (isinstance(value, str) and not value.strip()):
                        continue
                    kind = getattr(cell, "data_type", None)
                    if kind == "f":  # scan_sheet refused every formula: a second guard
                        problems.append(table.problem(number, column, "", f"found the "
                                                      f"formula {describe(str(value))}, "
                                                      "expected a value (paste the values "
                                                      "instead)"))
                        continue
                    if kind == "e":  # scan_sheet refused every error: a date serial
                        serial = scan.styled_numbers.get((number, column))
                        problems.append(table.problem(
                            number, column, "", f"found the date serial number {serial}, "
                            "expected a date from 1900 to 9999" if serial is not None else
                            f"found the error value {describe(str(value))}, expected a "
                            "value (correct the cell)"))
                        continue
                    if not isinstance(value, str | int | float | bool | dt.date | dt.datetime):
                        problems.append(table.problem(number, column, "", f"found "
                                                      f"{type(value).__name__} in cell "
                                                      f"{get_column_letter(column)}{number}, "
                                                      "expected text, a number or a date"))
                        continue
                    cells[column] = value
                if number == 1:
                    table.header = cells
                elif cells:
                    table.rows.append((number, cells))
    except Exception as exc:  # anything openpyxl raises on a sheet scan_sheet let through
        raise DataError([table.problem(0, 0, "", f"found a sheet that cannot be read "
                                       f"({short_reason(exc)}), expected an Excel .xlsx "
                                       "worksheet")]) from None
    if problems:
        raise DataError(problems)
    return table
