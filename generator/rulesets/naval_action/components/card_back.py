"""The Action Card's back: torpedoes, damage control, air, night, weather, submarines.

Also turning and comparative strength; every number from the tables in force.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from generator.core.scales import NAMED_SCALES
from generator.pages.pages import Block
from generator.pages.refcard import (
    Section,
    bullet,
    even,
    face_run,
    gap,
    in_six,
    join,
    para,
    signed,
    table,
    yd,
)
from generator.rules.defaults import is_default
from generator.rules.defaults import label as default_label
from generator.rulesets.naval_action.cardmodels import RadarDetection, torpedo_bomber_shift
from generator.rulesets.naval_action.cardtables import Tables
from generator.rulesets.naval_action.components.card_parts import NO_EFFECT, explained, noted, pct
from generator.rulesets.naval_action.odds import Calculator

SCALES_SHOWN = ("tabletop", "floor", "large-floor")
CS_PER_ROW = 8
DEPTH_NAMES = {"P": "periscope", "D": "deep", "R": "deeper", "T": "deepest", "Ab": "abyss"}

def torpedo_fire(tables: Tables, col_mm: float) -> Section:
    """The number-of-hits table and the torpedo rules."""
    torp = tables.card.torpedo_hits
    n = len(torp.columns)
    rows: list[list[str | None]] = [["", "Torpedoes in the spread", *[None] * (n - 1)],
                                    ["Die", *map(str, torp.columns)]]
    for face in sorted(torp.rows):
        rows.append([str(face), *map(str, torp.rows[face])])
    grid = table(rows, even(col_mm, 9.5, n), head_rows=2, size=8, spans=[(0, 1, n)])
    width = torp.spread_width_yd
    runs = tables.card.torpedo_runs
    per_turn = " · ".join(f'{size}" {yd(run)}' for size, run in sorted(runs.yards_per_turn.items()))
    pens = " · ".join(f'{size}" = {factor}' for size, factor in
                      sorted(tables.rules.torpedo_penetration.items()))
    body = [para("NUMBER OF HITS ON TARGET (white die)", "sub")]
    body += explained(
        grid, 1.2,
        "Roll for each ship the spread crosses, on the column of torpedoes still "
            f"running (more than {torp.columns[-1]}: the last column). Hits leave the "
            "spread before the next ship rolls.",
        f"<b>Wild torpedo:</b> on a spread's first roll only, a {torp.wild_face} "
            "also sends one torpedo back at the firer; roll for it on the 1 column.",
        f"<b>Bow or stern:</b> a track within {torp.bow_stern_arc_deg}° of the "
            f"target's bow or stern counts half the torpedoes (round "
            f"{torp.halve_rounding}), except a submarine's shot at an attacker.",
        f"<b>Aimed resolution:</b> a target within {yd(torp.automatic_within_yd)} "
            f"yd, making {torp.slow_target_kn} kn or less, or attacked from the air "
            "needs no crossing: lay the track through it and roll.",
        "<b>Crossing:</b> otherwise roll only if ship and torpedo reach it in "
            "the same half of their moves.",
        f"<b>Spread:</b> runs {per_turn} yd a turn"
            f"{default_label(is_default(runs))}; {yd(width.one_turn)} "
            f"yd wide at the end ({yd(width.one_turn / 2)} halfway), "
            f"{yd(width.two_turn)} after a two-turn torpedo's second turn.",
        f"<b>Damage:</b> penetration factor {pens}; (D) always damages. "
            f"{_torpedo_duds(tables)} A torpedo dud never damages, even at the last "
            "column.")
    # The runs carry their own inline DEFAULT tag: a user who replaces the hits table
    # should see the heading say so without the runs table muddying it.
    return Section("TORPEDO FIRE RESOLUTION", ("torpedo_hits", "torpedo_penetration"), body)


def _torpedo_duds(tables: Tables) -> str:
    torp = tables.card.torpedo_hits
    extra = [f"{face_run(rule.faces)} for {escape(rule.nation)} through {rule.through_year}"
             for rule in torp.extra_duds]
    text = f"Coloured {tables.card.penetration.dud_face} is a dud"
    return f"{text}, also {join(extra)}." if extra else f"{text}."


DC_MEANING = {
    "R": "repaired one level and under control",
    "C": "under control, no repair",
    "O": "still out of control; roll again next turn",
    "W": "one level worse, still out of control",
}


def damage_control(tables: Tables, col_mm: float) -> Section:
    """Good and Poor tables, the re-rolls, the resolved odds and who has which."""
    dc = tables.card.damage_control
    calc = Calculator(tables)
    faces = range(1, 7)
    rows = [["Die", *map(str, faces)],
            ["Good", *[dc.good[f] for f in faces]],
            ["Poor", *[dc.poor[f] for f in faces]]]
    grid = table(rows, even(col_mm, 12, 6), size=8.2, bold=range(1, 7))
    odds = "; ".join(
        f"<b>{quality.title()}</b> " + " · ".join(
            f"{k} {pct(v)}" for k, v in calc.damage_control(quality).items())
        for quality in ("good", "poor"))
    meanings = "; ".join(f"<b>{code}</b> {text}" for code, text in DC_MEANING.items())
    rerolls = "; ".join(
        f"<b>{escape(name)}</b> roll again: {face_run(r.faces)} gives {escape(r.then)}, "
        f"anything else {escape(r.otherwise)}"
        for name, r in dc.rerolls.items())
    body = explained(
        grid, 1.2,
        meanings + ".",
        rerolls + ".",
        f"<b>Final odds</b> with the re-rolls played out: {odds}.",
        "Once damage is under control the ship stops rolling and cannot be "
            "repaired further.",
        _dc_navies(tables))
    return Section("DAMAGE CONTROL", ("damage_control",), body)


def _dc_navies(tables: Tables) -> str:
    rules = tables.rules.damage_control
    dated = [f"{escape(nation)} from {day:%b %Y}"
             for nation, day in sorted(rules.good_from.items(), key=lambda kv: kv[1])]
    return (f"<b>Good:</b> {escape(', '.join(rules.always_good))} always; {join(dated)}. "
            "<b>Poor:</b> every other navy (and those before their date).")


def aa_results(tables: Tables, col_mm: float) -> Section:
    """The Antiaircraft Results table exactly as the YAML has it, and its shifts."""
    aa = tables.card.aa_results
    n = len(aa.columns)
    rows: list[list[str | None]] = [["", "Total AA factor of the group", *[None] * (n - 1)],
                                    ["Die", *map(str, aa.columns)]]
    for face in sorted(aa.rows, reverse=True):
        rows.append([str(face), *[NO_EFFECT if c == "-" else c for c in aa.rows[face]]])
    grid = table(rows, even(col_mm, 11, n), head_rows=2, size=8, spans=[(0, 1, n)],
                 bold=range(1, n + 1))
    rules = tables.rules.aa_factor
    planes = tables.card.air.element_planes
    shifts = [f"{s.columns} column{'s' if s.columns != 1 else ''} right for "
              f"{escape(_phrase(s.attackers))}" for s in aa.shifts]
    body = explained(
        grid, 1.2,
        f"Read the highest column the group's total reaches; under "
            f"{aa.columns[0]} there is no AA fire. <b>X</b>: one {planes}-plane "
            "element shot down.",
        "<b>Shift</b> " + "; ".join(shifts) + ". Past the last column read the "
            "last.",
        f"<b>AA factor:</b> 1 per {rules.guns_per_point} dual-purpose guns of "
            f'{rules.min_bore_in:g}" to {rules.max_bore_in:g}" in the group. A '
            "destroyer attacked on the fringe gets only half the AA of the bigger "
            "ships.",
        "Low-level attackers, dive bombers among them, are fired on before and "
            "again after they attack.")
    return Section("ANTIAIRCRAFT RESULTS", ("aa_results", "aa_factor"), body)


def _phrase(attackers: str) -> str:
    """'Torpedo bombers; heavy bombers' as a run-on list: 'torpedo bombers, heavy bombers'."""
    text = attackers.replace("; ", ", ")
    # Lower an initial capital only where it is not an acronym ("US", "B-17").
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        text = text[0].lower() + text[1:]
    return text


def aircraft(tables: Tables) -> Section:
    """Air combat odds, elements and the three kinds of bombing."""
    air = tables.card.air
    odds = " · ".join(f"{escape(name)} {a}:{b}" for name, (a, b) in air.combat_odds.items())
    dive, torp, level = air.dive_bombing, air.torpedo_bombing, air.level_bombing
    bombs = tables.rules.bomb_caliber
    old = tables.card.penetration.shift_up.bomb_vs_old
    body: list[Block] = [
        bullet(f"<b>Elements</b> of {air.element_planes} planes by type; round "
                f"fractions. <b>Air combat</b> shoot-down odds: {odds}."),
        bullet(f"<b>Dive bombing:</b> torpedo-hits column {dive.column} (target over 24 "
                f"kn: {dive.over_24_kn}; over 31 kn: {dive.over_31_kn}). Bomb factor "
                f"{bombs.default}, US dive bombers {bombs.us_dive_bomber}; "
                f"{old} row up against O armor. {_bad_visibility_dive(tables)}"),
        bullet(f"<b>Torpedo bombers:</b> aimed resolution on column {torp.column}, "
                f'{torp.size_in}" torpedoes, reach {yd(torp.range_yd)} yd.'),
        bullet(f"<b>Level bombing:</b> every {level.high} planes at high level "
                f"({level.medium} at medium, {level.low} at low) get {level.in_six} in 6 "
                f"of one factor-{level.caliber} hit. High bombers are safe from AA, not "
                "from fighters."),
        bullet(f"A ship evading at over {air.evasive_over_kn} kn moves bombing one "
                "column worse."),
    ]
    return Section("AIRCRAFT", ("air", "bomb_caliber"), body)


def _bad_visibility_dive(tables: Tables) -> str:
    """What dive bombers do in bad visibility, from the tables in force."""
    if tables.card.air.dive_bombing.bad_visibility == "none":
        return "No attack in bad visibility."
    shift = torpedo_bomber_shift(tables.card.aa_results.shifts)
    return (f"Bad visibility: glide-bomb, AA {shift} col. right as on torpedo bombers.")


def _radar_chance(radar: RadarDetection) -> str:
    """The radar roll as a rule, marked DEFAULT when the reading is quarterdeck's.

    The text's "1:6" reads either way; a player's card names no option (the referee's
    page says how to replace the reading).
    """
    first, second = radar.in_six, radar.land_behind_second_in_six
    verb = "detects" if radar.reading == "detect" else "fails"
    return (f"{verb} {first} in 6 a turn (land behind it: {first}, then {second} in "
            f"6){default_label(is_default(radar))}.")


def night_and_radar(tables: Tables, col_mm: float) -> Section:
    """Visual detection by navy, regaining contact, and radar."""
    night = tables.card.night_detection
    ranges = sorted({d.within_yd for d in [*night.JP, *night.other]}, reverse=True)
    rows = [["Navy", *[f"≤{yd(r)}" for r in ranges]]]
    for name, steps in (("Japanese", night.JP), ("Others", night.other)):
        cells = []
        for r in ranges:
            # A range band holds the best chance of any band it lies inside.
            inside = [d.in_six for d in steps if d.within_yd >= r]
            cells.append(in_six(max(inside)) if inside else NO_EFFECT)
        rows.append([name, *cells])
    grid = table(rows, even(col_mm, 17, len(ranges)))
    radar = night.radar
    body = [para("Chance per turn to spot an unseen group, rolled per group (yd):", "note")]
    body += explained(
        grid, 1,
        f"Regaining a lost contact: +{night.regain_bonus} to the chance. A ship "
            "with D or HD damage is seen at any range.",
        f"<b>Radar:</b> SC {yd(radar.SC)} yd, SG {yd(radar.SG)} yd; "
            f"{_radar_chance(radar)}")
    return Section("NIGHT DETECTION AND RADAR", ("night_detection",), body)


def weather(tables: Tables, col_mm: float) -> Section:
    """Visibility limits and the roll; sea states."""
    vis = tables.card.visibility
    faces = sorted(vis.roll)
    roll = table([["Die", *map(str, faces)],
                  ["Yd", *[signed(vis.roll[f] / 1000) + "k" if vis.roll[f] else "0"
                           for f in faces]]],
                 even(col_mm, 11, len(faces)))
    seas = tables.card.seas
    sea_rows = [["Sea", "Ships", "Accuracy", "Speed"]]
    for state, effects in (("Rough", seas.rough), ("Very rough", seas.very_rough)):
        for effect in effects:
            sea_rows.append([state, effect.sizes, signed(effect.accuracy),
                             f"× {effect.speed}"])
    sea_grid = table(sea_rows, [16, col_mm - 16 - 16 - 14, 16, 14],
                     aligns=["center", "left", "center", "center"])
    body: list[Block] = [
        bullet(f"<b>Good:</b> {yd(vis.good_yd)} yd, or the longest gun range of a ship "
                f"no worse than D, if longer. <b>Poor:</b> up to {yd(vis.poor_yd)} yd. "
                f"<b>Bad:</b> up to {yd(vis.bad_yd)} yd. Poor and bad: roll each turn "
                "for the change, that turn only:"),
        gap(0.8),
        roll,
        gap(1.5),
        sea_grid,
        gap(0.8),
        para("Accuracy: also modifiers on the front. Sea and visibility need not match.",
           "note"),
    ]
    return Section("VISIBILITY AND SEAS", ("visibility", "seas"), body)


def turning(tables: Tables, col_mm: float) -> Section:
    """Move lost per turn step at the named table scales."""
    costs = tables.card.turn_costs
    scales = [NAMED_SCALES[name] for name in SCALES_SHOWN]
    rows = [["Scale", *[f"{s.label} {s.yards_text()} yd/{s.unit}" for s in scales]],
            [f"Per {costs.per_degrees}°",
             *[f"{costs.lost(s.yards_per_unit):g} {s.unit} lost" for s in scales]]]
    grid = table(rows, even(col_mm, 14, len(scales)), bold=range(1, len(scales) + 1))
    return Section("TURNING", ("turn_costs",), noted(grid, 0.8, (
        f"Each {costs.per_degrees}° of turn, or part of it, shortens the move by the "
        "amount shown.")))


def submarines(tables: Tables, col_mm: float) -> Section:
    """Depths, detection and attack chances by depth."""
    sub = tables.card.submarines

    def cell(found: dict[str, list[int]], depth: str) -> str:
        return face_run(found[depth]) if depth in found else NO_EFFECT

    rows = [["Depth", *sub.depths]]
    rows += [[name, *[cell(found, d) for d in sub.depths]]
             for name, found in (("Hydrophone", sub.hydrophone), ("Sonar", sub.sonar),
                                 ("Hedgehog", sub.hedgehog))]
    grid = table(rows, even(col_mm, 18, len(sub.depths)), size=7.8)
    speeds = ", ".join(f"{escape(mode)} {kn} kn" for mode, kn in sub.speed_kn.items())
    depths = ", ".join(f"{escape(d)} ({DEPTH_NAMES[d]})" if d in DEPTH_NAMES else escape(d)
                       for d in sub.depths)
    patterns = sub.depth_charge_patterns
    body = [para("Die rolls that detect (hydrophone, sonar) or sink (hedgehog), by depth:",
                 "note")]
    body += explained(
        grid, 1,
        f"Depths {depths}; one level a turn. Speed {speeds}. Crushed on "
            f"{sub.crush_2d6} with two dice: a U-boat in Ab, any other in T.",
        f"Hydrophones within {yd(sub.hydrophone_max_yd)} yd (roll "
            f"−{sub.hydrophone_roll_minus.get('slow_4kn', 0)} if the boat makes 4 kn or "
            f"less, −{sub.hydrophone_roll_minus.get('stopped', 0)} if stopped); sonar "
            f"beyond {yd(sub.sonar_min_yd)} yd; one of the two per turn, instead of "
            "firing.",
        f"<b>Depth charges:</b> pass over the boat and name a depth; right depth "
            f"and an odd die sinks her. Patterns: destroyer {patterns['destroyer']}, "
            f"escort {patterns['escort']}."
            if {"destroyer", "escort"} <= set(patterns) else
            "<b>Depth charges:</b> pass over the boat and name a depth; right depth "
            "and an odd die sinks her.",
        f"<b>Hedgehog</b> (1943 on): sinks on the die shown; "
            f"{patterns.get('hedgehog', 0)} patterns, one a turn.")
    return Section("SUBMARINES", ("submarines",), body)


def comparative_strength(tables: Tables, col_mm: float) -> Section:
    """CS values by type, in two rows, and the victory use."""
    cs = tables.rules.comparative_strength_by_type
    types = list(cs)
    per_row = min(CS_PER_ROW, len(types))
    body: list[Block] = []
    for start in range(0, len(types), per_row):
        # Each run of types is a table of its own, the types its header.
        chunk = types[start:start + per_row]
        padded = chunk + [""] * (per_row - len(chunk))
        # Typical values: each ship's own CS, from her facts, is on her status sheet.
        row = ["Typical", *[f"{cs[t]:g}" if t else "" for t in padded]]
        body += [table([["Type", *padded], row], even(col_mm, 10, per_row)), gap(1)]
    share = tables.card.victory.heavy_damage_share
    body += [
        para("A sunk ship gives the CS on her status sheet to the enemy, an HD ship "
           f"{share[0]}/{share[1]} of it. Where the scenario calls for the ratio, multiply the "
           "stronger side's losses by the ratio of CS totals ("
           f"{', '.join(t.value for t in tables.rules.strength_leaves_out)} left out).",
           "note"),
    ]
    return Section("COMPARATIVE STRENGTH", ("comparative_strength_by_type", "victory"), body)


def back_sections(tables: Tables, col_mm: float) -> list[Section]:
    """The back's sections in reading order (left column, then right)."""
    air = aa_results(tables, col_mm)
    air.new_column = True
    return [torpedo_fire(tables, col_mm), damage_control(tables, col_mm),
            submarines(tables, col_mm), turning(tables, col_mm), air, aircraft(tables),
            night_and_radar(tables, col_mm), weather(tables, col_mm),
            comparative_strength(tables, col_mm)]
