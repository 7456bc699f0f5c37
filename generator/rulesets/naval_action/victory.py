"""Victory points by the comparative-strength ratio rule.

A stronger side's losses are worth more to the weaker side: each of its ships lost
scores its CS multiplied by the strength ratio, while the weaker side's losses score
their plain CS. Heavy damage scores a share (half by default) of the same value. The
ratio applies only where a scenario calls for it, and cargo ships and transports stay out
of the totals (their loss is worth what the scenario agrees).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.rulesets.naval_action.derive import ShipView


@dataclass(frozen=True)
class ShipValue:
    """What the enemy scores if this ship is sunk or heavily damaged."""

    name: str
    cls: str
    type: str
    cs: Fraction
    if_sunk: Fraction
    if_hd: Fraction


def cs_fraction(value: float) -> Fraction:
    """A CS value as an exact fraction (class files may give 2.5 or 3.33)."""
    return Fraction(value).limit_denominator(100)


def strength_totals(views: Mapping[str, Sequence[ShipView]],
                    leave_out: Collection[str]) -> dict[str, Fraction]:
    """Each side's comparative strength for the ratio: fighting ships only.

    Args:
        views: Ships by side id.
        leave_out: Ship types that do not count (cargo ships and transports: the text
            gives them "a very weak fighting value" for the comparison).

    Returns:
        Side id to total CS.

    """
    return {side: sum((cs_fraction(v.comparative_strength) for v in ships
                       if v.cls.type.value not in leave_out), Fraction(0))
            for side, ships in views.items()}


def loss_multipliers(totals: dict[str, Fraction], ratio: bool = True) -> dict[str, Fraction]:
    """Multiplier on each side's losses: its strength over its enemies', never below 1.

    With two sides this is the text's ratio rule: 10 against 4 gives the stronger side's
    losses a multiplier of 2.5 and the weaker side's 1. Without ``ratio`` (a scenario
    that does not call for it) every multiplier is 1.
    """
    out = {}
    for side, total in totals.items():
        if not ratio:
            out[side] = Fraction(1)
            continue
        enemies = sum((t for s, t in totals.items() if s != side), Fraction(0))
        out[side] = max(Fraction(1), total / enemies) if enemies else Fraction(1)
    return out


def ship_values(ships: list[tuple[str, str, str, Fraction]], multiplier: Fraction,
                hd_share: Fraction, agreed: Mapping[str, Fraction] | None = None,
                ) -> list[ShipValue]:
    """Values of a side's ships: (name, class, type, CS) with the side's multiplier.

    ``agreed`` holds the victory values a scenario set by ship name (a transport's worth
    is agreed before play); those are scored as given, not multiplied.
    """
    agreed = agreed or {}
    out = []
    for n, c, t, cs in ships:
        value = agreed[n] if n in agreed else cs * multiplier
        out.append(ShipValue(n, c, t, cs, value, value * hd_share))
    return out


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
