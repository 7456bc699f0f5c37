"""A packet's outline (bookmarks) as PDF dictionaries, every entry open."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFObjectReference, PDFString


@dataclass
class Mark:
    """An outline entry of a packet: a title and the page (by name) it opens at."""

    title: str
    page: str
    top: float | None = None
    children: list[Mark] = field(default_factory=list)


def outline(doc: Any, marks: list[Mark]) -> PDFDictionary:
    """The outline tree as PDF dictionaries (every entry open)."""
    counter = [0]

    def new() -> tuple[PDFDictionary, PDFObjectReference]:
        counter[0] += 1
        item = PDFDictionary({})
        return item, doc.Reference(item, f"{doc.prefix}outline{counter[0]}")

    def fill(parent: PDFDictionary, parent_ref: PDFObjectReference, kids: list[Mark]) -> int:
        made = [(mark, *new()) for mark in kids]
        total = 0
        for i, (mark, item, _ref) in enumerate(made):
            item.dict["Title"] = PDFString(mark.title)
            item.dict["Parent"] = parent_ref
            page = PDFObjectReference(mark.page)
            item.dict["Dest"] = PDFArray(
                [page, PDFName("XYZ"), pdfdoc.PDFnull, mark.top, pdfdoc.PDFnull]
                if mark.top is not None else [page, PDFName("Fit")])
            if i:
                item.dict["Prev"] = made[i - 1][2]
            if i + 1 < len(made):
                item.dict["Next"] = made[i + 1][2]
            below = fill(item, made[i][2], mark.children) if mark.children else 0
            total += 1 + below
        if made:
            parent.dict["First"] = made[0][2]
            parent.dict["Last"] = made[-1][2]
            parent.dict["Count"] = total
        return total

    root = PDFDictionary({"Type": PDFName("Outlines")})
    ref = doc.Reference(root, f"{doc.prefix}outlines")
    fill(root, ref, marks)
    return root
