"""The Master List of ship classes: every class, grouped by nation and type.

Drawn by the page engine as one ``Grid`` per nation (cells are plain text: a name
prints as written).
"""

from __future__ import annotations

from generator.core.safetext import text
from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.rulesets.naval_action.derive import (
    aa_factor,
    armor_factor,
    battery_view,
    comparative_strength,
    format_fraction,
)
from generator.rulesets.naval_action.schema import NATION_NAMES, SHIP_TYPES, ShipClass

HEADER = ["Class", "Type", "Ships", "Length ft", "Armor", "Speed",
          "Gun batteries (guns × bore, CF)",
          "Torpedoes", "AA", "Radar", "CS"]
WIDTHS = [27, 10, 32, 12, 11, 11, 38, 20, 8, 12, 9]
WRAPPED = frozenset({0, 2, 6, 7, 9})
"""Columns whose text wraps: names and lists (the rest are short figures)."""
TYPE_ORDER = {t.value: i for i, t in enumerate(SHIP_TYPES)}


def _guns(cls: ShipClass) -> str:
    parts = []
    for b in cls.guns:
        v = battery_view(b)
        parts.append(f"{v.position} {v.guns}×{v.bore_in:g}in CF{v.caliber_factor}"
                     f"{' On' if v.old else ''}{' DP' if v.dp else ''}")
    return "; ".join(parts) or "—"


def _torpedoes(cls: ShipClass) -> str:
    parts = []
    for t in cls.torpedoes:
        text = f"{t.mounts}×{t.tubes} {t.size_in}in"
        if t.reloads:
            text += f" +{t.reloads}r"
        if t.two_turn:
            text += " 2-turn"
        parts.append(text)
    return "; ".join(parts) or "—"


MAX_NAMES = 10
MAX_UNVERIFIED = 3


def _ships(cls: ShipClass) -> str:
    """Ship names (lost ones marked), shortened for big classes so rows stay readable."""
    names = [s.name + (" †" if s.lost else "") for s in cls.ships]
    if len(names) <= MAX_NAMES:
        return ", ".join(names)
    lost = sum(1 for s in cls.ships if s.lost)
    return (f"{len(names)} listed ({lost} lost): " + ", ".join(names[:MAX_NAMES])
            + f" and {len(names) - MAX_NAMES} more")


def _unverified(cls: ShipClass) -> str:
    """A second line under the class name for figures no source confirmed ("" if none)."""
    if not cls.unverified:
        return ""
    if len(cls.unverified) <= MAX_UNVERIFIED:
        return f"\nUnverified: {', '.join(cls.unverified)}"
    return f"\nUnverified: {len(cls.unverified)} (see class file)"


def render_catalog(classes: list[ShipClass], paper: Paper,
                   title: str = "Master List of World War II Ship Classes") -> Component:
    """Render the Master List: one table per nation, rows grouped by type.

    Args:
        classes: The classes to list (every class for the full Master List).
        paper: Paper size.
        title: Heading and bookmark title.

    Returns:
        The component, with a bookmark per nation.

    """
    doc = CanvasDoc(paper, title, f"quarterdeck · NAVAL ACTION · {title}")
    doc.paragraph(text(title), "h1")
    doc.paragraph(
        "Every class in the library, grouped by navy and then by type, largest first. "
        "Armor is the derived armor factor (O marks old deck armour); CF is each "
        "battery's caliber factor; On marks old guns; DP dual-purpose; † a ship lost "
        "in the war. Radar shows the first fit. Figures a source could not confirm "
        "are listed per class under <b>Unverified</b>.")
    doc.space(3)
    by_nation: dict[str, list[ShipClass]] = {}
    for cls in classes:
        by_nation.setdefault(cls.nation.value, []).append(cls)
    for nation in sorted(by_nation, key=lambda n: NATION_NAMES[n]):
        group = sorted(by_nation[nation], key=lambda c: (TYPE_ORDER[c.type.value], c.name))
        rows: list[list[str]] = []
        heads: set[int] = set()
        current = ""
        for cls in group:
            if cls.type.value != current:
                current = cls.type.value
                heads.add(len(rows))
                rows.append([current] + [""] * (len(HEADER) - 1))
            radar = ", ".join(f"{r.type} {r.fitted:%b %Y}" for r in cls.radar) or "—"
            rows.append([
                f"{cls.name}{_unverified(cls)}", cls.type.value, _ships(cls),
                f"{cls.length_ft:g}",
                ("O" if cls.armor.old_deck else "") + str(armor_factor(cls)),
                f"{cls.speed_kn:g}", _guns(cls), _torpedoes(cls),
                format_fraction(aa_factor(cls)) or "0", radar,
                f"{comparative_strength(cls):g}",
            ])
        grid = Grid([w * MM for w in WIDTHS], [HEADER], rows, aligned(3, len(HEADER)),
                    group_rows=frozenset(heads), size=7, wrap=WRAPPED, bold=frozenset({0}))
        heading = f"{NATION_NAMES[nation]} ({nation})"
        doc.ensure(grid.header_height + 30 * MM)
        doc.anchor(heading)
        doc.paragraph(text(heading), "h2")
        doc.grid(grid)
        doc.space(4)
    pdf, pages = doc.finish()
    return Component("catalog", title, "List-", pdf, pages, doc.bookmarks)
