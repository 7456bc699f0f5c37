"""Enemies as every ruleset's matchup pages list them: grouped by the values the tables read.

Enemy ships (or units) whose target values are the same give the same odds, so a
matchup page lists each set of values once. A group is named by its classes (never its
ships) only where the scenario makes the enemy's order of battle known; otherwise by
its values alone. Which values count, and how a class is written, is the ruleset's.

This module imports nothing heavy: ``quarterdeck odds`` groups a target with it when
answering from a cached odds index.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

U = TypeVar("U")
"""An enemy as the ruleset sees it (a ship view, a unit view...)."""
K = TypeVar("K", bound=Hashable)
"""The target values the ruleset's tables read of an enemy."""


@dataclass(frozen=True)
class EnemyGroup(Generic[U, K]):
    """Enemies with the same target values, in the order they were met."""

    values: K
    members: tuple[U, ...]
    classes: tuple[str, ...]  # each class once, in the order met ("Fubuki class DD"...)

    def label(self, known: bool, hidden: str) -> str:
        """The classes for print where the enemy is ``known``; else ``hidden`` (its values)."""
        return ", ".join(self.classes) if known else hidden


def group_enemies(enemies: Iterable[U], values: Callable[[U], K],
                  class_label: Callable[[U], str]) -> list[EnemyGroup[U, K]]:
    """Enemies grouped by their target values, each group where its first enemy stands."""
    groups: dict[K, tuple[list[U], list[str]]] = {}
    for enemy in enemies:
        members, classes = groups.setdefault(values(enemy), ([], []))
        members.append(enemy)
        label = class_label(enemy)
        if label not in classes:
            classes.append(label)
    return [EnemyGroup(key, tuple(members), tuple(classes))
            for key, (members, classes) in groups.items()]


def alike(items: Iterable[U], key: Callable[[U], Hashable]) -> list[list[U]]:
    """Items grouped by ``key``, each group where its first item stands.

    Matchup pages use it for sisters: ships whose lines are the same share one table,
    headed by every name.
    """
    groups: dict[Hashable, list[U]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return list(groups.values())
