"""Scenario data sheets: one row per ship with its factors, and a Hits section to mark.

The rule text has each scenario print ship data and a "Hits" section where damage is
noted; this is that sheet, landscape, one row per ship, with tick boxes for P, M, S, T, F
and A hits sized by what each can do (the third P sinks, the fifth F abandons).
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.units import MM
from generator.pages import wordwrap
from generator.pages.component import Component
from generator.pages.furniture import Furniture
from generator.pages.layout import Paper, Pen
from generator.pages.pages import Block, Document, Recorded
from generator.rulesets.surface_action.charts import Charts
from generator.rulesets.surface_action.components.aids import inches_text
from generator.rulesets.surface_action.derive import ShipView

ROW = 12.5 * MM
HEAD = 9 * MM
BOX = 3.4 * MM
GAP = 0.7 * MM
LETTER_W = 3.0 * MM
MAX_SCALE = 1.45
"""The most a short roster is enlarged (7.5 pt body type becomes about 11 pt)."""
MAX_NOTES = 60 * MM
"""The most height a ship's notes lines take."""
NOTES_STEP = 7 * MM
"""Distance between ruled notes lines."""
STACKED_BOX = 5.0 * MM
"""The largest Hits box, when the boxes have a line of their own."""
HITS_LEGEND = "Hits: P speed · M main guns · S other guns · T torpedoes · F fires · A flight deck"
SHADE = colors.Color(0.94, 0.94, 0.94)
HEAD_BG = colors.Color(0.2, 0.2, 0.2)
COLUMNS: list[tuple[str, float]] = [
    ("Ship", 40), ("Guns: weapon, bow-side-stern", 40), ("Torpedoes", 25), ("Size", 9),
    ("Armor", 9), ("Speed", 15), ("Fire ctl", 12), ("DC", 7), ("Night", 8), ("Radar", 9),
    ("Form.", 10),
]
"""Column titles and widths in mm; the Hits section takes the rest of the line."""


def hit_boxes(view: ShipView, charts: Charts) -> list[tuple[str, int]]:
    """Hit letters and how many boxes each needs on this ship's row."""
    limits = charts.thresholds
    p = max(limits.sinks.get("P", 3), limits.crippled.get("P", 2))
    f = max(limits.abandoned.get("F", 5), limits.crippled.get("F", 3))
    boxes = [("P", p), ("M", 2), ("S", 2)]
    if view.torpedoes is not None:
        boxes.append(("T", 2))
    boxes.append(("F", f))
    if view.carrier:
        boxes.append(("A", 2))
    return boxes


def _cells(view: ShipView) -> list[list[str]]:
    """One ship's cells, column by column, with the ratings set by hand it was given."""
    from generator.rulesets.surface_action.components.briefing import rating_words

    guns = [f"{b.weapon} {b.arcs}" + (" sec" if b.role == "secondary" else "")
            for b in view.batteries] or ["—"]
    torps = [f"{view.torpedo_weapon}", str(view.torpedoes)] if view.torpedoes else ["—"]
    night = f"{view.night_sighting}" + ("*" if view.night_default else "")
    return [
        # Which ratings a class file set by hand is for a class proof's reader: a
        # scenario's sheets are given views without them (the referee's briefing has them).
        [view.name, f"{view.cls.name} {view.type} · {view.nation}",
         *([f"set by hand: {', '.join(rating_words(f) for f in view.overrides)}"]
           if view.overrides else [])],
        guns, torps, [f"{view.gun_size}/{view.torpedo_size}"], [f"{view.armor:+d}"
                                                               if view.armor else "0"],
        [f"{inches_text(view.speed_in, unit=False)} in", f"{view.speed_kn:g} kn"],
        [view.fire_control], [str(view.damage_control)], [night],
        [f"{view.radar_in:g} in" if view.radar_in else "—"],
        [view.formation or "—", *(["flagship"] if view.flagship else [])],
    ]


def render_data_sheet(views: Sequence[ShipView], charts: Charts, paper: Paper, title: str,
                      footer: str, key: str, label: str) -> Component:
    """One side's scenario data sheet (landscape pages, ships in roster order).

    Args:
        views: The side's ships.
        charts: Rule numbers (hit thresholds, turning costs).
        paper: Paper size.
        title: Page heading, e.g. "Data sheet: Task Force 64".
        footer: Footer text.
        key: Component key.
        label: Page-label prefix.

    """
    doc = Document(paper, title, Furniture(
        footer, heading=title, heading_size=13, heading_drop=5 * MM,
        running="Mark each hit as it is resolved; a damage-control success clears one box."),
        landscape=True)
    # A short roster is set larger, to fill its page: the largest scale (up to
    # MAX_SCALE) at which every row still fits on one page; a long one stays at 1.
    room, width = doc.room, doc.box.width
    scale = 1.0
    if _height(views, charts, width, 1.0) <= room:
        low, high = 1.0, MAX_SCALE
        for _ in range(12):
            mid = (low + high) / 2
            low, high = (mid, high) if _height(views, charts, width, mid) <= room else (low, mid)
        scale = low
    # What room is left goes to each ship's notes line (damage, orders, who fired).
    extra = 0.0
    if scale > 1.0:
        spare = room - _height(views, charts, width, scale) - 2 * MM
        extra = max(0.0, min(MAX_NOTES, spare / max(len(views), 1)))
    doc.add(SheetRows(list(views), charts, scale, extra))
    pdf, pages = doc.finish()
    return Component(key, title, label, pdf, pages)


class SheetRows:
    """The ship rows under the column heads, with the notes: splits between ships.

    Every page's part repeats the column heads and the notes; each part is a recorded
    block, so the rows a page takes are chosen by the height they are drawn at.
    """

    def __init__(self, views: list[ShipView], charts: Charts, scale: float = 1.0,
                 extra: float = 0.0) -> None:
        self.views = views
        self.charts = charts
        self.scale = scale
        self.extra = extra
        self._block = self._part(views)

    def _part(self, views: list[ShipView]) -> Recorded:
        return Recorded(lambda c, w: _paint_rows(c, w, views, self.charts, self.scale,
                                                 self.extra))

    def wrap(self, width: float) -> float:
        """Heads, every row and the notes."""
        return self._block.wrap(width)

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Replay the recorded part."""
        self._block.draw(canvas, x, top)

    def split(self, width: float, height: float, fresh: bool) -> tuple[Block, Block] | None:
        """The most ships that fit in ``height`` (at least one on a fresh page)."""
        for count in range(len(self.views) - 1, 0, -1):
            part = self._part(self.views[:count])
            if part.wrap(width) <= height:
                return part, SheetRows(self.views[count:], self.charts, self.scale,
                                       self.extra)
        if fresh and len(self.views) > 1:
            return self._part(self.views[:1]), SheetRows(self.views[1:], self.charts,
                                                         self.scale, self.extra)
        return None


def _height(views: Sequence[ShipView], charts: Charts, width: float, scale: float) -> float:
    """The height every row and the notes take at ``scale``."""
    return Recorded(lambda c, w: _paint_rows(c, w, views, charts, scale)).wrap(width)


def _paint_rows(c: Canvas, width: float, chunk: Sequence[ShipView], charts: Charts,
                scale: float = 1.0, extra: float = 0.0) -> float:
    """Column heads, one row per ship and the notes, top-left at (0, 0); returns the height.

    At ``scale`` 1 the Hits boxes end each ship's line. Above 1 (a short roster that
    would leave its page mostly empty) the columns spread across the whole width, the
    type grows by ``scale`` and the Hits boxes get a line of their own under the ship;
    ``extra`` adds a ruled notes line of that height to each ship.
    """
    pen = Pen(c)
    stacked = scale > 1.0
    k = scale
    widths = [w * MM for _, w in COLUMNS]
    if stacked:
        spread = width / sum(widths)
        widths = [w * spread for w in widths]
    hits_x = 0.0 if stacked else sum(widths)
    right = width
    head_h = HEAD * k
    text_h = (4.2 + 3.6 * 2) * MM * k + 1.2 * MM
    side_max = min(BOX * k, STACKED_BOX) if stacked else BOX
    hits_h = side_max + 3.2 * MM if stacked else 0.0
    row_h = text_h + hits_h + extra if stacked else ROW
    y = 0.0
    c.setFillColor(HEAD_BG)
    c.rect(0, y - head_h, width, head_h, stroke=0, fill=1)
    c.setFillColor(colors.white)
    x = 0.0
    for (name, _), w in zip(COLUMNS, widths, strict=True):
        pen.text(x + 1 * MM, y - 5.6 * MM * k, name, size=7.5 * k, bold=True, narrow=True,
                 width=w - 2 * MM)
        x += w
    if not stacked:
        pen.text(hits_x + 1 * MM, y - 5.6 * MM, HITS_LEGEND, size=7, bold=True, narrow=True,
                 width=right - hits_x - 2 * MM)
    c.setFillColor(colors.black)
    y -= head_h
    for index, view in enumerate(chunk):
        if index % 2:
            c.setFillColor(SHADE)
            c.rect(0, y - row_h, width, row_h, stroke=0, fill=1)
            c.setFillColor(colors.black)
        x = 0.0
        for column, (lines, w) in enumerate(zip(_cells(view), widths, strict=True)):
            for i, line in enumerate(lines[:3]):
                pen.text(x + 1 * MM, y - (4.2 + 3.6 * i) * MM * k, line,
                         size=(8.5 if column == 0 and i == 0 else 7.5) * k,
                         bold=column == 0 and i == 0, narrow=column > 0 or i > 0,
                         width=w - 2 * MM)
            x += w
        bx = hits_x + 1 * MM
        wanted = hit_boxes(view, charts)
        letter_w = LETTER_W * (k if stacked else 1.0)
        # Boxes shrink (never below 2.6 mm) so the widest row fits Letter and A4 alike.
        room = right - bx - len(wanted) * (letter_w + 1.2 * MM) - (22 * MM if stacked else 0)
        side = max(2.6 * MM, min(side_max, room / sum(n for _, n in wanted) - GAP))
        box_top = y - text_h - 1.2 * MM if stacked else y - 4.6 * MM
        if stacked:
            pen.text(bx, box_top - side + 0.6 * MM, "Hits", size=8 * k, bold=True)
            bx += 12 * MM
        for letter, count in wanted:
            pen.text(bx, box_top - side + 0.6 * MM, letter, size=8 * (k if stacked else 1),
                     bold=True)
            bx += letter_w
            pen.boxes(bx, box_top, count, side, GAP, count)
            bx += count * (side + GAP) + 1.2 * MM * (3 if stacked else 1)
        if stacked and extra >= NOTES_STEP:
            # ruled lines to write on, one every NOTES_STEP up from the row's foot
            c.setStrokeColor(colors.Color(0.6, 0.6, 0.6))
            c.setLineWidth(0.3)
            ruled = int(extra // NOTES_STEP)
            for n in range(ruled):
                c.line(14 * MM, y - row_h + 2 * MM + n * NOTES_STEP, right - 1 * MM,
                       y - row_h + 2 * MM + n * NOTES_STEP)
            pen.text(1 * MM, y - row_h + 2.8 * MM + (ruled - 1) * NOTES_STEP, "Notes",
                     size=7.5 * k, narrow=True)
        c.setStrokeColor(colors.Color(0.7, 0.7, 0.7))
        c.setLineWidth(0.3)
        c.line(0, y - row_h, right, y - row_h)
        c.setStrokeColor(colors.black)
        y -= row_h
    move = charts.movement
    small, small_cost = move.small_circle_in, move.small_cost_in
    large, large_cost = move.large_circle_in, move.large_cost_in
    limits = charts.thresholds
    notes = [
        "Guns: dice into the 60° bow arc, either 120° broadside arc and the 60° stern arc; "
        "'sec' marks other (secondary) batteries, lost to S hits and able to fire "
        "starshell. Size: gunfire/torpedo target size. Armor is added to a hitting "
        "weapon's power.",
        f"Speed: inches per turn (1 in = {charts.movement.knots_per_in:g} kn); a formation "
        f"moves ½ in slower than its slowest ship. Turns: {small:g}-in circle, "
        f"{inches_text(small_cost, unit=False)} in per 30° (BB and BC: {large:g}-in circle, "
        f"{inches_text(large_cost, unit=False)} in). Night * = quarterdeck default "
        "value (the text's figure is illegible).",
        f"{limits.crippled.get('P', 2)} P or {limits.crippled.get('F', 3)} F: no guns, "
        f"torpedoes or aircraft. {limits.sinks.get('P', 3)} P: sinks. "
        f"{limits.abandoned.get('F', 5)} F: abandoned.",
    ]
    if scale > 1.0:
        notes.insert(0, HITS_LEGEND + ".")
    y -= 5 * MM * k
    for note in notes:
        for line in wordwrap.lines(note, fonts.NARROW, 7.5 * k, width):
            pen.text(0, y, line, size=7.5 * k, narrow=True)
            y -= 3.6 * MM * k
    return -y
