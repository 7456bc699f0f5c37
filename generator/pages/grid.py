"""Fast ruled tables drawn straight on a canvas (every ruleset's numeric tables).

Platypus tables draw each cell with its own string call and cost ~50 µs a cell; a
matchup page has ~400 cells. Here a whole table is one text object plus one path of
rules, which is several times faster and lets a component know exactly how many rows
fit on a page. Cells wrap (left-aligned columns) or shrink to the 7 pt floor and are
clipped with an ellipsis, so no label ever spills out of its box.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.units import MM
from generator.pages.wordwrap import wrap_list

Align = Literal["left", "center", "right"]
HEAD_BG = colors.Color(0.2, 0.2, 0.2)
ZEBRA = colors.Color(0.94, 0.94, 0.94)
GROUP_BG = colors.Color(0.82, 0.82, 0.82)
RULE = colors.Color(0.72, 0.72, 0.72)
LABEL_BG = colors.Color(0.85, 0.85, 0.85)
PAD = 0.6 * MM
# Tables repeat the same few strings ("dud", "HD", "42%") thousands of times.
_FITTED: dict[tuple[str, str, float, float], tuple[float, str, float]] = {}


def aligned(left: int, total: int) -> list[Align]:
    """``left`` left-aligned label columns followed by centred ones, ``total`` in all."""
    lefts: list[Align] = ["left"] * left
    centred: list[Align] = ["center"] * (total - left)
    return lefts + centred


@dataclass
class Grid:
    """A table of plain-text cells with fixed column widths: the kit's one table builder.

    Attributes:
        widths: Column widths in points.
        header: Header rows; a cell of ``None`` is covered by a span.
        rows: Body rows (strings).
        aligns: Alignment per column (body); headers are centred.
        spans: ``(header_row, first_col, last_col)`` merged header cells.
        group_rows: Body rows drawn as full-width shaded headings.
        tints: Background colour by exact cell text.
        size: Font size (the 7 pt floor applies).
        wrap: Columns whose text wraps onto several lines instead of shrinking (a
            newline in such a cell always starts a new line).
        labels: Leading columns that label their rows: shaded and bold.
        bold: Further body columns set in bold.
        zebra: Shade every other body row.
        heavy: Body rows with a heavy rule above them (a part of the table set apart).
        boxed: Frame the whole table with a heavy rule (a reference card's tables).

    """

    widths: Sequence[float]
    header: Sequence[Sequence[str | None]]
    rows: Sequence[Sequence[str]]
    aligns: Sequence[Align] = ()
    spans: Sequence[tuple[int, int, int]] = ()
    group_rows: frozenset[int] = frozenset()
    tints: Mapping[str, colors.Color] = field(default_factory=dict)
    size: float = 7.5
    wrap: frozenset[int] = frozenset()
    labels: int = 0
    bold: frozenset[int] = frozenset()
    zebra: bool = True
    heavy: frozenset[int] = frozenset()
    boxed: bool = False

    def __post_init__(self) -> None:
        self.size = max(self.size, fonts.MIN_SIZE)
        self.leading = self.size * 1.18
        self._lines = [self._split(r, i) for i, r in enumerate(self.rows)]

    def _split(self, row: Sequence[str], index: int) -> list[list[str]]:
        if index in self.group_rows:
            return [[row[0]]]
        out = []
        for c, text in enumerate(row):
            if c in self.wrap:
                # Measured in the face the cell is drawn in; a newline starts a line.
                font = fonts.NARROW_BOLD if c < self.labels or c in self.bold else fonts.NARROW
                out.append([line for part in text.split("\n")
                            for line in wrap_list(part, self.widths[c] - 2 * PAD, self.size,
                                                  font)])
            else:
                out.append([text])
        return out

    @property
    def width(self) -> float:
        """Total width in points."""
        return float(sum(self.widths))

    def edges(self, x: float) -> list[float]:
        """The columns' edges, left to right, for a table whose left edge is at ``x``."""
        xs = [x]
        for w in self.widths:
            xs.append(xs[-1] + w)
        return xs

    def row_height(self, index: int) -> float:
        """Height of a body row in points."""
        lines = max(len(cell) for cell in self._lines[index])
        return lines * self.leading + 2 * PAD * 0.8

    @property
    def header_height(self) -> float:
        """Height of all header rows in points."""
        return len(self.header) * (self.leading + 1.6 * PAD * 0.8)

    def height(self, start: int = 0, end: int | None = None) -> float:
        """Height of the header and body rows ``start:end`` (what ``draw`` steps down by)."""
        end = len(self.rows) if end is None else end
        return self.header_height + sum(self.row_height(i) for i in range(start, end))

    def fitting(self, start: int, height: float) -> int:
        """How many body rows from ``start`` fit under the header in ``height`` points."""
        used = self.header_height
        count = 0
        for i in range(start, len(self.rows)):
            used += self.row_height(i)
            if used > height:
                break
            count += 1
        return count

    def header_text(self, text: Any, xs: list[float], top: float) -> float:
        """Write the header's labels into ``text``, rows down from ``top``.

        White, bold, centred over spans. Returns the y below the header.
        """
        spans = {(r, c0): c1 for r, c0, c1 in self.spans}
        covered = {(r, c) for r, c0, c1 in self.spans for c in range(c0 + 1, c1 + 1)}
        text.setFillColor(colors.white)
        y = top
        for r, row in enumerate(self.header):
            baseline = y - PAD * 0.8 - self.size
            for c, cell in enumerate(row):
                if cell is None or (r, c) in covered:
                    continue
                last = spans.get((r, c), c)
                self._cell(text, cell, xs[c], xs[last + 1], baseline, "center", bold=True)
            y -= self.leading + 1.6 * PAD * 0.8
        return y

    def paint_row(self, canvas: Canvas, text: Any, i: int, xs: list[float], top: float,
                  first: int = 0, last: int | None = None) -> None:
        """Paint body row ``i``, columns ``first:last``, its top at ``top``.

        Its shading goes on ``canvas`` and its words into ``text``; ``xs`` are the
        columns' edges. ``draw`` and the form drawer (``gridforms``) paint every row through this.
        """
        h = self.row_height(i)
        row = self.rows[i]
        if i in self.group_rows:
            canvas.setFillColor(GROUP_BG)
            canvas.rect(xs[0], top - h, self.width, h, stroke=0, fill=1)
            self._cell(text, row[0], xs[0], xs[-1], top - PAD * 0.8 - self.size, "left",
                       bold=True)
            return
        last = len(self.widths) if last is None else last
        for c in range(first, last):
            tint = self.tints.get(row[c]) or (LABEL_BG if c < self.labels else None)
            if tint is not None:
                canvas.setFillColor(tint)
                canvas.rect(xs[c], top - h, self.widths[c], h, stroke=0, fill=1)
        for c in range(first, last):
            align: Align = self.aligns[c] if c < len(self.aligns) else "center"
            bold = c < self.labels or c in self.bold
            for n, line in enumerate(self._lines[i][c]):
                baseline = top - PAD * 0.8 - self.size - n * self.leading
                self._cell(text, line, xs[c], xs[c + 1], baseline, align, bold)

    def paint_rules(self, canvas: Canvas, x: float, top: float, start: int, end: int) -> None:
        """The rules of body rows ``start:end`` under the header, left edge at ``x``.

        Hairlines under the header and every row and between a row's columns; then the
        heavy rules (``heavy``, ``boxed``) over them.
        """
        xs = self.edges(x)
        y = top - self.header_height
        rules = [(x, y, x + self.width, y)]
        heavy: list[tuple[float, float, float, float]] = []
        for i in range(start, end):
            h = self.row_height(i)
            if i in self.heavy:
                heavy.append((x, y, x + self.width, y))
            if i not in self.group_rows:
                for c in range(1, len(self.widths)):
                    rules.append((xs[c], y, xs[c], y - h))
            y -= h
            rules.append((x, y, x + self.width, y))
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.3)
        canvas.lines(rules)
        if heavy or self.boxed:
            canvas.setStrokeColor(colors.black)
            canvas.setLineWidth(0.8)
            if heavy:
                canvas.lines(heavy)
            if self.boxed:
                canvas.rect(x, y, self.width, top - y, stroke=1, fill=0)

    def draw(self, canvas: Canvas, x: float, top: float, start: int = 0,
             end: int | None = None) -> float:
        """Draw the header and body rows ``start:end`` with the top-left at (x, top).

        Returns:
            The height drawn, in points (``height(start, end)``).

        """
        end = len(self.rows) if end is None else end
        xs = self.edges(x)
        text = canvas.beginText()
        # Header background, then header text (white, bold, centred over spans).
        canvas.setFillColor(HEAD_BG)
        canvas.rect(x, top - self.header_height, self.width, self.header_height, stroke=0,
                    fill=1)
        y = self.header_text(text, xs, top)
        text.setFillColor(colors.black)
        for i in range(start, end):
            h = self.row_height(i)
            if self.zebra and (i - start) % 2 and i not in self.group_rows:
                canvas.setFillColor(ZEBRA)
                canvas.rect(x, y - h, self.width, h, stroke=0, fill=1)
            self.paint_row(canvas, text, i, xs, y)
            y -= h
        self.paint_rules(canvas, x, top, start, end)
        canvas.setStrokeColor(colors.black)
        canvas.drawText(text)
        canvas.setFillColor(colors.black)
        return top - y

    def _cell(self, text: object, value: str, left: float, right: float, baseline: float,
              align: Align, bold: bool = False) -> None:
        font = fonts.NARROW_BOLD if bold else fonts.NARROW
        width = right - left - 2 * PAD
        key = (value, font, self.size, round(width, 2))
        fitted = _FITTED.get(key)
        if fitted is None:
            size = fonts.fit_size(value, font, self.size, width)
            clipped = fonts.clip_text(value, font, size, width)
            fitted = _FITTED[key] = (size, clipped, fonts.string_width(clipped, font, size))
        size, value, drawn = fitted
        if align == "center":
            px = left + (right - left - drawn) / 2
        elif align == "right":
            px = right - PAD - drawn
        else:
            px = left + PAD
        text.setFont(font, size)  # type: ignore[attr-defined]
        text.setTextOrigin(px, baseline)  # type: ignore[attr-defined]
        text.textOut(value)  # type: ignore[attr-defined]
