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

from generator.datamodel import Strict
from generator.units import MM

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
    logo: Any
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
    from generator.errors import Problem
    from generator.images import check_image, load_image
    from generator.validation import load_model
    from generator.yamlsource import SourceDoc

    found: list[Path | None] = [None]

    def check(model: BrandingFile, doc: SourceDoc) -> list[Problem]:
        if model.logo is None:
            return []
        logo, expected = check_image(path, folder, model.logo)
        found[0] = logo
        return [] if logo is not None else [doc.problem(("logo",),
                                                        f"found {model.logo!r}, {expected}")]

    model = load_model(BrandingFile, path, check=check)
    logo = load_image(found[0]) if found[0] is not None else None
    return Brand(model.footer, model.club, logo, model.cover.background, model.cover.text)


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
    w, h = _size(brand.logo)
    return height * w / h + 1.5 * MM


def draw_logo(canvas: Any, x: float, y: float, height: float = LOGO_HEIGHT) -> None:
    """The club's logo with its lower left at (x, y), ``height`` tall (nothing if none)."""
    brand = active()
    if brand is None or brand.logo is None:
        return
    from generator.images import draw_fitted

    w, h = _size(brand.logo)
    draw_fitted(canvas, brand.logo, x, y, height * w / h, height)


def _size(image: Any) -> tuple[float, float]:
    from reportlab.graphics.shapes import Drawing

    if isinstance(image, Drawing):
        return max(float(image.width), 1e-6), max(float(image.height), 1e-6)
    w, h = image.getSize()
    return float(w), float(h)
