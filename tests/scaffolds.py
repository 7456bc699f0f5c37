"""Fill a ``new-class`` scaffold's placeholders the way a designer would (for tests)."""

from __future__ import annotations

import re

FILLED = {
    "name": "First Ship",
    "commissioned": "1940-01-01",
    "length_ft": "350",
    "displacement_t": "1600",
    "speed_kn": "35",
    "belt_in": "0",
    "deck_in": "0",
    "position": "BOW",
    "guns": "2",
    "bore_in": "5",
    "max_range_yd": "18000",
    "rounds_per_gun": "350",
}
"""Per key, what replaces its placeholder (sources take a quoted line)."""


def fill(text: str, class_name: str = "My Dd", **values: str) -> str:
    """The scaffold with every placeholder replaced (``class_name`` for the top-level name)."""
    table = {**FILLED, **values}

    def one(match: re.Match[str]) -> str:
        key = match.group("key")
        if key == "name" and not match.group("indent"):
            return f"name: {class_name}"
        return f"{match.group('indent')}{key}: {table[key]}"

    text = re.sub(r'(?m)^(?P<indent>[ -]*)(?P<key>\w+): "<fill in:[^"]*"', one, text)
    return re.sub(r'(?m)^  - "<fill in:[^"]*"', '  - "Test source (test): every fact"', text)
