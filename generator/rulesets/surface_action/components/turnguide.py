"""Surface Action's cut-out turn guides, printed at the table's scale.

One card per turning circle (large and small ships), a mark for each turn step with its
cost, so a player turns a ship by laying the card against it. Every number comes from
``tables/charts.yaml`` through ``Charts``; ``generator.aids.gauges`` places points by
bearing and ``generator.pages.calibration`` prints the check bars.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.aids.gauges import point
from generator.aids.strips import (
    start_page,
)
from generator.core import fonts
from generator.core.units import INCH, MM
from generator.pages.component import Bookmark, Component
from generator.pages.layout import Paper, Pen, SafeBox, new_canvas, safe_box
from generator.rulesets.surface_action.charts import Charts
from generator.rulesets.surface_action.components.aids import inches_text
from generator.rulesets.surface_action.schema import BIG_TURNERS

# -- turn guides -------------------------------------------------------------------------------

GUIDE_TINT = colors.Color(0.93, 0.95, 0.99)
"""A faint fill inside the circle, so the path the bow follows stands out on the card."""
TICK_IN = 1.5 * MM
"""How far a 30° mark reaches inside the circle."""
TICK_OUT = 2.5 * MM
"""How far it reaches outside, towards its label."""
LABEL_CLEAR = 0.8 * MM
"""Gap between a mark's end and its label block."""
CARD_MARGIN = 1.8 * MM
"""Paper between the outermost label and the card's cut line."""
DEGREE_SIZE = 8.0
COST_SIZE = 7.0
COUNTER_SIZE = 7.0
LINE_PITCH = 3.0 * MM
COUNTER_BOX = 3.4 * MM
"""Side of the little square drawn round the turn-counter number (it looks like the counter)."""
COUNTER_PITCH = LINE_PITCH + 0.9 * MM
"""Cost baseline to counter baseline: the box's top must not read as an underline."""
CARD_GAP = 2.5 * MM
"""Space between cards: room to cut each one out along its own line."""


@dataclass(frozen=True)
class TurnMark:
    """One 30° mark on a turn guide.

    Attributes:
        degrees: Total turn from the start mark.
        cost_in: Movement used so far, in inches.
        counter: Turn counter to leave behind (degrees ÷ 30, fractions up).

    """

    degrees: int
    cost_in: float
    counter: int


@dataclass(frozen=True)
class Guide:
    """One turning circle as printed.

    Attributes:
        name: ``small`` or ``large``.
        diameter_in: The circle's diameter in inches (printed at exactly this size).
        cost_in: Movement per step of turn.
        step_deg: Degrees per step (30).
        users: Who uses it, printed in the circle (``BB, BC only``).
        marks: The marks, from the first step round to the full circle.

    """

    name: str
    diameter_in: float
    cost_in: float
    step_deg: int
    users: str
    marks: tuple[TurnMark, ...]

    @property
    def radius(self) -> float:
        """Radius on paper, in points."""
        return self.diameter_in * INCH / 2


def turn_marks(step_deg: int, cost_in: float) -> tuple[TurnMark, ...]:
    """The marks round a whole circle: every ``step_deg`` up to 360°.

    Args:
        step_deg: Degrees per step of turn.
        cost_in: Movement each step uses.

    Returns:
        One mark per step, the last at 360° (back on the start mark).

    Raises:
        ValueError: When the step does not divide the circle evenly.

    """
    if step_deg <= 0 or 360 % step_deg:
        raise ValueError(f"expected a turn step that divides 360°, found {step_deg}°")
    # A mark sits on a whole step, so "degrees ÷ step, fractions up" is just the step count;
    # the division is kept so the counter reads as the rule defines it.
    return tuple(TurnMark(k * step_deg, k * cost_in, math.ceil(k * step_deg / step_deg))
                 for k in range(1, 360 // step_deg + 1))


def guides(charts: Charts) -> tuple[Guide, Guide]:
    """The large and the small circle, with their marks and who turns on each."""
    move = charts.movement
    big = ", ".join(sorted(t.value for t in BIG_TURNERS))
    return (Guide("large", move.large_circle_in, move.large_cost_in, move.turn_step_deg,
                  f"{big} only", turn_marks(move.turn_step_deg, move.large_cost_in)),
            Guide("small", move.small_circle_in, move.small_cost_in, move.turn_step_deg,
                  f"all but {big}", turn_marks(move.turn_step_deg, move.small_cost_in)))


@dataclass(frozen=True)
class _Block:
    """Size of a mark's label: three centred lines (degrees, cost, boxed counter)."""

    half_width: float
    half_height: float


def _block(guide: Guide) -> _Block:
    """One block size for every mark of a guide, so the labels sit in an even ring."""
    widest = max(max(fonts.string_width(f"{m.degrees}°", fonts.BOLD, DEGREE_SIZE),
                     fonts.string_width(inches_text(m.cost_in), fonts.REGULAR, COST_SIZE),
                     COUNTER_BOX) for m in guide.marks)
    # from the top of the degree line's capitals to the bottom of the counter box
    return _Block(widest / 2, (LINE_PITCH + COUNTER_PITCH + COUNTER_BOX / 4 + 0.7 * DEGREE_SIZE)
                  / 2)


def _label_distance(guide: Guide, block: _Block, bearing: float) -> float:
    """Centre-to-label distance that keeps a label block just clear of its mark.

    The block's reach along the ray is its support distance, ``w|sin| + h|cos|``; adding
    it to the mark's end keeps every block the same small gap from the circle whatever
    the bearing, which packs twelve labels round a 1¼ in circle without overlap.
    """
    rad = math.radians(bearing)
    reach = block.half_width * abs(math.sin(rad)) + block.half_height * abs(math.cos(rad))
    return guide.radius + TICK_OUT + LABEL_CLEAR + reach


def _start_bearing(right: bool) -> float:
    """Where the start mark sits: the ship heads up the card with the centre on its turn side.

    A right turn keeps the centre to starboard, so the bow starts at 9 o'clock and runs
    clockwise; a left turn starts at 3 o'clock and runs anticlockwise.
    """
    return 270.0 if right else 90.0


def mark_bearing(degrees: float, right: bool) -> float:
    """Bearing on the card (clockwise from up) of the mark for a turn of ``degrees``."""
    return (_start_bearing(right) + (degrees if right else -degrees)) % 360


def card_size(guide: Guide) -> float:
    """Side of the square card a guide is cut from: labels all round, plus a margin."""
    block = _block(guide)
    reach = 0.0
    for right in (True, False):
        for m in guide.marks:
            bearing = mark_bearing(m.degrees, right)
            x, y = point(0, 0, _label_distance(guide, block, bearing), bearing)
            reach = max(reach, abs(x) + block.half_width, abs(y) + block.half_height)
    return 2 * (reach + CARD_MARGIN)


def draw_guide(c: Canvas, guide: Guide, x: float, y: float, right: bool) -> None:
    """One turn guide on its square card, the bottom-left corner at ``(x, y)``.

    Args:
        c: The canvas.
        guide: The circle to draw.
        x: Card's left edge.
        y: Card's bottom edge.
        right: A right-turn guide (clockwise) or a left-turn one.

    """
    pen = Pen(c)
    side = card_size(guide)
    cx, cy, r = x + side / 2, y + side / 2, guide.radius
    c.saveState()
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.5)
    c.rect(x, y, side, side, stroke=1, fill=0)
    c.setFillColor(GUIDE_TINT)
    c.setLineWidth(0.9)
    c.circle(cx, cy, r, stroke=1, fill=1)
    block = _block(guide)
    for m in guide.marks:
        bearing = mark_bearing(m.degrees, right)
        # The start (and full-circle) mark is heavier: it is where the bow goes first.
        c.setLineWidth(1.1 if m.degrees == 360 else 0.6)
        c.setStrokeColor(colors.black)
        x0, y0 = point(cx, cy, r - TICK_IN, bearing)
        x1, y1 = point(cx, cy, r + TICK_OUT, bearing)
        c.line(x0, y0, x1, y1)
        lx, ly = point(cx, cy, _label_distance(guide, block, bearing), bearing)
        _mark_label(c, pen, m, lx, ly, block)
    _direction_arrow(c, cx, cy, r - TICK_IN - 1.6 * MM, right)
    _inner_text(pen, guide, cx, cy, right)
    c.restoreState()


def _mark_label(c: Canvas, pen: Pen, mark: TurnMark, x: float, y: float, block: _Block) -> None:
    """Degrees, movement used and the boxed counter number, centred on ``(x, y)``."""
    c.setFillColor(colors.black)
    top = y + block.half_height
    first = top - 0.7 * DEGREE_SIZE  # baseline under the capitals
    pen.text(x, first, f"{mark.degrees}°", size=DEGREE_SIZE, bold=True, align="center")
    pen.text(x, first - LINE_PITCH, inches_text(mark.cost_in), size=COST_SIZE,
             align="center")
    base = first - LINE_PITCH - COUNTER_PITCH
    c.setLineWidth(0.4)
    c.rect(x - COUNTER_BOX / 2, base - 0.25 * COUNTER_BOX, COUNTER_BOX, COUNTER_BOX,
           stroke=1, fill=0)
    pen.text(x, base + 0.1 * MM, str(mark.counter), size=COUNTER_SIZE, bold=True,
             narrow=True, align="center")


def _direction_arrow(c: Canvas, cx: float, cy: float, radius: float, right: bool) -> None:
    """A curved arrow inside the rim from the start mark, the way the bow travels."""
    start = _start_bearing(right)
    sweep = 40.0 if right else -40.0
    c.setStrokeColor(colors.black)
    c.setFillColor(colors.black)
    c.setLineWidth(0.8)
    path = c.beginPath()
    # ReportLab's arcs run anticlockwise from the x axis, so bearing b is angle 90 - b.
    path.arc(cx - radius, cy - radius, cx + radius, cy + radius, 90 - start, -sweep)
    c.drawPath(path, stroke=1, fill=0)
    end = start + sweep
    tx, ty = point(cx, cy, radius, end)
    # Travel is tangent to the circle: a quarter turn on from the radius, the way it turns.
    ahead = end + (90 if right else -90)
    hx, hy = point(tx, ty, 1.6 * MM, ahead)
    ox, oy = point(0, 0, 0.9 * MM, end)
    head = c.beginPath()
    head.moveTo(hx, hy)
    head.lineTo(tx + ox, ty + oy)
    head.lineTo(tx - ox, ty - oy)
    head.close()
    c.drawPath(head, stroke=0, fill=1)


def _inner_text(pen: Pen, guide: Guide, cx: float, cy: float, right: bool) -> None:
    """Which way, which circle, who uses it and what a step costs, centred in the circle."""
    lines = [("RIGHT TURN" if right else "LEFT TURN", 8.0, True),
             (f"{inches_text(guide.diameter_in)} circle", 7.0, False),
             (guide.users, 7.0, True),
             (f"{inches_text(guide.cost_in)} per {guide.step_deg}°", 7.0, False)]
    # the chord at the outermost line's height limits every line's width
    room = 2 * math.sqrt((guide.radius - TICK_IN - 3.2 * MM) ** 2 - (2.2 * MM) ** 2)
    pen.c.setFillColor(colors.black)
    top = cy + 1.5 * LINE_PITCH
    for i, (text, size, bold) in enumerate(lines):
        pen.text(cx, top - i * LINE_PITCH - 0.35 * size, text, size=size, bold=bold,
                 narrow=True, align="center", width=room)


def guide_notes(large: Guide, small: Guide) -> list[str]:
    """The how-to lines under the heading, with the charts' own circles in them."""
    big = " and ".join(sorted(t.value for t in BIG_TURNERS))
    return [
        f"Cut out each card on its outline. {big} turn on the {inches_text(large.diameter_in)}"
        f" circle, every other type on the {inches_text(small.diameter_in)} one; use a RIGHT "
        "or LEFT card for the way the ship turns.",
        "Lay the card on the turning side, its circle touching the bow at the heavy 360° mark "
        "(the start) with the arrow along the course, and slide the bow round the circle.",
        "Where it stops, the mark reads the total turn, the move it has used and, boxed, the "
        "turn counter to leave; stopping between marks costs the next mark.",
    ]


def _guide_layout(charts: Charts, box: SafeBox) -> list[list[tuple[Guide, bool]]]:
    """Rows of cards: both large guides, then small ones, as many as fill the row widths."""
    large, small = guides(charts)
    rows: list[list[tuple[Guide, bool]]] = []
    for guide in (large, small):
        per_row = max(2, int((box.width + CARD_GAP) // (card_size(guide) + CARD_GAP)))
        # Two rows of small cards: the commonest circle gets the spares. Right and left
        # alternate across the rows too, so there are as many of each as can be.
        count = per_row * (1 if guide is large else 2)
        cards = [(guide, i % 2 == 0) for i in range(count)]
        rows += [cards[i:i + per_row] for i in range(0, count, per_row)]
    return rows


def render_turn_guide(charts: Charts, paper: Paper, footer: str) -> Component:
    """Cut-out turn guides for both circles at exact size (component ``turn-guide``).

    Args:
        charts: The charts; ``movement`` gives the circles, costs and the step.
        paper: ``a4`` or ``letter``.
        footer: Small print at the top right of every page (kit and scale).

    Returns:
        The component: right- and left-turn cards for each circle, with calibration bars.

    """
    box = safe_box(paper)
    buffer = io.BytesIO()
    title = "Turn guides"
    c = new_canvas(buffer, paper, title)
    bookmarks = [Bookmark(title, 0)]
    page = 0
    top, floor = start_page(c, box, title, footer, guide_notes(*guides(charts)))
    y = top - 2 * MM
    for row in _guide_layout(charts, box):
        side = card_size(row[0][0])
        if y - side < floor:
            c.showPage()
            page += 1
            top, floor = start_page(c, box, f"{title} (continued)", footer)
            y = top - 2 * MM
        # a row is centred, so the cut margin is even on both sides of the page
        width = len(row) * side + (len(row) - 1) * CARD_GAP
        x = box.x + (box.width - width) / 2
        for guide, right in row:
            draw_guide(c, guide, x, y - side, right)
            x += side + CARD_GAP
        y -= side + CARD_GAP
    c.showPage()
    c.save()
    return Component("turn-guide", title, "Turns-", buffer.getvalue(), page + 1, bookmarks,
                     cut_out=True)
