"""The Action Card's own parts: its headings' tags, severity shades and cumulative track.

The parts any reference card has (sections, tagged headings, prose, boxed tables, arc
compasses) are ``generator.pages.refcard``'s. The track is a painter of the page engine
(``generator.pages.pages``), recorded once and replayed where the column puts it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core.units import MM
from generator.pages.grid import LABEL_BG
from generator.pages.layout import Pen
from generator.pages.pages import Block, Recorded
from generator.rules import dice
from generator.rules.defaults import LABEL as DEFAULT_LABEL
from generator.rules.defaults import is_default
from generator.rulesets.naval_action.cardtables import Tables

# Penetration cells are shaded by severity so the eye finds the S band in dim light.
SEVERITY_BG = {"S": colors.Color(0.68, 0.68, 0.68), "HD": colors.Color(0.8, 0.8, 0.8),
               "D": colors.Color(0.91, 0.91, 0.91)}
NO_EFFECT = "–"


def pct(p: Fraction) -> str:
    """A chance as the kit prints percentages."""
    return dice.percent(p)


def tags_for(tables: Tables, names: Iterable[str]) -> list[str]:
    """Tags for a section's heading: the user's file, DEFAULT, or both.

    FROM the user's file if it replaced one of the section's tables; DEFAULT if any of
    the others is quarterdeck's design.

    Args:
        tables: The tables in force.
        names: Table names (``action-card.yaml`` or ``derivation.yaml`` keys).

    Returns:
        Zero, one or two tag texts.

    """
    out: list[str] = []
    names = list(names)
    if any(n in tables.replaced for n in names):
        out.append(f"FROM {tables.origin}")
    if any(n not in tables.replaced and _designed(tables, n) for n in names):
        out.append(DEFAULT_LABEL)
    return out


def _designed(tables: Tables, name: str) -> bool:
    # A card table marks itself; derivation.yaml lists the tables it designed.
    return is_default(tables.rules, name) or is_default(getattr(tables.card, name, None))


@dataclass(frozen=True)
class TrackBox:
    """One box of the cumulative track."""

    label: str          # '6' ... '1', '≤0'
    multi: int | None   # hits for a white die equal to the box, if more than one
    hit: Fraction       # chance of at least one hit at this final accuracy
    mean: Fraction      # expected hits


TRACK_H = 15.5 * MM


def track(boxes: Sequence[TrackBox]) -> Block:
    """The cumulative accuracy track: a row of boxes, multi-hit number in the corner."""
    def paint(c: Canvas, width: float) -> float:
        pen = Pen(c)
        w = width / len(boxes)
        base = -TRACK_H
        for i, box in enumerate(boxes):
            x = i * w
            c.setLineWidth(0.9)
            c.setStrokeColor(colors.black)
            c.rect(x, base, w, TRACK_H, stroke=1, fill=0)
            if box.multi:
                # The multi-hit number sits in the upper left corner, as the rules say.
                c.setFillColor(LABEL_BG)
                c.rect(x, -4 * MM, 4 * MM, 4 * MM, stroke=0, fill=1)
                c.setFillColor(colors.black)
                pen.text(x + 2 * MM, -3 * MM, str(box.multi), size=8, bold=True,
                         align="center")
            pen.text(x + w / 2, -8.2 * MM, box.label, size=14, bold=True, align="center",
                     width=w - 2 * MM)
            pen.text(x + w / 2, base + 3.6 * MM, f"hit {pct(box.hit)}", size=7, narrow=True,
                     align="center", width=w - 1 * MM)
            pen.text(x + w / 2, base + 0.9 * MM, f"avg {float(box.mean):.2f}", size=7,
                     narrow=True, align="center", width=w - 1 * MM)
        return TRACK_H
    return Recorded(paint)
