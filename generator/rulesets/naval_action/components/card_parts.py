"""The Action Card's own parts: its headings' tags and severity shades.

The parts any reference card has (sections, tagged headings, prose, boxed tables, arc
compasses, a track of boxes) are ``generator.pages.refcard``'s and
``generator.pages.boxtrack``'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from reportlab.lib import colors

from generator.pages.pages import Block
from generator.pages.refcard import bullet, gap, para
from generator.rules import dice
from generator.rules.defaults import LABEL as DEFAULT_LABEL
from generator.rules.defaults import is_default
from generator.rulesets.naval_action.cardtables import Tables

# Penetration cells are shaded by severity so the eye finds the S band in dim light.
SEVERITY_BG = {"S": colors.Color(0.68, 0.68, 0.68), "HD": colors.Color(0.8, 0.8, 0.8),
               "D": colors.Color(0.91, 0.91, 0.91)}
NO_EFFECT = "–"
FACES = ["1", "2", "3", "4", "5", "6"]
"""A d6's faces, as column headings."""


def pct(p: Fraction) -> str:
    """A chance as the kit prints percentages."""
    return dice.percent(p)


def noted(block: Block, space: float, note: str) -> list[Block]:
    """A section's table or drawing, then, after a gap, the note that explains it."""
    return [block, gap(space), para(note, "note")]


def explained(block: Block, space: float, *lines: str) -> list[Block]:
    """A section's table, then, after a gap, the rules that go with it as bullets."""
    return [block, gap(space), *map(bullet, lines)]


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
