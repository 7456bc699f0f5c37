"""Packets: rendered components merged into one PDF with bookmarks and page labels."""

from __future__ import annotations

import hashlib
import io
import zlib
from dataclasses import dataclass, field
from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, ByteStringObject, DecodedStreamObject, Fit, NameObject


@dataclass
class Bookmark:
    """An outline entry inside a component.

    Attributes:
        title: What the reader sees in the bookmarks pane.
        page: 0-based page within the component.
        top: Vertical position (points from the page bottom) to jump to, or None.
        children: Nested entries.

    """

    title: str
    page: int
    top: float | None = None
    children: list[Bookmark] = field(default_factory=list)


@dataclass
class Component:
    """One rendered component (a PDF of one or more pages) ready to be placed in packets.

    Attributes:
        key: Stable id, e.g. ``sheets:allied``.
        title: Top-level bookmark title.
        label: Page-label prefix, e.g. ``Ships-``.
        pdf: The component's PDF bytes.
        pages: Page count.
        bookmarks: Entries nested under the component's own bookmark.

    """

    key: str
    title: str
    label: str
    pdf: bytes
    pages: int
    bookmarks: list[Bookmark] = field(default_factory=list)
    recto: bool = False
    """Must start on a right-hand (odd) page: double-sided sheets whose backs follow."""


@dataclass
class PacketSpec:
    """Which components, in which order, make one output file."""

    filename: str
    title: str
    components: list[str]


def packet_pages(spec: PacketSpec, components: dict[str, Component]) -> int:
    """Pages the packet will have, counting the blank pages that put sheets on a recto."""
    total = 0
    for key in spec.components:
        comp = components[key]
        total += (1 if comp.recto and total % 2 == 1 else 0) + comp.pages
    return total


def assemble(spec: PacketSpec, components: dict[str, Component],
             readers: dict[str, PdfReader] | None = None) -> bytes:
    """Merge components into one PDF with an outline, page labels and no duplicate fonts.

    Args:
        spec: The packet to build.
        components: Rendered components by key.
        readers: Parsed components shared between the packets of one build (a side's
            sheets go in two packets but are parsed once).

    Returns:
        The packet's PDF bytes (deterministic for deterministic inputs).

    """
    readers = {} if readers is None else readers
    writer = PdfWriter()
    start = 0
    for key in spec.components:
        comp = components[key]
        if key not in readers:
            readers[key] = PdfReader(io.BytesIO(comp.pdf))
        reader = readers[key]
        if comp.recto and start % 2 == 1:
            # A blank left-hand page keeps each front and its back on one sheet of paper.
            box = reader.pages[0].mediabox
            writer.add_blank_page(float(box.width), float(box.height))
            start += 1
        for page in reader.pages:
            writer.add_page(page)
        parent = writer.add_outline_item(title=comp.title, page_number=start)
        for mark in comp.bookmarks:
            _add_bookmark(writer, mark, start, parent)
        writer.set_page_label(start, start + comp.pages - 1, style="/D",  # type: ignore[arg-type]
                              prefix=comp.label)
        start += comp.pages
    writer.add_metadata({"/Title": spec.title, "/Creator": "quarterdeck",
                         "/Producer": "quarterdeck (ReportLab, pypdf)"})
    writer.page_mode = "/UseOutlines"
    prefs = writer.create_viewer_preferences()
    # Rulers and gauges must print at actual size.
    prefs[NameObject("/PrintScaling")] = NameObject("/None")
    writer.compress_identical_objects()
    compress_streams(writer)
    # A fixed document id keeps builds byte-identical (pypdf would otherwise hash time).
    ident = ByteStringObject(spec.title.encode("utf-8")[:16].ljust(16, b"-"))
    writer._ID = ArrayObject([ident, ident])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# Compressed bytes by content hash: the same font subsets recur in every packet of a
# build, so each is deflated once per process.
_DEFLATED: dict[bytes, bytes] = {}


def compress_streams(writer: PdfWriter) -> None:
    """Deflate every stream that is not compressed yet (fonts, page contents)."""
    for obj in writer._objects:  # pypdf has no public iterator over all objects
        if isinstance(obj, DecodedStreamObject) and "/Filter" not in obj:
            data = obj.get_data()
            key = hashlib.sha1(data).digest()
            packed = _DEFLATED.get(key)
            if packed is None:
                packed = zlib.compress(data, 6)
                if len(_DEFLATED) < 4096:
                    _DEFLATED[key] = packed
            obj.set_data(packed)
            obj[NameObject("/Filter")] = NameObject("/FlateDecode")


def _add_bookmark(writer: PdfWriter, mark: Bookmark, offset: int, parent: Any) -> None:
    fit = Fit.xyz(top=mark.top) if mark.top is not None else Fit.fit()
    item = writer.add_outline_item(title=mark.title, page_number=offset + mark.page,
                                   parent=parent, fit=fit)
    for child in mark.children:
        _add_bookmark(writer, child, offset, item)
