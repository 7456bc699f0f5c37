"""One matchup on demand (``quarterdeck odds``): find the ships, compute, report.

An ``OddsIndex`` holds every ship a question can name (each class's ships, and each
scenario's ships as the scenario fields them) as members (``generator.rules.oddsindex``)
whose figures are plain ``Party`` figures, with a calculator. ``odds_index`` builds it
from the library, the one step that needs the schema. ``quarterdeck odds`` keeps the
index in the user cache with every result its ships can be asked for already computed,
so a new question loads neither pydantic, the ruleset's models, the tables nor icepool:
this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core.errors import UsageError
from generator.core.suggest import did_you_mean
from generator.rules.oddsindex import (
    Member,
    answer_console,
    class_members,
    find_at,
    find_in_classes,
    firing_at,
    one_of,
    percent,
    print_table,
    scenario_of,
    spelled,
)
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
class ScenarioShips:
    """What a question with ``--scenario`` reads of the scenario."""

    name: str
    sea_state: str
    year: int
    members: tuple[Member[Party], ...]  # side by side, in roster order


@dataclass
class OddsIndex:
    """Every ship a question can name, and the calculator that answers it."""

    calc: Calculator
    classes: dict[str, tuple[Member[Party], ...]]  # class id -> its ships, in library order
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
    if scenario is not None:
        return scenario.members[find_at(scenario.members, name, scenario.name, role)].figures
    return find_in_classes(index.classes, name, role)


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
        scenario = scenario_of(index.scenarios, scenario_id, index.scenario_ids)
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

    if band is not None:
        one_of("--range", band, BANDS)
    result = answer(index, firer, target, battery, band, scenario_id)
    console = answer_console()
    f, t = result.firer, result.target
    console.print(firing_at((f.name, f.class_name, f.ship_type),
                            (t.name, t.class_name, t.ship_type), f"armor {t.armor_label}",
                            f"sea {result.sea_state}; tables: {escape(result.calc.origin)}"))
    for m in result.guns:
        b = m.battery
        rows: list[tuple[str, Callable[[Any], str]]] = [
            ("accuracy (white die ≤)", lambda o: str(o.accuracy) if o.accuracy >= 1 else "≤0"),
            ("hits: chance of 0/1/2/3", lambda o: hit_counts(result.calc, o.accuracy)),
            ("coloured die 1-6", lambda o: " ".join(f.label for f in o.faces)),
            ("undamaged after the turn", lambda o: percent(o.damage.p(0))),
            ("D / HD / sunk", lambda o: " / ".join(percent(o.damage.p(s)) for s in (1, 2, 3))),
            ("≥1 damaging hit", lambda o: f"{percent(o.damage.at_least_one)} "
                                          f"= {o.damage.at_least_one}"),
            ("expected damage steps", lambda o: f"{float(o.damage.expected):.3f}"),
        ]
        print_table(console, f"{b.position} {b.guns}×{b.bore_in:g}in (caliber "
                    f"{b.caliber_factor}, Δ {m.differential:+d})", result.bands,
                    [(label, *[escape(cell(m.bands[name])) for name in result.bands])
                     for label, cell in rows])
    for tm in result.torpedoes:
        faces = escape(" ".join(f.label for f in tm.faces))
        both = (tm.beam, tm.bow_stern)
        print_table(console, f"torpedoes: {tm.mounts} mount(s) × {tm.mount.tubes} "
                    f"{tm.mount.size_in}in (penetration {tm.mount.penetration}, "
                    f"Δ {tm.differential:+d}), one spread", ("beam", "bow/stern"), [
                        ("coloured die 1-6", faces, faces),
                        ("undamaged after the spread", *[percent(d.p(0)) for d in both]),
                        ("D / HD / sunk", *[" / ".join(percent(d.p(s)) for s in (1, 2, 3))
                                            for d in both]),
                        ("≥1 damaging hit", *[f"{percent(d.at_least_one)} = {d.at_least_one}"
                                              for d in both]),
                        ("expected damage steps", *[f"{float(d.expected):.3f}" for d in both]),
                    ])
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
    from generator.rulesets.naval_action.derive import ship_view
    from generator.rulesets.naval_action.schema import Scenario, ShipClass

    loaded = cardtables.load_tables(tables)
    classes = library.classes_of(NAME)
    index = OddsIndex(Calculator(loaded, tables), {}, {}, tuple(library.scenarios))
    with cardtables.using(loaded):
        for cid, entry in (classes.items() if complete or scenario_id is None else ()):
            cls: ShipClass = entry.model
            index.classes[cid] = class_members(
                cls.ships, [ship_view(cls, ship, None, None).figures() for ship in cls.ships])
        for sid, entry in library.of_kind(NAME, "scenario").items():
            if not (complete or sid == scenario_id):
                continue
            scenario: Scenario = entry.model
            members = []
            for side in scenario.sides:
                for ref in side.ships:
                    cls = classes[ref.class_].model
                    at, names = spelled(cls.ships, ref.name)
                    view = ship_view(cls, cls.ships[at], ref, scenario, side.id, side.name)
                    members.append(Member(ref.name, names, view.figures()))
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
        ([m.figures for members in index.classes.values() for m in members], "calm", None)]
    contexts += [([m.figures for m in s.members], s.sea_state, s.year)
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
