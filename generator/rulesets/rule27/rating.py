"""Rule 27's ratings of a shared ship class, by the rules in ``tables/rating.yaml``.

A ship's *points* come from its facts: the weight of its guns (guns x bore cubed), its
armour (belt plus deck, in inches) and its torpedo tubes; a counter's strength is a root
of the sum of its ships' points, scaled and rounded half up, never below its type's
minimum (``strength``). AA points count heavy AA and dual-purpose guns by bore. A
carrier's strength is its air capacity, aircraft over a fixed number per point. A
battleship class is the text's BC ("battle-cruiser/modern battleship") when it was
completed after the treaty years (``r27_type``). A surface class without guns is refused:
its strength would be its armour alone.
A class file's ``ratings: {rule-27: {...}}`` block replaces any of these by hand:
``type``, ``points``, ``aa_points``, ``air_capacity`` (or ``unrated: why``).
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from generator.data.datamodel import Strict
from generator.data.shipclass import Rating, override_errors, ratings_block
from generator.data.shipclass import ShipClass as Facts
from generator.data.validation import load_model
from generator.rulesets.rule27.schema import Rule27Class

NAME = "rule-27"
TABLE = Path(__file__).parent / "tables" / "rating.yaml"
RATINGS = ("type", "points", "aa_points", "air_capacity", "notes")
"""What a class file may set by hand for Rule 27."""


class RatingRules(Strict):
    """The whole rating rules file."""

    kind: Literal["rule27-rating"]
    types: dict[str, str] = Field(max_length=30)
    unrated_types: dict[str, str] = Field(max_length=30)
    modern_battleship_from: dt.date = Field(
        description="A BB class first completed on or after this date is the text's BC.")
    gun_cube_divisor: float = Field(gt=0, le=100000)
    armour_weight: float = Field(ge=0, le=100)
    torpedo_per_tube: float = Field(ge=0, le=10)
    strength_scale: float = Field(gt=0, le=100,
                                  description="Strength = scale x (sum of points) ^ (1 / root).")
    strength_root: int = Field(ge=1, le=4, description="The root taken of a counter's points.")
    minimum_strength: dict[str, int] = Field(max_length=10)
    aa_divisor: float = Field(gt=0, le=1000)
    aircraft_per_strength: int = Field(ge=1, le=200)
    needs_guns: list[str] = Field(max_length=10, description="Rule 27 types refused without guns.")


@cache
def rules() -> RatingRules:
    """The rating rules (read once)."""
    return load_model(RatingRules, TABLE, "rule27/tables/rating.yaml")


def _exact(value: float) -> Fraction:
    """A decimal from the data as an exact fraction (0.1 stays one tenth)."""
    return Fraction(str(value))


def r27_type(facts: Facts) -> str | None:
    """The Rule 27 type of a class, or None when Rule 27 has no counter for it."""
    table = rules()
    found = table.types.get(facts.type.value)
    first = min(s.commissioned for s in facts.ships)
    if found == "BB" and first >= table.modern_battleship_from:
        return "BC"
    return found


def strength(kind: str, total: Fraction) -> int:
    """A counter's strength from the sum of its ships' points, exactly.

    ``scale x total ^ (1 / root)`` rounded half up, never below the type's minimum. The
    rounding is decided without floating point: the result is the largest ``n`` with
    ``((n - 1/2) / scale) ^ root <= total``.
    """
    table = rules()
    scale = _exact(table.strength_scale)
    n = 0
    while n < 100 and ((Fraction(2 * n + 1, 2)) / scale) ** table.strength_root <= total:
        n += 1
    return max(table.minimum_strength.get(kind, 1), n)


def gun_score(facts: Facts) -> Fraction:
    """Guns x bore cubed over the divisor, over every surface battery."""
    table = rules()
    return sum((battery.guns * _exact(battery.bore_in) ** 3 for battery in facts.guns),
               Fraction(0)) / _exact(table.gun_cube_divisor)


def points(facts: Facts) -> Fraction:
    """One ship's points (before a counter sums them and takes ``strength``)."""
    table = rules()
    armour = (_exact(facts.armor.belt_in) + _exact(facts.armor.deck_in)) \
        * _exact(table.armour_weight)
    tubes = sum(m.mounts * m.tubes for m in facts.torpedoes)
    torpedo = tubes * _exact(table.torpedo_per_tube)
    return gun_score(facts) + armour + torpedo


def aa_points(facts: Facts) -> Fraction:
    """One ship's AA points: heavy AA and dual-purpose guns by bore."""
    table = rules()
    guns = sum((a.guns * _exact(a.bore_in) for a in facts.aa_guns), Fraction(0))
    guns += sum((b.guns * _exact(b.bore_in) for b in facts.guns if b.dp), Fraction(0))
    return guns / _exact(table.aa_divisor)


def air_capacity(facts: Facts) -> int:
    """A carrier's air capacity: its aircraft over the number per strength point."""
    planes = 0
    if facts.aircraft is not None:
        planes = (facts.aircraft.fighters + facts.aircraft.dive_bombers
                  + facts.aircraft.torpedo_bombers)
    return max(1, round(Fraction(planes, rules().aircraft_per_strength)))


def derive(facts: Facts) -> Rating:
    """The Rule 27 rating of a shared class.

    Returns:
        The rating (a ``Rule27Class``), with overrides applied, or why Rule 27 cannot rate
        the class (a submarine).

    """
    block, refused = ratings_block(facts, NAME, list(RATINGS))
    if refused is not None:
        return refused
    kind = r27_type(facts)
    if kind is None and "type" not in block:
        why = rules().unrated_types.get(facts.type.value,
                                        f"Rule 27 has no counter type for {facts.type.value}")
        return Rating(None, unrated=why)
    final = block.get("type", kind)
    if final in rules().needs_guns and not facts.guns and "points" not in block:
        return Rating(None, unrated=f"the file gives no guns, and a {final}'s strength is its "
                                    "naval combat strength (Rule 27 A1); add its gun "
                                    "batteries, or set ratings.rule-27.points")
    data: dict[str, object] = {
        "id": facts.id, "name": facts.name, "nation": facts.nation.value, "type": kind,
        "points": points(facts), "aa_points": aa_points(facts),
        "air_capacity": air_capacity(facts) if kind in ("CV", "CVE") else None,
        "ship_names": [s.name for s in facts.ships],
        "aka": {a: s.name for s in facts.ships for a in s.aka},
    }
    applied = []
    for key, value in block.items():
        data[key] = value
        if key != "notes":
            applied.append(key)
    if data["type"] in ("CV", "CVE") and data["air_capacity"] is None:
        data["air_capacity"] = air_capacity(facts)
    try:
        model = Rule27Class.model_validate(data)
    except ValidationError as exc:
        return Rating(None, problems=override_errors(exc, NAME, block))
    return Rating(model, overrides=applied)
