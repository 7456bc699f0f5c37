"""Game scales: yards of sea per unit of table, and what follows from them.

Every ruleset reads its distances through this module so that a ruler, a range string
and a status sheet can never disagree about what "333 yards per cm" means.

The rule texts round their scales for print: the first ruleset's "333 yds. per cm" is glossed
as "3cm per 1000 yds./.5cm per knot", and its "167 yds. per inch" as "6" per 1000 yds./1"
per knot". Those glosses are only true at 1,000/3 and 1,000/6 yards, so the named scales
hold exact fractions: a 30,000 yd ruler is then exactly 90 cm, not 90.09 cm.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from generator.core.units import CM, INCH

TURN_MINUTES = 5
YARDS_PER_KNOT_HOUR = 2000
"""The WWII tactical texts' round figure: a knot is about 2,000 yards an hour."""


@dataclass(frozen=True)
class Scale:
    """A ground scale for measuring on the table.

    Attributes:
        name: Short id (``tabletop``) or a description for custom scales.
        yards: Yards represented by one table unit, exactly.
        unit: ``cm`` or ``in``.
        label: Human description.

    """

    name: str
    yards: Fraction
    unit: str
    label: str

    @property
    def yards_per_unit(self) -> float:
        """Yards per table unit as a float (for lookups and printing)."""
        return float(self.yards)

    @property
    def points_per_unit(self) -> float:
        """PDF points in one table unit."""
        return CM if self.unit == "cm" else INCH

    def yards_to_units(self, yards: float | Fraction) -> float:
        """Table units (cm or in) for a distance in yards."""
        return float(Fraction(yards) / self.yards)

    def yards_to_points(self, yards: float | Fraction) -> float:
        """PDF points for a distance in yards at this scale."""
        return self.yards_to_units(yards) * self.points_per_unit

    def units_to_points(self, units: float) -> float:
        """PDF points for a length in table units."""
        return units * self.points_per_unit

    def units_per_knot(self) -> float:
        """Table units moved per knot in one 5-minute turn (0.5 at 333 yd per unit)."""
        return float(self.knot_yards() / self.yards)

    @staticmethod
    def knot_yards() -> Fraction:
        """Yards a ship makes per knot in one turn (2,000 yd per hour for 5 minutes)."""
        return Fraction(YARDS_PER_KNOT_HOUR * TURN_MINUTES, 60)

    def yards_text(self) -> str:
        """Yards per unit as the rule texts print it: ``333``, ``167``, ``1000``."""
        return f"{round(self.yards)}" if self.yards.denominator != 1 else f"{self.yards}"

    def describe(self) -> str:
        """E.g. ``333 yd per cm (tabletop)``."""
        return f"{self.yards_text()} yd per {self.unit} ({self.label})"


NAMED_SCALES: dict[str, Scale] = {
    "tabletop": Scale("tabletop", Fraction(1000, 3), "cm", "tabletop"),
    "floor": Scale("floor", Fraction(1000, 3), "in", "floor"),
    "large-floor": Scale("large-floor", Fraction(1000, 6), "in", "large-scale floor"),
    "marker": Scale("marker", Fraction(12000, 36), "in", "1:12,000 markers"),
}

MIN_YARDS = 10
MAX_YARDS = 100_000
_CUSTOM = re.compile(r"^\s*(\d{1,9}(?:\.\d{1,9})?(?:/\d{1,9})?)\s*(?:yd|yds|yards?)\s*(?:per|/)\s*"
                     r"(cm|in|inch)\s*$", re.IGNORECASE)


def parse_scale(text: str) -> Scale:
    """Return a named scale or parse ``"N yards per cm|in"``.

    Args:
        text: ``tabletop``, ``floor``, ``large-floor``, ``marker`` or a custom scale;
            N may be a fraction such as ``1000/3``.

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
    if re.search(r"/0+$", match.group(1)):
        raise ValueError("expected a fraction whose divisor is not 0")
    if not MIN_YARDS <= Fraction(match.group(1)) <= MAX_YARDS:
        # 1 yd per inch would make a 30,000 yd ruler 760 m long: a typo, not a scale.
        raise ValueError(f"expected between {MIN_YARDS} and {MAX_YARDS:,} yards per unit")
    unit = "in" if match.group(2).lower().startswith("in") else "cm"
    yards = Fraction(match.group(1))
    name = f"{match.group(1).replace('/', '_')}yd-per-{unit}"
    return Scale(name, yards, unit, "custom")


def marker_length_mm(length_ft: float, ratio: float = 12000.0) -> float:
    """Length of a ship marker in mm at 1:``ratio`` (600 ft at 1:12,000 is 15.24 mm)."""
    return length_ft * 304.8 / ratio
