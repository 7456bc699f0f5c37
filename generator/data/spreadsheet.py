"""Ship classes in and out of spreadsheets (``quarterdeck import`` / ``export classes``).

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
parts, their XML, the cells of its first sheet that hold a value: ``_read_xlsx``), and
whatever openpyxl still raises is a located problem, never a traceback. The sheet's file
name is written into each class file only as one escaped comment line (``comment_text``).
"""

from __future__ import annotations

import csv
import datetime as dt
import enum
import io
import math
import re
import types
import typing
import warnings
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel

from generator.core.errors import DataError, Problem, UsageError
from generator.core.suggest import did_you_mean
from generator.core.units import QUANTITIES, convert, unit_kind
from generator.data.shipclass import ShipClass, cross_check, derivers, unknown_rulesets
from generator.data.validation import describe, validate
from generator.data.yamlsource import Loc, SourceDoc

MAX_FILE_BYTES = 20 * 1024 * 1024
"""Largest spreadsheet read (a whole navy's classes is well under 1 MB)."""
MAX_UNPACKED_BYTES = 200 * 1024 * 1024
"""Largest total of the parts inside an .xlsx (a zip), so a zip bomb is refused unread."""
MAX_ROWS = 10_000
"""Most data rows (one per ship: every navy of the war fits several times over)."""
MAX_COLUMNS = 500
"""Most columns."""
MAX_CELL_CHARS = 50_000
"""Longest cell text (the longest list of texts: 40 sources of 1000 characters)."""
EMPTY_TEXT = '""'
"""A cell holding this is the empty text (an empty cell is no value at all)."""
ROW_LIST = "ships"
"""The one list whose items may be given a row each (``ships.name``)."""
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n",
                 "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""First characters that make a spreadsheet program read a cell as a formula (OWASP's list:
equals, plus, minus, at, tab, carriage return; a line feed too), and their full-width forms,
which East Asian spreadsheets may turn into the ASCII ones: such text is written after a
'. One list for every spreadsheet quarterdeck writes (exported classes, an event's
inventory)."""

Cell = str | int | float | bool | dt.date | dt.datetime | None


@dataclass(frozen=True, order=True)
class CellProblem(Problem):
    """A problem located at a worksheet cell: ``file:Sheet!C14: path: message``."""

    sheet: str = ""

    def __str__(self) -> str:
        from openpyxl.utils import get_column_letter

        where = f"{self.file}:{self.sheet}"
        if self.line:
            where += f"!{get_column_letter(max(self.column, 1))}{self.line}"
        text = f"{where}:{f' {self.path}:' if self.path else ''} {self.message}"
        return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                       for ch in text)


@dataclass
class Table:
    """A read sheet: the header cells and the data rows, each cell with its place."""

    display: str
    sheet: str | None
    header: dict[int, Cell] = field(default_factory=dict)
    rows: list[tuple[int, dict[int, Cell]]] = field(default_factory=list)
    refused: set[str] = field(default_factory=set)
    """Field paths (as written, unit left out) of header cells already refused: the
    values they would have given are not reported missing as well."""

    def problem(self, row: int, column: int, path: str, message: str) -> Problem:
        """A problem at one cell (row and column 1-based; 0 for the whole sheet)."""
        if self.sheet is None:
            return Problem(self.display, row, column, path, message)
        return CellProblem(self.display, row, column, path, message, self.sheet)


# --- reading ---------------------------------------------------------------------------

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
    streamed by ``_scan_sheet`` (merged cells, formulas, values of the wrong type, cells
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
        _check_parts(archive, shown)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                book = openpyxl.load_workbook(path, read_only=True, data_only=False,
                                              keep_links=False)
        except Exception as exc:  # openpyxl raises many kinds for a broken workbook
            raise DataError([Problem(shown, 0, 0, "", f"found an unreadable workbook "
                                     f"({_why(exc)}), expected an Excel .xlsx file")]) from None
        try:
            return _read_first_sheet(archive, book, shown)
        finally:
            book.close()


def _why(exc: BaseException) -> str:
    """An exception as a short, one-line reason."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:80]}"


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
    scan = _scan_sheet(archive, archive.getinfo(part), table, len(strings))
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
                    if kind == "f":  # _scan_sheet refused every formula: a second guard
                        problems.append(table.problem(number, column, "", f"found the "
                                                      f"formula {describe(str(value))}, "
                                                      "expected a value (paste the values "
                                                      "instead)"))
                        continue
                    if kind == "e":  # _scan_sheet refused every error: a date serial
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
    except Exception as exc:  # anything openpyxl raises on a sheet _scan_sheet let through
        raise DataError([table.problem(0, 0, "", f"found a sheet that cannot be read "
                                       f"({_why(exc)}), expected an Excel .xlsx "
                                       "worksheet")]) from None
    if problems:
        raise DataError(problems)
    return table


# --- the workbook's parts, bounded before openpyxl reads them ---------------------------

MAX_PARTS = 1_000
"""Most parts (files) inside an .xlsx (Excel writes about ten for a plain sheet)."""
MAX_RATIO = 100
"""Most a part over ``RATIO_FLOOR`` may be compressed (real XML: about 5 to 1)."""
RATIO_FLOOR = 1024 * 1024
"""Parts smaller than this are not judged by their compression."""
MAX_ELEMENTS = 2_000_000
"""Most XML elements in the workbook's parts together (the whole library's workbook holds
about 24,000), and in the sheet."""
MAX_STYLE_ELEMENTS = 20_000
"""Most XML elements in ``xl/styles.xml`` (openpyxl builds an object for each: 20,000
take it about a second; a plain sheet has about a hundred)."""
MAX_DEPTH = 100
"""Deepest nesting of XML elements (Excel's parts: about ten)."""
MAX_CELLS = 200_000
"""Most cells holding a value (the whole library: about 12,000)."""
MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
CELL_TYPES = ("b", "d", "e", "inlineStr", "n", "s", "str")
"""The cell types (``t=``) of the format."""


class _Stop(Exception):
    """Raised from an expat handler: the part is refused with ``message``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _check_parts(archive: zipfile.ZipFile, shown: str) -> None:
    """Refuse a workbook whose parts are too many, too big or too compressed.

    And one whose XML is broken, declares a DOCTYPE or holds too many elements: all
    before openpyxl reads any of it.
    """

    def refuse(message: str) -> DataError:
        return DataError([Problem(shown, 0, 0, "", message)])

    infos = archive.infolist()
    if len(infos) > MAX_PARTS:
        raise refuse(f"found {len(infos)} parts inside the workbook, expected at most "
                     f"{MAX_PARTS}")
    unpacked = sum(info.file_size for info in infos)
    if unpacked > MAX_UNPACKED_BYTES:
        raise refuse(f"found {unpacked / 1e6:.0f} MB inside the workbook, expected at most "
                     f"{MAX_UNPACKED_BYTES // (1024 * 1024)} MB")
    for info in infos:
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(
                info.compress_size, 1):
            raise refuse(f"found the part {describe(info.filename)} compressed "
                         f"{info.file_size // max(info.compress_size, 1)} to 1 "
                         f"({info.file_size / 1e6:.0f} MB), expected at most {MAX_RATIO} "
                         "to 1 (a zip bomb?)")
    budget = [MAX_ELEMENTS]
    for info in infos:
        # Every part is streamed: openpyxl finds the parts it reads through the content
        # types and relationships, whatever their names. A part named .xml or .rels must
        # be well-formed; any other (an image, Excel's VML, which is rarely well-formed
        # XML) is read up to its first XML error, where any XML parser stops as well.
        lowered = info.filename.lower()
        _stream(archive, info, shown, budget, None,
                strict=lowered.endswith((".xml", ".rels")),
                limit=MAX_STYLE_ELEMENTS if lowered == "xl/styles.xml" else None)


def _stream(archive: zipfile.ZipFile, info: zipfile.ZipInfo, shown: str, budget: list[int],
            scan: _SheetScan | None, strict: bool = True, limit: int | None = None) -> None:
    """Parse one part with expat, bounded; ``scan`` (if any) sees its elements.

    ``budget`` holds how many more elements the workbook may hold (counted down);
    ``limit`` bounds this part's own. No DOCTYPE is accepted (so no entity is ever
    declared, let alone expanded or fetched). A part that is not well-formed XML is
    refused when ``strict``, else read no further.
    """
    import pyexpat

    def refuse(message: str) -> DataError:
        if scan is not None:
            return DataError([scan.table.problem(0, 0, "", message)])
        return DataError([Problem(shown, 0, 0, "", message)])

    name = describe(info.filename)
    parser = pyexpat.ParserCreate(namespace_separator=" ")
    count = depth = 0

    def doctype(*_: Any) -> None:
        raise _Stop(f"found a DOCTYPE in the part {name}, expected none (a workbook's XML "
                    "declares no entities)")

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal count, depth
        count += 1
        depth += 1
        budget[0] -= 1
        if depth > MAX_DEPTH:
            raise _Stop(f"found XML elements nested more than {MAX_DEPTH} deep in the part "
                        f"{name}, expected at most {MAX_DEPTH}")
        if limit is not None and count > limit:
            raise _Stop(f"found more than {limit:,} XML elements in the part {name}, "
                        f"expected at most {limit:,}")
        if budget[0] < 0:
            raise _Stop(f"found more than {MAX_ELEMENTS:,} XML elements (the part {name} "
                        f"goes over), expected at most {MAX_ELEMENTS:,} in the workbook")
        if scan is not None:
            scan.start(tag, attrs)

    def end(tag: str) -> None:
        nonlocal depth
        depth -= 1
        if scan is not None:
            scan.end(tag)

    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    if scan is not None:
        parser.CharacterDataHandler = scan.text
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(1 << 16):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except _Stop as stop:
        raise refuse(stop.message) from None
    except pyexpat.ExpatError as exc:
        if not strict:
            return
        raise refuse(f"found XML that cannot be read in the part {name} (line "
                     f"{exc.lineno}, column {exc.offset + 1}: "
                     f"{pyexpat.ErrorString(exc.code)}), expected a well-formed workbook "
                     "part") from None
    except DataError:
        raise
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError,
            ValueError, zlib.error) as exc:
        raise refuse(f"found a part that cannot be unpacked ({name}: {_why(exc)}), "
                     "expected an Excel .xlsx file") from None


@dataclass
class _SheetScan:
    """What a worksheet's XML really holds, streamed.

    Where its values are, and every merged cell, formula and value openpyxl would misread
    or fail on, each at its cell.
    """

    table: Table
    strings: int
    """How many shared strings the workbook holds (``t="s"`` cells index them)."""
    problems: list[Problem] = field(default_factory=list)
    max_row: int = 0
    max_col: int = 0
    cells: int = 0
    styled_numbers: dict[tuple[int, int], str] = field(default_factory=dict)
    """Numbers in formatted cells, as written: one openpyxl turns into an error is a
    date serial number out of range."""
    _stack: list[str] = field(default_factory=list)
    _row: int = 0
    """The open row's number (0: none open, or refused)."""
    _row_depth: int = -1
    _last_row: int = 0
    _col: int = 0
    """openpyxl's column counter in the open row."""
    _last_col: int = 0
    _cell: dict[str, Any] | None = None
    _capture: list[str] | None = None
    _captured: int = 0

    def _at(self, row: int, col: int, message: str) -> None:
        self.problems.append(self.table.problem(row, col, "", message))

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        depth = len(self._stack)
        self._stack.append(tag)
        ns, _, local = tag.rpartition(" ")
        if self._cell is None and self._row and depth == self._row_depth + 1:
            # openpyxl reads every child of a row as a cell, whatever its name.
            self._cell = {"attrs": attrs, "depth": depth, "v": None, "f": None, "is": False}
            return
        if ns != MAIN_NS:
            return
        if local == "row":
            self._open_row(attrs, depth)
        elif self._cell is not None and depth == self._cell["depth"] + 1:
            if local in ("v", "f") and self._cell[local] is None:
                self._cell[local] = self._capture = []
                self._captured = 0
                if local == "f":
                    self._cell["f_type"] = attrs.get("t")
            elif local == "is":
                self._cell["is"] = True
        elif local == "mergeCell":
            self._merged(attrs.get("ref", ""))

    def text(self, data: str) -> None:
        if self._capture is not None and self._captured <= MAX_CELL_CHARS:
            self._capture.append(data)
            self._captured += len(data)

    def end(self, tag: str) -> None:
        self._stack.pop()
        depth = len(self._stack)
        self._capture = None
        if self._cell is not None and depth == self._cell["depth"]:
            cell, self._cell = self._cell, None
            self._one_cell(cell)
        elif self._row and depth == self._row_depth:
            self._row, self._row_depth = 0, -1

    def _open_row(self, attrs: dict[str, str], depth: int) -> None:
        if self._row:
            self._at(self._row, 1, "found a row inside a row, expected rows side by side")
            return
        written = attrs.get("r")
        number = self._last_row + 1
        if written is not None:
            try:
                number = int(written)
            except ValueError:
                try:
                    whole = float(written)
                except ValueError:
                    whole = math.nan
                if not whole.is_integer():
                    self._at(0, 0, f"found the row number {describe(written)}, expected a "
                                   "whole number")
                    self._row_depth = depth  # its cells are skipped
                    return
                number = int(whole)
        if number <= self._last_row:
            self._at(self._last_row, 1, f"found row {number} after row {self._last_row}, "
                                        "expected rows in increasing order")
            return
        self._row, self._row_depth, self._last_row = number, depth, number
        self._col = self._last_col = 0

    def _merged(self, ref: str) -> None:
        from openpyxl.utils.cell import range_boundaries

        try:
            min_col, min_row, _, _ = range_boundaries(ref)
        except Exception:  # noqa: BLE001 - any reference openpyxl cannot read
            self._at(0, 0, f"found merged cells {describe(ref)} (not a range), expected one "
                           "value in each cell (unmerge them)")
            return
        self._at(min_row or 0, min_col or 1, f"found merged cells {ref}, expected one value "
                                             "in each cell (unmerge them)")

    def _one_cell(self, cell: dict[str, Any]) -> None:
        from openpyxl.utils.cell import coordinate_to_tuple

        attrs = cell["attrs"]
        row = self._row
        written = attrs.get("r")
        if written:
            try:
                row, self._col = coordinate_to_tuple(written)
            except Exception:  # noqa: BLE001 - any reference openpyxl cannot read
                self._at(self._row, min(self._col + 1, MAX_COLUMNS), f"found the cell "
                         f"reference {describe(written)}, expected one such as 'B2'")
                self._col += 1
                return
            if row != self._row:
                self._at(self._row, min(self._col, 18_278), f"found the cell {written} in "
                         f"row {self._row}, expected each cell in its own row")
                return
        else:
            self._col += 1
        column = self._col
        value = "".join(cell["v"]) if cell["v"] is not None else ""
        kind = attrs.get("t", "n")
        holds = bool(value) or cell["f"] is not None or (kind == "inlineStr" and cell["is"])
        if not holds:
            return
        if row > MAX_ROWS + 1:
            raise DataError([self.table.problem(row, 1, "", f"found more than {MAX_ROWS} rows, "
                                                f"expected at most {MAX_ROWS} rows of classes "
                                                "and ships after the header")])
        if column > MAX_COLUMNS:
            raise DataError([self.table.problem(row, column, "", f"found a value in column "
                                                f"{column}, expected at most {MAX_COLUMNS} "
                                                "columns")])
        self.cells += 1
        if self.cells > MAX_CELLS:
            raise DataError([self.table.problem(row, column, "", f"found more than "
                                                f"{MAX_CELLS:,} cells holding values, "
                                                f"expected at most {MAX_CELLS:,}")])
        if column <= self._last_col:
            self._at(row, column, "found the cell again or out of order, expected cells "
                                  "left to right")
            return
        self._last_col = column
        self.max_row, self.max_col = max(self.max_row, row), max(self.max_col, column)
        if cell["f"] is not None:
            formula = "".join(cell["f"])
            self._at(row, column, (f"found the formula {describe('=' + formula)}" if formula
                                   else "found a formula shared from another cell")
                     + ", expected a value (paste the values instead)")
            return
        why = _cell_type_problem(kind, value, self.strings)
        if why is not None:
            self._at(row, column, why)
        elif kind == "n" and attrs.get("s"):  # a number in a date format becomes a date
            self.styled_numbers[(row, column)] = value


def _cell_type_problem(kind: str, value: str, strings: int) -> str | None:
    """Why openpyxl would fail on (or misread) a cell of type ``kind`` holding ``value``."""
    from openpyxl.utils.datetime import from_ISO8601

    if kind not in CELL_TYPES:
        return f"found the cell type {describe(kind)}, expected one of {', '.join(CELL_TYPES)}"
    if not value or kind in ("str", "inlineStr"):
        return None
    if len(value) > MAX_CELL_CHARS:
        return f"found {len(value)} characters or more, expected at most {MAX_CELL_CHARS}"
    if kind == "n":
        try:  # as openpyxl reads it (worksheet._reader._cast_number)
            number: float = float(value) if any(c in value for c in ".Ee") else int(value)
        except ValueError:
            return f"found the number {describe(value)}, expected a number such as 12.5"
        if isinstance(number, float) and not math.isfinite(number):
            return f"found the number {describe(value)}, expected a finite number"
    elif kind == "s":
        if not strings:
            return (f"found the shared text number {describe(value)}, expected none (the "
                    "workbook holds no shared texts)")
        if not value.strip().isdigit() or not 0 <= int(value) < strings:
            return (f"found the shared text number {describe(value)}, expected one of the "
                    f"workbook's {strings} texts (0 to {strings - 1})")
    elif kind == "b":
        if value.strip() not in ("0", "1"):
            return f"found the true/false value {describe(value)}, expected 0 or 1"
    elif kind == "d":
        try:
            from_ISO8601(value)
        except Exception:  # noqa: BLE001 - anything the date parser raises
            return f"found the date {describe(value)}, expected an ISO 8601 date such as " \
                   "1940-01-31"
    elif kind == "e":
        return f"found the error value {describe(value)}, expected a value (correct the cell)"
    return None


def _scan_sheet(archive: zipfile.ZipFile, info: zipfile.ZipInfo, table: Table,
                strings: int) -> _SheetScan:
    scan = _SheetScan(table, strings)
    _stream(archive, info, table.display, [MAX_ELEMENTS], scan)
    return scan


# --- the header: which field each column fills ------------------------------------------

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


def _unwrap(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _fields(model: type[BaseModel]) -> dict[str, Any]:
    """The model's fields by the key a file uses (alias where set)."""
    return {info.alias or name: info for name, info in model.model_fields.items()}


def _list_item(annotation: Any) -> Any:
    return _unwrap(typing.get_args(annotation)[0]) if typing.get_args(annotation) else Any


def _max_items(info: Any) -> int:
    return min((getattr(m, "max_length", None) or 10**6 for m in info.metadata), default=10**6)


def _shape(annotation: Any, nested_in_row: bool) -> Literal["value", "lines", "yaml"] | None:
    """How a value of this type sits in one cell; None when it spans several columns."""
    annotation = _unwrap(annotation)
    if typing.get_origin(annotation) is dict:
        return "yaml"
    if typing.get_origin(annotation) is list:
        item = _list_item(annotation)
        if _is_model(item):
            return "yaml" if nested_in_row else None
        return "lines"
    if _is_model(annotation):
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
            problems.append(table.problem(1, column.column, _dotted(column.path), f"found the "
                                          f"field again (also column "
                                          f"{get_column_letter(seen[column.path])}), expected "
                                          "each field in one column"))
        seen.setdefault(column.path, column.column)
    problems += _missing_columns(table, columns)
    return columns, problems


def _dotted(path: Iterable[str | int]) -> str:
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
        if not _is_model(model):
            return None, table.problem(1, col, _dotted(path), f"found '{part}' after "
                                       f"'{_dotted(path)}', expected nothing more (it holds "
                                       "one value)")
        fields = _fields(model)
        key, info = part, fields.get(part)
        if info is None and last and unit is not None:
            key = next((k for k in fields if k.startswith(part + "_") and _field_unit(k)), part)
            info = fields.get(key)
        if info is None:
            choices = [k.rsplit("_", 1)[0] if _field_unit(k) else k for k in fields]
            return None, table.problem(1, col, _dotted([*path, part]), f"found unknown field "
                                       f"'{part}', expected one of "
                                       f"{', '.join(dict.fromkeys(fields))}"
                                       f"{did_you_mean(part, [*fields, *choices])}")
        path.append(key)
        annotation = _unwrap(info.annotation)
        if last:
            break
        if typing.get_origin(annotation) is list and _is_model(_list_item(annotation)):
            following = parts[i + 1]
            if following.isdigit():
                index = int(following)
                if index >= _max_items(info):
                    return None, table.problem(1, col, _dotted(path), f"found item {index}, "
                                               f"expected at most {_max_items(info)} items "
                                               f"(0-{_max_items(info) - 1})")
                path.append(index)
                parts_left = parts[i + 2:]
                if not parts_left:
                    return None, table.problem(1, col, _dotted(path), "found an item with no "
                                               f"field, expected e.g. '{_dotted(path)}."
                                               f"{next(iter(_fields(_list_item(annotation))))}'")
                rest = ".".join(parts_left)
                inner, problem = _column_in(table, col, _list_item(annotation), rest, unit,
                                            tuple(path), in_row)
                return inner, problem
            if key != ROW_LIST or path != [ROW_LIST]:
                return None, table.problem(1, col, _dotted(path), f"found no item number, "
                                           f"expected one such as '{_dotted(path)}.0."
                                           f"{following}' (only ships may take a row each)")
            in_row = True
            model = _list_item(annotation)
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
        return None, table.problem(1, col, _dotted([*prefix, *problem.path.split(".")])
                                   if problem.path else _dotted(prefix), problem.message)
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
        if not _is_model(annotation):
            return None, table.problem(1, col, _dotted(path), f"found '{part}', expected "
                                       "nothing more (the field holds one value)")
        fields = _fields(annotation)
        key, info = part, fields.get(part)
        if info is None and last and unit is not None:
            key = next((k for k in fields if k.startswith(part + "_") and _field_unit(k)), part)
            info = fields.get(key)
        if info is None:
            return None, table.problem(1, col, _dotted([*path, part]), f"found unknown field "
                                       f"'{part}', expected one of {', '.join(fields)}"
                                       f"{did_you_mean(part, list(fields))}")
        path.append(key)
        annotation = _unwrap(info.annotation)
        if not last and not _is_model(annotation):
            return None, table.problem(1, col, _dotted(path), f"found '{parts[i + 1]}' after "
                                       "it, expected nothing more (it holds one value or a "
                                       "cell of YAML)")
    return _finish(table, col, tuple(path), annotation, unit, True)


def _finish(table: Table, col: int, path: tuple[str | int, ...], annotation: Any,
            unit: str | None, in_row: bool) -> tuple[Column | None, Problem | None]:
    shape = _shape(annotation, in_row)
    if shape is None:
        example = next(iter(_fields(_list_item(annotation) if typing.get_origin(annotation)
                                    is list else annotation)))
        index = ".0" if typing.get_origin(annotation) is list else ""
        return None, table.problem(1, col, _dotted(path), f"found a field that holds several "
                                   f"values, expected one of its fields, e.g. "
                                   f"'{_dotted(path)}{index}.{example}'")
    own = _field_unit(str(path[-1]))
    if unit is None:
        return Column(col, path, annotation, shape), None
    kind = unit_kind(own) if own else None
    if kind is None:
        return None, table.problem(1, col, _dotted(path), f"found the unit '{unit}', expected "
                                   "no unit: the field is not a length, mass or speed")
    if unit_kind(unit) != kind:
        return None, table.problem(1, col, _dotted(path), f"found the unit '{unit}', expected "
                                   f"a {kind} unit: {', '.join(QUANTITIES[kind])}"
                                   f"{did_you_mean(unit, QUANTITIES[kind])}")
    return Column(col, path, annotation, shape, unit, own), None


def _refused(table: Table, path: str) -> bool:
    """Whether a problem at ``path`` follows from a header cell already refused."""
    return any(path.startswith(prefix) for prefix in table.refused)


def _missing_columns(table: Table, columns: list[Column]) -> list[Problem]:
    """One problem per required top-level field no column fills (``id`` first)."""
    filled = {c.path[0] for c in columns}
    problems = []
    for key, info in _fields(ShipClass).items():
        if _refused(table, key):
            continue
        if info.is_required() and key not in filled and key != "kind":
            hint = f" or '{key.rsplit('_', 1)[0]} (unit)'" if _field_unit(key) else ""
            table.refused.add(key)  # each row need not say it lacks the value too
            problems.append(table.problem(1, 1, key, f"found no column, expected a header "
                                          f"'{key}'{hint} (required)"))
    return problems


# --- cells to values -------------------------------------------------------------------

def _cell_value(value: Cell, column: Column) -> Any:
    """A cell as the field's type, or as found (validation then says what is wrong).

    Raises:
        ValueError: A number that converted to the field's unit is out of range
            (``found 1e+306 km, expected a length from -1e+09 to 1e+09 ft``).

    """
    target = _unwrap(column.annotation)
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
                problems.append(table.problem(row, column.column, _dotted(column.path),
                                              f"found {len(raw)} characters, expected at "
                                              f"most {MAX_CELL_CHARS} in a cell"))
                refused.add(_dotted(column.path))
                continue
            path = column.path
            if path[0] == ROW_LIST and not isinstance(path[1], int):
                path = (ROW_LIST, ship_index, *path[1:])
            if column.shape == "yaml":
                value, why = _yaml_cell(_as_text(raw), table.display)
                if why is not None:
                    problems.append(table.problem(row, column.column, _dotted(path), why))
                    refused.add(_dotted(path))
                    continue
            else:
                try:
                    value = _cell_value(raw, column)
                except ValueError as exc:  # a number out of range in the header's unit
                    problems.append(table.problem(row, column.column, _dotted(path),
                                                  str(exc)))
                    refused.add(_dotted(path))
                    continue
            if path in given:
                if given[path][0] != value:
                    problems.append(table.problem(row, column.column, _dotted(path), f"found "
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
        problems.append(table.problem(line, col, _dotted(loc), f"found item {loc[-1]} "
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
                         if p.path not in item.refused and not _refused(table, p.path)]
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

def _plain(value: Any) -> Any:
    """Model dump values as YAML can write them (enums as their text)."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def class_dict(model: ShipClass) -> dict[str, Any]:
    """A class as the data a file holds: schema order, defaults left out."""
    dumped = model.model_dump(by_alias=True, exclude_defaults=True)
    dumped = {"kind": "ship-class", **{k: v for k, v in dumped.items() if k != "kind"}}
    return dict(_plain(dumped))


def comment_text(text: str) -> str:
    r"""``text`` made safe for one YAML comment line.

    Every character that is not printable (a line break of any kind, a control character,
    a lone surrogate from an undecodable file name) is written as its Python escape
    (``\n``, ``\x1b``, ``\udcff``).
    """
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


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


# --- export ----------------------------------------------------------------------------

def _flatten(value: Any, annotation: Any, path: tuple[str | int, ...], in_row: bool,
             out: dict[tuple[str | int, ...], Any]) -> None:
    annotation = _unwrap(annotation)
    shape = _shape(annotation, in_row)
    if shape == "value":
        out[path] = value
    elif shape == "lines":
        out[path] = "\n".join(str(v) for v in value)
    elif shape == "yaml":
        out[path] = yaml.safe_dump(_plain(value), default_flow_style=True, sort_keys=False,
                                   allow_unicode=True, width=10**6).strip()
    elif _is_model(annotation):
        fields = _fields(annotation)
        for key, inner in value.items():
            _flatten(inner, fields[key].annotation, (*path, key), in_row, out)
    else:
        item = _list_item(annotation)
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
        fields = list(_fields(model)) if _is_model(model) else []
        key.append((1, fields.index(part) if part in fields else len(fields)))
        if _is_model(model) and part in _fields(model):
            annotation = _unwrap(_fields(model)[part].annotation)
            model = _list_item(annotation) if typing.get_origin(annotation) is list else annotation
    return tuple(key)


def export_rows(models: list[ShipClass]) -> tuple[list[str], list[list[Any]]]:
    """The header and rows for a list of classes: one row per ship, class cells on the first."""
    rows: list[dict[tuple[str | int, ...], Any]] = []
    ships_field = _fields(ShipClass)[ROW_LIST]
    for model in models:
        data = class_dict(model)
        top: dict[tuple[str | int, ...], Any] = {}
        for key, value in data.items():
            if key == ROW_LIST:
                continue
            _flatten(value, _fields(ShipClass)[key].annotation, (key,), False, top)
        for index, ship in enumerate(data[ROW_LIST]):
            row: dict[tuple[str | int, ...], Any] = dict(top) if index == 0 else {
                ("id",): data["id"]}
            flat: dict[tuple[str | int, ...], Any] = {}
            ship_fields = _fields(_list_item(_unwrap(ships_field.annotation)))
            for key, value in ship.items():
                _flatten(value, ship_fields[key].annotation, (ROW_LIST, "*", key), True, flat)
            row.update(flat)
            rows.append(row)
    paths = sorted({p for row in rows for p in row}, key=_order)
    header = [_dotted(p for p in path if p != "*") for path in paths]
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
