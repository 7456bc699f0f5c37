"""An .xlsx workbook bounded by what it really holds, before openpyxl reads any of it.

The zip's parts are checked (how many, how big, how compressed), every XML part is
streamed once through expat, bounded (no DOCTYPE, so no entities; at most
``MAX_ELEMENTS`` elements in all, ``MAX_STYLE_ELEMENTS`` in the styles, nested at most
``MAX_DEPTH`` deep), and the first worksheet's cells are streamed by ``scan_sheet``:
where its values are, and every merged cell, formula and value openpyxl would misread
or fail on, each at its cell.
"""

from __future__ import annotations

import math
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

from generator.core.errors import DataError, Problem
from generator.data.sheettable import (
    MAX_CELL_CHARS,
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_UNPACKED_BYTES,
    Table,
    short_reason,
)
from generator.data.validation import describe

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


def check_parts(archive: zipfile.ZipFile, shown: str) -> None:
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
        raise refuse(f"found a part that cannot be unpacked ({name}: {short_reason(exc)}), "
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


def scan_sheet(archive: zipfile.ZipFile, info: zipfile.ZipInfo, table: Table,
                strings: int) -> _SheetScan:
    """Stream a worksheet's XML (bounded as every part is) and say what it holds."""
    scan = _SheetScan(table, strings)
    _stream(archive, info, table.display, [MAX_ELEMENTS], scan)
    return scan
