"""Game scales: yards of sea per unit of table, and what follows from them.

Every ruleset reads its distances through this module so that a ruler, a range string
and a status sheet can never disagree about what "333 yards per cm" means.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.units import CM, INCH

YARDS_PER_NAUTICAL_MILE = 2025.4
TURN_MINUTES = 5.0


@dataclass(frozen=True)
class Scale:
    """A ground scale for measuring on the table.

    Attributes:
        name: Short id (``tabletop``) or a description for custom scales.
        yards_per_unit: Yards represented by one table unit.
        unit: ``cm`` or ``in``.
        label: Human description.

    """

    name: str
    yards_per_unit: float
    unit: str
    label: str

    @property
    def points_per_unit(self) -> float:
        """PDF points in one table unit."""
        return CM if self.unit == "cm" else INCH

    def yards_to_units(self, yards: float) -> float:
        """Table units (cm or in) for a distance in yards."""
        return yards / self.yards_per_unit

    def yards_to_points(self, yards: float) -> float:
        """PDF points for a distance in yards at this scale."""
        return self.yards_to_units(yards) * self.points_per_unit

    def units_per_knot(self) -> float:
        """Table units moved per knot in one 5-minute turn.

        NAVAL ACTION rounds a knot to 2,000 yd per hour, so 1 knot is 166.7 yd per
        turn: half a unit at 333 yd per unit.
        """
        return (2000.0 * TURN_MINUTES / 60.0) / self.yards_per_unit

    def describe(self) -> str:
        """E.g. ``333 yd per cm (tabletop)``."""
        return f"{self.yards_per_unit:g} yd per {self.unit} ({self.label})"


NAMED_SCALES: dict[str, Scale] = {
    "tabletop": Scale("tabletop", 333.0, "cm", "tabletop"),
    "floor": Scale("floor", 333.0, "in", "floor"),
    "large-floor": Scale("large-floor", 167.0, "in", "large-scale floor"),
    "marker": Scale("marker", 12000 / 36.0, "in", "1:12,000 markers"),
}

_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:yd|yds|yards?)\s*(?:per|/)\s*(cm|in|inch)\s*$",
                     re.IGNORECASE)


def parse_scale(text: str) -> Scale:
    """Return a named scale or parse ``"N yards per cm|in"``.

    Args:
        text: ``tabletop``, ``floor``, ``large-floor``, ``marker`` or a custom scale.

    Returns:
        The scale.

    Raises:
        ValueError: For anything else.

    """
    key = text.strip().lower()
    if key in NAMED_SCALES:
        return NAMED_SCALES[key]
    match = _CUSTOM.match(text)
    if not match:
        raise ValueError("expected tabletop, floor, large-floor, marker or "
                         "'N yards per cm|in'")
    unit = "in" if match.group(2).lower().startswith("in") else "cm"
    yards = float(match.group(1))
    return Scale(f"{yards:g}yd-per-{unit}", yards, unit, "custom")


def marker_length_mm(length_ft: float, ratio: float = 12000.0) -> float:
    """Length of a ship marker in mm at 1:``ratio`` (600 ft at 1:12,000 is 15.24 mm)."""
    return length_ft * 304.8 / ratio
