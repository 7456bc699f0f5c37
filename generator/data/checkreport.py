"""What ``check`` says about a user's own classes: which rulesets rate each, and why not.

A check of a user's folder reports on the user's classes only, each once; the bundled
classes' notes are the same on every run (``check`` alone lists them).
"""

from __future__ import annotations

from typing import Any

from generator.data.registry import REGISTRY
from generator.data.shipclass import rated_by, rating_modules


def user_class_ids(library: Any) -> dict[str, str]:
    """The user's class ids, each with the file it came from (shared or one ruleset's)."""
    found = dict(library.user_classes)
    for name in REGISTRY:
        for cid, entry in library.classes_of(name).items():
            if not entry.bundled:
                found.setdefault(cid, entry.doc.display)
    return found


def rating_lines(library: Any, class_id: str, display: str) -> list[str]:
    """Which rulesets rate one of the user's classes, and why each of the others does not.

    For ``check`` on a user's folder: one line for the class, one per other ruleset.
    """
    rate = rated_by(library, class_id)
    modules = rating_modules()
    lines = [f"{display}: '{class_id}' is rated by " + (", ".join(rate) or "no ruleset")]
    for name, ruleset in REGISTRY.items():
        if name in rate:
            continue
        if name not in modules:
            lines.append(f"  {name} uses no ship classes (its forces are units of its own)")
            continue
        why = library.unrated.get(name, {}).get(class_id)
        if why is None:  # passed by without a reason: the class is of the other era
            era = "missile-era" if ruleset.rates_missile_era else "gun-era"
            why = f"it rates {era} classes only"
        lines.append(f"  {name} cannot rate it: {why}")
    return lines
