"""The words every spreadsheet module shares: the read table, its cells, its bounds.

A sheet of ship classes is read (``generator.data.sheetread``) into a ``Table``: the
header cells and the data rows, each cell with its place, so every problem is reported
at its cell (``ships.xlsx:Sheet1!C14`` or ``ships.csv:14:3``). The bounds here hold for
.csv and .xlsx alike; ``FORMULA_START`` for every spreadsheet quarterdeck writes.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from generator.core.errors import Problem

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



def short_reason(exc: BaseException) -> str:
    """An exception as a short, one-line reason."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:80]}"


def comment_text(text: str) -> str:
    r"""``text`` made safe for one YAML comment line.

    Every character that is not printable (a line break of any kind, a control character,
    a lone surrogate from an undecodable file name) is written as its Python escape
    (``\n``, ``\x1b``, ``\udcff``).
    """
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)
