"""One die-roll table model for every ruleset: combat results, damage charts, hit tables.

A table names its die (``d6``, ``d10``, ``d20``, ``2d6``: any ``NdS``), a row of column
headings (named columns, numeric thresholds such as strength differentials, or odds
ratios such as ``1:2 1:1 2:1``), and rows keyed by a roll or a range of rolls
(``3-4``) holding result keys. Reading it follows the usual tabletop conventions, each
written once here:

- a column is picked by name, by the last threshold a value reaches, or by the last
  odds ratio an attack reaches (rounded in the defender's favour);
- column shifts move left or right and stop at the edge, unless the table says a
  shift past its edge is not allowed;
- a die modifier moves the roll, and a modified roll beyond the rows reads the
  nearest row.

The exact odds of a reading (``odds``) come from the shared dice engine, and ``die_grid``
prints the table as a :class:`~generator.pages.grid.Grid`. ``load_die_table`` reads one from
YAML with every problem located ``file:line:column``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, PrivateAttr, ValidationError, field_validator, model_validator

from generator.core.errors import DataError, Problem, UsageError
from generator.core.units import MM
from generator.data.datamodel import Strict
from generator.data.validation import describe, load_model
from generator.data.yamlsource import Loc, SourceDoc
from generator.rules import dice
from generator.rules.defaults import LABEL, Default, Defaults, is_default

if TYPE_CHECKING:  # only drawing a table needs the page engine; only odds need icepool
    import icepool

    from generator.pages.grid import Grid

MAX_COUNT = 10
MAX_SIDES = 100
MAX_SPAN = 1000
"""The most rolls a table's rows may cover (a 10d100 table would be far past any game)."""
_DIE = re.compile(r"^([1-9][0-9]?)?d([1-9][0-9]{0,2})$")
_RANGE = re.compile(r"^\s*(-?[0-9]{1,4})\s*(?:[-–]\s*(-?[0-9]{1,4}))?\s*$")
_RATIO = re.compile(r"^\s*([0-9]{1,4})\s*:\s*([1-9][0-9]{0,3})\s*$")

Heading = int | float | str
Cell = Annotated[str, Field(max_length=120)] | int
Shift = Annotated[int, Field(ge=-40, le=40)]
Modifier = Annotated[int, Field(ge=-100, le=100)]


def parse_die(text: str) -> tuple[int, int]:
    """``"2d6"`` as ``(2, 6)``; ``"d20"`` as ``(1, 20)``.

    Raises:
        ValueError: When the text is not ``NdS`` within the bounds.

    """
    match = _DIE.match(text.strip())
    if match is None:
        raise ValueError("expected a die like d6, d10, d20 or 2d6")
    count, sides = int(match.group(1) or 1), int(match.group(2))
    if count > MAX_COUNT or not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"expected at most {MAX_COUNT} dice of 2 to {MAX_SIDES} sides")
    return count, sides


def parse_rolls(key: int | str) -> tuple[int, int] | None:
    """A row key (``5``, ``"5"``, ``"3-4"``, ``"-1"``) as its lowest and highest roll."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key, key
    match = _RANGE.match(key)
    if match is None:
        return None
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) is not None else low
    return (low, high) if low <= high else None


def parse_ratio(heading: Heading) -> Fraction | None:
    """An odds heading ``"3:2"`` as the exact ratio 3/2 (None if it is not one)."""
    match = _RATIO.match(heading) if isinstance(heading, str) else None
    return Fraction(int(match.group(1)), int(match.group(2))) if match else None


def width_message(found: int, width: int) -> str:
    """The one wording for a row with the wrong number of cells."""
    return f"found {found} cells, expected {width} (one per column)"


def row_width_problems(doc: SourceDoc, grids: Mapping[str, Sequence[str]]) -> list[Problem]:
    """Rows whose length differs from their table's columns, located at the row itself.

    ``grids`` names, for each top-level table of the file (``{columns: [...], ...}``),
    the keys holding its rows: a list of cells, or rows of cells by key. A model can
    check this too, but a model-level check can only point at the whole table; a user
    fixing their table wants the line of the short row.
    """
    data = doc.data if isinstance(doc.data, dict) else {}
    problems = []
    for table, keys in grids.items():
        grid = data.get(table)
        if not isinstance(grid, dict) or not isinstance(grid.get("columns"), list):
            continue
        width = len(grid["columns"])
        for key in keys:
            value = grid.get(key)
            rows = value.items() if isinstance(value, dict) else [(None, value)]
            for face, cells in rows:
                if isinstance(cells, list) and len(cells) != width:
                    loc = (table, key) if face is None else (table, key, face)
                    problems.append(doc.problem(loc, width_message(len(cells), width)))
    return problems


CELL = " @ "
"""Between a row's key and a column's heading in a cell's name (``"-3--2 @ 3:2"``)."""


def cell_key(row: int | str, column: Heading) -> str:
    """The name a table's ``defaults`` gives one cell: ``"-3--2 @ 3:2"``."""
    return f"{row}{CELL}{column}"


def _span_text(low: int, high: int) -> str:
    return f"{low}" if low == high else f"{low} to {high}"


class _Shape(Strict):
    """The fields of a die table, checked for type only (see ``DieTable``)."""

    title: str = Field(default="", max_length=120, description="The table's printed title.")
    default: Default = False
    defaults: Defaults = Field(default_factory=list)
    """The cells quarterdeck chose (printed DEFAULT), each ``"ROW @ COLUMN"``
    (``cell_key``): a row's key as written and a column's heading."""
    reference: str = Field(default="", max_length=120,
                           description="Where in the rules the table comes from.")
    die: str = Field(description="The die rolled: d6, d10, d20, 2d6 (any NdS).")
    axis: Literal["named", "threshold", "ratio"] = Field(
        default="named", description="How a column is picked: by name, by the last numeric heading "
                             "a value reaches, or by the last odds ratio an attack reaches.")
    columns: list[Heading] = Field(min_length=1, max_length=40,
                                   description="Column headings, left to right.")
    below_first: Literal["hold", "none"] = Field(
        default="hold", description="A value under the first threshold or ratio reads the first "
                            "column ('hold') or no column at all ('none').")
    past_edge: Literal["hold", "error"] = Field(
        default="hold", description="A column shift past either edge stops there ('hold') or is "
                            "not allowed ('error').")
    rolls: int | str | None = Field(
        default=None, description="The span of (modified) rolls the rows cover, e.g. '-1-8'; "
                          "defaults to the die's own faces.")
    rows: dict[int | str, Annotated[list[Cell], Field(max_length=40)]] = Field(
        min_length=1, max_length=200,
        description="Result keys by roll or range of rolls ('3-4'), one per column.")
    legend: dict[str, Annotated[str, Field(max_length=200)]] = Field(
        default_factory=dict, max_length=60,
        description="What each result key means; when given, every cell must be a key.")
    shifts: dict[str, Shift] = Field(
        default_factory=dict, max_length=60,
        description="Named column shifts (right is positive).")
    modifiers: dict[str, Modifier] = Field(
        default_factory=dict, max_length=60, description="Named die-roll modifiers.")

    @field_validator("die")
    @classmethod
    def _die(cls, value: str) -> str:
        parse_die(value)
        return value


def _span(shape: _Shape) -> tuple[int, int]:
    """The rolls the rows must cover: the ``rolls`` field, else the die's faces."""
    if shape.rolls is not None:
        span = parse_rolls(shape.rolls)
        if span is not None:
            return span
    count, sides = parse_die(shape.die)
    return count, count * sides


def faults(shape: _Shape) -> list[tuple[Loc, str, bool]]:
    """Everything wrong with a type-checked table: (field path, message, at the key).

    One list serves both the model (which refuses the first) and the YAML loader
    (which locates them all).
    """
    out: list[tuple[Loc, str, bool]] = []
    width = len(shape.columns)
    out += _column_faults(shape)
    if shape.rolls is not None:
        span = parse_rolls(shape.rolls)
        if span is None or span[1] - span[0] >= MAX_SPAN:
            out.append((("rolls",), f"found {describe(shape.rolls)}, expected a span of rolls "
                                    f"like '1-6' or '-1-8', at most {MAX_SPAN} rolls", False))
            return out
    low, high = _span(shape)
    if high - low >= MAX_SPAN:
        return [(("die",), f"found {shape.die}, expected at most {MAX_SPAN} rolls", False)]
    out += _row_faults(shape, low, high)
    out += _default_faults(shape)
    if shape.past_edge == "error":
        for name, shift in shape.shifts.items():
            if abs(shift) > width - 1:
                out.append((("shifts", name), f"found a shift of {shift} columns, expected at "
                                              f"most {width - 1} either way (the table has "
                                              f"{width} columns and allows no shift past "
                                              "its edge)", False))
    return out


def _row_faults(shape: _Shape, low: int, high: int) -> list[tuple[Loc, str, bool]]:
    """Rows that are unreadable, outside the rolls, overlapping, short, or off the legend."""
    out: list[tuple[Loc, str, bool]] = []
    owner: dict[int, int | str] = {}
    misplaced = False
    for key, cells in shape.rows.items():
        rolls = parse_rolls(key)
        if rolls is None:
            misplaced = True
            out.append((("rows", key), f"found row {describe(key)}, expected a roll or a "
                                       "range of rolls like '3-4'", True))
            continue
        if rolls[0] < low or rolls[1] > high:
            misplaced = True
            where = f"a {shape.die} table" if shape.rolls is None else "the table's rolls"
            out.append((("rows", key), f"found roll {_span_text(*rolls)}, expected rolls "
                                       f"{low} to {high} ({where})", True))
            continue
        taken = [r for r in range(rolls[0], rolls[1] + 1) if r in owner]
        if taken:
            out.append((("rows", key), f"found roll {taken[0]} in rows '{owner[taken[0]]}' "
                                       f"and '{key}', expected each roll in one row", True))
        owner.update({r: key for r in range(rolls[0], rolls[1] + 1)})
        if len(cells) != len(shape.columns):
            out.append((("rows", key), width_message(len(cells), len(shape.columns)), False))
        out += [(("rows", key, i), f"found result {describe(cell)}, expected one of the "
                                   f"legend's keys: {', '.join(shape.legend)}", False)
                for i, cell in enumerate(cells) if shape.legend and str(cell) not in shape.legend]
    missing = [r for r in range(low, high + 1) if r not in owner]
    if missing and not misplaced:  # a misplaced row is the likelier fault: say that alone
        shown = ", ".join(map(str, missing[:8])) + (", ..." if len(missing) > 8 else "")
        out.append((("rows",), f"found no row for roll {shown}, expected rows covering "
                               f"{low} to {high}", False))
    return out


def _default_faults(shape: _Shape) -> list[tuple[Loc, str, bool]]:
    """DEFAULT cells that name no row or no column of the table."""
    rows = [str(k) for k in shape.rows]
    out: list[tuple[Loc, str, bool]] = []
    for i, key in enumerate(shape.defaults):
        row, _, column = key.partition(CELL)
        if row not in rows or column not in [str(h) for h in shape.columns]:
            out.append((("defaults", i), f"found {describe(key)}, expected a cell as 'ROW @ "
                                         f"COLUMN': a row ({', '.join(rows)}) and a column "
                                         f"({', '.join(map(str, shape.columns))})", False))
    return out


def _column_faults(shape: _Shape) -> list[tuple[Loc, str, bool]]:
    out: list[tuple[Loc, str, bool]] = []
    seen: set[str] = set()
    for i, heading in enumerate(shape.columns):
        if str(heading) in seen:
            out.append((("columns", i), f"found heading {describe(heading)} twice, expected "
                                        "each column once", False))
        seen.add(str(heading))
    if shape.axis == "named":
        return out
    values: list[Fraction] = []
    for i, heading in enumerate(shape.columns):
        value = _axis_value(shape.axis, heading)
        if value is None:
            kind = "a number" if shape.axis == "threshold" else "an odds ratio like '3:2'"
            out.append((("columns", i), f"found {describe(heading)}, expected {kind} (axis "
                                        f"{shape.axis})", False))
        elif values and value <= values[-1]:
            out.append((("columns", i), f"found {describe(heading)}, expected headings in "
                                        "increasing order", False))
        else:
            values.append(value)
    return out


def _axis_value(axis: str, heading: Heading) -> Fraction | None:
    if axis == "ratio":
        return parse_ratio(heading)
    if isinstance(heading, bool) or isinstance(heading, str):
        return None
    return Fraction(heading)


class DieTable(_Shape):
    """A die-roll table (see the module docstring), checked for sense as well as type.

    The lookups are built once, when the table is validated: make a changed table with
    ``DieTable.model_validate`` (or ``build``), not ``model_copy(update=...)``.
    """

    _spans: list[tuple[int, int, tuple[str, ...]]] = PrivateAttr(default_factory=list)
    _by_roll: dict[int, tuple[str, ...]] = PrivateAttr(default_factory=dict)
    _axis: list[Fraction] = PrivateAttr(default_factory=list)

    @model_validator(mode="after")
    def _sense(self) -> DieTable:
        found = faults(self)
        if found:
            where, message, _ = found[0]
            raise ValueError(f"{'.'.join(map(str, where))}: {message}")
        for key, cells in self.rows.items():
            rolls = parse_rolls(key)
            assert rolls is not None
            row = tuple(str(c) for c in cells)
            self._spans.append((rolls[0], rolls[1], row))
            self._by_roll.update({r: row for r in range(rolls[0], rolls[1] + 1)})
        if self.axis != "named":
            self._axis = [v for h in self.columns if (v := _axis_value(self.axis, h))
                          is not None]
        return self

    # -- shape -------------------------------------------------------------------------

    @property
    def dice(self) -> tuple[int, int]:
        """``(count, sides)`` of the die."""
        return parse_die(self.die)

    @property
    def span(self) -> tuple[int, int]:
        """The lowest and highest roll the rows cover."""
        return min(self._by_roll), max(self._by_roll)

    @property
    def headings(self) -> list[str]:
        """The column headings as printed."""
        return [str(h) for h in self.columns]

    @property
    def label(self) -> str:
        """``"DEFAULT"`` for a table of quarterdeck's design, else ``""``."""
        return LABEL if self.default else ""

    def is_default(self, row: int | str, column: Heading) -> bool:
        """Whether a cell (a row's key, a column's heading) is one quarterdeck chose."""
        return is_default(self, cell_key(row, column))

    def row_labels(self) -> list[str]:
        """Each row's roll as printed (``"3-4"``, ``"6"``), in the order written."""
        return [_span_text(a, b).replace(" to ", "-") for a, b, _ in self._spans]

    def results(self) -> list[str]:
        """Every result key, in the order they first appear reading the rows."""
        out: dict[str, None] = {}
        for _, _, row in self._spans:
            out.update(dict.fromkeys(row))
        return list(out)

    # -- picking a column ----------------------------------------------------------------

    def index(self, heading: Heading) -> int:
        """The index of a column by its printed heading.

        Raises:
            UsageError: The table has no such column.

        """
        text = str(heading)
        if text not in self.headings:
            raise UsageError(f"found column '{text}', expected one of "
                             f"{', '.join(self.headings)}")
        return self.headings.index(text)

    def column_for(self, value: int | float | Fraction) -> int | None:
        """The column a value reads on a threshold or ratio axis: the last heading reached.

        Below the first heading the table holds the first column, or gives None when it
        says such a value reads no column. Past the last it holds the last.

        Raises:
            UsageError: The table's columns are named, not numbers or ratios.

        """
        if self.axis == "named":
            raise UsageError(f"found a value {value} for a table of named columns, expected "
                             "a heading (use index)")
        found = dice.column_for(self._axis, value)
        if found is None and self.below_first == "hold":
            return 0
        return found

    def ratio_column(self, attack: int | Fraction, defence: int | Fraction) -> int | None:
        """The odds column for attacker:defender strengths, rounded in the defender's favour.

        5 against 2 is 2.5:1 and reads 2:1; an undefended target reads the last column.
        """
        if defence <= 0:
            return len(self.columns) - 1
        return self.column_for(Fraction(attack) / Fraction(defence))

    def shifted(self, index: int, shift: int) -> int:
        """The column ``shift`` places right of ``index`` (left when negative).

        Raises:
            UsageError: The shift passes the edge of a table that does not allow it.

        """
        if self.past_edge == "error" and not 0 <= index + shift < len(self.columns):
            raise UsageError(f"found a shift of {shift:+d} from column "
                             f"'{self.headings[index]}', expected one that stays within "
                             f"'{self.headings[0]}' to '{self.headings[-1]}'")
        return dice.shift_column(range(len(self.columns)), index, shift)

    # -- reading a roll ------------------------------------------------------------------

    def row_for(self, roll: int) -> int:
        """The row a (modified) roll reads: rolls beyond the rows read the nearest row."""
        low, high = self.span
        return dice.clamp(roll, low, high)

    def cell(self, roll: int, index: int, *, shift: int = 0, modifier: int = 0) -> str:
        """The result key for a natural roll, column, column shift and die modifier."""
        return self._by_roll[self.row_for(roll + modifier)][self.shifted(index, shift)]

    def die_roll(self) -> icepool.Die[int]:
        """The die the table rolls, as an exact distribution."""
        count, sides = self.dice
        return dice.pool_sum(count, sides)

    def faces(self) -> range:
        """Every natural roll of the die."""
        count, sides = self.dice
        return range(count, count * sides + 1)


def build(**fields: object) -> DieTable:
    """A die table from a ruleset's own fields, for use inside that ruleset's validators.

    Raises:
        ValueError: ``expected a valid die table (where: found X, expected Y)``, which the
            located error machinery reports at the ruleset's table.

    """
    try:
        return DieTable.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        text = str(first.get("ctx", {}).get("error", first["msg"]))
        raise ValueError(f"expected a valid die table ({where + ': ' if where else ''}"
                         f"{text})") from None


def roll(table: DieTable, index: int, *, shift: int = 0, modifier: int = 0,
         ) -> icepool.Die[str]:
    """The result keys of one roll on ``table`` as an exact die (for further combining)."""
    column = table.shifted(index, shift)
    reading = {face: table.cell(face, column, modifier=modifier) for face in table.faces()}
    return dice.read_table(table.die_roll(), reading)


def odds(table: DieTable, index: int, *, shift: int = 0, modifier: int = 0,
         ) -> dict[str, Fraction]:
    """Exact chance of each result key for one roll, in the order the rolls reach them.

    Args:
        table: The table.
        index: The column (see ``index``, ``column_for`` and ``ratio_column``).
        shift: Columns right (negative: left).
        modifier: Added to the die roll.

    """
    dist: dict[str, Fraction] = dice.distribution(roll(table, index, shift=shift,
                                                       modifier=modifier))
    column = table.shifted(index, shift)
    order = [table.cell(face, column, modifier=modifier) for face in table.faces()]
    return {key: dist[key] for key in dict.fromkeys(order) if key in dist}



# -- loading -----------------------------------------------------------------------------


def table_problems(doc: SourceDoc, loc: Loc = ()) -> list[Problem]:
    """Located problems of the die table at ``loc`` in a loaded YAML document.

    Use as (part of) a ``precheck`` for ``load_model`` when a ruleset's file holds die
    tables: problems of type are left to the model, which locates them itself.
    """
    data = doc.data
    for part in loc:
        data = data.get(part) if isinstance(data, dict) else None
    try:
        shape = _Shape.model_validate(data)
    except ValidationError:
        return []
    return [doc.problem((*loc, *where), message, key=key)
            for where, message, key in faults(shape)]


def load_die_table(path: Path, display: str | None = None) -> DieTable:
    """Read one die table from a YAML file.

    Raises:
        DataError: Every problem, each located ``file:line:column: field: found X,
            expected Y``.

    """
    return load_model(DieTable, path, display, precheck=table_problems)


def check(table: DieTable, doc: SourceDoc, loc: Loc) -> None:
    """Raise the located problems of an embedded table (for callers without a precheck).

    Raises:
        DataError: When the table at ``loc`` has faults.

    """
    problems = table_problems(doc, loc)
    if problems:
        raise DataError(problems)


# -- printing ----------------------------------------------------------------------------


def die_grid(table: DieTable, *, percentages: bool = False, first_mm: float = 12,
             column_mm: float = 14, size: float = 7.5, shift: int = 0,
             modifier: int = 0) -> Grid:
    """The table as a Grid: rolls down the side, headings across.

    Args:
        table: The table.
        percentages: Add, under the rows, one row per result key with its exact chance
            in each column (for the given shift and modifier).
        first_mm: Width of the roll column.
        column_mm: Width of each result column.
        size: Font size (the grid holds the 7 pt floor).
        shift: Column shift applied to the percentages.
        modifier: Die modifier applied to the percentages.

    """
    rows = [[label, *row] for label, (_, _, row) in zip(table.row_labels(), table._spans,
                                                          strict=True)]
    groups: set[int] = set()
    if percentages:
        groups.add(len(rows))
        rows.append([f"Chance per roll{f', shift {shift:+d}' if shift else ''}"
                     f"{f', modifier {modifier:+d}' if modifier else ''}"])
        per_column = [odds(table, i, shift=shift, modifier=modifier)
                      for i in range(len(table.columns))]
        for key in table.results():
            chances = [dist.get(key, Fraction(0)) for dist in per_column]
            rows.append([key, *[dice.percent(p, 1) if p else "–" for p in chances]])
    header: list[list[str | None]] = [[table.die, *table.headings]]
    widths = [first_mm * MM, *[column_mm * MM] * len(table.columns)]
    from generator.pages.grid import Grid

    return Grid(widths, header, rows, size=size, group_rows=frozenset(groups))
