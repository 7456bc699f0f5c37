"""A club's branding, from ``branding.yaml`` in the user's template folder.

With ``--templates DIR`` (or an event's ``templates:``), a ``branding.yaml`` in DIR puts
the club's own footer text, name and logo on every page, and its colours on event
covers::

    footer: Harbour Games 2026        # replaces the word "quarterdeck" in footers
    club: Example Naval Wargames Club # printed at the foot of every page
    logo: logo.png                    # PNG or SVG in DIR, drawn 5 mm high in the footer
    cover: {background: "#1d3a5f", text: "#ffffff"}

Without the file nothing changes: the defaults stay plain. The file is untrusted input
like any other: it is validated with located errors, its strings are bounded, and the
logo must be a checked image inside the folder.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field

from generator.core.units import MM
from generator.data.datamodel import Strict

FILE = "branding.yaml"
LOGO_HEIGHT = 5 * MM
"""Height of the logo in a page footer."""
PRODUCT = "quarterdeck"
"""The word a branded footer replaces."""

_COLOUR = r"^#[0-9a-fA-F]{6}$"


class CoverColours(Strict):
    """Colours of an event's cover sheets."""

    background: str = Field(default="#ffffff", pattern=_COLOUR)
    text: str = Field(default="#000000", pattern=_COLOUR)


class BrandingFile(Strict):
    """What ``branding.yaml`` may say."""

    footer: str = Field(default="", max_length=60)
    club: str = Field(default="", max_length=80)
    logo: str | None = Field(default=None, min_length=1, max_length=200)
    cover: CoverColours = Field(default_factory=CoverColours)


@dataclass(frozen=True)
class Brand:
    """Branding in force: the file's values and the loaded logo (None for none)."""

    footer: str
    club: str
    logo: Logo | None
    background: str
    text: str


_ACTIVE: contextvars.ContextVar[Brand | None] = contextvars.ContextVar("brand", default=None)


def load(folder: Path) -> Brand | None:
    """The branding in ``folder`` (None when it has no ``branding.yaml``).

    Raises:
        DataError: The file or its logo has problems, each located.

    """
    path = folder / FILE
    if not path.is_file():
        return None
    from generator.core.errors import Problem
    from generator.data.validation import load_model
    from generator.data.yamlsource import SourceDoc

    found: list[Path | None] = [None]

    def check(model: BrandingFile, doc: SourceDoc) -> list[Problem]:
        if model.logo is None:
            return []
        logo, expected = check_logo(path, folder, model.logo, "the template folder")
        found[0] = logo
        return [] if logo is not None else [doc.problem(("logo",),
                                                        f"found {model.logo!r}, {expected}")]

    model = load_model(BrandingFile, path, check=check)
    logo = load_logo(found[0]) if found[0] is not None else None
    return Brand(model.footer, model.club, logo, model.cover.background, model.cover.text)


def check_logo(owner: Path, folder: Path, relative: str, where: str) -> tuple[Path | None,
                                                                          str]:
    """Resolve and check a logo named in ``owner`` (a YAML file), relative to its folder.

    The logo must lie inside ``folder`` (no ``..`` or link out of it), be a PNG or SVG by
    name, and pass the image checks on its bytes (``generator.data.images``): an SVG must be
    well-formed, refer to nothing outside itself and have a bounded size.

    Args:
        owner: The file naming the logo.
        folder: The folder the logo must stay inside.
        relative: The path as written.
        where: ``folder`` as a message names it (``the template folder``).

    Returns:
        The resolved path and "" when usable, else None and ``expected ...``.

    """
    from generator.core.pathargs import resolved
    from generator.data.images import LOOP, check_image

    if "\x00" in relative:
        return None, "expected a file name without NUL bytes"
    path, base = resolved(owner.parent / relative), resolved(folder)
    if path is None or base is None:
        return None, LOOP
    if not path.is_relative_to(base):
        return None, f"expected a PNG or SVG inside {where}"
    if path.suffix.lower() not in (".png", ".svg"):
        return None, "expected a PNG or SVG file (named .png or .svg)"
    if not path.is_file():
        return None, f"expected an existing PNG or SVG file in {where}"
    return check_image(owner, folder, relative)


@dataclass(frozen=True)
class Logo:
    """A checked logo ready to draw, and the name its drawing goes by in a PDF."""

    image: Any
    """A ReportLab ImageReader (PNG) or Drawing (SVG)."""
    key: str
    """From the file's bytes: names the SVG's form XObject, so one logo is one form."""

    @property
    def size(self) -> tuple[float, float]:
        """Width and height: pixels for a PNG, user units for an SVG (never zero)."""
        return _size(self.image)


def load_logo(path: Path) -> Logo:
    """A logo ``check_image`` passed, loaded from the same bytes.

    Raises:
        DataError: The file changed since it was checked and no longer passes.

    """
    import hashlib

    from generator.data.images import load_image

    image = load_image(path)
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:  # pragma: no cover - read a moment ago by load_image
        digest = "0" * 16
    return Logo(image, f"QDLogo{digest}")


def draw_image(canvas: Any, logo: Logo, x: float, y: float, width: float,
               height: float) -> None:
    """A logo as large as fits the box, centred in it.

    A PNG is an image XObject (ReportLab keeps one copy per file). An SVG is drawn once
    per document into a form XObject, and each page shows that form: a vector logo on
    thousands of pages costs one copy of its paths, and it stays one named object on
    the page, so it can be found where it was put.
    """
    from reportlab.graphics.shapes import Drawing

    from generator.data.images import draw_fitted

    if not isinstance(logo.image, Drawing):
        draw_fitted(canvas, logo.image, x, y, width, height)
        return
    from reportlab.graphics import renderPDF

    w, h = logo.size
    if not canvas.hasForm(logo.key):
        canvas.beginForm(logo.key, 0, 0, w, h)
        renderPDF.draw(logo.image, canvas, 0, 0)
        canvas.endForm()
    scale = min(width / w, height / h)
    canvas.saveState()
    canvas.translate(x + (width - w * scale) / 2, y + (height - h * scale) / 2)
    canvas.scale(scale, scale)
    canvas.doForm(logo.key)
    canvas.restoreState()


@contextlib.contextmanager
def branded(folder: Path | None) -> Iterator[Brand | None]:
    """Use the branding in ``folder`` (if any) for the ``with`` block."""
    brand = load(folder) if folder is not None else None
    token = _ACTIVE.set(brand)
    try:
        yield brand
    finally:
        _ACTIVE.reset(token)


def active() -> Brand | None:
    """The branding in force, or None."""
    return _ACTIVE.get()


def footer(text: str) -> str:
    """A footer line as the branding words it: the club's text for the product name.

    ``quarterdeck · Savo Island`` becomes ``Harbour Games 2026 · Savo Island`` and the
    club's name follows; without branding the text is returned as it is.
    """
    brand = active()
    if brand is None:
        return text
    if not text:  # the club alone (where a page has room for little else)
        return brand.club or brand.footer
    if brand.footer:
        if text == PRODUCT:
            text = brand.footer
        elif text.startswith(PRODUCT + " "):
            text = brand.footer + text[len(PRODUCT):]
        elif text == brand.footer or text.startswith(brand.footer + " "):
            pass  # it names the club's event already (an event cover's foot)
        else:
            text = f"{brand.footer} · {text}" if text else brand.footer
    if brand.club:
        text = f"{text} · {brand.club}" if text else brand.club
    return text


def running(text: str) -> str:
    """A running head as the branding words it: the club's text for the product name."""
    brand = active()
    if brand is None or not brand.footer:
        return text
    if text == PRODUCT or text.startswith(PRODUCT + " "):
        return brand.footer + text[len(PRODUCT):]
    return text


def logo_width(height: float = LOGO_HEIGHT) -> float:
    """Room the footer logo takes (0 without branding or logo), including a gap after it."""
    brand = active()
    if brand is None or brand.logo is None:
        return 0.0
    w, h = brand.logo.size
    return height * w / h + 1.5 * MM


def draw_logo(canvas: Any, x: float, y: float, height: float = LOGO_HEIGHT) -> None:
    """The club's logo with its lower left at (x, y), ``height`` tall (nothing if none)."""
    brand = active()
    if brand is None or brand.logo is None:
        return
    w, h = brand.logo.size
    draw_image(canvas, brand.logo, x, y, height * w / h, height)


def _size(image: Any) -> tuple[float, float]:
    from reportlab.graphics.shapes import Drawing

    if isinstance(image, Drawing):
        return max(float(image.width), 1e-6), max(float(image.height), 1e-6)
    w, h = image.getSize()
    return float(w), float(h)
