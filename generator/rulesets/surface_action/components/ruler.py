"""Surface Action's range ruler and speed scale, printed at the table's scale.

The range ruler carries the range bands and the yards; the speed scale a row per ship
with its move. ``generator.aids.strips`` splits a ruler longer than the paper into
strips and joins them; every number comes from ``tables/charts.yaml`` through ``Charts``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.aids.strips import (
    BAND_Y,
    Band,
    Extra,
    Mark,
    SegmentView,
    Strip,
    render_strips,
)
from generator.core import fonts
from generator.core.scales import Scale
from generator.core.units import INCH, MM
from generator.pages.component import Component
from generator.pages.layout import Paper, Pen
from generator.rulesets.surface_action.charts import Charts
from generator.rulesets.surface_action.components.aids import inches_text, table_scale, yards_text

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
