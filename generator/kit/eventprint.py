"""An event's own pages: each packet's cover sheet, the print shop's summary, the inventory.

A table's packets each open with a cover (``cover_sheet``: event, table, scenario, side,
contents and how each run of pages prints, then the pieces its cut-out sheets hold); the
print-shop bundle opens with ``summary_pages``; ``inventory_csv`` lists every piece of
every packet for a spreadsheet. ``kit.event`` builds the packets and puts them together.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pypdf import PdfReader, PdfWriter

from generator.core import fonts
from generator.core.errors import RenderError
from generator.core.safetext import text
from generator.core.units import MM
from generator.kit.eventfile import Event
from generator.kit.packets import PacketSpec, Placed, Section, print_sections, sheet_layout
from generator.kit.pipeline import Kit
from generator.kit.printnote import blank_page, page_ranges
from generator.pages import branding
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper, page_size

LOGO_BOX = 30 * MM
"""The square a cover's logo is fitted into, 2 mm in from the masthead's top right."""


@dataclass
class Pack:
    """One finished packet of a table, with what its cover and the print shop need."""

    paper: Paper
    path: str
    """Relative to the paper's folder."""
    sha256: str
    """Of the file as written into the staging folder."""
    pages: int
    scenario: str
    table: int
    side: str
    sections: list[Section]
    inventory: list[tuple[str, int, str, int]] = field(default_factory=list)
    """(component title, sheet in the component, piece, copies on that sheet)."""


def side_name(kit: Kit, spec: PacketSpec) -> str:
    """The side a packet serves, from its file name (``allied.pdf``), else its title."""
    stem = Path(spec.filename).stem
    return kit.sides.get(stem, "Referee" if stem == "referee" else spec.title)


@dataclass(frozen=True)
class CutSheet:
    """One cut-out sheet of a packet: where it is, what it is, and the pieces it holds."""

    page: int
    """The sheet's front, as a page of the final file (1-based)."""
    title: str
    """The component's title."""
    sheet: int
    """The sheet's number in its component, from 1."""
    sheets: int
    """How many sheets the component has."""
    pieces: dict[str, int]
    """Each piece's name, as printed on it, to the copies on this sheet (sheet order)."""

    def line(self) -> str:
        """The sheet's pieces on one line: ``2 × Fire, Smoke``."""
        return ", ".join(f"{n} × {name}" if n > 1 else name
                         for name, n in self.pieces.items())


def cut_sheets(layout: list[Placed], components: dict[str, Component],
               lead: int) -> list[CutSheet]:
    """Every cut-out sheet of the packet, in page order, with the pieces on it.

    Marker, counter and card sheets say what they hold (``Component.inventory``); a
    sheet of tapes, rulers, gauges or strips holds what its bookmarks name (each piece's
    title as printed on it), and a page with none holds the rest of the piece before.
    """
    out: list[CutSheet] = []
    for key in dict.fromkeys(p.key for p in layout if p.key in components):
        assert key is not None
        comp = components[key]
        if not comp.cut_out:
            continue
        fronts = list(range(0, comp.pages, 2 if comp.two_sided else 1))
        first = lead + 1 + next(i for i, p in enumerate(layout) if p.key == key)
        at = {p.page: n for n, p in enumerate(layout, start=lead + 1) if p.key == key}
        last = comp.title
        for sheet, page in enumerate(fronts):
            if comp.inventory:
                pieces = dict(comp.inventory[sheet]) if sheet < len(comp.inventory) else {}
            else:
                named = [b.title for b in comp.bookmarks if b.page == page]
                if named:
                    last = named[-1]
                pieces = dict(Counter(named)) or {f"{last} (continued)": 1}
            out.append(CutSheet(at.get(page, first), comp.title, sheet + 1, len(fronts),
                                pieces))
    return out


def piece_rows(sheets: list[CutSheet]) -> list[tuple[str, int, str, int]]:
    """Every piece on the packet's cut-out sheets: (sheet title, sheet, piece, copies)."""
    return [(one.title, one.sheet, piece, n) for one in sheets
            for piece, n in one.pieces.items()]


def join_pdfs(pdfs: list[bytes]) -> bytes:
    """PDFs one after another, outlines kept, into one file."""
    writer = PdfWriter()
    for pdf in pdfs:
        writer.append(PdfReader(io.BytesIO(pdf)))
    writer.add_metadata({"/Creator": "quarterdeck", "/Producer": "quarterdeck (ReportLab, pypdf)"})
    writer.compress_identical_objects()
    ident = hashlib.sha256(b"".join(pdfs)).digest()[:16]
    from pypdf.generic import ArrayObject, ByteStringObject

    writer._ID = ArrayObject([ByteStringObject(ident), ByteStringObject(ident)])
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


# ---------------------------------------------------------------- covers


def event_logo(path: Path | None) -> branding.Logo | None:
    """The event's logo, loaded from its checked path (None: the event names none)."""
    return branding.load_logo(path) if path is not None else None


def _masthead(doc: CanvasDoc, event: Event, logo: branding.Logo | None,
              brand: branding.Brand | None) -> None:
    """The cover's head: event, club and date, the logo at the right, in the club's colours.

    Plain black on white unless the event's ``branding.yaml`` gives cover colours.
    """
    from reportlab.lib.colors import HexColor

    c, box = doc.canvas, doc.box
    if logo is None and brand is not None:
        logo = brand.logo  # the club's logo when the event names none of its own
    height = 34 * MM
    top = doc.y
    if brand is not None and brand.background.lower() != "#ffffff":
        c.setFillColor(HexColor(brand.background))
        c.rect(box.x - 2 * MM, top - height, box.width + 4 * MM, height + 2 * MM, stroke=0,
               fill=1)
    ink = HexColor(brand.text) if brand is not None else HexColor("#000000")
    room = box.width - (36 * MM if logo is not None else 0)
    c.setFillColor(ink)
    name = fonts.clip_text(event.name, fonts.BOLD, 20, room - 4 * MM)
    c.setFont(fonts.BOLD, 20)
    c.drawString(box.x + 2 * MM, top - 11 * MM, name)
    byline = " · ".join(p for p in (event.club, event.date.strftime("%-d %B %Y")) if p)
    c.setFont(fonts.REGULAR, 10)
    c.drawString(box.x + 2 * MM, top - 18 * MM,
                 fonts.clip_text(byline, fonts.REGULAR, 10, room - 4 * MM))
    c.setFillColor(HexColor("#000000"))
    if logo is not None:
        branding.draw_image(c, logo, box.x + box.width - LOGO_BOX - 2 * MM,
                            top - LOGO_BOX - 2 * MM, LOGO_BOX, LOGO_BOX)
    doc.y = top - height - 4 * MM


def cover_sheet(event: Event, logo: Any, brand: branding.Brand | None, paper: Paper, kit: Kit,
                spec: PacketSpec, table: int, side: str, seed: int, lead: int,
                ) -> tuple[bytes, list[Section], list[CutSheet]]:
    """The cover sheet: who and what, contents and how to print; then the pieces.

    Page one names the event, table, scenario and side, lists the packet's contents with
    page numbers and says how each run of pages prints; page two (when the packet has
    any) lists the packet's cut-out sheets, one line each with the pieces it holds, to
    check a cut kit against. The cover opens the packet's first run, on paper: the packet
    follows it directly.

    Every page number is one of the final file, taken from the packet's assembled
    layout behind ``lead`` cover pages; the cover is laid out again until its own length
    is ``lead`` (``cover_pages``).

    Returns:
        The cover's PDF, how each run of the file's pages prints, and its cut sheets.

    """
    layout = sheet_layout(spec, kit.components)
    sections = print_sections(layout, kit.components, lead)
    sheets = cut_sheets(layout, kit.components, lead)
    foot = f"{event.name} · {event.date.isoformat()}"
    doc = CanvasDoc(paper, f"{event.name}: table {table}, {side}", foot)
    _masthead(doc, event, logo, brand)
    doc.paragraph(f"Table {table}: {text(_scenario_title(kit, spec))}", "h1")
    doc.paragraph(f"<b>{text(side)}</b> packet · {text(kit.title)} · dice seed {seed}",
                  "body")
    doc.space(3)
    doc.paragraph("Contents", "h2")
    # Grid cells are drawn as plain text, never markup, so names go in as written.
    rows = [[title, str(page)] for title, page in _contents(kit, layout, lead)]
    doc.grid(Grid([doc.box.width - 30 * MM, 30 * MM], [["Section", "Page"]], rows,
                  aligned(1, 2), size=9))
    doc.space(3)
    doc.paragraph("How to print", "h2")
    blanks = [n for n, p in enumerate(layout, start=lead + 1) if p.key is None]
    doc.paragraph(
        "Print at 100 % (actual size; switch off 'fit to page'): rulers, gauges and "
        "counters are measured. Print each run of pages below on its own, on the stock it "
        "names; each run starts on a new sheet. Double-sided means flipped on the long "
        "edge; single-sided runs have no backs." + (
            f" {_pages(blanks)} intentionally blank: nothing prints behind the page "
            f"before {'it' if len(blanks) == 1 else 'each'}." if blanks else ""), "body")
    how = [[_span(s.first, s.last), s.how] for s in sections]
    doc.grid(Grid([40 * MM, doc.box.width - 40 * MM], [["Pages", "Print"]], how,
                  aligned(1, 2), size=9))
    doc.finish_page()
    if sheets:
        doc.paragraph("Pieces in this packet", "h2")
        doc.paragraph("Check a cut kit against this list: one line for each cut-out sheet, "
                      "with the pieces it holds as their names are printed on them.",
                      "body")
        lines = [[str(one.page), f"{one.title}, sheet {one.sheet} of {one.sheets}",
                  one.line()] for one in sheets]
        doc.grid(Grid([14 * MM, 62 * MM, doc.box.width - 76 * MM],
                      [["Page", "Sheet", "Pieces"]], lines, aligned(3, 3), size=8,
                      wrap=frozenset({1, 2})))
    pdf, _ = doc.finish()
    return pdf, sections, sheets


Cover = tuple[bytes, list[Section], list[CutSheet]]
"""A cover sheet's PDF, with how each run of its file prints and the file's cut sheets."""


def cover_pages(make: Callable[[int], Cover]) -> Cover:
    """The cover laid out behind its own length (``cover_sheet`` with all but ``lead``).

    ``make(lead)`` lays the cover out with every page number counted behind ``lead``
    cover pages. Only the width of a page number can change the cover's length, so a
    few rounds settle it; a cover that never settles is a bug, said so.
    """
    lead = 2
    for _ in range(4):
        made = make(lead)
        pages = len(PdfReader(io.BytesIO(made[0])).pages)
        if pages == lead:
            return made
        lead = pages
    raise RenderError(f"a cover sheet does not settle on a length (last {lead} pages)")


def _span(first: int, last: int) -> str:
    return f"{first}–{last}" if last > first else str(first)


def _pages(numbers: list[int]) -> str:
    ranges = page_ranges(numbers)
    return f"Page {ranges} is" if len(numbers) == 1 else f"Pages {ranges} are"


def _scenario_title(kit: Kit, spec: PacketSpec) -> str:
    title = spec.title
    return title.split(":")[0] if ":" in title else title


def _contents(kit: Kit, layout: list[Placed], lead: int) -> list[tuple[str, int]]:
    """Each component's title and first page in the file (after ``lead`` cover pages)."""
    seen: dict[str, int] = {}
    for number, placed in enumerate(layout, start=lead + 1):
        if placed.key is not None and placed.key in kit.components and placed.key not in seen:
            seen[placed.key] = number
    return [(kit.components[key].title, page) for key, page in seen.items()]


# ---------------------------------------------------------------- the print shop


def _sheets(pack: Pack) -> Counter[str]:
    """Sheets of paper and card one copy of a packet takes.

    A double-sided run takes a sheet for every two pages (a blank page there is the
    back of its run's last sheet, never a sheet of its own); a single-sided run, which
    holds no blank page, a sheet a page.
    """
    count: Counter[str] = Counter()
    for s in pack.sections:
        n = s.last - s.first + 1
        stock = "card" if "card" in s.how else "paper"
        count[stock] += n if s.how.startswith("single") else (n + 1) // 2
    return count


def summary_pages(event: Event, paper: Paper, packs: list[Pack]) -> bytes:
    """The print shop's first pages: every packet in print order, pages and stock."""
    doc = CanvasDoc(paper, f"{event.name}: print-shop summary ({paper.upper()})",
                    f"{event.name} · print-shop bundle")
    doc.paragraph(f"{text(event.name)}: print-shop bundle, {paper.upper()}", "h1")
    doc.paragraph("Everything below follows these pages, in this order. Each packet starts "
                  "on a new sheet. Print at 100 %, each packet run by run as its cover "
                  "says: the sheet counts assume double-sided runs flipped on the long "
                  "edge, and card for the pieces (one side only for tapes, rulers and "
                  "gauges).", "body")
    rows = []
    totals: Counter[str] = Counter()
    for pack in packs:
        sheets = _sheets(pack)
        totals.update(sheets)
        totals["pages"] += pack.pages + pack.pages % 2
        where = f"table {pack.table}" if pack.table else "extra"
        rows.append([where, pack.scenario, pack.side, pack.path, str(pack.pages),
                     str(sheets["paper"]), str(sheets["card"])])
    rows.append(["total", "", "", "", str(totals["pages"]), str(totals["paper"]),
                 str(totals["card"])])
    w = doc.box.width
    doc.grid(Grid([18 * MM, 30 * MM, 28 * MM, w - 128 * MM, 16 * MM, 18 * MM, 18 * MM],
                  [["Where", "Scenario", "Packet", "File", "Pages", "Paper", "Card"]], rows,
                  aligned(4, 7), size=7.5))
    pdf, _ = doc.finish()
    reader = PdfReader(io.BytesIO(pdf))
    if len(reader.pages) % 2:
        pdf = join_pdfs([pdf, blank_page(*page_size(paper))])
    return pdf


def inventory_csv(packs: list[Pack]) -> bytes:
    """Every piece of every packet, sheet by sheet, as a spreadsheet can read it.

    Every cell goes through ``csv_safe``: sides, sheet titles and pieces are the data's
    text (a user's scenario may name a side ``=HYPERLINK(...)``), and no column is trusted
    to stay numbers or ids. Rows end in CRLF (RFC 4180), so a line break of either kind
    inside a cell is quoted: a bare CR in a name cannot start a row of its own.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(["paper", "table", "scenario", "packet", "sheets", "sheet", "piece",
                     "copies"])
    for pack in packs:
        for title, sheet, piece, n in pack.inventory:
            writer.writerow([csv_safe(str(cell)) for cell in (
                pack.paper, pack.table or "", pack.scenario, pack.side, title, sheet, piece,
                n)])
    return buffer.getvalue().encode("utf-8")


def csv_safe(value: str) -> str:
    """A cell a spreadsheet will not run as a formula.

    One that starts like a formula (after any spaces, which some spreadsheets skip) gets
    a leading ``'``, as OWASP advises; the rest are written as they are.
    """
    from generator.data.sheettable import FORMULA_START

    return "'" + value if value.lstrip(" \u00a0\u3000")[:1] in FORMULA_START else value
