"""Physical lengths: one parser for unit strings, one internal unit (PDF points)."""

from __future__ import annotations

import math
import re
from fractions import Fraction

MM = 72.0 / 25.4
"""Points per millimetre."""
CM = 10 * MM
INCH = 72.0
PT = 1.0

_UNITS = {"mm": MM, "cm": CM, "in": INCH, "inch": INCH, '"': INCH, "pt": PT}
_PATTERN = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|inch|\"|pt)\s*$")


def parse_length(text: str | float | int) -> float:
    """Parse a length such as ``"63mm"``, ``"2.5in"`` or ``"10 pt"`` into points.

    Args:
        text: A unit string; a bare number is taken as points.

    Returns:
        The length in PDF points.

    Raises:
        ValueError: If the string has no recognised unit.

    """
    if isinstance(text, int | float):
        points = float(text)
    else:
        match = _PATTERN.match(text)
        if not match:
            raise ValueError(f"expected a length such as '63mm', '2.5in' or '12pt', not "
                             f"{text!r}")
        points = float(match.group(1)) * _UNITS[match.group(2)]
    if not math.isfinite(points):  # "1" and 400 zeros reads as infinity
        raise ValueError(f"expected a length such as '63mm', '2.5in' or '12pt', not {text!r}")
    return points


def to_mm(points: float) -> float:
    """Convert points to millimetres."""
    return points / MM


# --- quantities in spreadsheet headers (``length (m)``): converted to the data's units -----

QUANTITIES: dict[str, dict[str, float]] = {
    # Lengths in feet.
    "length": {"ft": 1.0, "m": 1 / 0.3048, "cm": 1 / 30.48, "mm": 1 / 304.8,
               "in": 1 / 12, "yd": 3.0, "km": 1000 / 0.3048, "nmi": 1852 / 0.3048},
    # Masses in long tons (the data's displacement unit).
    "mass": {"t": 1.0, "lt": 1.0, "tonnes": 1000 / 1016.0469088, "kg": 1 / 1016.0469088,
             "st": 2000 / 2240},
    # Speeds in knots.
    "speed": {"kn": 1.0, "km/h": 1 / 1.852, "mph": 1609.344 / 1852},
}
"""Each kind of quantity: unit name -> how many of the kind's first unit it is."""
MAX_QUANTITY = 1e9
"""Largest converted quantity (a ship of a billion feet, tons or knots is a typo)."""


def unit_kind(unit: str) -> str | None:
    """The kind of quantity a unit name measures (``length``, ``mass``, ``speed``), or None."""
    return next((kind for kind, units in QUANTITIES.items() if unit in units), None)


def convert(value: float, unit: str, to: str) -> float:
    """``value`` in ``unit`` expressed in ``to`` (both of one kind in ``QUANTITIES``).

    Raises:
        ValueError: The units are unknown or measure different things, or the value (or
            the result) is not finite or is larger than ``MAX_QUANTITY``; the message is
            ``found X, expected Y``.

    """
    kind = unit_kind(unit)
    if kind is None or to not in QUANTITIES[kind]:
        raise ValueError(f"found {unit} to convert to {to}, expected units of one quantity")
    result = value * QUANTITIES[kind][unit] / QUANTITIES[kind][to]
    if not math.isfinite(result) or abs(result) > MAX_QUANTITY:
        raise ValueError(f"found {value:g} {unit}, expected a {kind} from "
                         f"{-MAX_QUANTITY:g} to {MAX_QUANTITY:g} {to}")
    return result


QUARTERS = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
"""The fractions printed as glyphs."""


def quarters(value: Fraction) -> str | None:
    """A value in whole quarters as players write it ('1½', '2', '¼'); None for any other."""
    whole, part = divmod(value, 1)
    if part not in QUARTERS:
        return None
    return (str(whole) if whole or not part else "") + QUARTERS[part]
