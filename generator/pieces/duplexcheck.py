"""The back-offset calibration sheet: measure how far a printer misplaces the backs.

Duplex printers rarely put the back exactly behind the front; a millimetre is common,
and on a 9 mm marker that shows. The front page carries five pin targets; the back
carries a graduated cross behind each, placed by the same mirroring the marker sheets
use. Pierce each target with a pin, turn the sheet over and read where the holes are:
the reading is the correction to pass as ``--back-offset X,Y``.
"""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.units import MM
from generator.pages import wordwrap
from generator.pages.component import Bookmark, Component
from generator.pages.furniture import Furniture, finish_page
from generator.pages.layout import Paper, new_canvas, page_size, safe_box
from generator.pieces.imposition import Duplex, mirrored

SCALE_MM = 8
"""Each graduated cross reads from -8 to +8 mm in both directions."""
_TARGET = 5 * MM

FRONT_NOTES = (
    "Back-offset check. Print this sheet double-sided at actual size, with the same "
    "printer, paper and flip setting you will use for the markers.",
    "Push a pin through the centre of each cross A-E. Turn the sheet over and read, on "
    "the scales around each letter, where the hole came through: across (x) and up (y).",
    "Take the reading at E (or the average of all five) and build with "
    "--back-offset X,Y in mm, e.g. --back-offset 0.5,-1. A hole on 0,0 needs no offset.",
)


def target_positions(page_w: float, page_h: float) -> list[tuple[str, float, float]]:
    """The five pin targets on the front page: four near the corners and the centre."""
    inset_x, inset_y = 35 * MM, 45 * MM
    below_notes = page_h - 65 * MM
    return [("A", inset_x, below_notes), ("B", page_w - inset_x, below_notes),
            ("C", inset_x, inset_y + 25 * MM), ("D", page_w - inset_x, inset_y + 25 * MM),
            ("E", page_w / 2, page_h / 2)]


def render_duplex_check(paper: Paper, duplex: Duplex, offset: tuple[float, float],
                        footer: str) -> Component:
    """The two-page offset-calibration sheet as a packet component.

    Args:
        paper: ``a4`` or ``letter``.
        duplex: ``long`` or ``short`` (``off`` is drawn as long: the sheet is for
            printers that print both sides).
        offset: The back offset in use (points); the back is printed with it, so a
            reading is what to add to it.
        footer: Footer text (scenario or kit name).

    Returns:
        The component (key ``duplex-check``).

    """
    flip: Duplex = "long" if duplex == "off" else duplex
    page_w, page_h = page_size(paper)
    buffer = io.BytesIO()
    c = new_canvas(buffer, paper, "Back-offset check")
    box = safe_box(paper)
    _notes(c, box.x, box.top, box.width, FRONT_NOTES)
    for letter, x, y in target_positions(page_w, page_h):
        _target(c, letter, x, y)
    finish_page(c, box, Furniture(f"{footer} · back-offset check, front", calibration=True), 0)
    offset_note = (f"Printed with back offset {offset[0] / MM:+.1f}, {offset[1] / MM:+.1f} mm: "
                   "add your reading to it." if offset != (0.0, 0.0) else
                   "Printed with no back offset: your reading is the offset.")
    _notes(c, box.x, box.top, box.width,
           (f"Back of the offset check (flip on the {flip} edge). Read each pin hole on "
            "its scales in mm: x across, y up.", offset_note))
    for letter, x, y in target_positions(page_w, page_h):
        bx, by = mirrored(x, y, 0.0, 0.0, page_w, page_h, flip, offset)
        _scales(c, letter, bx, by)
    finish_page(c, box, Furniture(f"{footer} · back-offset check, back"), 1)
    c.save()
    return Component("duplex-check", "Back-offset check", "Offset-", buffer.getvalue(), 2,
                     [Bookmark("Front: pin targets", 0), Bookmark("Back: scales", 1)],
                     two_sided=True)


def _notes(c: Canvas, x: float, top: float, width: float, lines: tuple[str, ...]) -> None:
    c.setFillColorRGB(0, 0, 0)
    c.setFont(fonts.REGULAR, 9)
    y = top - 4 * MM
    for paragraph in lines:
        for line in wordwrap.lines(paragraph, fonts.REGULAR, 9, width):
            c.drawString(x, y, line)
            y -= 4 * MM
        y -= 1.5 * MM


def _target(c: Canvas, letter: str, x: float, y: float) -> None:
    c.setLineWidth(0.25)
    c.setStrokeColorRGB(0, 0, 0)
    c.line(x - _TARGET, y, x + _TARGET, y)
    c.line(x, y - _TARGET, x, y + _TARGET)
    c.circle(x, y, 1.5 * MM, stroke=1, fill=0)
    c.setFont(fonts.BOLD, 12)
    c.drawString(x + 2.5 * MM, y + 2.5 * MM, letter)


def _scales(c: Canvas, letter: str, x: float, y: float) -> None:
    """A cross graduated every 0.5 mm, longer ticks every 1 and 4 mm, numbered every 4 mm."""
    c.setLineWidth(0.25)  # the thinnest line a print shop prints reliably
    c.setStrokeColorRGB(0, 0, 0)
    reach = SCALE_MM * MM
    c.line(x - reach, y, x + reach, y)
    c.line(x, y - reach, x, y + reach)
    c.setFont(fonts.REGULAR, fonts.MIN_SIZE)
    for half in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        at = half * 0.5 * MM
        tick = (2.4 if half % 8 == 0 else 1.6 if half % 2 == 0 else 0.8) * MM
        c.line(x + at, y - tick / 2, x + at, y + tick / 2)
        c.line(x - tick / 2, y + at, x + tick / 2, y + at)
        if half % 8 == 0 and half:
            # Numbers every 4 mm: closer ones would touch at the 7 pt floor.
            c.drawCentredString(x + at, y - 4.2 * MM, f"{half // 2:+d}")
            if half != -8:  # -4 on the y scale would sit on -4 of the x scale
                c.drawRightString(x - 2 * MM, y + at - 0.9 * MM, f"{half // 2:+d}")
    c.drawString(x + reach + 1 * MM, y - 0.9 * MM, "x")
    c.drawCentredString(x, y + reach + 1 * MM, "y")
    c.setFont(fonts.BOLD, 12)
    c.drawString(x + 3 * MM, y + 3 * MM, letter)
