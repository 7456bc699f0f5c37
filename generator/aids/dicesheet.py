"""Pre-rolled dice: seeded white/coloured pairs for a table with no dice to hand.

The one dice sheet of every ruleset that prints one: the ruleset says which dice the
pairs are (two d6 by default) and how its players read them (``how``); the seeds are the
pipeline's (``generator.rules.dice.build_seed``), so a sheet's seed means the same in
every kit.
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape

from reportlab.lib import colors

from generator.core import fonts
from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.layout import Paper
from generator.rules.dice import owner_seed, pairs

RED = colors.Color(0.75, 0.1, 0.1)
COLUMNS = 8
ROWS = 30


HOW = ("The <b>white</b> number is the accuracy or hit die, the "
       "<font color='#bf1a1a'><b>red</b></font> number the coloured penetration or damage "
       "die. Use one pair per roll of two dice, the white number alone for one die.")
"""The default reading of the pairs (a white die and a coloured die)."""


def render_dice_sheet(seed: int, paper: Paper, footer: str, command: str, *,
                      build_seed: int | None = None, whose: str | None = None,
                      key: str = "dice", how: str = HOW,
                      faces: tuple[int, int] = (6, 6)) -> Component:
    """One page of numbered, seeded dice pairs; the seed regenerates the same page.

    Args:
        seed: This sheet's own seed, printed on it.
        paper: Paper size.
        footer: Footer text.
        command: What regenerates this sheet, in a player's words, printed on it.
        build_seed: The build's seed this sheet's seed was derived from (None: the same).
        whose: Whose sheet it is (a side's name, or the referee), printed on it.
        key: The component key (``dice`` or ``dice:SIDE``).
        how: How the ruleset's players read the pairs (markup, trusted: from code).
        faces: The sides of the white die and of the coloured one.

    Returns:
        The component.

    """
    doc = CanvasDoc(paper, "Pre-rolled dice", footer)
    doc.anchor("Pre-rolled dice")
    doc.paragraph("Pre-rolled dice" + (f": {escape(whose)}" if whose else ""), "h1")
    origin = (f", drawn from build seed <b>{build_seed}</b>"
              + (f" for {escape(whose)}" if whose else "")
              if build_seed is not None and build_seed != seed else "")
    doc.paragraph(
        f"Seed <b>{seed}</b>{origin} ({escape(command)} "
        "prints this same sheet again; every packet has its own sheet, so no two roll the "
        "same dice). Work down each column in turn and strike out each pair as you "
        f"use it. {how}")
    doc.space(3)
    c = doc.canvas
    col_w = doc.box.width / COLUMNS
    row_h = min(7.6 * MM, (doc.room - 2 * MM) / ROWS)
    top = doc.y
    for i, (white, red) in enumerate(pairs(seed, COLUMNS * ROWS, faces)):
        col, row = divmod(i, ROWS)
        x = doc.box.x + col * col_w
        y = top - (row + 1) * row_h
        c.setFillColor(colors.Color(0.45, 0.45, 0.45))
        c.setFont(fonts.NARROW, 7)
        c.drawRightString(x + 6.5 * MM, y + 2 * MM, str(i + 1))
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.6)
        c.setFillColor(colors.white)
        c.rect(x + 8 * MM, y + 0.7 * MM, 5.6 * MM, 5.6 * MM, stroke=1, fill=1)
        c.setFillColor(RED)
        c.rect(x + 14.6 * MM, y + 0.7 * MM, 5.6 * MM, 5.6 * MM, stroke=0, fill=1)
        c.setFont(fonts.BOLD, 11)
        c.setFillColor(colors.black)
        c.drawCentredString(x + 10.8 * MM, y + 2.2 * MM, str(white))
        c.setFillColor(colors.white)
        c.drawCentredString(x + 17.4 * MM, y + 2.2 * MM, str(red))
    c.setFillColor(colors.black)
    doc.y = top - ROWS * row_h
    pdf, pages = doc.finish()
    return Component(key, "Pre-rolled dice", "Dice-", pdf, pages, doc.bookmarks[1:])


def owner_dice_sheet(build: int, side: str | None, sides: Mapping[str, str], paper: Paper,
                     footer: str, command: str, scenario: str | None, *, how: str = HOW,
                     faces: tuple[int, int] = (6, 6)) -> Component:
    """The dice sheet of one packet's owner: the recipe's ``dice`` or ``dice:SIDE``.

    Args:
        build: The build seed in force (``KitOptions.seed``, set by the pipeline).
        side: The side whose sheet it is; None for the referee's (or a kit's only) sheet.
        sides: The kit's side ids and names (empty without a scenario).
        paper: Paper size.
        footer: Footer text.
        command: The request's command (``kit``, ``tables``), for the regenerating line.
        scenario: The scenario id, if any, for the regenerating line.
        how: How the ruleset's players read the pairs (markup, trusted: from code).
        faces: The sides of the white die and of the coloured one.

    Returns:
        The component, keyed ``dice:SIDE`` or ``dice``.

    """
    # In a player's words, not as a command line: the referee's manifest records the seed.
    what = "kit" if command == "kit" else command
    again = (f"the {scenario} {what}" if scenario else f"the {what}") + \
        f" built with build seed {build}"
    whose = sides[side] if side else ("referee" if sides else None)
    return render_dice_sheet(owner_seed(build, side, bool(sides)), paper, footer, again,
                             build_seed=build, whose=whose,
                             key=f"dice:{side}" if side else "dice", how=how, faces=faces)
