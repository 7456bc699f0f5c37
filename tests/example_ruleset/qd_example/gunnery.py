"""A salvo, exactly: the chance of each number of net hits, and of a flip or a sinking.

A salvo rolls one d6 per gun; each die at or above the band's score is a hit, and the
target's armour stops that many. One net hit flips an undamaged ship to its damaged side,
``sink_hits`` sink it, and any net hit sinks a damaged ship. A salvo that does damage
without sinking rolls once on the critical table (``MG``, the magazine, sinks).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from generator.core.errors import UsageError
from generator.core.suggest import did_you_mean
from generator.rules import dice, dietable
from qd_example.tables import SkirmishTables

SINKS = "MG"
"""The critical result that sinks the ship."""


@dataclass(frozen=True)
class Salvo:
    """What one salvo may do to its target."""

    net: dict[int, Fraction]
    """Net hits (after armour) -> exact chance."""
    flipped: Fraction
    """Chance the target ends afloat on its damaged side (0 for a ship already damaged)."""
    sunk: Fraction


def net_hits(guns: int, armour: int, to_hit: int) -> dict[int, Fraction]:
    """Net hits of ``guns`` dice scoring ``to_hit`` or more against ``armour``."""
    hit = dice.d(6).map(lambda face: 1 if face >= to_hit else 0)
    total = dice.repeat_sum(dice.constant(guns), hit)
    found: dict[int, Fraction] = dice.distribution(total.map(lambda h: max(0, h - armour)))
    return found


def salvo(tables: SkirmishTables, guns: int, armour: int, band: str, target: str,
          damaged: bool = False) -> Salvo:
    """One salvo's exact outcome (``target``: the target's type, for the critical table).

    Raises:
        UsageError: An unknown band or type, or numbers out of bounds.

    """
    bands = [b.id for b in tables.bands]
    if band not in bands:
        raise UsageError(f"--band: found '{band}', expected one of {', '.join(bands)}"
                         f"{did_you_mean(band, bands)}")
    if target not in tables.critical.headings:
        raise UsageError(f"--type: found '{target}', expected one of "
                         f"{', '.join(tables.critical.headings)}")
    if not (1 <= guns <= 12 and 0 <= armour <= 10):
        raise UsageError("expected 1 to 12 guns and 0 to 10 armour")
    net = net_hits(guns, armour, tables.band(band).to_hit)
    critical = dietable.odds(tables.critical, tables.critical.index(target))
    magazine = critical.get(SINKS, Fraction(0))
    some = sum((p for n, p in net.items() if n >= 1), Fraction(0))
    if damaged:
        return Salvo(net, Fraction(0), some)
    sinking = sum((p for n, p in net.items() if n >= tables.sink_hits), Fraction(0))
    return Salvo(net, (some - sinking) * (1 - magazine), sinking + (some - sinking) * magazine)
