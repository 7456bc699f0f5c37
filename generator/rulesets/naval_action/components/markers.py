"""NAVAL ACTION marker pieces: ships at 1:12,000 with silhouettes, and the pools.

Each function here returns ``Piece`` objects for the shared imposition engine (and the
PNG and Tabletop Simulator exports); the faces are drawn by ``generator/pieces/
shipmarkers.py``. Smoke, fire and damage markers are drawn from the face layouts in
``tables/markers.yaml`` (``generator/pieces/faces.py``); the damage marker's heavy-damage
back is derived from its front there. Labels are fitted by the one rule of
``generator/pages/autofit.py`` when the piece is made; a label that only fits by its last
resort is reported as a warning naming the piece.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from reportlab.lib.colors import Color, HexColor

from generator.core import fonts
from generator.core.units import MM
from generator.pages.autofit import LABEL_FLOOR, LabelFitter
from generator.pieces.faces import face_piece
from generator.pieces.pieces import Piece
from generator.pieces.shipmarkers import (
    BAR_GAP,
    INSET,
    Icon,
    aircraft_face,
    depth_track_face,
    pointer_face,
    previous_turn_face,
    ship_face,
    ship_icon,
    spread_face,
    stable_id,
    with_warnings,
)
from generator.pieces.silhouette import default_funnels
from generator.rulesets.naval_action.derive import ShipView
from generator.rulesets.naval_action.markers import SidePool, Spread, ship_slug
from generator.rulesets.naval_action.markertables import MarkerTables


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
        """The ship's id part, made unique and stable (``stable_id``; its class is its group)."""
        return stable_id(self._owners, ship_slug(view), view.cls.id, view.ship.name)

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
        icon = self._icon(view, length - bar, self.t.marker_ship.silhouette_beam)
        front = ship_face(fill, ink, bar, icon, name, klass)
        # A submarine's back shows her submerged (no top view).
        back = (ship_face(fill, ink, bar, icon, name, sub_note, submerged=True)
                if view.cls.type.value == "SS" else front)
        # The rule text suggests putting the marker's rear where the bow was, so the
        # previous-turn marker's stern edge carries the bar.
        previous = previous_turn_face(ink, bar, prev, prev_note)
        return with_warnings([
            Piece(f"ship.{sid}", f"{view.name} ({view.cls.name})", length, width, front, back,
                  1, "ship", ends="x"),
            Piece(f"prev.{sid}", f"{view.name} previous turn", length, width, previous,
                  previous, 1, "previous-turn", ends="x"),
        ], self.labels)

    def _icon(self, view: ShipView, length: float, beam: float) -> Icon:
        """Draws the ship's top view: the class's own image, else a generated silhouette."""
        batteries = [(b.position, b.turrets or b.guns) for b in view.batteries]
        catapults = view.cls.aircraft.catapults if view.cls.aircraft else 0
        funnels = (view.cls.funnels if view.cls.funnels is not None
                   else default_funnels(view.cls.type.value))
        return ship_icon(self.images.get(view.cls.id), length, beam, view.cls.type.value,
                         batteries, funnels, catapults)

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
        return with_warnings(pieces, self.labels)

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
            pieces.append(Piece(pid, f"{view.name} {battery.position} battery target",
                                width, height, pointer_face(fill, ink, height, name, what),
                                None, 1, "battery-target"))
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
        return Piece(pid, f"{nation} {info.name.lower()} element", width, height,
                     aircraft_face(fill, ink, code, flag, name), None, count, "aircraft")

    def spread_piece(self, spread: Spread, count: int) -> Piece:
        """A torpedo spread of ``spread.count`` torpedoes."""
        fill, ink = self.colours(spread.nation)
        width, height = self.t.marker_sizes.torpedo_spread
        pid = f"torpedo.{spread.nation.lower()}.{spread.size_in}in.{spread.count}"
        number = self.labels.fit(pid, str(spread.count), fonts.BOLD, 12, width * 0.64 - 3 * MM)
        size = self.labels.fit(pid, f"{spread.size_in}in", fonts.NARROW_BOLD, 6,
                               width - 2 * INSET)
        return Piece(pid, f"{spread.nation} {spread.size_in}in spread of {spread.count}",
                     width, height, spread_face(fill, ink, spread.count, number, size), None,
                     count, "torpedo-spread")

    def smoke_piece(self, count: int) -> Piece:
        """A smoke screen (face ``marker_faces.smoke``)."""
        return face_piece(self.t.marker_faces.smoke, {}, "smoke", "Smoke", count, "smoke",
                          self.labels)

    def burning_piece(self, count: int) -> Piece:
        """A ship on fire (face ``marker_faces.burning``)."""
        return face_piece(self.t.marker_faces.burning, {}, "burning", "Fire", count,
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
        return Piece(pid, f"{view.name} depth track", width, height,
                     depth_track_face(fill, ink, name, boxes, marks, crush, crush_note), None,
                     1, "depth-track")
