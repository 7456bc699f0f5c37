"""One matchup on demand (``quarterdeck odds`` for a Surface Action scenario).

The firer's every gun arc and torpedo set against one target, band by band: the exact
chance of at least 1, 2 and 3 effective hits and the expected number, as the matchup
pages print them, but for one pair of ships.

Questions always name a scenario's ships, so the odds index (built by
``matchups.odds_index``, where the lines are computed) holds each Surface Action
scenario's ships (as members, ``generator.rules.oddsindex``, whose
figures are a ``Fighter``'s) and, for every firer and target among them, the lines the
matchup pages compute. ``quarterdeck odds`` keeps it in the user cache; this module
imports no schema, charts or dice, so a cached index answers without loading them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from generator.core.errors import UsageError
from generator.rules.oddsindex import (
    Member,
    answer_console,
    find_at,
    firing_at,
    one_of,
    print_table,
)

ARCS = ("bow", "broadside", "stern", "torpedo")
NEEDS_SCENARIO = "Surface Action odds come from a scenario's weapons table: give --scenario"
AT_LEAST = (1, 2, 3)
"""The cumulative counts printed: chance of at least 1, 2 and 3 effective hits."""


@dataclass(frozen=True)
class Fighter:
    """What an answer prints of a ship."""

    name: str
    class_name: str
    type: str
    gun_size: int
    torpedo_size: int
    armor: int


@dataclass(frozen=True)
class Shown:
    """One weapon and arc against the target, band by band (a matchup page's line)."""

    weapon: str
    arc: str
    kind: str  # what --battery picks it by: its arc, or "torpedo"
    factors: int
    cells: tuple[tuple[tuple[Fraction, ...], Fraction], ...]  # per band: (≥1, ≥2, ≥3), mean


@dataclass(frozen=True)
class ScenarioOdds:
    """A scenario's ships and every firer's lines against every target."""

    night: bool
    bands_in: tuple[float, ...]
    fighters: tuple[Member[Fighter], ...]         # side by side, in roster order
    lines: dict[tuple[int, int], tuple[Shown, ...]]  # (firer, target) -> lines


@dataclass
class OddsIndex:
    """Every Surface Action scenario's answers, as ``quarterdeck odds`` keeps them."""

    scenarios: dict[str, ScenarioOdds]
    compute: Callable[[str], ScenarioOdds] | None = None
    """Computes a scenario missing from ``scenarios`` (``matchups.odds_index`` sets it);
    never kept in the cache."""

    def __getstate__(self) -> dict[str, Any]:
        """Only the answers: never the way to compute more."""
        return {"scenarios": self.scenarios, "compute": None}

    def print_answer(self, firer: str, target: str, battery: str | None, band: str | None,
                     scenario: str | None) -> None:
        """Print the firer's chances against the target (``quarterdeck odds``)."""
        if scenario is None:
            raise UsageError(NEEDS_SCENARIO)
        odds = self.scenarios.get(scenario)
        if odds is None:
            if self.compute is None:
                raise UsageError(f"no odds kept for scenario '{scenario}'")
            odds = self.scenarios[scenario] = self.compute(scenario)
        print_answer(odds, firer, target, battery, band)


def _band_index(bands_in: Sequence[float], band: str | None) -> list[int]:
    if band is None:
        return list(range(len(bands_in)))
    labels = [f"{b:g}" for b in bands_in]
    wanted = band.removesuffix("in").strip()
    if wanted not in labels:
        raise UsageError(f"--range: found '{band}', expected a band's outer limit in inches: "
                         f"{', '.join(labels)}")
    return [labels.index(wanted)]


def print_answer(odds: ScenarioOdds, firer: str, target: str, arc: str | None,
                 band: str | None) -> None:
    """Print the firer's chances against the target (names escaped for rich markup)."""
    from rich.markup import escape

    at = find_at(odds.fighters, firer, "this scenario", "--firer")
    aim_at = find_at(odds.fighters, target, "this scenario", "--target")
    shooter, aim = odds.fighters[at].figures, odds.fighters[aim_at].figures
    if arc is not None:
        one_of("--battery", arc, ARCS, arc.lower())
    bands = _band_index(odds.bands_in, band)
    console = answer_console()
    console.print(firing_at((shooter.name, shooter.class_name, shooter.type),
                            (aim.name, aim.class_name, aim.type),
                            f"size {aim.gun_size}/{aim.torpedo_size}, armor {aim.armor:+d}",
                            "night" if odds.night else "day"))
    headings = [f"≤{odds.bands_in[b]:g} in" for b in bands]
    shown = 0
    for line in odds.lines[at, aim_at]:
        if arc is not None and not line.kind.startswith(arc.lower()) and \
                not (arc.lower() in ("bow", "stern") and line.arc == "bow or stern"):
            continue
        rows = [(f"≥{k} effective hit{'s' if k > 1 else ''}",
                 *[f"{float(line.cells[b][0][i]) * 100:.1f}%" for b in bands])
                for i, k in enumerate(AT_LEAST)]
        rows.append(("expected", *[f"{float(line.cells[b][1]):.3f}" for b in bands]))
        print_table(console, escape(f"{line.weapon} {line.arc}: {line.factors} factor(s)"),
                    headings, rows)
        shown += 1
    if not shown:
        console.print(f"{escape(shooter.name)} has no weapon that matches.")



