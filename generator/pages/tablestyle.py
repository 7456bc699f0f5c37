"""The kit's paragraph styles, and platypus content on the page engine.

Prose written as platypus flowables (a briefing, a reference card's rules) is laid out
by the same page engine as every other component (``render_flow``), and its tables are
the engine's ``Grid`` (``data_table``): one engine and one table builder for the kit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from generator.core import fonts
from generator.core.units import MM
from generator.pages.furniture import Furniture
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.pages.pages import Block, Document, GridBlock, Spacer


def styles() -> dict[str, ParagraphStyle]:
    """Paragraph styles of the kit (sizes never below the 7 pt floor)."""
    fonts.register()
    base = ParagraphStyle("body", fontName=fonts.REGULAR, fontSize=9.5, leading=12.5,
                          bulletFontName=fonts.REGULAR)
    return {
        "body": base,
        "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10),
        "h1": ParagraphStyle("h1", parent=base, fontName=fonts.BOLD, fontSize=18, leading=22,
                             spaceAfter=4, keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=base, fontName=fonts.BOLD, fontSize=12.5,
                             leading=15, spaceBefore=8, spaceAfter=3, keepWithNext=1),
        "h3": ParagraphStyle("h3", parent=base, fontName=fonts.BOLD, fontSize=10, leading=13,
                             spaceBefore=5, spaceAfter=2, keepWithNext=1),
        "bullet": ParagraphStyle("bullet", parent=base, leftIndent=10, bulletIndent=2),
    }


def data_table(header: Sequence[str], rows: Sequence[Sequence[str]],
               widths_mm: Sequence[float], group_rows: Sequence[int] = ()) -> Block:
    """A multi-page table with a repeated dark header and zebra rows (a ``Grid``).

    Args:
        header: Column titles.
        rows: Cells, plain text (printed as written; long text wraps).
        widths_mm: Column widths in mm.
        group_rows: Row indexes (0-based in ``rows``) that are group headings.

    Returns:
        The table, a block of the page engine that breaks between rows.

    """
    columns = frozenset(range(len(header)))
    return GridBlock(Grid([w * MM for w in widths_mm], [list(header)], rows,
                          aligned(len(header), len(header)),
                          group_rows=frozenset(group_rows), wrap=columns))


@dataclass
class FlowResult:
    """A rendered flowing document: bytes, pages, and where each anchor landed."""

    pdf: bytes
    pages: int
    anchors: list[tuple[str, int, float | None]]


class Anchor(Flowable):  # type: ignore[misc]  # ReportLab ships no type hints
    """A bookmark target in a story: ``render_flow`` marks the place it stands at."""

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title = title
        self.width = self.height = 0


class FlowableBlock:
    """A platypus flowable (a paragraph, a spacer) as a block of the page engine.

    Its height is the flowable's own wrapped height below its space before, and it is
    drawn where that height was measured; a flowable that splits (a long paragraph)
    breaks across pages.
    """

    def __init__(self, flowable: Flowable) -> None:
        self.flowable = flowable
        self._before = 0.0
        self._height = 0.0

    def wrap(self, width: float) -> float:
        """Wrap the flowable; the height includes its space before."""
        _, height = self.flowable.wrap(width, 1e6)
        self._before, self._height = float(self.flowable.getSpaceBefore()), float(height)
        return self._before + self._height

    def split(self, width: float, height: float, fresh: bool) -> tuple[Block, Block] | None:
        """The flowable's own split: the part that fits in ``height`` and the rest."""
        parts = self.flowable.split(width, height - self.flowable.getSpaceBefore())
        if len(parts) != 2:
            return None
        return FlowableBlock(parts[0]), FlowableBlock(parts[1])

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Draw the wrapped flowable below its space before."""
        self.flowable.drawOn(canvas, x, top - self._before - self._height)


KEEP_WITH_NEXT = 25 * MM
"""Room a heading wants for what follows it (or all of it, if shorter) on its page."""


def _block(item: Flowable | Block) -> Block:
    return FlowableBlock(item) if isinstance(item, Flowable) else item


def render_flow(story: Sequence[Flowable | Block], paper: Paper, title: str,
                footer: str) -> FlowResult:
    """Lay a story out in the safe box with the kit's footer, on the page engine.

    Args:
        story: Flowables and blocks in reading order. ``Anchor``s mark bookmark targets;
            a flowable's space after follows it as a gap (which never starts a page),
            and one that keeps with the next (a heading) starts a page rather than end
            one without the start of what follows.
        paper: Paper size.
        title: Document title.
        footer: Footer text on each page.

    Returns:
        The PDF, its page count and the anchors' positions.

    """
    doc = Document(paper, title, Furniture(footer=footer))
    width = doc.box.width
    anchors: list[tuple[str, int, float | None]] = []
    pending: list[str] = []
    for n, item in enumerate(story):
        if isinstance(item, Anchor):
            pending.append(item.title)  # placed with what follows it
            continue
        block = _block(item)
        if isinstance(item, Flowable) and item.getKeepWithNext():
            follow = next((x for x in story[n + 1:] if not isinstance(x, Anchor)), None)
            if follow is not None:
                doc.ensure(block.wrap(width) + min(_block(follow).wrap(width), KEEP_WITH_NEXT))
        for name in pending:
            mark = doc.anchor(name)
            anchors.append((mark.title, mark.page, mark.top))
        pending.clear()
        doc.add(block)
        if isinstance(item, Flowable):
            doc.add(Spacer(float(item.getSpaceAfter())))
    for name in pending:
        mark = doc.anchor(name)
        anchors.append((mark.title, mark.page, mark.top))
    pdf, pages = doc.finish()
    return FlowResult(pdf, pages, anchors)


RESULT_TINTS: dict[str, colors.Color] = {
    "S": colors.Color(0.93, 0.62, 0.60),
    "HD": colors.Color(0.98, 0.80, 0.60),
    "D": colors.Color(1.0, 0.94, 0.66),
    "dud": colors.Color(0.86, 0.86, 0.86),
}
"""Light tints for damage results, readable in colour and still distinct in grey."""
