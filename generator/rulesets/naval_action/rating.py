"""NAVAL ACTION's view of a shared ship class: almost a field-for-field copy.

The NAVAL ACTION class file already holds facts (its factors are derived later, in
``derive.py``, from the tables), so rating a shared class is a mapping: torpedo bores to
the 18/21/24-inch sizes the rules know, shared types to the Master List's, and the few
hand overrides of the ``ratings: {naval-action: ...}`` block into their places.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from generator.data.shipclass import Rating, override_errors, ratings_block
from generator.data.shipclass import ShipClass as Facts
from generator.rulesets.naval_action.schema import ShipClass, ShipType

NAME = "naval-action"
TORPEDO_SIZES = (18, 21, 24)
TYPES = {"AKL": "AK", "AKS": "AK"}
"""Shared types the Master List spells differently."""
CLASS_RATINGS = {
    "armor_factor": ("armor", "factor"),
    "aa_factor": ("overrides", "aa_factor"),
    "damage_control": ("overrides", "damage_control"),
    "comparative_strength": ("comparative_strength",),
    "notes": ("notes",),
}
BATTERY_RATINGS = ("caliber_factor", "close_range_yd", "medium_range_yd", "fire_step")
BATTERY_KEY = re.compile(r"^guns\.(\d{1,2})\.(" + "|".join(BATTERY_RATINGS) + r")$")
SHARED_ONLY = ("displacement_t", "modernised", "armament", "ratings", "discrepancies")


def rating_names(facts: Facts) -> list[str]:
    """Every rating a class file may override for NAVAL ACTION."""
    return [*CLASS_RATINGS, *(f"guns.{i}.{r}" for i in range(len(facts.guns))
                              for r in BATTERY_RATINGS)]


def _torpedo_size(inches: float) -> int:
    return min(TORPEDO_SIZES, key=lambda size: (abs(size - inches), size))


def derive(facts: Facts) -> Rating:
    """The NAVAL ACTION ship class of a shared class file.

    Returns:
        The rating: a NAVAL ACTION ``ShipClass``, the overrides applied, or the reason
        the class cannot be rated (a battery without range or rounds).

    """
    block, refused = ratings_block(facts, NAME, rating_names(facts))
    if refused is not None:
        return refused
    na_type = TYPES.get(facts.type.value, facts.type.value)
    if na_type not in {t.value for t in ShipType}:
        return Rating(None, unrated=f"the Master List has no ship type for {facts.type.value}")
    for i, battery in enumerate(facts.guns):
        if battery.max_range_yd is None or battery.rounds_per_gun is None:
            return Rating(None, unrated=f"guns.{i} gives no max_range_yd or rounds_per_gun "
                                        "(NAVAL ACTION needs both for every battery)")
    data = facts.model_dump(mode="python", by_alias=True, exclude_none=True,
                            exclude=set(SHARED_ONLY))
    data["ruleset"] = NAME
    data["type"] = na_type
    for ship in data["ships"]:
        ship.pop("fits", None)
    for mount, source in zip(data["torpedoes"], facts.torpedoes, strict=True):
        mount.pop("size_mm", None)
        mount.pop("note", None)
        mount["size_in"] = _torpedo_size(source.inches)
    for radar in data["radar"]:
        radar.pop("note", None)
    applied = []
    for key, value in block.items():
        match = BATTERY_KEY.match(key)
        if match:
            data["guns"][int(match.group(1))][match.group(2)] = value
        else:
            *parents, leaf = CLASS_RATINGS[key]
            target = data
            for part in parents:
                target = target.setdefault(part, {})
            target[leaf] = value
        if key != "notes":
            applied.append(key)
    try:
        model = ShipClass.model_validate(data)
    except ValidationError as exc:
        return Rating(None, problems=override_errors(exc, NAME, block))
    return Rating(model, overrides=applied)



def from_old_file(data: dict[str, Any]) -> dict[str, Any]:
    """A shared class file's data from an old NAVAL ACTION class file's data.

    The facts stay where they were; the hand overrides move into ``ratings``.
    """
    out = {k: v for k, v in data.items() if k != "ruleset"}
    ratings: dict[str, Any] = {}
    armor = dict(out.get("armor") or {})
    if "factor" in armor:
        ratings["armor_factor"] = armor.pop("factor")
        out["armor"] = armor
    for key, value in dict(out.pop("overrides", None) or {}).items():
        ratings[key] = value
    if "comparative_strength" in out:
        ratings["comparative_strength"] = out.pop("comparative_strength")
    guns = []
    for i, battery in enumerate(out.get("guns") or []):
        battery = dict(battery)
        for key in BATTERY_RATINGS:
            if key in battery:
                ratings[f"guns.{i}.{key}"] = battery.pop(key)
        guns.append(battery)
    if guns:
        out["guns"] = guns
    if ratings:
        out["ratings"] = {NAME: ratings}
    return out
