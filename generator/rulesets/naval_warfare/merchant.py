"""The merchant war in Naval Warfare 1942-45: odds columns, colours and losses, exactly.

Raiders (the interdicting force) attack a route defended by escorts. The odds are the
raiders' total commerce attack against the escorts' total commerce defence, rounded in
the escorts' favour; under 1:3 nothing happens. Each side rolls a d6; the escorts' roll
is taken from the raiders', Advantage Card bonuses added, and the colour table gives a
colour for that difference in the odds column (after column shifts). The loss table
turns the colour into step losses for both forces (a per cent of the enemy's CV,
rounded down) and Tonnage Points lost (per interdicting unit, rounded down).

Readings of what the text leaves open (all listed in ``docs/naval-warfare-rules.md``):

- An *interdicting unit* is a raider unit whose commerce attack is above 0 (a carrier
  group adds nothing; its Air Point is a unit of its own).
- German submarines (nation DE) read the German line of the tonnage columns and every
  other interdicting unit the other line, each rounded down on its own.
- Raiders lose at the submarine rate when every raider is a submarine flotilla, else
  at the surface rate.
- Step losses stop at the steps a force has: 2 a ship unit (1 once damaged), 1 an Air
  Point (removed at its first step).
- A surface raider outclasses escorts when its class is stronger than the best surface
  class among them (heavy ship over light cruiser over escort); escorts with no
  surface unit are not outclassed.

Everything is computed from ``tables/merchant.yaml`` (modelled in ``merchanttables.py``)
and the unit table.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from generator.core.errors import UsageError
from generator.core.suggest import did_you_mean
from generator.rules import dice
from generator.rules.dietable import parse_rolls
from generator.rulesets.naval_warfare.merchanttables import (
    COLOURS,
    MAX_TEXT,
    Example,
    ForceText,
    MerchantTables,
    rate,
)
from generator.rulesets.naval_warfare.units import UnitType

MAX_UNITS = 500
"""The most units of one force the calculator takes."""


# -- forces ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    """Some units of one type, undamaged or damaged.

    ``empty`` marks carrier groups that have lost their Air Point; ``carried`` marks
    Air Points the force did not list but its undamaged carrier groups carry.
    """

    unit: UnitType
    count: int
    damaged: bool = False
    empty: bool = False
    carried: bool = False

    def value(self, which: Literal["fleet", "attack", "defence"]) -> int:
        """Fleet, commerce attack or defence CV of the group (damaged: half, rounded down)."""
        one: int = getattr(self.unit, which)
        return self.count * (one // 2 if self.damaged else one)

    def label(self) -> str:
        """``"4 submarine"``, ``"1 damaged escort"``, ``"3 air (carried)"``."""
        state = "damaged " if self.damaged else "empty " if self.empty else ""
        return (f"{self.count} {state}{self.unit.id}"
                + (" (carried)" if self.carried else ""))


@dataclass(frozen=True)
class Force:
    """One side of a merchant engagement."""

    groups: tuple[Group, ...] = ()
    nation: str = ""
    notes: tuple[str, ...] = ()
    """What the calculator read into the force (the Air Points its carriers carry)."""

    def cv(self, which: Literal["fleet", "attack", "defence"]) -> int:
        """Total fleet, commerce attack or commerce defence CV."""
        return sum(g.value(which) for g in self.groups)

    def steps(self, air_points: list[str]) -> int:
        """Steps the force can lose: 2 a ship unit, 1 once damaged, 1 an Air Point or land."""
        return sum(g.count * (1 if g.damaged or g.unit.kind != "ship"
                              or g.unit.id in air_points else 2)
                   for g in self.groups)

    def air(self, air_points: list[str]) -> int:
        """How many Air Points the force holds."""
        return sum(g.count for g in self.groups if g.unit.id in air_points)

    def describe(self) -> str:
        """The force as written back (``"4 submarine, 2 escort"``), or ``"none"``."""
        return ", ".join(g.label() for g in self.groups) or "none"


_ITEM = re.compile(r"^\s*(?:(\d{1,4})\s*[x×]?\s+)?((?:damaged|empty)\s+)?(.+?)\s*$",
                   re.IGNORECASE | re.DOTALL)


def quoted(text: str) -> str:
    """User text for a one-line message: control characters escaped, at most 40 characters."""
    cut = text[:40] + ("..." if len(text) > 40 else "")
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in cut)


def _unit_id(word: str, units: dict[str, UnitType]) -> str | None:
    key = re.sub(r"[\s_]+", "-", word.strip().casefold())
    for candidate in (key, key.removesuffix("s"), key.removesuffix("es")):
        if candidate in units:
            return candidate
    by_name = {u.name.casefold(): u.id for u in units.values()}
    return by_name.get(word.strip().casefold())


def parse_force(text: str, units: dict[str, UnitType], nation: str, option: str,
                national: dict[str, str] | None = None) -> tuple[Force, list[str]]:
    """A force as a player writes it: ``"4 submarine, 1 damaged escort, light-cruiser"``.

    Counts come first (1 if left out), then ``damaged`` if the units are, then a unit
    id (case, spaces for hyphens and a plural ``s`` are forgiven). A nation with
    submarines of its own (``national``: JP) reads ``submarine`` as its own kind.

    Returns:
        The force and every problem found (each a ``--option: found X, expected Y``).

    """
    problems: list[str] = []
    if len(text) > MAX_TEXT:
        return Force(nation=nation), [f"{option}: found {len(text)} characters, expected at "
                                      f"most {MAX_TEXT}"]
    groups: list[Group] = []
    own = (national or {}).get(nation.upper())
    for raw in [p for p in re.split(r"[,;+]", text) if p.strip()]:
        shown = raw.strip()
        match = _ITEM.match(raw)
        assert match is not None  # the pattern takes any non-blank text
        count = int(match.group(1)) if match.group(1) else 1
        word = match.group(3)
        unit_id = _unit_id(word, units)
        if unit_id is None:
            problems.append(f"{option}: found unit '{quoted(word)}' in '{quoted(shown)}', "
                            f"expected a unit type: {', '.join(units)}"
                            f"{did_you_mean(word[:40], units)}")
            continue
        if count < 1:
            problems.append(f"{option}: found a count of {count} in '{quoted(shown)}', "
                            "expected 1 or more")
            continue
        if own is not None and unit_id == "submarine" and own in units:
            unit_id = own
        state = (match.group(2) or "").strip().casefold()
        if state == "empty" and units[unit_id].carries is None:
            problems.append(f"{option}: found 'empty' in '{quoted(shown)}', expected it only "
                            "before a carrier group (one that has lost its Air Point)")
            continue
        groups.append(Group(units[unit_id], count, state == "damaged", state == "empty"))
    total = sum(g.count for g in groups)
    if total > MAX_UNITS:
        problems.append(f"{option}: found {total} units, expected at most {MAX_UNITS}")
    return embark(Force(tuple(groups), nation.upper()), units), problems


def embark(force: Force, units: dict[str, UnitType]) -> Force:
    """The force with the Air Points its carrier groups carry, when it did not list them.

    The text: a Fleet (or Escort) Carrier Group "carries a single Air Point", and a
    damaged one can carry none. Air Points the force lists fill its undamaged carriers
    first (any beyond them fly from land); each carrier left without one gets its own,
    added as a carried group and said in the force's notes. A carrier written ``empty``
    has lost its Air Point and gets none.
    """
    groups = list(force.groups)
    notes = list(force.notes)
    for carrier_id, carrier in units.items():
        if carrier.carries is None or carrier.carries not in units:
            continue
        carrying = sum(g.count for g in groups if g.unit.id == carrier_id
                       and not (g.damaged or g.empty))
        listed = sum(g.count for g in groups if g.unit.id == carrier.carries)
        missing = carrying - listed
        if missing <= 0:
            continue
        air = units[carrier.carries]
        groups.append(Group(air, missing, carried=True))
        article = "an" if carrier.name[:1] in "AEIOU" else "a"
        notes.append(f"{carrying} {carrier_id} carr{'y' if carrying != 1 else 'ies'} "
                     f"{carrying} Air Point{'s' * (carrying != 1)} ({article} {carrier.name} "
                     "carries "
                     f"one); {missing} not listed, added as {missing} {air.id} "
                     f"({air.fleet}-{air.attack}-{air.defence} each; write 'empty "
                     f"{carrier_id}' for one that has lost it)")
    return Force(tuple(groups), force.nation, tuple(notes))


# -- one engagement --------------------------------------------------------------------


@dataclass(frozen=True)
class Engagement:
    """A stated merchant engagement: both forces and the shifts and bonuses in play."""

    raiders: Force
    escorts: Force
    air_supremacy: Literal["raiders", "escorts"] | None = None
    shift: int = 0
    """Further column shifts in the raiders' favour (Advantage Cards; negative: escorts')."""
    modifier: int = 0
    """Net die-roll bonus to the raiders (their cards less the escorts')."""


@dataclass(frozen=True)
class Outcome:
    """What one colour costs both sides in a given engagement, with its arithmetic."""

    colour: str
    tonnage: int
    tonnage_text: str
    escort_raw: Fraction
    escort_steps: int
    escort_text: str
    raider_raw: Fraction
    raider_steps: int
    raider_text: str


@dataclass(frozen=True)
class Setup:
    """An engagement worked out up to the roll: strengths, odds column and shifts."""

    raider_cv: int
    escort_cv: int
    ratio_column: int | None
    """The odds column before shifts (None: odds under the first column, no combat)."""
    shifts: list[tuple[str, int]] = field(default_factory=list)
    column: int | None = None
    """The column read, after shifts."""
    german: int = 0
    other: int = 0
    subs_only: bool = False

    @property
    def combat(self) -> bool:
        """Whether there is a combat at all."""
        return self.column is not None


class Calculator:
    """Merchant warfare worked out from the tables in force and the unit table."""

    def __init__(self, tables: MerchantTables, units: dict[str, UnitType]) -> None:
        self.tables = tables
        self.units = units
        self.table = tables.colour_table.table

    def force(self, text: str, nation: str, option: str) -> tuple[Force, list[str]]:
        """Parse a force (see ``parse_force``)."""
        return parse_force(text, self.units, nation, option, self.tables.national_submarines)

    # -- up to the roll -----------------------------------------------------------------

    def _submarines(self) -> set[str]:
        return {self.tables.german_submarines.unit, *self.tables.national_submarines.values()}

    def outclassed(self, raiders: Force, escorts: Force) -> bool:
        """Whether a surface raider outclasses the escorts' best surface class."""
        ranks = {u: i for i, u in enumerate(self.tables.surface_classes)}
        best_raider = min((ranks[g.unit.id] for g in raiders.groups if g.unit.id in ranks),
                          default=None)
        best_escort = min((ranks[g.unit.id] for g in escorts.groups if g.unit.id in ranks),
                          default=None)
        return best_raider is not None and best_escort is not None and best_raider < best_escort

    def setup(self, engagement: Engagement) -> Setup:
        """Strengths, the odds column, the shifts in play and the column read."""
        raiders, escorts = engagement.raiders, engagement.escorts
        raider_cv, escort_cv = raiders.cv("attack"), escorts.cv("defence")
        shifts_table = self.table.shifts
        shifts: list[tuple[str, int]] = []
        if engagement.air_supremacy is not None:
            size = shifts_table.get("air-supremacy", 0)
            shifts.append((f"air supremacy ({engagement.air_supremacy})",
                           size if engagement.air_supremacy == "raiders" else -size))
        if self.outclassed(raiders, escorts):
            shifts.append(("escorts outclassed by a surface raider",
                           shifts_table.get("outclassed", 0)))
        if engagement.shift:
            shifts.append(("Advantage Cards", engagement.shift))
        ratio = None if raider_cv == 0 else self.table.ratio_column(raider_cv, escort_cv)
        column = None if ratio is None else self.table.shifted(ratio, sum(s for _, s in shifts))
        german_unit, german_nation = (self.tables.german_submarines.unit,
                                      self.tables.german_submarines.nation)
        german = other = 0
        for g in raiders.groups:
            if g.value("attack") <= 0:
                continue
            if g.unit.id == german_unit and raiders.nation == german_nation.upper():
                german += g.count
            else:
                other += g.count
        subs = self._submarines()
        subs_only = bool(raiders.groups) and all(g.unit.id in subs for g in raiders.groups)
        return Setup(raider_cv, escort_cv, ratio, shifts, column, german, other, subs_only)

    def odds_text(self, setup: Setup) -> str:
        """The odds as the table heads them, with the exact ratio."""
        if setup.ratio_column is None:
            return f"{setup.raider_cv}:{setup.escort_cv}, under 1:3"
        return self.tables.colour_table.column_labels[setup.ratio_column]

    # -- the colour and its price -------------------------------------------------------

    def row_for(self, difference: int) -> tuple[str, str]:
        """The colour table's row (key and printed label) a modified difference reads."""
        roll = self.table.row_for(difference)
        for key, label, _ in self.tables.colour_table.ordered_rows():
            span = parse_rolls(key)
            if span is not None and span[0] <= roll <= span[1]:
                return key, label
        raise AssertionError("the rows cover every difference")  # checked on loading

    def colour(self, setup: Setup, difference: int) -> str:
        """The colour for a (modified) difference of the dice in the setup's column."""
        assert setup.column is not None
        return self.table.cell(difference, setup.column)

    def outcome(self, setup: Setup, engagement: Engagement, colour: str) -> Outcome:
        """Tonnage and step losses for one colour, with the arithmetic written out."""
        line = self.tables.losses[colour]  # type: ignore[index]
        german_rate, other_rate = rate(line.tonnage_german_subs), rate(line.tonnage_other)
        german = math.floor(setup.german * german_rate)
        other = math.floor(setup.other * other_rate)
        parts = []
        if setup.german:
            parts.append(f"{setup.german} German submarine flotilla"
                         f"{'s' if setup.german != 1 else ''} × {german_rate} = {german}")
        if setup.other:
            parts.append(f"{setup.other} other interdicting unit{'s' if setup.other != 1 else ''}"
                         f" × {other_rate} = {other}")
        tonnage = german + other
        tonnage_text = "; ".join(parts) or "no interdicting unit"
        if any(r.denominator != 1 for r, n in ((german_rate, setup.german),
                                               (other_rate, setup.other)) if n):
            tonnage_text += " (rounded down)"
        escort_pct = line.escort
        escort_raw = Fraction(escort_pct * setup.raider_cv, 100)
        escort_room = engagement.escorts.steps(self.tables.air_points)
        escort_steps = min(math.floor(escort_raw), escort_room)
        escort_text = (f"{escort_pct}% × raider CV {setup.raider_cv} = {_decimal(escort_raw)}, "
                       f"rounded down to {math.floor(escort_raw)}")
        if escort_steps < math.floor(escort_raw):
            escort_text += (f"; the escorts have only {escort_room} step"
                            f"{'s' * (escort_room != 1)}" if escort_room else
                            "; there are no escorts to lose them")
        raider_pct = line.raider_subs if setup.subs_only else line.raider_surface
        raider_raw = Fraction(raider_pct * setup.escort_cv, 100)
        raider_room = engagement.raiders.steps(self.tables.air_points)
        raider_steps = min(math.floor(raider_raw), raider_room)
        kind = "submarine" if setup.subs_only else "surface"
        raider_text = (f"{raider_pct}% ({kind} rate) × escort CV {setup.escort_cv} = "
                       f"{_decimal(raider_raw)}, rounded down to {math.floor(raider_raw)}")
        if raider_steps < math.floor(raider_raw):
            raider_text += f"; the raiders have only {raider_room} step{'s' * (raider_room != 1)}"
        return Outcome(colour, tonnage, tonnage_text, escort_raw, escort_steps, escort_text,
                       raider_raw, raider_steps, raider_text)

    # -- exact odds ---------------------------------------------------------------------

    def difference_odds(self, modifier: int = 0) -> dict[int, Fraction]:
        """The raiders' d6 less the escorts' d6, plus ``modifier``, exactly."""
        return dice.distribution(dice.d(6) - dice.d(6) + modifier)

    def colour_odds(self, column: int, modifier: int = 0) -> dict[str, Fraction]:
        """Chance of each colour (in the order R O Y B G) reading ``column``."""
        out = dict.fromkeys(self.table.results(), Fraction(0))
        for diff, p in self.difference_odds(modifier).items():
            out[self.table.cell(diff, column)] += p
        ordered = [c for c in COLOURS if c in out] + [c for c in out if c not in COLOURS]
        return {c: out[c] for c in ordered}

    def distribution(self, engagement: Engagement) -> tuple[Setup, dict[str, Fraction],
                                                            dict[str, Outcome]]:
        """The setup, each colour's chance and each colour's outcome for an engagement."""
        setup = self.setup(engagement)
        if setup.column is None:
            return setup, {}, {}
        chances = {c: p for c, p in self.colour_odds(setup.column, engagement.modifier).items()
                   if p}
        return setup, chances, {c: self.outcome(setup, engagement, c) for c in chances}

    def expected_rates(self, chances: dict[str, Fraction]) -> dict[str, Fraction]:
        """Expected loss-table rates over colour chances (before any rounding)."""
        keys = ("tonnage_german_subs", "tonnage_other", "escort", "raider_surface",
                "raider_subs")
        out = dict.fromkeys(keys, Fraction(0))
        for colour, p in chances.items():
            line = self.tables.losses[colour]  # type: ignore[index]
            for key in keys:
                value = getattr(line, key)
                out[key] += p * (rate(value) if isinstance(value, str) else Fraction(value))
        return out


def _decimal(value: Fraction) -> str:
    """A fraction as the text writes its arithmetic: ``2.4``, ``0``, ``4.8``."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0")


def roll_difference(raider_roll: int, escort_roll: int, modifier: int) -> int:
    """The modified difference of the dice (raiders' less escorts')."""
    for name, value in (("--raider-roll", raider_roll), ("--escort-roll", escort_roll)):
        if not 1 <= value <= 6:
            raise UsageError(f"{name}: found {value}, expected a d6 roll from 1 to 6")
    return raider_roll - escort_roll + modifier



# -- the text's worked examples --------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One figure of a worked example: ours from the unit table, and the text's."""

    name: str
    ours: str
    text: str
    note: str = ""

    @property
    def agrees(self) -> bool:
        """Whether the text's figure is the one the unit table gives."""
        return self.ours == self.text


@dataclass(frozen=True)
class Worked:
    """A worked example redone: the engagement, its setup and outcome, figure by figure."""

    example: Example
    engagement: Engagement
    setup: Setup
    difference: int
    outcome: Outcome | None
    figures: list[Figure]

    @property
    def disagreements(self) -> list[Figure]:
        """The figures where the text's arithmetic differs from the unit table."""
        return [f for f in self.figures if not f.agrees]


def _parts_note(calc: Calculator, parts: list[ForceText], nation: str,
                which: Literal["attack", "defence"]) -> str:
    """Where the text's per-part CVs differ from the unit table's, part by part."""
    notes = []
    for part in parts:
        force, problems = calc.force(part.units, nation, "example")
        if problems:
            raise UsageError("; ".join(problems))
        ours = force.cv(which)
        if ours != part.text_cv:
            detail = " + ".join(f"{g.label()} {g.value(which)}" for g in force.groups)
            notes.append(f"the text counts {force.describe()} as {part.text_cv}; the unit "
                         f"table gives {detail} = {ours}" + (f" ({part.note})" if part.note
                                                              else ""))
    return "; ".join(notes)


def work_example(calc: Calculator, example: Example) -> Worked:
    """Redo one worked example from the unit table, noting every figure that differs.

    Raises:
        UsageError: An example names a unit the unit table does not have.

    """
    def force(parts: list[ForceText], nation: str, option: str) -> Force:
        groups: list[Group] = []
        for part in parts:
            made, problems = calc.force(part.units, nation, option)
            if problems:
                raise UsageError("; ".join(problems))
            groups.extend(made.groups)
        return Force(tuple(groups), nation.upper())

    engagement = Engagement(force(example.raiders, example.raider_nation, "raiders"),
                            force(example.escorts, example.escort_nation, "escorts"))
    setup = calc.setup(engagement)
    difference = example.raider_roll - example.escort_roll
    text = example.text
    figures = [
        Figure("raider CV", str(setup.raider_cv), str(text.raider_cv),
               _parts_note(calc, example.raiders, example.raider_nation, "attack")),
        Figure("escort CV", str(setup.escort_cv), str(text.escort_cv),
               _parts_note(calc, example.escorts, example.escort_nation, "defence")),
        Figure("odds", calc.odds_text(setup).split(" ")[0], text.odds),
        Figure("difference", f"{difference:+d}", f"{text.difference:+d}"),
    ]
    outcome = None
    if setup.combat:
        colour = calc.colour(setup, difference)
        outcome = calc.outcome(setup, engagement, colour)
        figures += [
            Figure("colour", colour, text.colour),
            Figure("tonnage lost", str(outcome.tonnage), str(text.tonnage)),
        ]
        if text.escort_raw is not None:
            figures.append(Figure("escort loss before rounding", _decimal(outcome.escort_raw),
                                  text.escort_raw))
        figures.append(Figure("escort steps lost", str(outcome.escort_steps),
                              str(text.escort_steps)))
        if text.raider_raw is not None:
            note = (f"it is taken of the escort CV, {setup.escort_cv} by the unit table"
                    if setup.escort_cv != text.escort_cv else "")
            figures.append(Figure("raider loss before rounding", _decimal(outcome.raider_raw),
                                  text.raider_raw, note))
        figures.append(Figure("raider steps lost", str(outcome.raider_steps),
                              str(text.raider_steps)))
    return Worked(example, engagement, setup, difference, outcome, figures)
