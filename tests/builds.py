"""Builds and read-backs shared by the whole test session: each kit built once, each PDF read once.

Building a kit and reading its PDFs back are the slow parts of the suite. Tests that only
look at a kit's pages ask here: ``kit`` composes a request in memory (no disk) once per
session, and ``texts``/``pages`` read a PDF (a file or a kit's bytes) once. Every cached
value is treated as read-only by the tests.
"""

from __future__ import annotations

import functools
from pathlib import Path

from generator.kit.pipeline import Kit, compose
from generator.kit.seam import Request
from tests.pdftext import Page, open_pages, page_texts


def kit(scenario: str, *, command: str = "kit", paper: str = "a4") -> Kit:
    """A scenario's kit (or the output of another scenario command), composed once."""
    return _kit(scenario, command, paper)[0]


def progress(scenario: str, *, command: str = "kit", paper: str = "a4") -> list[tuple[str, int]]:
    """Every ``progress(step, total)`` call the pipeline made while composing ``kit``."""
    return _kit(scenario, command, paper)[1]


@functools.cache
def _kit(scenario: str, command: str, paper: str) -> tuple[Kit, list[tuple[str, int]]]:
    # One cache key per build, however the caller spells the arguments.
    calls: list[tuple[str, int]] = []
    made = compose(Request(command, scenario=scenario), paper=paper,  # type: ignore[arg-type]
                   progress=lambda step, total: calls.append((step, total)))
    return made, calls


def _key(source: Path) -> tuple[str, int, int]:
    # The file's identity and version: a file written again is read again.
    stat = source.stat()
    return str(source.resolve()), stat.st_mtime_ns, stat.st_size


@functools.cache
def _texts(key: tuple[str, int, int]) -> list[str]:
    return page_texts(Path(key[0]))


@functools.cache
def _kit_texts(scenario: str, command: str, paper: str, name: str) -> list[str]:
    return page_texts(kit(scenario, command=command, paper=paper).files[name])


@functools.cache
def _kit_pages(scenario: str, command: str, paper: str, name: str,
               geometry: bool, advance: bool) -> list[Page]:
    return open_pages(kit(scenario, command=command, paper=paper).files[name],
                      geometry=geometry, advance=advance)


def texts(source: Path) -> list[str]:
    """Each page's text (pdfium's content order), read once per file version."""
    return _texts(_key(source))


def text(source: Path) -> str:
    """The whole file's text, pages joined by newlines."""
    return "\n".join(texts(source))


def pages(source: Path, *, geometry: bool = False) -> list[Page]:
    """Each page's characters (and with ``geometry`` its rects, lines, curves), read once."""
    key = _key(source)
    # A read with geometry has everything a read without it has.
    found = _PAGES.get((key, True)) or _PAGES.get((key, geometry))
    if found is None:
        found = _PAGES[key, geometry] = open_pages(source, geometry=geometry)
    return found


_PAGES: dict[tuple[tuple[str, int, int], bool], list[Page]] = {}


def page(source: Path, index: int, *, geometry: bool = False) -> Page:
    """One page's characters (``geometry``: and paths), read once; for a few pages of many."""
    key = _key(source)
    whole = _PAGES.get((key, True)) or _PAGES.get((key, geometry))
    if whole is not None:
        return whole[index]
    found = _PAGE.get((key, index, True)) or _PAGE.get((key, index, geometry))
    if found is None:
        [found] = open_pages(source, geometry=geometry, only=[index])
        _PAGE[key, index, geometry] = found
    return found


_PAGE: dict[tuple[tuple[str, int, int], int, bool], Page] = {}


def layout_texts(source: Path, where: str = "") -> list[str]:
    """The text of the pages whose text holds ``where``, laid out as pdfplumber does.

    Lines by position, words left to right: for rows of a table, whatever order the
    cells were drawn in. Only those pages' characters are read.
    """
    return [page(source, i).layout_text() for i, text in enumerate(texts(source))
            if where in text]


def kit_texts(scenario: str, name: str, *, command: str = "kit",
              paper: str = "a4") -> list[str]:
    """Each page's text of one file of a composed kit."""
    return _kit_texts(scenario, command, paper, name)


def kit_pages(scenario: str, name: str, *, command: str = "kit", paper: str = "a4",
              geometry: bool = False, advance: bool = False) -> list[Page]:
    """Each page of one file of a composed kit, read once (``advance``: see open_pages)."""
    return _kit_pages(scenario, command, paper, name, geometry, advance)
