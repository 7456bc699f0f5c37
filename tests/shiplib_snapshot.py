"""The ratings a class prints, in a comparable form (for tests/engine/test_shiplib.py).

Run as a script on a checkout of the commit before the ship library was merged to write
``tests/data/shiplib/before.json``: ``python tests/shiplib_snapshot.py OLD_SHIPDATA``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from generator.data.library import Library, load_library
from generator.rulesets.surface_action.charts import load_charts
from generator.rulesets.surface_action.derive import speed_inches

SNAPSHOT = Path(__file__).parent / "data" / "shiplib" / "before.json"
MERGED_ON_PURPOSE = {"sources", "unverified"}
"""NAVAL ACTION fields the merge extends with the other file's entries."""
RADAR_ADDED = ("name", "note")
"""Radar fields added after the snapshot was taken (dropped from the digest when unset)."""


def naval_action(model: Any) -> str:
    """A digest of everything NAVAL ACTION reads from a class except the merged lists."""
    data = model.model_dump(mode="json", exclude=MERGED_ON_PURPOSE)
    for radar in data.get("radar") or []:
        # A radar's set name and note came later (issue 30's British sets; the shared
        # radar model); unset, they print nothing, so they must not change the digest.
        for key in RADAR_ADDED:
            if radar.get(key) is None:
                radar.pop(key, None)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def surface_action(model: Any) -> dict[str, Any]:
    """Every game value a Surface Action data sheet prints for a class."""
    knots_per_in = load_charts().movement.knots_per_in
    return {
        "type": model.type.value,
        "guns": [f"{g.weapon} {g.factors} {g.role}" for g in model.guns],
        "torpedoes": model.torpedoes and f"{model.torpedoes.weapon} {model.torpedoes.factors}",
        "size": model.size, "armor": model.armor, "fire_control": model.fire_control,
        "damage_control": model.damage_control,
        "speed_in": model.speed_in or speed_inches(model.facts.speed_kn, knots_per_in),
        "night_sighting": model.night_sighting,
        "radar": [f"{r.range_in:g} {r.fitted}" for r in model.radar],
        "ships": [f"{s.name} {s.commissioned} {s.lost}" for s in model.ships],
    }


def snapshot(library: Library) -> dict[str, dict[str, Any]]:
    """Both rulesets' ratings of every class in a library."""
    return {
        "naval-action": {k: naval_action(e.model)
                         for k, e in sorted(library.classes_of("naval-action").items())},
        "surface-action": {k: surface_action(e.model)
                           for k, e in sorted(library.classes_of("surface-action").items())},
    }


if __name__ == "__main__":
    old = load_library([Path(sys.argv[1])], bundled=False)
    assert not old.problems, old.problems
    SNAPSHOT.write_text(json.dumps(snapshot(old), indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
