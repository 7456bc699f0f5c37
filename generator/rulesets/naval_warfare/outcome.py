"""Who wins a naval combat, and whether a minor invasion lands, worked out exactly.

The damage table says how many steps each side inflicts; the text then decides the
combat on combat value (CV) lost: whoever loses more CV has lost and withdraws, and
when both lose the same, whoever is left with more CV has won. The owner chooses which
units take the steps, so the CV a number of steps costs depends on that choice.
quarterdeck's reading (DEFAULT, listed in ``docs/naval-warfare-rules.md``): each owner
takes its steps where they cost it the least CV, and an invader keeps its landing
troops to the last, since the landing succeeds while any of them is left.

Steps and their cost, from the text's rules on damage:

- a ship unit has two steps: undamaged to damaged costs its CV less half of it (rounded
  down), damaged to sunk the half that is left; a damaged unit has the second only;
- an Air Point, a garrison, a manpower point and a tank point have one step and lose
  their whole CV with it ("removed at the first step");
- in an invasion the invading side's submarines add no CV ("with the exception of
  submarines"), so their steps cost nothing.

Minor invasions: the landing fails when every landing manpower and tank point is lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from generator.rulesets.naval_warfare.merchant import Force, Group

LAND_TROOPS = ("manpower", "tank")
"""The unit ids of land troops that land in a minor invasion."""


def group_cv(group: Group, invading: bool, submarines: frozenset[str]) -> int:
    """Fleet CV of a group in this combat (an invader's submarines count nothing)."""
    if invading and group.unit.id in submarines:
        return 0
    return group.value("fleet")


def force_cv(force: Force, invading: bool, submarines: frozenset[str]) -> int:
    """The force's fleet CV in this combat."""
    return sum(group_cv(g, invading, submarines) for g in force.groups)


def landing_troops(force: Force) -> int:
    """How many manpower and tank points the force lands."""
    return sum(g.count for g in force.groups if g.unit.id in LAND_TROOPS)


def step_costs(group: Group, invading: bool, submarines: frozenset[str]) -> list[int]:
    """The CV each step of one unit of the group costs, in the order they are taken."""
    cv = 0 if invading and group.unit.id in submarines else group.unit.fleet
    if group.unit.kind != "ship":
        return [cv]
    if group.damaged:
        return [cv // 2]
    return [cv - cv // 2, cv // 2]


@dataclass(frozen=True)
class Losses:
    """What each count of steps costs one side, as its owner takes them.

    ``cost[k]`` is the CV lost to ``k`` steps (``k`` up to every step the side has);
    ``wiped[k]`` says whether its landing troops are all gone (never, for a side that
    lands none).
    """

    cv: int
    cost: list[int]
    wiped: list[bool]

    def lost(self, steps: int) -> int:
        """CV lost to ``steps`` steps (more than the side has costs everything)."""
        return self.cost[min(steps, len(self.cost) - 1)]

    def landing_fails(self, steps: int) -> bool:
        """Whether ``steps`` steps wipe out the landing troops."""
        return self.wiped[min(steps, len(self.wiped) - 1)]


def least_costs(units: list[list[int]]) -> list[int]:
    """The least CV lost to exactly k steps, for every k, over units of given step costs.

    A unit's steps come in order (damaged before sunk), so this is a small knapsack:
    each unit gives up 0, 1 or all of its steps.
    """
    inf = 10**9
    best = [0]
    for steps in units:
        prefix = [0]
        for cost in steps:
            prefix.append(prefix[-1] + cost)
        grown = [inf] * (len(best) + len(steps))
        for k, base in enumerate(best):
            for taken, extra in enumerate(prefix):
                if base + extra < grown[k + taken]:
                    grown[k + taken] = base + extra
        best = grown
    return best


def losses(force: Force, invading: bool, submarines: frozenset[str]) -> Losses:
    """Each count of steps' cost to the force, its owner choosing the cheapest steps.

    An invader's landing troops take steps only once nothing else can, cheapest first.
    """
    others: list[list[int]] = []
    troops: list[int] = []
    for group in force.groups:
        costs = step_costs(group, invading, submarines)
        if invading and group.unit.id in LAND_TROOPS:
            troops += costs * group.count
        else:
            others += [costs] * group.count
    cost = least_costs(others)
    wiped = [False] * len(cost)
    spent = cost[-1]
    for n, troop in enumerate(sorted(troops), start=1):
        spent += troop
        cost.append(spent)
        wiped.append(n == len(troops))
    return Losses(force_cv(force, invading, submarines), cost, wiped)


@dataclass(frozen=True)
class Verdict:
    """The chances of each way the combat ends."""

    first_wins: Fraction
    second_wins: Fraction
    undecided: Fraction
    """Equal CV lost and equal CV left: the text names no winner."""
    landing: Fraction | None
    """The chance the invader's landing succeeds (None: no invasion)."""


def decide(first: Losses, second: Losses, lost_first: int, lost_second: int) -> int:
    """+1 when the first side wins, -1 the second, 0 undecided (by the text's rule)."""
    if lost_first != lost_second:
        return 1 if lost_first < lost_second else -1
    left_first, left_second = first.cv - lost_first, second.cv - lost_second
    if left_first != left_second:
        return 1 if left_first > left_second else -1
    return 0


def verdict(first: Losses, second: Losses, by_first: Mapping[int, Fraction],
            by_second: Mapping[int, Fraction], invader: int | None) -> Verdict:
    """Exact chances of the end of a combat.

    Args:
        first: The first side's losses by steps.
        second: The second side's.
        by_first: Chance of each number of steps the first side inflicts.
        by_second: Chance of each number of steps the second side inflicts.
        invader: 0 when the first side invades, 1 the second, None for no invasion.

    """
    wins = [Fraction(0), Fraction(0), Fraction(0)]
    landed = Fraction(0)
    for on_second, p in by_first.items():
        for on_first, q in by_second.items():
            chance = p * q
            result = decide(first, second, first.lost(on_first), second.lost(on_second))
            wins[{1: 0, -1: 1, 0: 2}[result]] += chance
            if invader is not None:
                side, steps = (first, on_first) if invader == 0 else (second, on_second)
                if not side.landing_fails(steps):
                    landed += chance
    return Verdict(wins[0], wins[1], wins[2], None if invader is None else landed)
