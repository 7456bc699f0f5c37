"""Which pages of a packet print nothing: one predicate for every test that counts them.

A page is blank when its text is only what an inserted blank page says, or when it has
no text at all (a page of bare artwork would count too, which only makes a count of
blank pages stricter). Texts are pdfium's, as ``tests.pdftext.page_texts`` reads them.
"""

from __future__ import annotations

from collections.abc import Iterable

BLANK = "This page is intentionally blank"
"""What an inserted blank page says (``generator.kit.packets.BLANK``, written out here so
that a change to it fails the tests)."""


def is_blank(text: str) -> bool:
    """Whether a page with this text prints nothing a player needs."""
    return text.strip() == BLANK or not text.strip()


def blank_pages(texts: Iterable[str]) -> list[int]:
    """The 1-based numbers of a packet's blank pages, from its pages' texts."""
    return [page for page, text in enumerate(texts, start=1) if is_blank(text)]
