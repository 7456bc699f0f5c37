"""What the pages show of the library: the scenarios by ruleset, their pictures, PDF pages.

The library is the validated one every command reads (``validated_library``), the
bundled data plus the server's data folders; a scenario or class is found by its id in
it, never by a path from a request. A scenario's picture is a piece (marker, counter or
card) of its first ship's class (``kit.preview``), kept in the user cache
(``generator.cache``) under the library's key, so it is drawn once per library and code.
pdfium is not thread-safe: every use of it here holds one lock.
"""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_PDFIUM = threading.Lock()
"""pdfium (pypdfium2) is used by one thread at a time."""
PREVIEW_SCALE = 1.5
"""A page's preview: 1.5 pixels per point (108 dpi), legible on a laptop or a tablet."""
THUMB_DPI = 150
"""A scenario's picture is drawn at this resolution, then cropped to its first pieces."""
PICTURED = ("marker", "counter", "cards", "card")
"""The pieces a scenario's picture may show, in the order tried (not every ruleset has
markers: a modern one prints cards)."""
THUMB_WIDTH = 240
"""A picture's width in pixels (twice the width it shows at, for sharp high-dpi screens)."""


@dataclass(frozen=True)
class Card:
    """One scenario in the gallery."""

    id: str
    name: str
    date: str
    sides: tuple[str, ...]
    ships: str


@dataclass(frozen=True)
class Shelf:
    """One ruleset's scenarios."""

    ruleset: str
    title: str
    cards: tuple[Card, ...]


class Gallery:
    """The scenarios by ruleset, their pictures, and the ids a form may suggest."""

    def __init__(self, data: list[Path]) -> None:
        """The gallery of the bundled library plus the ``data`` folders."""
        self.data = data
        self._lock = threading.Lock()

    def _library(self) -> Any:
        """The validated library (raises ``QuarterdeckError`` with problems)."""
        from generator.data.library import validated_library

        return validated_library(list(self.data))

    def listing(self) -> list[Shelf]:
        """Every ruleset with its scenarios (a library with problems shows none)."""
        from generator.core.errors import QuarterdeckError
        from generator.data.library import summary

        try:
            found = summary(list(self.data))
            library = self._library() if not found.problems else None
        except QuarterdeckError:
            return []
        shelves = []
        for name, listing in found.rulesets.items():
            cards = []
            for sid, owner, title, date, ships in found.scenarios:
                if owner != name:
                    continue
                model = library.scenarios[sid].model if library is not None else None
                sides = tuple(str(getattr(s, "name", "")) for s in getattr(model, "sides", ()))
                cards.append(Card(sid, title, date, sides, ships))
            shelves.append(Shelf(name, listing.title, tuple(cards)))
        return shelves

    def names(self) -> dict[str, str]:
        """Every scenario's name by its id (empty when the library has problems)."""
        from generator.core.errors import QuarterdeckError
        from generator.data.library import summary

        try:
            return {sid: title for sid, _, title, *_ in summary(list(self.data)).scenarios}
        except QuarterdeckError:
            return {}

    def suggestions(self) -> dict[str, list[str]]:
        """Ids a form offers as it is filled in: scenarios, rulesets and classes."""
        from generator.core.errors import QuarterdeckError
        from generator.data.library import summary

        try:
            found = summary(list(self.data))
        except QuarterdeckError:
            return {}
        classes = sorted({cid for one in found.rulesets.values() for cid, *_ in one.classes})
        return {"scenario": [s[0] for s in found.scenarios], "ruleset": list(found.rulesets),
                "class_id": classes}

    def thumbnail(self, scenario: str) -> bytes | None:
        """The PNG of a scenario's first ship's piece (marker, counter or card), or None."""
        from generator.cache import key, remember, slot
        from generator.core.errors import QuarterdeckError
        from generator.data.library import checked_key

        try:
            library = self._library()
        except QuarterdeckError:
            return None
        entry = library.scenarios.get(scenario)
        if entry is None:
            return None
        stamp = checked_key(list(self.data))
        found = key("web-thumb", stamp, scenario) if stamp is not None else None

        def make() -> bytes:
            """Draw the picture (empty bytes when there is none, so it is kept too)."""
            return self._draw(entry.model) or b""

        with self._lock:  # one picture drawn at a time: they share the renderer
            png = remember(slot("web-thumb", scenario), found, make, bytes)
        return png or None

    def _draw(self, model: Any) -> bytes | None:
        """The picture of a scenario's first ship that has a class, or None."""
        from generator.core.errors import QuarterdeckError
        from generator.kit.preview import preview

        ruleset = str(getattr(model, "ruleset", "")) or None
        for side in getattr(model, "sides", ()):
            for ship in getattr(side, "ships", ()):
                class_id = getattr(ship, "class_", None)
                if isinstance(ship, str) and ruleset is not None:
                    class_id = self._class_of(ruleset, ship)  # a roster of ship names
                if not class_id:
                    continue
                for kind in PICTURED:  # the first piece this ruleset prints
                    try:
                        with _PDFIUM:
                            page = preview(str(class_id), ruleset=ruleset, kind=kind,
                                           dpi=THUMB_DPI, data=list(self.data)).png
                    except QuarterdeckError:
                        continue
                    return _cropped(page)
                return None
        return None


    def _class_of(self, ruleset: str, name: str) -> str | None:
        """The id of the ruleset's class that has a ship called ``name``, or None."""
        from generator.core.errors import QuarterdeckError
        from generator.core.suggest import fold

        try:
            classes = self._library().classes_of(ruleset)
        except QuarterdeckError:
            return None
        wanted = fold(name)
        for class_id, entry in classes.items():
            # A shared class lists ships (with names); a counter class only ship_names.
            names = [str(getattr(s, "name", s)) for s in getattr(entry.model, "ships", ())]
            names += [str(n) for n in getattr(entry.model, "ship_names", None) or ()]
            if any(fold(n) == wanted for n in names):
                return str(class_id)
        return None


def _cropped(png: bytes) -> bytes:
    """The top of a marker sheet (its first rows of pieces), trimmed and made small.

    A whole sheet at a thumbnail's size is a grey smudge; its first pieces, the ship's
    own marker among them, are what a player recognises.
    """
    from PIL import Image, ImageChops

    sheet = Image.open(io.BytesIO(png)).convert("RGB")
    top = sheet.crop((0, 0, sheet.width, sheet.height * 3 // 10))
    ink = ImageChops.difference(top, Image.new("RGB", top.size, "white")).getbbox()
    if ink is not None:
        left, upper, right, lower = ink
        top = top.crop((max(left - 6, 0), max(upper - 6, 0), min(right + 6, top.width),
                        min(lower + 6, top.height)))
    if top.width > THUMB_WIDTH:
        top = top.resize((THUMB_WIDTH, max(1, round(top.height * THUMB_WIDTH / top.width))),
                         Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    top.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def page_count(path: Path) -> int:
    """How many pages a PDF the server wrote has (0 when pdfium cannot open it)."""
    import pypdfium2  # type: ignore[import-untyped]

    with _PDFIUM:
        try:
            pdf = pypdfium2.PdfDocument(str(path))
        except pypdfium2.PdfiumError:
            return 0
        try:
            return len(pdf)
        finally:
            pdf.close()


def page_png(path: Path, page: int) -> bytes | None:
    """Page ``page`` (from 1) of a PDF the server wrote, as a PNG; None past its pages."""
    import pypdfium2

    cached = path.parent / f".preview-{path.name}-{page}.png"
    if cached.is_file() and not cached.is_symlink():
        return cached.read_bytes()
    with _PDFIUM:
        pdf = pypdfium2.PdfDocument(str(path))
        try:
            if not 1 <= page <= len(pdf):
                return None
            image = pdf[page - 1].render(scale=PREVIEW_SCALE).to_pil()
        finally:
            pdf.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    cached.write_bytes(buffer.getvalue())
    return buffer.getvalue()
