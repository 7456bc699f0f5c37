"""Surface Action counters for one side: blanks, torpedo markers, turn, hit and fire counters.

Each function returns ``Piece`` objects for the shared imposition engine (and the PNG and
Tabletop Simulator exports). Turn, hit and fire counters are drawn from the face layouts
in ``tables/counters.yaml`` (``generator/pieces/faces.py``). Labels are fitted by the one rule
of ``generator/pages/autofit.py`` when a piece is made; a label that only fits by its last
resort is reported as a warning naming the piece (``Piece.warnings``).

Blanks and torpedo markers hide information from the opponent: a real formation blank
and a dummy are drawn by the *same* front art, and their numbers are dealt at random, so
neither the face, the number nor the invisible id on the sheet tells them apart. Only the
back, which the owner keeps to himself, says which is which.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.units import MM
from generator.pages.autofit import SAFE_INSET, Fitted, LabelFitter
from generator.pieces.faces import face_piece
from generator.pieces.pieces import Art, Piece
from generator.rulesets.surface_action.countertables import CounterTables, bundled_counters
from generator.rulesets.surface_action.derive import ShipView
from generator.rulesets.surface_action.schema import TorpedoFactors

INSET = SAFE_INSET * MM
"""Clearance kept between a label and the trim (a cut a hair inside must not bite it)."""
NAME_INSET = 1.3 * MM
"""Side clearance of the side's name: a long name set edge to edge looks cramped."""
HATCH_GREY = 0.85
GROUPS = ("blank", "torpedo", "turn", "hit", "fire")
"""Piece groups, in the order a side's sheet shows them (the sprue's regions use them)."""

# What the owner reads on the back (the rule text's instructions, in our own words).
BLANK_BACKS = {True: ("Formation", ("record its ships",)),
               False: ("Dummy", ("remove when", "sighted"))}
TORPEDO_BACKS = {True: ("Torpedoes", ("note firer,", "factors, target")),
                 False: ("Dummy", ("no torpedoes",))}


def side_nation(views: Sequence[ShipView]) -> str:
    """The navy most of a side's ships belong to (the first listed on a tie), or ''."""
    counts = Counter(v.nation for v in views)
    return counts.most_common(1)[0][0] if counts else ""


def reload_sets(torpedoes: TorpedoFactors | None) -> int:
    """Full reloads a ship carries: its reload factors over one full load, rounded up.

    A ship with ``4/4 (8)`` has one full reload (both broadsides once more); ``8 (4)``
    still needs a marker when the half reload is fired, hence rounding up.
    """
    if torpedoes is None or not torpedoes.reloads:
        return 0
    load = torpedoes.port + torpedoes.starboard if torpedoes.per_side else torpedoes.port
    return math.ceil(torpedoes.reloads / load) if load else 0


def has_torpedoes(view: ShipView) -> bool:
    """Whether the ship carries torpedo factors on either side."""
    return view.torpedoes is not None and view.torpedoes.bearing() > 0


def turn_legend(number: int, step_deg: int) -> str:
    """Degrees a turn counter stands for: ``3`` at 30° steps is ``61-90°``."""
    return f"{(number - 1) * step_deg + 1}-{number * step_deg}°"


def deal_numbers(real: int, dummies: int, rng: random.Random) -> dict[int, bool]:
    """Number 1..real+dummies at random: which numbers are real (True) and which dummies.

    Dealing at random keeps low numbers from marking the real formations (a side that
    numbered its real blanks first would give its dummies away by their numbers).

    Args:
        real: Real counters.
        dummies: Dummy counters.
        rng: The side's random source (seeded, so a kit is rebuilt identically).

    Returns:
        Each number mapped to True for a real counter, False for a dummy.

    """
    numbers = list(range(1, real + dummies + 1))
    rng.shuffle(numbers)
    return {n: i < real for i, n in enumerate(numbers)}


def _ground(c: Canvas, fill: Color, w: float, h: float, bleed: float) -> None:
    """The background, run out into the bleed."""
    c.setFillColor(fill)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)


def _middle_baseline(fitted: Fitted, centre: float) -> float:
    """Baseline that centres a line of figures or capitals on ``centre``.

    PT Sans capitals and figures stand about 0.7 em tall, so half of that below the
    centre puts the glyphs' middle on it.
    """
    return centre - 0.35 * fitted.size


@dataclass
class _Side:
    """Makes one side's counters: its colours, its name and the counter tables."""

    side_id: str
    side_name: str
    tables: CounterTables
    fill: Color
    ink: Color
    fitter: LabelFitter

    def fit(self, pid: str, text: str, font: str, size: float, width: float) -> Fitted:
        """Fit a label into ``width`` by the one rule (a last resort is warned about)."""
        return self.fitter.fit(pid, text, font, size, width)

    def colour_values(self) -> dict[str, str]:
        """The side's navy colours as face values."""
        return {"fill": self.fill.hexval().replace("0x", "#"),
                "ink": self.ink.hexval().replace("0x", "#")}

    def pid(self, kind: str, part: str = "") -> str:
        """A piece id: ``kind.side`` or ``kind.side.part``."""
        return f"{kind}.{self.side_id}" + (f".{part}" if part else "")

    # -- hidden counters: blanks and torpedo markers -----------------------------------

    def hidden(self, kind: str, real: int, dummies: int, rng: random.Random) -> list[Piece]:
        """Real and dummy counters of one kind with identical fronts, numbered at random."""
        width, height = getattr(self.tables.sizes, kind)
        total = real + dummies
        if not total:
            return []
        room = width - 2 * INSET
        # One side label for every counter of the kind: fronts must match to the letter.
        name = self.fit(self.pid(kind), self.side_name, fonts.NARROW_BOLD, 6.5,
                        width - 2 * NAME_INSET)
        backs = BLANK_BACKS if kind == "blank" else TORPEDO_BACKS
        pieces = []
        for number, is_real in sorted(deal_numbers(real, dummies, rng).items()):
            pid = self.pid(kind, str(number))
            big = self.fit(pid, str(number), fonts.BOLD, 22 if kind == "blank" else 17, room)
            front = (self.blank_front(name, big) if kind == "blank"
                     else self.torpedo_front(name, big))
            heading, legend = backs[is_real]
            back = self.hidden_back(pid, heading, str(number), legend, width, dummy=not is_real)
            # The title stays neutral too: manifests and warnings may be seen by others.
            title = f"{'Formation blank' if kind == 'blank' else 'Torpedo marker'} {number}"
            pieces.append(Piece(pid, title, width, height, front, back, 1, kind,
                                self.fitter.of([self.pid(kind), pid])))
        return pieces

    def blank_front(self, name: Fitted, number: Fitted) -> Art:
        """A formation blank's face: side name, number, a hull outline."""
        fill, ink = self.fill, self.ink

        def art(c: Canvas, w: float, h: float, bleed: float) -> None:
            _ground(c, fill, w, h, bleed)
            c.setFillColor(ink)
            name.draw(c, w / 2, name.top_baseline(h - INSET), "center")
            number.draw(c, w / 2, _middle_baseline(number, h * 0.5), "center")
            # A hull seen from above, bow right: says "ships" without saying how many.
            length, beam, y = w * 0.56, 2.2 * MM, INSET + 2.2 * MM
            x = (w - length) / 2
            path = c.beginPath()
            path.moveTo(x, y - beam / 2)
            path.lineTo(x + length * 0.78, y - beam / 2)
            path.curveTo(x + length * 0.92, y - beam / 2, x + length, y, x + length, y)
            path.curveTo(x + length, y, x + length * 0.92, y + beam / 2,
                         x + length * 0.78, y + beam / 2)
            path.lineTo(x, y + beam / 2)
            path.close()
            c.drawPath(path, stroke=0, fill=1)

        return art

    def torpedo_front(self, name: Fitted, number: Fitted) -> Art:
        """A torpedo marker's face: side name, a torpedo through the centre, number."""
        fill, ink = self.fill, self.ink

        def art(c: Canvas, w: float, h: float, bleed: float) -> None:
            _ground(c, fill, w, h, bleed)
            c.setFillColor(ink)
            c.setStrokeColor(ink)
            name.draw(c, w / 2, name.top_baseline(h - INSET), "center")
            number.draw(c, w / 2, number.bottom_baseline(INSET), "center")
            # The torpedo runs through the marker's centre, which the rules measure
            # arcs to (section VI.E); a dot in the ground colour marks that point.
            cy, dia = h / 2, 2.4 * MM
            left, right = w * 0.24, w - 2 * INSET
            c.roundRect(left, cy - dia / 2, right - left, dia, dia / 2, stroke=0, fill=1)
            c.setLineWidth(0.6)
            tail = left - 1.4 * MM
            c.line(tail, cy - dia * 0.75, tail, cy + dia * 0.75)   # propeller and fins
            c.line(tail, cy, left, cy)
            c.setLineWidth(0.5)
            c.setDash(1.2, 1.0)                                     # the wake
            c.line(INSET, cy, tail - 0.6 * MM, cy)
            c.setDash()
            c.setFillColor(fill)
            c.circle(w / 2, cy, 0.45 * MM, stroke=0, fill=1)

        return art

    def hidden_back(self, pid: str, heading: str, number: str, legend: tuple[str, ...],
                    width: float, dummy: bool) -> Art:
        """The owner's side: what the counter really is and what to do with it."""
        room = width - 2 * INSET
        head = self.fit(pid, heading, fonts.BOLD, 8, room)
        big = self.fit(pid, number, fonts.BOLD, 18, room)
        lines = [self.fit(pid, line, fonts.NARROW, 6, room) for line in legend]
        fill = self.fill

        def art(c: Canvas, w: float, h: float, bleed: float) -> None:
            _ground(c, white, w, h, bleed)
            if dummy:
                # Hatching tells the owner "dummy" at a glance, before reading anything.
                # Each 45° line x - y = k is cut to the trim box here rather than by a
                # clip path, so nothing drawn reaches past the cut line at all.
                # The box is inset by half the stroke, so the line's ends stay inside too.
                lw = 1.2
                e, bw, bh = lw / 2, w - lw, h - lw
                c.setStrokeGray(HATCH_GREY)
                c.setLineWidth(lw)
                step = 2.5 * MM
                k = -bh + step / 2
                while k < bw:
                    c.line(e + max(0.0, k), e + max(0.0, -k), e + min(bw, bh + k),
                           e + min(bh, bw - k))
                    k += step
            c.setFillColor(fill)
            head.draw(c, w / 2, head.top_baseline(h - INSET), "center")
            big.draw(c, w / 2, _middle_baseline(big, h * 0.53), "center")
            y = lines[-1].bottom_baseline(INSET) if lines else 0.0
            for line in reversed(lines):
                line.draw(c, w / 2, y, "center")
                y += line.size * 1.15

        return art

    # -- open counters: turns, hits, fires ---------------------------------------------

    def turn_pieces(self, ships: int) -> list[Piece]:
        """Turn counters 1..highest, one set per ship."""
        t = self.tables.turns
        count = ships * t.sets_per_ship
        if not count:
            return []
        layout = self.tables.faces.turn
        return [face_piece(layout, {**self.colour_values(), "number": number,
                                    "legend": turn_legend(number, t.step_deg)},
                           self.pid("turn", str(number)), f"Turn counter {number}", count,
                           "turn", self.fitter)
                for number in range(1, t.highest + 1)]

    def hit_pieces(self, views: Sequence[ShipView]) -> list[Piece]:
        """Hit markers by letter, as many as the ships that can take that hit need."""
        layout = self.tables.faces.hit
        pieces = []
        for letter, marker in self.tables.hit_markers.items():
            eligible = [v for v in views
                        if marker.only is None
                        or (marker.only == "torpedoes" and has_torpedoes(v))
                        or (marker.only == "carriers" and v.carrier)]
            count = marker.per_ship * len(eligible)
            if not count:
                continue
            values = {**self.colour_values(), "letter": letter, "meaning": marker.meaning}
            pieces.append(face_piece(layout, values, self.pid("hit", letter.lower()),
                                     f"{letter} hit marker", count, "hit", self.fitter))
        return pieces

    def fire_piece(self, ships: int) -> list[Piece]:
        """Fire markers: flame colours whatever the navy."""
        count = ships * self.tables.fire.per_ship
        if not count:
            return []
        return [face_piece(self.tables.faces.fire, self.colour_values(), self.pid("fire"),
                           "Fire marker", count, "fire", self.fitter)]


def side_counter_pieces(side_id: str, side_name: str, views: Sequence[ShipView], dummies: int,
                        torpedo_dummies: int, seed: int,
                        tables: CounterTables | None = None,
                        warnings: list[str] | None = None,
                        side_names: Iterable[str] = ()) -> list[Piece]:
    """Every counter one side needs, as pieces for the sheets.

    Args:
        side_id: The side's id (goes into each piece id: ``blank.<side>.7``).
        side_name: Printed on blanks and torpedo markers.
        views: The side's ships as they fight in the scenario.
        dummies: Dummy formation blanks the side may use.
        torpedo_dummies: Dummy torpedo markers the side may use.
        seed: Seeds the dealing of numbers to real and dummy counters (the same seed
            rebuilds the same kit).
        tables: Counter tables; the bundled ones by default.
        warnings: Where to add the label-fit warnings (each also rides on its piece,
            ``Piece.warnings``).
        side_names: Every side's name: a word of this side's name is cut to fit only
            where it tells no two sides apart.

    Returns:
        Formation blanks, torpedo markers, turn counters, hit markers and fire markers,
        in that order, each with its quantity and group.

    Raises:
        RenderError: A face layout declares a value the counters do not provide.

    """
    t = tables or bundled_counters()
    colours = t.colours(side_nation(views))
    fitter = LabelFitter([side_name, *side_names])
    side = _Side(side_id, side_name, t, HexColor(colours.fill), HexColor(colours.ink), fitter)
    rng = random.Random(seed)
    ships = len(views)
    armed = [v for v in views if has_torpedoes(v)]
    torpedo_real = (t.torpedoes.per_ship * len(armed)
                    + t.torpedoes.per_reload * sum(reload_sets(v.torpedoes) for v in armed))
    pieces = [
        *side.hidden("blank", t.blanks.per_ship * ships, dummies, rng),
        *side.hidden("torpedo", torpedo_real, torpedo_dummies, rng),
        *side.turn_pieces(ships),
        *side.hit_pieces(views),
        *side.fire_piece(ships),
    ]
    if warnings is not None:
        warnings.extend(fitter.warnings)
    return pieces
