from __future__ import annotations

import pytest

from generator.core.scales import NAMED_SCALES, marker_length_mm, parse_scale
from generator.core.units import INCH, MM, parse_length, to_mm


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
    # The text's glosses hold exactly: "3cm per 1000 yds./.5cm per knot".
    assert table.yards_to_units(1000) == 3
    assert table.units_per_knot() == 0.5
    assert table.describe() == "333 yd per cm (tabletop)"
    assert NAMED_SCALES["floor"].yards_to_points(1000) == 3 * INCH
    # "6" per 1000 yds./1" per knot"
    assert NAMED_SCALES["large-floor"].yards_to_units(1000) == 6
    assert NAMED_SCALES["large-floor"].units_per_knot() == 1
    assert NAMED_SCALES["large-floor"].yards_text() == "167"
    # 1:12,000 markers: 1,000 yd (914.4 m) is 76.2 mm, 3 in, as on the floor scale
    assert NAMED_SCALES["marker"].yards_to_points(1000) == pytest.approx(914.4 / 12 * MM)
    custom = parse_scale("1000 yards per in")
    assert custom.yards_to_units(6000) == 6
    assert parse_scale("1000/3 yd per cm").yards == table.yards
    assert parse_scale("333 yd/cm").yards_to_units(333) == 1
    with pytest.raises(ValueError, match="expected between 10 and 100,000 yards per unit"):
        parse_scale("1 yard per in")
    with pytest.raises(ValueError, match="^expected tabletop, floor, large-floor, marker or "):
        parse_scale("huge")


def test_marker_length() -> None:
    assert marker_length_mm(600) == pytest.approx(15.24)
