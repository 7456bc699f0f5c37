"""Surface Action's ratings of a shared ship class, by the rules in ``tables/rating.yaml``.

Gun factors count the guns bearing into each arc (secondary guns of big ships by pairs),
torpedo factors the tubes bearing on one side, size follows the overall length, armor the
main belt; fire control and damage control follow the date, navy and type. A class file's
``ratings: {surface-action: ...}`` block replaces any of these by hand.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from generator.data.datamodel import Strict
from generator.data.shipclass import Rating, override_errors, ratings_block
from generator.data.shipclass import ShipClass as Facts
from generator.data.validation import load_model
from generator.rulesets.surface_action.schema import ShipClass

NAME = "surface-action"
TABLE = Path(__file__).parent / "tables" / "rating.yaml"
RATINGS = ("type", "guns", "torpedoes", "size", "armor", "fire_control", "damage_control",
           "speed_in", "night_sighting", "radar", "ship_notes", "notes")
"""What a class file may set by hand (``ship_notes`` and ``notes`` are texts, not ratings)."""
TEXTS = ("ship_notes", "notes")


class GunBand(Strict):
    """A bore limit and the weapon type below it."""

    below_in: float = Field(gt=0, le=100)
    weapon: str = Field(max_length=30)


class Arc(Strict):
    """Arcs a battery position bears into."""

    bow: bool = False
    stern: bool = False
    side: Literal["both", "port", "starboard"]


class Halved(Strict):
    """Secondary guns that give one factor per several guns."""

    types: list[str] = Field(max_length=20)
    below_in: float = Field(gt=0, le=30)
    guns_per_factor: int = Field(ge=1, le=4)


class SizeBand(Strict):
    """A length limit and the size below it."""

    below_ft: float = Field(gt=0, le=10000)
    size: int = Field(ge=1, le=6)


class ArmorBand(Strict):
    """A belt thickness and the armor value from it."""

    at_least_in: float = Field(ge=0, le=30)
    armor: int = Field(ge=-4, le=2)


class FireControl(Strict):
    """When fire control is early or advanced."""

    early_before: dt.date
    early_types: list[str] = Field(max_length=20)
    advanced_nations: list[str] = Field(max_length=20)
    advanced_types: list[str] = Field(max_length=20)
    advanced_radar: Literal["SC", "SG"]


class DamageControl(Strict):
    """Damage-control rating by type, navy or default."""

    by_type: dict[str, int] = Field(max_length=20)
    by_nation: dict[str, int] = Field(max_length=20)
    default: int = Field(ge=1, le=5)


class RatingRules(Strict):
    """The whole rules file."""

    types: dict[str, str] = Field(max_length=30)
    unrated_types: dict[str, str] = Field(max_length=30)
    gun_weapons: list[GunBand] = Field(min_length=1, max_length=30)
    arcs: dict[str, Arc] = Field(max_length=12)
    secondary_halved: Halved
    torpedo_weapons: list[GunBand] = Field(min_length=1, max_length=10)
    long_lance: str = Field(max_length=30)
    tubes_per_factor: int = Field(ge=1, le=4)
    sizes: list[SizeBand] = Field(min_length=1, max_length=10)
    torpedo_size_shift: dict[str, int] = Field(max_length=20)
    armor: list[ArmorBand] = Field(min_length=1, max_length=10)
    fire_control: FireControl
    damage_control: DamageControl
    radar_range_in: dict[str, float] = Field(max_length=5)
    radar_nations: list[str] = Field(max_length=20)
    aa_counts_from_in: float = Field(ge=0, le=10)


@cache
def rules() -> RatingRules:
    """The rating rules (read once)."""
    return load_model(RatingRules, TABLE, "surface_action/tables/rating.yaml")


def _band(bands: Iterable[GunBand], inches: float) -> str:
    return next((b.weapon for b in bands if inches < b.below_in), "")


def _gun_batteries(facts: Facts, sa_type: str) -> list[dict[str, Any]]:
    """Gun factors by weapon type: main (largest bore) first, then secondaries."""
    table = rules()
    groups: dict[str, dict[str, Any]] = {}
    for battery in facts.guns:
        weapon = _band(table.gun_weapons, battery.bore_in)
        group = groups.setdefault(weapon, {"bore": 0.0, "bow": 0, "stern": 0, "both": 0,
                                           "port": 0, "starboard": 0, "guns": []})
        group["bore"] = max(group["bore"], battery.bore_in)
        arc = table.arcs[battery.position.value]
        group["bow"] += battery.guns if arc.bow else 0
        group["stern"] += battery.guns if arc.stern else 0
        group[arc.side] += battery.guns
        group["guns"].append(f"{battery.guns} x {battery.bore_in:g}in {battery.position.value}")
    for aa in (a for a in facts.aa_guns if a.bore_in >= table.aa_counts_from_in):
        weapon = _band(table.gun_weapons, aa.bore_in)
        group = groups.setdefault(weapon, {"bore": 0.0, "bow": 0, "stern": 0, "both": 0,
                                           "port": 0, "starboard": 0, "guns": []})
        group["bore"] = max(group["bore"], aa.bore_in)
        group["port"] += math.ceil(aa.guns / 2)
        group["starboard"] += aa.guns // 2
        group["guns"].append(f"{aa.guns} x {aa.bore_in:g}in AA")
    ordered = sorted(groups.items(), key=lambda item: -item[1]["bore"])
    halved = table.secondary_halved
    out = []
    for index, (weapon, group) in enumerate(ordered):
        per = (halved.guns_per_factor if index and sa_type in halved.types
               and group["bore"] < halved.below_in else 1)
        side = group["both"] + max(group["port"], group["starboard"])
        arcs = [math.ceil(n / per) for n in (group["bow"], side, group["stern"])]
        out.append({"weapon": weapon, "factors": "-".join(str(min(a, 99)) for a in arcs),
                    "role": "secondary" if index else "main",
                    "note": ", ".join(group["guns"])})
    return out


def _torpedoes(facts: Facts) -> dict[str, Any] | None:
    """Torpedo factors: tubes bearing on one side, by pairs; reloads likewise."""
    if not facts.torpedoes:
        return None
    table = rules()
    either = sum(m.mounts * m.tubes for m in facts.torpedoes if m.mount == "centerline")
    side_tubes = [m for m in facts.torpedoes if m.mount == "side"]
    port = either + sum(math.ceil(m.mounts / 2) * m.tubes for m in side_tubes)
    starboard = either + sum(m.mounts // 2 * m.tubes for m in side_tubes)
    reloads = sum(m.mounts * m.reloads for m in facts.torpedoes)
    per = table.tubes_per_factor
    first = facts.torpedoes[0]
    weapon = (table.long_lance if first.two_turn
              else _band(table.torpedo_weapons, first.inches))
    text = (f"{math.ceil(port / per)}/{math.ceil(starboard / per)}" if side_tubes
            else str(math.ceil(port / per)))
    if reloads:
        text += f" ({math.ceil(reloads / per)})"
    tubes = sum(m.mounts * m.tubes for m in facts.torpedoes)
    return {"weapon": weapon, "factors": text,
            "note": f"{tubes} x {first.inches:.3g}in tubes"}


def _size(facts: Facts, sa_type: str) -> str:
    table = rules()
    guns = next((b.size for b in table.sizes if facts.length_ft < b.below_ft), 6)
    torpedo = min(6, max(1, guns + table.torpedo_size_shift.get(sa_type, 0)))
    return f"{guns}/{torpedo}"


def _fire_control(facts: Facts) -> str:
    table = rules().fire_control
    first = min(s.commissioned for s in facts.ships)
    if facts.type.value in table.early_types or (first < table.early_before
                                                 and facts.modernised is None):
        return "early"
    if (facts.nation.value in table.advanced_nations
            and facts.type.value in table.advanced_types
            and any(r.type == table.advanced_radar for r in facts.radar)):
        return "advanced"
    return "regular"


def _damage_control(facts: Facts, sa_type: str) -> int:
    table = rules().damage_control
    if sa_type in table.by_type:
        return table.by_type[sa_type]
    return table.by_nation.get(facts.nation.value, table.default)


def _armament(facts: Facts) -> str:
    parts = [f"{b.guns} x {b.bore_in:g}in ({b.position.value})" for b in facts.guns]
    parts += [f"{a.guns} x {a.bore_in:g}in AA" for a in facts.aa_guns]
    parts += [f"{m.mounts * m.tubes} x {m.inches:.3g}in tubes" for m in facts.torpedoes]
    return "; ".join(parts) or "none"


def derived(facts: Facts) -> dict[str, Any]:
    """Every rating the rules give, before the class file's overrides (for comparisons)."""
    sa_type = rules().types[facts.type.value]
    table = rules()
    return {
        "type": sa_type,
        "guns": _gun_batteries(facts, sa_type),
        "torpedoes": _torpedoes(facts),
        "size": _size(facts, sa_type),
        "armor": next(b.armor for b in table.armor if facts.armor.belt_in >= b.at_least_in),
        "fire_control": _fire_control(facts),
        "damage_control": _damage_control(facts, sa_type),
        "speed_in": None,
        "night_sighting": None,
        "radar": _radar(facts),
    }


def _radar(facts: Facts) -> list[dict[str, Any]]:
    """Radar fits the text counts: one per date, the longest-ranged set of that date."""
    table = rules()
    if facts.nation.value not in table.radar_nations:
        return []
    by_date: dict[dt.date, dict[str, Any]] = {}
    for radar in facts.radar:
        fit = {"range_in": table.radar_range_in[radar.type], "fitted": radar.fitted,
               "note": radar.note or f"{radar.type} set"}
        if radar.fitted not in by_date or fit["range_in"] > by_date[radar.fitted]["range_in"]:
            by_date[radar.fitted] = fit
    return [by_date[d] for d in sorted(by_date)]


def derive(facts: Facts) -> Rating:
    """The Surface Action ship class of a shared class file.

    Returns:
        The rating: a Surface Action ``ShipClass`` with the overrides named, or the reason
        the class cannot be rated.

    """
    block, refused = ratings_block(facts, NAME, list(RATINGS))
    if refused is not None:
        return refused
    table = rules()
    if facts.type.value in table.unrated_types and "type" not in block:
        return Rating(None, unrated=table.unrated_types[facts.type.value])
    if facts.type.value not in table.types and "type" not in block:
        return Rating(None, unrated=f"Surface Action has no ship type for {facts.type.value}")
    values = derived(facts)
    applied = [key for key in block if key not in TEXTS]
    values.update({k: v for k, v in block.items() if k not in TEXTS})
    notes = block.get("ship_notes", {})
    ships = []
    for ship in facts.ships:
        data = ship.model_dump(exclude_none=True, exclude={"fits"})
        if isinstance(notes, dict) and ship.name in notes:
            data["note"] = notes[ship.name]
        ships.append(data)
    data = {
        "kind": "ship-class", "ruleset": NAME, "id": facts.id, "name": facts.name,
        "nation": facts.nation.value, "ships": ships,
        "facts": {"length_ft": facts.length_ft, "speed_kn": facts.speed_kn,
                  "belt_in": facts.armor.belt_in,
                  "armament": facts.armament or _armament(facts),
                  **({"displacement_t": facts.displacement_t}
                     if facts.displacement_t else {})},
        "sources": list(facts.sources), "unverified": list(facts.unverified),
        "notes": block.get("notes", facts.notes),
        **{k: v for k, v in values.items() if v is not None},
    }
    try:
        model = ShipClass.model_validate(data)
    except ValidationError as exc:
        return Rating(None, problems=override_errors(exc, NAME, block))
    return Rating(model, overrides=applied)


OLD_RATINGS = ("type", "guns", "torpedoes", "size", "armor", "fire_control", "damage_control",
               "speed_in", "night_sighting", "radar")


def from_old_file(data: dict[str, Any]) -> dict[str, Any]:
    """A shared class file's data from an old Surface Action class file's data.

    Its few facts become the shared ones; every game value is kept as an override.
    """
    facts = dict(data.get("facts") or {})
    out: dict[str, Any] = {k: data[k] for k in ("kind", "id", "name", "nation", "type", "ships")
                           if k in data}
    out["length_ft"] = facts.get("length_ft")
    if "displacement_t" in facts:
        out["displacement_t"] = facts["displacement_t"]
    out["speed_kn"] = facts.get("speed_kn")
    out["armor"] = {"belt_in": facts.get("belt_in", 0)}
    if "armament" in facts:
        out["armament"] = facts["armament"]
    block: dict[str, Any] = {k: data[k] for k in OLD_RATINGS if k in data}
    block.setdefault("torpedoes", None)
    block.setdefault("radar", [])
    if "notes" in data:
        block["notes"] = data["notes"]
    out["ratings"] = {NAME: block}
    for key in ("sources", "unverified", "notes"):
        if key in data:
            out[key] = data[key]
    return out
