"""The floor: bare ReportLab drawing what the status sheets draw, and nothing more.

``render_floor`` takes plain ship descriptions (strings and counts, prepared untimed by
``specs_from_views``) and draws, for each ship, the primitives that
``generator.rulesets.naval_action.components.status_sheet.draw_ship`` draws, with the
same fonts, sizes, strings, colours and geometry, one canvas call per primitive:

* header: 1 shaded rect; name, subtitle, side, scenario line (+ start damage) = 4-5 texts
* factors: 8 caption boxes = 8 rects, 8 captions, 8 values, up to 8 sub-captions
* battery table: 9 column titles, 1 rule
* per battery: 7 text cells, an arc icon (circle, one wedge per arc, a 5-point hull
  path), the DP/old sub-caption if any, one rect per ammunition box, the rounds line,
  1 rule (or 1 text when the battery is out of action)
* torpedoes: 2 texts; per mount 2 texts and one rect per tube, plus 1 text and one rect
  per reload when it has reloads (or "None carried.")
* damage: 1 rule, 1 text, 3 rects + 3 texts (+ strike-through lines when damaged),
  5 texts and 8 tick boxes of damage control, 1 rule text
* notes: 1 title, one text per note; the light closing rule (a 0.5 pt rect)
* per ship a dashed cut line (when its gap fits on the page); per page a footer of 2
  texts; each side on new pages. Pages break where ``generator.pages.pages.Flow`` breaks
  them, using each block's height as the status sheet draws it (measured untimed)

What it leaves out is quarterdeck's own work: text fitting and clipping (the string
width look-ups of ``Pen.text``), the invisible font primer, the derivations, bookmarks
and page labels. ``bench/run.py`` counts the canvas calls of both and prints them side
by side, so the mirror can be checked.

Run alone: ``python bench/floor_reportlab.py --ships 500 --out /tmp/floor.pdf``.
"""

from __future__ import annotations

import argparse
import io
import math
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts

MM = 72 / 25.4
GREY = colors.Color(0.55, 0.55, 0.55)
LIGHT = colors.Color(0.86, 0.86, 0.86)
SHADE = colors.Color(0.93, 0.93, 0.93)
DARK = colors.Color(0.35, 0.35, 0.35)
BLACK = colors.black
WHITE = colors.white

REGULAR, BOLD, NARROW, NARROW_BOLD = fonts.REGULAR, fonts.BOLD, fonts.NARROW, fonts.NARROW_BOLD

# Geometry of the status sheets (A4, safe box 190 x 259.4 mm centred on the page).
SAFE_W = min(A4[0], LETTER[0]) - 20 * MM
SAFE_H = min(A4[1], LETTER[1]) - 20 * MM
BOX_X = (A4[0] - SAFE_W) / 2
BOX_Y = (A4[1] - SAFE_H) / 2
BOX_TOP = BOX_Y + SAFE_H
BOX = 3.4 * MM
GAP = 0.9 * MM
HEADER_H = 13 * MM
FACTORS_H = 15 * MM
ROW_MIN = 10.5 * MM
GAP_BLOCKS = 6 * MM
FOOTER_SPACE = 6 * MM  # generator.pages.pages.FOOTER_SPACE: a one-line footer's room
CLOSING_RULE = 0.5  # status_sheet.CLOSING_RULE: the light rule that ends every block
COLUMNS = [("Bty", 11), ("Arc", 11), ("Guns", 17), ("CF", 8), ("Seq", 8),
           ("Close to yd", 15), ("Medium to", 15), ("Long to", 15)]
FIXED_W = sum(w for _, w in COLUMNS) * MM
PER_ROW = int((SAFE_W - FIXED_W - 2 * MM + GAP) // (BOX + GAP))
# Font and size of the seven battery cells (every column but "Arc").
CELL_FONTS = [(BOLD, 10), (NARROW, 9), (NARROW_BOLD, 9), (NARROW, 9), (NARROW, 9),
              (NARROW, 9), (NARROW, 9)]
AMMO_TITLE = "Ammunition: one box per turn of fire (cross one off each turn the battery fires)"
TORPEDO_TITLE = ("cross a tube box when fired, a reload box when reloaded · penetration 6/7/8 "
                 "for 18/21/24in")
CS_RULE = "Comparative strength lost: ½ CS for HD, full CS if sunk."


@dataclass
class BatterySpec:
    """One gun battery, as printed."""

    cells: list[str]
    arcs: list[tuple[float, float]]
    sub: str
    ammo_boxes: int
    rounds: str
    disabled: bool


@dataclass
class TorpedoSpec:
    """One torpedo mount, as printed."""

    label: str
    tubes: int
    reloads: int


@dataclass
class ShipSpec:
    """Everything one ship block prints: strings and box counts."""

    name: str
    subtitle: str
    side: str
    line: str
    damage: str | None
    start_damage: str | None
    fields: list[tuple[str, str, str]]
    batteries: list[BatterySpec]
    torpedoes: list[TorpedoSpec]
    damage_control: str
    notes: list[str] = field(default_factory=list)
    drawn: float | None = None
    """The block's height as the status sheet draws it (``status_sheet.ship_height``),
    measured while preparing, so pages break where the kit's pages break."""

    @property
    def height(self) -> float:
        """Height of the block: as drawn when known, else the block arithmetic."""
        if self.drawn is not None:
            return self.drawn
        h = HEADER_H + FACTORS_H + 6 * MM
        h += sum(ROW_MIN if b.disabled else
                 max(ROW_MIN, max(1, math.ceil(b.ammo_boxes / PER_ROW)) * (BOX + GAP) + 4.2 * MM)
                 for b in self.batteries) or ROW_MIN
        h += 6 * MM + max(1, len(self.torpedoes)) * 6.5 * MM
        h += 16 * MM
        h += 5 * MM + max(1, len(self.notes)) * 4.2 * MM
        return h


def specs_from_views(views: list[Any], scenario_line: str) -> list[ShipSpec]:
    """The strings and counts ``draw_ship`` prints for each view (data preparation only)."""
    from generator.rulesets.naval_action.components.status_sheet import ship_height
    from generator.rulesets.naval_action.derive import format_fraction
    from generator.rulesets.naval_action.schema import NATION_NAMES, TYPE_NAMES

    specs = []
    for view in views:
        cls = view.cls
        air = cls.aircraft
        if air and (air.fighters or air.dive_bombers or air.torpedo_bombers):
            aircraft = f"{air.fighters}F {air.dive_bombers}DB {air.torpedo_bombers}TB"
        elif air and air.floatplanes:
            aircraft = f"{air.floatplanes} float"
        else:
            aircraft = "—"
        fields = [
            ("ARMOR", view.armor_label, "O = old deck" if cls.armor.old_deck else
             (f"belt {cls.armor.belt_in:g}in" if cls.armor.belt_in else "unarmoured")),
            ("SPEED kn", f"{view.speed_kn:g}", f"{view.units_per_turn:.1f} {view.move_unit} per "
             "turn" if view.units_per_turn else ""),
            ("LENGTH ft", f"{cls.length_ft:g}", f"{cls.length_ft * 0.3048:.0f} m"),
            ("AA FACTOR", format_fraction(view.aa_factor) or "0", "1 per 4 DP guns"),
            ("DAMAGE CONTROL", view.damage_control, "by nation & date"),
            ("RADAR", view.radar or "none",
             f"to {view.radar_range_yd:,} yd" if view.radar_range_yd else ""),
            ("AIRCRAFT", aircraft, f"{air.catapults} catapult(s)" if air and air.catapults else ""),
            ("CS", f"{view.comparative_strength:g}", "comparative str."),
        ]
        batteries = []
        for b in view.batteries:
            sub = ("DP" if b.dp else "") + (" old" if b.old else "")
            rounds = f"{b.rounds_per_gun} rds/gun" + (" (scenario limit)"
                                                      if b.rounds_limited else "")
            batteries.append(BatterySpec(
                [b.position, b.label, str(b.caliber_factor), "On" if b.old else str(b.fire_step),
                 f"{b.close_yd:,}", f"{b.medium_yd:,}", f"{b.max_range_yd:,}"],
                list(b.arcs), sub.strip(), b.ammo_boxes, rounds, b.disabled))
        torpedoes = []
        for t in view.torpedoes:
            side = {"L": "left side", "R": "right side", "C": "centreline"}[t.side]
            label = f"{t.size_in}in × {t.tubes}  ·  {side}  ·  pen {t.penetration}"
            torpedoes.append(TorpedoSpec(label + ("  ·  2-turn" if t.two_turn else ""),
                                         t.tubes, t.reloads))
        notes = list(view.notes)
        if cls.unverified:
            notes.append("Some figures of this class are unverified; see the Master List.")
        specs.append(ShipSpec(
            name=view.name.upper(),
            subtitle=(f"{view.ship.hull or cls.type.value} · {cls.name} class · "
                      f"{TYPE_NAMES[cls.type.value]} · {NATION_NAMES[cls.nation.value]}"),
            side=view.side_name, line=scenario_line,
            damage=f"Starts with {view.start_damage} damage" if view.start_damage else None,
            start_damage=view.start_damage, fields=fields, batteries=batteries,
            torpedoes=torpedoes, damage_control=view.damage_control, notes=notes,
            drawn=ship_height(view, SAFE_W)))
    return specs


def _boxes(c: Canvas, x: float, y: float, count: int, per_row: int) -> None:
    c.setLineWidth(0.6)
    for i in range(count):
        row, col = divmod(i, per_row)
        c.rect(x + col * (BOX + GAP), y - (row + 1) * BOX - row * GAP, BOX, BOX, stroke=1, fill=0)


def _text(c: Canvas, x: float, y: float, text: str, font: str, size: float) -> None:
    c.setFont(font, size)
    c.drawString(x, y, text)


def _centred(c: Canvas, x: float, y: float, text: str, font: str, size: float) -> None:
    c.setFont(font, size)
    c.drawCentredString(x, y, text)


def _right(c: Canvas, x: float, y: float, text: str, font: str, size: float) -> None:
    c.setFont(font, size)
    c.drawRightString(x, y, text)


def _arc_icon(c: Canvas, cx: float, cy: float, r: float, arcs: list[tuple[float, float]]) -> None:
    c.setLineWidth(0.4)
    c.setStrokeColor(GREY)
    c.setFillColor(WHITE)
    c.circle(cx, cy, r, stroke=1, fill=1)
    c.setFillColor(DARK)
    for start, end in arcs:
        c.wedge(cx - r, cy - r, cx + r, cy + r, 90 - end, end - start, stroke=0, fill=1)
    c.setFillColor(WHITE)
    c.setStrokeColor(BLACK)
    path = c.beginPath()
    path.moveTo(cx, cy + r * 0.62)
    path.lineTo(cx + r * 0.2, cy - r * 0.1)
    path.lineTo(cx + r * 0.14, cy - r * 0.55)
    path.lineTo(cx - r * 0.14, cy - r * 0.55)
    path.lineTo(cx - r * 0.2, cy - r * 0.1)
    path.close()
    c.drawPath(path, stroke=1, fill=1)
    c.setFillColor(BLACK)


def draw_ship(c: Canvas, top: float, s: ShipSpec) -> float:
    """Draw one ship block from its top edge; return its bottom edge."""
    x, w, y = BOX_X, SAFE_W, top
    c.setFillColor(SHADE)
    c.rect(x, y - HEADER_H, w, HEADER_H, stroke=0, fill=1)
    c.setFillColor(BLACK)
    _text(c, x + 2 * MM, y - 8.2 * MM, s.name, BOLD, 17)
    _text(c, x + 2 * MM, y - 11.8 * MM, s.subtitle, NARROW, 7.5)
    _right(c, x + w - 2 * MM, y - 5 * MM, s.side, BOLD, 8)
    _right(c, x + w - 2 * MM, y - 9 * MM, s.line, REGULAR, 7.5)
    if s.damage:
        _right(c, x + w - 2 * MM, y - 12.3 * MM, s.damage, BOLD, 7.5)
    y -= HEADER_H + 1.5 * MM

    fw = w / len(s.fields)
    for i, (cap, val, sub) in enumerate(s.fields):
        bx, bw = x + i * fw, fw - 1 * MM if i < len(s.fields) - 1 else fw
        c.setLineWidth(0.6)
        c.setStrokeColor(BLACK)
        c.rect(bx, y - FACTORS_H, bw, FACTORS_H, stroke=1, fill=0)
        _text(c, bx + 1.5 * MM, y - 3.6 * MM, cap, NARROW, 7)
        _centred(c, bx + bw / 2, y - 9.6 * MM, val, BOLD, 13)
        if sub:
            _centred(c, bx + bw / 2, y - FACTORS_H + 1.6 * MM, sub, NARROW, 7)
    y -= FACTORS_H + 2 * MM

    cx = x
    for title, width in COLUMNS:
        _text(c, cx + 1 * MM, y - 3.2 * MM, title, NARROW_BOLD, 7)
        cx += width * MM
    _text(c, cx + 1 * MM, y - 3.2 * MM, AMMO_TITLE, NARROW_BOLD, 7)
    y -= 4 * MM
    c.setLineWidth(0.8)
    c.line(x, y, x + w, y)
    if not s.batteries:
        _text(c, x + 2 * MM, y - 5 * MM, "No gun batteries.", REGULAR, 8)
        y -= ROW_MIN
    for b in s.batteries:
        rows = max(1, math.ceil(b.ammo_boxes / PER_ROW))
        h = ROW_MIN if b.disabled else max(ROW_MIN, rows * (BOX + GAP) + 4.2 * MM)
        mid = y - 5.2 * MM
        _text(c, x + 1 * MM, mid - 1.2 * MM, b.cells[0], *CELL_FONTS[0])
        _arc_icon(c, x + 16.5 * MM, mid, 4.2 * MM, b.arcs)
        cx = x + 22 * MM
        for (_title, width), cell, font in zip(COLUMNS[2:], b.cells[1:], CELL_FONTS[1:],
                                               strict=True):
            _text(c, cx + 1 * MM, mid - 1.2 * MM, cell, *font)
            cx += width * MM
        if b.sub:
            _text(c, x + 23 * MM, y - h + 1.3 * MM, b.sub, NARROW, 7)
        if b.disabled:
            _text(c, x + FIXED_W + 1 * MM, mid - 1.2 * MM, "OUT OF ACTION in this scenario",
                  BOLD, 9)
        else:
            _boxes(c, x + FIXED_W + 1 * MM, y - 1.5 * MM, b.ammo_boxes, PER_ROW)
            _right(c, x + w - 1 * MM, y - h + 1.3 * MM, b.rounds, NARROW, 7)
        y -= h
        c.setLineWidth(0.3)
        c.setStrokeColor(GREY)
        c.line(x, y, x + w, y)
        c.setStrokeColor(BLACK)

    y -= 2 * MM
    _text(c, x, y - 3.2 * MM, "TORPEDOES", BOLD, 8)
    _text(c, x + 22 * MM, y - 3.2 * MM, TORPEDO_TITLE, NARROW, 7)
    y -= 4.5 * MM
    if not s.torpedoes:
        _text(c, x + 2 * MM, y - 4 * MM, "None carried.", REGULAR, 8)
        y -= 6.5 * MM
    for t in s.torpedoes:
        _text(c, x + 2 * MM, y - 4.2 * MM, t.label, NARROW, 8.5)
        _text(c, x + 66 * MM, y - 4.2 * MM, "tubes", NARROW, 7)
        _boxes(c, x + 74 * MM, y - 1.4 * MM, t.tubes, 12)
        if t.reloads:
            rx = x + 74 * MM + 12 * (BOX + GAP) + 4 * MM
            _text(c, rx, y - 4.2 * MM, "reloads", NARROW, 7)
            _boxes(c, rx + 10 * MM, y - 1.4 * MM, t.reloads, 12)
        y -= 6.5 * MM

    y -= 1.5 * MM
    c.setLineWidth(0.3)
    c.setStrokeColor(GREY)
    c.line(x, y, x + w, y)
    c.setStrokeColor(BLACK)
    y -= 1.5 * MM
    _text(c, x, y - 4 * MM, "DAMAGE", BOLD, 8)
    dx = x + 17 * MM
    for label in ("D", "HD", "SUNK"):
        bw = 14 * MM if label != "SUNK" else 17 * MM
        c.setLineWidth(1.0)
        c.rect(dx, y - 11 * MM, bw, 10 * MM, stroke=1, fill=0)
        _centred(c, dx + bw / 2, y - 4 * MM, label, BOLD, 9)
        if s.start_damage and (label == "D" or (label == "HD" and s.start_damage == "HD")):
            c.line(dx + 1 * MM, y - 10 * MM, dx + bw - 1 * MM, y - 5 * MM)
        dx += bw + 2 * MM
    tx = dx + 4 * MM
    step = 6 * (BOX + GAP)
    _text(c, tx, y - 4 * MM, f"DAMAGE CONTROL {s.damage_control}", BOLD, 8)
    _text(c, tx, y - 8 * MM, "Out of control", NARROW, 7)
    _boxes(c, tx + 20 * MM, y - 5.3 * MM, 6, 6)
    _text(c, tx + 20 * MM + step + 3 * MM, y - 8 * MM, "Controlled", NARROW, 7)
    _boxes(c, tx + 20 * MM + step + 17 * MM, y - 5.3 * MM, 1, 1)
    _text(c, tx + 20 * MM + step + 23 * MM, y - 8 * MM, "Repaired", NARROW, 7)
    _boxes(c, tx + 20 * MM + step + 35 * MM, y - 5.3 * MM, 1, 1)
    _text(c, tx, y - 12 * MM, CS_RULE, NARROW, 7)
    y -= 14.5 * MM

    _text(c, x, y - 3.5 * MM, "NOTES", BOLD, 8)
    y -= 5 * MM
    if not s.notes:
        y -= 4.2 * MM  # a line to write on: the closing rule below is its line
    for note in s.notes:
        _text(c, x + 2 * MM, y - 3 * MM, note, REGULAR, 8)
        y -= 4.2 * MM
    c.setFillColor(LIGHT)  # the closing rule every block ends with
    c.rect(x, y, w, CLOSING_RULE, stroke=0, fill=1)
    c.setFillColor(BLACK)
    return y


def _footer(c: Canvas, title: str, page: int) -> None:
    _text(c, BOX_X, BOX_Y + 1.5 * MM, f"quarterdeck · NAVAL ACTION · {title}", NARROW, 7)
    _right(c, BOX_X + SAFE_W, BOX_Y + 1.5 * MM, f"{page + 1}", NARROW, 7)


def render_floor(ships: list[ShipSpec], out: str | Path | BinaryIO, *,
                 compress: bool = False, count_only: bool = False) -> int:
    """Draw every ship into one PDF and return the page count.

    Two ships share a page when they fit; each side starts on a new page with its own
    footer title and page numbers, as each side's sheets are their own component.

    Args:
        ships: The ship blocks to draw, side by side.
        out: File name or binary file.
        compress: Deflate page streams (ReportLab's default). The status sheets are
            rendered uncompressed (packets compress after merging), so the like-for-like
            floor is ``compress=False``.
        count_only: Only count the pages (nothing is drawn or written).

    """
    fonts.register()
    c = Canvas(out if isinstance(out, io.IOBase) else str(out), pagesize=A4, invariant=1,
               pageCompression=int(compress))
    pages = 0
    page = 0
    top = BOX_TOP
    used = 0
    side = ships[0].side if ships else ""
    bottom = BOX_Y + FOOTER_SPACE
    for s in ships:
        # The page flow of generator.pages.pages.Flow: a block that does not fit starts a page;
        # the gap after it never does, and its cut line is drawn only when it fits.
        new_side = s.side != side
        if used and (new_side or s.height > top - bottom + 1e-6):
            _footer(c, f"Ship status: {side}", page)
            c.showPage()
            pages += 1
            page = 0 if new_side else page + 1
            top = BOX_TOP
            used = 0
        side = s.side
        if not count_only:
            draw_ship(c, top, s)
        used += 1
        top -= s.height
        if GAP_BLOCKS <= top - bottom + 1e-6:
            c.setDash(3, 3)
            c.setStrokeColor(GREY)
            c.line(BOX_X, top - GAP_BLOCKS / 2, BOX_X + SAFE_W, top - GAP_BLOCKS / 2)
            c.setDash()
            c.setStrokeColor(BLACK)
        top -= GAP_BLOCKS
    if count_only:
        return pages + 1
    _footer(c, f"Ship status: {side}", page)
    c.showPage()
    c.save()
    return pages + 1


def fleet_specs(ships: int, folder: Path) -> list[ShipSpec]:
    """Specs of a generated fleet of ``ships`` ships (see ``bench/fleet.py``), all sides."""
    from fleet import write_fleet

    from generator.data.library import validated_library
    from generator.rulesets.naval_action import RULESET

    sid = write_fleet(folder, ships, validated_library([]))
    library = validated_library([folder])
    scenario = library.scenarios[sid].model
    views = RULESET._views(library, scenario)  # the same views the build renders
    line = f"{scenario.name} · {scenario.date_label or scenario.date.isoformat()}"
    return [spec for side in scenario.sides for spec in specs_from_views(views[side.id], line)]


def specs_to_json(specs: list[ShipSpec]) -> str:
    """The specs as JSON, for a cold floor process that must not import quarterdeck."""
    import dataclasses
    import json

    return json.dumps([dataclasses.asdict(s) for s in specs])


def specs_from_json(text: str) -> list[ShipSpec]:
    """Specs written by ``specs_to_json``."""
    import json

    specs = []
    for raw in json.loads(text):
        raw["batteries"] = [BatterySpec(**{**b, "arcs": [tuple(a) for a in b["arcs"]]})
                            for b in raw["batteries"]]
        raw["torpedoes"] = [TorpedoSpec(**t) for t in raw["torpedoes"]]
        raw["fields"] = [tuple(f) for f in raw["fields"]]
        specs.append(ShipSpec(**raw))
    return specs


def pages_of(specs: list[ShipSpec], pages: int) -> list[ShipSpec]:
    """``specs`` repeated (whole sides at a time) until drawing them fills ``pages`` pages."""
    if not specs:
        return []
    chosen: list[ShipSpec] = []
    while True:
        for spec in specs:
            chosen.append(spec)
            if render_floor(chosen, io.BytesIO(), count_only=True) > pages:
                return chosen[:-1]


def main() -> None:
    """Time the floor alone: a generated fleet, or (``--specs``) prepared ships, cold."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ships", type=int, default=500)
    parser.add_argument("--out", type=Path, default=None, help="PDF to write (default: a temp)")
    parser.add_argument("--compress", action="store_true", help="deflate page streams")
    parser.add_argument("--specs", type=Path, default=None,
                        help="JSON of prepared ships (specs_to_json): draw them and exit, "
                             "the way bench/cold.py times a cold floor process")
    args = parser.parse_args()
    if args.specs is not None:
        pages = render_floor(specs_from_json(args.specs.read_text(encoding="utf-8")),
                             args.out or io.BytesIO(), compress=args.compress)
        print(pages)
        return
    with tempfile.TemporaryDirectory() as tmp:
        specs = fleet_specs(args.ships, Path(tmp) / "data")
        out = args.out or Path(tmp) / "floor.pdf"
        render_floor(specs[:2], io.BytesIO(), compress=args.compress)  # warm-up
        start = time.perf_counter()
        pages = render_floor(specs, out, compress=args.compress)
        elapsed = time.perf_counter() - start
        print(f"floor: {len(specs)} ships, {pages} pages, {elapsed:.3f} s, "
              f"{out.stat().st_size / 1e6:.1f} MB -> {out}")


if __name__ == "__main__":
    main()
