"""Derived values against the rule text's own anchors, computed by hand."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from generator.data.library import load_library
from generator.rulesets.naval_action import derive
from generator.rulesets.naval_action.schema import ShipClass

LIB = load_library()
CLASSES = LIB.classes_of("naval-action")


def cls(name: str) -> ShipClass:
    return CLASSES[name].model


@pytest.mark.parametrize(("bore", "factor"), [(3, 1), (4, 2), (4.7, 3), (5, 3), (5.25, 4),
                                               (6, 4), (8, 5), (11, 6), (14, 7), (16, 8),
                                               (18.1, 9)])
def test_caliber_factor_table(bore: float, factor: int) -> None:
    assert derive.caliber_factor(bore) == factor


def test_range_bands_are_thirds_rounded_up() -> None:
    assert derive.range_bands(31860) == (10620, 21240)
    # 29,000 / 3 = 9,666.67 -> 9,667; 58,000 / 3 = 19,333.33 -> 19,334
    assert derive.range_bands(29000) == (9667, 19334)
    assert derive.range_bands(14500) == (4834, 9667)


def test_aa_factor_is_one_per_four_dp_guns() -> None:
    # New Orleans: 8 x 5in/25 DP -> 2
    assert derive.aa_factor(cls("new-orleans")) == Fraction(2)
    # The text's example: a battleship with 20 x 5in DP guns has AA factor 5.
    data = cls("new-orleans").model_dump(by_alias=True)
    data["guns"] = [{"position": "L", "guns": 10, "bore_in": 5, "dp": True,
                     "max_range_yd": 18000, "rounds_per_gun": 300},
                    {"position": "R", "guns": 10, "bore_in": 5, "dp": True,
                     "max_range_yd": 18000, "rounds_per_gun": 300},
                    {"position": "BOW", "guns": 6, "bore_in": 16, "dp": False,
                     "max_range_yd": 40000, "rounds_per_gun": 100}]
    assert derive.aa_factor(ShipClass.model_validate(data)) == Fraction(5)


@pytest.mark.parametrize(("class_id", "date", "expected"), [
    ("new-orleans", dt.date(1942, 8, 31), "Poor"),
    ("new-orleans", dt.date(1942, 9, 1), "Good"),
    ("bismarck", dt.date(1940, 5, 31), "Poor"),
    ("bismarck", dt.date(1940, 6, 1), "Good"),
    ("littorio", dt.date(1942, 3, 22), "Poor"),
    ("littorio", dt.date(1942, 6, 1), "Good"),
    ("dido", dt.date(1939, 9, 3), "Good"),
    ("kent", dt.date(1942, 8, 9), "Good"),
    ("takao", dt.date(1945, 1, 1), "Poor"),
    ("admiralen", dt.date(1942, 3, 1), "Poor"),
    ("richelieu", dt.date(1944, 1, 1), "Poor"),
])
def test_damage_control_dates(class_id: str, date: dt.date, expected: str) -> None:
    assert derive.damage_control(cls(class_id), date) == expected


def test_old_guns_fire_last_new_guns_by_caliber() -> None:
    new_8in = derive.battery_view(cls("new-orleans").guns[0])
    new_5in = derive.battery_view(cls("new-orleans").guns[2])
    old = [b for b in cls("tenryu").guns if b.old]
    assert old, "Tenryu's 5.5in guns are WWI-era models"
    assert new_5in.fire_step < new_8in.fire_step < derive.battery_view(old[0]).fire_step == 10


def test_houston_twenty_rounds_is_two_turns() -> None:
    # The text: 20 shells per 8in gun is "barely 2 turns of firing".
    assert derive.ammo_boxes(20, derive.caliber_factor(8)) == 2
    assert derive.ammo_boxes(150, 5) == 15
    assert derive.ammo_boxes(151, 5) == 16


def test_armor_anchors() -> None:
    # A destroyer leader has armor 3 (text); the smallest craft 1 so torpedoes reach +7.
    assert derive.armor_factor(cls("porter")) == 3
    assert derive.armor_factor(cls("hunt")) == 1
    assert derive.armor_factor(cls("fletcher")) == 2
    assert 8 - derive.armor_factor(cls("hunt")) == 7


def test_radar_by_date() -> None:
    no = cls("new-orleans")
    assert derive.radar_on(no, dt.date(1942, 1, 1)) is None
    assert derive.radar_on(no, dt.date(1942, 8, 9)) == "SC"


def test_every_bundled_class_derives() -> None:
    assert len(CLASSES) >= 60
    nations = {c.model.nation.value for c in CLASSES.values()}
    assert {"US", "UK", "JP", "DE", "IT", "FR", "NL", "AU"} <= nations
    for entry in CLASSES.values():
        model: ShipClass = entry.model
        assert model.sources, model.id
        for battery in model.guns:
            view = derive.battery_view(battery)
            assert 0 < view.close_yd < view.medium_yd < view.max_range_yd
