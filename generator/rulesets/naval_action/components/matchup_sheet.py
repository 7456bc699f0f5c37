"""Matchup sheets: one page per firing ship, every weapon against every enemy, resolved.

At the table the player finds the battery and the target's armour, rolls, and reads the
coloured die's result off the row: no subtraction, no row shifts, no table look-ups.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.gridforms import FormGrid, FormGridBlock, FormParagraph, repeated_rules
from generator.pages.layout import Paper
from generator.pages.pages import ParagraphBlock, Spacer
from generator.pages.tablestyle import RESULT_TINTS
from generator.rules.dice import percent
from generator.rulesets.naval_action.components.card_parts import FACES
from generator.rulesets.naval_action.matchups import ShipMatchups, expected_text, share_pages
from generator.rulesets.naval_action.odds import Calculator
from generator.rulesets.naval_action.views import BANDS

BAND_TITLES = {"close": "Close range", "medium": "Medium range", "long": "Long range"}


def gun_grid(page: ShipMatchups) -> Grid:
    """The gun batteries' table: battery x target group, three range bands."""
    bands: list[str | None] = [x for b in BANDS for x in [BAND_TITLES[b], *[None] * 8]]
    header: list[list[str | None]] = [
        ["Battery", "Target", "AF", "Δ", *bands],
        ["", "", "", "", *["Acc", *FACES, "≥1", "E"] * 3],
    ]
    rows = []
    for m in page.guns:
        row = [m.label, m.target.label, m.target.armor_label,
               f"{m.differential:+d}"]
        for band in BANDS:
            odds = m.bands[band]
            row += [str(odds.accuracy) if odds.accuracy >= 1 else "≤0",
                    *[f.label for f in odds.faces], percent(odds.damage.at_least_one),
                    expected_text(odds.damage.expected)]
        rows.append(row)
    widths = [w * MM for w in [16, 34, 5, 5.4] + [4.3, *[4.6] * 6, 6.2, 5.1] * 3]
    aligns = aligned(2, 33)
    return Grid(widths, header, rows, aligns, spans=[(0, 4 + 9 * i, 12 + 9 * i)
                                                     for i in range(3)],
                tints=RESULT_TINTS, size=7, wrap=frozenset({0, 1}))


def torpedo_grid(page: ShipMatchups) -> Grid:
    """The torpedo mounts' table: mount type x target group, beam and bow/stern."""
    header: list[list[str | None]] = [
        ["Mounts", "Target", "AF", "Δ", "Coloured die, each hit", *[None] * 5,
         "Beam", None, "Bow/stern", None],
        ["", "", "", "", *FACES, "≥1", "E", "≥1", "E"],
    ]
    rows = []
    for m in page.torpedoes:
        t = m.mount
        rows.append([f"{m.mounts} mount{'s' if m.mounts > 1 else ''} × {t.tubes} "
                     f"{t.size_in}in ({m.sides})", m.target.label, m.target.armor_label,
                     f"{m.differential:+d}", *[f.label for f in m.faces],
                     percent(m.beam.at_least_one), expected_text(m.beam.expected),
                     percent(m.bow_stern.at_least_one), expected_text(m.bow_stern.expected)])
    widths = [w * MM for w in [32, 52, 6, 6, *[7] * 6, 10, 9, 10, 9]]
    aligns = aligned(2, 16)
    return Grid(widths, header, rows, aligns, spans=[(0, 4, 9), (0, 10, 11), (0, 12, 13)],
                tints=RESULT_TINTS, size=7, wrap=frozenset({0, 1}))


FIRER_HEAD = 13 * MM
"""Room for a firer's heading and its short note above the first table."""


def old_deck_legend(page: ShipMatchups) -> str:
    """Explain the letter O in an armor value, on a page that prints one ("" otherwise)."""
    targets = [m.target for m in page.guns] + [m.target for m in page.torpedoes]
    old = sorted({t.armor_label for t in targets if t.old})
    if not old:
        return ""
    return (f" The letter <b>O</b> before an armor value ({', '.join(old)}): armor on an old, thin "
            "deck, which shells falling at long range pierce more easily; the rows "
            "already allow for it.")


def render_matchups(pages: list[ShipMatchups], calc: Calculator, paper: Paper, key: str,
                    label: str, footer: str) -> Component:
    """Render one matchup page per firing ship.

    Args:
        pages: The computed matchups, one per firing ship (ships without weapons skipped).
        calc: The calculator (for the situational modifier list).
        paper: Paper size.
        key: Component key, e.g. ``matchups:japanese``.
        label: Page-label prefix.
        footer: Footer text.

    Returns:
        The component, with a bookmark per ship.

    """
    doc = CanvasDoc(paper, "Matchups", footer)
    situational = "; ".join(f"{m.number} {escape(m.label)}" for m in calc.situational())
    armed = share_pages([p for p in pages if p.guns or p.torpedoes])
    grids = [(FormGrid(gun_grid(p)) if p.guns else None,
              FormGrid(torpedo_grid(p)) if p.torpedoes else None) for p in armed]
    # Pieces that recur are drawn once as forms (generator.pages.gridforms): the grid
    # headers, the legends, and the rule skeletons drawn more than once. Body rows stay
    # on the page: measured in deflated packets, a form per recurring row (or per row
    # part) costs more in object and placement overhead than it saves.
    shapes = repeated_rules(g for pair in grids for g in pair if g is not None)
    for pair in grids:
        for g in pair:
            if g is not None:
                g.repeated = frozenset()
                g.rules = shapes
    small = doc.styles["small"]
    # The reading rules are the same for every firer: said once, at the top of the
    # sheet, so that two firers fit a page (issue 29: one firer a page left them a third
    # full). What differs by firer (modifiers already in, old armor) stays with it.
    if armed:
        torpedo_note = (
            " <b>Torpedoes</b>: one spread per mount. <b>Beam</b>: the whole spread; "
            "<b>bow/stern</b>: the track runs within 30° of the target's bow or stern, so "
            "the torpedoes are halved. A first roll of 6 also sends one torpedo back at "
            f"you ({percent(calc.wild_chance())}).")
        doc.add(FormParagraph(ParagraphBlock(
            "<b>Acc</b> is the accuracy result before situational modifiers. At the table, "
            f"also apply: {situational}. Roll the white die at or under Acc to hit (a 6 "
            "always misses). Then read each hit's coloured die straight off the row: range "
            "shifts, the (D) rule and duds are already resolved. <b>≥1</b> is the chance one "
            "turn's fire does any damage; <b>E</b> the expected damage steps (D 1, HD 2, "
            "sunk 3) on an undamaged target; <b>AF</b> the target's armor, <b>Δ</b> caliber "
            "minus armor." + (torpedo_note if any(p.torpedoes for p in armed) else ""),
            small)))
        doc.add(Spacer(small.spaceAfter))
        doc.space(1.5)
    for page, (guns, torpedoes) in zip(armed, grids, strict=True):
        # A firer follows the one before on the same page when it fits there whole; one
        # too tall for any page starts wherever its heading and first rows fit.
        first = (guns or torpedoes)
        assert first is not None  # share_pages kept only armed firers
        whole = FIRER_HEAD + sum(g.grid.height() for g in (guns, torpedoes)
                                          if g is not None)
        least = first.grid.header_height + 3 * first.grid.row_height(0) + FIRER_HEAD
        doc.ensure(whole if whole <= doc.top - doc.bottom else least)
        firer = page.firer
        for name in page.names:
            doc.anchor(name)
        names = ", ".join(escape(n) for n in page.names)
        doc.paragraph(f"{names} <font size=9>({escape(firer.cls.name)} class "
                      f"{firer.cls.type.value}) against every enemy, resolved</font>", "h2")
        fixed = escape("; ".join(page.applied))
        note = (f"Already in Acc: {fixed}." if fixed else "") + old_deck_legend(page)
        if note:
            doc.add(FormParagraph(ParagraphBlock(note.strip(), small)))
            doc.add(Spacer(small.spaceAfter))
        doc.space(1.5)
        if guns is not None:
            doc.add(FormGridBlock(guns, keep_rows=3))
        if torpedoes is not None:
            doc.space(2)
            doc.add(FormGridBlock(torpedoes, keep_rows=3))
        doc.space(3)
    if not armed:
        doc.paragraph("No ship on this side carries weapons.", "body")
    pdf, count = doc.finish()
    return Component(key, "Matchups", label, pdf, count, doc.bookmarks)
