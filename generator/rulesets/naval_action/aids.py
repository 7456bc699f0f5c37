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
from dataclasses import dataclass, field
from fractions import Fraction

from reportlab.lib import colors

from generator.aids.gauges import Ring, fan_strips
from generator.aids.strips import Band, Mark, Strip
from generator.core.scales import Scale
from generator.core.units import MM
from generator.rules.defaults import is_default
from generator.rulesets.naval_action.cardtables import Tables
from generator.rulesets.naval_action.derive import ShipView
from generator.rulesets.naval_action.rules import DerivationRules

PALETTE: tuple[tuple[str, colors.Color], ...] = (
    ("red", colors.Color(0.85, 0.1, 0.1)),
    ("blue", colors.Color(0.1, 0.3, 0.85)),
    ("green", colors.Color(0.1, 0.6, 0.2)),
    ("orange", colors.Color(0.98, 0.55, 0.0)),
    ("purple", colors.Color(0.5, 0.2, 0.65)),
    ("brown", colors.Color(0.5, 0.3, 0.1)),
    ("black", colors.Color(0.0, 0.0, 0.0)),
    ("pink", colors.Color(0.95, 0.45, 0.7)),
    ("teal", colors.Color(0.0, 0.55, 0.55)),
    ("yellow", colors.Color(0.95, 0.85, 0.1)),
    ("grey", colors.Color(0.55, 0.55, 0.55)),
    ("navy", colors.Color(0.0, 0.1, 0.4)),
)
"""Thread colours a player can buy; names are printed beside each swatch."""

TAPE_HEIGHT = 20 * MM
"""Tapes and range gauges: room for a knot's two label lines above a band."""
BAND_TINTS = (colors.Color(0.75, 0.9, 0.75), colors.Color(0.98, 0.9, 0.6),
              colors.Color(0.98, 0.75, 0.7))


def units_up(yards: int | Fraction, scale: Scale) -> int:
    """Whole table units for a range limit, fractions rounded up (the text's rule)."""
    return math.ceil(Fraction(yards) / scale.yards)


@dataclass(frozen=True)
class Knot:
    """A knot on a range string.

    Attributes:
        label: ``C``, ``M``, ``L`` or a torpedo stage.
        yards: The limit in yards.
        units: Where the knot goes, in whole table units (rounded up).
        note: What the knot means, printed beside it.
        width: For a torpedo stage, the spread's exact width there in yards (the note
            prints it rounded, as the text does: 666.5 yd is "667").

    """

    label: str
    yards: int
    units: int
    note: str = ""
    width: Fraction = Fraction(0)


@dataclass
class RangeString:
    """One string to cut: every battery or torpedo mount sharing the same ranges.

    Attributes:
        key: Stable id, e.g. ``guns-32150`` or ``torpedo-24-20000-2``.
        what: ``8in guns`` or ``24in torpedoes (two turns)``.
        users: ``Chōkai (BOW, STN)``... in order of appearance.
        knots: Knots from the near end.
        default: True when a torpedo run comes from the default table.
        color_name: Thread colour.
        color: Its printing colour.

    """

    key: str
    what: str
    users: list[str]
    knots: list[Knot]
    default: bool = False
    color_name: str = ""
    color: colors.Color = field(default=colors.black)

    @property
    def length_units(self) -> int:
        """Measuring length: zero to the last knot."""
        return self.knots[-1].units


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
    for i, string in enumerate(strings):
        name, string.color = PALETTE[i % len(PALETTE)]
        # Past twelve strings the colours come round again, numbered to keep them apart.
        again = i // len(PALETTE)
        string.color_name = f"{name} thread" + (f" no. {again + 1}" if again else "")
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


def minor_step(scale: Scale) -> int:
    """The finest yard graduation that stays at least 1.2 mm apart at this scale."""
    for step in (100, 200, 250, 500, 1000):
        if scale.yards_to_points(step) >= 1.2 * MM:
            return step
    return 1000


def yard_marks(scale: Scale, longest: int) -> list[Mark]:
    """Ticks every ``minor_step`` yards, longer at 500, numbered each 1,000 yd."""
    step = minor_step(scale)
    marks = []
    for yd in range(0, longest + 1, step):
        if yd % 1000 == 0:
            marks.append(Mark(scale.yards_to_points(yd), "major", f"{yd // 1000}"))
        elif yd % 500 == 0:
            marks.append(Mark(scale.yards_to_points(yd), "mid"))
        else:
            marks.append(Mark(scale.yards_to_points(yd), "minor"))
    return marks


def unit_marks(scale: Scale, units: int) -> list[Mark]:
    """Ticks every table unit (cm or in), longer at 5, numbered each 10 (cm) or 5 (in)."""
    every = 10 if scale.unit == "cm" else 5
    marks = []
    for u in range(units + 1):
        at = scale.units_to_points(u)
        if u % every == 0:
            marks.append(Mark(at, "major", f"{u}"))
        else:
            marks.append(Mark(at, "mid" if u % 5 == 0 else "minor"))
    return marks


def range_ruler(scale: Scale, longest_yd: int) -> Strip:
    """A range ruler in thousands of yards, to ``longest_yd`` rounded up to 1,000."""
    longest = math.ceil(longest_yd / 1000) * 1000
    return Strip(f"range-{scale.name}",
                 f"Range ruler · thousands of yards · {scale.describe()}",
                 scale.yards_to_points(longest), yard_marks(scale, longest))


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


def tape(string: RangeString, scale: Scale) -> Strip:
    """A range tape: the string's knots over a plain table-unit scale."""
    marks = unit_marks(scale, string.length_units)
    marks += [Mark(scale.units_to_points(k.units), "knot", f"{k.label} {k.units} {scale.unit}",
                   f"{k.yards:,} yd · {k.note}") for k in string.knots]
    return Strip(f"tape-{string.key}", f"{string.what} · {scale.describe()}",
                 scale.units_to_points(string.length_units), marks, height=TAPE_HEIGHT,
                 color=string.color, color_name=string.color_name)


def detection_strip(key: str, title: str, stages: Sequence[tuple[int, str]], scale: Scale,
                    ) -> Strip:
    """A gauge of nested distances (detection chances, radar limit), rounded up to units."""
    longest = max(yd for yd, _ in stages)
    marks = yard_marks(scale, longest)
    bands = []
    start = 0.0
    for i, (yd, label) in enumerate(sorted(stages)):
        end = scale.units_to_points(units_up(yd, scale))
        marks.append(Mark(end, "knot", f"{yd:,} yd", label))
        bands.append(Band(start, end, BAND_TINTS[i % len(BAND_TINTS)], label))
        start = end
    return Strip(key, title, start, marks, bands, height=TAPE_HEIGHT)


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
