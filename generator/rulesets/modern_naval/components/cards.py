"""Unit data cards: one half-page card per unit, two to a page, cut apart along the frame.

A card carries every rating the rules read (size, crew quality, FCS, EO, ESM, ECM, speed,
MVR, damage modifier), every weapon and sensor with a knocked-out box, and the boxes a
player marks as the unit is hurt: the damage level (Light, Heavy, Critical, Wrecked),
speed and MVR losses, top speed lost for good to propulsion failures, fires, blackout and
crew-quality losses; an aircraft's card, its altitude and the distances it detects and
identifies at. Values the rule text leaves to data tables and quarterdeck's rules
computed are marked as DEFAULTs.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core.units import MM
from generator.pages.component import Bookmark, Component
from generator.pages.furniture import Furniture, finish_page
from generator.pages.layout import Paper, Pen, new_canvas, safe_box
from generator.rules.defaults import LABEL
from generator.rulesets.modern_naval.derive import Unit
from generator.rulesets.modern_naval.model import WeaponView
from generator.rulesets.modern_naval.tables import Tables

PAD = 3 * MM
"""Text stays this far inside the card's cut frame (at least 1 mm)."""
GAP = 4 * MM
BOX = 3.4 * MM
SHADE = colors.Color(0.92, 0.92, 0.92)
DAMAGE_LEVELS = ("Light", "Heavy", "Critical", "Wrecked")
FIRES = 6
BLACKOUTS = 3
CREW_LOSSES = 4
MVR_STEPS = 4
"""MVR increases of 2 cm each: the worst single result adds 8 cm."""
SIZE_NAMES = {"very-small": "Very Small", "small": "Small", "medium": "Medium",
              "large": "Large", "very-large": "Very Large"}
KIND_NAMES = {"gun": "Gun", "rocket": "Rocket", "bomb": "Bomb", "sam": "SAM",
              "missile": "Missile", "torpedo": "Torpedo", "ciws": "CIWS", "asw": "ASW"}
GEN = {1: "1st", 2: "2nd", 3: "3rd"}
DEFAULT_MARK = "*"
"""The cards' short form of the DEFAULT label (a rating cell has no room for the word);
``legend`` says what it means, once per card."""
KO_BOX = BOX * 0.8
KO_STEP = KO_BOX + 0.6 * MM
"""A weapon's knock-out boxes: one per mount or launcher, this far apart."""
ALTITUDES = ("low", "medium", "high")


def legend(metres_per_cm: float) -> str:
    """What the cards' mark means, said once at the foot of each card."""
    return (f"{DEFAULT_MARK} quarterdeck {LABEL}: the rule text prints no unit or weapon "
            f"data; rated from sourced facts, ground scale 1 cm = {metres_per_cm:g} m")


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("±0" if value == 0 else f"−{-value}")


def _gen(value: int | None) -> str:
    return GEN[value] if value else "None"


def _cm(value: float) -> str:
    return f"{value:g}"


def rating_cells(unit: Unit) -> list[tuple[str, str, bool, bool]]:
    """(label, value, is a DEFAULT, has a knocked-out box) for each rating on the card."""
    v = unit.view
    d = unit.defaults
    cells = [("Size", SIZE_NAMES[v.size], "size" in d, False),
             ("Crew", _signed(v.crew), "crew" in d, False),
             ("FCS", _gen(v.fcs), "fcs" in d, v.fcs is not None),
             ("EO", _gen(v.eo), "eo" in d, v.eo is not None),
             ("ESM", _gen(v.esm), "esm" in d, v.esm is not None),
             ("ECM", _gen(v.ecm), "ecm" in d, v.ecm is not None),
             ("Speed", str(v.speed), "speed" in d, False)]
    if v.category in ("ship", "submarine"):
        cells.append(("MVR", f"{v.mvr} cm", "mvr" in d, False))
    cells.append(("Damage mod", _signed(v.damage), "damage" in d, False))
    return cells


def engages(weapon: WeaponView) -> set[str]:
    """What a weapon may shoot at: its data's targets, and missiles for a SAM or CIWS.

    Every SAM may shoot at a missile (6.8's "SAM vs Missile Target" row), and CIWS fire
    at incoming missiles (step 5d), whatever the weapon's data lists.
    """
    extra = {"missile"} if weapon.kind in ("sam", "ciws") else set()
    return set(weapon.targets) | extra


def weapon_rows(unit: Unit) -> list[list[str]]:
    """Each weapon's printed cells: name, kind, seeker and generation, range, damage, rounds."""
    rows = []
    for weapon in unit.view.weapons:
        seeker: str = weapon.seeker or "—"
        if weapon.generation:
            seeker += f" {GEN[weapon.generation]}"
        low, high = weapon.range_cm
        reach = f"{_cm(low)}–{_cm(high)}" if high > 0 else "drop"
        mounts = f" ×{weapon.mounts}" if weapon.mounts > 1 else ""
        rows.append([f"{weapon.name}{mounts}", KIND_NAMES[weapon.kind], seeker, reach,
                     _signed(weapon.damage),
                     str(weapon.ammunition) if weapon.ammunition is not None else "—",
                     ", ".join(sorted(engages(weapon)))])
    return rows


WEAPON_COLUMNS = [("KO", 0.10), ("Weapon", 0.25), ("Kind", 0.08), ("Seeker", 0.11),
                  ("Range cm*", 0.10), ("Dmg*", 0.06), ("Rounds", 0.08), ("Engages", 0.22)]
"""Column titles and shares of the card's inner width."""


def column_edges(unit: Unit, x: float, width: float) -> list[float]:
    """The weapon table's column edges: the KO column widens to hold every box.

    Every mount or launcher is knocked out on its own roll (7.1), so each gets a box; a
    unit with more than the column holds (Gabriel x7) takes the room from "Engages".
    """
    widths = [share * width for _, share in WEAPON_COLUMNS]
    most = max((w.mounts for w in unit.view.weapons), default=1)
    need = 1 * MM + most * KO_STEP
    if need > widths[0]:
        widths[-1] -= need - widths[0]
        widths[0] = need
    edges = [x]
    for w in widths:
        edges.append(edges[-1] + w)
    return edges


def altitude_boxes(unit: Unit, tables: Tables) -> list[str]:
    """An aircraft's altitudes, each with the radar and visual distances it gives (4.7, 4.8)."""
    out = []
    for altitude in ALTITUDES:
        radar = tables.radar_detection.limit_row(unit.view.size, altitude).cm
        eye = tables.visual_identification.limit_row(unit.view.size, altitude).cm
        start = " (start)" if unit.altitude == altitude else ""
        out.append(f"{altitude}{start}: radar {radar:g}, visual {eye:g} cm")
    return out


def _label_value(pen: Pen, x: float, y: float, w: float, label: str, value: str,
                 default: bool, ko: bool) -> None:
    c = pen.c
    c.setFillColor(SHADE)
    c.rect(x, y - 11 * MM, w, 11 * MM, stroke=0, fill=1)
    c.setFillColor(colors.black)
    pen.text(x + 1.2 * MM, y - 3.6 * MM, label, size=7, narrow=True, width=w - 2.4 * MM)
    shown = value + (DEFAULT_MARK if default else "")
    room = w - 2.4 * MM - (BOX + 1 * MM if ko else 0)
    pen.text(x + 1.2 * MM, y - 9 * MM, shown, size=10, bold=True, width=room)
    if ko:
        c.setLineWidth(0.6)
        c.rect(x + w - 1.2 * MM - BOX, y - 9.6 * MM, BOX, BOX, stroke=1, fill=0)


def _track(pen: Pen, x: float, y: float, label: str, boxes: Sequence[str],
           width: float, widest: float = 17 * MM) -> float:
    """A labelled row of tick boxes, each with its caption; returns the height used.

    Boxes stand ``widest`` apart at most, closer when the row has no room for that.
    """
    pen.text(x, y - 3.2 * MM, label, size=7.5, bold=True, narrow=True, width=26 * MM)
    bx = x + 27 * MM
    step = min(widest, (width - 27 * MM) / max(1, len(boxes)))
    pen.c.setLineWidth(0.6)
    for caption in boxes:
        pen.c.rect(bx, y - 4.2 * MM, BOX, BOX, stroke=1, fill=0)
        if caption:
            pen.text(bx + BOX + 0.8 * MM, y - 3.4 * MM, caption, size=7, narrow=True,
                     width=step - BOX - 1.2 * MM)
        bx += step
    return 5.5 * MM


def draw_card(canvas: Canvas, unit: Unit, x: float, top: float, width: float,
              height: float, metres_per_cm: float, tables: Tables) -> None:
    """Draw one card with its top-left corner at (x, top)."""
    pen = Pen(canvas)
    v = unit.view
    canvas.setLineWidth(0.8)
    canvas.setDash(3, 2)
    canvas.rect(x, top - height, width, height, stroke=1, fill=0)
    canvas.setDash()
    ix, iw = x + PAD, width - 2 * PAD
    y = top - PAD
    pen.text(ix, y - 5 * MM, v.name, size=13, bold=True, width=iw * 0.5)
    kind = {"ship": "", "submarine": " · submarine", "aircraft": " · aircraft",
            "helicopter": " · helicopter"}[v.category]
    pen.text(ix + iw, y - 5 * MM, f"{unit.class_name}{kind} · {unit.navy}", size=8.5,
             narrow=True, align="right", width=iw * 0.48)
    pen.text(ix, y - 9.2 * MM, unit.facts, size=7, narrow=True, width=iw)
    y -= 11 * MM
    cells = rating_cells(unit)
    cw = (iw - (len(cells) - 1) * 1 * MM) / len(cells)
    for i, (label, value, default, ko) in enumerate(cells):
        _label_value(pen, ix + i * (cw + 1 * MM), y, cw, label, value, default, ko)
    y -= 13 * MM
    # Weapons: one row each, a knocked-out box per mount.
    rows = weapon_rows(unit)
    xs = column_edges(unit, ix, iw)
    canvas.setFillColor(colors.black)
    canvas.rect(ix, y - 4.5 * MM, iw, 4.5 * MM, stroke=0, fill=1)
    canvas.setFillColor(colors.white)
    for (title, _), cx, nx in zip(WEAPON_COLUMNS, xs, xs[1:], strict=False):
        pen.text(cx + 1 * MM, y - 3.3 * MM, title, size=7, bold=True, narrow=True,
                 width=nx - cx - 2 * MM)
    canvas.setFillColor(colors.black)
    y -= 4.5 * MM
    row_h = 5 * MM if len(rows) <= 8 else max(4 * MM, 40 * MM / len(rows))
    for n, (weapon, cells_) in enumerate(zip(v.weapons, rows, strict=True)):
        if n % 2:
            canvas.setFillColor(SHADE)
            canvas.rect(ix, y - row_h, iw, row_h, stroke=0, fill=1)
            canvas.setFillColor(colors.black)
        canvas.setLineWidth(0.6)
        for b in range(weapon.mounts):
            canvas.rect(ix + 1 * MM + b * KO_STEP, y - row_h + 0.9 * MM, KO_BOX, KO_BOX,
                        stroke=1, fill=0)
        for cell, cx, nx in zip(cells_, xs[1:], xs[2:] + [ix + iw], strict=False):
            pen.text(cx + 1 * MM, y - row_h + 1.4 * MM, cell, size=7.5, narrow=True,
                     width=nx - cx - 2 * MM)
        y -= row_h
    if not rows:
        pen.text(ix + 1 * MM, y - 3.6 * MM, "No weapons", size=7.5, narrow=True)
        y -= 5 * MM
    y -= 2 * MM
    # Damage tracks.
    y -= _track(pen, ix, y, "Damage level", DAMAGE_LEVELS, iw)
    if v.category in ("ship", "submarine"):
        steps = max(1, min(v.speed, 6))
        y -= _track(pen, ix, y, f"Speed {v.speed}: lost", [f"−{i + 1}" for i in range(steps)],
                    iw)
        # A propulsion failure (7.2) lowers the top speed for good: damage control
        # restores speed only up to what these boxes leave.
        y -= _track(pen, ix, y, "Engines: top speed", [f"−{i + 1} for good"
                                                        for i in range(steps)], iw)
        y -= _track(pen, ix, y, f"MVR {v.mvr} cm: added", [f"+{2 * (i + 1)} cm"
                                                         for i in range(MVR_STEPS)], iw)
        half = iw / 2
        _track(pen, ix, y, "Fires", [""] * FIRES, half)
        _track(pen, ix + half, y, "Blackout", [""] * BLACKOUTS, half)
        y -= 5.5 * MM
    else:
        y -= _track(pen, ix, y, "Aircraft damage", ["marker"] * 3, iw)
        y -= _track(pen, ix, y, "Altitude", altitude_boxes(unit, tables), iw, 50 * MM)
    y -= _track(pen, ix, y, f"Crew {_signed(v.crew)}: lost", [f"−{i + 1}"
                                                            for i in range(CREW_LOSSES)], iw)
    bottom = top - height + PAD
    if unit.note:
        pen.text(ix, bottom + 3.6 * MM, unit.note, size=7, narrow=True, width=iw)
    pen.text(ix, bottom + 0.4 * MM, legend(metres_per_cm), size=7, narrow=True, width=iw)


def render_cards(units: Sequence[Unit], paper: Paper, title: str, foot: str, key: str,
                 label: str, metres_per_cm: float, tables: Tables) -> Component:
    """Every unit's card, two half-page cards to a page, in roster order."""
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, paper, title)
    box = safe_box(paper)
    furniture = Furniture(footer=foot, label=label)
    room = box.height - furniture.bottom(box)
    height = (room - GAP) / 2
    pages = 0
    marks = []
    for start in range(0, max(1, len(units)), 2):
        for slot, unit in enumerate(units[start:start + 2]):
            top = box.top - slot * (height + GAP)
            draw_card(canvas, unit, box.x, top, box.width, height, metres_per_cm, tables)
            marks.append(Bookmark(f"{unit.view.name} ({unit.class_name})", pages, top))
        finish_page(canvas, box, furniture, pages)
        pages += 1
    canvas.save()
    # Cut out along the dashed frames: nothing may print on the back of a card.
    return Component(key, title, label, buffer.getvalue(), pages, marks, cut_out=True)
