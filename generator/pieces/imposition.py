"""Imposition: pieces laid out N-up on A4 or Letter, with cut guides, bleed and backs.

Any ruleset hands over a list of ``Piece`` and a ``Sprue``; this module places every
copy of every piece in rows (mixed sizes share a sheet), draws cut lines on the trim
edges and/or crop marks in the gutters, and, for two-sided pieces, puts the backs on
the following page at the mirrored position for long- or short-edge duplex, shifted by
the printer's measured back offset. With duplex off, a back is printed as a piece of
its own beside its front, sharing its trim edge: cut the pair out as one and fold on
that edge, and the piece keeps its size. A piece with distinct ends (``Piece.ends``)
has its back drawn mirrored wherever the flip or the fold turns those ends over.

Every copy's id is written invisibly at its trim corner, so the PDF, the PNG files and
the Tabletop Simulator sheets name each piece the same way (and a PDF search finds it).
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Literal

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.errors import RenderError
from generator.core.units import MM
from generator.pages import branding, calibration, kitdoc, pagenumbers
from generator.pages.component import Bookmark, Component
from generator.pages.layout import Paper, new_canvas, page_size
from generator.pieces.cropmarks import crop_marks, sheet_boxes, sheet_margin
from generator.pieces.mirror import Axis, mirror_art
from generator.pieces.pieces import Art, Piece, draw_face
from generator.pieces.sprue import CutMode, Sprue

Duplex = Literal["long", "short", "off"]
CardSize = Literal["poker", "mini", "tarot"]
Face = Literal["front", "back"]

HEADING = 6.0 * MM
"""Height of a region's heading line."""
FOOTER = 5.0 * MM
"""Height kept at the bottom of each sheet for the printing note."""
CUT_WIDTH = 0.3
CUT_GREY = 0.55
FOOTER_GAP = 3.0 * MM
"""Space between the footer's parts (its note, the scale bar, the page number)."""
ID_SIZE = 1.0
"""Size of the invisible id text (points): small, so it never reaches past a piece."""


@dataclass(frozen=True)
class Options:
    """How a set of pieces is printed.

    Attributes:
        paper: ``a4`` or ``letter``.
        duplex: ``long`` or ``short`` (backs on the next page, mirrored for the flip)
            or ``off`` (backs printed beside their fronts).
        bleed: Print backgrounds past the trim by the sprue's bleed.
        cut: Cut guides; None takes the sprue's default.
        back_offset: The printer's measured misalignment of the back (x, y in points,
            as read on the offset-calibration page); backs are moved by it.
        card_size: The size decks are printed at (``decks.CARD_SIZES``).

    """

    paper: Paper = "a4"
    duplex: Duplex = "long"
    bleed: bool = False
    cut: CutMode | None = None
    back_offset: tuple[float, float] = (0.0, 0.0)
    card_size: CardSize = "poker"


@dataclass(frozen=True)
class Slot:
    """One copy of one face placed on a page (trim box in page points)."""

    piece: Piece
    copy: int
    face: Face
    page: int
    x: float
    y: float

    @property
    def width(self) -> float:
        """Trim width."""
        return self.piece.width

    @property
    def height(self) -> float:
        """Trim height."""
        return self.piece.height


@dataclass
class Sheet:
    """One page: its slots and its headings (x, y baseline, text)."""

    face: Face
    slots: list[Slot] = field(default_factory=list)
    headings: list[tuple[float, float, str]] = field(default_factory=list)
    front_page: int | None = None


@dataclass
class Imposed:
    """A rendered imposition.

    Attributes:
        pdf: The PDF bytes (uncompressed; packets compress).
        pages: Page count.
        sheets: What is on each page, for manifests and tests.
        bookmarks: One entry per region (and one for the backs of each sheet).
        bleed: Bleed used (points).
        cut: Cut guides drawn.

    """

    pdf: bytes
    pages: int
    sheets: list[Sheet]
    bookmarks: list[Bookmark]
    bleed: float
    cut: CutMode


@dataclass(frozen=True)
class _Area:
    x: float
    y: float
    right: float
    top: float


def back_piece(piece: Piece) -> Piece:
    """The back of a two-sided piece as a piece of its own (for duplex off).

    It is printed to the right of its front and folded behind it on their shared
    edge, which turns left and right over: a piece with ends along x is drawn mirrored.
    """
    assert piece.back is not None
    return replace(piece, id=piece.id + ".back", title=piece.title + " (back)",
                   front=back_art(piece, "x"), back=None)


def flip_axis(duplex: Duplex, page_w: float, page_h: float) -> Axis:
    """The axis a back's features are mirrored along, seen from the back after the flip.

    Turning a portrait sheet over its long edge swaps left and right, over its short
    edge top and bottom (the other way round on a landscape sheet); a back printed
    beside its front (duplex off) is folded over a vertical edge, swapping left and right.
    """
    if duplex == "off":
        return "x"
    return "x" if (duplex == "long") == (page_h >= page_w) else "y"


def back_art(piece: Piece, axis: Axis) -> Art:
    """A piece's back as drawn on a sheet whose flip mirrors ``axis``.

    Mirrored along ``axis`` when the piece has its ends there, so after the flip each
    end of the back lies behind the same end of the front; else drawn as it is.
    """
    assert piece.back is not None
    return mirror_art(piece.back, axis) if piece.ends == axis else piece.back


def mirrored(x: float, y: float, width: float, height: float, page_w: float, page_h: float,
             duplex: Duplex, offset: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """Where a back goes so it lands behind its front after the sheet is turned.

    Turning a sheet over its long edge mirrors positions across the axis parallel to
    that edge: left-right on a portrait page, top-bottom on a landscape one; the short
    edge does the opposite. The printer's measured offset is then added.

    Args:
        x: Front trim box's left edge.
        y: Front trim box's bottom edge.
        width: Trim width.
        height: Trim height.
        page_w: Page width.
        page_h: Page height.
        duplex: ``long`` or ``short``.
        offset: Back offset (x, y) in points.

    Returns:
        The back's trim box lower-left corner.

    """
    portrait = page_h >= page_w
    flip_x = (duplex == "long") == portrait
    bx = page_w - x - width if flip_x else x
    by = y if flip_x else page_h - y - height
    return bx + offset[0], by + offset[1]


def layout(pieces: list[Piece], sprue: Sprue, options: Options) -> list[Sheet]:
    """Place every copy of every piece: fronts in rows by region, then the backs.

    Args:
        pieces: The pieces, in the order they should appear within their region.
        sprue: Sheet layout.
        options: Paper, duplex, bleed, offset.

    Returns:
        The pages in print order (a front, then its back when any piece has one).

    Raises:
        RenderError: A piece is larger than the printable area, or its group has no region.

    """
    landscape = sprue.orientation == "landscape"
    page_w, page_h = page_size(options.paper, landscape)
    bleed = sprue.bleed if options.bleed else 0.0
    # Crop marks lie in the band along the paper's edges, outside the margin: the
    # pieces, headings and footer keep inside it, so no mark strikes through them.
    margin = sheet_margin(cut_mode(options, sprue), sprue.margin, bleed)
    area = _Area(margin, margin + FOOTER, page_w - margin, page_h - margin)
    heading_room = HEADING
    gap = sprue.gutter + 2 * bleed
    _check_groups(pieces, sprue)
    two_sided = options.duplex != "off" and any(p.back for p in pieces)

    fronts: list[Sheet] = []
    # ``top`` is where the next row's bleed box may start; rows stack downwards.
    top = area.top
    for region in sprue.regions:
        copies = _copies([p for p in pieces if p.group in region.groups], options.duplex)
        if not copies:
            continue
        if not fronts or (region.new_page and fronts[-1].slots):
            fronts.append(Sheet("front"))
            top = area.top
        title = region.title
        row: list[Slot] = []
        x = row_top = 0.0
        for piece in {id(p): p for p, _ in copies}.values():
            _check_fits(piece, area, bleed, heading_room)
        for index, (piece, copy) in enumerate(copies):
            # With duplex off a back follows its front: the pair stays on one row, its
            # back touching its front, to fold on the trim edge they share.
            paired = (index + 1 < len(copies) and piece.back is not None
                      and copies[index + 1][0].id == piece.id + ".back")
            width = piece.width + (copies[index + 1][0].width if paired else 0.0)
            too_wide = bool(row) and x + width + bleed > area.right + 1e-6
            too_low = bool(row) and row_top - piece.height - bleed < area.y - 1e-6
            if too_wide or too_low:
                top = min(s.y for s in row) - bleed - sprue.gutter
                row = []
            if not row:
                need = (heading_room if title else 0) + piece.height + 2 * bleed
                if top - need < area.y - 1e-6:
                    fronts.append(Sheet("front"))
                    top = area.top
                    title = title or region.title + " (continued)"
                if title:
                    fronts[-1].headings.append((area.x, top - HEADING + 1.8 * MM, title))
                    top -= heading_room
                    title = ""
                x, row_top = area.x + bleed, top - bleed
            # Page numbers count the back pages in between from the start.
            page = (len(fronts) - 1) * (2 if two_sided else 1)
            slot = Slot(piece, copy, "front", page, x, row_top - piece.height)
            fronts[-1].slots.append(slot)
            row.append(slot)
            x += piece.width + (0.0 if paired else gap)
        if row:
            top = min(s.y for s in row) - bleed - sprue.gutter

    pages: list[Sheet] = []
    for sheet in fronts:
        sheet.front_page = len(pages)
        pages.append(sheet)
        if two_sided:
            back = Sheet("back", front_page=sheet.front_page)
            for slot in sheet.slots:
                if slot.piece.back is None:
                    continue
                bx, by = mirrored(slot.x, slot.y, slot.width, slot.height, page_w, page_h,
                                  options.duplex, options.back_offset)
                back.slots.append(Slot(slot.piece, slot.copy, "back", slot.page + 1, bx, by))
            pages.append(back)
    return pages


def _check_groups(pieces: list[Piece], sprue: Sprue) -> None:
    placed = {g for region in sprue.regions for g in region.groups}
    stray = sorted({p.group for p in pieces} - placed)
    if stray:
        raise RenderError(f"sprue '{sprue.id}' has no region for piece group(s) "
                          f"{', '.join(stray)}")


def back_bleed(options: Options, sprue: Sprue) -> float:
    """How far a back's ground runs past its trim on a back page.

    The sprue's bleed when bleed is on; else as much of it as half the gutter allows
    (neighbouring backs' grounds then meet at most, never overlap), so a misregistered
    back still reaches the cut.
    """
    return sprue.bleed if options.bleed else min(sprue.bleed, sprue.gutter / 2)


def cut_mode(options: Options, sprue: Sprue) -> CutMode:
    """The cut guides drawn: the user's choice, else crop marks with bleed, else the sprue's."""
    return options.cut or ("marks" if options.bleed and sprue.cut == "lines" else sprue.cut)


def _check_fits(piece: Piece, area: _Area, bleed: float, heading: float) -> None:
    if (piece.width + 2 * bleed > area.right - area.x + 1e-6
            or piece.height + 2 * bleed + heading > area.top - area.y + 1e-6):
        raise RenderError(f"piece '{piece.id}' ({piece.width / MM:.1f} x "
                          f"{piece.height / MM:.1f} mm) is larger than the sheet's printable area")


def _copies(pieces: list[Piece], duplex: Duplex) -> list[tuple[Piece, int]]:
    """Every copy to print, in order; with duplex off a back follows its front."""
    out: list[tuple[Piece, int]] = []
    for piece in pieces:
        for copy in range(piece.quantity):
            out.append((piece, copy))
            if duplex == "off" and piece.back is not None:
                out.append((back_piece(piece), copy))
    return out


def impose(pieces: list[Piece], sprue: Sprue, options: Options, title: str,
           footer: str) -> Imposed:
    """Lay out and draw pieces on sheets.

    Args:
        pieces: What to print.
        sprue: Sheet layout.
        options: Paper, duplex, bleed, cut guides, back offset.
        title: Document title.
        footer: Left part of the footer line (e.g. the scenario); the printing note
            follows it.

    Returns:
        The PDF and a description of every page.

    """
    pages = layout(pieces, sprue, options)
    landscape = sprue.orientation == "landscape"
    page_w, page_h = page_size(options.paper, landscape)
    bleed = sprue.bleed if options.bleed else 0.0
    cut = cut_mode(options, sprue)
    buffer = io.BytesIO()
    c = new_canvas(buffer, options.paper, title, landscape)
    axis = flip_axis(options.duplex, page_w, page_h)
    bookmarks: list[Bookmark] = []
    for number, sheet in enumerate(pages):
        folded = _fold_sides(sheet.slots)
        # A back's ground always runs past its trim: a back printed a millimetre off
        # its front would otherwise show a white sliver along one edge.
        ground = bleed if sheet.face == "front" else back_bleed(options, sprue)
        for slot in sheet.slots:
            art = slot.piece.front if slot.face == "front" else back_art(slot.piece, axis)
            if (slot.piece.id, slot.copy) in folded:
                _draw_folded(c, art, slot, bleed, folded[(slot.piece.id, slot.copy)])
            elif ground:
                draw_face(c, art, slot.x, slot.y, slot.width, slot.height, ground)
            else:
                # Without bleed the art stays inside its trim by contract (labels are
                # auto-fitted), so the clip path's cost is saved on big runs.
                c.saveState()
                c.translate(slot.x, slot.y)
                art(c, slot.width, slot.height, 0.0)
                c.restoreState()
        _draw_cuts(c, sheet.slots, cut)
        if sheet.slots:
            c.print_boxes(*sheet_boxes(cut_boxes(sheet.slots), ground))
        _draw_folds(c, sheet.slots)
        _draw_ids(c, sheet.slots)
        for hx, hy, text in sheet.headings:
            c.setFillColorRGB(0, 0, 0)
            c.setFont(fonts.BOLD, 9)
            c.drawString(hx, hy, text)
            if sheet.face == "front":
                bookmarks.append(Bookmark(text, number, hy + 12))
        _draw_footer(c, sheet, footer, options, sprue, page_w, number, cut)
        if sheet.face == "back" and sheet.front_page is not None:
            bookmarks.append(Bookmark(f"Backs of sheet {sheet.front_page + 1}", number))
        c.showPage()
    c.save()
    return Imposed(buffer.getvalue(), len(pages), pages, bookmarks, bleed, cut)


def _fold_sides(slots: list[Slot]) -> dict[tuple[str, int], Literal["left", "right"]]:
    """Which side of each folded front and back is the fold (it gets no bleed)."""
    out: dict[tuple[str, int], Literal["left", "right"]] = {}
    for front, back in _fold_pairs(slots):
        out[(front.piece.id, front.copy)] = "right"
        out[(back.piece.id, back.copy)] = "left"
    return out


def _draw_folded(c: Canvas, art: Art, slot: Slot, bleed: float,
                 fold: Literal["left", "right"]) -> None:
    """One side of a folded pair, clipped at the fold so neither ground runs onto the other."""
    c.saveState()
    c.translate(slot.x, slot.y)
    left = 0.0 if fold == "left" else bleed
    right = 0.0 if fold == "right" else bleed
    path = c.beginPath()
    path.rect(-left, -bleed, slot.width + left + right, slot.height + 2 * bleed)
    c.clipPath(path, stroke=0, fill=0)
    art(c, slot.width, slot.height, bleed)
    c.restoreState()


def cut_boxes(slots: list[Slot]) -> list[tuple[float, float, float, float]]:
    """The outlines to cut (x, y, width, height): each piece, a folded pair as one."""
    pairs = {id(front): back for front, back in _fold_pairs(slots)}
    backs = {id(back) for back in pairs.values()}
    out = []
    for s in slots:
        if id(s) in backs:
            continue
        width = s.width + (pairs[id(s)].width if id(s) in pairs else 0.0)
        out.append((s.x, s.y, width, s.height))
    return out


def _draw_cuts(c: Canvas, slots: list[Slot], cut: CutMode) -> None:
    """Cut lines on every trim edge; crop marks along the paper's edges."""
    c.saveState()
    c.setLineWidth(CUT_WIDTH)
    c.setStrokeGray(CUT_GREY if cut != "marks" else 0.0)
    path = c.beginPath()
    if cut in ("lines", "both"):
        for x, y, width, height in cut_boxes(slots):
            path.rect(x, y, width, height)
    if cut in ("marks", "both"):
        width, height = c._pagesize
        for x0, y0, x1, y1 in crop_marks(cut_boxes(slots), width, height):
            path.moveTo(x0, y0)
            path.lineTo(x1, y1)
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def _fold_pairs(slots: list[Slot]) -> list[tuple[Slot, Slot]]:
    """Each front with the back printed against its right edge (duplex off)."""
    return [(front, back) for front, back in zip(slots, slots[1:], strict=False)
            if back.piece.id == front.piece.id + ".back" and back.copy == front.copy
            and abs(back.y - front.y) < 1e-6
            and abs(back.x - front.x - front.width) < 1e-6]


def fold_lines(slots: list[Slot]) -> list[tuple[float, float, float]]:
    """Fold lines (x, y0, y1) between each front and the back printed beside it.

    With ``--duplex off`` a back follows its front on the same row, touching it: cut
    the pair out as one, fold on the edge they share and the back lies behind the
    front, the piece its printed size.
    """
    return [(front.x + front.width, front.y, front.y + front.height)
            for front, _ in _fold_pairs(slots)]


def _draw_folds(c: Canvas, slots: list[Slot]) -> None:
    folds = fold_lines(slots)
    if not folds:
        return
    c.saveState()
    c.setLineWidth(CUT_WIDTH)
    c.setStrokeGray(CUT_GREY)
    c.setDash(1.5, 1.5)
    for x, y0, y1 in folds:
        c.line(x, y0, x, y1)
    c.restoreState()


def _draw_ids(c: Canvas, slots: list[Slot]) -> None:
    """Each copy's id as invisible text at its trim corner (searchable, never printed).

    Ids are plain ASCII, which the primed first subset of the regular font encodes as
    itself (see ``fonts.primer``), so the text operators are written directly: going
    through ReportLab's text object costs as much as drawing the markers' own labels.
    """
    if not slots:
        return
    font = pdfmetrics.getFont(fonts.REGULAR).getSubsetInternalName(0, c._doc)
    ops = [f"BT 3 Tr {font} {ID_SIZE:g} Tf"]
    x0 = y0 = 0.0
    for s in slots:
        ident = s.piece.id + (".back" if s.face == "back" else "")
        if not ident.isascii() or any(ch in ident for ch in "()\\"):
            raise RenderError(f"piece id {ident!r} must be plain ASCII without brackets")
        x, y = s.x + 0.2 * MM, s.y + 0.2 * MM
        ops.append(f"{x - x0:.3f} {y - y0:.3f} Td ({ident}) Tj")
        x0, y0 = x, y
    ops.append("ET")
    # The render mode outlives ET (it is graphics state), so q/Q keep it from hiding
    # the headings and footer drawn next.
    c.saveState()
    c.addLiteral("\n".join(ops))
    c.restoreState()
    kitdoc.uses(c, fonts.REGULAR, "".join(s.piece.id for s in slots) + ".back")


def _draw_footer(c: Canvas, sheet: Sheet, footer: str, options: Options, sprue: Sprue,
                 page_w: float, number: int, cut: CutMode) -> None:
    """The printing note: scale, how to print the backs, and which sheet this is."""
    if sheet.face == "back":
        assert sheet.front_page is not None
        note = (f"Backs of sheet {sheet.front_page + 1}: print double-sided, flip on the "
                f"{options.duplex} edge")
        if options.back_offset != (0.0, 0.0):
            note += (f", back offset {options.back_offset[0] / MM:+.1f}, "
                     f"{options.back_offset[1] / MM:+.1f} mm")
    else:
        note = "Print at 100 %, no fit to page. " + (
            "Cut on the grey lines." if cut == "lines" else
            "Cut at the crop marks." if cut == "marks" else "Cut on the lines or at the marks.")
        if fold_lines(sheet.slots):
            note += " Fold each front and back on the dashed line between them."
    c.setFillColorRGB(0.25, 0.25, 0.25)
    c.setFont(fonts.REGULAR, fonts.MIN_SIZE)
    margin = sheet_margin(cut, sprue.margin, sprue.bleed if options.bleed else 0.0)
    y = margin + 1.2 * MM
    room = page_w - 2 * margin
    page_label = f"page {number + 1}"
    # In a packet the number is the packet's, stamped as it is written: room for three
    # digits is kept whatever the number is.
    stamped = pagenumbers.number_slot(c, page_w - margin, y, fonts.REGULAR,
                                      fonts.MIN_SIZE, gray=0.25)
    if sheet.face == "front" and sheet.slots:
        # The pieces are cut to scale: a bar to measure before cutting, by the page number.
        right = (page_w - margin - FOOTER_GAP
                 - fonts.string_width(pagenumbers.PREFIX + "888" if stamped else page_label,
                                      fonts.REGULAR, fonts.MIN_SIZE))
        calibration.draw_footer_bar(c, right, y, fonts.REGULAR, fonts.MIN_SIZE)
        room -= calibration.footer_bar_width(fonts.REGULAR, fonts.MIN_SIZE) + FOOTER_GAP
    footer = branding.footer(footer)
    indent = branding.logo_width(2.6 * MM)
    branding.draw_logo(c, margin, y - 0.6 * MM, 2.6 * MM)
    room -= indent
    # The printing note matters more than the kit's name: when both do not fit, the
    # note stays whole (after the club's name, when the sheets are branded).
    club = branding.footer("")
    for left in (f"{footer} · {note}" if footer else note,
                 f"{club} · {note}" if club else note,
                 fonts.clip_text(note, fonts.REGULAR, fonts.MIN_SIZE, room - 20 * MM)):
        if fonts.string_width(left, fonts.REGULAR, fonts.MIN_SIZE) <= room - 20 * MM:
            break
    c.drawString(margin + indent, y, left)
    if not stamped:
        c.drawRightString(page_w - margin, y, page_label)


def as_component(imposed: Imposed, key: str, title: str, label: str) -> Component:
    """The imposed sheets as a packet component.

    The sheets are cut out. With backs, the component is two-sided: it starts on a
    right-hand page so that each back prints behind its front.
    """
    backs = any(sheet.face == "back" for sheet in imposed.sheets)
    inventory = [dict(Counter(slot.piece.title for slot in sheet.slots
                              if slot.face == "front"))
                 for sheet in imposed.sheets if sheet.face != "back"]
    return Component(key, title, label, imposed.pdf, imposed.pages, imposed.bookmarks,
                     two_sided=backs, cut_out=True, inventory=inventory)
