"""Basic, special and aircraft damage, worked out exactly from ``rules.yaml``.

A hit rolls the basic damage d10 plus the target's and the weapon's damage modifiers,
the target's current level and (an aircraft) its damage markers; the score reads a
level. Each working weapon or system then rolls a d10 against that level's knock-out
score, and speed and MVR each roll against the level's trigger, then a further d10 for
how much is lost. Light damage or worse also rolls a special damage d10.
"""

from __future__ import annotations

from fractions import Fraction

from generator.rules import dice
from generator.rulesets.modern_naval.modifiers import Breakdown, at_least, evaluate, total
from generator.rulesets.modern_naval.tables import LEVELS, Tables, die_sides


def modifiers(tables: Tables, *, target_damage: int, weapon_damage: int,
              state: str = "intact", aircraft_markers: int = 0,
              aircraft: bool = False) -> Breakdown:
    """The basic damage roll's modifiers for one hit."""
    return evaluate(tables.basic_damage.modifiers, {
        "target_damage": target_damage, "weapon_damage": weapon_damage, "state": state,
        "aircraft_markers": aircraft_markers if aircraft else None})


def score_odds(tables: Tables, modifier: int) -> dict[int, Fraction]:
    """The modified basic damage score's distribution."""
    return dice.distribution(dice.d(die_sides(tables.basic_damage.die)) + modifier)


def level_odds(tables: Tables, modifier: int) -> dict[str, Fraction]:
    """Chance of each damage level (every level listed, least first)."""
    out = {key: Fraction(0) for key in LEVELS}
    for score, p in score_odds(tables, modifier).items():
        out[tables.basic_damage.level(score).key] += p
    return out


def knock_out(tables: Tables, modifier: int) -> Fraction:
    """Chance one working weapon or system is knocked out by the hit."""
    sides = die_sides(tables.basic_damage.die)
    out = Fraction(0)
    for key, p in level_odds(tables, modifier).items():
        level = tables.basic_damage.by_key(key)
        if level.knock_out is not None:
            out += p * at_least(sides, 0, level.knock_out)
    return out


def mobility_odds(tables: Tables, modifier: int, what: str = "speed") -> dict[float, Fraction]:
    """Distribution of the speed lost (levels) or MVR added (cm) by one hit.

    Speed and MVR are rolled separately but read the same level, so each has this
    distribution on its own. A wrecked vessel no longer moves under power: its loss is
    not counted here (the level says it drifts).
    """
    sides = die_sides(tables.basic_damage.die)
    out: dict[float, Fraction] = {0: Fraction(0)}
    for key, p in level_odds(tables, modifier).items():
        mobility = tables.basic_damage.by_key(key).mobility
        if mobility is None:
            out[0] += p
            continue
        trigger = at_least(sides, 0, mobility.trigger)
        out[0] += p * (1 - trigger)
        for roll in mobility.rolls:
            amount = float(roll.speed if what == "speed" else roll.mvr_cm)
            share = Fraction(roll.high - roll.low + 1, sides)
            out[amount] = out.get(amount, Fraction(0)) + p * trigger * share
    return {k: v for k, v in sorted(out.items()) if v}


def special_odds(tables: Tables, modifier: int, optional_fire: bool = False
                 ) -> dict[str, Fraction]:
    """Chance of each special damage result from one hit (``none`` includes no roll).

    Args:
        tables: The rules tables.
        modifier: The basic damage roll's modifier.
        optional_fire: Play the optional rule (a 1 starts a fire when weapons were lost);
            the chance given for it is that of rolling the 1, before asking whether
            weapons were lost.

    """
    special = tables.special_damage
    sides = die_sides(special.die)
    levels = level_odds(tables, modifier)
    rolled = sum((p for key, p in levels.items()
                  if LEVELS.index(key) >= LEVELS.index(special.from_level)), Fraction(0))
    out: dict[str, Fraction] = {r.key: Fraction(0) for r in special.results
                                if optional_fire or not r.optional}
    face_of: dict[int, str] = {}
    for result in special.results:
        for face in result.faces():
            # The optional result takes its face from the row it shares it with.
            if result.optional and optional_fire:
                face_of[face] = result.key
            elif not result.optional:
                face_of.setdefault(face, result.key)
    for face in range(1, sides + 1):
        out[face_of[face]] += rolled * Fraction(1, sides)
    out["none"] += 1 - rolled
    return out


def aircraft_odds(tables: Tables, modifier: int) -> dict[str, Fraction]:
    """An aircraft's fate from one hit: ``continues``, ``leaves`` (may return) or ``lost``."""
    rule = tables.aircraft_damage
    levels = level_odds(tables, modifier)
    return {"continues": sum((levels[k] for k in rule.continues), Fraction(0)),
            "leaves": sum((levels[k] for k in rule.leaves_and_may_return), Fraction(0)),
            "lost": sum((levels[k] for k in rule.lost), Fraction(0))}


def hit_modifier(tables: Tables, *, target_damage: int, weapon_damage: int,
                 state: str = "intact", aircraft_markers: int = 0,
                 aircraft: bool = False) -> int:
    """The total basic damage modifier of one hit."""
    return total(modifiers(tables, target_damage=target_damage, weapon_damage=weapon_damage,
                           state=state, aircraft_markers=aircraft_markers, aircraft=aircraft))
