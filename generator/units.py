"""Physical lengths: one parser for unit strings, one internal unit (PDF points)."""

from __future__ import annotations

import re

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
        return float(text)
    match = _PATTERN.match(text)
    if not match:
        raise ValueError(f"expected a length such as '63mm', '2.5in' or '12pt', not {text!r}")
    return float(match.group(1)) * _UNITS[match.group(2)]


def to_mm(points: float) -> float:
    """Convert points to millimetres."""
    return points / MM
