"""Shared table rendering (platypus): one look for every table quarterdeck prints."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    LongTable,
    PageTemplate,
    Paragraph,
    TableStyle,
)

from generator.core import fonts
from generator.core.safetext import SafeCanvas, clean, text
from generator.core.units import MM
from generator.pages import kitdoc
from generator.pages.layout import PAPER_SIZES, Paper, safe_box
from generator.pages.pages import Furniture

HEAD_BG = colors.Color(0.2, 0.2, 0.2)
ZEBRA = colors.Color(0.94, 0.94, 0.94)


def styles() -> dict[str, ParagraphStyle]:
    """Paragraph styles of the kit (sizes never below the 7 pt floor)."""
    fonts.register()
    base = ParagraphStyle("body", fontName=fonts.REGULAR, fontSize=9.5, leading=12.5,
                          bulletFontName=fonts.REGULAR)
    return {
        "body": base,
        "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10),
        "cell": ParagraphStyle("cell", parent=base, fontName=fonts.NARROW, fontSize=7.5,
                               leading=8.8),
        "cellb": ParagraphStyle("cellb", parent=base, fontName=fonts.NARROW_BOLD,
                                fontSize=7.5, leading=8.8),
        "head": ParagraphStyle("head", parent=base, fontName=fonts.NARROW_BOLD, fontSize=7.5,
                               leading=8.8, textColor=colors.white),
        "h1": ParagraphStyle("h1", parent=base, fontName=fonts.BOLD, fontSize=18, leading=22,
                             spaceAfter=4),
        "h2": ParagraphStyle("h2", parent=base, fontName=fonts.BOLD, fontSize=12.5,
                             leading=15, spaceBefore=8, spaceAfter=3),
        "h3": ParagraphStyle("h3", parent=base, fontName=fonts.BOLD, fontSize=10, leading=13,
                             spaceBefore=5, spaceAfter=2),
        "bullet": ParagraphStyle("bullet", parent=base, leftIndent=10, bulletIndent=2),
    }


def data_table(header: Sequence[str], rows: Sequence[Sequence[str | Flowable]],
               widths_mm: Sequence[float], group_rows: Sequence[int] = (),
               plain: bool = False) -> LongTable:
    """A multi-page table with a repeated dark header and zebra rows.

    Args:
        header: Column titles.
        rows: Cells (strings become paragraphs so long text wraps). They are paragraph
            markup: escape user values in them (``generator.core.safetext``), or pass ``plain``.
        widths_mm: Column widths in mm.
        group_rows: Row indexes (0-based in ``rows``) that are group headings.
        plain: Every string cell and title is plain text, escaped here (a ``<`` or ``&``
            prints as itself).

    Returns:
        The table flowable.

    """
    st = styles()
    # Cells are markup (callers escape user values with ``generator.core.safetext``); control
    # characters never print, so they are dropped from every cell here.
    cell = text if plain else clean
    body = [[Paragraph(cell(h), st["head"]) for h in header]]
    for i, row in enumerate(rows):
        style = st["cellb"] if i in group_rows else st["cell"]
        body.append([Paragraph(cell(c), style) if isinstance(c, str) else c for c in row])
    table = LongTable(body, colWidths=[w * MM for w in widths_mm], repeatRows=1)
    commands: list[tuple[object, ...]] = [
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.Color(0.7, 0.7, 0.7)),
    ]
    for i in range(len(rows)):
        if i in group_rows:
            commands.append(("BACKGROUND", (0, i + 1), (-1, i + 1), colors.Color(0.8, 0.8, 0.8)))
            commands.append(("SPAN", (0, i + 1), (-1, i + 1)))
        elif i % 2:
            commands.append(("BACKGROUND", (0, i + 1), (-1, i + 1), ZEBRA))
    table.setStyle(TableStyle(commands))
    return table


@dataclass
class FlowResult:
    """A rendered flowing document: bytes, pages, and where each anchor landed."""

    pdf: bytes
    pages: int
    anchors: list[tuple[str, int, float]]


class Anchor(Flowable):  # type: ignore[misc]  # ReportLab ships no type hints
    """An invisible flowable that records its page and height (for bookmarks)."""

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title = title
        self.width = self.height = 0

    def draw(self) -> None:
        """Record where we are."""
        canvas: Canvas = self.canv
        _, y = canvas.absolutePosition(0, 0)
        self.canv._qd_anchors.append((self.title, _page(canvas), y + 12))


def _page(canvas: Canvas) -> int:
    """The 0-based page of the flow being drawn."""
    return int(canvas.getPageNumber() - getattr(canvas, "_qd_first", 1))


def render_flow(story: list[Flowable], paper: Paper, title: str, footer: str) -> FlowResult:
    """Lay out flowables in the safe box, with a footer, deterministically.

    Args:
        story: Flowables (Anchor instances record bookmark targets).
        paper: Paper size.
        title: Document title.
        footer: Footer text on each page.

    Returns:
        The PDF, its page count and the anchors' positions.

    """
    fonts.register()
    buf = io.BytesIO()
    box = safe_box(paper)
    # The frame leaves 5 mm for the footer (the canvas engines leave FOOTER_SPACE).
    frame = Frame(box.x, box.y + 5 * MM, box.width, box.height - 5 * MM, leftPadding=0,
                  rightPadding=0, topPadding=0, bottomPadding=0, id="safe")

    furniture = Furniture(footer=footer)

    def on_page(canvas: Canvas, doc: BaseDocTemplate) -> None:
        furniture.draw(canvas, box, _page(canvas))

    doc = BaseDocTemplate(buf, pagesize=PAPER_SIZES[paper], invariant=1, title=title,
                          author="quarterdeck", creator="quarterdeck", pageCompression=0)
    doc.addPageTemplates([PageTemplate("page", [frame], onPage=on_page)])
    anchors: list[tuple[str, int, float]] = []

    def start(canvas: Canvas) -> None:
        canvas._qd_anchors = anchors
        # A build's canvas has pages before this flow (generator.pages.kitdoc): count from here.
        canvas._qd_first = canvas.getPageNumber()

    doc.setPageCallBack = None
    orig = doc.beforeDocument

    def before() -> None:
        orig()
        start(doc.canv)

    doc.beforeDocument = before
    doc.build(story, canvasmaker=kitdoc.canvas_maker(SafeCanvas))
    return FlowResult(buf.getvalue(), doc.page, anchors)


RESULT_TINTS: dict[str, colors.Color] = {
    "S": colors.Color(0.93, 0.62, 0.60),
    "HD": colors.Color(0.98, 0.80, 0.60),
    "D": colors.Color(1.0, 0.94, 0.66),
    "dud": colors.Color(0.86, 0.86, 0.86),
}
"""Light tints for damage results, readable in colour and still distinct in grey."""
