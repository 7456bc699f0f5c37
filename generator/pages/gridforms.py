"""Draw repeated table parts once: ``Grid`` pieces and paragraphs as PDF form XObjects.

A big battle's matchup pages repeat the same header, the same rule skeleton, the same
legend and many identical rows (one battery against one armour value reads the same for
every ship that carries it). Each such piece is drawn once into a form XObject, and
every page that shows it places it with one ``Do``: the file carries its content once.

Forms are named by a hash of exactly what they draw (``PREFIX`` + 16 hex digits), so a
name means the same drawing in any document and across runs (builds stay
byte-identical), and a form is defined by the first user that finds it missing from the
canvas's document (``Canvas.hasForm``): components drawn onto one shared document reuse
each other's forms, and one drawn alone defines its own.

The pieces are drawn in the order ``Grid.draw`` paints them, so pages look exactly as
before: per body row its zebra shading (on the page), then each part of the row (a
range of columns: its tints and text); after all rows the rules. (The text used to
follow the rules in one text object; no glyph reaches a rule or another cell, so only
the stream order changes.) Coordinates inside a form are relative to its placement.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.pages.grid import HEAD_BG, ZEBRA, Grid
from generator.pages.pages import Block, GridBlock, ParagraphBlock

PREFIX = "qd-f-"
BAND = 100.0
"""Points between the bands of ``place``: more than a row, a header or a legend is tall."""
PARA_BAND, HEAD_BAND, ROW_BANDS = 0, 1, (2, 3)
"""Bands of paragraphs, grid headers, and even and odd body rows (see ``place``)."""
SLACK = 2.0
"""Points the form's box reaches past what it draws (a rule's half width, glyph overhang)."""


def form_name(*what: object) -> str:
    """A stable form name for a drawing described by ``what`` (its complete inputs)."""
    digest = hashlib.sha256(repr(what).encode("utf-8")).hexdigest()[:16]
    return f"{PREFIX}{digest}"


def place(canvas: Canvas, name: str, x: float, y: float,
          box: tuple[float, float, float, float], draw: Callable[[], None],
          as_form: bool = True, band: int = 0, text: bool = True) -> None:
    """Draw at (x, y) through form ``name`` (defined now if the document lacks it).

    ``draw`` paints relative to (0, 0) inside ``box`` (x0, y0, x1, y1). With ``as_form``
    false it is drawn straight onto the page (a piece used only once costs less inline),
    even if another component made such a form: a page never depends on what else the
    document holds, so a component draws the same bytes in any worker.

    ``band`` (0-3) moves the form's own coordinates ``band * BAND`` points down, and the
    placement moves them back. Text extractors (pdfium) decide whether two consecutive
    text objects share a line partly in each one's own form space: there, two rows
    placed through forms would sit at the same height and read as one line. So the
    pieces that follow each other (a legend, a header, even and odd rows) use different
    bands, the parts of one row the same band, and every band lies below the page
    (negative y), apart from text drawn on the page itself. A piece with ``text`` taller
    than a band is drawn on the page (one without text, e.g. rules, never needs to be).
    The bands are small, so coordinates keep their precision (glyphs land on the same
    pixels as when drawn on the page).
    """
    x0, y0, x1, y1 = box
    if text and y1 - y0 > BAND - 2 * SLACK:
        as_form = False
    shift = band * BAND
    if as_form and not canvas._doc.hasForm(name):
        canvas.beginForm(name, x0, y0 - shift, x1, y1 - shift)
        if shift:
            canvas.translate(0, -shift)
        draw()
        canvas.endForm()
    canvas.saveState()
    canvas.translate(x, y)
    if as_form:
        if shift:
            # A second, exact translation: folded into (x, y) it would round y again.
            canvas.translate(0, shift)
        canvas.doForm(name)
    else:
        draw()
    canvas.restoreState()


RowKey = tuple[str, int, tuple[str, ...], bool, float]
"""What makes two pieces of body rows draw alike: style, first column, cells, group row,
row height (a row's labels may wrap, making its figures' tints taller)."""
Shape = tuple[tuple[float, bool], ...]
"""The rows a grid's rules are drawn for: each row's height and whether it is a group row."""
Placed = tuple[RowKey, bool]
"""A row part and whether its row is an odd one (shaded, and in the odd rows' band)."""


class FormGrid:
    """Draw a ``Grid`` with its header, each body row and its rules as forms.

    Attributes:
        grid: The table.
        style: A digest of everything every piece of the grid depends on besides its
            own cells (widths, alignments, size, wrapping, tints, header, spans).
        parts: Column ranges a body row is drawn in, one form each (a row's labels
            vary more than its figures, so the figures are shared more widely).
        keys: Each body row's ``RowKey`` per part.
        heights: Each body row's height in points.
        repeated: Row parts worth a form (``repeated_rows``); None: every row.
        rules: Rule skeletons worth a form (``repeated_rules``); None: every one.

    """

    def __init__(self, grid: Grid, repeated: frozenset[Placed] | None = None,
                 split: Sequence[int] = (),
                 rules: frozenset[Shape] | None = None) -> None:
        """``split``: columns where a new part of each row begins (none: one part)."""
        self.grid = grid
        self.repeated = repeated
        self.rules = rules
        edges = [0, *split, len(grid.widths)]
        self.parts = list(itertools.pairwise(edges))
        tints = sorted((text, repr(colour)) for text, colour in grid.tints.items())
        # The card look's options join the digest only when set, so a plain grid keeps
        # the form names it always had (and builds their bytes).
        look = (grid.labels, tuple(sorted(grid.bold)), grid.zebra, tuple(sorted(grid.heavy)),
                grid.boxed)
        plain = look == (0, (), True, (), False)
        self.style = form_name("grid", tuple(grid.widths), tuple(grid.aligns), grid.size,
                               tuple(sorted(grid.wrap)), tints,
                               tuple(map(tuple, grid.header)), tuple(grid.spans),
                               *(() if plain else (look,)))
        self.heights = [grid.row_height(i) for i in range(len(grid.rows))]
        self.keys: list[list[RowKey]] = [
            [(self.style, 0, tuple(row), True, h)] if i in grid.group_rows
            else [(self.style, c0, tuple(row[c0:c1]), False, h) for c0, c1 in self.parts]
            for i, (row, h) in enumerate(zip(grid.rows, self.heights, strict=True))]

    def draw(self, canvas: Canvas, x: float, top: float, start: int = 0,
             end: int | None = None) -> float:
        """Draw like ``Grid.draw`` (same arguments, same pixels); returns the height."""
        g = self.grid
        end = len(g.rows) if end is None else end
        width = g.width
        head = g.header_height
        place(canvas, form_name("head", self.style), x, top,
              (-SLACK, -head - SLACK, width + SLACK, SLACK), lambda: self._header(canvas),
              band=HEAD_BAND)
        y = top - head
        for i in range(start, end):
            h = self.heights[i]
            if g.zebra and (i - start) % 2 and i not in g.group_rows:
                # Shading under the whole row, on the page (as Grid.draw paints it).
                canvas.setFillColor(ZEBRA)
                canvas.rect(x, y - h, width, h, stroke=0, fill=1)
            odd = (i - start) % 2 == 1
            band = ROW_BANDS[odd]
            # A row's parts are all forms or all on the page: pdfium reads a line that
            # runs from the page into a form as two lines.
            keys = self.keys[i]
            use = self.repeated is None or any((k, odd) in self.repeated for k in keys)
            for key in keys:
                place(canvas, form_name("row", key, band), x, y,
                      (-SLACK, -h - SLACK, width + SLACK, SLACK),
                      self._part_drawer(canvas, i, key[1]), as_form=use, band=band)
            y -= h
        shape = self.shape(start, end)
        place(canvas, form_name("rules", self.style, shape), x, top,
              (-SLACK, y - top - SLACK, width + SLACK, SLACK),
              lambda: self.grid.paint_rules(canvas, 0.0, 0.0, start, end), text=False,
              as_form=self.rules is None or shape in self.rules)
        canvas.setStrokeColor(colors.black)
        canvas.setFillColor(colors.black)
        return top - y

    def shape(self, start: int = 0, end: int | None = None) -> Shape:
        """What the rules of body rows ``start:end`` depend on besides the style."""
        end = len(self.grid.rows) if end is None else end
        return tuple((self.heights[i], i in self.grid.group_rows) for i in range(start, end))

    def _header(self, canvas: Canvas) -> None:
        """Header background and its white bold labels, centred over spans."""
        g = self.grid
        canvas.setFillColor(HEAD_BG)
        canvas.rect(0, -g.header_height, g.width, g.header_height, stroke=0, fill=1)
        text = canvas.beginText()
        g.header_text(text, g.edges(0.0), 0.0)
        canvas.drawText(text)

    def _part_drawer(self, canvas: Canvas, i: int, first: int) -> Callable[[], None]:
        return lambda: self._part(canvas, i, first)

    def _part(self, canvas: Canvas, i: int, first: int) -> None:
        """The part of body row ``i`` from column ``first``, top-left at (0, 0)."""
        g = self.grid
        text = canvas.beginText()
        text.setFillColor(colors.black)
        last = next(c1 for c0, c1 in self.parts if c0 == first)
        g.paint_row(canvas, text, i, g.edges(0.0), 0.0, first, last)
        canvas.drawText(text)


class FormGridBlock(GridBlock):
    """A ``GridBlock`` drawn through a ``FormGrid`` (its splits share it)."""

    def __init__(self, forms: FormGrid, start: int = 0, end: int | None = None,
                 keep_rows: int = 3) -> None:
        super().__init__(forms.grid, start, end, keep_rows)
        self.forms = forms

    def split(self, width: float, height: float, fresh: bool) -> tuple[Block, Block] | None:
        """As ``GridBlock.split``, each part a form grid block."""
        parts = super().split(width, height, fresh)
        if parts is None:
            return None
        first, rest = parts
        assert isinstance(first, GridBlock) and isinstance(rest, GridBlock)
        return (FormGridBlock(self.forms, first.start, first.end, first.keep_rows),
                FormGridBlock(self.forms, rest.start, rest.end, rest.keep_rows))

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Draw header and rows, centred in the wrapped width, through forms."""
        self.forms.draw(canvas, x + (self._width - self.grid.width) / 2, top, self.start,
                        self.end)


class FormParagraph:
    """A ``ParagraphBlock`` drawn through a form (a legend repeated page after page)."""

    def __init__(self, block: ParagraphBlock) -> None:
        self.block = block
        self._width = 0.0
        self._height = 0.0

    def wrap(self, width: float) -> float:
        """As the paragraph."""
        self._width = self.block.width or width
        self._height = self.block.wrap(width)
        return self._height

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Place the paragraph's form with its top-left at (x, top)."""
        st = self.block.style
        style = sorted((k, repr(v)) for k, v in vars(st).items() if k != "parent")
        name = form_name("para", self.block.text, style, self._width)
        place(canvas, name, x, top,
              (-SLACK, -self._height - SLACK, self._width + SLACK, SLACK),
              lambda: self.block.draw(canvas, 0, 0), band=PARA_BAND)


def repeated_rows(grids: Iterable[FormGrid], uses: int = 2) -> frozenset[Placed]:
    """Row parts that recur at least ``uses`` times among ``grids`` (worth a form each).

    A part is counted with its row's parity from the top of its grid (its band when
    the grid is not split across pages), since each band is a form of its own.
    """
    counts: Counter[Placed] = Counter(
        (k, i % 2 == 1) for g in grids for i, keys in enumerate(g.keys) for k in keys)
    return frozenset(k for k, n in counts.items() if n >= uses)


def repeated_rules(grids: Iterable[FormGrid], uses: int = 2) -> frozenset[Shape]:
    """Rule skeletons (whole grids, as when not split) drawn at least ``uses`` times."""
    counts: Counter[Shape] = Counter(g.shape() for g in grids)
    return frozenset(k for k, n in counts.items() if n >= uses)
