"""Packet page numbers: stamped on each page as its packet is written.

A build draws each page once and several packets can share it, each at its own place
(a side's packet opens with its print note, the referee's with another). So a page
drawn on the build's canvas does not print its number: its footer leaves a slot
(``number_slot``), and ``stamp`` gives each packet its own copy of the page whose
content is the shared drawing followed by "page N", N counted from the packet's first
page. The numbers printed are then the numbers the packet's print note gives.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFArray, PDFStream

from generator.core import fonts

PREFIX = "page "
"""What goes before the number ("page 12")."""


@dataclass(frozen=True)
class Slot:
    """Where a page's number goes: right-aligned at ``right``, on ``baseline``.

    Attributes:
        right: The number's right edge (points).
        baseline: Its baseline (points).
        font: The face it prints in.
        size: Its size (points).
        suffix: What follows the number (" · front").
        gray: Its colour, a grey level (0 is black).

    """

    right: float
    baseline: float
    font: str
    size: float
    suffix: str = ""
    gray: float = 0.0

    def text(self, number: int) -> str:
        """What this slot prints on the packet's ``number``-th page (1-based)."""
        return f"{PREFIX}{number}{self.suffix}"


def number_slot(canvas: Any, right: float, baseline: float, font: str, size: float,
                suffix: str = "", gray: float = 0.0) -> bool:
    """Leave the page's number to the packet when ``canvas`` is a build's canvas.

    Returns:
        True if the packet will stamp the number; False if the caller must draw the
        page's own number (a component drawn on its own canvas).

    """
    slots = getattr(canvas, "number_slots", None)
    if slots is None:
        return False
    slots.append(Slot(right, baseline, font, size, suffix, gray))
    return True


def characters(slot: Slot, number: int) -> set[str]:
    """The characters the stamp puts on a page (its packet must embed their glyphs)."""
    return set(slot.text(number))


def stamp(page: Any, slots: list[Slot], number: int, source: Any, split: Any,
          save: PDFStream, restore: PDFStream, reference: Any) -> Any:
    """A copy of ``page`` whose content ends with its packet page number.

    Args:
        page: The page object drawn on the build's document.
        slots: Its number slots (one, as a rule).
        number: The page's place in the packet (1-based).
        source: The build's document (whose character codes the text uses).
        split: ReportLab's ``TTFont.splitString`` (the text's subsets and codes).
        save: The packet's "q" stream: the drawing runs inside a saved state, so the
            number is placed in the page's own coordinates, whatever the drawing left.
        restore: The packet's "Q" stream.
        reference: The packet document's ``Reference`` (streams must be indirect).

    Returns:
        The page copy; the build's page is left as it was, for other packets.

    """
    ops = []
    for slot in slots:
        text = slot.text(number)
        ops.append(f"{fp_str(slot.gray)} g")
        font = pdfmetrics.getFont(slot.font)
        x = slot.right - fonts.string_width(text, slot.font, slot.size)
        ops.append(f"BT 1 0 0 1 {fp_str(x)} {fp_str(slot.baseline)} Tm")
        for subset, chunk in split(font, text, source):
            name = font.getSubsetInternalName(subset, source)
            ops.append(f"{name} {fp_str(slot.size)} Tf <{bytes(chunk).hex()}> Tj")
        ops.append("ET")
    overlay = PDFStream(content="\n".join(ops).encode("latin-1"))
    mine = copy.copy(page)
    mine.Contents = PDFArray([reference(save), reference(page.Contents),
                              reference(restore), reference(overlay)])
    return mine
