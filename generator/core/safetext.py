"""User text stays text: one place that makes a value safe to print.

Every name, label, title and note in the data is untrusted. Where such a value meets
ReportLab paragraph markup it must be escaped, or a ship called ``Alpha<img src=...>``
draws a file from elsewhere on the machine, and a bare ``<`` or ``&`` stops the build.
Control characters (and the ANSI sequences they introduce) have no glyph and no business
in a printed kit; they are dropped wherever text is drawn.

``text(value)`` is a value made ready for markup; ``markup(template, **values)`` writes the
code's own markup (``<b>`` and so on) around escaped values; ``clean(value)`` only drops
control characters, for plain-text drawing and as a last guard on finished markup.
"""

from __future__ import annotations

import html
import re
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from generator.core import fonts
from generator.core.printboxes import PageBoxes

__all__ = ["SafeCanvas", "Trusted", "clean", "markup", "text"]

# A CSI or OSC escape sequence (``ESC [ 31 m``, ``ESC ] ... BEL``) is dropped whole, so
# its parameters do not print as stray characters (a sequence cut short by clipping
# too); then every other C0/C1 control character except tab and newline.
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_]?)")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(value: str) -> str:
    """``value`` without ANSI escape sequences and control characters (tab, newline kept)."""
    if value.isprintable():  # the common case: nothing to do
        return value
    return _CONTROL.sub("", _ANSI.sub("", value))


def text(value: object) -> str:
    """A user value as paragraph text: control characters dropped, ``& < >`` escaped.

    The result prints literally whatever it holds: ``<b>`` shows as ``<b>``, an ``<img>``
    tag is drawn as its letters, never loaded.
    """
    # html.escape without quotes is xml.sax.saxutils.escape (& < >), which would import
    # urllib, http and ssl on the way.
    return html.escape(clean(str(value)), quote=False)


def markup(template: str, /, *args: Any, **values: Any) -> str:
    """Fill a markup ``template`` (``str.format`` syntax) with escaped user values.

    The template is the code's own markup and is kept as it is; every value goes
    through ``text`` first, so ``markup("<b>{name}</b>", name=ship.name)`` is safe for any
    name. Values that are themselves finished markup are passed as ``Trusted``.
    """
    def safe(value: Any) -> Any:
        if isinstance(value, Trusted):
            return str(value)
        if isinstance(value, int | float):
            return value  # keeps format specs such as {:.1f} working
        return text(value)

    return template.format(*(safe(a) for a in args),
                           **{k: safe(v) for k, v in values.items()})


class Trusted(str):
    """Markup already made safe (by ``markup`` or ``text``), to embed in another template."""

    __slots__ = ()


class _CleanText(PDFTextObject):  # type: ignore[misc]
    """A text object that drops control characters from every run it writes."""

    def _formatText(self, text: Any) -> Any:  # noqa: N802 (ReportLab's name)
        # The one place every run of text passes on its way into the page, whether it
        # came from drawString, a grid cell, a paragraph or a card face.
        return super()._formatText(clean(text) if isinstance(text, str) else text)


class SafeCanvas(PageBoxes, Canvas):  # type: ignore[misc]
    """A canvas whose text never carries control characters or ANSI escape sequences.

    Text reaches a page from many drawers (paragraphs, grids, card faces, sheet headings);
    cleaning it here, where ReportLab turns text into page operators, covers them all.
    Every page it ends has a trim and a bleed box (``PageBoxes``), and it starts on the
    kit's regular face, so no page names a font the file does not embed.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """ReportLab's canvas, starting on the kit's regular face (see the class)."""
        fonts.register()
        kwargs.setdefault("initialFontName", fonts.REGULAR)
        super().__init__(*args, **kwargs)

    def showPage(self) -> None:  # noqa: N802 (ReportLab's name)
        """End the page with its trim and bleed boxes."""
        self._set_page_boxes()
        super().showPage()

    def beginText(self, x: float = 0, y: float = 0,  # noqa: N802 (ReportLab's name)
                  direction: str | None = None) -> PDFTextObject:
        """A text object that cleans what it draws (see ``clean``)."""
        return _CleanText(self, x, y, direction=direction)
