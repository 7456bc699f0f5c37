"""How the Naval Warfare calculators write what they are given and what they answer.

Shared by ``merchant`` (``commands``) and ``naval-combat`` (``combatcli``), so neither
command module imports the other.
"""

from __future__ import annotations

from fractions import Fraction


def blank_force(text: str) -> bool:
    """Whether a force names nothing: blank, or only the separators between units."""
    return not text.strip(" \t\r\n,;+")


def pct(p: Fraction) -> str:
    """A chance as a percentage to one decimal; a dash for none."""
    from generator.rules.dice import percent

    return percent(p, 1) if p else "–"


def mean_text(value: Fraction) -> str:
    """An expected value to two decimals."""
    return f"{float(value):.2f}"
