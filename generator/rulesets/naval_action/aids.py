"""NAVAL ACTION's precision aids as data: range strings, rulers, tapes and gauge strips.

Everything here is in yards and table units; ``generator.aids.strips`` and
``generator.aids.gauges`` put it on paper. The text rounds both range limits and in-game
measurements up to the next whole unit, so every knot sits at a whole unit: a
close-range limit of 10,717 yd is a knot at 33 cm (32.15 rounded up) on the tabletop
scale, and a ship measured at 32.4 cm (which counts as 33) is at close range.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from generator.aids.gauges import Ring, fan_strips
from generator.aids.rangestrings import (
    BAND_TINTS,
    Knot,
    RangeString,
    colour_strings,
    detection_strip,
    units_up,
    yard_marks,
)
from generator.aids.strips import Band, Mark, Strip
from generator.core.scales import Scale
from generator.rules.defaults import LABEL, is_default
from generator.rulesets.naval_action.cardtables import Tables
from generator.rulesets.naval_action.derive import ShipView
from generator.rulesets.naval_action.rules import DerivationRules

DEFAULT_RUN_NOTE = (f"<b>{LABEL}</b> run: the rules give no torpedo ranges, so this run is "
                    "quarterdeck's reading; the referee may give another.")
"""Under a torpedo string whose run is the DEFAULT table's (the string sheet).

A player's sheet: it names no table, field or option (the referee's data page does)."""


def _bores(bores: Sequence[float]) -> str:
    return ", ".join(f"{b:g}in" for b in sorted(set(bores), reverse=True))


def range_strings(views: Sequence[ShipView], scale: Scale, tables: Tables) -> list[RangeString]:
    """Every distinct gun range and torpedo run among ``views``, colour-coded.

    Batteries with the same close, medium and maximum ranges share one string whatever
    their bore; torpedo mounts share one when size, run and turns agree.
    """
    guns: dict[tuple[int, int, int], tuple[list[float], dict[str, list[str]]]] = {}
    for view in views:
        for b in view.batteries:
            bores, users = guns.setdefault((b.close_yd, b.medium_yd, b.max_range_yd), ([], {}))
            bores.append(b.bore_in)
            users.setdefault(view.name, []).append(b.position)
    strings: list[RangeString] = []
    for (close, medium, longest), (bores, users) in sorted(guns.items(), key=lambda i: -i[0][2]):
        knots = [Knot("C", close, units_up(close, scale), "close"),
                 Knot("M", medium, units_up(medium, scale), "medium"),
                 Knot("L", longest, units_up(longest, scale), "long (maximum)")]
        strings.append(RangeString(f"guns-{longest}-{close}-{medium}", f"{_bores(bores)} guns",
                                   [f"{n} ({', '.join(p)})" for n, p in users.items()], knots))
    runs = tables.card.torpedo_runs
    spread = tables.card.torpedo_hits
    torps: dict[tuple[int, int, bool], tuple[bool, dict[str, int]]] = {}
    for view in views:
        for t in view.torpedoes:
            run = runs.run_yd(t.size_in, t.two_turn, t.run_yd)
            entry = torps.setdefault((t.size_in, run, t.two_turn), (t.run_yd is None, {}))
            entry[1][view.name] = entry[1].get(view.name, 0) + 1
    for (size, run, two_turn), (default, mounts) in sorted(torps.items(),
                                                           key=lambda i: (-i[0][1], -i[0][0])):
        strings.append(RangeString(
            f"torpedo-{size}-{run}-{2 if two_turn else 1}",
            f"{size}in torpedoes" + (" (two turns)" if two_turn else ""),
            [f"{n} ({m} mount{'s' if m > 1 else ''})" for n, m in mounts.items()],
            torpedo_knots(run, two_turn, scale, spread.automatic_within_yd,
                          spread.spread_width_yd.one_turn, spread.spread_width_yd.two_turn),
            default=default and is_default(runs)))
    colour_strings(strings)
    return strings


def torpedo_knots(run: int, two_turn: bool, scale: Scale, aimed_yd: int, width_yd: int,
                  second_width_yd: int) -> list[Knot]:
    """Knots along a torpedo string: the aimed-shot limit, then the spread's stages."""
    knots = []
    if aimed_yd < run:
        knots.append(Knot("A", aimed_yd, units_up(aimed_yd, scale), "aimed-shot limit"))
    if two_turn:
        turn = Fraction(run, 2)
        stages = [("½", turn / 2, Fraction(width_yd, 2)), ("T1", turn, Fraction(width_yd)),
                  ("1½", turn * 3 / 2, Fraction(width_yd + second_width_yd, 2)),
                  ("T2", Fraction(run), Fraction(second_width_yd))]
    else:
        stages = [("½", Fraction(run, 2), Fraction(width_yd, 2)),
                  ("R", Fraction(run), Fraction(width_yd))]
    for label, yards, width in stages:
        yd = math.ceil(yards)
        wide = math.floor(width + Fraction(1, 2))  # 666.5 prints as the text's 667
        knots.append(Knot(label, yd, units_up(yd, scale), f"spread {wide:,} yd wide", width))
    return sorted(knots, key=lambda k: k.yards)


def movement_ruler(scale: Scale, top_speed: float, tables: Tables) -> Strip:
    """Knots per 5-minute turn, with the cost of each 60° step of turn as bands."""
    knots = int(math.ceil(top_speed / 5) * 5)
    per_knot = scale.yards_to_points(scale.knot_yards())
    marks = []
    for kn in range(knots + 1):
        if kn % 5 == 0:
            marks.append(Mark(kn * per_knot, "major", f"{kn}"))
        else:
            marks.append(Mark(kn * per_knot, "minor"))
    costs = tables.card.turn_costs
    lost = costs.lost(scale.yards_per_unit)
    step = scale.units_to_points(lost)
    bands = [Band(i * step, (i + 1) * step, BAND_TINTS[i % 2],
                  f"{costs.per_degrees * (i + 1)}° −{lost * (i + 1):g}")
             for i in range(3)]
    return Strip(f"move-{scale.name}",
                 f"Movement ruler · knots per 5-minute turn · {scale.describe()} · turn "
                 f"costs {lost:g} {scale.unit} per {costs.per_degrees}°",
                 knots * per_knot, marks, bands)


def gauge_strips(scale: Scale, tables: Tables, torpedoes: Sequence[tuple[int, int, bool]],
                 max_height: float) -> list[Strip]:
    """Spread fans for each torpedo type, the aerial torpedo limit, detection and radar."""
    card = tables.card
    widths = card.torpedo_hits.spread_width_yd
    strips = []
    for size, run, two_turn in torpedoes:
        knots = torpedo_knots(run, two_turn, scale, card.torpedo_hits.automatic_within_yd,
                              widths.one_turn, widths.two_turn)
        fan = [(scale.yards_to_points(k.yards), scale.yards_to_points(k.width))
               for k in knots if k.width]
        marks = yard_marks(scale, run)
        marks += [Mark(scale.yards_to_points(k.yards), "knot", f"{k.yards:,} yd", k.note)
                  for k in knots if k.label != "A"]
        strips += fan_strips(
            f"spread-{size}-{run}-{2 if two_turn else 1}",
            f"Torpedo spread · {size}in, {run:,} yd run{' in two turns' if two_turn else ''}"
            f" · {scale.describe()}", fan, marks, max_height,
            [f"at {k.yards:,} yd: {k.note}" for k in knots if k.width])
    air = card.air.torpedo_bombing
    strips.append(detection_strip("aerial-torpedo", f"Aerial torpedo range · {scale.describe()}",
                                  [(air.range_yd, "aerial torpedo range")], scale))
    night = card.night_detection
    for key, name, rows in (("night-jp", "Japanese", night.JP), ("night-other", "all others",
                                                                  night.other)):
        stages = [(r.within_yd, "automatic" if r.in_six >= 6 else f"{r.in_six} in 6")
                  for r in rows]
        strips.append(detection_strip(key, f"Night detection, {name} · chance per group per "
                                      f"turn · {scale.describe()}", stages, scale))
    for radar in ("SC", "SG"):
        yd = getattr(night.radar, radar)
        strips.append(detection_strip(f"radar-{radar.lower()}",
                                      f"Radar {radar} · maximum range · {scale.describe()}",
                                      [(yd, f"{night.radar.detect_in_six(night.radar.in_six)}"
                                             " in 6 per turn")], scale))
    return strips


def protractor_rings(rules: DerivationRules) -> list[Ring]:
    """One ring per battery position (L and R share one), with the text's forbidden zones."""
    groups = [("BOW", ["BOW"]), ("STN", ["STN"]), ("C", ["C"]), ("L | R", ["L", "R"]),
              ("LB", ["LB"]), ("RB", ["RB"]), ("LS", ["LS"]), ("RS", ["RS"])]
    rings = []
    for label, positions in groups:
        arcs = [(a[0], a[1]) for p in positions for a in rules.battery_arcs[p]]
        zones: list[tuple[float, float]] = []
        for p in positions:
            zones += [(z[0], z[1]) for z in rules.arc_exclusions[p] if (z[0], z[1]) not in zones]
        rings.append(Ring(label, arcs, zones, [f"{(b - a) / 2:g}°" for a, b in zones]))
    return rings


def default_torpedo_types(tables: Tables) -> list[tuple[int, int, bool]]:
    """Every size in the runs table, plus the two-turn 24in (for kits with no scenario)."""
    runs = tables.card.torpedo_runs
    types = [(size, runs.run_yd(size, False), False) for size in sorted(runs.yards_per_turn)]
    if 24 in runs.yards_per_turn:
        types.append((24, runs.run_yd(24, True), True))
    return types


def scenario_torpedo_types(views: Sequence[ShipView], tables: Tables,
                           ) -> list[tuple[int, int, bool]]:
    """Distinct torpedo types carried by the ships in ``views``."""
    runs = tables.card.torpedo_runs
    found = {(t.size_in, runs.run_yd(t.size_in, t.two_turn, t.run_yd), t.two_turn)
             for v in views for t in v.torpedoes}
    return sorted(found)
