"""Cross-file checks for NAVAL ACTION: scenarios name real classes, ships and batteries."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from generator.errors import Problem
from generator.images import check_image
from generator.rulesets.naval_action.schema import Scenario, Ship, ShipClass, ShipRef
from generator.suggest import did_you_mean

if TYPE_CHECKING:
    from generator.library import Entry, Library

RULESET = "naval-action"


def fold(name: str) -> str:
    """Compare names without case or accents: 'Chōkai' == 'chokai'."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def find_ship(cls: ShipClass, name: str) -> Ship | None:
    """The ship of ``cls`` called ``name`` (any spelling in its aka, accents ignored)."""
    wanted = fold(name)
    for ship in cls.ships:
        if wanted == fold(ship.name) or any(wanted == fold(a) for a in ship.aka):
            return ship
    return None


def check_scenario(entry: Entry, library: Library) -> tuple[list[Problem], list[str]]:
    """Check one scenario's references.

    Returns:
        Problems (errors) and warnings (text).

    """
    scenario: Scenario = entry.model
    doc = entry.doc
    classes = library.classes_of(RULESET)
    problems: list[Problem] = []
    warnings: list[str] = []
    seen: dict[tuple[str, str], str] = {}
    for si, side in enumerate(scenario.sides):
        for ri, ref in enumerate(side.ships):
            loc: tuple[str | int, ...] = ("sides", si, "ships", ri)
            cls_entry = classes.get(ref.class_)
            if cls_entry is None:
                problems.append(doc.problem((*loc, "class"), f"found unknown class "
                                            f"'{ref.class_}', expected a class id"
                                            f"{did_you_mean(ref.class_, classes)}"))
                continue
            cls: ShipClass = cls_entry.model
            ship = find_ship(cls, ref.name)
            if ship is None:
                names = [s.name for s in cls.ships] + [a for s in cls.ships for a in s.aka]
                problems.append(doc.problem((*loc, "name"), f"found '{ref.name}', expected a "
                                            f"ship of the {cls.name} class "
                                            f"({', '.join(s.name for s in cls.ships)})"
                                            f"{did_you_mean(ref.name, names)}"))
                continue
            key = (cls.id, ship.name)
            if key in seen:
                problems.append(doc.problem((*loc, "name"), f"found '{ship.name}' again (also "
                                            f"in {seen[key]}), expected each ship once"))
            seen[key] = side.id
            problems.extend(_check_special(ref, cls, doc, loc))
            if ship.commissioned > scenario.date:
                warnings.append(f"{doc.display}: {ship.name} is in '{scenario.id}' "
                                f"({scenario.date}) before her commissioning "
                                f"({ship.commissioned}); fine for a hypothetical battle")
            if ship.lost and ship.lost < scenario.date:
                warnings.append(f"{doc.display}: {ship.name} was lost on {ship.lost}, before "
                                f"'{scenario.id}' ({scenario.date})")
    side_ids = [s.id for s in scenario.sides]
    for si, sid in enumerate(side_ids):
        if side_ids.count(sid) > 1 or sid == "referee":
            problems.append(doc.problem(("sides", si, "id"), f"found '{sid}', expected a "
                                        "unique side id other than 'referee'"))
    for gi, group in enumerate(scenario.air_groups):
        if group.side not in side_ids:
            problems.append(doc.problem(("air_groups", gi, "side"), f"found '{group.side}', "
                                        f"expected a side id ({', '.join(side_ids)})"
                                        f"{did_you_mean(group.side, side_ids)}"))
    return problems, warnings


def _check_special(ref: ShipRef, cls: ShipClass, doc: object,
                   loc: tuple[str | int, ...]) -> list[Problem]:
    if ref.special is None:
        return []
    have = {b.position for b in cls.guns}
    problems = []
    for field_name, positions in (("rounds_per_gun", list(ref.special.rounds_per_gun)),
                                  ("disabled", list(ref.special.disabled))):
        for pos in positions:
            if pos not in have:
                problems.append(doc.problem(  # type: ignore[attr-defined]
                    (*loc, "special", field_name), f"found battery '{pos.value}', expected one "
                    f"of the {cls.name} class's batteries "
                    f"({', '.join(sorted(p.value for p in have))})"))
    return problems


def check_library(library: Library) -> tuple[list[Problem], list[str]]:
    """Check every NAVAL ACTION scenario in the library."""
    problems: list[Problem] = []
    warnings: list[str] = []
    for entry in library.scenarios.values():
        if entry.model.ruleset == RULESET:
            p, w = check_scenario(entry, library)
            problems.extend(p)
            warnings.extend(w)
    for entry in library.classes_of(RULESET).values():
        image = entry.model.marker_image
        if image is not None:
            found, expected = check_image(entry.doc.path, entry.root, image)
            if found is None:
                problems.append(entry.doc.problem(("marker_image",),
                                                  f"found '{image}', {expected}"))
    return problems, warnings


def class_images(library: Library) -> dict[str, Path]:
    """Class id to its checked marker image, for classes that supply one."""
    images = {}
    for class_id, entry in library.classes_of(RULESET).items():
        if entry.model.marker_image is not None:
            found, _ = check_image(entry.doc.path, entry.root, entry.model.marker_image)
            if found is not None:
                images[class_id] = found
    return images
