"""The merchant route chart in the form of the text's Annex B, per fleet base of origin.

Each route row gives the Tonnage Points allocated (a blank to fill when the campaign
leaves them to the team), the length in sea areas, the Supply Effectiveness row that
length falls in and the effective tonnage computed from them,
then a strip of counter-sized slots for the escorts and one for the raiders. A team's
chart holds its own nations' routes; game control's master chart holds every route,
and after them Annex B's example chart, labelled as the text's example.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core.safetext import markup
from generator.core.units import MM
from generator.kit.seam import Context
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Pen
from generator.pages.pages import Recorded
from generator.rules.defaults import is_default
from generator.rules.defaults import label as default_label
from generator.rulesets.naval_warfare.campaign import ChartRow, annex_b, chart_rows
from generator.rulesets.naval_warfare.registry import COMPONENTS

if TYPE_CHECKING:
    from generator.rulesets.naval_warfare import Derived
    from generator.rulesets.naval_warfare.campaign import SupplyTable
    from generator.rulesets.naval_warfare.schema import NationForces

HEAD = colors.Color(0.2, 0.2, 0.2)
SHADE = colors.Color(0.93, 0.93, 0.93)
COLUMNS = (("No.", 9), ("Merchant route (write name/number)", 0), ("Tonnage Points", 17),
           ("Sea areas", 17), ("Supply effect", 20), ("Effective tonnage", 18))
"""Column heads and widths in mm (0: the route name takes what is left)."""
BLANK = "____"
"""A figure for the team to write in."""
HEAD_H = 13 * MM
"""The base's title band and column heads."""


def factor_text(factor: str) -> str:
    """'x2', 'x1', 'x1/2'."""
    return f"x{factor}"


def supply_grid(supply: SupplyTable, width: float) -> Grid:
    """The Supply Effectiveness table, cell for cell, with the factor the chart applies."""
    rows = [[r.length, r.effect, f"{r.label} ({factor_text(r.factor)})"]
            for r in supply.supply]
    return Grid([width * 0.3, width * 0.45, width * 0.25],
                [["Length of Route in Sea Areas", "Effect of on transportation",
                  "Chart (factor)"]], rows, aligned(2, 3))


def allocation_grid(nations: Sequence[NationForces], rows: Sequence[ChartRow],
                    width: float) -> Grid:
    """Per nation: Tonnage Points, allocated to routes, effective lift, left over.

    Where a nation has no route yet, or a route without Tonnage Points, the totals are
    blanks to fill.
    """
    out = []
    for nation in nations:
        mine = [r for r in rows if r.route.nation == nation.id]
        if not mine and not nation.tonnage:
            continue
        if not mine or any(r.route.tonnage is None for r in mine):
            out.append([nation.name, str(nation.tonnage), BLANK, BLANK, BLANK])
            continue
        given = sum(r.route.tonnage or 0 for r in mine)
        left = nation.tonnage - given
        out.append([nation.name, str(nation.tonnage), str(given),
                    str(sum(r.effective or 0 for r in mine)),
                    str(left) if left >= 0 else f"{left} (over-allocated)"])
    return Grid([width * 0.32, width * 0.15, width * 0.15, width * 0.15, width * 0.23],
                [["Nation", "Tonnage Points", "On routes", "Effective lift", "Unallocated"]],
                out, aligned(1, 5))


def example_grid(width: float) -> Grid:
    """Annex B's example chart, row for row, as the text prints it."""
    chart = annex_b()
    rows = [[f"{r.serial}.", r.route, str(r.tonnage), r.length, str(r.lift)]
            for r in chart.rows]
    return Grid([width * 0.08, width * 0.44, width * 0.16, width * 0.16, width * 0.16],
                [["Serial", "Route", "Tonnage Points", "Length of Route", "Effective Lift"]],
                rows, aligned(2, 5), size=7.5)


def _widths(width: float) -> list[float]:
    fixed = sum(w for _, w in COLUMNS) * MM
    return [w * MM if w else width - fixed for _, w in COLUMNS]


def paint_base(c: Canvas, width: float, title: str, rows: Sequence[ChartRow | None],
               slot: float, slots: int) -> float:
    """One fleet base of origin: its heading, column heads and route rows with slots.

    A row of None is a blank route to write in. Returns the height used (points).
    """
    pen = Pen(c)
    widths = _widths(width)
    y = 0.0
    c.setFillColor(HEAD)
    c.rect(0, y - 7 * MM, width, 7 * MM, stroke=0, fill=1)
    c.setFillColor(colors.white)
    pen.text(2 * MM, y - 5 * MM, title, size=10, bold=True, width=width - 4 * MM)
    y -= 7 * MM
    c.setFillColor(SHADE)
    c.rect(0, y - 6 * MM, width, 6 * MM, stroke=0, fill=1)
    c.setFillColor(colors.black)
    x = 0.0
    for (name, _), w in zip(COLUMNS, widths, strict=True):
        pen.text(x + 1 * MM, y - 4.2 * MM, name, size=7, bold=True, narrow=True,
                 width=w - 2 * MM)
        x += w
    y -= 6 * MM
    gap = 1.5 * MM
    half = width / 2
    # The slots start 2 mm below the label's baseline, 1 mm clear of its descenders.
    strip = 5 * MM + slot + 2 * MM
    for row in rows:
        line = 7 * MM
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.5)
        c.line(0, y, width, y)
        x = 0.0
        cells = (["", "", "", "", "", ""] if row is None else
                 [str(row.serial), row.route.name + default_label(row.route.default, "length"),
                  "" if row.route.tonnage is None else str(row.route.tonnage),
                  str(row.route.length), f"{row.row.label} {factor_text(row.row.factor)}",
                  "" if row.effective is None else str(row.effective)])
        for i, (cell, w) in enumerate(zip(cells, widths, strict=True)):
            pen.text(x + 1 * MM if i == 1 else x + w / 2, y - 5 * MM, cell,
                     size=9 if i == 5 else 8.5, bold=i in (1, 5), narrow=i == 1,
                     align="left" if i == 1 else "center", width=w - 2 * MM)
            if i:
                c.setStrokeColor(colors.Color(0.7, 0.7, 0.7))
                c.line(x, y, x, y - line)
            x += w
        y -= line
        for side, (label, x0) in enumerate((("Escort counters (stick below)", 0.0),
                                            ("Raider counters (stick below)", half))):
            pen.text(x0 + 1 * MM, y - 3 * MM, label, size=7, narrow=True,
                     width=half - 2 * MM)
            c.setStrokeColor(colors.Color(0.45, 0.45, 0.45))
            c.setLineWidth(0.4)
            c.setDash(2, 1.5)
            for s in range(slots):
                left = x0 + 1 * MM + s * (slot + gap)
                if left + slot > x0 + half - 1 * MM:
                    break
                c.rect(left, y - 5 * MM - slot, slot, slot, stroke=1, fill=0)
            c.setDash()
            if side:
                c.setStrokeColor(colors.Color(0.7, 0.7, 0.7))
                c.line(half, y, half, y - strip)
        y -= strip
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.8)
    c.line(0, y, width, y)
    c.rect(0, y, width, -y, stroke=1, fill=0)
    return -y


def row_height(slot: float) -> float:
    """One route row: its line of figures and its strip of counter slots."""
    return 7 * MM + 5 * MM + slot + 2 * MM


class BaseBlock:
    """One fleet base's routes, broken between pages at a route, the heading repeated.

    A base with more routes than a page holds (Portsmouth) would otherwise run over the
    page footer: the flow splits it here, each part headed "(continued)".
    """

    def __init__(self, title: str, rows: Sequence[ChartRow | None], slot: float,
                 slots: int) -> None:
        self.title, self.rows, self.slot, self.slots = title, list(rows), slot, slots
        self._drawn = Recorded(lambda c, w: paint_base(c, w, title, self.rows, slot, slots))

    def wrap(self, width: float) -> float:
        """The block's height at ``width``."""
        return self._drawn.wrap(width)

    def draw(self, canvas: Canvas, x: float, top: float) -> None:
        """Draw the block, its top-left corner at (x, top)."""
        self._drawn.draw(canvas, x, top)

    def split(self, width: float, height: float, fresh: bool) -> tuple[BaseBlock, BaseBlock] | None:
        """The routes that fit in ``height`` and the rest (on an empty page, at least one)."""
        fits = int((height - HEAD_H - 1 * MM) // row_height(self.slot))
        if fresh:
            fits = max(1, fits)
        if fits < 1 or fits >= len(self.rows):
            return None
        title = self.title.removesuffix(CONTINUED) + CONTINUED
        return (BaseBlock(self.title, self.rows[:fits], self.slot, self.slots),
                BaseBlock(title, self.rows[fits:], self.slot, self.slots))


CONTINUED = " (continued)"


def render_chart(d: Derived, ctx: Context[Derived], team: str | None) -> Component:
    """A team's route chart (its own nations' routes) or game control's master chart."""
    from generator.rulesets.naval_warfare import CONTROL

    assert d.campaign is not None
    master = team is None or team == CONTROL
    nations = d.team_nations(None if master else team)
    who = "game control (master chart)" if master else d.teams[str(team)].name
    title = f"Merchant route chart: {who}"
    doc = CanvasDoc(ctx.paper, title, f"{d.foot} · {who}")
    width = doc.box.width
    doc.anchor(title)
    doc.paragraph(markup("Merchant route chart: {who}", who=who), "h1")
    rounding = (f"Effective tonnage is the Tonnage Points times the factor, rounded "
                f"{d.supply.round}"
                + default_label(is_default(d.supply, "round"), "reading: the text does not say")
                + ".")
    doc.section("Supply effectiveness", rounding, supply_grid(d.supply, width))
    doc.paragraph("Stick the escorts' counters and the raiders' counters in the slots of the "
                  "route they are allocated to. The rules' example charts show counter codes "
                  "that match no unit type; the counters carry the unit table's values"
                  + default_label(True, "reading") + ".", "small")
    slot = d.campaign.counter_size + 1 * MM
    rows = chart_rows(d.campaign, d.supply, [n.id for n in nations])
    doc.section("Tonnage allocated", "Tonnage Points each nation has, what its routes carry "
                "and the lift they give after the supply factor. A blank is yours to fill: "
                "write each route's Tonnage Points on its line, its effective tonnage beside "
                "it, and the totals here.",
                allocation_grid(nations, rows, width))
    for nation in nations:
        for base in nation.bases:
            here = [r for r in rows if r.route.nation == nation.id and r.route.base == base.name]
            if not here:
                continue
            heading = f"FLEET BASE OF ORIGIN: {base.name} ({nation.name})"
            slots = max(r.route.slots for r in here)
            doc.anchor(f"{base.name} ({nation.code})")
            doc.add(BaseBlock(heading, here, slot, slots))
            doc.space(4)
    doc.add(BaseBlock("NEW ROUTES: FLEET BASE OF ORIGIN ______", [None, None], slot, 4))
    if master:
        chart = annex_b()
        doc.section(f"The rules' example chart ({chart.title}): not this campaign's figures",
                    f"An example only: {chart.note}. It shows how a chart is kept; each team "
                    "fills its own chart with the Tonnage Points it allocates.",
                    example_grid(width))
    pdf, pages = doc.finish()
    key = "control" if master else str(team)
    return Component(f"route-chart:{key}", title, f"{key.upper()}-Routes-", pdf, pages,
                     doc.bookmarks)


@COMPONENTS("route-chart")
def route_chart(ctx: Context[Derived], team: str | None) -> Component:
    """A team's merchant route chart, or the master chart ('control')."""
    return render_chart(ctx.data, ctx, team)
