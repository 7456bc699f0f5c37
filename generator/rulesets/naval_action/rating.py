"""NAVAL ACTION's view of a shared ship class: almost a field-for-field copy.

The NAVAL ACTION class file already holds facts (its factors are derived later, in
``derive.py``, from the tables), so rating a shared class is a mapping: torpedo bores to
the 18/21/24-inch sizes the rules know, shared types to the Master List's, and the few
hand overrides of the ``ratings: {naval-action: ...}`` block into their places.

It also holds the Comparative Strength rule (``strength``, by the ``comparative_strength``
numbers of ``tables/derivation.yaml``): a measure of the class's main-gun broadside, air
group, belt and speed, never of its type label. ``derive.comparative_strength`` applies it
to every class the file does not rate by hand, so a user's ``--tables`` file can change it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic import ValidationError

from generator.data.shipclass import Rating, override_errors, ratings_block
from generator.data.shipclass import ShipClass as Facts
from generator.rulesets.naval_action.rules import DerivationRules, load_rules
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


BEAMS = (90.0, 270.0)
"""The two beams, degrees clockwise from the bow: a broadside is what bears on one."""


Measured = Facts | ShipClass
"""What the strength rule reads: a shared class file or a NAVAL ACTION class."""


def _bears(arcs: list[tuple[float, float]], bearing: float) -> bool:
    """Whether a battery with these arcs bears on ``bearing`` (arcs may run past 0 or 360)."""
    return any(lo <= b <= hi for lo, hi in arcs for b in (bearing - 360, bearing, bearing + 360))


def firepower_lb(cls: Measured, rules: DerivationRules | None = None) -> float:
    """The weight of one broadside of the main guns, plus the air group's strike weight.

    The main guns are the batteries of the largest bore; a broadside is every such gun
    whose arc bears on one beam (the better beam). A shell weighs the rule's pounds per
    cubic inch of bore; each torpedo or dive bomber adds the rule's strike weight.
    """
    rules = rules or load_rules()
    rule = rules.comparative_strength
    main = max((b.bore_in for b in cls.guns), default=0.0)
    broadside = max((sum(b.guns for b in cls.guns if b.bore_in == main
                         and _bears(rules.battery_arcs[b.position.value], beam))
                     for beam in BEAMS), default=0)
    air = cls.aircraft
    strike = (air.dive_bombers + air.torpedo_bombers) if air is not None else 0
    return broadside * rule.shell_lb_per_cubic_inch * main ** 3 + strike * rule.strike_aircraft_lb


def strength(cls: Measured, rules: DerivationRules | None = None) -> float:
    """A class's Comparative Strength by the rule in ``derivation.yaml``.

    It rises with firepower, belt and speed and reads nothing else (not the type label),
    so a ship that matches or beats another on all three never rates below it; the
    reference ship (a heavy cruiser) rates the text's 5.
    """
    rules = rules or load_rules()
    rule = rules.comparative_strength
    ref = rule.reference
    ratio = firepower_lb(cls, rules) / ref.broadside_lb
    powers = rule.firepower_power
    # Two powers that meet at the reference (ratio 1): the measure never falls as F grows.
    fire = math.pow(ratio, powers.up_to_reference if ratio <= 1 else powers.above_reference)
    step_in = rule.belt_in_per_step
    belt = (1 + cls.armor.belt_in / step_in) / (1 + ref.belt_in / step_in)
    speed = math.pow(float(cls.speed_kn) / ref.speed_kn, rule.speed_power)
    # Half up to the step: rounding keeps the order (a larger value never rounds lower).
    steps = math.floor(ref.cs * fire * belt * speed / rule.step + 0.5)
    return max(rule.minimum, steps * rule.step)


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
        radar.pop("name", None)  # a named set: its category (type) is what the rules read
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
