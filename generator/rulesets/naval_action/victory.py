"""Victory points by the comparative-strength ratio rule.

A stronger side's losses are worth more to the weaker side: each of its ships lost
scores its CS multiplied by the strength ratio, while the weaker side's losses score
their plain CS. Heavy damage scores a share (half by default) of the same value.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class ShipValue:
    """What the enemy scores if this ship is sunk or heavily damaged."""

    name: str
    cls: str
    type: str
    cs: Fraction
    if_sunk: Fraction
    if_hd: Fraction


def loss_multipliers(totals: dict[str, Fraction]) -> dict[str, Fraction]:
    """Multiplier on each side's losses: its strength over its enemies', never below 1.

    With two sides this is the text's ratio rule: 10 against 4 gives the stronger side's
    losses a multiplier of 2.5 and the weaker side's 1.
    """
    out = {}
    for side, total in totals.items():
        enemies = sum((t for s, t in totals.items() if s != side), Fraction(0))
        out[side] = max(Fraction(1), total / enemies) if enemies else Fraction(1)
    return out


def ship_values(ships: list[tuple[str, str, str, Fraction]], multiplier: Fraction,
                hd_share: Fraction) -> list[ShipValue]:
    """Values of a side's ships: (name, class, type, CS) with the side's multiplier."""
    return [ShipValue(n, c, t, cs, cs * multiplier, cs * multiplier * hd_share)
            for n, c, t, cs in ships]


def points(values: list[ShipValue], sunk: list[str], heavily_damaged: list[str]) -> Fraction:
    """Points the enemy scores for these losses."""
    by_name = {v.name: v for v in values}
    return (sum((by_name[n].if_sunk for n in sunk), Fraction(0))
            + sum((by_name[n].if_hd for n in heavily_damaged), Fraction(0)))


def number(value: Fraction) -> str:
    """12.5 -> '12.5', 2 -> '2', 10/3 -> '3.33'."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text
