"""A PDF written to disk part by part, so joining thousands of pages takes little memory.

``pypdf.PdfWriter`` keeps every page of the file it builds in memory until it writes it
out, so joining a convention's packets (tens of thousands of pages) that way costs
gigabytes. ``StreamedPdf`` instead copies each part's objects to the file as the part is
appended, renumbered, and keeps only what the end of the file needs: where each object
starts (for the cross-reference table), the page list and the outline. One part is in
memory at a time.

Objects that several parts share byte for byte (fonts, their descriptors and files,
images) are written once. The output is deterministic: the same parts give the same
bytes, and the file's ``/ID`` is a hash of its contents.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

from pypdf import PdfReader
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    StreamObject,
    TextStringObject,
)

from generator.pages import pdfx

_CATALOG, _PAGES = 1, 2
"""Object numbers kept for the catalog and the page tree (written last)."""


@dataclass
class _Mark:
    """An outline entry: a title, the page it opens (0-based) and its children."""

    title: str
    page: int
    children: list[_Mark] = field(default_factory=list)
    number: int = 0
    """Its object number, once written."""


class StreamedPdf:
    """A PDF file written part by part (``append``), finished on ``close``.

    Use it as a context manager; if the block fails the file is left incomplete (the
    caller writes into a staging folder that is thrown away).
    """

    def __init__(self, path: Path, print_shop: str | None = None) -> None:
        """Open ``path`` for writing and write the header.

        With ``print_shop`` (the file's title) the file is declared a print-shop file,
        PDF/X-4 (``pdfx``): its parts must be print-shop files already.
        """
        self._print_shop = print_shop
        self._file: BinaryIO = path.open("wb")
        self._hash = hashlib.sha256()
        self._at = 0
        self._offsets: list[int] = [0, 0, 0]  # by object number; 0 is the free head
        self._page_refs: list[int] = []
        self._marks: list[_Mark] = []
        self._shared: dict[bytes, int] = {}
        self._numbers: dict[tuple[int, int], int] = {}
        self._active: set[tuple[int, int]] = set()
        self.sha256 = ""
        """The finished file's SHA-256 (set by ``close``)."""
        self._emit((pdfx.VERSION if print_shop is not None else b"%PDF-1.7")
                   + b"\n%\xe2\xe3\xcf\xd3\n")

    @property
    def pages(self) -> int:
        """Pages appended so far."""
        return len(self._page_refs)

    def __enter__(self) -> StreamedPdf:
        """The writer itself."""
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        """Finish the file, or just close it when the block failed."""
        if kind is None:
            self.close()
        else:
            self._file.close()

    def append(self, source: Path | bytes, title: str, pad: bytes | None = None) -> None:
        """Copy every page of a PDF (a file or bytes) to the end, under one outline entry.

        Args:
            source: The part.
            title: Its outline entry; the part's own outline goes below it.
            pad: A one-page PDF to add after the part (a blank page, so the next part
                starts on a new sheet), or None.

        """
        reader = PdfReader(source if isinstance(source, Path) else io.BytesIO(source))
        first = self.pages
        self._copy(reader)
        mark = _Mark(title, first, self._outline(reader, reader.outline, first))
        self._marks.append(mark)
        del reader
        if pad is not None:
            self._copy(PdfReader(io.BytesIO(pad)))

    def close(self) -> None:
        """Write the page tree, outline, catalog, cross-references and trailer."""
        kids = " ".join(f"{n} 0 R" for n in self._page_refs)
        self._object(_PAGES, f"<</Type /Pages /Count {self.pages} /Kids [{kids}]>>".encode())
        outlines = self._write_outline()
        extra_catalog = extra_info = b""
        if self._print_shop is not None:
            extra_catalog, extra_info = pdfx.raw_objects(
                self._new, self._object, self._print_shop, pdfx.uuid_of(self._hash.digest()))
        info = self._new()
        self._object(info, b"<</Creator (quarterdeck) /Producer (quarterdeck)"
                     + extra_info + b">>")
        catalog = b"<</Type /Catalog /Pages 2 0 R" + extra_catalog
        if outlines:
            catalog += f" /Outlines {outlines} 0 R".encode()
        self._object(_CATALOG, catalog + b">>")
        ident = self._hash.hexdigest()[:32]
        xref = self._at
        lines = [f"xref\n0 {len(self._offsets)}\n".encode(), b"0000000000 65535 f \n"]
        lines += [f"{offset:010d} 00000 n \n".encode() for offset in self._offsets[1:]]
        lines.append(f"trailer\n<</Size {len(self._offsets)} /Root {_CATALOG} 0 R /Info "
                     f"{info} 0 R /ID [<{ident}> <{ident}>]>>\nstartxref\n{xref}\n%%EOF\n"
                     .encode())
        self._emit(b"".join(lines))
        self._file.close()
        self.sha256 = self._hash.hexdigest()

    # ------------------------------------------------------------ copying

    def _copy(self, reader: PdfReader) -> None:
        """Write every page of the reader and every object its pages reach, renumbered."""
        self._numbers = {}
        pages: list[tuple[int, Any]] = []
        for page in reader.pages:
            ref = page.indirect_reference
            assert ref is not None  # a page read from a file always has its number
            # Numbered first: other objects (links, annotations) may point at any page.
            number = self._numbers[(ref.idnum, ref.generation)] = self._new()
            self._page_refs.append(number)
            # The flattened page: attributes inherited from the page tree are on it.
            pages.append((number, page))
        for number, page in pages:
            self._object(number, self._serialise(page, is_page=True))
        self._numbers = {}  # let the part's objects go

    def _ref(self, ref: IndirectObject) -> int:
        """The new number of an object the part refers to, written before its referrer.

        Objects are written depth first, so an object's references are already
        renumbered when its own bytes are made; an object whose bytes match one written
        before (a font, its descriptor and file, an image, shared by several parts) is
        not written again but refers to that one. An object met again while its own
        references are being written (a cycle) gets its number at once instead.
        """
        key = (ref.idnum, ref.generation)
        known = self._numbers.get(key)
        if known is not None:
            return known
        if key in self._active:  # a cycle: number it now; it is written when done
            number = self._numbers[key] = self._new()
            return number
        self._active.add(key)
        try:
            body = self._serialise(ref.get_object(), is_page=False)
        finally:
            self._active.discard(key)
        known = self._numbers.get(key)
        if known is not None:  # numbered inside a cycle: it must be that object
            self._object(known, body)
            return known
        digest = hashlib.sha256(body).digest()
        shared = self._shared.get(digest)
        if shared is None:
            shared = self._shared[digest] = self._new()
            self._object(shared, body)
        self._numbers[key] = shared
        return shared

    def _serialise(self, obj: Any, is_page: bool) -> bytes:
        """An object's bytes with references renumbered (a page's parent is the new tree)."""
        if isinstance(obj, IndirectObject):
            return f"{self._ref(obj)} 0 R".encode()
        if isinstance(obj, StreamObject):
            head = self._dictionary(obj, skip=("/Length",))
            data: bytes = obj._data
            return (head[:-2] + f" /Length {len(data)}>>\nstream\n".encode() + data
                    + b"\nendstream")
        if isinstance(obj, DictionaryObject):
            if is_page:
                return self._dictionary(obj, skip=("/Parent",))[:-2] + b" /Parent 2 0 R>>"
            return self._dictionary(obj, skip=())
        if isinstance(obj, ArrayObject):
            return b"[" + b" ".join(self._serialise(v, False) for v in obj) + b"]"
        buffer = io.BytesIO()
        obj.write_to_stream(buffer)
        return buffer.getvalue()

    def _dictionary(self, obj: DictionaryObject, skip: tuple[str, ...]) -> bytes:
        parts = [b"<<"]
        for key, value in obj.items():
            if key in skip:
                continue
            buffer = io.BytesIO()
            NameObject(key).write_to_stream(buffer)
            parts.append(buffer.getvalue() + b" " + self._serialise(value, False))
        return b" ".join(parts) + b">>"

    # ------------------------------------------------------------ outline

    def _outline(self, reader: PdfReader, items: list[Any], first: int) -> list[_Mark]:
        marks: list[_Mark] = []
        for item in items:
            if isinstance(item, list):
                if marks:
                    marks[-1].children.extend(self._outline(reader, item, first))
                continue
            page = reader.get_destination_page_number(item)
            if page is not None and page >= 0:
                marks.append(_Mark(str(item.title), first + page))
        return marks

    def _write_outline(self) -> int:
        """The outline (one entry per part, its own entries below it); its number or 0."""
        if not self._marks:
            return 0
        root = self._new()
        count = self._write_marks(self._marks, root)
        first, last = self._marks[0].number, self._marks[-1].number
        self._object(root, f"<</Type /Outlines /First {first} 0 R /Last {last} 0 R "
                           f"/Count {count}>>".encode())
        return root

    def _write_marks(self, marks: list[_Mark], parent: int) -> int:
        """Write a level of the outline under ``parent``; how many entries it shows."""
        for mark in marks:
            mark.number = self._new()
        shown = len(marks)
        for index, mark in enumerate(marks):
            title = io.BytesIO()
            TextStringObject(mark.title).write_to_stream(title)
            page = self._page_refs[min(mark.page, self.pages - 1)]
            body = (b"<</Title " + title.getvalue()
                    + f" /Parent {parent} 0 R /Dest [{page} 0 R /Fit]".encode())
            if index > 0:
                body += f" /Prev {marks[index - 1].number} 0 R".encode()
            if index + 1 < len(marks):
                body += f" /Next {marks[index + 1].number} 0 R".encode()
            if mark.children:
                count = self._write_marks(mark.children, mark.number)
                body += (f" /First {mark.children[0].number} 0 R"
                         f" /Last {mark.children[-1].number} 0 R"
                         f" /Count -{count}").encode()
            self._object(mark.number, body + b">>")
        return shown

    # ------------------------------------------------------------ writing

    def _new(self) -> int:
        self._offsets.append(0)
        return len(self._offsets) - 1

    def _object(self, number: int, body: bytes) -> None:
        self._offsets[number] = self._at
        self._emit(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")

    def _emit(self, data: bytes) -> None:
        self._file.write(data)
        self._hash.update(data)
        self._at += len(data)


__all__ = ["StreamedPdf"]
