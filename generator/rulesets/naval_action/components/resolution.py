"""Pre-rolled resolution tables: every die face of every Action Card table, resolved.

Each comes with its exact probability (the generic tables in every packet).
"""

from __future__ import annotations

from fractions import Fraction

from generator.core.safetext import markup
from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.pages.tablestyle import RESULT_TINTS
from generator.rules.defaults import LABEL, is_default
from generator.rules.dice import distribution, mean, percent
from generator.rulesets.naval_action.components.card_parts import FACES
from generator.rulesets.naval_action.odds import Calculator, Mode


def _tag(calc: Calculator, table: str, default: bool) -> str:
    """'DEFAULT' or where a user's table came from, for headings."""
    if table in calc.tables.replaced:
        return markup(" <font size=8>(your table: {})</font>", calc.tables.origin)
    return f" <font size=8>({LABEL}: quarterdeck's design)</font>" if default else ""


def accuracy_grid(calc: Calculator) -> Grid:
    """Hit chances and hit counts for each final accuracy result."""
    acc = calc.card.accuracy
    most = max([1, *acc.multi_hits.values()])
    rows = []
    for value in range(acc.start, -1, -1):
        dist: dict[int, Fraction] = distribution(calc.hits(value))
        hit = sum((p for k, p in dist.items() if k > 0), Fraction(0))
        rows.append([str(value) if value >= 1 else "≤0", percent(hit, 1),
                     *[percent(dist.get(k, Fraction(0)), 1) for k in range(1, most + 1)],
                     f"{float(mean(calc.hits(value))):.2f}", percent(calc.may_switch(value), 1)])
    header: list[list[str | None]] = [["Accuracy", "Hit", *[f"{k} hit{'s' if k > 1 else ''}"
                                                           for k in range(1, most + 1)],
                                       "Expected hits", "May switch fire"]]
    widths = [18, 16, *[16] * most, 22, 24]
    return Grid([w * MM for w in widths], header, rows, size=7.5)


MODES: list[tuple[str, Mode, str, bool, frozenset[int]]] = [
    ("Gunfire at medium or long range", "gun", "medium", False, frozenset({1})),
    ("Gunfire at close range", "gun", "close", False, frozenset({1})),
    ("Gunfire at long range against O armour", "gun", "long", True, frozenset({1})),
    ("Torpedoes", "torpedo", "close", False, frozenset({1})),
    ("Torpedoes that also fail on a 2 (German to 1940, US to 1942)", "torpedo", "close", False,
     frozenset({1, 2})),
    ("Bombs", "bomb", "close", False, frozenset({1})),
    ("Bombs against O armour", "bomb", "close", True, frozenset({1})),
]


def penetration_grid(calc: Calculator) -> Grid:
    """Each coloured-die face resolved, by situation and differential, with the odds."""
    pen = calc.card.penetration
    rows: list[list[str]] = []
    groups = set()
    for title, mode, band, old, duds in MODES:
        groups.add(len(rows))
        rows.append([title])
        for i, diff in enumerate(pen.columns):
            faces = calc.faces(diff, mode, band, old, duds)  # type: ignore[arg-type]
            label = f"{diff:+d}"
            if i == 0:
                label = f"≤{diff:+d}"
            elif i == len(pen.columns) - 1:
                label = f"≥{diff:+d}"
            p = {s: sum(1 for f in faces if f.steps == s) for s in range(0, 4)}
            rows.append([label, *[f.label for f in faces],
                         *[f"{p[s]}/6" if p[s] else "–" for s in range(4)]])
    header: list[list[str | None]] = [
        ["Caliber − armor", "Coloured die", None, None, None, None, None,
         "Chance per hit", None, None, None],
        ["", *FACES, "none", "D", "HD", "sunk"]]
    widths = [26, *[11] * 6, 14, 14, 14, 14]
    aligns = aligned(1, 11)
    return Grid([w * MM for w in widths], header, rows, aligns,
                spans=[(0, 1, 6), (0, 7, 10)], group_rows=frozenset(groups),
                tints=RESULT_TINTS, size=7.5)


def torpedo_grid(calc: Calculator) -> Grid:
    """Hits from one spread crossing one ship, by spread size."""
    th = calc.card.torpedo_hits
    most = max(max(r) for r in th.rows.values())
    rows = []
    for n in th.columns:
        dist: dict[int, Fraction] = distribution(calc.spread(n))
        rows.append([str(n), str(th.halved(n)),
                     *[percent(dist[k], 1) if k in dist else "–" for k in range(most + 1)],
                     f"{float(mean(calc.spread(n))):.2f}"])
    counts = [f"{k} hit{'' if k == 1 else 's'}" for k in range(most + 1)]
    header: list[list[str | None]] = [["Torpedoes", "Bow/stern: read", *counts, "Expected"]]
    widths = [18, 22, *[14] * (most + 1), 18]
    return Grid([w * MM for w in widths], header, rows, size=7.5)


def aa_grid(calc: Calculator) -> Grid:
    """Groups of six aircraft shot down, by AA column and attacker shift."""
    aa = calc.card.aa_results
    rows = []
    for shift, who in [(0, "level or dive bombers")] + [(s.columns, s.attackers)
                                                       for s in aa.shifts]:
        for i, heading in enumerate(aa.columns):
            dist: dict[int, Fraction] = distribution(calc.aa(i, shift))
            rows.append([f"{heading}+", who if i == 0 else "",
                         *[percent(dist[k], 1) if k in dist else "–" for k in range(4)],
                         f"{float(mean(calc.aa(i, shift))):.2f}"])
    header: list[list[str | None]] = [["AA total", "Attackers", "none", "1 group", "2 groups",
                                       "3 groups", "Expected"]]
    widths = [16, 70, 16, 16, 16, 16, 18]
    aligns = aligned(2, 7)
    return Grid([w * MM for w in widths], header, rows, aligns, size=7.5,
                wrap=frozenset({1}))


def damage_control_grid(calc: Calculator) -> Grid:
    """Final outcome of a damage-control roll, re-rolls included."""
    rows = []
    for quality in ("good", "poor"):  # the two tables the text names
        p = calc.damage_control(quality)
        rows.append([quality.capitalize(), *[percent(p[k], 1) for k in ("R", "C", "O", "W")]])
    header: list[list[str | None]] = [["Damage control", "Repaired", "Controlled",
                                       "Still out of control", "Worse"]]
    return Grid([w * MM for w in [30, 25, 25, 30, 25]], header, rows, size=7.5)


def render_resolution(calc: Calculator, paper: Paper, footer: str) -> Component:
    """The generic pre-rolled tables, from the tables in force.

    Args:
        calc: The calculator (bundled tables or a user's).
        paper: Paper size.
        footer: Footer text.

    Returns:
        The component (key ``odds``).

    """
    doc = CanvasDoc(paper, "Resolution tables", footer)
    card = calc.card
    doc.anchor("Resolution tables")
    doc.paragraph("Resolution tables: every die face already resolved", "h1")
    doc.paragraph(
        "Each table below is computed exactly (no sampling) from the same tables the Action "
        "Card prints. Percentages are per roll. Your own ships' matchup pages go further: "
        "each battery against each enemy, with the range and armour already applied.")
    sections = [
        ("Gunfire hits by accuracy result", "accuracy", is_default(card.accuracy),
         "Accuracy is the final result on the cumulative track. A white 6 always misses; "
         "below 1 only a 1 followed by another 1 hits. 'May switch fire' is the chance the "
         "white die lets the battery turn on a second target after half its hits.",
         accuracy_grid(calc)),
        ("Penetration: each coloured-die face resolved", "penetration",
         is_default(card.penetration),
         "Find the situation, then the row for caliber (torpedo, bomb) factor minus the "
         "target's armor factor. Row shifts, the (D) rule, duds and their reduced effect are "
         "already applied. The chances are for one hit on an undamaged ship.",
         penetration_grid(calc)),
        ("Torpedo hits per spread", "torpedo_hits", is_default(card.torpedo_hits),
         "Hits on the first ship the spread crosses. Within 30° of the target's bow or stern, "
         "read the smaller spread shown. Each later ship faces the torpedoes that are left.",
         torpedo_grid(calc)),
        ("Antiaircraft results", "aa_results", is_default(card.aa_results),
         "Read the column of the largest heading the group's AA total reaches.",
         aa_grid(calc)),
        ("Damage control", "damage_control", is_default(card.damage_control),
         "The chance of each final outcome of one turn's roll, with the 'roll again' results "
         "(R3-6, W1-4) already followed through.", damage_control_grid(calc)),
    ]
    for title, table, default, note, grid in sections:
        doc.section(title, note, grid, heading=title + _tag(calc, table, default))
    pdf, pages = doc.finish()
    return Component("odds", "Resolution tables", "Odds-", pdf, pages, doc.bookmarks[1:])
