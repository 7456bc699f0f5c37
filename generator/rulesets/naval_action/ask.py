"""One matchup on demand (``quarterdeck odds``): find the ships, compute, report.

An ``OddsIndex`` holds every ship a question can name (each class's ships, and each
scenario's ships as the scenario fields them) as plain ``Party`` figures, with a
calculator. ``odds_index`` builds it from the library, the one step that needs the
schema. ``quarterdeck odds`` keeps the index in the user cache with every result its
ships can be asked for already computed, so a new question loads neither pydantic, the
ruleset's models, the tables nor icepool: this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core.errors import UsageError
from generator.core.suggest import did_you_mean, fold, spellings
from generator.rulesets.naval_action.matchups import (
    GunMatchup,
    TargetGroup,
    TorpedoMatchup,
    gun_matchup,
    target_groups,
    torpedo_matchups,
)
from generator.rulesets.naval_action.odds import Calculator
from generator.rulesets.naval_action.views import BANDS, Band, Party

if TYPE_CHECKING:
    from generator.data.library import Library

NAME = "naval-action"


@dataclass(frozen=True)
class Member:
    """A ship as one class or scenario lists it, with the spellings that find it."""

    name: str                # as the class (or the scenario's side) writes it
    spellings: frozenset[str]  # folded names and aka that find this ship in its class
    party: Party


@dataclass(frozen=True)
class ScenarioShips:
    """What a question with ``--scenario`` reads of the scenario."""

    name: str
    sea_state: str
    year: int
    members: tuple[Member, ...]  # side by side, in roster order


@dataclass
class OddsIndex:
    """Every ship a question can name, and the calculator that answers it."""

    calc: Calculator
    classes: dict[str, tuple[Member, ...]]  # class id -> its ships, in library order
    scenarios: dict[str, ScenarioShips]     # this ruleset's scenarios
    scenario_ids: tuple[str, ...]           # every scenario of the library (suggestions)
    complete: bool = False
    """Every result a question about these ships can need is already in the calculator."""

    def print_answer(self, firer: str, target: str, battery: str | None, band: str | None,
                     scenario_id: str | None) -> None:
        """Print one matchup as terminal tables (``quarterdeck odds``)."""
        print_answer(self, firer, target, battery, band, scenario_id)


@dataclass
class Answer:
    """What ``quarterdeck odds`` prints."""

    firer: Party
    target: Party
    guns: list[GunMatchup]
    torpedoes: list[TorpedoMatchup]
    bands: list[Band]
    calc: Calculator
    sea_state: str
    situational: tuple[int, ...] = field(default=())


def _find(index: OddsIndex, name: str, scenario: ScenarioShips | None, role: str) -> Party:
    wanted = fold(name)
    if scenario is not None:
        for member in scenario.members:
            if wanted in member.spellings:
                return member.party
        names = [m.name for m in scenario.members]
        raise UsageError(f"no ship '{name}' in {scenario.name} ({role})"
                         f"{did_you_mean(name, names)}")
    class_id, _, bare = name.rpartition(":")
    if class_id not in index.classes:  # a colon in the ship's own name, not CLASS:SHIP
        class_id, bare = "", name
    wanted = fold(bare)
    candidates: list[tuple[str, Party]] = []
    for cid, members in index.classes.items():
        if class_id and cid != class_id:
            continue
        found = next((m.party for m in members if wanted in m.spellings), None)
        if found is not None:
            candidates.append((cid, found))
    if not candidates:
        every = [m.name for members in index.classes.values() for m in members]
        raise UsageError(f"no ship '{name}' in the library ({role}){did_you_mean(name, every)}")
    if len(candidates) > 1:
        raise UsageError(f"'{name}' ({role}) is a ship of several classes: "
                         f"{', '.join(c for c, _ in candidates)}; write CLASS:NAME "
                         f"(e.g. {candidates[0][0]}:{bare}) or give --scenario")
    return candidates[0][1]


def _fire(calc: Calculator, shooter: Party, group: TargetGroup, sea: str, year: int,
          wanted: str) -> tuple[list[GunMatchup], list[TorpedoMatchup]]:
    """The firer's batteries (``wanted``: a position, TORPEDO/T, or '' for every weapon)."""
    guns = [gun_matchup(calc, shooter, b, group, sea) for b in shooter.batteries
            if not b.disabled and wanted in ("", b.position)]
    torps = (torpedo_matchups(calc, shooter, group, year)
             if wanted in ("", "TORPEDO", "T") else [])
    return guns, torps


def answer(index: OddsIndex, firer: str, target: str, battery: str | None,
           band: str | None, scenario_id: str | None) -> Answer:
    """Compute one firer-against-target matchup.

    Args:
        index: The ships and the calculator.
        firer: Firing ship's name (any spelling in its aka; accents optional).
        target: Target ship's name.
        battery: A battery position (BOW, STN, L...), ``torpedo``, or None for all.
        band: ``close``, ``medium``, ``long`` or None for all three.
        scenario_id: Scenario that sets the date, sea state and ships, if any.

    Returns:
        The answer.

    Raises:
        UsageError: For unknown ships, batteries or scenarios.

    """
    scenario: ScenarioShips | None = None
    if scenario_id is not None:
        scenario = index.scenarios.get(scenario_id)
        if scenario is None:
            raise UsageError(f"no scenario '{scenario_id}'"
                             f"{did_you_mean(scenario_id, index.scenario_ids)}")
    calc = index.calc
    shooter = _find(index, firer, scenario, "--firer")
    aim = _find(index, target, scenario, "--target")
    sea = scenario.sea_state if scenario else "calm"
    year = scenario.year if scenario else shooter.commissioned_year
    group = target_groups([aim])[0]
    wanted = (battery or "").upper()
    positions = sorted({b.position for b in shooter.batteries})
    if wanted and wanted not in (*positions, "TORPEDO", "T"):
        raise UsageError(f"{shooter.name} has no battery '{battery}'; it has "
                         f"{', '.join(positions + (['torpedo'] if shooter.torpedoes else []))}"
                         f"{did_you_mean(wanted, [*positions, 'torpedo'])}")
    guns, torps = _fire(calc, shooter, group, sea, year, wanted)
    bands: list[Band] = [b for b in BANDS if band in (None, b)]
    return Answer(shooter, aim, guns, torps, bands, calc, sea, calc.situational_numbers())


def hit_counts(calc: Calculator, accuracy: int) -> str:
    """'17%/33%/...' for the chance of 0, 1, 2... hits at an accuracy."""
    dist = calc.hit_chances(accuracy)
    most = max(dist)
    return "/".join(f"{float(dist.get(k, Fraction(0))) * 100:.0f}%" for k in range(most + 1))


def print_answer(index: OddsIndex, firer: str, target: str, battery: str | None,
                 band: str | None, scenario_id: str | None) -> None:
    """Print one matchup as terminal tables (``quarterdeck odds``).

    Ship and class names are user data: they are escaped before they meet rich markup.
    """
    from rich.markup import escape
    from rich.table import Table

    from generator.core.terminal import user_console

    if band is not None and band not in BANDS:
        raise UsageError(f"--range: found '{band}', expected one of {', '.join(BANDS)}"
                         f"{did_you_mean(band, BANDS)}")
    result = answer(index, firer, target, battery, band, scenario_id)
    console = user_console(highlight=False, soft_wrap=True)
    f, t = result.firer, result.target
    console.print(f"[bold]{escape(f.name)}[/] ({escape(f.class_name)} {f.ship_type}) firing at "
                  f"[bold]{escape(t.name)}[/] ({escape(t.class_name)} {t.ship_type}, armor "
                  f"{t.armor_label}); sea {result.sea_state}; tables: "
                  f"{escape(result.calc.origin)}")

    def pct(p: Any) -> str:
        return f"{float(p) * 100:.1f}%"

    for m in result.guns:
        b = m.battery
        table = Table("", *result.bands, title=f"{b.position} {b.guns}×{b.bore_in:g}in "
                      f"(caliber {b.caliber_factor}, Δ {m.differential:+d})")
        rows: list[tuple[str, Callable[[Any], str]]] = [
            ("accuracy (white die ≤)", lambda o: str(o.accuracy) if o.accuracy >= 1 else "≤0"),
            ("hits: chance of 0/1/2/3", lambda o: hit_counts(result.calc, o.accuracy)),
            ("coloured die 1-6", lambda o: " ".join(f.label for f in o.faces)),
            ("undamaged after the turn", lambda o: pct(o.damage.p(0))),
            ("D / HD / sunk", lambda o: " / ".join(pct(o.damage.p(s)) for s in (1, 2, 3))),
            ("≥1 damaging hit", lambda o: f"{pct(o.damage.at_least_one)} "
                                          f"= {o.damage.at_least_one}"),
            ("expected damage steps", lambda o: f"{float(o.damage.expected):.3f}"),
        ]
        for label, cell in rows:
            table.add_row(label, *[escape(cell(m.bands[name])) for name in result.bands])
        console.print(table)
    for tm in result.torpedoes:
        table = Table("", "beam", "bow/stern",
                      title=f"torpedoes: {tm.mounts} mount(s) × {tm.mount.tubes} "
                            f"{tm.mount.size_in}in (penetration {tm.mount.penetration}, "
                            f"Δ {tm.differential:+d}), one spread")
        faces = escape(" ".join(f.label for f in tm.faces))
        table.add_row("coloured die 1-6", faces, faces)
        table.add_row("undamaged after the spread", pct(tm.beam.p(0)), pct(tm.bow_stern.p(0)))
        table.add_row("D / HD / sunk", *[" / ".join(pct(d.p(s)) for s in (1, 2, 3))
                                         for d in (tm.beam, tm.bow_stern)])
        table.add_row("≥1 damaging hit", *[f"{pct(d.at_least_one)} = {d.at_least_one}"
                                           for d in (tm.beam, tm.bow_stern)])
        table.add_row("expected damage steps", *[f"{float(d.expected):.3f}"
                                                 for d in (tm.beam, tm.bow_stern)])
        console.print(table)
    if not result.guns and not result.torpedoes:
        console.print(f"{escape(result.firer.name)} has no weapon in action that matches.")
    situational = ", ".join(str(n) for n in result.situational)
    console.print(f"Accuracy is before the situational modifiers ({situational}). Damage odds "
                  "are for one turn's fire at an undamaged target; steps: D 1, HD 2, sunk 3.")


def odds_index(library: Library, tables: Path | None, complete: bool,
               scenario_id: str | None = None) -> OddsIndex:
    """Every ship of the library's NAVAL ACTION classes and scenarios, and a calculator.

    Args:
        library: The validated library.
        tables: A user's tables file (None: the bundled tables).
        complete: Compute now every result a question about these ships can need (for
            an index kept in the user cache), rather than each when first asked.
        scenario_id: For an index that is not ``complete`` (one question, not kept):
            hold only what that question can name, the scenario's ships (or, with
            None, the classes' ships).

    Raises:
        DataError: For every problem in the user's tables file.

    """
    from generator.rulesets.naval_action import cardtables
    from generator.rulesets.naval_action.derive import party, ship_view
    from generator.rulesets.naval_action.schema import Scenario, ShipClass

    loaded = cardtables.load_tables(tables)
    classes = library.classes_of(NAME)
    index = OddsIndex(Calculator(loaded, tables), {}, {}, tuple(library.scenarios))
    with cardtables.using(loaded):
        for cid, entry in (classes.items() if complete or scenario_id is None else ()):
            cls: ShipClass = entry.model
            index.classes[cid] = tuple(
                Member(ship.name, names, party(ship_view(cls, ship, None, None)))
                for ship, names in zip(cls.ships, spellings(cls.ships), strict=True))
        for sid, entry in library.scenarios.items():
            if entry.of_ruleset() != NAME or not (complete or sid == scenario_id):
                continue
            scenario: Scenario = entry.model
            members = []
            for side in scenario.sides:
                for ref in side.ships:
                    cls = classes[ref.class_].model
                    # The ship roster.find_ship gives: the first that the name finds (the
                    # library's check resolved every one).
                    spelled = spellings(cls.ships)
                    at = next(i for i, names in enumerate(spelled) if fold(ref.name) in names)
                    view = ship_view(cls, cls.ships[at], ref, scenario, side.id, side.name)
                    members.append(Member(ref.name, spelled[at], party(view)))
            index.scenarios[sid] = ScenarioShips(scenario.name, scenario.sea_state,
                                                 scenario.date.year, tuple(members))
    if complete:
        _complete(index)
    return index


def _complete(index: OddsIndex) -> None:
    """Ask the calculator every question the index's ships allow, once.

    A class's ships meet each other in calm seas in the firer's year of commission; a
    scenario's ships meet each other in its seas and year. Firers and targets are taken
    once per set of figures the calculator is asked with, so the work grows with the
    variety of ships, not their number.
    """
    calc = index.calc
    calc.situational_numbers()
    contexts: list[tuple[Iterable[Party], str, int | None]] = [
        ([m.party for members in index.classes.values() for m in members], "calm", None)]
    contexts += [([m.party for m in s.members], s.sea_state, s.year)
                 for s in index.scenarios.values()]
    for parties, sea, year in contexts:
        every = list(parties)
        groups = list({(p.armor_factor, p.old_deck): target_groups([p])[0]
                       for p in every}.values())
        # What the calculator is asked depends on these alone (gunfire on the calibers
        # of the batteries in action, torpedoes on tubes and penetration), not on names.
        firers = {(p.nation, p.ship_type,
                   frozenset(b.caliber_factor for b in p.batteries if not b.disabled),
                   frozenset((t.tubes, t.penetration) for t in p.torpedoes),
                   year or p.commissioned_year): p for p in every}
        for (*_, when), shooter in firers.items():
            for group in groups:
                guns, _ = _fire(calc, shooter, group, sea, when, "")
                for matchup in guns:
                    for odds in matchup.bands.values():
                        calc.hit_chances(odds.accuracy)
    index.complete = True
