"""Range strings and tapes at a table scale: knotted threads, rulers and nested-distance gauges.

A range string is a thread with a knot at each range limit a ruleset gives (close,
medium, long; a torpedo's stages), cut to the last knot; a tape is the same knots over
a plain table-unit scale. Knots sit at whole table units, every limit rounded up (so a
target short of a knot, or level with it, is inside that band). The yards are the
ruleset's; this module marks them out and prints the string sheet and the tapes
(``generator.aids.strips`` draws the strips).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle

from generator.aids.strips import Band, Mark, SegmentView, Strip, render_strips
from generator.core.scales import Scale
from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.layout import Paper, Pen

PALETTE: tuple[tuple[str, colors.Color], ...] = (
    ("red", colors.Color(0.85, 0.1, 0.1)),
    ("blue", colors.Color(0.1, 0.3, 0.85)),
    ("green", colors.Color(0.1, 0.6, 0.2)),
    ("orange", colors.Color(0.98, 0.55, 0.0)),
    ("purple", colors.Color(0.5, 0.2, 0.65)),
    ("brown", colors.Color(0.5, 0.3, 0.1)),
    ("black", colors.Color(0.0, 0.0, 0.0)),
    ("pink", colors.Color(0.95, 0.45, 0.7)),
    ("teal", colors.Color(0.0, 0.55, 0.55)),
    ("yellow", colors.Color(0.95, 0.85, 0.1)),
    ("grey", colors.Color(0.55, 0.55, 0.55)),
    ("navy", colors.Color(0.0, 0.1, 0.4)),
)
"""Thread colours a player can buy; names are printed beside each swatch."""

TAPE_HEIGHT = 20 * MM
"""Tapes and range gauges: room for a knot's two label lines above a band."""
BAND_TINTS = (colors.Color(0.75, 0.9, 0.75), colors.Color(0.98, 0.9, 0.6),
              colors.Color(0.98, 0.75, 0.7))



def units_up(yards: int | Fraction, scale: Scale) -> int:
    """Whole table units for a range limit, fractions rounded up (the text's rule)."""
    return math.ceil(Fraction(yards) / scale.yards)



@dataclass(frozen=True)
class Knot:
    """A knot on a range string.

    Attributes:
        label: ``C``, ``M``, ``L`` (a ruleset's range limits) or a torpedo stage.
        yards: The limit in yards.
        units: Where the knot goes, in whole table units (rounded up).
        note: What the knot means, printed beside it.
        width: For a torpedo stage, the spread's exact width there in yards (the note
            prints it rounded, as the text does: 666.5 yd is "667").

    """

    label: str
    yards: int
    units: int
    note: str = ""
    width: Fraction = Fraction(0)


@dataclass
class RangeString:
    """One string to cut: every battery or torpedo mount sharing the same ranges.

    Attributes:
        key: Stable id, e.g. ``guns-32150`` or ``torpedo-24-20000-2``.
        what: ``8in guns`` or ``24in torpedoes (two turns)``.
        users: ``Chōkai (BOW, STN)``... in order of appearance.
        knots: Knots from the near end.
        default: True when a torpedo run comes from the default table.
        color_name: Thread colour.
        color: Its printing colour.

    """

    key: str
    what: str
    users: list[str]
    knots: list[Knot]
    default: bool = False
    color_name: str = ""
    color: colors.Color = field(default=colors.black)

    @property
    def length_units(self) -> int:
        """Measuring length: zero to the last knot."""
        return self.knots[-1].units



def colour_strings(strings: Sequence[RangeString]) -> None:
    """Give each string its thread colour, in order (``PALETTE``).

    Past twelve strings the colours come round again, numbered to keep them apart.
    """
    for i, string in enumerate(strings):
        name, string.color = PALETTE[i % len(PALETTE)]
        again = i // len(PALETTE)
        string.color_name = f"{name} thread" + (f" no. {again + 1}" if again else "")


def minor_step(scale: Scale) -> int:
    """The finest yard graduation that stays at least 1.2 mm apart at this scale."""
    for step in (100, 200, 250, 500, 1000):
        if scale.yards_to_points(step) >= 1.2 * MM:
            return step
    return 1000


def yard_marks(scale: Scale, longest: int) -> list[Mark]:
    """Ticks every ``minor_step`` yards, longer at 500, numbered each 1,000 yd."""
    step = minor_step(scale)
    marks = []
    for yd in range(0, longest + 1, step):
        if yd % 1000 == 0:
            marks.append(Mark(scale.yards_to_points(yd), "major", f"{yd // 1000}"))
        elif yd % 500 == 0:
            marks.append(Mark(scale.yards_to_points(yd), "mid"))
        else:
            marks.append(Mark(scale.yards_to_points(yd), "minor"))
    return marks


def unit_marks(scale: Scale, units: int) -> list[Mark]:
    """Ticks every table unit (cm or in), longer at 5, numbered each 10 (cm) or 5 (in)."""
    every = 10 if scale.unit == "cm" else 5
    marks = []
    for u in range(units + 1):
        at = scale.units_to_points(u)
        if u % every == 0:
            marks.append(Mark(at, "major", f"{u}"))
        else:
            marks.append(Mark(at, "mid" if u % 5 == 0 else "minor"))
    return marks


def range_ruler(scale: Scale, longest_yd: int) -> Strip:
    """A range ruler in thousands of yards, to ``longest_yd`` rounded up to 1,000."""
    longest = math.ceil(longest_yd / 1000) * 1000
    return Strip(f"range-{scale.name}",
                 f"Range ruler · thousands of yards · {scale.describe()}",
                 scale.yards_to_points(longest), yard_marks(scale, longest))



def tape(string: RangeString, scale: Scale) -> Strip:
    """A range tape: the string's knots over a plain table-unit scale."""
    marks = unit_marks(scale, string.length_units)
    marks += [Mark(scale.units_to_points(k.units), "knot", f"{k.label} {k.units} {scale.unit}",
                   f"{k.yards:,} yd · {k.note}") for k in string.knots]
    return Strip(f"tape-{string.key}", f"{string.what} · {scale.describe()}",
                 scale.units_to_points(string.length_units), marks, height=TAPE_HEIGHT,
                 color=string.color, color_name=string.color_name)


def detection_strip(key: str, title: str, stages: Sequence[tuple[int, str]], scale: Scale,
                    ) -> Strip:
    """A gauge of nested distances (detection chances, radar limit), rounded up to units."""
    longest = max(yd for yd, _ in stages)
    marks = yard_marks(scale, longest)
    bands = []
    start = 0.0
    for i, (yd, label) in enumerate(sorted(stages)):
        end = scale.units_to_points(units_up(yd, scale))
        marks.append(Mark(end, "knot", f"{yd:,} yd", label))
        bands.append(Band(start, end, BAND_TINTS[i % len(BAND_TINTS)], label))
        start = end
    return Strip(key, title, start, marks, bands, height=TAPE_HEIGHT)



TIE_ALLOWANCE_CM = 10
"""Extra thread at each end to hold and to tie off, in cm (4 in on inch scales)."""
ASSEMBLY = ("Cut along the outer lines. Glue each numbered piece's grey tab under the end "
            "of the piece before it, edges on the join line and triangles meeting.")



def render_tapes(strings: Sequence[RangeString], scale: Scale, paper: Paper, footer: str,
                 key: str, title: str, label: str) -> tuple[Component, list[SegmentView]]:
    """Range tapes: each string's knots on a strip, to knot thread against or use as is."""
    strips = [tape(s, scale) for s in strings]
    notes = [ASSEMBLY, "Lay a thread along a tape and tie a knot at each dot, or measure "
             "with the tape itself; the colour bar at each end matches the string sheet."]
    return render_strips(strips, paper, title, footer, key, label, notes)


def _allowance(scale: Scale) -> str:
    return f"{TIE_ALLOWANCE_CM} cm" if scale.unit == "cm" else "4 in"


def render_string_sheet(strings: Sequence[RangeString], scale: Scale, side_name: str,
                        paper: Paper, footer: str, key: str, label: str,
                        default_note: str = "") -> Component:
    """One side's range strings: colour, use, knots and cutting length of each.

    ``default_note`` (markup) is printed under a string whose ``default`` is set: where
    its knots come from, and what replaces them.
    """
    doc = CanvasDoc(paper, f"Range strings: {side_name}", footer, calibration=True)
    doc.anchor(f"Range strings: {side_name}")
    doc.paragraph(f"Range strings · {escape(side_name)}", "h1")
    doc.paragraph(
        f"Scale <b>{escape(scale.describe())}</b>. One thread per colour. Measure every knot from "
        "the end you hold at the firing ship's bow point. Knots sit at whole "
        f"{'centimetres' if scale.unit == 'cm' else 'inches'}: the rules round every range "
        "limit and every measurement up, so a target short of a knot, or level with it, is "
        f"inside that band. Leave {_allowance(scale)} of spare thread beyond each end for "
        "holding and tying. The matching range tapes follow in this packet.")
    doc.space(2)
    indent = ParagraphStyle("indented", parent=doc.styles["small"], leftIndent=22 * MM)
    head = ParagraphStyle("indented-head", parent=doc.styles["h3"], leftIndent=22 * MM,
                          spaceBefore=0)
    c = doc.canvas
    pen = Pen(c)
    for string in strings:
        doc.ensure(24 * MM)
        top = doc.y
        knots = " · ".join(f"<b>{escape(k.label)} {k.units} {scale.unit}</b> ({escape(k.note)}, "
                           f"{k.yards:,} yd)" for k in string.knots)
        doc.paragraph(f"{escape(string.color_name)}: {escape(string.what)}, {string.length_units} "
                      f"{scale.unit} to the last knot", head)
        doc.paragraph(f"Knots: {knots}", indent)
        doc.paragraph(f"Used by: {escape(', '.join(string.users))}", indent)
        if string.default and default_note:
            doc.paragraph(default_note, indent)
        c.setFillColor(string.color)
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.5)
        c.rect(doc.box.x, top - 10 * MM, 18 * MM, 8 * MM, stroke=1, fill=1)
        c.setFillColor(colors.black)
        pen.text(doc.box.x, top - 13.6 * MM, string.color_name, size=8, bold=True,
                 width=20 * MM)
        doc.y = min(doc.y, top - 16 * MM) - 2 * MM
        c.setStrokeColor(colors.Color(0.7, 0.7, 0.7))
        c.setLineWidth(0.3)
        c.line(doc.box.x, doc.y + 1 * MM, doc.box.right, doc.y + 1 * MM)
    pdf, pages = doc.finish()
    return Component(key, f"Range strings: {side_name}", label, pdf, pages, doc.bookmarks[1:])
