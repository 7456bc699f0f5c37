"""A NAVAL ACTION ship as the odds see it, in plain data: no schema, no pydantic.

The range bands, a battery's and a torpedo mount's derived values, and ``Party`` (the
figures of one ship that its matchups read) live here so that the cached answers of
``quarterdeck odds`` (``asking``) load without the ruleset's models. ``derive`` fills
them from the schema; a ``ShipView`` hands its matchups its ``Party`` (``figures``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Band = Literal["close", "medium", "long"]
BANDS: tuple[Band, ...] = ("close", "medium", "long")


def armor_label(armor_factor: int, old_deck: bool) -> str:
    """Armor factor with the old-deck 'O' prefix when it applies ('O5')."""
    return ("O" if old_deck else "") + str(armor_factor)


@dataclass
class BatteryView:
    """A gun battery with everything derived, ready to print."""

    position: str
    guns: int
    bore_in: float
    caliber_factor: int
    old: bool
    dp: bool
    max_range_yd: int
    close_yd: int
    medium_yd: int
    fire_step: int
    rounds_per_gun: int
    rounds_limited: bool
    ammo_boxes: int
    disabled: bool
    turrets: int | None
    arcs: list[tuple[float, float]]
    note: str | None

    @property
    def label(self) -> str:
        """E.g. '6 x 8in'."""
        return f"{self.guns} × {self.bore_in:g}in"


@dataclass
class TorpedoView:
    """One torpedo mount, ready to print."""

    size_in: int
    tubes: int
    side: str
    reloads: int
    two_turn: bool
    penetration: int
    run_yd: int | None = None


@dataclass(frozen=True)
class Party:
    """One ship's figures that its matchups read, kept by the odds index."""

    name: str
    class_name: str
    nation: str
    ship_type: str
    old_deck: bool
    armor_factor: int
    batteries: list[BatteryView]
    torpedoes: list[TorpedoView]
    commissioned_year: int

    @property
    def armor_label(self) -> str:
        """Armor factor with the old-deck 'O' prefix when it applies."""
        return armor_label(self.armor_factor, self.old_deck)
