"""Example Skirmish's rating of a shared ship class, by the rules in ``tables/rating.yaml``.

Guns are the main battery's guns times its bore over a divisor; armour is belt plus deck
over another; move is speed over knots per hex. A class file's ``ratings:
{example-skirmish: {...}}`` block replaces any of ``type``, ``guns``, ``armour`` and
``move`` by hand, or says ``unrated: why``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from generator.data.datamodel import Strict
from generator.data.shipclass import Rating, override_errors, ratings_block
from generator.data.shipclass import ShipClass as Facts
from generator.data.validation import load_model
from qd_example.schema import SkirmishClass

NAME = "example-skirmish"
TABLE = Path(__file__).parent / "tables" / "rating.yaml"
RATINGS = ("type", "guns", "armour", "move")
"""What a class file may set by hand for Example Skirmish."""


class RatingRules(Strict):
    """The whole rating rules file."""

    kind: Literal["skirmish-rating"]
    types: dict[str, str] = Field(max_length=30)
    unrated_types: dict[str, str] = Field(max_length=30)
    gun_divisor: float = Field(gt=0, le=1000)
    max_guns: int = Field(ge=1, le=6)
    armour_divisor: float = Field(gt=0, le=100)
    max_armour: int = Field(ge=0, le=5)
    knots_per_hex: float = Field(gt=0, le=50)


@cache
def rules() -> RatingRules:
    """The rating rules (read once)."""
    return load_model(RatingRules, TABLE, "example/tables/rating.yaml")


def _exact(value: float) -> Fraction:
    return Fraction(str(value))


def guns(facts: Facts) -> int:
    """The main battery's guns x bore / divisor, rounded half up, within 1..max_guns."""
    bore = max(b.bore_in for b in facts.guns)
    main = sum(b.guns for b in facts.guns if b.bore_in == bore) * _exact(bore)
    return max(1, min(rules().max_guns, math.floor(main / _exact(rules().gun_divisor)
                                                   + Fraction(1, 2))))


def armour(facts: Facts) -> int:
    """Belt plus deck over the divisor, rounded down, at most max_armour."""
    total = _exact(facts.armor.belt_in) + _exact(facts.armor.deck_in)
    return min(rules().max_armour, math.floor(total / _exact(rules().armour_divisor)))


def move(facts: Facts) -> int:
    """Speed over knots per hex, rounded down, at least 1."""
    return max(1, math.floor(_exact(facts.speed_kn) / _exact(rules().knots_per_hex)))


def derive(facts: Facts) -> Rating:
    """The Example Skirmish rating of a shared class, or why it has none."""
    block, refused = ratings_block(facts, NAME, list(RATINGS))
    if refused is not None:
        return refused
    table = rules()
    kind = table.types.get(facts.type.value)
    if kind is None and "type" not in block:
        return Rating(None, unrated=table.unrated_types.get(
            facts.type.value, f"Example Skirmish has no counter for a {facts.type.value}"))
    if not facts.guns and "guns" not in block:
        return Rating(None, unrated="the file gives no guns to rate; add them, or set "
                                    f"ratings.{NAME}.guns")
    data: dict[str, object] = {
        "id": facts.id, "name": facts.name, "nation": facts.nation.value, "type": kind,
        "guns": guns(facts), "armour": armour(facts), "move": move(facts),
        "ship_names": [s.name for s in facts.ships],
        "aka": {a: s.name for s in facts.ships for a in s.aka}, **block}
    try:
        model = SkirmishClass.model_validate(data)
    except ValidationError as exc:
        return Rating(None, problems=override_errors(exc, NAME, block))
    return Rating(model, overrides=list(block))
