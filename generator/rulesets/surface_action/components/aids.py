"""Surface Action precision aids on paper: cut-out turn guides and the range and speed ruler.

Both are printed at the table's own scale, 1 in of paper per inch of table (72 pt), and
every number on them comes from ``tables/charts.yaml`` through ``Charts``: a house rule
that changes a turning circle or a cost changes the guide with it. The shared modules do
the paper work: ``generator.aids.strips`` splits and joins the ruler, ``generator.aids.gauges``
places points by bearing and ``generator.pages.calibration`` prints the check bars.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.aids.gauges import point
from generator.aids.strips import (
    BAND_Y,
    Band,
    Extra,
    Mark,
    SegmentView,
    Strip,
    render_strips,
    start_page,
)
from generator.core import fonts
from generator.core.scales import Scale, parse_scale
from generator.core.units import INCH, MM
from generator.pages.component import Bookmark, Component
from generator.pages.layout import Paper, Pen, SafeBox, new_canvas, safe_box
from generator.rulesets.surface_action.charts import Charts
from generator.rulesets.surface_action.schema import BIG_TURNERS

# -- shared ------------------------------------------------------------------------------------

_FRACTIONS = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}


def inches_text(inches: float, unit: bool = True) -> str:
    """A length as players write it: ``½ in``, ``1½ in``, ``3 in``, ``1.1 in`` otherwise.

    Args:
        inches: The length.
        unit: Append `` in``.

    Returns:
        The text.

    """
    exact = Fraction(inches).limit_denominator(64)
    whole, part = divmod(exact, 1)
    if part in _FRACTIONS and abs(float(exact) - inches) < 1e-9:
        text = (str(whole) if whole or not part else "") + _FRACTIONS[part]
    else:
        text = f"{inches:g}"
    return text + (" in" if unit else "")


def yards_text(scale: Scale) -> str:
    """Yards per inch with a thousands comma (``1,000``), as the rest of the kit prints it."""
    return f"{scale.yards_per_unit:,.0f}" if scale.yards.denominator == 1 else scale.yards_text()


def table_scale(charts: Charts) -> Scale:
    """The table's ground scale (1,000 yd per inch in the text), as ``generator.core.scales`` says.

    Reading yards through ``Scale`` keeps this ruler's yard labels in step with every other
    ruler the kit prints.
    """
    return parse_scale(f"{charts.movement.yards_per_in} yards per in")


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


# -- range ruler and speed scale ---------------------------------------------------------------

RULER_HEIGHT = 26 * MM
"""Ticks and inch numbers on top, a yards row, the rule marks' row, then the bands."""
YARDS_Y = 12.4 * MM
"""Baseline of the yards row, up from the strip's bottom."""
RULE_MARK_Y = 8.4 * MM
"""Baseline of a rule mark's label, just above the range bands."""
RULE_INK = colors.Color(0.75, 0.1, 0.1)
BAND_TINTS = (colors.Color(0.78, 0.88, 0.97), colors.Color(0.98, 0.9, 0.62))
YARDS_EVERY = 2000
"""Yards labels every 2,000 yd: every inch already reads as thousands of yards."""
GENERIC_SPEED_IN = 8.0
"""A speed scale with no ships runs to 8 in (48 kn), the fastest the class schema allows."""
SPEED_ROW = 3.4 * MM
"""Height of one row of ship labels under the speed scale."""
KNOTS_Y = 12.4 * MM
"""Knots row, down from the speed strip's top edge."""
SHIP_TOP = 14.0 * MM
"""Where ship leader lines start, down from the top (clear of the knots row)."""
QUARTER = INCH / 4

RULER_NOTES = (
    "Cut each strip on its outline. Glue every numbered piece's grey tab under the end of "
    "the piece before it, the cut edge on the join line and the triangles meeting.",
    "Measure from 0 at the firing ship. The coloured bands are the weapons table's range "
    "bands; red lines mark where a rule changes with range.",
)


@dataclass(frozen=True)
class RuleMark:
    """A range at which a rule changes, drawn as a red line with a label above the bands."""

    at_in: float
    label: str


def _rule_marks(charts: Charts) -> list[RuleMark]:
    """The night-gunfire limit and every damage chart's long-range limit (once each)."""
    gun = charts.gunfire
    marks = [RuleMark(gun.night_penalty_beyond_in,
                      f"beyond {inches_text(gun.night_penalty_beyond_in)}: night hit value "
                      f"−{gun.night_penalty}")]
    seen: set[tuple[float, int]] = set()
    for chart in charts.damage_charts.values():
        far = chart.long_range
        if far is None or (far.beyond_in, far.modifier) in seen:
            continue
        seen.add((far.beyond_in, far.modifier))
        marks.append(RuleMark(far.beyond_in, f"beyond {inches_text(far.beyond_in)}: damage "
                              f"roll {far.modifier:+d}".replace("-", "−")))
    return marks


def _quarter_marks(length_in: float, labelled: bool = True) -> list[Mark]:
    """Ticks every ¼ in, longer at ½ in, longest and numbered at each whole inch.

    A length off the quarter-inch grid gets a last mid tick at its exact end, so the
    ruled length is always the length asked for.
    """
    marks = []
    steps = math.floor(length_in * 4 + 1e-9)
    for q in range(steps + 1):
        at = q * QUARTER
        if q % 4 == 0:
            marks.append(Mark(at, "major", f"{q // 4}" if labelled else ""))
        else:
            marks.append(Mark(at, "mid" if q % 2 == 0 else "minor"))
    if length_in * 4 - steps > 1e-9:
        marks.append(Mark(length_in * INCH, "mid"))
    return marks


def _fits(view: SegmentView, left: float, right: float) -> bool:
    """Whether text from ``left`` to ``right`` lies wholly on the piece's body (not its tab)."""
    return view.x(view.start) + 0.5 * MM <= left and right <= view.x(view.end) - 0.5 * MM


def _on_body(view: SegmentView, at: float) -> bool:
    return view.start - 1e-6 <= at <= view.end + 1e-6


def _tick_label(pen: Pen, view: SegmentView, at: float, y: float, text: str) -> None:
    """A 7 pt label under a tick: centred, or flush to the tick where a join is too close.

    A label straddling a join would be lost (clipped on one piece, hidden under the glue
    on the other), so near a cut edge it runs away from the edge instead.
    """
    if not _on_body(view, at):
        return
    x, wide = view.x(at), fonts.string_width(text, fonts.NARROW, 7)
    for left, align, anchor in ((x - wide / 2, "center", x), (x + 0.4 * MM, "left", x + 0.4 * MM),
                                (x - 0.4 * MM - wide, "right", x - 0.4 * MM)):
        if _fits(view, left, left + wide):
            pen.text(anchor, y, text, size=7, narrow=True, align=align)
            return


def _range_extra(scale: Scale, length_in: float, rules: Sequence[RuleMark],
                 bands: Sequence[tuple[Band, str]]) -> Extra:
    """Drawing the strip module leaves to the ruleset: band names, yards and rule marks."""
    def draw(c: Canvas, view: SegmentView, start: float, end: float) -> None:
        pen = Pen(c)
        for band, name in bands:
            lo, hi = view.x(max(band.start, view.start)), view.x(min(band.end, view.end))
            wide = fonts.string_width(name, fonts.NARROW, 7)
            if hi - lo >= wide + 2 * MM:
                c.setFillColor(colors.black)
                pen.text(lo + 1 * MM, view.bottom + BAND_Y + 0.8 * MM, name, size=7,
                         narrow=True)
        yards = 0
        c.setFillColor(colors.black)
        while scale.yards_to_points(yards) <= length_in * INCH + 1e-6:
            _tick_label(pen, view, scale.yards_to_points(yards), view.bottom + YARDS_Y,
                        f"{yards:,} yd")
            yards += YARDS_EVERY
        for rule in rules:
            at = rule.at_in * INCH
            if not start - 1e-6 <= at <= end + 1e-6:
                continue
            x = view.x(at)
            on_tab = at < view.start - 1e-6
            c.setStrokeColor(colors.Color(0.6, 0.6, 0.6) if on_tab else RULE_INK)
            c.setLineWidth(1.0)
            c.line(x, view.bottom + 3.6 * MM, x, view.bottom + RULE_MARK_Y + 2.6 * MM)
            if on_tab:
                continue  # hidden under the previous piece once glued
            wide = fonts.string_width(rule.label, fonts.NARROW_BOLD, 7)
            # right of the line, unless that runs off the piece
            if _fits(view, x + 1 * MM, x + 1 * MM + wide):
                lx, align = x + 1 * MM, "left"
            elif _fits(view, x - 1 * MM - wide, x - 1 * MM):
                lx, align = x - 1 * MM, "right"
            else:
                continue
            c.setFillColor(RULE_INK)
            pen.text(lx, view.bottom + RULE_MARK_Y, rule.label, size=7, bold=True,
                     narrow=True, align=align)
    return draw


def range_strip(charts: Charts, bands_in: Sequence[float]) -> Strip:
    """The range ruler: ¼ in ticks to the longest band, bands shaded, rule marks in red.

    Args:
        charts: The charts (scale, night-gunfire and damage-chart limits).
        bands_in: The scenario's range-band limits in inches, closest first.

    Returns:
        The strip, exactly as long as the last band.

    Raises:
        ValueError: When the limits do not grow from above 0.

    """
    limits = list(bands_in)
    if not limits or limits[0] <= 0 or any(b <= a for a, b in zip(limits, limits[1:],
                                                                     strict=False)):
        raise ValueError(f"expected band limits that grow from above 0, found {limits}")
    length_in = limits[-1]
    # The bands carry no label of their own: the strip module would print it on a glue
    # tab, across the join; the extra drawing labels each band on the body instead.
    bands = [Band(lo * INCH, hi * INCH, BAND_TINTS[i % 2])
             for i, (lo, hi) in enumerate(zip([0.0, *limits], limits, strict=False))]
    names = [(b, f"band {i + 1} · {inches_text(b.start / INCH, unit=False)}–"
              f"{inches_text(b.end / INCH)}") for i, b in enumerate(bands)]
    scale = table_scale(charts)
    rules = [r for r in _rule_marks(charts) if 0 < r.at_in <= length_in]
    return Strip("range", f"Range ruler · inches · 1 in = {yards_text(scale)} yd",
                 length_in * INCH, _quarter_marks(length_in), bands, height=RULER_HEIGHT,
                 extra=_range_extra(scale, length_in, rules, names))


@dataclass(frozen=True)
class SpeedEntry:
    """Ships sharing one speed, and the row their label sits in under the scale."""

    inches: float
    names: tuple[str, ...]
    row: int
    label: str


def speed_entries(charts: Charts, speeds: Sequence[tuple[str, float]],
                  ) -> list[SpeedEntry]:
    """Ships grouped by speed, each group given a label row that crosses no other line.

    Labels sit left of their ship's line (the fastest ship's line ends the strip). Taking
    the slowest first, each goes one row below every earlier line its label would reach,
    so a leader line only ever passes labels that lie to its right, never through one.
    """
    groups: dict[float, list[str]] = {}
    for name, inches in speeds:
        if inches <= 0:
            raise ValueError(f"expected a speed above 0 in for {name}, found {inches}")
        names = groups.setdefault(inches, [])
        if name not in names:
            names.append(name)
    kn = charts.movement.knots_per_in
    entries: list[SpeedEntry] = []
    for inches in sorted(groups):
        label = f"{', '.join(groups[inches])} · {inches * kn:g} kn"
        left = inches * INCH - 1 * MM - fonts.string_width(label, fonts.NARROW_BOLD, 7)
        row = 1 + max((e.row for e in entries if e.inches * INCH >= left - 1 * MM),
                      default=-1)
        entries.append(SpeedEntry(inches, tuple(groups[inches]), row, label))
    return entries


def _speed_extra(charts: Charts, length_in: float, entries: Sequence[SpeedEntry]) -> Extra:
    """Knots under every ½ in, and each ship's leader line and label."""
    kn = charts.movement.knots_per_in

    def draw(c: Canvas, view: SegmentView, start: float, end: float) -> None:
        pen = Pen(c)
        c.setFillColor(colors.black)
        for half in range(1, math.floor(length_in * 2 + 1e-9) + 1):
            _tick_label(pen, view, half * INCH / 2, view.top - KNOTS_Y, f"{half * kn / 2:g} kn")
        for entry in entries:
            at = entry.inches * INCH
            if not start - 1e-6 <= at <= end + 1e-6:
                continue
            x = view.x(at)
            base = view.top - SHIP_TOP - (entry.row + 1) * SPEED_ROW
            on_tab = at < view.start - 1e-6
            c.setStrokeColor(colors.Color(0.6, 0.6, 0.6) if on_tab else RULE_INK)
            c.setLineWidth(0.9)
            c.line(x, view.top - SHIP_TOP, x, base - 0.6 * MM)
            if on_tab:
                continue
            c.setFillColor(RULE_INK)
            low = view.x(view.start) + 0.5 * MM
            pen.text(x - 1 * MM, base, entry.label, size=7, bold=True, narrow=True,
                     align="right", width=max(x - 1 * MM - low, 10 * MM))
    return draw


def speed_strip(charts: Charts, speeds: Sequence[tuple[str, float]]) -> Strip:
    """The speed scale: inches of move per turn, knots under each ½ in, ships marked.

    Args:
        charts: The charts (knots per inch).
        speeds: ``(name, inches per turn)`` of each ship; empty for a plain ½ in scale.

    Returns:
        The strip, to the fastest ship rounded up to a whole inch.

    """
    entries = speed_entries(charts, speeds)
    length_in = float(math.ceil(max((e.inches for e in entries), default=GENERIC_SPEED_IN)))
    rows = 1 + max((e.row for e in entries), default=-1)
    height = SHIP_TOP + rows * SPEED_ROW + 4.5 * MM
    kn = charts.movement.knots_per_in
    title = f"Speed scale · inches of move per turn · 1 in = {kn:g} kn"
    if not entries:
        title += " · ½ in steps"
    return Strip("speed", title, length_in * INCH, _quarter_marks(length_in), [],
                 height=height, extra=_speed_extra(charts, length_in, entries))


def ruler_strips(charts: Charts, bands_in: Sequence[float],
                 speeds: Sequence[tuple[str, float]]) -> list[Strip]:
    """The range ruler, then the speed scale."""
    return [range_strip(charts, bands_in), speed_strip(charts, speeds)]


def render_ruler_views(charts: Charts, bands_in: Sequence[float],
                       speeds: Sequence[tuple[str, float]], paper: Paper, footer: str,
                       ) -> tuple[Component, list[SegmentView]]:
    """``render_ruler``, with where each piece landed (for checks and tests)."""
    scale = table_scale(charts)
    return render_strips(ruler_strips(charts, bands_in, speeds), paper,
                         f"Ruler · 1 in = {yards_text(scale)} yd", footer, "ruler", "Ruler-",
                         RULER_NOTES)


def render_ruler(charts: Charts, bands_in: Sequence[float], speeds: Sequence[tuple[str, float]],
                 paper: Paper, footer: str) -> Component:
    """The range ruler and the speed scale at 1 in = 1 in (component ``ruler``).

    Args:
        charts: The charts (scale, knots per inch, rule limits).
        bands_in: The scenario's range-band limits in inches, e.g. ``[6, 12, 18]``.
        speeds: ``(ship name, speed in inches)``; empty for a generic speed scale.
        paper: ``a4`` or ``letter``.
        footer: Small print at the top right of every page.

    Returns:
        The component, on landscape pages with calibration bars.

    """
    return render_ruler_views(charts, bands_in, speeds, paper, footer)[0]
