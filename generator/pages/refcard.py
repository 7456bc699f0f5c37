"""A rules reference card's parts: sections, their tagged headings, prose, tables, arcs.

Every part is a block of the page engine (``generator.pages.pages``): measured by the
same code that draws it. Prose is a paragraph block, a table a ``Grid`` in the card's
boxed look, and the heading bar and the arc compasses are painters recorded once and
replayed where the column puts them. A ruleset's card (NAVAL ACTION's Action Card)
fills its columns with ``Section``s of these parts; what they say is the ruleset's.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.units import MM
from generator.pages.grid import Align, Grid
from generator.pages.layout import Pen
from generator.pages.pages import Block, GridBlock, KeepTogether, ParagraphBlock, Recorded, Spacer

INK = colors.Color(0.12, 0.12, 0.12)
HEAD_BG = colors.Color(0.22, 0.22, 0.22)
HEADING_H = 5.4 * MM
ARC_GREY = colors.Color(0.55, 0.55, 0.55)
"""The rim of an arc compass."""


# -- text -------------------------------------------------------------------------------------

@functools.cache
def _styles() -> dict[str, ParagraphStyle]:
    """Card paragraph styles: prose 7.8 pt, never below the kit's 7 pt floor.

    Paragraphs sit flush under each other (no space before or after): the card is full,
    and the gaps it has are spelled out as ``gap`` blocks.
    """
    fonts.register()
    body = ParagraphStyle("card-body", fontName=fonts.REGULAR, fontSize=7.8, leading=9.4,
                          textColor=INK)
    return {
        "body": body,
        "bullet": ParagraphStyle("card-bullet", parent=body, leftIndent=7, bulletIndent=0.5,
                                 bulletFontName=fonts.REGULAR),
        "note": ParagraphStyle("card-note", parent=body, fontName=fonts.NARROW, fontSize=7.4,
                               leading=8.6),
        "sub": ParagraphStyle("card-sub", parent=body, fontName=fonts.BOLD, fontSize=8.2,
                              leading=10),
    }


def para(text: str, style: str = "body") -> Block:
    """A paragraph of card prose (``text`` is markup: escape any data first)."""
    return ParagraphBlock(text, _styles()[style])


def bullet(text: str) -> Block:
    """A bulleted paragraph of card prose (markup)."""
    return ParagraphBlock(f"<bullet>•</bullet>{text}", _styles()["bullet"])


def gap(mm: float) -> Block:
    """Space between a section's parts."""
    return Spacer(mm * MM)


def yd(value: float) -> str:
    """Yards with thousands separators; half a yard rounds up (1,333 / 2 is 667)."""
    return f"{math.floor(value + 0.5):,}"


def signed(value: float) -> str:
    """+1, −2, 0 (typographic minus)."""
    if value == 0:
        return "0"
    text = f"{abs(value):g}"
    return f"+{text}" if value > 0 else f"−{text}"


def face_run(values: Sequence[int]) -> str:
    """Die faces as a run: [3, 4, 5, 6] is '3-6', [6] is '6', [1, 3] is '1, 3'."""
    ordered = sorted(values)
    if len(ordered) > 1 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}-{ordered[-1]}"
    return ", ".join(map(str, ordered))


def join(items: Iterable[str], last: str = "and") -> str:
    """'a, b and c'."""
    words = list(items)
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def in_six(chance: int) -> str:
    """'3 in 6', or 'certain'."""
    return "certain" if chance >= 6 else f"{chance} in 6"


def diff_label(value: int, first: bool, last: bool) -> str:
    """A differential column's heading; the end columns hold everything beyond them."""
    text = f"+{value}" if value > 0 else str(value)
    if first:
        return f"≤{text}"
    if last:
        return f"≥{text}"
    return text


# -- tables -----------------------------------------------------------------------------------

def table(rows: Sequence[Sequence[str | None]], widths_mm: Sequence[float], head_rows: int = 1,
          size: float = 7.6, aligns: Sequence[Align] = (), labels: int = 1,
          bold: Iterable[int] = (), spans: Sequence[tuple[int, int, int]] = (),
          tints: dict[str, colors.Color] | None = None, heavy: Iterable[int] = ()) -> Block:
    """A boxed card table (``Grid``): dark header rows, grey row labels, centred figures.

    Cells keep to one line, so a table is as tall whatever a user's file says: a label
    too long for its cell shrinks to the 7 pt floor, then ends in an ellipsis.

    Args:
        rows: Cell text, header rows first (a header ``None`` is covered by a span).
        widths_mm: Column widths in mm.
        head_rows: Rows drawn as the dark header.
        size: Type size (7.6 pt keeps ten columns legible in a column).
        aligns: Alignment per column (default centred).
        labels: Leading columns drawn as grey, bold row labels.
        bold: Further columns set in bold.
        spans: ``(header_row, first, last)`` merged header cells.
        tints: Background by exact cell text.
        heavy: Body rows set apart by a heavy rule above them.

    """
    body = [[cell or "" for cell in row] for row in rows[head_rows:]]
    return GridBlock(Grid([w * MM for w in widths_mm], [list(r) for r in rows[:head_rows]],
                          body, aligns, spans, tints=tints or {}, size=size,
                          labels=labels, bold=frozenset(bold),
                          zebra=False, heavy=frozenset(heavy), boxed=True))


def even(total_mm: float, label_mm: float, count: int) -> list[float]:
    """A label column then ``count`` equal columns filling ``total_mm``."""
    return [label_mm] + [(total_mm - label_mm) / count] * count


# -- sections ---------------------------------------------------------------------------------

@dataclass
class Section:
    """A heading with its content, placed whole in one column.

    Attributes:
        title: Heading text (also the bookmark title).
        tables: Names of the tables the section prints (the ruleset tags the heading
            from them: DEFAULT, FROM a file).
        body: Blocks under the heading.
        new_column: Start the next column (when the current one has anything in it).

    """

    title: str
    tables: tuple[str, ...]
    body: list[Block] = field(default_factory=list)
    new_column: bool = False

    def block(self, tags: Sequence[str]) -> Block:
        """The heading with its tags (DEFAULT, FROM a file...) and the body, kept together."""
        return KeepTogether([heading(self.title, tags), gap(1.2), *self.body])


# -- figures ----------------------------------------------------------------------------------

def heading(title: str, tags: Sequence[str]) -> Block:
    """A dark section bar with the title, and tags (DEFAULT, FROM file) at the right."""
    def paint(c: Canvas, width: float) -> float:
        c.setFillColor(HEAD_BG)
        c.rect(0, -HEADING_H, width, HEADING_H, stroke=0, fill=1)
        pen = Pen(c)
        right = width - 1 * MM
        for tag in reversed(tags):
            # A long file name is clipped rather than crowding out the title.
            text = fonts.clip_text(tag, fonts.NARROW_BOLD, 7.0, width * 0.45)
            w = fonts.string_width(text, fonts.NARROW_BOLD, 7.0) + 2.4 * MM
            c.setFillColor(colors.white)
            c.roundRect(right - w, 0.8 * MM - HEADING_H, w, HEADING_H - 1.6 * MM, 1, stroke=0,
                        fill=1)
            c.setFillColor(colors.black)
            pen.text(right - w / 2, 1.75 * MM - HEADING_H, text, size=7.0, bold=True,
                     narrow=True, align="center")
            right -= w + 1.2 * MM
        c.setFillColor(colors.white)
        pen.text(1.6 * MM, 1.65 * MM - HEADING_H, title, size=9.5, bold=True,
                 width=max(right - 2 * MM, 20 * MM))
        c.setFillColor(colors.black)
        return HEADING_H
    return Recorded(paint)


def arc_icon(c: Canvas, cx: float, cy: float, r: float, arcs: list[tuple[float, float]]) -> None:
    """A small compass: the ship points up; shaded sectors are where the battery bears."""
    c.setLineWidth(0.4)
    c.setStrokeColor(ARC_GREY)
    c.setFillColor(colors.white)
    c.circle(cx, cy, r, stroke=1, fill=1)
    c.setFillColor(colors.Color(0.35, 0.35, 0.35))
    for start, end in arcs:
        # bearings run clockwise from the bow; ReportLab angles anticlockwise from east
        c.wedge(cx - r, cy - r, cx + r, cy + r, 90 - end, end - start, stroke=0, fill=1)
    c.setFillColor(colors.white)
    c.setStrokeColor(colors.black)
    path = c.beginPath()
    path.moveTo(cx, cy + r * 0.62)
    path.lineTo(cx + r * 0.2, cy - r * 0.1)
    path.lineTo(cx + r * 0.14, cy - r * 0.55)
    path.lineTo(cx - r * 0.14, cy - r * 0.55)
    path.lineTo(cx - r * 0.2, cy - r * 0.1)
    path.close()
    c.drawPath(path, stroke=1, fill=1)
    c.setFillColor(colors.black)


ARC_ROW_H = 10.5 * MM
ARC_RADIUS = 4.4 * MM


def arcs(spans_by_key: Sequence[tuple[str, str, list[tuple[float, float]]]]) -> Block:
    """Battery arcs as small compasses (ship pointing up), three to a row."""
    def paint(c: Canvas, width: float) -> float:
        pen = Pen(c)
        cell_w = width / 3
        r = ARC_RADIUS
        for i, (key, name, spans) in enumerate(spans_by_key):
            row, col = divmod(i, 3)
            x = col * cell_w
            cy = -row * ARC_ROW_H - ARC_ROW_H / 2
            arc_icon(c, x + r + 0.5 * MM, cy, r, spans)
            tx = x + 2 * r + 2.5 * MM
            tw = cell_w - (tx - x) - 1 * MM
            # Key line, then one line per span, centred on the compass.
            line = 2.9 * MM
            y = cy + (len(spans) * line) / 2 - 1.2 * MM
            drawn = pen.text(tx, y, key, size=8.5, bold=True, width=tw / 2)
            pen.text(tx + drawn + 1.2 * MM, y, name, size=7, narrow=True,
                     width=tw - drawn - 1.2 * MM)
            for start, end in spans:
                y -= line
                pen.text(tx, y, f"{start % 360:g}°–{end % 360:g}°", size=7, narrow=True,
                         width=tw)
        return -(-len(spans_by_key) // 3) * ARC_ROW_H
    return Recorded(paint)
