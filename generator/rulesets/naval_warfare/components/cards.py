"""Task Force cards and Forces-in-Port cards, cut out and kept by each team.

A Task Force card has counter-sized slots for the force's unit counters, boxes for its
total fleet CV and its Air Points (a carrier group carries one), the NOF and LSP boxes
and its base with the range reminder. A Forces-in-Port card is pre-printed with one of
the team's fleet bases (and blank ones for any other port) and carries the repair box:
a fleet base repairs one unit a turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib import colors
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.core.units import MM
from generator.kit.seam import Context, Rendered, sheet_component
from generator.pages.layout import Pen
from generator.pieces.pieces import Art, Piece
from generator.pieces.sprue import user_or_bundled
from generator.rulesets.naval_warfare.registry import COMPONENTS

if TYPE_CHECKING:
    from generator.rulesets.naval_warfare import Derived
    from generator.rulesets.naval_warfare.schema import NationForces, Team

FOLDER = Path(__file__).parent.parent
CARD_W = 94 * MM
TF_ROWS = 3
PORT_ROWS = 2
GAP = 1.5 * MM
PAD = 3 * MM
BLANK_PORTS = 2
"""Forces-in-Port cards left blank for ports that are not fleet bases (strategic moves)."""


def _band(c: Canvas, w: float, h: float, bleed: float, fill: str, title: str,
          right: str) -> float:
    """The title band across the top; returns the y of its lower edge."""
    pen = Pen(c)
    band = 9 * MM
    c.setFillColor(HexColor(fill))
    c.rect(-bleed, h - band, w + 2 * bleed, band + bleed, stroke=0, fill=1)
    c.setFillColor(colors.white)
    pen.text(PAD, h - 6.3 * MM, title, size=12, bold=True, width=w * 0.55)
    pen.text(w - PAD, h - 6.3 * MM, right, size=8.5, narrow=True, align="right",
             width=w * 0.4 - PAD)
    c.setFillColor(colors.black)
    return h - band


def _slots(c: Canvas, x: float, top: float, width: float, slot: float, rows: int) -> float:
    """Dashed counter slots in rows across ``width``; returns the y under them."""
    per_row = max(1, int((width + GAP) // (slot + GAP)))
    c.setStrokeColor(colors.Color(0.45, 0.45, 0.45))
    c.setLineWidth(0.4)
    c.setDash(2, 1.5)
    y = top
    for _ in range(rows):
        for i in range(per_row):
            c.rect(x + i * (slot + GAP), y - slot, slot, slot, stroke=1, fill=0)
        y -= slot + GAP
    c.setDash()
    c.setStrokeColor(colors.black)
    return y


def _box(c: Canvas, x: float, y: float, w: float, h: float, label: str) -> None:
    """A labelled write-in box, its label above the top-left corner inside."""
    c.setLineWidth(0.6)
    c.rect(x, y, w, h, stroke=1, fill=0)
    Pen(c).text(x + 1 * MM, y + h - 3 * MM, label, size=7, narrow=True, width=w - 2 * MM)


def tf_art(team: Team, lead: NationForces, number: int, slot: float,
           reminder: tuple[str, ...]) -> Art:
    """One Task Force card's face."""
    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        pen = Pen(c)
        c.setFillColor(colors.white)
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        y = _band(c, w, h, bleed, lead.colour, f"TASK FORCE {number}", team.name)
        c.setFillColor(colors.black)
        pen.text(PAD, y - 5 * MM, "Fleet base: ______________________", size=9,
                 width=w * 0.55)
        pen.text(w - PAD, y - 5 * MM, "Operation area: ____________", size=9,
                 align="right", width=w * 0.42)
        y = _slots(c, PAD, y - 8 * MM, w - 2 * PAD, slot, TF_ROWS)
        pen.text(PAD, y - 1.5 * MM, "Stick the force's counters here (damaged side up if "
                 "damaged).", size=7, narrow=True, width=w - 2 * PAD)
        boxes_top = 27 * MM
        low = 12 * MM
        # Four write-in boxes; the LSP box is the widest, for its four tick squares.
        widths = (20 * MM, 20 * MM, 15 * MM)
        lsp_w = w - 2 * PAD - sum(widths) - 3 * GAP
        x = PAD
        for width, label in zip((*widths, lsp_w), ("Total fleet CV", "Air Points",
                                                   "NOF (tick)", "LSP (tick each)"),
                                strict=True):
            _box(c, x, low, width, boxes_top - low, label)
            x += width + GAP
        c.setLineWidth(0.5)
        lsp_x = PAD + sum(widths) + 3 * GAP
        for i in range(4):
            c.rect(lsp_x + 2 * MM + i * 6 * MM, low + 1.5 * MM, 4.5 * MM, 4.5 * MM,
                   stroke=1, fill=0)
        nof_x = PAD + widths[0] + widths[1] + 2 * GAP
        c.rect(nof_x + 2 * MM, low + 1.5 * MM, 4.5 * MM, 4.5 * MM, stroke=1, fill=0)
        for i, line in enumerate(reminder):
            pen.text(PAD, (8.1 - 2.9 * i) * MM, line, size=7, narrow=True, width=w - 2 * PAD)
    return art


def port_art(team: Team, nation: NationForces | None, port: str, note: str, slot: float,
             ) -> Art:
    """One Forces-in-Port card's face (a blank port line when ``port`` is empty)."""
    fill = nation.colour if nation is not None else "#5a6270"

    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        pen = Pen(c)
        c.setFillColor(colors.white)
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        y = _band(c, w, h, bleed, fill, "FORCES IN PORT", team.name)
        c.setFillColor(colors.black)
        pen.text(PAD, y - 5.5 * MM, f"Port: {port or '______________________'}", size=10,
                 bold=bool(port), width=w * 0.6)
        if note:
            pen.text(w - PAD, y - 5.5 * MM, note, size=7.5, narrow=True, align="right",
                     width=w * 0.36)
        y = _slots(c, PAD, y - 8.5 * MM, w - 2 * PAD, slot, PORT_ROWS)
        _box(c, PAD, 3 * MM, w - 2 * PAD, 12 * MM, "Repair (fleet bases only): one damaged "
             "unit a turn. Unit repaired this turn:")
    return art


def team_cards(d: Derived, team: Team) -> list[Piece]:
    """A team's Task Force cards and its Forces-in-Port cards."""
    assert d.campaign is not None
    slot = d.campaign.counter_size + 1 * MM
    nations = d.team_nations(team.id)
    lead = nations[0]
    air = d.units.get("air")
    exceptions = [f"{n.code} land air {n.ranges['air']}" for n in nations
                  if "air" in n.ranges]
    naval = max((u.range for u in d.units.values() if u.kind == "ship"), default=0)
    reminder = (f"Range: ships {naval} sea areas from the fleet base; Air Points "
                f"{air.range if air else 0}" + (f" ({', '.join(exceptions)})" if exceptions
                                                else " (their own sea area)") + ".",
                "An operation needs a NOF and at least one LSP at its base.",
                "Each undamaged carrier group carries one Air Point: count it in the Air "
                "Points and its CV in the total.")
    # Heights follow the counter size: two rows of slots, the band, the lines and boxes.
    tf_h = 9 * MM + 8 * MM + TF_ROWS * (slot + GAP) + 32 * MM
    port_h = 9 * MM + 8.5 * MM + PORT_ROWS * (slot + GAP) + 16.5 * MM
    pieces = [Piece(f"tf-card.{team.id}.{n}", f"{team.name} Task Force {n}", CARD_W, tf_h,
                    tf_art(team, lead, n, slot, reminder), None, 1, "task-force")
              for n in range(1, team.task_force_cards + 1)]
    for nation in nations:
        for i, base in enumerate(nation.bases, start=1):
            note = nation.name + (f" · {base.note}" if base.note else "")
            # Numbered as well as named: two bases may spell to the same slug.
            pieces.append(Piece(f"port-card.{nation.id}.{i}-{_slug(base.name)}",
                                f"{nation.name} in port at {base.name}", CARD_W, port_h,
                                port_art(team, nation, base.name, note, slot), None, 1,
                                "port"))
    pieces.append(Piece(f"port-card.{team.id}.blank", f"{team.name} in port (blank)", CARD_W,
                        port_h, port_art(team, lead, "", "", slot), None, BLANK_PORTS, "port"))
    return pieces


def _slug(name: str) -> str:
    out = "".join(ch.lower() if ch.isalnum() else "-" for ch in name)
    return "-".join(p for p in out.split("-") if p)[:40] or "base"


@COMPONENTS("force-cards")
def force_cards(ctx: Context[Derived], team: str | None) -> Rendered:
    """A team's Task Force and Forces-in-Port cards."""
    d: Derived = ctx.data
    assert team is not None
    found = d.teams[team]
    sprue = user_or_bundled(None, FOLDER / "sprues" / "cards.yaml",
                            "naval_warfare/sprues/cards.yaml")
    return sheet_component(ctx, team_cards(d, found), sprue, f"force-cards:{team}",
                           f"Task Force and port cards: {found.name}",
                           f"{team.upper()}-TF-", f"{d.foot} · {found.name}")



