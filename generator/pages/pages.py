"""The page engine: blocks measured and drawn by the same code, and page furniture.

A *block* is anything with ``wrap(width) -> height`` and ``draw(canvas, x, top)``. The
engine guarantees, block by block, that the height ``wrap`` reports is the height
``draw`` uses:

* ``Recorded`` runs a painting function once, against a recorder that stands in for
  the canvas; the function's own cursor is the height, and ``draw`` replays exactly the
  recorded operations (translated), so what was measured is what is drawn.
* ``GridBlock`` draws a slice of rows of a ``Grid``; its height is the sum of the
  same row heights ``Grid.draw`` advances by, and it splits between rows with the
  header repeated.
* ``ParagraphBlock`` wraps a ReportLab paragraph once and draws that wrapped paragraph.
* ``Spacer`` and ``KeepTogether`` (a group moved to the next page as a whole).

``Flow`` runs a cursor down the safe box placing blocks and starting pages (``CanvasDoc``
and platypus stories, ``tablestyle.render_flow``, run on it); ``Columns`` packs blocks
whole into a page's columns (a reference card). ``Furniture`` draws everything a page
carries besides its content (heading, footer text and page number, calibration bars)
and is the one place anything draws them: the flows and the components that still draw
fixed pages on a raw canvas all call ``Furniture.draw`` or ``finish_page``.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from generator.core.safetext import clean
from generator.core.units import MM
from generator.pages.component import Bookmark, Component
from generator.pages.furniture import Furniture, finish_page
from generator.pages.grid import Grid
from generator.pages.layout import Paper, Pen, SafeBox, new_canvas, safe_box

if TYPE_CHECKING:  # platypus takes a while to import: only paragraphs need it
    from reportlab.platypus import Paragraph

# ---------------------------------------------------------------- blocks


@runtime_checkable
class Block(Protocol):
    """Something placed in a flow: measured once, then drawn at the height measured."""

    def wrap(self, width: float) -> float:
        """Lay the block out ``width`` points wide; return its height in points."""

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Draw the block laid out by the last ``wrap``, its top-left corner at (x, top)."""


@runtime_checkable
class Splittable(Protocol):
    """A block that can break across pages."""

    def split(self, width: float, height: float, fresh: bool) -> tuple[Block, Block] | None:
        """The part that fits in ``height`` and the rest, or None if nothing useful fits.

        ``fresh`` says the page is empty: a block must then give up at least one unit
        (a row), even if it would rather keep more together.
        """


class _Recording:
    """Keeps every method call made on it (name and arguments), in order.

    Only calls that draw or set state are taken (``_takes``); anything else, such as
    a query whose answer a painter would use, fails at once instead of recording None.
    """

    _PREFIXES: tuple[str, ...] = ("set",)
    _NAMES: frozenset[str] = frozenset()

    def __init__(self) -> None:
        self.ops: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Callable[..., None]:
        if not (name.startswith(self._PREFIXES) or name in self._NAMES):
            raise AttributeError(f"{type(self).__name__} cannot record {name!r}")

        def record(*args: Any, **kwargs: Any) -> None:
            self.ops.append((name, args, kwargs))
        return record


class _TextRecorder(_Recording):
    """Stands in for a ReportLab text object while a block is measured."""

    _PREFIXES = ("set", "text", "move")

    def __init__(self, x: float, y: float) -> None:
        super().__init__()
        self.origin = (x, y)


class Recorder(_Recording):
    """Stands in for a canvas: every drawing call is kept, to be replayed by ``replay``.

    Only calls that draw or set graphics state may be made; a painting function must
    not read state back from the canvas (nothing in the kit does).
    """

    _PREFIXES = ("set", "draw")
    _NAMES = frozenset({"saveState", "restoreState", "translate", "scale", "rotate",
                        "transform", "line", "lines", "rect", "roundRect", "circle", "ellipse",
                        "wedge", "arc", "bezier", "grid", "clipPath", "addLiteral"})

    def beginPath(self) -> PDFPathObject:  # noqa: N802  (ReportLab's name)
        """A path object (paths do not depend on the canvas)."""
        return PDFPathObject()

    def beginText(self, x: float = 0, y: float = 0) -> _TextRecorder:  # noqa: N802
        """A text object that records too."""
        return _TextRecorder(x, y)

    def replay(self, canvas: Canvas, dx: float, dy: float) -> None:
        """Draw everything recorded on ``canvas``, moved by (dx, dy)."""
        canvas.saveState()
        canvas.translate(dx, dy)
        for name, args, kwargs in self.ops:
            if name == "drawText" and isinstance(args[0], _TextRecorder):
                rec = args[0]
                text = canvas.beginText(*rec.origin)
                for tname, targs, tkwargs in rec.ops:
                    getattr(text, tname)(*targs, **tkwargs)
                canvas.drawText(text)
            else:
                getattr(canvas, name)(*args, **kwargs)
        canvas.restoreState()


Painter = Callable[[Canvas, float], float]
"""Draws with its top-left corner at (0, 0) in a box ``width`` wide; returns the height."""


class Recorded:
    """A custom block: a painting function, recorded while measured and replayed to draw.

    The painter draws downward from y = 0 and returns its height (its cursor); the
    height reported is therefore exactly where the painter's own drawing ended.
    """

    def __init__(self, paint: Painter) -> None:
        self.paint = paint
        self._layout: tuple[float, float, Recorder] | None = None

    def wrap(self, width: float) -> float:
        """Run the painter on a recorder (once per width)."""
        if self._layout is None or self._layout[0] != width:
            recorder = Recorder()
            height = self.paint(cast(Canvas, recorder), width)
            self._layout = (width, height, recorder)
        return self._layout[1]

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Replay the recorded drawing with its top-left corner at (x, top)."""
        if self._layout is None:
            raise RuntimeError("draw before wrap")
        self._layout[2].replay(canvas, x, top)


class Spacer:
    """Vertical space; it never starts a page (subclasses may draw in it, e.g. a cut line)."""

    def __init__(self, height: float) -> None:
        self.height = height

    def wrap(self, width: float) -> float:
        """The gap."""
        return self.height

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Nothing to draw."""


# Legends repeat on every page of a component; a wrapped paragraph can be drawn again.
_WRAPPED: dict[tuple[str, str, float, float], tuple[Paragraph, float]] = {}


class ParagraphBlock:
    """A ReportLab paragraph (markup as in paragraphs) below its style's space before.

    The style's space after is left to the caller (``Flow.paragraph`` adds it as a
    ``Spacer``), so trailing space at a page's foot never pushes text to the next page.
    """

    def __init__(self, text: str, style: ParagraphStyle, width: float | None = None) -> None:
        # ``text`` is markup whose user values the caller escaped (``generator.core.safetext``);
        # control characters never print, so they are dropped from the whole of it here.
        self.text = clean(text)
        self.style = style
        self.width = width
        self._para: Paragraph | None = None
        self._height = 0.0

    def wrap(self, width: float) -> float:
        """Wrap the text; the height includes the style's space before."""
        st = self.style
        width = self.width or width
        key = (self.text, st.name, st.fontSize, width)
        cached = _WRAPPED.get(key)
        if cached is None:
            from reportlab.platypus import Paragraph

            para = Paragraph(self.text, st)
            _, h = para.wrap(width, 1e6)
            cached = _WRAPPED[key] = (para, h)
        self._para, self._height = cached
        return float(st.spaceBefore + self._height)

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Draw the wrapped paragraph below its space-before."""
        if self._para is None:
            raise RuntimeError("draw before wrap")
        self._para.drawOn(canvas, x, top - self.style.spaceBefore - self._height)


class GridBlock:
    """Body rows ``start:end`` of a grid under its header, centred in the width."""

    def __init__(self, grid: Grid, start: int = 0, end: int | None = None,
                 keep_rows: int = 3) -> None:
        self.grid = grid
        self.start = start
        self.end = len(grid.rows) if end is None else end
        self.keep_rows = keep_rows
        self._width = grid.width

    def wrap(self, width: float) -> float:
        """Header plus the rows' heights (the amounts ``Grid.draw`` steps down by)."""
        self._width = width
        return self.grid.height(self.start, self.end)

    def split(self, width: float, height: float, fresh: bool) -> tuple[Block, Block] | None:
        """Rows that fit in ``height`` and the rest, header repeated on both.

        Unless the page is ``fresh``, fewer than ``keep_rows`` rows is not worth it; a
        group heading row stays with the row after it.
        """
        fit = self.grid.fitting(self.start, height)
        if fit < min(self.keep_rows, self.end - self.start) and not fresh:
            return None
        fit = max(fit, 1)
        # A group heading never ends a page: it goes over with the rows it heads.
        while fit > 1 and self.start + fit - 1 in self.grid.group_rows:
            fit -= 1
        cut = self.start + fit
        if cut >= self.end:
            return None
        return (GridBlock(self.grid, self.start, cut, self.keep_rows),
                GridBlock(self.grid, cut, self.end, 1))

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Draw header and rows, centred in the wrapped width."""
        self.grid.draw(canvas, x + (self._width - self.grid.width) / 2, top, self.start,
                       self.end)


class KeepTogether:
    """Blocks that go on one page together (moved to the next page as a whole)."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = list(blocks)
        self._heights: list[float] = []

    def wrap(self, width: float) -> float:
        """The sum of the members' heights."""
        self._heights = [b.wrap(width) for b in self.blocks]
        return sum(self._heights)

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Draw the members one under the other."""
        for block, h in zip(self.blocks, self._heights, strict=True):
            block.draw(canvas, x, top)
            top -= h


# ---------------------------------------------------------------- flow


@dataclass(frozen=True)
class Placed:
    """Where a block landed: 0-based page, top and height (points)."""

    page: int
    top: float
    height: float


class Flow:
    """A cursor running down the safe box: places blocks, starts pages, draws furniture."""

    def __init__(self, canvas: Canvas, box: SafeBox, furniture: Furniture) -> None:
        self.canvas = canvas
        self.pen = Pen(canvas)
        self.box = box
        self.furniture = furniture
        self.page = 0
        self.top = box.top - furniture.top(box)
        self.y = self.top
        self.heading: str | None = None
        """This page's heading when it differs from the furniture's (e.g. "(continued)")."""
        self.bookmarks: list[Bookmark] = []

    @property
    def bottom(self) -> float:
        """Lowest y content may reach (above the footer)."""
        return self.box.y + self.furniture.bottom(self.box)

    @property
    def room(self) -> float:
        """Height left on the current page."""
        return self.y - self.bottom

    @property
    def empty(self) -> bool:
        """Nothing placed on the current page yet."""
        return self.y >= self.top

    def finish_page(self) -> None:
        """Draw the furniture, end the page and put the cursor at the next one's top."""
        finish_page(self.canvas, self.box, self.furniture, self.page, self.heading)
        self.page += 1
        self.y = self.top

    def new_page(self) -> None:
        """Start a new page (unless the current one is still empty)."""
        if not self.empty:
            self.finish_page()

    def ensure(self, height: float) -> None:
        """Start a new page if less than ``height`` points are left."""
        if self.room < height:
            self.new_page()

    def anchor(self, title: str, level: Bookmark | None = None) -> Bookmark:
        """Add a bookmark here (nested under ``level`` if given)."""
        mark = Bookmark(title, self.page, self.y + 2 * MM)
        (level.children if level else self.bookmarks).append(mark)
        return mark

    def add(self, block: Block) -> Placed:
        """Place a block at the cursor; a block that does not fit starts a new page.

        A splittable block (a grid) breaks across pages; any other block taller than
        a whole page is drawn anyway and overruns, as the old drawers did.

        Returns:
            Where the (first part of the) block landed.

        """
        width = self.box.width
        if isinstance(block, Spacer):
            # A gap never starts a page (the next block that does not fit will); what
            # it draws, if anything, is drawn only when the whole gap fits.
            placed = Placed(self.page, self.y, block.wrap(width))
            if placed.height <= self.room + 1e-6:
                block.draw(self.canvas, self.box.x, self.y)
            self.y -= placed.height
            return placed
        first: Placed | None = None
        current: Block | None = block
        while current is not None:
            height = current.wrap(width)
            rest: Block | None = None
            if height > self.room + 1e-6:
                parts = (current.split(width, self.room, self.empty)
                         if isinstance(current, Splittable) else None)
                if parts is None and not self.empty:
                    self.finish_page()
                    continue
                if parts is not None:
                    current, rest = parts
                    height = current.wrap(width)
            current.draw(self.canvas, self.box.x, self.y)
            if first is None:
                first = Placed(self.page, self.y, height)
            self.y -= height
            if rest is not None:
                self.finish_page()
            current = rest
        assert first is not None
        return first

    def paragraph(self, text: str, style: ParagraphStyle, width: float | None = None) -> Placed:
        """Place a paragraph (``width`` wide, else the box's) and the space after it.

        ``text`` is paragraph markup: escape user values in it (``generator.core.safetext``).
        """
        placed = self.add(ParagraphBlock(text, style, width))
        self.add(Spacer(style.spaceAfter))
        return placed

    def end(self) -> int:
        """End the last page; returns the page count."""
        self.finish_page()
        return self.page


class Columns:
    """Side-by-side columns of one page, filled in order with blocks kept whole.

    A block goes at the foot of the current column, or at the top of the next one when
    it does not fit; ``place`` says so when no column is left. A reference card packs
    its sections this way: each section stays whole, next to the next.
    """

    def __init__(self, canvas: Canvas, box: SafeBox, count: int, gutter: float) -> None:
        self.canvas = canvas
        self.width = (box.width - (count - 1) * gutter) / count
        self.xs = [box.x + i * (self.width + gutter) for i in range(count)]
        self.top = box.top
        self.bottom = box.y
        self.ys = [box.top] * count
        self.index = 0

    def room(self, column: int) -> float:
        """Height left at the foot of a column."""
        return self.ys[column] - self.bottom

    def next_column(self) -> None:
        """Go on in the next column, if the current one holds anything and one is left."""
        if self.ys[self.index] < self.top and self.index + 1 < len(self.ys):
            self.index += 1

    def place(self, block: Block, gap: float = 0.0) -> Placed | None:
        """Draw ``block`` whole in the first column, from the current one, with room.

        Returns:
            Where it landed (``page`` is the column), or None if no column has room;
            the cursor then moves on by ``gap``.

        """
        height = block.wrap(self.width)
        while height > self.room(self.index) + 1e-6:
            if self.index + 1 == len(self.ys):
                return None
            self.index += 1
        top = self.ys[self.index]
        block.draw(self.canvas, self.xs[self.index], top)
        self.ys[self.index] = top - height - gap
        return Placed(self.index, top, height)


class Document(Flow):
    """A flow with its own canvas and PDF buffer, finished into a packet component."""

    def __init__(self, paper: Paper, title: str, furniture: Furniture,
                 landscape: bool = False) -> None:
        self.buffer = io.BytesIO()
        super().__init__(new_canvas(self.buffer, paper, title, landscape),
                         safe_box(paper, landscape), furniture)

    def finish(self) -> tuple[bytes, int]:
        """End the last page and the document; returns the PDF bytes and the page count."""
        pages = self.end()
        self.canvas.save()
        return self.buffer.getvalue(), pages

    def component(self, key: str, title: str, label: str) -> Component:
        """Close the document as a packet component with the bookmarks placed."""
        pdf, pages = self.finish()
        return Component(key, title, label, pdf, pages, self.bookmarks)
