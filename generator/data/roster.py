"""Scenario rosters, whatever the ruleset: sides name real classes and ships, once each.

Every ruleset's scenario has ``sides``, each with ``id`` and ``ships``; each ship names a
``class`` (file id) and a ship ``name`` of that class. The checks here are the same for
all of them; a ruleset adds its own per-ship checks through ``extra``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from generator.core.errors import Problem
from generator.core.suggest import did_you_mean, fold
from generator.data.datamodel import Ship

if TYPE_CHECKING:
    from generator.data.library import Entry, Library

Loc = tuple[str | int, ...]
T = TypeVar("T")
ShipCheck = Callable[[Any, Any, Loc], list[Problem]]
"""Extra checks of one roster entry: (ship ref, its class, location) -> problems."""


def find_ship(cls: Any, name: str) -> Ship | None:
    """The ship of ``cls`` called ``name`` (any spelling in its aka, accents ignored)."""
    wanted = fold(name)
    ship: Ship
    for ship in cls.ships:
        if wanted == fold(ship.name) or any(wanted == fold(a) for a in ship.aka):
            return ship
    return None


def requested_ship(cls: Any, name: str | None) -> Ship:
    """The ship of ``cls`` a ``--class`` request names (its first ship when none).

    Raises:
        UsageError: No ship of the class is called ``name`` (with a suggestion).

    """
    from generator.core.errors import UsageError

    wanted = name or cls.ships[0].name
    found = find_ship(cls, wanted)
    if found is None:
        raise UsageError(f"no ship '{wanted}' in the {cls.name} class"
                         f"{did_you_mean(wanted, [s.name for s in cls.ships])}")
    return found


def _missing_class(library: Library, ruleset: str, class_id: str) -> str:
    """Why a scenario's class is not the ruleset's: a class it cannot rate, or none at all.

    A class the library holds but this ruleset cannot rate is not "unknown": the message
    says so, with the ruleset's reason, so the user fixes the class file, not the id.
    """
    from generator.data.registry import REGISTRY

    why = library.unrated.get(ruleset, {}).get(class_id)
    if why is not None:
        title = REGISTRY[ruleset].title if ruleset in REGISTRY else ruleset
        return f"{title} cannot rate '{class_id}': {why}"
    return (f"found unknown class '{class_id}', expected a class id"
            f"{did_you_mean(class_id, library.classes_of(ruleset))}")


def check_roster(entry: Entry, library: Library, ruleset: str,
                 extra: ShipCheck | None = None) -> tuple[list[Problem], list[str]]:
    """Check that a scenario's sides name known classes and ships, each once.

    Args:
        entry: The scenario's library entry.
        library: The whole library.
        ruleset: Whose classes the ships must come from.
        extra: The ruleset's own checks of each resolved ship.

    Returns:
        Problems (errors) and warnings (ships out of their service dates).

    """
    scenario = entry.model
    doc = entry.doc
    classes = library.classes_of(ruleset)
    problems: list[Problem] = []
    warnings: list[str] = []
    seen: dict[tuple[str, str], str] = {}
    for si, side in enumerate(scenario.sides):
        for ri, ref in enumerate(side.ships):
            loc: Loc = ("sides", si, "ships", ri)
            cls_entry = classes.get(ref.class_)
            if cls_entry is None:
                problems.append(doc.problem((*loc, "class"),
                                            _missing_class(library, ruleset, ref.class_)))
                continue
            cls = cls_entry.model
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
            if extra is not None:
                problems.extend(extra(ref, cls, loc))
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
    return problems, warnings


def check_side_ref(doc: Any, loc: Loc, found: str, side_ids: list[str]) -> list[Problem]:
    """A field naming a side must name one of the scenario's sides."""
    if found in side_ids:
        return []
    return [doc.problem(loc, f"found '{found}', expected a side id ({', '.join(side_ids)})"
                             f"{did_you_mean(found, side_ids)}")]


def check_scenarios(library: Library, ruleset: str,
                    check: Callable[[Entry, Library], tuple[list[Problem], list[str]]],
                    ) -> tuple[list[Problem], list[str]]:
    """Run a ruleset's scenario check on every scenario of that ruleset."""
    problems: list[Problem] = []
    warnings: list[str] = []
    for entry in library.scenarios.values():
        if entry.of_ruleset() == ruleset:
            found, noted = check(entry, library)
            problems.extend(found)
            warnings.extend(noted)
    return problems, warnings


def owned_scenario(library: Library, ruleset: str, title: str, scenario_id: str,
                   check: Callable[[Entry, Library], tuple[list[Problem], list[str]]],
                   ) -> tuple[Any, list[str]]:
    """A ruleset's scenario, checked: the model and its warnings.

    Raises:
        UsageError: No scenario of that ruleset has the id (with did-you-mean).
        DataError: The ruleset's cross-checks found problems.

    """
    from generator.core.errors import DataError, UsageError

    entry = library.scenarios.get(scenario_id)
    if entry is None or entry.model.ruleset != ruleset:
        raise UsageError(f"no {title} scenario '{scenario_id}'"
                         f"{did_you_mean(scenario_id, library.scenarios)}")
    problems, warnings = check(entry, library)
    if problems:
        raise DataError(problems)
    return entry.model, warnings


def side_views(library: Library, ruleset: str, scenario: Any,
               view: Callable[[Any, Ship, Any, Any], T]) -> dict[str, list[T]]:
    """Each side's ships, in roster order, as ``view(class, ship, ref, side)`` makes them.

    ``class`` is the ship's rating on the scenario's date (``Library.model_at``).
    """
    out: dict[str, list[T]] = {}
    for side in scenario.sides:
        views = []
        for ref in side.ships:
            ship = find_ship(library.classes_of(ruleset)[ref.class_].model, ref.name)
            assert ship is not None
            # The ship as she was on the scenario's date: a refit changes her rating.
            cls = library.model_at(ruleset, ref.class_, ship.name, scenario.date)
            ship = find_ship(cls, ref.name)
            assert ship is not None  # the roster checks ran before anything renders
            views.append(view(cls, ship, ref, side))
        out[side.id] = views
    return out
