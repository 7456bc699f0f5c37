"""The Action Card's front: the turn and the gunfire procedure.

Sequence of play, battery arcs, gunfire sequence, accuracy modifiers, the cumulative
track, hit or miss, the penetration table and its notes, and the chance a hit damages;
every number from the tables in force.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from generator.pages.boxtrack import TrackBox, track
from generator.pages.grid import LABEL_BG
from generator.pages.pages import Block
from generator.pages.refcard import (
    Section,
    arcs,
    bullet,
    diff_label,
    even,
    join,
    para,
    signed,
    table,
    yd,
)
from generator.rules import dice
from generator.rules.defaults import LABEL, is_default
from generator.rulesets.naval_action.cardtables import Tables
from generator.rulesets.naval_action.components.card_parts import (
    NO_EFFECT,
    SEVERITY_BG,
    explained,
    noted,
    pct,
)
from generator.rulesets.naval_action.odds import Calculator, Mode
from generator.rulesets.naval_action.views import Band


def sequence_of_play(tables: Tables) -> Section:
    """Phases A to F, summarised."""
    phases = [
        ("A", "Plot and allocate",
         "Note turn and hour. Write each group's moves (distances, column or flank "
         "turns, smoke), torpedo launches and two-turn runs, and aircraft and submarine "
         "moves. Name each battery's target without measuring. Assign air elements, "
         "then settle air combat and AA fire."),
        ("B", "Lay torpedo tracks",
         "A string for each spread settled this turn, marked with its torpedo count; "
         "aimed close shots are laid through the target."),
        ("C", "Gunfire",
         "Batteries fire step by step in the gunfire sequence; damage counts at once."),
        ("D", "Movement and torpedoes",
         "Move ships and submarines as plotted, torpedoed ships first; settle every "
         "spread that crosses a ship."),
        ("E", "Messages",
         f"Flagships within {yd(tables.card.messages.visual_range_yd)} yd (signal lamp) "
         "talk freely; written messages are read a turn later."),
        ("F", "Damage control",
         "Roll for each ship whose damage is still out of control (back of card)."),
    ]
    body: list[Block] = [
        para(f"<b>{letter}  {name}.</b> {text}") for letter, name, text in phases]
    body.append(para("Plots are fixed after phase A unless the opponent agrees. Poor or bad "
                   "visibility: roll it first (back).", "note"))
    return Section("SEQUENCE OF PLAY", (), body)


def gunfire_sequence(tables: Tables, col_mm: float) -> Section:
    """Steps by caliber factor, smallest first; old guns together last."""
    rules = tables.rules
    factors = rules.caliber_factor
    old = rules.gunfire_sequence.old_guns_step
    head = ["Step", *[str(r.factor) for r in factors], str(old)]
    bores = ["Bore ≤", *[f'{r.max_bore_in:g}"' for r in factors], "any"]
    bores[-1] = "old On"
    grid = table([head, bores], even(col_mm, 12, len(factors) + 1),
                 tints={bores[-1]: LABEL_BG})
    bands = rules.range_bands
    body = explained(
        grid, 1.2,
        "A new gun's step is its caliber factor (CF): the smallest, quickest guns "
            "shoot first. A step fires together and its damage lands together, before "
            "the next step.",
        f"Old (On) guns all fire in step {old}, after every new gun, whatever "
            "their bore.",
        "A ship's batteries of one calibre and range at one target fire as one: "
            "a white die (accuracy) and a coloured die (penetration).",
        f"<b>Range bands:</b> close up to {bands.close[0]}/{bands.close[1]} of the "
            f"battery's maximum range, medium up to {bands.medium[0]}/{bands.medium[1]}, "
            "long up to the maximum; round fractions up. Measure only when firing.")
    return Section("GUNFIRE SEQUENCE", ("caliber_factor", "gunfire_sequence",
                                        "range_bands"), body)


def accuracy_modifiers(tables: Tables, col_mm: float) -> Section:
    """The numbered modifiers, with values (per range band where they differ)."""
    acc = tables.card.accuracy
    rows = [["No.", "Gunfire accuracy modifier", "Value"]]
    for mod in acc.modifiers:
        if mod.by_range is not None:
            value = " ".join(f"{band[0].upper()}{signed(v)}" for band, v in
                             mod.by_range.items())
        else:
            value = signed(mod.value or 0)
        star = "" if is_default(mod) else "*"
        rows.append([f"{mod.number}", f"{mod.label}{star}", value])
    grid = table(rows, [8, col_mm - 8 - 22, 22], size=7.8,
                 aligns=["center", "left", "center"], bold=[2])
    return Section("GUNFIRE ACCURACY MODIFIERS", ("accuracy",), noted(grid, 1, (
        "Work down the list from No. 1, moving along the cumulative track (right) for "
        "each modifier that applies. C, M, L: close, medium, long range. * Value fixed "
        f"by the rule text; the others are {LABEL} values (the text gives none).")))


def cumulative_track(tables: Tables) -> Section:
    """Boxes from the starting accuracy down to '≤0', with multi-hit numbers and odds."""
    acc = tables.card.accuracy
    calc = Calculator(tables)
    boxes = []
    for value in range(acc.start, -1, -1):
        hits = calc.hits(value)
        # A box's corner number (upper left, as the rules put it) is for a white die
        # showing that number, so none on the automatic-miss face or below 1.
        multi = (acc.multi_hits.get(value)
                 if 1 <= value != acc.automatic_miss else None)
        boxes.append(TrackBox("≤0" if value == 0 else str(value),
                              multi if multi and multi > 1 else None,
                              f"hit {pct(dice.chance(hits, _scored))}",
                              f"avg {float(dice.mean(hits)):.2f}"))
    return Section("CUMULATIVE ACCURACY TRACK", ("accuracy",), noted(track(boxes), 1, (
        f"Start on {acc.start} and step once per point of each modifier; the box you "
        "end on is the final accuracy. Corner number: hits scored when the white die "
        "shows that box's number. <i>hit</i> is the chance of one or more hits, "
        "<i>avg</i> the mean number of hits (calculated from these tables).")))


def _scored(hits: int) -> bool:
    return hits >= 1


def hit_or_miss(tables: Tables) -> Section:
    """The white-die rules: automatic miss, below one, multiple hits, switching fire."""
    acc = tables.card.accuracy
    multi = ", ".join(f"{face}: {n}" for face, n in sorted(acc.multi_hits.items()))
    needs = " then ".join(map(str, acc.below_one_needs))
    switch = join(map(str, acc.switch_fire_on), "or")
    body: list[Block] = [
        bullet(f"<b>Hit</b> when the white die is at or under the final accuracy. A "
                f"<b>{acc.automatic_miss}</b> misses however good the accuracy."),
        bullet(f"<b>Accuracy below 1:</b> only rolling {needs} (a second roll) still "
                "scores a single hit."),
        bullet(f"<b>Multiple hits</b> (corner numbers): a hit rolled as {multi} hits."),
        bullet(f"<b>Switching fire:</b> on a hit rolled as {switch}, once half the hits "
                "(rounded down) are resolved the battery may turn on a new target at once; "
                f"that target takes {acc.second_target_max_hits} hit at most and becomes "
                "the acquired one."),
        bullet("Skip the range check when either die is plainly hopeless. A target fired "
                "on, hit or missed, stays acquired next turn unless it is beyond maximum "
                "range; mark hits, which earn a further bonus."),
        bullet("Roll one coloured die per hit on the penetration table below."),
    ]
    return Section("HIT OR MISS", ("accuracy",), body)


def penetration_table(tables: Tables, col_mm: float) -> Section:
    """Coloured die rows (top down, then the dud row) against differential columns."""
    pen = tables.card.penetration
    n = len(pen.columns)
    heads: list[str | None] = ["Die", *[diff_label(v, i == 0, i == n - 1)
                                        for i, v in enumerate(pen.columns)]]
    title: list[str | None] = ["", "Caliber, torpedo or bomb factor minus armor factor",
                               *[None] * (n - 1)]
    rows: list[list[str | None]] = [title, heads]
    ordered = sorted(pen.rows, reverse=True)
    for face in ordered:
        rows.append([str(face), *[NO_EFFECT if c == "-" else c for c in pen.rows[face]]])
    rows.append([f"{pen.dud_face} dud", *[NO_EFFECT if c == "-" else c
                                          for c in pen.gunfire_dud]])
    top = max(pen.rows)
    # The dud row is set apart, and so are the rows above a real die face (reached only
    # by shifting up).
    heavy = [len(ordered), *([top - 6] if top > 6 else [])]
    grid = table(rows, even(col_mm, 9.5, n), head_rows=2, size=8, spans=[(0, 1, n)],
                 bold=range(1, n + 1), tints=SEVERITY_BG, heavy=heavy)
    body = [grid] if top <= 6 else noted(grid, 0.8, (
        f"Rows above 6 (to {top}) are reached only by a shift up; past the top row, read "
        "the top row."))
    return Section("GUNFIRE / TORPEDO PENETRATION", ("penetration",), body)


def penetration_notes(tables: Tables) -> Section:
    """Row shifts, (D), duds, the damage ladder and the inferior-calibre limits."""
    pen = tables.card.penetration
    shifts = pen.shift_up
    ladder = " · ".join(f"{escape(result)} +{steps}" for result, steps in pen.steps.items())
    levels = _levels(tables)
    limits = "; ".join(f"at {signed(rule.max_differential)} or lower never worse than "
                       f"{escape(rule.worst)} in all" for rule in pen.inferior_limits)
    body: list[Block] = [
        bullet("<b>Column:</b> the firing factor minus the target's armor factor; beyond "
                "the table use its end column."),
        bullet(f"<b>Shift up</b> {shifts.close_range} row for close-range gunfire, "
                f"{shifts.long_range_vs_old} for long-range gunfire at old-deck (O) armor, "
                f"{shifts.bomb_vs_old} for bombs at O armor."),
        bullet("<b>(D)</b> damages only in close-range gunfire and from bombs and "
                "torpedoes; otherwise it has no effect."),
        bullet(f"<b>Duds:</b> a coloured {pen.dud_face} is a dud. Shells and bombs read "
                "the dud row; a torpedo dud never does damage."),
        bullet(f"<b>Damage adds up:</b> {ladder} steps; {levels}."),
        bullet(f"<b>Inferior calibres:</b> {limits}, however many hits land."),
        bullet("Record damage at once; fire from the same step still goes ahead."),
    ]
    return Section("PENETRATION NOTES", ("penetration",), body)


def damage_chance(tables: Tables, col_mm: float) -> Section:
    """Chance one hit does any damage, by differential, for the usual situations."""
    pen = tables.card.penetration
    calc = Calculator(tables)
    n = len(pen.columns)
    heads = ["", *[diff_label(v, i == 0, i == n - 1) for i, v in enumerate(pen.columns)]]
    cases: list[tuple[str, Mode, Band, bool]] = [
        ("Close", "gun", "close", False),
        ("Medium", "gun", "medium", False),
        ("Long", "gun", "long", False),
        ("Long, O", "gun", "long", True),
        ("Torpedo", "torpedo", "close", False),
    ]
    rows = [heads]
    for label, mode, band, old in cases:
        cells = []
        for diff in pen.columns:
            faces = calc.faces(diff, mode, band, old)
            cells.append(str(round(100 * sum(1 for f in faces if f.steps) / len(faces))))
        rows.append([label, *cells])
    grid = table(rows, even(col_mm, 12.5, n))
    return Section("DAMAGE CHANCE PER HIT", ("penetration",), noted(grid, 0.8, (
        "Percent chance that a single hit damages (D or worse), worked out from the "
        "table above with its shifts, (D) rule and duds. O: old-deck armor.")))


ARC_NAMES = {"BOW": "bow", "STN": "stern", "C": "centreline", "L": "left side",
             "R": "right side", "LB": "left bow", "RB": "right bow", "LS": "left stern",
             "RS": "right stern"}


def battery_arcs(tables: Tables) -> Section:
    """Where each kind of battery bears, drawn and in degrees."""
    spans = [(key, ARC_NAMES.get(key, ""), [(start, end) for start, end in bearing])
             for key, bearing in tables.rules.battery_arcs.items()]
    return Section("BATTERY ARCS", ("battery_arcs",), noted(arcs(spans), 0.8, (
        "Shaded: where it bears, clockwise from the bow (0°; 90° right beam). One "
        "target a battery, a second only by switching fire; a big ship's fore and aft "
        "main batteries may split.")))


def _levels(tables: Tables) -> str:
    """'1 step is D, 2 is HD, 3 sinks' from the steps table."""
    pen = tables.card.penetration
    names: dict[int, str] = {}
    for result, steps in pen.steps.items():
        if result != "(D)" and steps < pen.sunk_at:
            names.setdefault(steps, result)
    parts = [f"{steps} {'step' if steps == 1 else 'steps'} = {escape(name)}"
             for steps, name in sorted(names.items())]
    return ", ".join([*parts, f"{pen.sunk_at} sink her"])


def front_sections(tables: Tables, col_mm: float) -> list[Section]:
    """The front's sections in reading order (left column, then right)."""
    track_section = cumulative_track(tables)
    # The track heads the right column, beside the modifiers it is read with.
    track_section.new_column = True
    return [sequence_of_play(tables), battery_arcs(tables), gunfire_sequence(tables, col_mm),
            accuracy_modifiers(tables, col_mm), track_section, hit_or_miss(tables),
            penetration_table(tables, col_mm), penetration_notes(tables),
            damage_chance(tables, col_mm)]
