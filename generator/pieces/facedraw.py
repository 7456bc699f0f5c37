"""How a face's fields are drawn: their fonts, colours, icons and the placing of a label.

Apart from ``faces`` (the layouts, their checks and the piece they make) so that module
stays a readable size. This one knows only the attributes of a field it draws
(``IconField``, ``TextField``), never the layout model, so the two import in one
direction.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from generator.core import fonts
from generator.pages.autofit import Fitted, LabelFitter

if TYPE_CHECKING:
    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

REF = re.compile(r"^\{([a-z][a-z0-9_]{0,31})\}$")
"""A colour given as ``{name}``: the piece's value of that name."""


class FieldBox(Protocol):
    """Where a face field sits: its box, measured from the trim's top-left corner."""

    @property
    def x(self) -> float: ...  # noqa: D102

    @property
    def y(self) -> float: ...  # noqa: D102

    @property
    def width(self) -> float: ...  # noqa: D102

    @property
    def height(self) -> float: ...  # noqa: D102


class IconField(FieldBox, Protocol):
    """What drawing an icon reads of a face field (``faces.FaceField``), read-only."""

    @property
    def icon(self) -> str | None: ...  # noqa: D102

    @property
    def colour(self) -> str: ...  # noqa: D102

    @property
    def stroke(self) -> str | None: ...  # noqa: D102

    @property
    def line_width(self) -> float: ...  # noqa: D102

    @property
    def radius(self) -> float: ...  # noqa: D102

    @property
    def points(self) -> str: ...  # noqa: D102


class TextField(FieldBox, Protocol):
    """What placing a label reads of a face field (``faces.FaceField``), read-only."""

    @property
    def font(self) -> str: ...  # noqa: D102

    @property
    def font_size(self) -> float: ...  # noqa: D102

    @property
    def floor(self) -> float: ...  # noqa: D102

    @property
    def abbreviate(self) -> bool: ...  # noqa: D102

    @property
    def align(self) -> str: ...  # noqa: D102

    @property
    def valign(self) -> str: ...  # noqa: D102


FONTS = {"regular": fonts.REGULAR, "bold": fonts.BOLD, "narrow": fonts.NARROW,
         "narrow-bold": fonts.NARROW_BOLD}
"""Font names a layout may use, and the registered fonts they stand for."""
CAP_MIDDLE = 0.35
"""Half the height of PT Sans capitals and figures, in em: ``middle`` centres on it."""


def line_height(font: str) -> float:
    """Ascent minus descent per point of type."""
    fonts.register()
    metrics = fonts.metrics()
    return float(metrics.getAscent(font, 1.0) - metrics.getDescent(font, 1.0))


@dataclass(frozen=True)
class PlacedText:
    """A fitted label and where its baseline starts (canvas points, origin lower-left)."""

    fitted: Fitted
    x: float
    baseline: float
    align: str


def place_text(f: TextField, text: str, piece_id: str, piece_height: float,
               fitter: LabelFitter) -> PlacedText:
    """Fit ``text`` into the field's box by the one rule and place it in the box.

    The type is first capped so one line (ascent to descent) fits the box's height;
    ``middle`` centres capitals on the box's middle but never lets the line leave it.
    """
    font = FONTS[f.font]
    line = line_height(font)
    size = min(f.font_size, f.height / line)
    fitted = fitter.fit(piece_id, text, font, size, f.width, floor=min(f.floor, size),
                        abbreviate=f.abbreviate)
    top = piece_height - f.y
    bottom = top - f.height
    highest = fitted.top_baseline(top)
    lowest = fitted.bottom_baseline(bottom)
    if f.valign == "top":
        baseline = highest
    elif f.valign == "bottom":
        baseline = lowest
    else:
        baseline = min(highest, max(lowest, (top + bottom) / 2 - CAP_MIDDLE * fitted.size))
    x = {"left": f.x, "center": f.x + f.width / 2, "right": f.x + f.width}[f.align]
    return PlacedText(fitted, x, baseline, f.align)


def colour(ref: str, values: Mapping[str, object]) -> Color:
    """The colour ``ref`` names: ``#rrggbb`` itself, or ``{name}``, the piece's value."""
    match = REF.match(ref)
    from reportlab.lib.colors import HexColor

    return HexColor(str(values[match.group(1)]) if match else ref)


def box(c: Canvas, x: float, y: float, w: float, h: float, radius: float, stroke: bool,
        fill: bool) -> None:
    """A rectangle, its corners rounded by ``radius`` (at most half a side)."""
    if radius > 0:
        c.roundRect(x, y, w, h, min(radius, w / 2, h / 2), stroke=int(stroke), fill=int(fill))
    else:
        c.rect(x, y, w, h, stroke=int(stroke), fill=int(fill))


def _polygon(c: Canvas, points: Sequence[tuple[float, float]], stroke: bool) -> None:
    path = c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    c.drawPath(path, stroke=int(stroke), fill=1)


def flame(c: Canvas, cx: float, bottom: float, height: float) -> None:
    """A flame standing on ``bottom``, ``height`` tall and 0.8 of that wide (filled)."""
    width = 0.8 * height

    def at(u: float, v: float) -> tuple[float, float]:
        return cx + (u - 0.5) * width, bottom + v * height

    path = c.beginPath()
    path.moveTo(*at(0.5, 0))
    path.curveTo(*at(0.05, 0), *at(0.0, 0.45), *at(0.3, 0.72))
    path.curveTo(*at(0.28, 0.55), *at(0.4, 0.5), *at(0.42, 0.62))
    path.curveTo(*at(0.45, 0.8), *at(0.55, 0.9), *at(0.5, 1.0))
    path.curveTo(*at(0.75, 0.85), *at(1.0, 0.6), *at(0.9, 0.32))
    path.curveTo(*at(0.85, 0.1), *at(0.7, 0), *at(0.5, 0))
    path.close()
    c.drawPath(path, stroke=0, fill=1)


def draw_icon(c: Canvas, f: IconField, values: Mapping[str, object], w: float, h: float,
              bleed: float) -> None:
    """Draw one icon field in its box (a bar spans the piece and runs into the bleed)."""
    c.setFillColor(colour(f.colour, values))
    stroke = f.stroke is not None
    if stroke:
        c.setStrokeColor(colour(str(f.stroke), values))
        c.setLineWidth(f.line_width)
    top = h - f.y
    bottom = top - f.height
    cx, cy = f.x + f.width / 2, (top + bottom) / 2
    # An outline is drawn half outside its path: inset by half the line to stay in the box.
    inset = f.line_width / 2 if stroke else 0.0
    if f.icon == "bar":
        low = bottom - bleed if bottom <= 1e-9 else bottom
        high = top + bleed if top >= h - 1e-9 else top
        c.rect(-bleed, low, w + 2 * bleed, high - low, stroke=0, fill=1)
    elif f.icon == "rectangle":
        box(c, f.x + inset, bottom + inset, f.width - 2 * inset, f.height - 2 * inset,
             f.radius, stroke, True)
    elif f.icon == "circle":
        c.circle(cx, cy, min(f.width, f.height) / 2 - inset, stroke=int(stroke), fill=1)
    elif f.icon == "star":
        r = min(f.width, f.height) / 2 - inset
        corners = [(cx + (r if i % 2 == 0 else r * 0.4) * math.sin(math.pi * i / 5),
                    cy + (r if i % 2 == 0 else r * 0.4) * math.cos(math.pi * i / 5))
                   for i in range(10)]
        _polygon(c, corners, stroke)
    elif f.icon == "triangle":
        x0, x1, y0, y1 = f.x + inset, f.x + f.width - inset, bottom + inset, top - inset
        tips = {"up": [(x0, y0), (x1, y0), (cx, y1)], "down": [(x0, y1), (x1, y1), (cx, y0)],
                "left": [(x1, y0), (x1, y1), (x0, cy)], "right": [(x0, y0), (x0, y1), (x1, cy)]}
        _polygon(c, tips[f.points], stroke)
    elif f.icon == "flame":
        flame(c, cx, bottom, min(f.height, f.width / 0.8))
