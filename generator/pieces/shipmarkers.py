"""Faces of a miniatures game's naval markers, drawn from labels already fitted.

A ship marker is a rectangle as long as the ship at the marker scale, with a bow bar, a
dashed centreline and a top view; its previous-turn marker carries the bar at the stern.
The pool markers are a battery-target pointer, an aircraft element, a torpedo spread
(a fan of tracks) and a submarine's depth track. Each function here returns the
``Art`` of one face; a ruleset chooses the sizes, colours and texts, and fits the
labels (``pages.autofit.LabelFitter``) before it asks for the face, so a label that only
fits by the last resort is reported against its piece.

``slug`` and ``stable_id`` give each ship a short id that stays the same from build to build, and
``with_warnings`` hands each piece the fit warnings about it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfgen.canvas import Canvas

from generator.core.units import MM
from generator.pages.autofit import SAFE_INSET, Fitted, LabelFitter
from generator.pieces.pieces import Art, Piece
from generator.pieces.silhouette import build_silhouette, draw_silhouette

INSET = SAFE_INSET * MM
"""Clearance kept between a label and the trim (a cut a hair inside must not bite it)."""
BAR_GAP = 0.3 * MM
"""Clearance kept between a label and the bow bar (the bar is not a cut: it may lie
inside the label's clearance from the trim)."""
TURRET_FILL = HexColor("#3a3a3a")

Icon = Callable[[Canvas, float, float, Color, Color], None]
"""Draws a ship's top view: ``icon(canvas, x, y, fill, ink)``, its stern at x, centred on y."""


def background(c: Canvas, fill: Color, width: float, height: float, bleed: float) -> None:
    """Fill the face and its bleed."""
    c.setFillColor(fill)
    c.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, stroke=0, fill=1)


def _ground(c: Canvas, fill: Color, ink: Color, line_width: float, width: float,
            height: float, bleed: float) -> None:
    """The background, then the pen set for the face's lines."""
    background(c, fill, width, height, bleed)
    c.setStrokeColor(ink)
    c.setLineWidth(line_width)


def _centreline(c: Canvas, ink: Color, w: float, h: float) -> None:
    """The centreline from edge to edge (dashed)."""
    c.setStrokeColor(ink)
    c.setLineWidth(0.25)
    c.setDash(1.2, 0.8)
    c.line(0, h / 2, w, h / 2)
    c.setDash()


def _bow_point(c: Canvas, ink: Color, x: float, h: float, bar: float) -> None:
    """A white notch in the bow bar on the centreline: the point ranges are taken from."""
    c.setFillColor(white)
    notch = 0.8 * MM
    path = c.beginPath()
    path.moveTo(x + bar, h / 2)
    path.lineTo(x, h / 2 + notch / 2)
    path.lineTo(x, h / 2 - notch / 2)
    path.close()
    c.drawPath(path, stroke=0, fill=1)
    c.setFillColor(ink)


def ship_face(fill: Color, ink: Color, bar: float, icon: Icon, name: Fitted, lower: Fitted,
              submerged: bool = False) -> Art:
    """A ship marker's face: name on top, ``lower`` (the class, or a note) below.

    Args:
        fill: Background colour (a submerged face is white, with a dashed border).
        ink: Lines and type.
        bar: Thickness of the bow bar at the right-hand edge.
        icon: The top view, drawn unless ``submerged``.
        name: The ship's name, fitted.
        lower: The lower line, fitted.
        submerged: Draw the face of a submarine under water (no top view).

    """
    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        if submerged:
            background(c, white, w, h, bleed)
            c.setStrokeColor(ink)
            c.setDash(1.5, 1.5)
            c.setLineWidth(0.5)
            c.rect(0.3 * MM, 0.3 * MM, w - 0.6 * MM, h - 0.6 * MM, stroke=1, fill=0)
            c.setDash()
        else:
            background(c, fill, w, h, bleed)
        _centreline(c, ink, w, h)
        if not submerged:
            icon(c, 0.0, h / 2, fill, ink)
        c.setFillColor(ink)
        # The bow edge; it runs on into the bleed so an off cut still shows it.
        c.rect(w - bar, -bleed, bar + bleed, h + 2 * bleed, stroke=0, fill=1)
        _bow_point(c, ink, w - bar, h, bar)
        name.draw(c, INSET, name.top_baseline(h - INSET))
        lower.draw(c, INSET, lower.bottom_baseline(INSET))

    return art


def previous_turn_face(ink: Color, bar: float, name: Fitted, note: Fitted) -> Art:
    """A previous-turn marker: white, outlined, the bar on the stern edge, labels right.

    Laid with its stern edge where the bow was, so the bar marks the old bow position.
    """
    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        background(c, white, w, h, bleed)
        c.setStrokeColor(ink)
        c.setLineWidth(0.6)
        c.rect(0.3 * MM, 0.3 * MM, w - 0.6 * MM, h - 0.6 * MM, stroke=1, fill=0)
        _centreline(c, ink, w, h)
        c.setFillColor(ink)
        c.rect(-bleed, -bleed, bar + bleed, h + 2 * bleed, stroke=0, fill=1)
        name.draw(c, w - INSET, name.top_baseline(h - INSET), "right")
        note.draw(c, w - INSET, note.bottom_baseline(INSET), "right")

    return art


def pointer_face(fill: Color, ink: Color, height: float, name: Fitted, what: Fitted) -> Art:
    """A marker laid beside its target: a pointer on the left edge, two lines on the right."""
    top, bottom = name.top_baseline(height - INSET), what.bottom_baseline(INSET)

    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        background(c, fill, w, h, bleed)
        c.setFillColor(ink)
        # A pointer on the left edge: the end laid against the target.
        path = c.beginPath()
        path.moveTo(0, h / 2)
        path.lineTo(1.2 * MM, h)
        path.lineTo(1.2 * MM, 0)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        name.draw(c, w - INSET, top, "right")
        what.draw(c, w - INSET, bottom, "right")

    return art


def aircraft_face(fill: Color, ink: Color, code: Fitted, flag: Fitted, name: Fitted) -> Art:
    """An aircraft element: a plane outline, its type code, its navy, and what it is."""
    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        _ground(c, fill, ink, 0.9, w, h, bleed)
        cx, cy, span = w * 0.27, h * 0.55, w * 0.18
        c.line(cx - span, cy, cx + span, cy)              # wings
        c.line(cx, cy - span * 0.9, cx, cy + span * 1.1)  # fuselage, nose up
        c.line(cx - span * 0.4, cy - span * 0.8, cx + span * 0.4, cy - span * 0.8)
        c.setFillColor(ink)
        code.draw(c, w - INSET, h * 0.42, "right")
        flag.draw(c, w - INSET, flag.top_baseline(h - INSET), "right")
        name.draw(c, w / 2, name.bottom_baseline(INSET), "center")

    return art


def spread_face(fill: Color, ink: Color, tracks: int, number: Fitted, size: Fitted) -> Art:
    """A torpedo spread: a fan of ``tracks`` tracks, the count beside it, the size below."""
    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        _ground(c, fill, ink, 0.4, w, h, bleed)
        # The fan on the right, the count on the left: neither covers the other.
        ox, oy, reach = w * 0.64, INSET + 2.4 * MM, h - 2 * INSET - 2.4 * MM
        fan = max(tracks, 1)
        for i in range(fan):
            angle = math.radians(-16 + 32 * (i + 0.5) / fan)
            c.line(ox, oy, ox + reach * math.sin(angle), oy + reach * math.cos(angle))
        c.setFillColor(ink)
        number.draw(c, INSET + 0.3 * MM, h * 0.45)
        size.draw(c, w / 2, size.bottom_baseline(INSET), "center")

    return art


def depth_track_face(fill: Color, ink: Color, name: Fitted, boxes: Sequence[str],
                     marks: Sequence[Fitted], crush: str, crush_note: Fitted) -> Art:
    """A submarine's depth track: a row of boxes, the crushing depth flagged in red.

    Args:
        fill: Background colour.
        ink: Lines and type.
        name: The heading, fitted.
        boxes: The depths, shallowest first.
        marks: Each box's label, fitted to the box.
        crush: The depth that crushes her (a box with no such name is flagged nowhere).
        crush_note: The note under the crushing depth, fitted.

    """
    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        _ground(c, fill, ink, 0.4, w, h, bleed)
        box_w = (w - 2 * INSET) / len(boxes)
        top = h - INSET - 2.6 * MM
        c.setFillColor(white)
        for i in range(len(boxes)):
            c.rect(INSET + i * box_w, INSET, box_w, top - INSET, stroke=1, fill=1)
        c.setFillColor(ink)
        name.draw(c, INSET, name.top_baseline(h - INSET))
        for i, (label, mark) in enumerate(zip(boxes, marks, strict=True)):
            cx = INSET + (i + 0.5) * box_w
            mark.draw(c, cx, INSET + (top - INSET) * 0.45, "center")
            if label == crush:
                c.setFillColorRGB(0.75, 0.1, 0.1)
                crush_note.draw(c, cx, crush_note.bottom_baseline(INSET) + 0.2 * MM, "center")
                c.setFillColor(ink)

    return art


def ship_icon(image: Path | None, length: float, beam: float, type_code: str,
              batteries: Sequence[tuple[str, int]], funnels: int, catapults: int) -> Icon:
    """A ship's top view: the class's own image when it has one, else a silhouette.

    Args:
        image: The class's checked image (``data.images``), or None.
        length: Length to draw, points.
        beam: Half the height an image may take; the silhouette's beam.
        type_code: The ship's type (the silhouette's shape).
        batteries: (position, mounts) of each gun battery.
        funnels: Funnels to draw.
        catapults: Catapults to draw.

    """
    if image is not None:
        return _image_icon(image, length, beam)
    sil = build_silhouette(length, beam, type_code, list(batteries), funnels, catapults)

    def icon(c: Canvas, x: float, y: float, fill: Color, ink: Color) -> None:
        draw_silhouette(c, sil, x, y, hull_fill=white, ink=ink, turret_fill=TURRET_FILL)

    return icon


@functools.cache
def _load_image(path: Path) -> object:
    """An image ready to draw: a ReportLab ImageReader (PNG) or a Drawing (SVG).

    Loaded from the bytes ``generator.data.images`` checks, so a file that changed since
    ``check`` is refused, not drawn.
    """
    from generator.data.images import load_image

    return load_image(path)


def _image_icon(path: Path, length: float, beam: float) -> Icon:
    """A class's own top view, scaled to fit length x (2 x beam), centred on the centreline."""
    from generator.data.images import draw_fitted

    image = _load_image(path)

    def icon(c: Canvas, x: float, y: float, fill: Color, ink: Color) -> None:
        draw_fitted(c, image, x, y - beam, length, 2 * beam)

    return icon


def slug(text: str) -> str:
    """A stable ASCII id part: 'Chōkai' → 'chokai', 'Salt Lake City' → 'salt-lake-city'."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    out = "".join(ch if ch.isalnum() else "-" for ch in plain.lower())
    return "-".join(part for part in out.split("-") if part)


def stable_id(taken: dict[str, tuple[str, str]], base: str, group: str, name: str) -> str:
    """A ship's id part: ``base``, made unique among ``taken`` and stable.

    A second ship with the same id part (the same name in another group, or two names
    whose ASCII slug is equal, such as ``Киров 2`` and ``Максим 2``, both ``2``) gets its
    group (its class) appended; if that is taken too, a short digest of the group and the
    name, which depends on nothing but the ship itself.

    Args:
        taken: The ids given so far on the sheet, each with its (group, name); updated.
        base: The ship's own id part (a slug of her name).
        group: Her class's id.
        name: Her name.

    """
    owner = (group, name)
    digest = hashlib.sha256("\0".join(owner).encode()).hexdigest()
    candidates = [base, f"{base}-{group}"]
    # Longer digests only on a (practically impossible) clash of the short one.
    candidates += [f"{base}-{group}-{digest[:size]}" for size in (8, 16, 64)]
    for candidate in candidates:
        if taken.setdefault(candidate, owner) == owner:
            return candidate
    raise AssertionError(f"ship id {base} taken twice")  # equal digests of unequal ships


def with_warnings(pieces: list[Piece], labels: LabelFitter) -> list[Piece]:
    """The pieces, each with the fit warnings about it (``Piece.warnings``)."""
    return [dataclasses.replace(p, warnings=labels.of([p.id]))
            if labels.by_piece.get(p.id) else p for p in pieces]
