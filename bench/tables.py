"""Benchmark the rules calculator: all tables for the largest bundled scenario.

Usage: ``python bench/tables.py [--repeat N]``. Target: every table (the generic
resolution tables plus every ship's matchups against every enemy) computed in under
200 ms, in a warm process with the library loaded, from a fresh calculator (no memo).
Rendering those tables to PDF is timed too and reported, for information.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

TARGET_S = 0.2


def largest_scenario() -> tuple[Any, Any, dict[str, list[Any]]]:
    """The bundled scenario with the most ships, its library and its derived ships."""
    from generator.data.library import validated_library
    from generator.rulesets.naval_action import RULESET

    library = validated_library([])
    scenario = max((e.model for e in library.scenarios.values()),
                   key=lambda s: sum(len(side.ships) for side in s.sides))
    return library, scenario, RULESET._views(library, scenario)


def compute_all(scenario: Any, views: dict[str, list[Any]]) -> tuple[Any, int]:
    """Every figure the tables print, from a fresh calculator."""
    from generator.rules.dice import distribution
    from generator.rulesets.naval_action.cardtables import load_tables
    from generator.rulesets.naval_action.components.resolution import MODES
    from generator.rulesets.naval_action.matchups import ship_matchups
    from generator.rulesets.naval_action.odds import Calculator

    calc = Calculator(load_tables())
    card = calc.card
    figures = 0
    for acc in range(card.accuracy.start, -1, -1):
        figures += len(distribution(calc.hits(acc)))
    for _, mode, band, old, duds in MODES:
        for diff in card.penetration.columns:
            figures += len(calc.faces(diff, mode, band, old, duds))
    for n in card.torpedo_hits.columns:
        figures += len(distribution(calc.spread(n)))
    for i in range(len(card.aa_results.columns)):
        for shift in (0, 1, 2):
            figures += len(distribution(calc.aa(i, shift)))
    figures += len(calc.damage_control("good")) + len(calc.damage_control("poor"))
    pages = {}
    for side in scenario.sides:
        enemies = [v for s in scenario.sides if s.id != side.id for v in views[s.id]]
        pages[side.id] = [ship_matchups(calc, v, enemies, scenario.sea_state,
                                        scenario.date.year) for v in views[side.id]]
        figures += sum(len(p.guns) * 3 + len(p.torpedoes) * 2 for p in pages[side.id])
    return (calc, pages), figures


def render_all(scenario: Any, calc: Any, pages: dict[str, list[Any]]) -> int:
    """Render the resolution tables and every side's matchup pages; return the pages."""
    from generator.rulesets.naval_action.components.matchup_sheet import render_matchups
    from generator.rulesets.naval_action.components.resolution import render_resolution

    count = render_resolution(calc, "a4", "bench").pages
    for side in scenario.sides:
        count += render_matchups(pages[side.id], calc, "a4", "m", "M-", "bench").pages
    return count


def main() -> None:
    """Run and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    _, scenario, views = largest_scenario()
    ships = sum(len(v) for v in views.values())
    compute_times, render_times = [], []
    figures = pages = 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        (calc, by_side), figures = compute_all(scenario, views)
        compute_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        pages = render_all(scenario, calc, by_side)
        render_times.append(time.perf_counter() - start)
    compute = statistics.median(compute_times)
    render = statistics.median(render_times)
    verdict = "meets" if compute < TARGET_S else "MISSES"
    print(f"{scenario.id}: {ships} ships, {figures} matchup rows and table cells")
    print(f"compute all tables: {compute * 1000:.0f} ms median of {args.repeat} "
          f"({verdict} the {TARGET_S * 1000:.0f} ms target)")
    print(f"render them to PDF: {render * 1000:.0f} ms for {pages} pages (information)")


if __name__ == "__main__":
    main()
