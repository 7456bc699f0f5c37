"""The NAVAL ACTION Action Card: a two-page reference card (front and back).

The front carries the turn and the gunfire procedure (sequence of play, battery arcs,
gunfire sequence, accuracy modifiers, the cumulative track, hit or miss, the penetration
table and its notes, and the chance a hit damages); the back carries torpedoes, damage
control, submarines, turning, antiaircraft fire, aircraft, night, weather and
comparative strength.

Every number comes from the tables in force (``Tables``): the bundled YAML or a user's
``--tables`` file, the same ones the calculator reads, so the card and the odds always
agree. Tables that quarterdeck designed (``default: true``) carry a DEFAULT tag by
their heading; tables from the user's file carry a tag naming that file.

The page is drawn on a canvas: each page has a title band, two columns and a footer;
sections (a heading plus its tables and notes) are stacked into the columns in order
and never split, so a table always stays with its heading.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from generator.core import fonts
from generator.core.errors import DataError
from generator.core.scales import NAMED_SCALES
from generator.core.units import MM
from generator.pages.component import Bookmark, Component
from generator.pages.layout import Paper, Pen, SafeBox, new_canvas, safe_box
from generator.pages.pages import Furniture
from generator.rules import dice
from generator.rules.defaults import LABEL as DEFAULT_LABEL
from generator.rules.defaults import is_default
from generator.rules.defaults import label as default_label
from generator.rulesets.naval_action.cardtables import (
    RadarDetection,
    Tables,
    torpedo_bomber_shift,
)
from generator.rulesets.naval_action.components.status_sheet import arc_icon
from generator.rulesets.naval_action.odds import Calculator, Mode
from generator.rulesets.naval_action.views import Band

KEY = "card"
TITLE = "Action Card"
LABEL = "Card-"

INK = colors.Color(0.12, 0.12, 0.12)
HEAD_BG = colors.Color(0.22, 0.22, 0.22)
LABEL_BG = colors.Color(0.85, 0.85, 0.85)
RULE = colors.Color(0.55, 0.55, 0.55)
# Penetration cells are shaded by severity so the eye finds the S band in dim light.
SEVERITY_BG = {"S": colors.Color(0.68, 0.68, 0.68), "HD": colors.Color(0.8, 0.8, 0.8),
               "D": colors.Color(0.91, 0.91, 0.91)}

BAND_H = 12 * MM
FOOTER_H = 9 * MM
GUTTER = 5 * MM
SECTION_GAP = 3 * MM
HEADING_H = 5.4 * MM
NO_EFFECT = "–"

SCALES_SHOWN = ("tabletop", "floor", "large-floor")
CS_PER_ROW = 8
DEPTH_NAMES = {"P": "periscope", "D": "deep", "R": "deeper", "T": "deepest", "Ab": "abyss"}


# -- text helpers -------------------------------------------------------------------------

@functools.cache
def _styles() -> dict[str, ParagraphStyle]:
    """Card paragraph styles: prose 7.8 pt, never below the kit's 7 pt floor."""
    fonts.register()
    body = ParagraphStyle("card-body", fontName=fonts.REGULAR, fontSize=7.8, leading=9.4,
                          textColor=INK)
    return {
        "body": body,
        "bullet": ParagraphStyle("card-bullet", parent=body, leftIndent=7, bulletIndent=0.5,
                                 bulletFontName=fonts.REGULAR, spaceBefore=0.6),
        "note": ParagraphStyle("card-note", parent=body, fontName=fonts.NARROW, fontSize=7.4,
                               leading=8.6),
        "sub": ParagraphStyle("card-sub", parent=body, fontName=fonts.BOLD, fontSize=8.2,
                              leading=10, spaceBefore=2, spaceAfter=0.5),
    }



def _p(text: str, style: str = "body") -> Paragraph:
    """A paragraph of card prose (``text`` is markup: escape any data first)."""
    return Paragraph(text, _styles()[style])


def _bullet(text: str) -> Paragraph:
    return Paragraph(text, _styles()["bullet"], bulletText="•")


def _yd(value: float) -> str:
    # Half a yard rounds up (1,333 / 2 is 667), not to even as format() would.
    return f"{math.floor(value + 0.5):,}"


def _signed(value: float) -> str:
    """+1, −2, 0 (typographic minus)."""
    if value == 0:
        return "0"
    text = f"{abs(value):g}"
    return f"+{text}" if value > 0 else f"−{text}"


def _faces(faces: Sequence[int]) -> str:
    """Die faces as a run: [3, 4, 5, 6] is '3-6', [6] is '6', [1, 3] is '1, 3'."""
    ordered = sorted(faces)
    if len(ordered) > 1 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}-{ordered[-1]}"
    return ", ".join(map(str, ordered))


def _join(items: Iterable[str], last: str = "and") -> str:
    words = list(items)
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _in_six(chance: int) -> str:
    return "certain" if chance >= 6 else f"{chance} in 6"


def _pct(p: Fraction) -> str:
    return dice.percent(p)


# -- flowables ------------------------------------------------------------------------------

class _Heading(Flowable):  # type: ignore[misc]  # ReportLab ships no type hints
    """A dark section bar with the title, and tags (DEFAULT, FROM file) at the right."""

    def __init__(self, title: str, tags: Sequence[str]) -> None:
        super().__init__()
        self.title = title
        self.tags = list(tags)
        self.width = 0.0
        self.height = HEADING_H

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        """Take the whole column width."""
        self.width = avail_width
        return avail_width, self.height

    def draw(self) -> None:
        """Bar, title, then the tags right-aligned as white boxed labels."""
        c: Canvas = self.canv
        c.setFillColor(HEAD_BG)
        c.rect(0, 0, self.width, self.height, stroke=0, fill=1)
        pen = Pen(c)
        right = self.width - 1 * MM
        for tag in reversed(self.tags):
            right = self._tag(pen, right, tag) - 1.2 * MM
        c.setFillColor(colors.white)
        pen.text(1.6 * MM, 1.65 * MM, self.title, size=9.5, bold=True,
                 width=max(right - 2 * MM, 20 * MM))
        c.setFillColor(colors.black)

    def _tag(self, pen: Pen, right: float, tag: str) -> float:
        """Draw one tag ending at ``right``; return its left edge."""
        c: Canvas = self.canv
        size = 7.0
        # A long file name is clipped rather than crowding out the title.
        text = fonts.clip_text(tag, fonts.NARROW_BOLD, size, self.width * 0.45)
        w = fonts.string_width(text, fonts.NARROW_BOLD, size) + 2.4 * MM
        c.setFillColor(colors.white)
        c.roundRect(right - w, 0.8 * MM, w, self.height - 1.6 * MM, 1, stroke=0, fill=1)
        c.setFillColor(colors.black)
        pen.text(right - w / 2, 1.75 * MM, text, size=size, bold=True, narrow=True,
                 align="center")
        return right - w


@dataclass(frozen=True)
class _TrackBox:
    """One box of the cumulative track."""

    label: str          # '6' ... '1', '≤0'
    multi: int | None   # hits for a white die equal to the box, if more than one
    hit: Fraction       # chance of at least one hit at this final accuracy
    mean: Fraction      # expected hits


class _Track(Flowable):  # type: ignore[misc]  # ReportLab ships no type hints
    """The cumulative accuracy track: a row of boxes, multi-hit number in the corner."""

    BOX_H = 15.5 * MM

    def __init__(self, boxes: Sequence[_TrackBox]) -> None:
        super().__init__()
        self.boxes = list(boxes)
        self.width = 0.0
        self.height = self.BOX_H

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        """Take the whole column width."""
        self.width = avail_width
        return avail_width, self.height

    def draw(self) -> None:
        """Draw the boxes left (start) to right (below one)."""
        c: Canvas = self.canv
        pen = Pen(c)
        w = self.width / len(self.boxes)
        for i, box in enumerate(self.boxes):
            x = i * w
            c.setLineWidth(0.9)
            c.setStrokeColor(colors.black)
            c.rect(x, 0, w, self.height, stroke=1, fill=0)
            if box.multi:
                # The multi-hit number sits in the upper left corner, as the rules say.
                c.setFillColor(LABEL_BG)
                c.rect(x, self.height - 4 * MM, 4 * MM, 4 * MM, stroke=0, fill=1)
                c.setFillColor(colors.black)
                pen.text(x + 2 * MM, self.height - 3 * MM, str(box.multi), size=8, bold=True,
                         align="center")
            pen.text(x + w / 2, self.height - 8.2 * MM, box.label, size=14, bold=True,
                     align="center", width=w - 2 * MM)
            pen.text(x + w / 2, 3.6 * MM, f"hit {_pct(box.hit)}", size=7, narrow=True,
                     align="center", width=w - 1 * MM)
            pen.text(x + w / 2, 0.9 * MM, f"avg {float(box.mean):.2f}", size=7, narrow=True,
                     align="center", width=w - 1 * MM)


class _Arcs(Flowable):  # type: ignore[misc]  # ReportLab ships no type hints
    """Battery arcs as small compasses (ship pointing up), three to a row."""

    PER_ROW = 3
    ROW_H = 10.5 * MM
    RADIUS = 4.4 * MM

    def __init__(self, arcs: Sequence[tuple[str, str, list[tuple[float, float]]]]) -> None:
        super().__init__()
        self.arcs = list(arcs)
        self.width = 0.0
        self.height = -(-len(self.arcs) // self.PER_ROW) * self.ROW_H

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        """Take the whole column width."""
        self.width = avail_width
        return avail_width, self.height

    def draw(self) -> None:
        """One cell per battery: compass, key, name and bearings."""
        pen = Pen(self.canv)
        cell_w = self.width / self.PER_ROW
        for i, (key, name, spans) in enumerate(self.arcs):
            row, col = divmod(i, self.PER_ROW)
            x = col * cell_w
            top = self.height - row * self.ROW_H
            cy = top - self.ROW_H / 2
            arc_icon(self.canv, x + self.RADIUS + 0.5 * MM, cy, self.RADIUS, spans)
            tx = x + 2 * self.RADIUS + 2.5 * MM
            tw = cell_w - (tx - x) - 1 * MM
            # Key line, then one line per span, centred on the compass.
            line = 2.9 * MM
            y = cy + (len(spans) * line) / 2 - 1.2 * MM
            drawn = pen.text(tx, y, key, size=8.5, bold=True, width=tw / 2)
            pen.text(tx + drawn + 1.2 * MM, y, name, size=7, narrow=True,
                     width=tw - drawn - 1.2 * MM)
            for start, end in spans:
                y -= line
                pen.text(tx, y, f"{start % 360:g}°–{end % 360:g}°", size=7, narrow=True,
                         width=tw)


def _grid(rows: Sequence[Sequence[str]], widths_mm: Sequence[float], head_rows: int = 1,
          label_cols: int = 1, size: float = 7.6, align: str = "CENTER",
          shade: dict[tuple[int, int], colors.Color] | None = None,
          extra: Sequence[tuple[object, ...]] = ()) -> Table:
    """A ruled card table: dark header rows, grey label columns, centred cells.

    Args:
        rows: Cell text, header rows first.
        widths_mm: Column widths in mm.
        head_rows: Rows drawn as the dark header.
        label_cols: Leading columns drawn as grey row labels.
        size: Type size of the cells (7.6 pt keeps ten columns legible in a column).
        align: Alignment of the body cells.
        shade: Background by (column, row) for single cells.
        extra: Further TableStyle commands (spans, rules).

    """
    table = Table([list(r) for r in rows], colWidths=[w * MM for w in widths_mm])
    last_head = head_rows - 1
    commands: list[tuple[object, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), fonts.NARROW),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("LEADING", (0, 0), (-1, -1), size + 1),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("ALIGN", (0, 0), (-1, -1), align),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.9),
        ("LEFTPADDING", (0, 0), (-1, -1), 1.5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 1.5),
        ("GRID", (0, 0), (-1, -1), 0.35, RULE),
        ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
    ]
    if label_cols:
        commands += [("BACKGROUND", (0, head_rows), (label_cols - 1, -1), LABEL_BG),
                     ("FONTNAME", (0, head_rows), (label_cols - 1, -1), fonts.NARROW_BOLD)]
    if head_rows:
        commands += [("BACKGROUND", (0, 0), (-1, last_head), HEAD_BG),
                     ("TEXTCOLOR", (0, 0), (-1, last_head), colors.white),
                     ("FONTNAME", (0, 0), (-1, last_head), fonts.NARROW_BOLD),
                     ("ALIGN", (0, 0), (-1, last_head), "CENTER")]
    for (col, row), colour in (shade or {}).items():
        commands.append(("BACKGROUND", (col, row), (col, row), colour))
    commands += list(extra)
    table.setStyle(TableStyle(commands))
    return table


def _even(total_mm: float, label_mm: float, count: int) -> list[float]:
    """A label column then ``count`` equal columns filling ``total_mm``."""
    return [label_mm] + [(total_mm - label_mm) / count] * count


# -- sections ---------------------------------------------------------------------------------

@dataclass
class Section:
    """A heading with its content, placed whole in one column.

    Attributes:
        title: Heading text (also the bookmark title).
        tables: Names of the tables the section prints (for DEFAULT / FROM tags).
        body: Flowables under the heading.
        new_column: Start the next column (when the current one has anything in it).

    """

    title: str
    tables: tuple[str, ...]
    body: list[Flowable] = field(default_factory=list)
    new_column: bool = False


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


# Front ----------------------------------------------------------------------------------

def sequence_of_play(tables: Tables) -> Section:
    """Phases A to F, summarised."""
    phases = [
        ("A", "Plot and allocate",
         "Note turn and hour. Write each group's moves (distances, column or flank "
         "turns, smoke), torpedo launches and two-turn runs, and aircraft and submarine "
         "moves. Name each battery's target without measuring. Assign air elements, "
         "then settle air combat and AA fire."),
        ("B", "Lay torpedo tracks",
         "A string for each spread settled this turn, marked with its torpedo count; "
         "aimed close shots are laid through the target."),
        ("C", "Gunfire",
         "Batteries fire step by step in the gunfire sequence; damage counts at once."),
        ("D", "Movement and torpedoes",
         "Move ships and submarines as plotted, torpedoed ships first; settle every "
         "spread that crosses a ship."),
        ("E", "Messages",
         f"Flagships within {_yd(tables.card.messages.visual_range_yd)} yd (signal lamp) "
         "talk freely; written messages are read a turn later."),
        ("F", "Damage control",
         "Roll for each ship whose damage is still out of control (back of card)."),
    ]
    body: list[Flowable] = [
        _p(f"<b>{letter}  {name}.</b> {text}") for letter, name, text in phases]
    body.append(_p("Plots are fixed after phase A unless the opponent agrees. Poor or bad "
                   "visibility: roll it first (back).", "note"))
    return Section("SEQUENCE OF PLAY", (), body)


def gunfire_sequence(tables: Tables, col_mm: float) -> Section:
    """Steps by caliber factor, smallest first; old guns together last."""
    rules = tables.rules
    factors = rules.caliber_factor
    old = rules.gunfire_sequence.old_guns_step
    head = ["Step", *[str(r.factor) for r in factors], str(old)]
    bores = ["Bore ≤", *[f'{r.max_bore_in:g}"' for r in factors], "any"]
    bores[-1] = "old On"
    grid = _grid([head, bores], _even(col_mm, 12, len(factors) + 1),
                 shade={(len(head) - 1, 1): LABEL_BG})
    bands = rules.range_bands
    body: list[Flowable] = [
        grid,
        Spacer(1, 1.2 * MM),
        _bullet("A new gun's step is its caliber factor (CF): the smallest, quickest guns "
                "shoot first. A step fires together and its damage lands together, before "
                "the next step."),
        _bullet(f"Old (On) guns all fire in step {old}, after every new gun, whatever "
                "their bore."),
        _bullet("A ship's batteries of one calibre and range at one target fire as one: "
                "a white die (accuracy) and a coloured die (penetration)."),
        _bullet(f"<b>Range bands:</b> close up to {bands.close[0]}/{bands.close[1]} of the "
                f"battery's maximum range, medium up to {bands.medium[0]}/{bands.medium[1]}, "
                "long up to the maximum; round fractions up. Measure only when firing."),
    ]
    return Section("GUNFIRE SEQUENCE", ("caliber_factor", "gunfire_sequence",
                                        "range_bands"), body)


def accuracy_modifiers(tables: Tables, col_mm: float) -> Section:
    """The numbered modifiers, with values (per range band where they differ)."""
    acc = tables.card.accuracy
    rows = [["No.", "Gunfire accuracy modifier", "Value"]]
    for mod in acc.modifiers:
        if mod.by_range is not None:
            value = " ".join(f"{band[0].upper()}{_signed(v)}" for band, v in
                             mod.by_range.items())
        else:
            value = _signed(mod.value or 0)
        star = "" if is_default(mod) else "*"
        rows.append([f"{mod.number}", f"{mod.label}{star}", value])
    grid = _grid(rows, [8, col_mm - 8 - 22, 22], align="LEFT", size=7.8,
                 extra=[("ALIGN", (0, 0), (0, -1), "CENTER"),
                        ("ALIGN", (2, 0), (2, -1), "CENTER"),
                        ("FONTNAME", (2, 1), (2, -1), fonts.NARROW_BOLD)])
    body: list[Flowable] = [
        grid,
        Spacer(1, 1 * MM),
        _p("Work down the list from No. 1, moving along the cumulative track (right) for "
           "each modifier that applies. C, M, L: close, medium, long range. * Value fixed "
           "by the rule text; the others are DEFAULT values (the text gives none).", "note"),
    ]
    return Section("GUNFIRE ACCURACY MODIFIERS", ("accuracy",), body)


def cumulative_track(tables: Tables) -> Section:
    """Boxes from the starting accuracy down to '≤0', with multi-hit numbers and odds."""
    acc = tables.card.accuracy
    calc = Calculator(tables)
    boxes = []
    for value in range(acc.start, -1, -1):
        hits = calc.hits(value)
        # A box's corner number is for a white die showing that number, so none on the
        # automatic-miss face or below 1.
        multi = (acc.multi_hits.get(value)
                 if 1 <= value != acc.automatic_miss else None)
        boxes.append(_TrackBox("≤0" if value == 0 else str(value),
                               multi if multi and multi > 1 else None,
                               dice.chance(hits, _scored), dice.mean(hits)))
    body: list[Flowable] = [
        _Track(boxes),
        Spacer(1, 1 * MM),
        _p(f"Start on {acc.start} and step once per point of each modifier; the box you "
           "end on is the final accuracy. Corner number: hits scored when the white die "
           "shows that box's number. <i>hit</i> is the chance of one or more hits, "
           "<i>avg</i> the mean number of hits (calculated from these tables).", "note"),
    ]
    return Section("CUMULATIVE ACCURACY TRACK", ("accuracy",), body)


def _scored(hits: int) -> bool:
    return hits >= 1


def hit_or_miss(tables: Tables) -> Section:
    """The white-die rules: automatic miss, below one, multiple hits, switching fire."""
    acc = tables.card.accuracy
    multi = ", ".join(f"{face}: {n}" for face, n in sorted(acc.multi_hits.items()))
    needs = " then ".join(map(str, acc.below_one_needs))
    switch = _join(map(str, acc.switch_fire_on), "or")
    body: list[Flowable] = [
        _bullet(f"<b>Hit</b> when the white die is at or under the final accuracy. A "
                f"<b>{acc.automatic_miss}</b> misses however good the accuracy."),
        _bullet(f"<b>Accuracy below 1:</b> only rolling {needs} (a second roll) still "
                "scores a single hit."),
        _bullet(f"<b>Multiple hits</b> (corner numbers): a hit rolled as {multi} hits."),
        _bullet(f"<b>Switching fire:</b> on a hit rolled as {switch}, once half the hits "
                "(rounded down) are resolved the battery may turn on a new target at once; "
                f"that target takes {acc.second_target_max_hits} hit at most and becomes "
                "the acquired one."),
        _bullet("Skip the range check when either die is plainly hopeless. A target fired "
                "on, hit or missed, stays acquired next turn unless it is beyond maximum "
                "range; mark hits, which earn a further bonus."),
        _bullet("Roll one coloured die per hit on the penetration table below."),
    ]
    return Section("HIT OR MISS", ("accuracy",), body)


def _diff_label(value: int, first: bool, last: bool) -> str:
    text = f"+{value}" if value > 0 else str(value)
    if first:
        return f"≤{text}"
    if last:
        return f"≥{text}"
    return text


def penetration_table(tables: Tables, col_mm: float) -> Section:
    """Coloured die rows (top down, then the dud row) against differential columns."""
    pen = tables.card.penetration
    n = len(pen.columns)
    heads = ["Die", *[_diff_label(v, i == 0, i == n - 1) for i, v in enumerate(pen.columns)]]
    title = ["", "Caliber, torpedo or bomb factor minus armor factor"] + [""] * (n - 1)
    rows = [title, heads]
    shade: dict[tuple[int, int], colors.Color] = {}
    faces = sorted(pen.rows, reverse=True)
    for face in faces:
        cells = pen.rows[face]
        rows.append([str(face), *[NO_EFFECT if c == "-" else c for c in cells]])
        for col, cell in enumerate(cells, start=1):
            if cell in SEVERITY_BG:
                shade[(col, len(rows) - 1)] = SEVERITY_BG[cell]
    rows.append([f"{pen.dud_face} dud", *[NO_EFFECT if c == "-" else c
                                          for c in pen.gunfire_dud]])
    top = max(pen.rows)
    extra: list[tuple[object, ...]] = [
        ("SPAN", (1, 0), (-1, 0)), ("SPAN", (0, 0), (0, 1)),
        ("FONTSIZE", (1, 2), (-1, -1), 8), ("LEADING", (1, 2), (-1, -1), 9),
        ("FONTNAME", (1, 2), (-1, -1), fonts.NARROW_BOLD),
        ("LINEABOVE", (0, -1), (-1, -1), 1.0, colors.black),
        ("BACKGROUND", (0, -1), (-1, -1), colors.Color(0.97, 0.97, 0.97)),
        ("FONTNAME", (1, -1), (-1, -1), fonts.NARROW),
    ]
    if top > 6:
        # Rows above a real die face are reached only by shifting up: set them apart.
        extra.append(("LINEBELOW", (0, 1 + top - 6), (-1, 1 + top - 6), 1.0, colors.black))
    grid = _grid(rows, _even(col_mm, 9.5, n), head_rows=2, shade=shade, extra=extra)
    body: list[Flowable] = [grid]
    if top > 6:
        body += [Spacer(1, 0.8 * MM),
                 _p(f"Rows above 6 (to {top}) are reached only by a shift up; past the top "
                    "row, read the top row.", "note")]
    return Section("GUNFIRE / TORPEDO PENETRATION", ("penetration",), body)


def penetration_notes(tables: Tables) -> Section:
    """Row shifts, (D), duds, the damage ladder and the inferior-calibre limits."""
    pen = tables.card.penetration
    shifts = pen.shift_up
    ladder = " · ".join(f"{escape(result)} +{steps}" for result, steps in pen.steps.items())
    levels = _levels(tables)
    limits = "; ".join(f"at {_signed(rule.max_differential)} or lower never worse than "
                       f"{escape(rule.worst)} in all" for rule in pen.inferior_limits)
    body: list[Flowable] = [
        _bullet("<b>Column:</b> the firing factor minus the target's armor factor; beyond "
                "the table use its end column."),
        _bullet(f"<b>Shift up</b> {shifts.close_range} row for close-range gunfire, "
                f"{shifts.long_range_vs_old} for long-range gunfire at old-deck (O) armor, "
                f"{shifts.bomb_vs_old} for bombs at O armor."),
        _bullet("<b>(D)</b> damages only in close-range gunfire and from bombs and "
                "torpedoes; otherwise it has no effect."),
        _bullet(f"<b>Duds:</b> a coloured {pen.dud_face} is a dud. Shells and bombs read "
                "the dud row; a torpedo dud never does damage."),
        _bullet(f"<b>Damage adds up:</b> {ladder} steps; {levels}."),
        _bullet(f"<b>Inferior calibres:</b> {limits}, however many hits land."),
        _bullet("Record damage at once; fire from the same step still goes ahead."),
    ]
    return Section("PENETRATION NOTES", ("penetration",), body)


def damage_chance(tables: Tables, col_mm: float) -> Section:
    """Chance one hit does any damage, by differential, for the usual situations."""
    pen = tables.card.penetration
    calc = Calculator(tables)
    n = len(pen.columns)
    heads = ["", *[_diff_label(v, i == 0, i == n - 1) for i, v in enumerate(pen.columns)]]
    cases: list[tuple[str, Mode, Band, bool]] = [
        ("Close", "gun", "close", False),
        ("Medium", "gun", "medium", False),
        ("Long", "gun", "long", False),
        ("Long, O", "gun", "long", True),
        ("Torpedo", "torpedo", "close", False),
    ]
    rows = [heads]
    for label, mode, band, old in cases:
        cells = []
        for diff in pen.columns:
            faces = calc.faces(diff, mode, band, old)
            cells.append(str(round(100 * sum(1 for f in faces if f.steps) / len(faces))))
        rows.append([label, *cells])
    grid = _grid(rows, _even(col_mm, 12.5, n), size=7.6)
    body: list[Flowable] = [
        grid,
        Spacer(1, 0.8 * MM),
        _p("Percent chance that a single hit damages (D or worse), worked out from the "
           "table above with its shifts, (D) rule and duds. O: old-deck armor.", "note"),
    ]
    return Section("DAMAGE CHANCE PER HIT", ("penetration",), body)


ARC_NAMES = {"BOW": "bow", "STN": "stern", "C": "centreline", "L": "left side",
             "R": "right side", "LB": "left bow", "RB": "right bow", "LS": "left stern",
             "RS": "right stern"}


def battery_arcs(tables: Tables) -> Section:
    """Where each kind of battery bears, drawn and in degrees."""
    arcs = [(key, ARC_NAMES.get(key, ""), [(start, end) for start, end in spans])
            for key, spans in tables.rules.battery_arcs.items()]
    body: list[Flowable] = [
        _Arcs(arcs),
        Spacer(1, 0.8 * MM),
        _p("Shaded: where it bears, clockwise from the bow (0°; 90° right beam). One "
           "target a battery, a second only by switching fire; a big ship's fore and aft "
           "main batteries may split.", "note"),
    ]
    return Section("BATTERY ARCS", ("battery_arcs",), body)


def _levels(tables: Tables) -> str:
    """'1 step is D, 2 is HD, 3 sinks' from the steps table."""
    pen = tables.card.penetration
    names: dict[int, str] = {}
    for result, steps in pen.steps.items():
        if result != "(D)" and steps < pen.sunk_at:
            names.setdefault(steps, result)
    parts = [f"{steps} {'step' if steps == 1 else 'steps'} = {escape(name)}"
             for steps, name in sorted(names.items())]
    return ", ".join([*parts, f"{pen.sunk_at} sink her"])


# Back ----------------------------------------------------------------------------------------

def torpedo_fire(tables: Tables, col_mm: float) -> Section:
    """The number-of-hits table and the torpedo rules."""
    torp = tables.card.torpedo_hits
    n = len(torp.columns)
    rows = [["", "Torpedoes in the spread"] + [""] * (n - 1),
            ["Die", *map(str, torp.columns)]]
    for face in sorted(torp.rows):
        rows.append([str(face), *map(str, torp.rows[face])])
    grid = _grid(rows, _even(col_mm, 9.5, n), head_rows=2, size=8,
                 extra=[("SPAN", (1, 0), (-1, 0)), ("SPAN", (0, 0), (0, 1))])
    width = torp.spread_width_yd
    runs = tables.card.torpedo_runs
    per_turn = " · ".join(f'{size}" {_yd(yd)}' for size, yd in sorted(runs.yards_per_turn.items()))
    pens = " · ".join(f'{size}" = {factor}' for size, factor in
                      sorted(tables.rules.torpedo_penetration.items()))
    body: list[Flowable] = [
        _p("NUMBER OF HITS ON TARGET (white die)", "sub"),
        grid,
        Spacer(1, 1.2 * MM),
        _bullet("Roll for each ship the spread crosses, on the column of torpedoes still "
                f"running (more than {torp.columns[-1]}: the last column). Hits leave the "
                "spread before the next ship rolls."),
        _bullet(f"<b>Wild torpedo:</b> on a spread's first roll only, a {torp.wild_face} "
                "also sends one torpedo back at the firer; roll for it on the 1 column."),
        _bullet(f"<b>Bow or stern:</b> a track within {torp.bow_stern_arc_deg}° of the "
                f"target's bow or stern counts half the torpedoes (round "
                f"{torp.halve_rounding}), except a submarine's shot at an attacker."),
        _bullet(f"<b>Aimed resolution:</b> a target within {_yd(torp.automatic_within_yd)} "
                f"yd, making {torp.slow_target_kn} kn or less, or attacked from the air "
                "needs no crossing: lay the track through it and roll."),
        _bullet("<b>Crossing:</b> otherwise roll only if ship and torpedo reach it in "
                "the same half of their moves."),
        _bullet(f"<b>Spread:</b> runs {per_turn} yd a turn"
                f"{default_label(is_default(runs))}; {_yd(width.one_turn)} "
                f"yd wide at the end ({_yd(width.one_turn / 2)} halfway), "
                f"{_yd(width.two_turn)} after a two-turn torpedo's second turn."),
        _bullet(f"<b>Damage:</b> penetration factor {pens}; (D) always damages. "
                f"{_torpedo_duds(tables)} A torpedo dud never damages, even at the last "
                "column."),
    ]
    # The runs carry their own inline DEFAULT tag: a user who replaces the hits table
    # should see the heading say so without the runs table muddying it.
    return Section("TORPEDO FIRE RESOLUTION", ("torpedo_hits", "torpedo_penetration"), body)


def _torpedo_duds(tables: Tables) -> str:
    torp = tables.card.torpedo_hits
    extra = [f"{_faces(rule.faces)} for {escape(rule.nation)} through {rule.through_year}"
             for rule in torp.extra_duds]
    text = f"Coloured {tables.card.penetration.dud_face} is a dud"
    return f"{text}, also {_join(extra)}." if extra else f"{text}."


DC_MEANING = {
    "R": "repaired one level and under control",
    "C": "under control, no repair",
    "O": "still out of control; roll again next turn",
    "W": "one level worse, still out of control",
}


def damage_control(tables: Tables, col_mm: float) -> Section:
    """Good and Poor tables, the re-rolls, the resolved odds and who has which."""
    dc = tables.card.damage_control
    calc = Calculator(tables)
    faces = range(1, 7)
    rows = [["Die", *map(str, faces)],
            ["Good", *[dc.good[f] for f in faces]],
            ["Poor", *[dc.poor[f] for f in faces]]]
    grid = _grid(rows, _even(col_mm, 12, 6), size=8.2,
                 extra=[("FONTNAME", (1, 1), (-1, -1), fonts.NARROW_BOLD)])
    odds = "; ".join(
        f"<b>{quality.title()}</b> " + " · ".join(
            f"{k} {_pct(v)}" for k, v in calc.damage_control(quality).items())
        for quality in ("good", "poor"))
    meanings = "; ".join(f"<b>{code}</b> {text}" for code, text in DC_MEANING.items())
    rerolls = "; ".join(
        f"<b>{escape(name)}</b> roll again: {_faces(r.faces)} gives {escape(r.then)}, "
        f"anything else {escape(r.otherwise)}"
        for name, r in dc.rerolls.items())
    body: list[Flowable] = [
        grid,
        Spacer(1, 1.2 * MM),
        _bullet(meanings + "."),
        _bullet(rerolls + "."),
        _bullet(f"<b>Final odds</b> with the re-rolls played out: {odds}."),
        _bullet("Once damage is under control the ship stops rolling and cannot be "
                "repaired further."),
        _bullet(_dc_navies(tables)),
    ]
    return Section("DAMAGE CONTROL", ("damage_control",), body)


def _dc_navies(tables: Tables) -> str:
    rules = tables.rules.damage_control
    dated = [f"{escape(nation)} from {day:%b %Y}"
             for nation, day in sorted(rules.good_from.items(), key=lambda kv: kv[1])]
    return (f"<b>Good:</b> {escape(', '.join(rules.always_good))} always; {_join(dated)}. "
            "<b>Poor:</b> every other navy (and those before their date).")


def aa_results(tables: Tables, col_mm: float) -> Section:
    """The Antiaircraft Results table exactly as the YAML has it, and its shifts."""
    aa = tables.card.aa_results
    n = len(aa.columns)
    rows = [["", "Total AA factor of the group"] + [""] * (n - 1),
            ["Die", *map(str, aa.columns)]]
    for face in sorted(aa.rows, reverse=True):
        rows.append([str(face), *[NO_EFFECT if c == "-" else c for c in aa.rows[face]]])
    grid = _grid(rows, _even(col_mm, 11, n), head_rows=2, size=8,
                 extra=[("SPAN", (1, 0), (-1, 0)), ("SPAN", (0, 0), (0, 1)),
                        ("FONTNAME", (1, 2), (-1, -1), fonts.NARROW_BOLD)])
    rules = tables.rules.aa_factor
    planes = tables.card.air.element_planes
    shifts = [f"{s.columns} column{'s' if s.columns != 1 else ''} right for "
              f"{escape(_phrase(s.attackers))}" for s in aa.shifts]
    body: list[Flowable] = [
        grid,
        Spacer(1, 1.2 * MM),
        _bullet(f"Read the highest column the group's total reaches; under "
                f"{aa.columns[0]} there is no AA fire. <b>X</b>: one {planes}-plane "
                "element shot down."),
        _bullet("<b>Shift</b> " + "; ".join(shifts) + ". Past the last column read the "
                "last."),
        _bullet(f"<b>AA factor:</b> 1 per {rules.guns_per_point} dual-purpose guns of "
                f'{rules.min_bore_in:g}" to {rules.max_bore_in:g}" in the group. A '
                "destroyer attacked on the fringe gets only half the AA of the bigger "
                "ships."),
        _bullet("Low-level attackers, dive bombers among them, are fired on before and "
                "again after they attack."),
    ]
    return Section("ANTIAIRCRAFT RESULTS", ("aa_results", "aa_factor"), body)


def _phrase(attackers: str) -> str:
    """'Torpedo bombers; heavy bombers' as a run-on list: 'torpedo bombers, heavy bombers'."""
    text = attackers.replace("; ", ", ")
    # Lower an initial capital only where it is not an acronym ("US", "B-17").
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        text = text[0].lower() + text[1:]
    return text


def aircraft(tables: Tables) -> Section:
    """Air combat odds, elements and the three kinds of bombing."""
    air = tables.card.air
    odds = " · ".join(f"{escape(name)} {a}:{b}" for name, (a, b) in air.combat_odds.items())
    dive, torp, level = air.dive_bombing, air.torpedo_bombing, air.level_bombing
    bombs = tables.rules.bomb_caliber
    old = tables.card.penetration.shift_up.bomb_vs_old
    body: list[Flowable] = [
        _bullet(f"<b>Elements</b> of {air.element_planes} planes by type; round "
                f"fractions. <b>Air combat</b> shoot-down odds: {odds}."),
        _bullet(f"<b>Dive bombing:</b> torpedo-hits column {dive.column} (target over 24 "
                f"kn: {dive.over_24_kn}; over 31 kn: {dive.over_31_kn}). Bomb factor "
                f"{bombs.default}, US dive bombers {bombs.us_dive_bomber}; "
                f"{old} row up against O armor. {_bad_visibility_dive(tables)}"),
        _bullet(f"<b>Torpedo bombers:</b> aimed resolution on column {torp.column}, "
                f'{torp.size_in}" torpedoes, reach {_yd(torp.range_yd)} yd.'),
        _bullet(f"<b>Level bombing:</b> every {level.high} planes at high level "
                f"({level.medium} at medium, {level.low} at low) get {level.in_six} in 6 "
                f"of one factor-{level.caliber} hit. High bombers are safe from AA, not "
                "from fighters."),
        _bullet(f"A ship evading at over {air.evasive_over_kn} kn moves bombing one "
                "column worse."),
    ]
    return Section("AIRCRAFT", ("air", "bomb_caliber"), body)


def _bad_visibility_dive(tables: Tables) -> str:
    """What dive bombers do in bad visibility, from the tables in force."""
    if tables.card.air.dive_bombing.bad_visibility == "none":
        return "No attack in bad visibility."
    shift = torpedo_bomber_shift(tables.card.aa_results.shifts)
    return (f"Bad visibility: glide-bomb, AA {shift} col. right as on torpedo bombers.")


def _radar_chance(radar: RadarDetection) -> str:
    """The radar roll, labelled as the reading of the text's unclear "1:6" it is."""
    first, second = radar.in_six, radar.land_behind_second_in_six
    if radar.reading == "detect":
        return (f"detects {first} in 6 a turn (land behind it: {first}, then {second} in 6). "
                "Our reading; --tables reading: fail: fails 1 in 6.")
    return (f"fails {first} in 6 a turn (land behind it: {first}, then {second} in 6). "
            "Your reading (--tables).")


def night_and_radar(tables: Tables, col_mm: float) -> Section:
    """Visual detection by navy, regaining contact, and radar."""
    night = tables.card.night_detection
    ranges = sorted({d.within_yd for d in [*night.JP, *night.other]}, reverse=True)
    rows = [["Navy", *[f"≤{_yd(r)}" for r in ranges]]]
    for name, steps in (("Japanese", night.JP), ("Others", night.other)):
        cells = []
        for r in ranges:
            # A range band holds the best chance of any band it lies inside.
            inside = [d.in_six for d in steps if d.within_yd >= r]
            cells.append(_in_six(max(inside)) if inside else NO_EFFECT)
        rows.append([name, *cells])
    grid = _grid(rows, _even(col_mm, 17, len(ranges)), size=7.6)
    radar = night.radar
    body: list[Flowable] = [
        _p("Chance per turn to spot an unseen group, rolled per group (yd):", "note"),
        grid,
        Spacer(1, 1 * MM),
        _bullet(f"Regaining a lost contact: +{night.regain_bonus} to the chance. A ship "
                "with D or HD damage is seen at any range."),
        _bullet(f"<b>Radar:</b> SC {_yd(radar.SC)} yd, SG {_yd(radar.SG)} yd; "
                f"{_radar_chance(radar)}"),
    ]
    return Section("NIGHT DETECTION AND RADAR", ("night_detection",), body)


def weather(tables: Tables, col_mm: float) -> Section:
    """Visibility limits and the roll; sea states."""
    vis = tables.card.visibility
    faces = sorted(vis.roll)
    roll = _grid([["Die", *map(str, faces)],
                  ["Yd", *[_signed(vis.roll[f] / 1000) + "k" if vis.roll[f] else "0"
                           for f in faces]]],
                 _even(col_mm, 11, len(faces)), head_rows=1, size=7.6)
    seas = tables.card.seas
    sea_rows = [["Sea", "Ships", "Accuracy", "Speed"]]
    for state, effects in (("Rough", seas.rough), ("Very rough", seas.very_rough)):
        for effect in effects:
            sea_rows.append([state, effect.sizes, _signed(effect.accuracy),
                             f"× {effect.speed}"])
    sea_grid = _grid(sea_rows, [16, col_mm - 16 - 16 - 14, 16, 14], size=7.6,
                     extra=[("ALIGN", (1, 1), (1, -1), "LEFT")])
    body: list[Flowable] = [
        _bullet(f"<b>Good:</b> {_yd(vis.good_yd)} yd, or the longest gun range of a ship "
                f"no worse than D, if longer. <b>Poor:</b> up to {_yd(vis.poor_yd)} yd. "
                f"<b>Bad:</b> up to {_yd(vis.bad_yd)} yd. Poor and bad: roll each turn "
                "for the change, that turn only:"),
        Spacer(1, 0.8 * MM),
        roll,
        Spacer(1, 1.5 * MM),
        sea_grid,
        Spacer(1, 0.8 * MM),
        _p("Accuracy: also modifiers on the front. Sea and visibility need not match.",
           "note"),
    ]
    return Section("VISIBILITY AND SEAS", ("visibility", "seas"), body)


def turning(tables: Tables, col_mm: float) -> Section:
    """Move lost per turn step at the named table scales."""
    costs = tables.card.turn_costs
    scales = [NAMED_SCALES[name] for name in SCALES_SHOWN]
    rows = [["Scale", *[f"{s.label} {s.yards_text()} yd/{s.unit}" for s in scales]],
            [f"Per {costs.per_degrees}°",
             *[f"{costs.lost(s.yards_per_unit):g} {s.unit} lost" for s in scales]]]
    grid = _grid(rows, _even(col_mm, 14, len(scales)), head_rows=1, size=7.6,
                 extra=[("FONTNAME", (1, 1), (-1, -1), fonts.NARROW_BOLD)])
    body: list[Flowable] = [
        grid,
        Spacer(1, 0.8 * MM),
        _p(f"Each {costs.per_degrees}° of turn, or part of it, shortens the move by the "
           "amount shown.", "note"),
    ]
    return Section("TURNING", ("turn_costs",), body)


def submarines(tables: Tables, col_mm: float) -> Section:
    """Depths, detection and attack chances by depth."""
    sub = tables.card.submarines

    def cell(table: dict[str, list[int]], depth: str) -> str:
        return _faces(table[depth]) if depth in table else NO_EFFECT

    rows = [["Depth", *sub.depths]]
    rows += [[name, *[cell(table, d) for d in sub.depths]]
             for name, table in (("Hydrophone", sub.hydrophone), ("Sonar", sub.sonar),
                                 ("Hedgehog", sub.hedgehog))]
    grid = _grid(rows, _even(col_mm, 18, len(sub.depths)), size=7.8)
    speeds = ", ".join(f"{escape(mode)} {kn} kn" for mode, kn in sub.speed_kn.items())
    depths = ", ".join(f"{escape(d)} ({DEPTH_NAMES[d]})" if d in DEPTH_NAMES else escape(d)
                       for d in sub.depths)
    patterns = sub.depth_charge_patterns
    body: list[Flowable] = [
        _p("Die rolls that detect (hydrophone, sonar) or sink (hedgehog), by depth:",
           "note"),
        grid,
        Spacer(1, 1 * MM),
        _bullet(f"Depths {depths}; one level a turn. Speed {speeds}. Crushed on "
                f"{sub.crush_2d6} with two dice: a U-boat in Ab, any other in T."),
        _bullet(f"Hydrophones within {_yd(sub.hydrophone_max_yd)} yd (roll "
                f"−{sub.hydrophone_roll_minus.get('slow_4kn', 0)} if the boat makes 4 kn or "
                f"less, −{sub.hydrophone_roll_minus.get('stopped', 0)} if stopped); sonar "
                f"beyond {_yd(sub.sonar_min_yd)} yd; one of the two per turn, instead of "
                "firing."),
        _bullet(f"<b>Depth charges:</b> pass over the boat and name a depth; right depth "
                f"and an odd die sinks her. Patterns: destroyer {patterns['destroyer']}, "
                f"escort {patterns['escort']}."
                if {"destroyer", "escort"} <= set(patterns) else
                "<b>Depth charges:</b> pass over the boat and name a depth; right depth "
                "and an odd die sinks her."),
        _bullet(f"<b>Hedgehog</b> (1943 on): sinks on the die shown; "
                f"{patterns.get('hedgehog', 0)} patterns, one a turn."),
    ]
    return Section("SUBMARINES", ("submarines",), body)


def comparative_strength(tables: Tables, col_mm: float) -> Section:
    """CS values by type, in two rows, and the victory use."""
    cs = tables.rules.comparative_strength_by_type
    types = list(cs)
    per_row = min(CS_PER_ROW, len(types))
    rows: list[list[str]] = []
    extra: list[tuple[object, ...]] = []
    for start in range(0, len(types), per_row):
        chunk = types[start:start + per_row]
        padded = chunk + [""] * (per_row - len(chunk))
        extra += [("BACKGROUND", (0, len(rows)), (-1, len(rows)), LABEL_BG),
                  ("FONTNAME", (0, len(rows)), (-1, len(rows)), fonts.NARROW_BOLD)]
        rows.append(["Type", *padded])
        rows.append(["CS", *[f"{cs[t]:g}" if t else "" for t in padded]])
    grid = _grid(rows, _even(col_mm, 10, per_row), head_rows=0, size=7.6, extra=extra)
    share = tables.card.victory.heavy_damage_share
    body: list[Flowable] = [
        grid,
        Spacer(1, 1 * MM),
        _p(f"Victory: a sunk ship gives its CS to the enemy, an HD ship {share[0]}/"
           f"{share[1]} of it. Where the scenario calls for the ratio, multiply the "
           "stronger side's losses by the ratio of the sides' CS totals ("
           f"{', '.join(t.value for t in tables.rules.strength_leaves_out)} left out).",
           "note"),
    ]
    return Section("COMPARATIVE STRENGTH", ("comparative_strength_by_type", "victory"), body)


# -- page layout -----------------------------------------------------------------------------

@dataclass
class _Column:
    """A column being filled from the top."""

    x: float
    width: float
    top: float
    bottom: float
    y: float = 0.0

    def __post_init__(self) -> None:
        self.y = self.top

    @property
    def room(self) -> float:
        """Points left at the bottom."""
        return self.y - self.bottom

    @property
    def used(self) -> bool:
        """Whether anything has been placed."""
        return self.y < self.top


@dataclass
class CardLayout:
    """The rendered card and how it filled.

    Attributes:
        pdf: PDF bytes (two pages).
        bookmarks: One per section.
        room_mm: Free height left at the foot of each column, page by page.

    """

    pdf: bytes
    bookmarks: list[Bookmark]
    room_mm: list[list[float]]


def _columns(box: SafeBox) -> list[_Column]:
    width = (box.width - GUTTER) / 2
    top = box.top - BAND_H
    return [_Column(box.x + i * (width + GUTTER), width, top, box.y + FOOTER_H)
            for i in range(2)]


def _section_flowables(tables: Tables, section: Section) -> list[Flowable]:
    return [_Heading(section.title, tags_for(tables, section.tables)), Spacer(1, 1.2 * MM),
            *section.body]


def _measure(flowables: Sequence[Flowable], canvas: Canvas, width: float) -> list[float]:
    return [f.wrapOn(canvas, width, 1000 * MM)[1] for f in flowables]


def _place(canvas: Canvas, tables: Tables, sections: Sequence[Section], box: SafeBox,
           page: int) -> tuple[list[Bookmark], list[float]]:
    """Stack sections into the page's two columns, each whole, in order.

    Raises:
        DataError: If the tables make a page's content longer than the page (a user's
            file with very long tables); the card is never silently cut.

    """
    columns = _columns(box)
    index = 0
    marks: list[Bookmark] = []
    for section in sections:
        items = _section_flowables(tables, section)
        heights = _measure(items, canvas, columns[index].width)
        need = sum(heights)
        if section.new_column and columns[index].used and index + 1 < len(columns):
            index += 1
        while need > columns[index].room:
            index += 1
            if index == len(columns):
                raise DataError([tables.locate(section.tables,
                                               "found more than fits on the Action Card's "
                                               f"{'front' if page == 0 else 'back'}, "
                                               "expected shorter tables")])
        col = columns[index]
        marks.append(Bookmark(section.title.capitalize(), page, col.y))
        for item, h in zip(items, heights, strict=True):
            item.drawOn(canvas, col.x, col.y - h)
            col.y -= h
        col.y -= SECTION_GAP
    return marks, [max(0.0, (c.room + SECTION_GAP) / MM) for c in columns]


def _band(pen: Pen, box: SafeBox, side: str, subtitle: str, tables: Tables) -> None:
    """The title band across the top of a page."""
    c = pen.c
    c.setFillColor(colors.black)
    c.rect(box.x, box.top - 9.5 * MM, box.width, 9.5 * MM, stroke=0, fill=1)
    c.setFillColor(colors.white)
    pen.text(box.x + 2.5 * MM, box.top - 6.6 * MM, "NAVAL ACTION", size=15, bold=True)
    pen.text(box.x + 45 * MM, box.top - 6.4 * MM, f"ACTION CARD · {side}", size=11,
             bold=True)
    source = ("tables: bundled" if not tables.replaced
              else f"tables: bundled + {tables.origin}")
    pen.text(box.right - 2.5 * MM, box.top - 4.3 * MM, subtitle, size=7.5, align="right",
             narrow=True, width=70 * MM)
    pen.text(box.right - 2.5 * MM, box.top - 7.7 * MM, source, size=7.5, align="right",
             narrow=True, width=70 * MM)
    c.setFillColor(colors.black)


def _footer(pen: Pen, box: SafeBox, tables: Tables, page: int) -> None:
    """Where the DEFAULT tables come from and how to replace them; user's tables named."""
    if tables.replaced:
        line = (f"From {tables.origin}: {', '.join(tables.replaced)} (tagged FROM "
                f"{tables.origin}).")
    else:
        line = "All tables bundled with quarterdeck (action-card.yaml, derivation.yaml)."
    Furniture(line, lines=("DEFAULT: a table the rule text uses but does not print, designed "
                           "by quarterdeck to meet every limit the text sets. Replace any "
                           "table with --tables FILE.",), rule=True,
              number=lambda p: f"{LABEL}{p + 1} · {'front' if p == 0 else 'back'}",
              ).draw(pen.c, box, page)


def front_sections(tables: Tables, col_mm: float) -> list[Section]:
    """The front's sections in reading order (left column, then right)."""
    track = cumulative_track(tables)
    # The track heads the right column, beside the modifiers it is read with.
    track.new_column = True
    return [sequence_of_play(tables), battery_arcs(tables), gunfire_sequence(tables, col_mm),
            accuracy_modifiers(tables, col_mm), track, hit_or_miss(tables),
            penetration_table(tables, col_mm), penetration_notes(tables),
            damage_chance(tables, col_mm)]


def back_sections(tables: Tables, col_mm: float) -> list[Section]:
    """The back's sections in reading order (left column, then right)."""
    air = aa_results(tables, col_mm)
    air.new_column = True
    return [torpedo_fire(tables, col_mm), damage_control(tables, col_mm),
            submarines(tables, col_mm), turning(tables, col_mm), air, aircraft(tables),
            night_and_radar(tables, col_mm), weather(tables, col_mm),
            comparative_strength(tables, col_mm)]


def layout_card(tables: Tables, paper: Paper) -> CardLayout:
    """Draw the card and report how full each column is.

    Args:
        tables: The tables in force (``load_tables``).
        paper: ``a4`` or ``letter``.

    Returns:
        The PDF, its bookmarks and the free room per column.

    Raises:
        DataError: If a user's tables are too long for the card.

    """
    buf = io.BytesIO()
    canvas = new_canvas(buf, paper, f"NAVAL ACTION {TITLE}")
    pen = Pen(canvas)
    box = safe_box(paper)
    col_mm = (box.width - GUTTER) / 2 / MM
    pages = [("FRONT", "Gunfire: sequence, accuracy, penetration", front_sections),
             ("BACK", "Torpedoes, damage control, air, night, weather, submarines",
              back_sections)]
    marks: list[Bookmark] = []
    room: list[list[float]] = []
    for page, (side, subtitle, sections) in enumerate(pages):
        _band(pen, box, side, subtitle, tables)
        page_marks, page_room = _place(canvas, tables, sections(tables, col_mm), box, page)
        marks += page_marks
        room.append(page_room)
        _footer(pen, box, tables, page)
        canvas.showPage()
    canvas.save()
    return CardLayout(buf.getvalue(), marks, room)


def render_action_card(tables: Tables, paper: Paper) -> Component:
    """The NAVAL ACTION Action Card, front and back, as a two-page component.

    Args:
        tables: The tables in force (bundled, or with a user's ``--tables`` file).
        paper: ``a4`` or ``letter``.

    Returns:
        The component (key ``card``), with a bookmark per section.

    Raises:
        DataError: If a user's tables are too long for the card.

    """
    card = layout_card(tables, paper)
    return Component(KEY, TITLE, LABEL, card.pdf, 2, card.bookmarks, two_sided=True)
