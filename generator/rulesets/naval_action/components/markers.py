"""NAVAL ACTION marker pieces: ships at 1:12,000 with silhouettes, and the pools.

Each function here returns ``Piece`` objects for the shared imposition engine (and the
PNG and Tabletop Simulator exports). Smoke, fire and damage markers are drawn from the
face layouts in ``tables/markers.yaml`` (``generator/pieces/faces.py``); the damage marker's
heavy-damage back is derived from its front there. Labels are fitted by the one rule of
``generator/pages/autofit.py`` when the piece is made; a label that only fits by its last
resort is reported as a warning naming the piece.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
from collections.abc import Callable, Iterable
from pathlib import Path

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.units import MM
from generator.pages.autofit import LABEL_FLOOR, SAFE_INSET, Fitted, LabelFitter
from generator.pieces.faces import face_piece
from generator.pieces.pieces import Art, Piece
from generator.pieces.silhouette import (
    build_silhouette,
    default_funnels,
    draw_silhouette,
)
from generator.rulesets.naval_action.derive import ShipView
from generator.rulesets.naval_action.markers import SidePool, Spread, ship_slug
from generator.rulesets.naval_action.markertables import MarkerTables

INSET = SAFE_INSET * MM
"""Clearance kept between a label and the trim (a cut a hair inside must not bite it)."""
BAR_GAP = 0.3 * MM
"""Clearance kept between a label and the bow bar (the bar is not a cut: it may lie
inside the label's clearance from the trim)."""
TURRET_FILL = HexColor("#3a3a3a")


def _background(c: Canvas, fill: Color, width: float, height: float, bleed: float) -> None:
    c.setFillColor(fill)
    c.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, stroke=0, fill=1)


def cls_label(view: ShipView) -> str:
    """The class line of a ship's marker."""
    return f"{view.cls.name} {view.cls.type.value}"


class MarkerMaker:
    """Makes one scenario's pieces from its pools, using the marker tables."""

    def __init__(self, tables: MarkerTables, images: dict[str, Path] | None = None,
                 ships: Iterable[ShipView] = ()) -> None:
        self.t = tables
        # Every ship of the scenario: a word of a ship's label is cut only where it
        # tells no two ships' labels apart.
        self.labels = LabelFitter(self.ship_labels(ships))
        self.images = images or {}
        self._owners: dict[str, tuple[str, str]] = {}
        self._colours: dict[str, tuple[Color, Color]] = {}

    def sid(self, view: ShipView) -> str:
        """The ship's id part, made unique and stable.

        A second ship with the same id part (the same name in another class, or two names
        whose ASCII slug is equal, such as ``Киров 2`` and ``Максим 2``, both ``2``) gets its
        class id appended; if that is taken too, a short digest of the class id and the
        name, which depends on nothing but the ship itself.
        """
        base = ship_slug(view)
        owner = (view.cls.id, view.ship.name)
        digest = hashlib.sha256("\0".join(owner).encode()).hexdigest()
        candidates = [base, f"{base}-{view.cls.id}"]
        # Longer digests only on a (practically impossible) clash of the short one.
        candidates += [f"{base}-{view.cls.id}-{digest[:size]}" for size in (8, 16, 64)]
        for candidate in candidates:
            if self._owners.setdefault(candidate, owner) == owner:
                return candidate
        raise AssertionError(f"ship id {base} taken twice")  # equal digests of unequal ships

    def colours(self, nation: str) -> tuple[Color, Color]:
        """(fill, ink) of a navy's markers."""
        if nation not in self._colours:
            entry = self.t.nation_colours.get(nation)
            self._colours[nation] = ((HexColor("#e6e6e6"), HexColor("#202020"))
                                     if entry is None else
                                     (HexColor(entry.fill), HexColor(entry.ink)))
        return self._colours[nation]

    # -- ships -------------------------------------------------------------------------

    def ship_length(self, view: ShipView) -> float:
        """Marker length in points: the ship's overall length at the marker scale."""
        return view.cls.length_ft * 304.8 / self.t.marker_ship.scale * MM

    @staticmethod
    def ship_labels(views: Iterable[ShipView]) -> list[str]:
        """The texts on ships' markers (``ship_pieces``)."""
        notes = ["previous turn", "submerged"]
        return notes + [text for v in views for text in (v.name, cls_label(v))]

    def ship_pieces(self, view: ShipView) -> list[Piece]:
        """The ship marker and its previous-turn marker."""
        sid = self.sid(view)
        length, width = self.ship_length(view), self.t.marker_ship.width
        fill, ink = self.colours(view.cls.nation.value)
        bar = self.t.marker_ship.bow_bar
        # 1 mm inside the cut at both ends; the bow bar (0.7 mm) lies within that
        # clearance, and a label keeps a gap from it too.
        room = length - INSET - max(INSET, bar + BAR_GAP)
        name = self.labels.fit(f"ship.{sid}", view.name, fonts.NARROW_BOLD, 6.5, room)
        klass = self.labels.fit(f"ship.{sid}", cls_label(view), fonts.NARROW, LABEL_FLOOR, room)
        prev = self.labels.fit(f"prev.{sid}", view.name, fonts.NARROW_BOLD, 6.0, room)
        prev_note = self.labels.fit(f"prev.{sid}", "previous turn", fonts.NARROW, LABEL_FLOOR,
                                    room)
        sub_note = self.labels.fit(f"ship.{sid}", "submerged", fonts.NARROW, LABEL_FLOOR,
                                   room)
        draw_icon = self._icon(view, length - bar, self.t.marker_ship.silhouette_beam)
        submarine = view.cls.type.value == "SS"

        def face(submerged: bool) -> Art:
            """The ship's face; a submarine's back shows her submerged (no top view)."""
            lower = sub_note if submerged else klass

            def art(c: Canvas, w: float, h: float, bleed: float) -> None:
                if submerged:
                    _background(c, white, w, h, bleed)
                    c.setStrokeColor(ink)
                    c.setDash(1.5, 1.5)
                    c.setLineWidth(0.5)
                    c.rect(0.3 * MM, 0.3 * MM, w - 0.6 * MM, h - 0.6 * MM, stroke=1, fill=0)
                    c.setDash()
                else:
                    _background(c, fill, w, h, bleed)
                self._centreline(c, ink, w, h)
                if not submerged:
                    draw_icon(c, 0.0, h / 2, fill, ink)
                c.setFillColor(ink)
                # The bow edge; it runs on into the bleed so an off cut still shows it.
                c.rect(w - bar, -bleed, bar + bleed, h + 2 * bleed, stroke=0, fill=1)
                self._bow_point(c, ink, w - bar, h)
                name.draw(c, INSET, name.top_baseline(h - INSET))
                lower.draw(c, INSET, lower.bottom_baseline(INSET))

            return art

        def previous(c: Canvas, w: float, h: float, bleed: float) -> None:
            _background(c, white, w, h, bleed)
            c.setStrokeColor(ink)
            c.setLineWidth(0.6)
            c.rect(0.3 * MM, 0.3 * MM, w - 0.6 * MM, h - 0.6 * MM, stroke=1, fill=0)
            self._centreline(c, ink, w, h)
            # The rule text suggests putting the marker's rear where the bow was, so the
            # stern edge carries the bar here.
            c.setFillColor(ink)
            c.rect(-bleed, -bleed, bar + bleed, h + 2 * bleed, stroke=0, fill=1)
            prev.draw(c, w - INSET, prev.top_baseline(h - INSET), "right")
            prev_note.draw(c, w - INSET, prev_note.bottom_baseline(INSET), "right")

        return self.carrying_warnings([
            Piece(f"ship.{sid}", f"{view.name} ({view.cls.name})", length, width, face(False),
                  face(submarine), 1, "ship", ends="x"),
            Piece(f"prev.{sid}", f"{view.name} previous turn", length, width, previous,
                  previous, 1, "previous-turn", ends="x"),
        ])

    def _centreline(self, c: Canvas, ink: Color, w: float, h: float) -> None:
        """The centreline from edge to edge (dashed)."""
        c.setStrokeColor(ink)
        c.setLineWidth(0.25)
        c.setDash(1.2, 0.8)
        c.line(0, h / 2, w, h / 2)
        c.setDash()

    def _bow_point(self, c: Canvas, ink: Color, x: float, h: float) -> None:
        """A white notch in the bow bar on the centreline: the point ranges are taken from."""
        c.setFillColor(white)
        notch = 0.8 * MM
        path = c.beginPath()
        path.moveTo(x + self.t.marker_ship.bow_bar, h / 2)
        path.lineTo(x, h / 2 + notch / 2)
        path.lineTo(x, h / 2 - notch / 2)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        c.setFillColor(ink)

    def _icon(self, view: ShipView, length: float,
              beam: float) -> Callable[[Canvas, float, float, Color, Color], None]:
        """Draws the ship's top view: the class's own image, else a generated silhouette."""
        image = self.images.get(view.cls.id)
        if image is not None:
            return _image_icon(image, length, beam)
        batteries = [(b.position, b.turrets or b.guns) for b in view.batteries]
        catapults = view.cls.aircraft.catapults if view.cls.aircraft else 0
        funnels = (view.cls.funnels if view.cls.funnels is not None
                   else default_funnels(view.cls.type.value))
        sil = build_silhouette(length, beam, view.cls.type.value, batteries, funnels, catapults)

        def icon(c: Canvas, x: float, y: float, fill: Color, ink: Color) -> None:
            draw_silhouette(c, sil, x, y, hull_fill=white, ink=ink, turret_fill=TURRET_FILL)

        return icon

    # -- pools -------------------------------------------------------------------------

    def pool_pieces(self, pool: SidePool) -> list[Piece]:
        """Every pooled marker of one side."""
        pieces: list[Piece] = []
        for view in pool.ships:
            pieces.extend(self.target_pieces(view))
        for (nation, kind), count in pool.aircraft.items():
            pieces.append(self.aircraft_piece(nation, kind, count))
        for spread, count in sorted(pool.spreads.items(),
                                    key=lambda item: (item[0].nation, item[0].size_in,
                                                      -item[0].count)):
            pieces.append(self.spread_piece(spread, count))
        pieces.append(self.smoke_piece(pool.smoke))
        pieces.append(self.burning_piece(pool.burning))
        pieces.append(self.damage_piece(pool.damage))
        for view in pool.submarines:
            pieces.append(self.depth_piece(view))
        return self.carrying_warnings(pieces)

    def carrying_warnings(self, pieces: list[Piece]) -> list[Piece]:
        """The pieces, each with the fit warnings about it (``Piece.warnings``)."""
        return [dataclasses.replace(p, warnings=self.labels.of([p.id]))
                if self.labels.by_piece.get(p.id) else p for p in pieces]

    def target_pieces(self, view: ShipView) -> list[Piece]:
        """One battery-target marker per gun battery, placed beside the battery's target."""
        sid = self.sid(view)
        fill, ink = self.colours(view.cls.nation.value)
        width, height = self.t.marker_sizes.battery_target
        pieces = []
        seen: dict[str, int] = {}
        for battery in view.batteries:
            key = f"{battery.position.lower()}-{battery.bore_in:g}in".replace(".", "-")
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                key += f"-{seen[key]}"
            pid = f"target.{sid}.{key}"
            room = width - 2 * INSET
            name = self.labels.fit(pid, view.name, fonts.NARROW_BOLD, 6.0, room)
            what = self.labels.fit(pid, f"{battery.position} {battery.guns} × "
                                        f"{battery.bore_in:g}in", fonts.NARROW, LABEL_FLOOR,
                                   room)

            top, bottom = name.top_baseline(height - INSET), what.bottom_baseline(INSET)

            def art(c: Canvas, w: float, h: float, bleed: float, name: Fitted = name,
                    what: Fitted = what, top: float = top, bottom: float = bottom) -> None:
                _background(c, fill, w, h, bleed)
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

            pieces.append(Piece(pid, f"{view.name} {battery.position} battery target",
                                width, height, art, None, 1, "battery-target"))
        return pieces

    def aircraft_piece(self, nation: str, kind: str, count: int) -> Piece:
        """A 6-plane element of one type and navy."""
        info = self.t.aircraft_types[kind]
        fill, ink = self.colours(nation)
        width, height = self.t.marker_sizes.aircraft
        pid = f"aircraft.{nation.lower()}.{kind}"
        per = self.t.marker_pools.planes_per_element
        code = self.labels.fit(pid, info.code, fonts.BOLD, 11, width / 2 - INSET)
        name = self.labels.fit(pid, f"{per} × {info.name}", fonts.NARROW, LABEL_FLOOR,
                               width - 2 * INSET)
        flag = self.labels.fit(pid, nation, fonts.NARROW_BOLD, 5.5, width / 2 - INSET)

        def art(c: Canvas, w: float, h: float, bleed: float) -> None:
            _background(c, fill, w, h, bleed)
            c.setStrokeColor(ink)
            c.setLineWidth(0.9)
            cx, cy, span = w * 0.27, h * 0.55, w * 0.18
            c.line(cx - span, cy, cx + span, cy)              # wings
            c.line(cx, cy - span * 0.9, cx, cy + span * 1.1)  # fuselage, nose up
            c.line(cx - span * 0.4, cy - span * 0.8, cx + span * 0.4, cy - span * 0.8)
            c.setFillColor(ink)
            code.draw(c, w - INSET, h * 0.42, "right")
            flag.draw(c, w - INSET, flag.top_baseline(h - INSET), "right")
            name.draw(c, w / 2, name.bottom_baseline(INSET), "center")

        return Piece(pid, f"{nation} {info.name.lower()} element", width, height, art, None,
                     count, "aircraft")

    def spread_piece(self, spread: Spread, count: int) -> Piece:
        """A torpedo spread of ``spread.count`` torpedoes."""
        fill, ink = self.colours(spread.nation)
        width, height = self.t.marker_sizes.torpedo_spread
        pid = f"torpedo.{spread.nation.lower()}.{spread.size_in}in.{spread.count}"
        number = self.labels.fit(pid, str(spread.count), fonts.BOLD, 12, width * 0.64 - 3 * MM)
        size = self.labels.fit(pid, f"{spread.size_in}in", fonts.NARROW_BOLD, 6,
                               width - 2 * INSET)

        def art(c: Canvas, w: float, h: float, bleed: float) -> None:
            _background(c, fill, w, h, bleed)
            c.setStrokeColor(ink)
            c.setLineWidth(0.4)
            # The fan on the right, the count on the left: neither covers the other.
            ox, oy, reach = w * 0.64, INSET + 2.4 * MM, h - 2 * INSET - 2.4 * MM
            tracks = max(spread.count, 1)
            for i in range(tracks):
                angle = math.radians(-16 + 32 * (i + 0.5) / tracks)
                c.line(ox, oy, ox + reach * math.sin(angle), oy + reach * math.cos(angle))
            c.setFillColor(ink)
            number.draw(c, INSET + 0.3 * MM, h * 0.45)
            size.draw(c, w / 2, size.bottom_baseline(INSET), "center")

        return Piece(pid, f"{spread.nation} {spread.size_in}in spread of {spread.count}",
                     width, height, art, None, count, "torpedo-spread")

    def smoke_piece(self, count: int) -> Piece:
        """A smoke screen (face ``marker_faces.smoke``)."""
        return face_piece(self.t.marker_faces.smoke, {}, "smoke", "Smoke", count, "smoke",
                          self.labels)

    def burning_piece(self, count: int) -> Piece:
        """A ship on fire (face ``marker_faces.burning``)."""
        return face_piece(self.t.marker_faces.burning, {}, "burning", "Burning", count,
                          "burning", self.labels)

    def damage_piece(self, count: int) -> Piece:
        """Damage: D on the front, HD (heavy damage) on the derived back; flip it as it worsens."""
        return face_piece(self.t.marker_faces.damage, {}, "damage", "Damage (D / HD)", count,
                          "damage", self.labels)

    def depth_piece(self, view: ShipView) -> Piece:
        """A submarine's secret depth track: surface, then the rule text's depth levels."""
        sid = self.sid(view)
        pid = f"depth.{sid}"
        fill, ink = self.colours(view.cls.nation.value)
        width, height = self.t.marker_sizes.depth_track
        crush = self.t.crush_depth.get(view.cls.nation.value, self.t.crush_depth["default"])
        boxes = ["Surf.", *self.t.depths]
        box_w = (width - 2 * INSET) / len(boxes)
        name = self.labels.fit(pid, f"{view.name}: depth", fonts.NARROW_BOLD, 6,
                               width - 2 * INSET)
        marks = [self.labels.fit(pid, b, fonts.BOLD, 8, box_w - 2 * INSET) for b in boxes]
        crush_note = self.labels.fit(pid, "crush: 2", fonts.NARROW, LABEL_FLOOR,
                                     box_w - 2 * INSET)

        def art(c: Canvas, w: float, h: float, bleed: float) -> None:
            _background(c, fill, w, h, bleed)
            top = h - INSET - 2.6 * MM
            c.setStrokeColor(ink)
            c.setLineWidth(0.4)
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

        return Piece(pid, f"{view.name} depth track", width, height, art, None, 1,
                     "depth-track")


@functools.cache
def _load_image(path: Path) -> object:
    """An image ready to draw: a ReportLab ImageReader (PNG) or a Drawing (SVG).

    Loaded from the bytes ``generator.data.images`` checks, so a file that changed since
    ``check`` is refused, not drawn.
    """
    from generator.data.images import load_image

    return load_image(path)


def _image_icon(path: Path, length: float,
                beam: float) -> Callable[[Canvas, float, float, Color, Color], None]:
    """A class's own top view, scaled to fit length x (2 x beam), centred on the centreline."""
    from reportlab.graphics import renderPDF
    from reportlab.graphics.shapes import Drawing

    image = _load_image(path)
    box_h = 2 * beam

    def icon(c: Canvas, x: float, y: float, fill: Color, ink: Color) -> None:
        if isinstance(image, Drawing):
            scale = min(length / max(image.width, 1e-6), box_h / max(image.height, 1e-6))
            c.saveState()
            c.translate(x + (length - image.width * scale) / 2, y - image.height * scale / 2)
            c.scale(scale, scale)
            renderPDF.draw(image, c, 0, 0)
            c.restoreState()
        elif isinstance(image, ImageReader):
            iw, ih = image.getSize()
            scale = min(length / iw, box_h / ih)
            c.drawImage(image, x + (length - iw * scale) / 2, y - ih * scale / 2,
                        iw * scale, ih * scale, mask="auto")

    return icon
