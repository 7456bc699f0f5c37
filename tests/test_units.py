from __future__ import annotations

import pytest

from generator.scales import NAMED_SCALES, marker_length_mm, parse_scale
from generator.units import INCH, MM, parse_length, to_mm


def test_parse_length() -> None:
    assert parse_length("63mm") == pytest.approx(63 * 72 / 25.4)
    assert parse_length("2.5in") == pytest.approx(180.0)
    assert parse_length("1cm") == pytest.approx(10 * MM)
    assert parse_length("12pt") == 12.0
    assert to_mm(parse_length("100mm")) == pytest.approx(100.0)
    with pytest.raises(ValueError, match="expected a length"):
        parse_length("12 furlongs")


def test_scales() -> None:
    table = NAMED_SCALES["tabletop"]
    assert table.unit == "cm"
    assert table.yards_to_units(1000) == pytest.approx(3.003, abs=1e-3)  # "3cm per 1000 yds"
    assert table.units_per_knot() == pytest.approx(0.5, abs=0.001)  # ".5cm per knot"
    assert NAMED_SCALES["floor"].yards_to_points(333) == pytest.approx(INCH)
    assert NAMED_SCALES["large-floor"].units_per_knot() == pytest.approx(1.0, abs=0.002)
    custom = parse_scale("1000 yards per in")
    assert custom.yards_to_units(6000) == 6
    with pytest.raises(ValueError):
        parse_scale("huge")


def test_marker_length() -> None:
    assert marker_length_mm(600) == pytest.approx(15.24)
