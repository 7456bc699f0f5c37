"""Modern naval's filing of a shared class file: missile-era facts in, a ``ModernClass`` out.

Only classes with missile-era facts (``modern:``) are this ruleset's; a gun-era class is
passed by without a word (the gun-era rulesets pass missile-era classes by in the same
way, see ``generator.data.shipclass.derivers``). The class file's
``ratings: {modern-naval: ...}`` block is checked here, so a bad hand rating (an MVR the
turning table lacks) is a located error when the library loads. The game values
themselves are computed at build time by ``derive.py`` from the rating rules in force.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from generator.data.shipclass import Rating, override_errors, ratings_block
from generator.data.shipclass import ShipClass as Facts
from generator.rulesets.modern_naval.schema import ModernClass, Overrides

NAME = "modern-naval"
RATINGS = list(Overrides.model_fields)
FT_TO_M = 0.3048


def derive(facts: Facts) -> Rating:
    """File a shared class with missile-era facts for this ruleset.

    Returns:
        The rating: a ``ModernClass`` carrying the facts and the hand ratings, the reason
        the class cannot be rated, or located problems in its ratings block.

    """
    modern = facts.modern
    if modern is None:
        return Rating(None)
    block, refused = ratings_block(facts, NAME, RATINGS)
    if refused is not None:
        return refused
    try:
        overrides = Overrides.model_validate(block)
    except ValidationError as exc:
        return Rating(None, problems=override_errors(exc, NAME, block))
    full_load = modern.full_load_t or facts.displacement_t
    if full_load is None:
        return Rating(None, problems=[(("modern",), "found no full_load_t and no "
                                       "displacement_t, expected a displacement to rate "
                                       "size and damage from")])
    data: dict[str, Any] = {
        "kind": "ship-class", "ruleset": NAME, "id": facts.id, "name": facts.name,
        "nation": facts.nation.value, "type": facts.type.value, "category": modern.category,
        "ships": [s.model_dump(exclude_none=True, exclude={"fits"}) for s in facts.ships],
        "length_m": modern.length_m or round(facts.length_ft * FT_TO_M, 1),
        "full_load_t": full_load, "speed_kn": facts.speed_kn,
        "systems": [s.model_dump(exclude_none=True) for s in modern.systems],
        "weapons": [w.model_dump(exclude_none=True) for w in modern.weapons],
        "helicopters": modern.helicopters, "aircraft": modern.aircraft,
        "complement": modern.complement,
        "overrides": overrides.model_dump(exclude_none=True),
        "sources": list(facts.sources), "unverified": list(facts.unverified),
        "notes": facts.notes,
    }
    try:
        model = ModernClass.model_validate(data)
    except ValidationError as exc:
        return Rating(None, problems=override_errors(exc, NAME, block))
    return Rating(model, overrides=[k for k in block if k != "notes"])
