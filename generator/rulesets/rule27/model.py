"""The order of battle as counters: each checked against the text's groupings and rated.

``counters_of`` turns a scenario into ``CounterView`` rows (type, ships, strength, AA,
movement, half side) and collects located problems for everything the text forbids: a
pair type with an odd number of ships, a flotilla outside 4-6, a strength of 0 on a
combat ship, a ship named twice, a ship not in commission on the date.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from generator.core.errors import Problem
from generator.core.suggest import did_you_mean
from generator.core.units import MM, parse_length
from generator.data.yamlsource import Loc, SourceDoc
from generator.rulesets.rule27.rating import strength as counter_strength
from generator.rulesets.rule27.schema import COMBAT, Counter, Rule27Class, Scenario, ShipRef
from generator.rulesets.rule27.tables import NavalTables

PAIR_WORDS = {2: "a pair", 4: "four"}
HEX_MIN_MM = 5.0
COUNTER_MIN_MM, COUNTER_MAX_MM = 6.0, 40.0


def round_half_up(value: Fraction) -> int:
    """Round a fraction to the nearest whole number, halves up."""
    return int((value + Fraction(1, 2)) // 1)


@dataclass(frozen=True)
class ShipOf:
    """One ship of a counter: her class and name."""

    class_id: str
    name: str


@dataclass(frozen=True)
class CounterView:
    """One counter as printed (``count`` copies)."""

    id: str
    side: str
    force: str
    type: str
    category: str
    ships: tuple[ShipOf, ...]
    label: str
    strength: int
    aa: int
    move: int
    half: bool
    count: int
    nation: str
    overridden: tuple[str, ...] = ()
    number: int = 1
    """The counter's number on its side's order of battle (printed on the counter when
    its names do not fit it)."""
    short: str | None = None
    """The scenario's short form of the counter's name (it keeps the name's numerals)."""
    akas: tuple[tuple[str, ...], ...] = ()
    """Each ship's shorter spellings from her class file, made of her name's own words."""
    note: str | None = None
    """The scenario's note on the counter (printed on the order of battle)."""

    @property
    def names(self) -> list[str]:
        """The ships' names, or the counter's label when it names none."""
        return [s.name for s in self.ships] or [self.label]

    @property
    def titled(self) -> str:
        """The ships as the order of battle lists them: the counter's own name first."""
        joined = ", ".join(self.names)
        return f"{self.label}: {joined}" if self.ships and self.label != " / ".join(
            self.names) else joined


@dataclass
class OrderOfBattle:
    """Every side's counters, in order, and the problems found making them."""

    counters: dict[str, list[CounterView]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    counter_size: float = 0.5 * 72
    hex: float = 16 * MM


def length_problem(doc: SourceDoc | None, loc: Loc, text: str, low_mm: float,
                   high_mm: float, what: str) -> tuple[float | None, Problem | None]:
    """Parse a length the user gave; a located problem when it is not one or out of range."""
    try:
        value = parse_length(_decimal(text))
    except ValueError:
        message = f"found {text!r}, expected a length such as '16mm', '0.5in' or '5/8in'"
        return None, _problem(doc, loc, message)
    if not low_mm * MM - 1e-9 <= value <= high_mm * MM + 1e-9:
        message = (f"found {text!r}, expected {what} from {low_mm:g}mm to {high_mm:g}mm"
                   if value >= low_mm * MM else
                   f"found {text!r}, expected {what} of at least {low_mm:g}mm")
        return None, _problem(doc, loc, message)
    return value, None


_FRACTION = re.compile(r"^\s*(\d{1,3})\s*/\s*(\d{1,3})\s*([a-z\"]+)\s*$")


def _decimal(text: str) -> str:
    """'5/8in' as '0.625in': counter sizes are sold in fractions of an inch.

    The core length parser reads decimals only; a fraction is turned into one here, and
    anything else is passed on unchanged for that parser to accept or refuse.
    """
    match = _FRACTION.match(text)
    if match is None or int(match.group(2)) == 0:
        return text
    return f"{int(match.group(1)) / int(match.group(2))!r}{match.group(3)}"


def _problem(doc: SourceDoc | None, loc: Loc, message: str) -> Problem:
    if doc is None:
        return Problem("--" + str(loc[-1]).replace("_", "-"), 0, 0, "", message)
    return doc.problem(loc, message)


def _in_service(names: list[str], date: dt.date, facts: Any, name: str) -> str | None:
    ship = next((s for s in facts.ships if s.name == name), None)
    if ship is None:
        return None
    if ship.commissioned > date:
        return f"commissioned {ship.commissioned}"
    if ship.lost is not None and ship.lost <= date:
        return f"lost {ship.lost}"
    return None


def counters_of(scenario: Scenario, doc: SourceDoc, classes: dict[str, Any],
                tables: NavalTables) -> OrderOfBattle:
    """The order of battle's counters, and every problem, located in the scenario file.

    Args:
        scenario: The validated scenario.
        doc: Its source (for locations).
        classes: Rule 27's class entries by id (``library.classes_of('rule-27')``).
        tables: The naval tables in force.

    """
    oob = OrderOfBattle()
    size, problem = length_problem(doc, ("counter_size",), scenario.counter_size,
                                   COUNTER_MIN_MM, COUNTER_MAX_MM, "a counter size")
    if problem:
        oob.problems.append(problem)
    oob.counter_size = size or oob.counter_size
    hex_size, problem = length_problem(doc, ("hex",), scenario.hex, HEX_MIN_MM, 40.0,
                                       "a hex size")
    if problem:
        oob.problems.append(problem)
    oob.hex = hex_size or oob.hex
    seen: dict[tuple[str, str], str] = {}
    for si, side in enumerate(scenario.sides):
        views: list[CounterView] = []
        for fi, force in enumerate(side.forces):
            for ci, counter in enumerate(force.counters):
                loc: Loc = ("sides", si, "forces", fi, "counters", ci)
                view = _counter(counter, loc, doc, classes, tables, scenario.date, oob,
                                seen, side.id, force.name, len(views))
                if view is not None:
                    views.append(view)
        # Transports and landing craft name no ships: they take the side's navy.
        navy = next((v.nation for v in views if v.nation), "")
        oob.counters[side.id] = [v if v.nation else replace(v, nation=navy) for v in views]
    return oob


def rate_counter(kind: str, ratings: list[Rule27Class], tables: NavalTables) -> tuple[int, int]:
    """A counter's strength and AA from its ships' ratings, by the documented rules.

    AF and NT have the tables' fixed strength; carriers sum their air capacity; other
    types take ``rating.strength`` of the sum of their ships' points. AA is the sum of
    the ships' AA points, rounded half up.
    """
    row = tables.types[kind]  # type: ignore[index]
    if row.fixed_strength is not None:
        strength = row.fixed_strength
    elif kind in ("CV", "CVE"):
        strength = sum(r.air_capacity or 1 for r in ratings)
    else:
        strength = counter_strength(kind, sum((r.points for r in ratings), Fraction(0)))
    aa = round_half_up(sum((r.aa_points for r in ratings), Fraction(0)))
    return strength, aa


def _ships(counter: Counter, loc: Loc, doc: SourceDoc, classes: dict[str, Any],
           date: dt.date, oob: OrderOfBattle, seen: dict[tuple[str, str], str],
           ) -> list[tuple[ShipOf, Rule27Class]] | None:
    """The counter's ships with their ratings; None after recording a problem."""
    out: list[tuple[ShipOf, Rule27Class]] = []
    ok = True
    for i, item in enumerate(counter.ships):
        where: Loc = (*loc, "ships", i)
        if isinstance(item, ShipRef):
            class_id, name = item.class_, item.name
            class_loc: Loc = (*where, "class")
        else:
            class_id, name = counter.class_ or "", item
            class_loc = (*loc, "class")
            if counter.class_ is None:
                oob.problems.append(doc.problem(where, f"found ship '{name}' without a class, "
                                                       "expected a counter 'class' or "
                                                       "{class: ID, name: NAME}"))
                ok = False
                continue
        entry = classes.get(class_id)
        if entry is None:
            oob.problems.append(doc.problem(class_loc, f"found class '{class_id}', expected "
                                                       "a class Rule 27 rates"
                                                       f"{did_you_mean(class_id, classes)}"))
            ok = False
            continue
        rating: Rule27Class = entry.model
        real = rating.aka.get(name, name)
        if real not in rating.ship_names:
            oob.problems.append(doc.problem(where, f"found ship '{name}', expected a ship of "
                                                   f"class '{class_id}'"
                                                   f"{did_you_mean(name, rating.ship_names)}"))
            ok = False
            continue
        if entry.facts is not None:
            why = _in_service(rating.ship_names, date, entry.facts, real)
            if why:
                oob.problems.append(doc.problem(where, f"found '{real}' ({why}), expected a "
                                                       f"ship in commission on {date}"))
                ok = False
        key = (class_id, real)
        if key in seen:
            oob.problems.append(doc.problem(where, f"found '{real}' again (also at "
                                                   f"{seen[key]}), expected each ship once"))
            ok = False
        seen[key] = ".".join(str(p) for p in where)
        out.append((ShipOf(class_id, real), rating))
    return out if ok else None


def _counter(counter: Counter, loc: Loc, doc: SourceDoc, classes: dict[str, Any],
             tables: NavalTables, date: dt.date, oob: OrderOfBattle,
             seen: dict[tuple[str, str], str], side: str, force: str,
             index: int) -> CounterView | None:
    row = tables.types[counter.type]
    before = len(oob.problems)
    low, high = row.ships
    n = len(counter.ships)
    named = counter.type in COMBAT
    if named or n:
        if not low <= n <= high:
            want = str(low) if low == high else f"{low} to {high}"
            oob.problems.append(doc.problem((*loc, "ships"), f"found {n} ship"
                                            f"{'s' if n != 1 else ''}, expected {want} "
                                            f"(a {counter.type} counter is {row.title})"))
    if counter.count > 1 and named:
        oob.problems.append(doc.problem((*loc, "count"), f"found {counter.count}, expected 1 "
                                        f"(each {counter.type} counter names its own ships)"))
    ships = _ships(counter, loc, doc, classes, date, oob, seen)
    if counter.strength is not None:
        if counter.strength == 0 and named:
            oob.problems.append(doc.problem((*loc, "strength"), "found 0, expected a strength "
                                            f"of at least 1 (a {counter.type} is a combat ship: "
                                            "its strength is its damage strength)"))
        elif row.fixed_strength is not None and counter.strength != row.fixed_strength:
            oob.problems.append(doc.problem((*loc, "strength"), f"found {counter.strength}, "
                                            f"expected {row.fixed_strength} (the text gives "
                                            f"every {counter.type} {row.fixed_strength} point)"))
    if ships:
        wrong = [(i, r) for i, (_, r) in enumerate(ships) if r.type != counter.type]
        for i, rating in wrong:
            oob.problems.append(doc.problem((*loc, "ships", i), f"found '{ships[i][0].name}' "
                                            f"of class '{rating.id}' ({rating.type}), expected "
                                            f"a {counter.type} class"))
    if len(oob.problems) > before or ships is None:
        return None
    overridden = []
    strength, aa = rate_counter(counter.type, [r for _, r in ships], tables)
    if counter.strength is not None and row.fixed_strength is None:
        strength = counter.strength
        overridden.append("strength")
    if counter.aa is not None:
        aa = counter.aa
        overridden.append("aa")
    names = [s.name for s, _ in ships]
    label = counter.name or (" / ".join(names) if names else counter.type)
    nation = ships[0][1].nation if ships else ""
    akas = tuple(short_spellings(s.name, r.aka) for s, r in ships)
    return CounterView(
        id=f"{side}.{index + 1:02d}", side=side, force=force, type=counter.type,
        category=row.category, ships=tuple(s for s, _ in ships), label=label,
        strength=strength, aa=aa, move=row.move, half=row.half, count=counter.count,
        nation=nation, overridden=tuple(overridden), number=index + 1, short=counter.short,
        akas=akas, note=counter.note)


def short_spellings(name: str, aka: dict[str, str]) -> tuple[str, ...]:
    """A ship's other spellings that are her name cut short, longest first.

    Only a spelling made of her name's own words, in order ("Bande Nere" of "Giovanni
    delle Bande Nere", "Cavour" of "Conte di Cavour"), is a short form a counter may
    print; a former name or a translation is another name, never a shortening.
    """
    words = name.casefold().split()

    def within(other: str) -> bool:
        part = other.casefold().split()
        return 0 < len(part) < len(words) and any(
            words[i:i + len(part)] == part for i in range(len(words) - len(part) + 1))

    found = [a for a, real in aka.items() if real == name and within(a)]
    return tuple(sorted(found, key=lambda a: (-len(a), a)))
