"""Rewrite an old per-ruleset class file as one shared class file (``quarterdeck convert``).

A NAVAL ACTION file already holds facts: its hand overrides move into the
``ratings: {naval-action: ...}`` block. A Surface Action file holds few facts and many
hand ratings: the facts become the shared ones and every rating is kept as an override, and
NAVAL ACTION is marked unrated until gun positions, ranges and rounds are added.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from generator.errors import DataError
from generator.validation import describe
from generator.yamlsource import load_yaml

HEADER = ("# Ship class, written once for every ruleset. Reference: docs/shipdata.md\n"
          "# Converted by `quarterdeck convert` from a {ruleset} class file.\n")
NA_BATTERY_RATINGS = ("caliber_factor", "close_range_yd", "medium_range_yd", "fire_step")
SA_RATINGS = ("type", "guns", "torpedoes", "size", "armor", "fire_control", "damage_control",
              "speed_in", "night_sighting", "radar")
NA_UNRATED = ("converted from a Surface Action file: gun positions, ranges and rounds are "
              "not known yet; add them under guns and delete this line")


def _from_naval_action(data: dict[str, Any]) -> dict[str, Any]:
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
        for key in NA_BATTERY_RATINGS:
            if key in battery:
                ratings[f"guns.{i}.{key}"] = battery.pop(key)
        guns.append(battery)
    if guns:
        out["guns"] = guns
    if ratings:
        out["ratings"] = {"naval-action": ratings}
    return out


def _from_surface_action(data: dict[str, Any]) -> dict[str, Any]:
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
    block: dict[str, Any] = {k: data[k] for k in SA_RATINGS if k in data}
    block.setdefault("torpedoes", None)
    block.setdefault("radar", [])
    if "notes" in data:
        block["notes"] = data["notes"]
    out["ratings"] = {"naval-action": {"unrated": NA_UNRATED}, "surface-action": block}
    for key in ("sources", "unverified", "notes"):
        if key in data:
            out[key] = data[key]
    return out


def convert_data(data: dict[str, Any], ruleset: str) -> dict[str, Any]:
    """A shared class file's data from an old per-ruleset class file's data."""
    if ruleset == "naval-action":
        return _from_naval_action(data)
    return _from_surface_action(data)


def dump(data: dict[str, Any]) -> str:
    """YAML text of a class file, keys in the order given."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100,
                          default_flow_style=False)


def convert_file(path: Path) -> str:
    """The shared class file text for an old per-ruleset class file.

    Raises:
        DataError: The file is not a per-ruleset class file.

    """
    doc, problems = load_yaml(path, str(path))
    if problems:
        raise DataError(problems)
    data = doc.data
    ruleset = data.get("ruleset") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("kind") != "ship-class" or ruleset not in (
            "naval-action", "surface-action"):
        raise DataError([doc.problem(("ruleset",), f"found {describe(ruleset)}, expected a "
                                     "class file of one ruleset (naval-action or "
                                     "surface-action) to convert")])
    return HEADER.format(ruleset=ruleset) + dump(convert_data(data, str(ruleset)))
