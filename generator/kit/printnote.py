"""The pages a packet adds itself: the print note that opens it, and blank backs.

The print note says, on the packet's first page, which pages print how, at 100 % scale:
each run of pages (``packets.print_sections``) with its stock and sides (pages to read
double-sided on paper, fronts with their backs double-sided on card, cut-out pages on one
side of the card), how to print it all on paper in two jobs, which pages are blank, and
(from the recipe) where the items printed once per table are; then every component's
pages. Inserted blank pages say so, so that no one takes them for a failed print.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import cache

from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.safetext import clean
from generator.core.units import MM
from generator.kit.packets import (
    BLANK,
    NOTE_KEY,
    RUNS,
    SINGLE,
    PacketSpec,
    Placed,
    print_sections,
)
from generator.pages import wordwrap
from generator.pages.component import Component
from generator.pages.furniture import Furniture, finish_page
from generator.pages.layout import Paper, new_canvas, page_size, safe_box

NOTE_TITLE = "How to print this packet"
NOTE_LABEL = "Note-"
BLANK_LABEL = "Blank"
BLANK_SIZE = 9.0


def page_ranges(numbers: Iterable[int]) -> str:
    """1-based page numbers as ranges: ``1–3, 5, 7–8`` ("" for none)."""
    ordered = sorted(set(numbers))
    runs: list[list[int]] = []
    for n in ordered:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def how(comp: Component, duplex: bool, runs: bool = False) -> str:
    """How a component's pages are printed, in a few words (``runs``: run by run)."""
    if not duplex:
        return "cut out" if comp.cut_out else "read"
    if comp.two_sided and comp.cut_out:
        return "fronts with their backs; cut out"
    if comp.two_sided:
        return "front and back of one sheet" if comp.pages == 2 else "fronts with their backs"
    if comp.cut_out:
        return "cut out; one side only" if runs else "cut out; each has a blank back"
    return "read" if runs else "read; printed back to back"


WHAT = {RUNS[0]: "to read", RUNS[1]: "fronts with their backs",
        RUNS[2]: "cut out, so nothing prints on the back", SINGLE[0]: "to read"}
"""What a run's pages are, after its pages and stock on the print note."""
WHAT_OFF = {SINGLE[1]: "cards, and pieces to cut out"}
"""With --duplex off, where cards and their backs join the cut-out pages (``SINGLE[1]``
is also ``RUNS[2]``)."""
COUNT = {2: "two", 3: "three", 4: "four"}
SCALE = ("at 100 % scale (\"Actual size\", never \"Fit to page\"): rulers, gauges and "
         "markers are drawn to size.")


def run_lines(spec: PacketSpec, components: dict[str, Component],
              layout: list[Placed]) -> list[str]:
    """The print note's paragraphs for a packet printed run by run, from its layout.

    Each run is named by its pages, its stock and its sides, as ``print_sections`` reads
    them from the assembled layout; at home (``one_job``) the note adds how to print the
    whole packet on one kind of paper, in one double-sided job and one single-sided.
    """
    sections = print_sections(layout, components, 0, spec.duplex)
    double = [s for s in sections if s.how.startswith("double")]
    single = [s for s in sections if s.how.startswith("single")]
    # Which edge to flip on matters only where a sheet has pages on both sides.
    flip = (f", flipped on the {spec.duplex} edge" if any(s.last > s.first for s in double)
            else "")
    if len(sections) == 1:
        lines = [f"Print all {len(layout)} pages {sections[0].how}{flip}, {SCALE}"]
    else:
        lines = [f"Print {SCALE} The pages print in "
                 f"{COUNT.get(len(sections), str(len(sections)))} runs, each on the stock "
                 f"it names{f' (double-sided runs{flip})' if flip else ''}:"
                 if spec.duplex != "off" else
                 f"Print all {len(layout)} pages single-sided, {SCALE} Marker and card "
                 "backs stand beside their fronts: cut each pair out together, fold on "
                 "the dashed line between them and glue. By stock:"]
        what = {**WHAT, **WHAT_OFF} if spec.duplex == "off" else WHAT
        lines += [f"{_pages(s.first, s.last)}: {s.how} ({what[s.how]})." for s in sections]
    if spec.one_job and len(double) > 1 and len(sections) > 1:
        tail = (f", then {_pages(single[0].first, single[-1].last).lower()} single-sided"
                if single else "")
        lines.append(f"No card? Print {_pages(double[0].first, double[-1].last).lower()} "
                     f"double-sided in one job{tail}, all on paper.")
    blanks = [n for n, p in enumerate(layout, start=1) if p.key is None]
    if blanks:
        lines.append(f"{'Page' if len(blanks) == 1 else 'Pages'} {page_ranges(blanks)} "
                     f"{'is' if len(blanks) == 1 else 'are'} intentionally blank: the back "
                     "of a sheet with nothing to print on it.")
    return lines


def _pages(first: int, last: int) -> str:
    return f"Pages {first}–{last}" if last > first else f"Page {first}"


def note_lines(spec: PacketSpec, components: dict[str, Component],
               layout: list[Placed]) -> tuple[list[str], list[tuple[str, str, str]]]:
    """The note's paragraphs and its table (pages, contents, how), from the layout."""
    duplex = spec.duplex != "off"
    total = len(layout)
    where: dict[str, list[int]] = {}
    for number, placed in enumerate(layout, start=1):
        if placed.key is not None and placed.key != NOTE_KEY:
            where.setdefault(placed.key, []).append(number)
    blanks = [n for n, p in enumerate(layout, start=1) if p.key is None]
    two_sided = [n for key, pages in where.items() if components[key].two_sided
                 for n in pages]
    single = [n for key, pages in where.items()
              if components[key].cut_out and not components[key].two_sided for n in pages]
    if spec.runs:
        lines = run_lines(spec, components, layout)
    elif duplex:
        lines = [f"Print all {total} pages double-sided in one pass, flipping on the "
                 f"{spec.duplex} edge, {SCALE}"]
        if two_sided:
            lines.append(f"Fronts with their backs on one sheet: pages "
                         f"{page_ranges(two_sided)}.")
        if single:
            lines.append(f"Printed on one side only (cut out; the page after each is its "
                         f"blank back): pages {page_ranges(single)}.")
        if blanks:
            lines.append(f"Pages {page_ranges(blanks)} are intentionally blank: they keep "
                         "each front behind its back and each cut-out page alone on its "
                         "sheet.")
    else:
        lines = [f"Print all {total} pages single-sided, {SCALE} Marker and card backs "
                 "stand beside their fronts: cut each pair out together, fold on the "
                 "dashed line between them and glue."]
    lines.append("Page numbers here are the ones printed at the foot of each page, "
                 "counted from the first page of the file; your PDF viewer may show "
                 "section labels (Card-1) beside them.")
    if spec.note:
        lines.append(spec.note)
    rows = [("1", NOTE_TITLE, "read")]
    # In page order: a packet printed run by run is not in the recipe's order.
    for key, pages in where.items():
        rows.append((page_ranges(pages), components[key].title,
                     how(components[key], duplex, spec.runs)))
    return lines, rows


def _paper(width: float, height: float) -> Paper:
    short = min(width, height)
    return "letter" if abs(short - page_size("letter")[0]) < 1 else "a4"


def note_page(spec: PacketSpec, components: dict[str, Component], layout: list[Placed],
              size: tuple[float, float]) -> bytes:
    """The one-page print note that opens a packet (portrait, on the packet's paper)."""
    paper = _paper(*size)
    buffer = io.BytesIO()
    c = new_canvas(buffer, paper, NOTE_TITLE)
    box = safe_box(paper)
    furniture = Furniture(footer=f"quarterdeck · {spec.title}", label=NOTE_LABEL)
    lines, rows = note_lines(spec, components, layout)
    y = box.top - 7 * MM
    c.setFillColorRGB(0, 0, 0)
    c.setFont(fonts.BOLD, 14)
    c.drawString(box.x, y, fonts.clip_text(clean(spec.title), fonts.BOLD, 14, box.width))
    y -= 8 * MM
    c.setFont(fonts.BOLD, 11)
    c.drawString(box.x, y, NOTE_TITLE)
    y -= 6 * MM
    for paragraph in lines:
        y = _paragraph(c, clean(paragraph), box.x, y, box.width) - 2 * MM
    y -= 2 * MM
    bottom = box.y + furniture.bottom(box) + 2 * MM
    step = min(5 * MM, max(3.2 * MM, (y - bottom) / max(len(rows) + 1, 1)))
    type_size = 9.0 if step >= 4.5 * MM else fonts.MIN_SIZE
    cols = (box.x, box.x + 30 * MM, box.x + 0.62 * box.width)
    widths = (28 * MM, cols[2] - cols[1] - 3 * MM, box.right - cols[2])
    for i, head in enumerate(("Pages", "Contents", "How")):
        c.setFont(fonts.BOLD, type_size)
        c.drawString(cols[i], y, head)
    y -= 1.4 * MM
    c.setLineWidth(0.5)
    c.line(box.x, y, box.right, y)
    for row in rows:
        y -= step
        if y < bottom:
            break
        for i, text in enumerate(row):
            c.setFont(fonts.REGULAR, type_size)
            c.drawString(cols[i], y, fonts.clip_text(clean(text), fonts.REGULAR, type_size,
                                                     widths[i]))
    finish_page(c, box, furniture, 0)
    c.save()
    return buffer.getvalue()


def _paragraph(c: Canvas, text: str, x: float, y: float, width: float) -> float:
    c.setFont(fonts.REGULAR, 9)
    for line in wordwrap.lines(text, fonts.REGULAR, 9, width):
        c.drawString(x, y, line)
        y -= 4.2 * MM
    return y


@cache
def blank_page(width: float, height: float) -> bytes:
    """A page of the given size that says it is intentionally blank."""
    return draw_blank(width, height)


def draw_blank(width: float, height: float) -> bytes:
    """Draw a blank back (on the build's canvas when one is active; see ``blank_page``)."""
    landscape = width > height
    paper = _paper(width, height)
    buffer = io.BytesIO()
    c = new_canvas(buffer, paper, BLANK, landscape=landscape)
    c.setFillColorRGB(0.3, 0.3, 0.3)
    c.setFont(fonts.REGULAR, BLANK_SIZE)
    w, h = page_size(paper, landscape)
    c.drawCentredString(w / 2, h / 2, BLANK)
    c.showPage()
    c.save()
    return buffer.getvalue()
