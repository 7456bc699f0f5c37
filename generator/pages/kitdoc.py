"""One ReportLab document per build; each packet is written from its pages.

Every component of a build draws on one canvas (``KitCanvas``), one after the other, so
each character is encoded once and each page is drawn once. A packet is then written as
a PDF of its own (``write_packet``): its pages in packet order (print note and blank
backs included), and one set of font subsets per face, those of the build. Nothing is
parsed back and nothing is merged: a packet is as small as the same pages rendered in
one ReportLab run, and a page that two packets share is drawn and compressed once.

The packet document borrows the build's page, image and form objects by name (ReportLab
refers to objects by name and numbers them as it writes), so one object can be written
into several files; only the page tree, outline, labels and fonts are the packet's own.
"""

from __future__ import annotations

import copy
import io
import os
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfbase import pdfdoc, pdfmetrics, ttfonts
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDictionary,
    PDFDocument,
    PDFName,
    PDFObject,
    PDFObjectReference,
    PDFPageLabel,
    PDFPageLabels,
    PDFStream,
)
from reportlab.pdfbase.ttfonts import TTFont, makeToUnicodeCMap

from generator.core import fonts
from generator.core.printboxes import subset_tag
from generator.core.safetext import SafeCanvas
from generator.pages import pagenumbers
from generator.pages.outline import Mark, outline
from generator.pages.pagenumbers import Slot
from generator.pages.subsets import SUBSETS

_ACTIVE: ContextVar[KitCanvas | None] = ContextVar("quarterdeck kit canvas", default=None)
_RECORDING: dict[int, KitCanvas] = {}
"""Build canvases by ``id`` of their document: whose text ``splitString`` records."""
_split = TTFont.splitString


def _recording_split(font: TTFont, text: Any, doc: Any, encoding: str = "utf-8") -> Any:
    """ReportLab's ``TTFont.splitString``, noting which characters a build page uses.

    Every TrueType text ReportLab draws goes through ``splitString`` (it assigns the
    character codes of the subsets). A build's packets embed only the glyphs their own
    pages use, so the build canvas needs to know them, page by page.
    """
    kit = _RECORDING.get(id(doc))
    if kit is not None:
        kit.chars.setdefault(font.fontName, set()).update(
            text if isinstance(text, str) else text.decode(encoding))
    return _split(font, text, doc, encoding)


TTFont.splitString = _recording_split


def active() -> KitCanvas | None:
    """The canvas the build in progress draws on, or None (components draw standalone)."""
    return _ACTIVE.get()


@contextmanager
def drawing() -> Iterator[KitCanvas]:
    """Make every ``layout.new_canvas`` of this context draw on one new build canvas."""
    kit = KitCanvas()
    token = _ACTIVE.set(kit)
    try:
        yield kit
    finally:
        _ACTIVE.reset(token)
        kit.close()


def _packed(code: Any) -> PDFStream:
    """A page's content stream, compressed now: the page keeps only the packed bytes."""
    data = code.encode("utf-8") if isinstance(code, str) else bytes(code)
    stream = PDFStream(PDFDictionary({"Filter": PDFArray([PDFName("FlateDecode")])}),
                       zlib.compress(data, 6))
    stream.__Comment__ = "page stream"
    return stream


class KitCanvas(SafeCanvas):
    """The canvas every component of a build draws on in turn; it is never saved.

    A component asks for a canvas (``layout.new_canvas``) and gets this one with its page
    size set; its ``save()`` only ends its last page. ``page_names`` lists every page
    drawn, in order, by the name the document knows it by.
    """

    def __init__(self) -> None:
        fonts.register()
        super().__init__(io.BytesIO(), invariant=1, pageCompression=1)
        self.page_names: list[str] = []
        self.sizes: dict[str, tuple[float, float]] = {}
        """Each page's width and height, by page name."""
        self.chars: dict[str, set[str]] = {}
        """Characters of the page being drawn, by font."""
        self.page_chars: dict[str, dict[str, str]] = {}
        """Characters each finished page uses, by page name and font."""
        self.number_slots: list[Slot] = []
        """Where the page being drawn prints its packet page number (``pagenumbers``)."""
        self.page_slots: dict[str, list[Slot]] = {}
        """Each finished page's number slots, by page name."""
        self.form_chars: dict[str, dict[str, set[str]]] = {}
        """Characters each form XObject draws, by form name and font: a page that places
        a form (a grid header drawn once, a logo) prints them too."""
        self._forms: list[tuple[str, dict[str, set[str]]]] = []
        _RECORDING[id(self._doc)] = self
        self._number_every_character()

    def _number_every_character(self) -> None:
        """Give every character of the kit's faces its code and each face its name now.

        ReportLab numbers characters and names fonts in order of first use; doing it
        here, in a fixed order, into a form no page shows, keeps every code the same
        whatever is drawn first. Packets still embed only the glyphs they print.
        """
        hidden_text(self, "qd-character-codes", fonts.every_character)
        self.form_chars.pop("qd-character-codes")  # never placed

    def begin(self, pagesize: tuple[float, float]) -> KitCanvas:
        """Start a component on a fresh page of the given size."""
        self.save()
        self.setPageSize(pagesize)
        return self

    def save(self) -> None:
        """End the component's last page (the document is written per packet instead)."""
        if len(self._code):
            self.showPage()

    def showPage(self) -> None:
        """Finish the page; its content is compressed at once so a long build stays small."""
        super().showPage()
        page = self._doc.Pages.pages[-1]
        page.Contents = _packed(page.stream)
        page.stream = None
        name = f"Page{self._doc.pageCounter - 1}"
        self.page_names.append(name)
        self.page_chars[name] = {font: "".join(sorted(chars))
                                 for font, chars in self.chars.items()}
        self.chars = {}
        if self.number_slots:
            self.page_slots[name] = self.number_slots
            self.number_slots = []
        self.sizes[name] = (float(page.pagewidth), float(page.pageheight))

    def drawn_since(self, first: int, pages: int, what: str) -> list[str]:
        """End the component begun when ``first`` pages had been drawn; its page names.

        ``pages`` is the count the component declares: a build stops when the two differ
        (a page drawn on the side, or one counted but never drawn).
        """
        self.save()
        drawn = self.page_names[first:]
        if len(drawn) != pages:
            raise RuntimeError(f"component {what} says {pages} pages but drew {len(drawn)}")
        return drawn

    def beginForm(self, name: str, *args: Any, **kwargs: Any) -> None:  # noqa: N802
        """Start a form XObject; the characters it draws are the form's, not the page's."""
        self._forms.append((name, self.chars))
        self.chars = {}
        super().beginForm(name, *args, **kwargs)

    def endForm(self, **kwargs: Any) -> None:  # noqa: N802 (ReportLab's name)
        """End the form and keep the characters it drew for every page that places it."""
        super().endForm(**kwargs)
        name, outer = self._forms.pop()
        self.form_chars[name] = self.chars
        self.chars = outer

    def doForm(self, name: str) -> None:  # noqa: N802 (ReportLab's name)
        """Place a form: the page (or the form being drawn) now uses the form's characters."""
        super().doForm(name)
        for font, chars in self.form_chars.get(name, {}).items():
            self.chars.setdefault(font, set()).update(chars)

    def checkpoint(self) -> Checkpoint:
        """Where the drawing stands now: what a later ``handover`` counts from."""
        self.save()
        return Checkpoint(len(self.page_names), frozenset(self._doc.idToObject),
                          frozenset(self.form_chars), self._codes())

    def _codes(self) -> tuple[Any, ...]:
        """The document's font names and character codes given so far.

        Every character the faces have is numbered when the canvas is made, so these
        change only if a page uses a font outside the kit's faces.
        """
        doc = self._doc
        return (tuple(sorted(doc.fontMapping.items())),
                tuple(sorted((font.fontName, font.state[doc].nextCode)
                             for font in doc.delayedFonts if doc in font.state)))

    def handover(self, since: Checkpoint) -> Handover | None:
        """The pages drawn since ``since``, with the forms and images they place.

        A forked worker draws on its own copy of the build canvas and sends this back
        for the build's canvas to ``adopt``. None if drawing gave a font a name or a
        character a code the build's canvas would not give it the same way (a font
        outside the kit's faces), or made an object whose name does not say what it
        holds (only form and image XObjects are named by their content; another copy
        could give the same name to something else): such pages are drawn again in the
        build's process.
        """
        self.save()
        if self._codes() != since.codes:
            return None
        doc = self._doc
        names = self.page_names[since.pages:]
        mine = set(names)
        objects = {name: obj for name, obj in doc.idToObject.items()
                   if name not in since.names and name not in mine}
        if any(not name.startswith(CONTENT_NAMED) for name in objects):
            return None
        return Handover(
            pages=[(name, doc.idToObject[name], self.page_chars[name], self.sizes[name])
                   for name in names],
            objects=objects,
            form_chars={name: chars for name, chars in self.form_chars.items()
                        if name not in since.forms},
            pid=os.getpid(),
            slots={name: self.page_slots[name] for name in names if name in self.page_slots})

    def adopt(self, drawn: Handover, tag: str) -> dict[str, str]:
        """Take in pages another copy of this canvas drew; their names here, by theirs.

        The pages keep their bytes. Forms and images are named by what they hold (the
        same name is the same drawing in every copy), so one this document already has
        is kept; pages get names of their own, ``tag`` before the worker's name.
        """
        doc = self._doc
        for name, obj in drawn.objects.items():
            if name not in doc.idToObject:
                doc.idToObject[name] = obj
        for name, drawing in drawn.form_chars.items():
            self.form_chars.setdefault(name, drawing)
        renamed: dict[str, str] = {}
        for name, page, chars, size in drawn.pages:
            here = f"{tag}{name}"
            # ReportLab finds an object's name on the object itself when it writes it.
            setattr(page, "__InternalName__", here)  # noqa: B010 (not a mangled name)
            doc.idToObject[here] = page
            self.page_names.append(here)
            self.page_chars[here] = chars
            self.sizes[here] = size
            if name in drawn.slots:
                self.page_slots[here] = drawn.slots[name]
            renamed[name] = here
        return renamed

    def close(self) -> None:
        """Forget the build's font subsets (fonts keep a state per document)."""
        _RECORDING.pop(id(self._doc), None)
        for font in self._doc.delayedFonts:
            font.state.pop(self._doc, None)


def hidden_text(canvas: Any, form: str, text_of: Callable[[str], str]) -> None:
    """Draw ``text_of(face)`` in each of the kit's faces into a form no page shows.

    Drawing text makes ReportLab give its characters their codes and the face its name;
    in a form nothing placed, nothing of it is seen, printed or read back.
    """
    canvas.beginForm(form)
    text = canvas.beginText(0, 0)
    for name in fonts.FACES:
        text.setFont(name, fonts.MIN_SIZE)
        text.textOut(text_of(name))
    canvas.drawText(text)
    canvas.endForm()


def uses(canvas: Any, font: str, text: str) -> None:
    """Note characters a page prints through literal text operators (``addLiteral``).

    Text ReportLab encodes is noted by itself; text written as operators by hand is
    not, and a packet keeps only the glyphs it knows its pages use.
    """
    if isinstance(canvas, KitCanvas):
        canvas.chars.setdefault(font, set()).update(text)


def canvas_maker(fallback: Callable[..., Any]) -> Callable[..., Any]:
    """A platypus ``canvasmaker``: the build canvas when one is active, else ``fallback``."""
    def make(*args: Any, **kwargs: Any) -> Any:
        kit = active()
        if kit is None:
            return fallback(*args, **kwargs)
        return kit.begin(kwargs.get("pagesize") or kit._pagesize)
    return make


@dataclass
class Label:
    """A page-label range of a packet.

    From packet page ``index`` on, pages are labelled ``prefix`` and numbers counted
    from ``start`` (no numbers when ``numbered`` is false).
    """

    index: int
    prefix: str
    start: int = 1
    numbered: bool = True


CONTENT_NAMED = "FormXob."
"""How ReportLab names form and image XObjects: the rest of the name is the form's
(``gridforms`` hashes what a form draws, a logo its file) or the image's digest."""


@dataclass(frozen=True)
class Checkpoint:
    """A point in a build canvas's drawing (see ``KitCanvas.checkpoint``)."""

    pages: int
    names: frozenset[str]
    forms: frozenset[str]
    codes: tuple[Any, ...]


@dataclass
class Handover:
    """Pages one copy of a build canvas drew, for another copy to ``adopt``.

    Attributes:
        pages: Each page's name in the worker, page object, characters by font, size.
        objects: The named objects (forms, images) made since the checkpoint.
        form_chars: Characters those forms draw, by form name and font.
        pid: The process that drew them (pages drawn here need no adopting).
        slots: Page-number slots of the pages that have them, by the worker's name.

    """

    pages: list[tuple[str, Any, dict[str, str], tuple[float, float]]]
    objects: dict[str, Any]
    form_chars: dict[str, dict[str, set[str]]]
    pid: int
    slots: dict[str, list[Slot]] = field(default_factory=dict)


class _Borrowed(dict):  # type: ignore[type-arg]
    """Object numbers of a packet document; a name it lacks is borrowed from the build."""

    def __init__(self, doc: _PacketDocument) -> None:
        super().__init__()
        self.doc = doc

    def __missing__(self, name: str) -> tuple[int, int]:
        obj = self.doc.source.idToObject.get(name)
        if obj is None:
            raise KeyError(name)
        self.doc.adopt(name, obj)
        return dict.__getitem__(self, name)  # type: ignore[no-any-return]


class _PacketDocument(PDFDocument):  # type: ignore[misc]
    """A ReportLab document that writes pages drawn on the build's document."""

    def __init__(self, source: PDFDocument, prefix: str) -> None:
        super().__init__(compression=1, invariant=1)
        self.source = source
        self.prefix = prefix
        borrowed = _Borrowed(self)
        borrowed.update(self.idToObjectNumberAndVersion)
        self.idToObjectNumberAndVersion: dict[str, tuple[int, int]] = borrowed

    def adopt(self, name: str, obj: Any) -> None:
        """Write ``obj`` in this file under the name the build gave it."""
        self.objectcounter += 1
        dict.__setitem__(self.idToObjectNumberAndVersion, name, (self.objectcounter, 0))
        self.numberToId[self.objectcounter] = name
        self.idToObject[name] = obj

    def Reference(self, obj: Any, name: str | None = None) -> Any:  # noqa: N802 (ReportLab)
        """Register ``obj`` as ReportLab does, with two differences.

        An object already named by another document of the build is borrowed under
        that name, and a new object gets a name no other document of the build uses.
        """
        if isinstance(obj, PDFObject) and obj.__class__ is not PDFObjectReference:
            known = getattr(obj, "__InternalName__", None)
            if known is not None:
                if known not in self.idToObject:
                    self.adopt(known, obj)
            elif name is None:
                name = f"{self.prefix}{self.objectcounter + 1}"
        return super().Reference(obj, name)


def write_packet(kit: KitCanvas, pages: list[str], *, title: str, marks: list[Mark],
                 labels: list[Label], prefix: str) -> bytes:
    """One packet's PDF from pages of the build's document.

    Args:
        kit: The build's canvas, every page drawn.
        pages: The packet's pages in order, by name; each name at most once.
        title: The PDF title.
        marks: The outline.
        labels: Page-label ranges, by packet page index.
        prefix: Names for the packet's own objects, unique within the build.

    Returns:
        The packet's bytes (byte-identical for identical inputs).

    """
    source = kit._doc
    doc = _PacketDocument(source, prefix)
    used: dict[str, set[str]] = {}
    for number, name in enumerate(pages, 1):
        for font, chars in kit.page_chars[name].items():
            used.setdefault(font, set()).update(chars)
        for slot in kit.page_slots.get(name, ()):
            used.setdefault(slot.font, set()).update(pagenumbers.characters(slot, number))
    _fonts(source, doc, used)
    save = PDFStream(content=b"q\n")
    restore = PDFStream(content=b"\nQ\n")
    for number, name in enumerate(pages, 1):
        page = source.idToObject[name]
        if name in kit.page_slots:
            # The packet's own copy of a shared page, with its number in this packet.
            page = pagenumbers.stamp(page, kit.page_slots[name], number, source, _split,
                                     save, restore, doc.Reference)
        # The page tree a page belongs to is this file's (the page may be in another).
        page.Parent = None
        doc.adopt(name, page)
        doc.Pages.pages.append(page)
    cat = doc.Catalog
    cat.Outlines = outline(doc, marks) if marks else None
    cat.setPageMode("UseOutlines" if marks else None)
    # Rulers and gauges must print at actual size.
    cat.ViewerPreferences = PDFDictionary({"PrintScaling": PDFName("None")})
    if labels:
        cat.PageLabels = PDFPageLabels()
        for label in labels:
            cat.PageLabels.addPageLabel(label.index, PDFPageLabel(
                style="D" if label.numbered else None,
                start=label.start if label.numbered else None, prefix=label.prefix or None))
    doc.info.title = title
    doc.info.author = "quarterdeck"
    doc.info.creator = "quarterdeck"
    doc.info.producer = "quarterdeck (ReportLab)"
    doc.info.invariant = 1
    doc.info.digest(doc.signature)
    data = doc.format()
    return data if isinstance(data, bytes) else data.encode("latin-1")


def _fonts(source: PDFDocument, doc: _PacketDocument, used: dict[str, set[str]]) -> None:
    """Give the packet the build's fonts under the same names and character codes.

    Each subset keeps the build's codes (the pages' text is encoded with them), but a
    character none of the packet's pages uses has no glyph in the packet's copy: a
    packet embeds what it prints.
    """
    for psname, internal in source.fontMapping.items():
        font = pdfmetrics.getFont(psname)
        if getattr(font, "_dynamicFont", False):
            state = font.state.get(source)
            if state is None:  # named but never drawn
                continue
            chars = used.get(psname, set())
            if not chars:  # a face none of the packet's pages uses
                continue
            mine = {ord(ch) for ch in chars}
            if "\xa0" in chars:  # ReportLab draws a no-break space as a space
                mine.add(32)
            packet_state = copy.copy(state)
            packet_state.subsets = [[code if code in mine else 0 for code in subset]
                                    for subset in state.subsets]
            font.state[doc] = packet_state
            doc.fontMapping[psname] = internal
            # A subset none of the packet's pages uses is left out altogether (each
            # embedded subset carries the face's hinting tables, some 8 KB).
            # (ReportLab puts a space and a .notdef in every subset: they do not count.)
            _add_subsets(font, doc, [n for n, subset in enumerate(state.subsets)
                                     if (n == 0 and mine)
                                     or mine.intersection(subset).difference({0, 32})])
        else:
            got = doc.getInternalFontName(psname)
            if got != internal:  # pragma: no cover - ReportLab numbers fonts in order
                raise RuntimeError(f"font {psname} is {got} in a packet, {internal} in the build")


def _add_subsets(font: TTFont, doc: _PacketDocument, wanted: list[int]) -> None:
    """ReportLab's ``TTFont.addObjects`` for the subsets ``wanted`` only."""
    state = font.state[doc]
    state.frozen = 1
    for n in wanted:
        subset = state.subsets[n]
        internal = font.getSubsetInternalName(n, doc)[1:]
        face = font.face.name + font.face.subfontNameX
        base = (subset_tag(face, subset) + b"+" + face).decode("pdfdoc")
        pdf_font = pdfdoc.PDFTrueTypeFont()
        pdf_font.__Comment__ = f"Font {font.fontName} subset {n}"
        pdf_font.Name = internal
        pdf_font.BaseFont = base
        pdf_font.FirstChar = 0
        pdf_font.LastChar = len(subset) - 1
        pdf_font.Widths = PDFArray(list(map(font.face.getCharWidth, subset)))
        cmap = _packed_stream(*SUBSETS.get(
            ("cmap", base, tuple(subset)),
            lambda base=base, subset=subset: (  # type: ignore[misc]
                makeToUnicodeCMap(base, subset).encode("utf-8"))))
        pdf_font.ToUnicode = doc.Reference(cmap, "toUnicodeCMap:" + base)
        pdf_font.FontDescriptor = _subset_objects(font, doc, base, subset)
        doc.Reference(pdf_font, internal)
        doc.idToObject["BasicFonts"].dict[internal] = pdf_font
    del font.state[doc]


def _subset_objects(font: TTFont, doc: _PacketDocument, base: str, subset: list[int]) -> Any:
    """ReportLab's ``TTFFontFile.addSubsetObjects``, its font file compressed once.

    The same subset (the same glyphs of the same face) is the same file in every packet
    and every build: ``SUBSETS`` keeps it compressed, so writing a packet cuts out and
    compresses only what no earlier packet or build used.
    """
    face = font.face
    key = ("font", face.filename, face.name, tuple(subset))
    packed, length1 = SUBSETS.get(key, lambda: face.makeSubset(subset))
    font_file = _packed_stream(packed, length1)
    font_file_ref = doc.Reference(font_file, f"fontFile:{face.filename}({base})")
    flags = (face.flags & ~ttfonts.FF_NONSYMBOLIC) | ttfonts.FF_SYMBOLIC
    descriptor = PDFDictionary({
        "Type": "/FontDescriptor",
        "Ascent": face.ascent,
        "CapHeight": face.capHeight,
        "Descent": face.descent,
        "Flags": flags,
        "FontBBox": PDFArray(face.bbox),
        "FontName": PDFName(base),
        "ItalicAngle": face.italicAngle,
        "StemV": face.stemV,
        "FontFile2": font_file_ref,
        "MissingWidth": face.defaultWidth,
    })
    return doc.Reference(descriptor, "fontDescriptor:" + base)


def _packed_stream(packed: bytes, length1: int | None) -> PDFStream:
    """A stream whose content is already deflated (``Length1``: the font file's size)."""
    entries: dict[str, Any] = {"Filter": PDFArray([PDFName("FlateDecode")])}
    if length1 is not None:
        entries["Length1"] = length1
    return PDFStream(PDFDictionary(entries), packed)
