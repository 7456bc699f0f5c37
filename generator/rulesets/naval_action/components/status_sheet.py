"""Ship status sheets: one or two ships per page, and the blank master.

Each ship block shows identity, every factor (derived values marked), gun batteries
with arcs, range bands, firing step and ammunition tick boxes, torpedo mounts with
tube and reload boxes, the damage track and damage control, and notes.

A ship block is a ``pages.Recorded`` block: the painter below draws it once on a
recorder, its own cursor gives the height, and the page replays what it recorded, so
the height used to decide what shares a page is the height drawn.
"""

from __future__ import annotations

import math
from fractions import Fraction

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core.units import MM
from generator.pages.component import Bookmark, Component
from generator.pages.furniture import Furniture
from generator.pages.layout import Paper, Pen, SafeBox
from generator.pages.pages import Document, Recorded, Spacer
from generator.pages.refcard import arc_icon
from generator.pages.sheetparts import CutLine, caption_box
from generator.rulesets.naval_action import cardtables
from generator.rulesets.naval_action.cardtables import Tables
from generator.rulesets.naval_action.derive import BatteryView, ShipView, format_fraction, knots
from generator.rulesets.naval_action.schema import NATION_NAMES, TYPE_NAMES

GREY = colors.Color(0.55, 0.55, 0.55)
LIGHT = colors.Color(0.86, 0.86, 0.86)
SHADE = colors.Color(0.93, 0.93, 0.93)

BOX = 3.4 * MM
GAP = 0.9 * MM
HEADER_H = 13 * MM
FACTORS_H = 15 * MM
ROW_MIN = 10.5 * MM
GAP_BLOCKS = 6 * MM
CLOSING_RULE = 0.5
"""Thickness (points) of the rule that closes a ship block: its lowest mark."""
BLANK_BATTERIES = 4
# Battery table columns: (title, width in mm). Ammunition takes the rest.
COLUMNS = [("Bty", 11), ("Arc", 11), ("Guns", 17), ("CF", 8), ("Seq", 8),
           ("Close to yd", 15), ("Medium to", 15), ("Long to", 15)]
FIXED_W = sum(w for _, w in COLUMNS) * MM


def _ammo_per_row(width: float) -> int:
    return int((width - FIXED_W - 2 * MM + GAP) // (BOX + GAP))


def _battery_height(b: BatteryView | None, per_row: int) -> float:
    if b is None or b.disabled:
        return ROW_MIN
    rows = max(1, math.ceil(b.ammo_boxes / per_row))
    return max(ROW_MIN, rows * (BOX + GAP) + 4.2 * MM)


def ship_height(view: ShipView | None, width: float, tables: Tables | None = None) -> float:
    """Height a ship block needs (so two short ships can share a page): as drawn."""
    return ship_block(view, tables=tables).wrap(width)


def ship_block(view: ShipView | None, scenario_line: str = "",
               tables: Tables | None = None) -> Recorded:
    """One ship's block (the blank master's when ``view`` is None) for a page flow.

    Args:
        view: Derived ship, or None for a blank block.
        scenario_line: Scenario name and date for the header.
        tables: Tables in force (legends read from them); the active ones if None.

    """
    in_force = tables or cardtables.active()
    return Recorded(lambda c, w: _paint_ship(c, w, view, scenario_line, in_force))


def old_deck_value(factor: int) -> str:
    """The armor box's value for old-deck armor: the factor, then "old" (never "O4")."""
    return f"{factor} old"


def old_deck_note(factor: int, tables: Tables) -> str:
    """The old-deck rule for this ship, in the words of the sheet."""
    shift = tables.card.penetration.shift_up
    rows = "row" if shift.long_range_vs_old == 1 else "rows"
    return (f"Armor {factor} old: old-deck armor, marked O{factor} (letter O) on the matchups "
            f"and the Action Card. Penetration against it shifts up "
            f"{shift.long_range_vs_old} {rows} for long-range gunfire and "
            f"{shift.bomb_vs_old} for bombs.")


def _yd(value: int) -> str:
    return f"{value:,}"


def draw_ship(pen: Pen, box: SafeBox, top: float, view: ShipView | None,
              scenario_line: str = "") -> float:
    """Draw one ship block (or the blank master when ``view`` is None).

    Args:
        pen: Drawing helper.
        box: The page's safe box (x and width are used).
        top: Top edge of the block.
        view: Derived ship, or None for a blank block.
        scenario_line: Scenario name and date for the header.

    Returns:
        The y of the block's bottom edge.

    """
    block = ship_block(view, scenario_line)
    height = block.wrap(box.width)
    block.draw(pen.c, box.x, top)
    return top - height


def _share(value: tuple[int, int]) -> str:
    """A victory share as the card writes it: ½, ¼, 2/3."""
    frac = Fraction(*value)
    text = format_fraction(frac)
    return text if "." not in text else f"{frac.numerator}/{frac.denominator}"


def _thin_rule(c: Canvas, x: float, y: float, w: float) -> None:
    """A thin grey rule across the block: between batteries, and above the damage track."""
    c.setLineWidth(0.3)
    c.setStrokeColor(GREY)
    c.line(x, y, x + w, y)
    c.setStrokeColor(colors.black)


def _paint_ship(c: Canvas, w: float, view: ShipView | None, scenario_line: str,
                tables: Tables) -> float:
    """Draw a ship block with its top-left corner at (0, 0); returns its height.

    The block ends with a thin closing rule, so its lowest mark is its bottom edge.
    """
    pen = Pen(c)
    x = 0.0
    y = 0.0
    rules = tables.rules
    # -- header
    c.setFillColor(SHADE)
    c.rect(x, y - HEADER_H, w, HEADER_H, stroke=0, fill=1)
    c.setFillColor(colors.black)
    if view:
        cls = view.cls
        pen.text(x + 2 * MM, y - 8.2 * MM, view.name.upper(), size=17, bold=True, width=w * 0.45)
        pen.text(x + 2 * MM, y - 11.8 * MM,
                 f"{view.ship.hull or cls.type.value} · {cls.name} class · "
                 f"{TYPE_NAMES[cls.type.value]} · {NATION_NAMES[cls.nation.value]}",
                 size=7.5, narrow=True, width=w * 0.55)
        pen.text(x + w - 2 * MM, y - 5 * MM, view.side_name, size=8, bold=True, align="right",
                 width=w * 0.4)
        pen.text(x + w - 2 * MM, y - 9 * MM, scenario_line, size=7.5, align="right",
                 width=w * 0.4)
        if view.start_damage:
            pen.text(x + w - 2 * MM, y - 12.3 * MM, f"Starts with {view.start_damage} damage",
                     size=7.5, bold=True, align="right", width=w * 0.4)
    else:
        pen.text(x + 2 * MM, y - 5 * MM, "SHIP", size=7, narrow=True)
        c.line(x + 12 * MM, y - 8.5 * MM, x + w * 0.5, y - 8.5 * MM)
        pen.text(x + w * 0.52, y - 5 * MM, "TYPE / CLASS / NATION", size=7, narrow=True)
        c.line(x + w * 0.52, y - 8.5 * MM, x + w - 2 * MM, y - 8.5 * MM)
        pen.text(x + 2 * MM, y - 12 * MM, "SIDE / SCENARIO", size=7, narrow=True)
        c.line(x + 25 * MM, y - 12.3 * MM, x + w - 2 * MM, y - 12.3 * MM)
    y -= HEADER_H + 1.5 * MM

    # -- factors
    fields: list[tuple[str, str, str]]
    if view:
        cls = view.cls
        air = cls.aircraft
        if air and (air.fighters or air.dive_bombers or air.torpedo_bombers):
            aircraft = f"{air.fighters}F {air.dive_bombers}DB {air.torpedo_bombers}TB"
        elif air and air.floatplanes:
            aircraft = f"{air.floatplanes} float"
        else:
            aircraft = "—"
        speed_sub = (f"{view.units_per_turn:.1f} {view.move_unit} per turn"
                     if view.units_per_turn else "")
        speed_value = knots(view.speed_kn)
        under = view.submerged_units_per_turn
        if view.submerged_kn is not None:
            # A submarine: surfaced / submerged, as the text gives them.
            speed_value = f"{knots(view.speed_kn)}/{knots(view.submerged_kn)}"
            speed_sub = (f"{view.units_per_turn:.1f}/{under:.1f} {view.move_unit} surf./sub."
                         if view.units_per_turn and under is not None else "surf./sub.")
        # "O4" in a box reads as "04": the factor is printed alone, "old" beside it, and
        # the old-deck rule is spelt out in the ship's notes.
        fields = [
            ("ARMOR", old_deck_value(view.armor_factor) if cls.armor.old_deck
             else view.armor_label, "old deck: see notes" if cls.armor.old_deck else
             (f"belt {cls.armor.belt_in:g}in" if cls.armor.belt_in else "unarmoured")),
            ("SPEED kn", speed_value, speed_sub),
            ("LENGTH ft", f"{cls.length_ft:g}", f"{cls.length_ft * 0.3048:.0f} m"),
            ("AA FACTOR", format_fraction(view.aa_factor) or "0",
             f"1 per {rules.aa_factor.guns_per_point} DP guns"),
            ("DAMAGE CONTROL", view.damage_control, "by nation & date"),
            ("RADAR", view.radar or "none",
             f"to {view.radar_range_yd:,} yd" if view.radar_range_yd else ""),
            ("AIRCRAFT", aircraft, f"{air.catapults} catapult(s)" if air and air.catapults else ""),
            ("CS", f"{view.comparative_strength:g}", "comparative str."),
        ]
    else:
        fields = [(t, "", "") for t in ("ARMOR", "SPEED kn", "LENGTH ft", "AA FACTOR",
                                         "DAMAGE CONTROL", "RADAR", "AIRCRAFT", "CS")]
    fw = w / len(fields)
    for i, (cap, val, sub) in enumerate(fields):
        caption_box(pen, x + i * fw, y, fw - 1 * MM if i < len(fields) - 1 else fw, FACTORS_H,
                     cap, val, sub)
    y -= FACTORS_H + 2 * MM

    # -- gun batteries
    per_row = _ammo_per_row(w)
    cx = x
    for title, width in COLUMNS:
        pen.text(cx + 1 * MM, y - 3.2 * MM, title, size=7, bold=True, narrow=True,
                 width=width * MM - 1.5 * MM)
        cx += width * MM
    pen.text(cx + 1 * MM, y - 3.2 * MM,
             "Ammunition: one box per turn of fire (cross one off each turn the battery fires)",
             size=7, bold=True, narrow=True, width=w - FIXED_W - 2 * MM)
    y -= 4 * MM
    c.setLineWidth(0.8)
    c.line(x, y, x + w, y)
    batteries: list[BatteryView | None] = (list(view.batteries) if view
                                           else [None] * BLANK_BATTERIES)
    if view and not batteries:
        pen.text(x + 2 * MM, y - 5 * MM, "No gun batteries.", size=8)
        y -= ROW_MIN
    for b in batteries:
        h = _battery_height(b, per_row)
        mid = y - 5.2 * MM
        if b is not None:
            cx = x
            cells = [
                b.position, "", b.label, str(b.caliber_factor),
                "On" if b.old else str(b.fire_step),
                _yd(b.close_yd), _yd(b.medium_yd), _yd(b.max_range_yd),
            ]
            for (title, width), cell in zip(COLUMNS, cells, strict=True):
                if title == "Arc":
                    arc_icon(c, cx + width * MM / 2, y - 5.2 * MM, 4.2 * MM, b.arcs)
                else:
                    pen.text(cx + 1 * MM, mid - 1.2 * MM, cell, size=9 if title != "Bty" else 10,
                             bold=title in ("Bty", "CF"), narrow=title != "Bty",
                             width=width * MM - 1.5 * MM)
                cx += width * MM
            sub = "DP" if b.dp else ""
            sub = f"{sub} old" if b.old else sub
            if sub:
                pen.text(x + (11 + 11) * MM + 1 * MM, y - h + 1.3 * MM, sub.strip(), size=7,
                         narrow=True)
            ax = x + FIXED_W + 1 * MM
            if b.disabled:
                pen.text(ax, mid - 1.2 * MM, "OUT OF ACTION in this scenario", size=9, bold=True)
            else:
                pen.boxes(ax, y - 1.5 * MM, b.ammo_boxes, BOX, GAP, per_row)
                rounds = f"{b.rounds_per_gun} rds/gun" + (" (scenario limit)"
                                                          if b.rounds_limited else "")
                pen.text(x + w - 1 * MM, y - h + 1.3 * MM, rounds, size=7, narrow=True,
                         align="right")
        else:
            cx = x
            for _title, width in COLUMNS:
                cx += width * MM
                c.setStrokeColor(LIGHT)
                c.line(cx, y, cx, y - h)
            c.setStrokeColor(colors.black)
            pen.boxes(x + FIXED_W + 1 * MM, y - 1.5 * MM, per_row, BOX, GAP, per_row)
        y -= h
        _thin_rule(c, x, y, w)

    # -- torpedoes
    y -= 2 * MM
    pen.text(x, y - 3.2 * MM, "TORPEDOES", size=8, bold=True)
    sizes = sorted(rules.torpedo_penetration.items())
    pen.text(x + 22 * MM, y - 3.2 * MM,
             "cross a tube box when fired, a reload box when reloaded · penetration "
             f"{'/'.join(str(p) for _, p in sizes)} for "
             f"{'/'.join(str(size) for size, _ in sizes)}in", size=7, narrow=True,
             width=w - 22 * MM)
    y -= 4.5 * MM
    torps = view.torpedoes if view else []
    if view and not torps:
        pen.text(x + 2 * MM, y - 4 * MM, "None carried.", size=8)
        y -= 6.5 * MM
    rows = torps if view else [None, None]
    for t in rows:
        if t is not None:
            side = {"L": "left side", "R": "right side", "C": "centreline"}[t.side]
            label = f"{t.size_in}in × {t.tubes}  ·  {side}  ·  pen {t.penetration}"
            if t.two_turn:
                label += "  ·  2-turn"
            pen.text(x + 2 * MM, y - 4.2 * MM, label, size=8.5, narrow=True, width=62 * MM)
            pen.text(x + 66 * MM, y - 4.2 * MM, "tubes", size=7, narrow=True)
            pen.boxes(x + 74 * MM, y - 1.4 * MM, t.tubes, BOX, GAP, 12)
            rx = x + 74 * MM + 12 * (BOX + GAP) + 4 * MM
            if t.reloads:
                pen.text(rx, y - 4.2 * MM, "reloads", size=7, narrow=True)
                pen.boxes(rx + 10 * MM, y - 1.4 * MM, t.reloads, BOX, GAP, 12)
        else:
            c.setStrokeColor(LIGHT)
            c.line(x + 2 * MM, y - 5 * MM, x + 62 * MM, y - 5 * MM)
            c.setStrokeColor(colors.black)
            pen.text(x + 66 * MM, y - 4.2 * MM, "tubes", size=7, narrow=True)
            pen.boxes(x + 74 * MM, y - 1.4 * MM, 10, BOX, GAP, 12)
        y -= 6.5 * MM

    # -- damage track and damage control
    y -= 1.5 * MM
    _thin_rule(c, x, y, w)
    y -= 1.5 * MM
    pen.text(x, y - 4 * MM, "DAMAGE", size=8, bold=True)
    dx = x + 17 * MM
    for label in ("D", "HD", "SUNK"):
        bw = 14 * MM if label != "SUNK" else 17 * MM
        c.setLineWidth(1.0)
        c.rect(dx, y - 11 * MM, bw, 10 * MM, stroke=1, fill=0)
        pen.text(dx + bw / 2, y - 4 * MM, label, size=9, bold=True, align="center")
        if view and view.start_damage and label in ("D", "HD") and (
                label == "D" or view.start_damage == "HD"):
            c.line(dx + 1 * MM, y - 10 * MM, dx + bw - 1 * MM, y - 5 * MM)
        dx += bw + 2 * MM
    dc = view.damage_control if view else ""
    tx = dx + 4 * MM
    pen.text(tx, y - 4 * MM, f"DAMAGE CONTROL {dc}".strip(), size=8, bold=True)
    pen.text(tx, y - 8 * MM, "Out of control", size=7, narrow=True)
    pen.boxes(tx + 20 * MM, y - 5.3 * MM, 6, BOX, GAP, 6)
    pen.text(tx + 20 * MM + 6 * (BOX + GAP) + 3 * MM, y - 8 * MM, "Controlled", size=7,
             narrow=True)
    pen.boxes(tx + 20 * MM + 6 * (BOX + GAP) + 17 * MM, y - 5.3 * MM, 1, BOX, GAP, 1)
    pen.text(tx + 20 * MM + 6 * (BOX + GAP) + 23 * MM, y - 8 * MM, "Repaired", size=7,
             narrow=True)
    pen.boxes(tx + 20 * MM + 6 * (BOX + GAP) + 35 * MM, y - 5.3 * MM, 1, BOX, GAP, 1)
    share = _share(tables.card.victory.heavy_damage_share)
    pen.text(tx, y - 12 * MM, f"Comparative strength lost: {share} CS for HD, full CS if "
             "sunk.", size=7, narrow=True)
    y -= 14.5 * MM

    # -- notes
    pen.text(x, y - 3.5 * MM, "NOTES", size=8, bold=True)
    y -= 5 * MM
    notes = view.notes if view else []
    if view and view.cls.armor.old_deck:
        notes = [*notes, old_deck_note(view.armor_factor, tables)]
    if view and view.cls.unverified:
        # A player's sheet names no file or field: the ship catalog (quarterdeck
        # catalog) lists which figures no source confirmed.
        notes = [*notes, "Some figures of this class are unverified; the ship catalog "
                         "lists which."]
    if not notes:
        y -= 4.2 * MM  # one line to write on: the closing rule below is its line
    for note in notes:
        pen.text(x + 2 * MM, y - 3 * MM, note, size=8, width=w - 4 * MM)
        y -= 4.2 * MM
    c.setFillColor(LIGHT)
    c.rect(x, y, w, CLOSING_RULE, stroke=0, fill=1)
    c.setFillColor(colors.black)
    return -y


def render_sheets(views: list[ShipView], paper: Paper, title: str, scenario_line: str,
                  key: str, label: str, tables: Tables | None = None) -> Component:
    """Status sheets for ``views``, two ships to a page when they fit.

    Args:
        views: Ships in order.
        paper: Paper size.
        title: Bookmark title of the component.
        scenario_line: Printed in every header.
        key: Component key.
        label: Page-label prefix.
        tables: Tables in force; the active ones if None.

    Returns:
        The rendered component with a bookmark per ship.

    """
    doc = Document(paper, title, Furniture(f"quarterdeck · NAVAL ACTION · {title}"))
    for view in views:
        placed = doc.add(ship_block(view, scenario_line, tables=tables))
        doc.bookmarks.append(Bookmark(view.name, placed.page, placed.top))
        doc.add(CutLine(GAP_BLOCKS))
    return doc.component(key, title, label)


def render_master(paper: Paper, tables: Tables | None = None) -> Component:
    """The blank status master: two blank ship blocks per page, for hand-filling."""
    doc = Document(paper, "Blank ship status master", Furniture(
        "Blank ship status master — copy, or slide into a sleeve and use a washable marker"))
    doc.add(ship_block(None, tables=tables))
    doc.add(Spacer(GAP_BLOCKS))
    doc.add(ship_block(None, tables=tables))
    pdf, pages = doc.finish()
    return Component("master", "Blank status master", "Master-", pdf, pages)
