"""One matchup on demand (``quarterdeck odds``): find the ships, compute, report."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from generator.dice import distribution
from generator.errors import UsageError
from generator.library import Library
from generator.rulesets.naval_action import cardtables, resolve
from generator.rulesets.naval_action.cardtables import BANDS, Band, load_tables
from generator.rulesets.naval_action.derive import ShipView, ship_view
from generator.rulesets.naval_action.matchups import (
    GunMatchup,
    TorpedoMatchup,
    gun_matchup,
    target_groups,
    torpedo_matchups,
)
from generator.rulesets.naval_action.odds import Calculator
from generator.rulesets.naval_action.schema import Scenario, ShipClass
from generator.suggest import did_you_mean

NAME = "naval-action"


@dataclass
class Answer:
    """What ``quarterdeck odds`` prints."""

    firer: ShipView
    target: ShipView
    guns: list[GunMatchup]
    torpedoes: list[TorpedoMatchup]
    bands: list[Band]
    calc: Calculator
    sea_state: str


def _find(library: Library, name: str, scenario: Scenario | None, role: str) -> ShipView:
    classes = library.classes_of(NAME)
    candidates: list[tuple[ShipClass, str]] = []
    if scenario is not None:
        for side in scenario.sides:
            for ref in side.ships:
                cls: ShipClass = classes[ref.class_].model
                ship = resolve.find_ship(cls, ref.name)
                if ship is not None and resolve.find_ship(cls, name) is ship:
                    return ship_view(cls, ship, ref, scenario, side.id, side.name)
        names = [ref.name for side in scenario.sides for ref in side.ships]
        raise UsageError(f"no ship '{name}' in {scenario.name} ({role})"
                         f"{did_you_mean(name, names)}")
    class_id, _, bare = name.rpartition(":")
    if class_id not in classes:  # a colon in the ship's own name, not CLASS:SHIP
        class_id, bare = "", name
    for entry in classes.values():
        if class_id and entry.model.id != class_id:
            continue
        if resolve.find_ship(entry.model, bare) is not None:
            candidates.append((entry.model, entry.model.id))
    if not candidates:
        every = [s.name for e in classes.values() for s in e.model.ships]
        raise UsageError(f"no ship '{name}' in the library ({role}){did_you_mean(name, every)}")
    if len(candidates) > 1:
        raise UsageError(f"'{name}' ({role}) is a ship of several classes: "
                         f"{', '.join(c for _, c in candidates)}; write CLASS:NAME "
                         f"(e.g. {candidates[0][1]}:{bare}) or give --scenario")
    cls = candidates[0][0]
    ship = resolve.find_ship(cls, bare)
    assert ship is not None
    return ship_view(cls, ship, None, None)


def answer(library: Library, firer: str, target: str, battery: str | None,
           band: str | None, scenario_id: str | None, tables: Path | None) -> Answer:
    """Compute one firer-against-target matchup.

    Args:
        library: The validated library.
        firer: Firing ship's name (any spelling in its aka; accents optional).
        target: Target ship's name.
        battery: A battery position (BOW, STN, L...), ``torpedo``, or None for all.
        band: ``close``, ``medium``, ``long`` or None for all three.
        scenario_id: Scenario that sets the date, sea state and ships, if any.
        tables: A user's tables file.

    Returns:
        The answer.

    Raises:
        UsageError: For unknown ships, batteries or scenarios.

    """
    scenario: Scenario | None = None
    if scenario_id is not None:
        entry = library.scenarios.get(scenario_id)
        if entry is None or entry.model.ruleset != NAME:
            raise UsageError(f"no scenario '{scenario_id}'"
                             f"{did_you_mean(scenario_id, library.scenarios)}")
        scenario = entry.model
    loaded = load_tables(tables)
    with cardtables.using(loaded):
        shooter = _find(library, firer, scenario, "--firer")
        aim = _find(library, target, scenario, "--target")
    calc = Calculator(loaded)
    sea = scenario.sea_state if scenario else "calm"
    year = scenario.date.year if scenario else shooter.ship.commissioned.year
    group = target_groups([aim])[0]
    wanted = (battery or "").upper()
    positions = sorted({b.position for b in shooter.batteries})
    if wanted and wanted not in (*positions, "TORPEDO", "T"):
        raise UsageError(f"{shooter.name} has no battery '{battery}'; it has "
                         f"{', '.join(positions + (['torpedo'] if shooter.torpedoes else []))}"
                         f"{did_you_mean(wanted, [*positions, 'torpedo'])}")
    guns = [gun_matchup(calc, shooter, b, group, sea) for b in shooter.batteries
            if not b.disabled and wanted in ("", b.position)]
    torps = (torpedo_matchups(calc, shooter, group, year)
             if wanted in ("", "TORPEDO", "T") else [])
    bands: list[Band] = [b for b in BANDS if band in (None, b)]
    return Answer(shooter, aim, guns, torps, bands, calc, sea)


def hit_counts(calc: Calculator, accuracy: int) -> str:
    """'0: 16.7%  1: 33.3% ...' for the number of hits at an accuracy."""
    dist: dict[int, Fraction] = distribution(calc.hits(accuracy))
    most = max(dist)
    return "/".join(f"{float(dist.get(k, Fraction(0))) * 100:.0f}%" for k in range(most + 1))


def print_answer(library: Library, firer: str, target: str, battery: str | None,
                 band: str | None, scenario_id: str | None, tables: Path | None) -> None:
    """Print one matchup as terminal tables (``quarterdeck odds``).

    Ship and class names are user data: they are escaped before they meet rich markup.
    """
    from rich.markup import escape
    from rich.table import Table

    from generator.terminal import user_console

    if band is not None and band not in BANDS:
        raise UsageError(f"--range: found '{band}', expected one of {', '.join(BANDS)}"
                         f"{did_you_mean(band, BANDS)}")
    result = answer(library, firer, target, battery, band, scenario_id, tables)
    console = user_console(highlight=False, soft_wrap=True)
    t = result.target
    console.print(f"[bold]{escape(result.firer.name)}[/] ({escape(result.firer.cls.name)} "
                  f"{result.firer.cls.type.value}) firing at [bold]{escape(t.name)}[/] "
                  f"({escape(t.cls.name)} {t.cls.type.value}, armor {t.armor_label}); "
                  f"sea {result.sea_state}; tables: {escape(str(result.calc.tables.origin))}")

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
    situational = ", ".join(str(mod.number) for mod in result.calc.situational())
    console.print(f"Accuracy is before the situational modifiers ({situational}). Damage odds "
                  "are for one turn's fire at an undamaged target; steps: D 1, HD 2, sunk 3.")
