"""What a print shop reads off every page: its trim and bleed boxes, and clean font names.

A RIP or an imposition program takes the finished size of a page from its ``TrimBox``
and how far the ink may run past it from its ``BleedBox``; a page without them is
guessed at. Every canvas of the kit (``SafeCanvas``) gives each page both: the whole
page unless the drawer declares otherwise for that page (``PageBoxes.print_boxes``, as
the piece sheets do: their trim is the block of pieces, their bleed the art run past it).

Two more things every file gets, for the same readers:

* No standard font is named that the file does not embed. ReportLab starts each page by
  selecting its default font (Helvetica) when the canvas's initial font is one of the
  standard 14 (a canvas starting on the kit's own face selects nothing), and its
  graphics renderer selects its own default font (Helvetica again) before it draws a
  drawing, a logo or a silhouette: that default is the kit's regular face here.
* A font subset's tag (the six letters before ``+`` in its name) is taken from what the
  subset holds, so two different subsets of one face never share a name, in a file or
  across files joined into one; the same subset gets the same name in every build.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from reportlab.graphics import shapes
from reportlab.pdfbase import ttfonts

from generator.core import fonts

Box = tuple[float, float, float, float]
"""A page box as PDF writes it: left, bottom, right, top, in points."""


class PageBoxes:
    """Mixin for a ReportLab canvas: a TrimBox and a BleedBox on every page it ends.

    Attributes are ReportLab's own (``_trimBox``, ``_bleedBox``): its ``showPage`` writes
    them into the page dictionary. They are set for each page and cleared after it, so a
    box declared for one sheet never lands on the next.
    """

    _pagesize: tuple[float, float]
    _trimBox: Any  # noqa: N815 (ReportLab's attribute)
    _bleedBox: Any  # noqa: N815 (ReportLab's attribute)
    _declared: tuple[Box, Box] | None = None

    def print_boxes(self, trim: Box, bleed: Box) -> None:
        """Declare the current page's trim and bleed boxes (the whole page otherwise)."""
        self._declared = (trim, bleed)

    def _set_page_boxes(self) -> None:
        """Give ReportLab the boxes of the page about to be written."""
        width, height = self._pagesize
        whole = (0.0, 0.0, float(width), float(height))
        trim, bleed = self._declared or (whole, whole)
        self._trimBox = [round(v, 4) for v in trim]
        self._bleedBox = [round(v, 4) for v in bleed]
        self._declared = None


# ----------------------------------------------------------------- subset tags

_TAGGING: ContextVar[tuple[Any, Sequence[Sequence[int]]] | None] = ContextVar(
    "quarterdeck subset being named", default=None)


def subset_tag(face_name: bytes, subset: Sequence[int]) -> bytes:
    """Six capital letters naming one subset of one face by the characters it holds.

    PDF asks for a tag unique to each subset; a digest of the face and the character
    codes it holds is unique in practice and the same in every build.
    """
    digest = hashlib.sha256(face_name + b":" + ",".join(map(str, subset)).encode()).digest()
    return bytes(65 + byte % 26 for byte in digest[:6])


_reportlab_subsetn = ttfonts.SUBSETN


def _content_subsetn(n: int) -> bytes:
    """ReportLab's ``SUBSETN`` while a font is being written: the tag of that subset."""
    tagging = _TAGGING.get()
    if tagging is None:
        return _reportlab_subsetn(n)  # type: ignore[no-any-return]
    face, subsets = tagging
    return subset_tag(face.name + face.subfontNameX, subsets[n])


@contextmanager
def _naming(font: Any, doc: Any) -> Iterator[None]:
    token = _TAGGING.set((font.face, font.state[doc].subsets))
    try:
        yield
    finally:
        _TAGGING.reset(token)


_add_objects = ttfonts.TTFont.addObjects


def _tagged_add_objects(font: Any, doc: Any) -> None:
    """ReportLab's ``TTFont.addObjects``, each subset named by its content."""
    with _naming(font, doc):
        _add_objects(font, doc)


ttfonts.SUBSETN = _content_subsetn
ttfonts.TTFont.addObjects = _tagged_add_objects

# The graphics renderer's default font, selected before each drawing is drawn: the
# kit's face (registered by every kit canvas), never an unembedded standard font.
shapes.STATE_DEFAULTS["fontName"] = fonts.REGULAR
