"""NAVAL ACTION precision aids on paper: rulers, gauges and gauge strips.

Range strings and tapes are printed by ``generator.aids.rangestrings``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from generator.aids.gauges import draw_protractor, draw_turn_gauge
from generator.aids.rangestrings import ASSEMBLY, range_ruler
from generator.aids.strips import SegmentView, max_strip_height, render_strips, start_page
from generator.core.scales import Scale
from generator.core.units import MM
from generator.pages.component import Bookmark, Component
from generator.pages.layout import Paper, new_canvas, safe_box
from generator.rulesets.naval_action.aids import gauge_strips, movement_ruler, protractor_rings
from generator.rulesets.naval_action.cardtables import Tables


def render_rulers(scale: Scale, longest_yd: int, top_speed: float, tables: Tables,
                  paper: Paper, footer: str) -> tuple[Component, list[SegmentView]]:
    """Range ruler and movement ruler at one scale (component ``rulers``)."""
    strips = [range_ruler(scale, longest_yd), movement_ruler(scale, top_speed, tables)]
    return render_strips(strips, paper, f"Rulers · {scale.describe()}", footer, "rulers",
                         "Rulers-", [ASSEMBLY])


def render_gauges(tables: Tables, scale: Scale, paper: Paper, footer: str,
                  ) -> Component:
    """The firing-arc protractor and the turn gauge, one page each (component ``gauges``)."""
    box = safe_box(paper)
    buffer = io.BytesIO()
    c = new_canvas(buffer, paper, "Gauges")
    rules = tables.rules
    bookmarks = [Bookmark("Firing-arc protractor", 0), Bookmark("Turn gauge", 1)]
    top, bottom = start_page(c, box, "Firing-arc protractor", footer, [
        "Print on card or transparency. Put the centre on the firing ship's bow point with "
        "0° along its course.",
        "Each ring is one battery position: tinted where it may fire, red where the rules "
        "forbid it (the angle is from the",
        "nearer centreline). L and R share a ring. Bearings count clockwise from the bow.",
    ])
    radius = min(box.width / 2 - 10 * MM, (top - bottom) / 2 - 10 * MM)
    draw_protractor(c, box.x + box.width / 2, bottom + (top - bottom) / 2, radius,
                    protractor_rings(rules))
    c.showPage()
    costs = tables.card.turn_costs
    lost = costs.lost(scale.yards_per_unit)
    top, bottom = start_page(c, box, f"Turn gauge · {scale.describe()}", footer, [
        "Put the centre on the point of the turn with COURSE along the ship's heading. A turn "
        f"ending in a sector costs that much of the move: {lost:g} {scale.unit} for each "
        f"{costs.per_degrees}°",
        "or any part of it.",
    ])
    radius = min(box.width / 2 - 12 * MM, (top - bottom) / 2 - 12 * MM)
    steps = 180 // costs.per_degrees + (1 if 180 % costs.per_degrees else 0)
    draw_turn_gauge(c, box.x + box.width / 2, bottom + (top - bottom) / 2, radius,
                    costs.per_degrees,
                    [f"−{lost * (i + 1):g} {scale.unit}" for i in range(steps)])
    c.showPage()
    c.save()
    return Component("gauges", "Gauges", "Gauge-", buffer.getvalue(), 2, bookmarks,
                     cut_out=True)


def render_gauge_strips(tables: Tables, scale: Scale, torpedoes: Sequence[tuple[int, int, bool]],
                        paper: Paper, footer: str) -> tuple[Component, list[SegmentView]]:
    """Torpedo-spread fans, aerial torpedo, night-detection and radar gauges."""
    strips = gauge_strips(scale, tables, torpedoes, max_strip_height(paper))
    notes = [ASSEMBLY, "Spread gauges: launch point at 0, the dashed line along the torpedo "
             "track; the outline is the spread's width as it runs."]
    return render_strips(strips, paper, f"Gauge strips · {scale.describe()}", footer,
                         "gauge-strips", "Strips-", notes)
