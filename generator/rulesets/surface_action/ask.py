"""One matchup on demand (``quarterdeck odds`` for a Surface Action scenario).

The firer's every gun arc and torpedo set against one target, band by band: the exact
chance of at least 1, 2 and 3 effective hits and the expected number, as the matchup
pages print them, but for one pair of ships.
"""

from __future__ import annotations

from collections.abc import Sequence

from generator.errors import UsageError
from generator.roster import find_ship
from generator.rulesets.surface_action.charts import Charts
from generator.rulesets.surface_action.derive import ShipView
from generator.rulesets.surface_action.matchups import AT_LEAST, ship_lines
from generator.rulesets.surface_action.schema import Scenario
from generator.suggest import did_you_mean

ARCS = ("bow", "broadside", "stern", "torpedo")


def _find(views: dict[str, list[ShipView]], name: str, role: str) -> ShipView:
    for side in views.values():
        for view in side:
            if find_ship(view.cls, name) is view.ship:
                return view
    names = [v.name for side in views.values() for v in side]
    raise UsageError(f"no ship '{name}' in this scenario ({role}){did_you_mean(name, names)}")


def _band_index(bands_in: Sequence[float], band: str | None) -> list[int]:
    if band is None:
        return list(range(len(bands_in)))
    labels = [f"{b:g}" for b in bands_in]
    wanted = band.removesuffix("in").strip()
    if wanted not in labels:
        raise UsageError(f"--range: found '{band}', expected a band's outer limit in inches: "
                         f"{', '.join(labels)}")
    return [labels.index(wanted)]


def print_answer(scenario: Scenario, views: dict[str, list[ShipView]], charts: Charts,
                 firer: str, target: str, arc: str | None, band: str | None) -> None:
    """Print the firer's chances against the target (names escaped for rich markup)."""
    from rich.markup import escape
    from rich.table import Table

    from generator.terminal import user_console

    shooter = _find(views, firer, "--firer")
    aim = _find(views, target, "--target")
    if arc is not None and arc.lower() not in ARCS:
        raise UsageError(f"--battery: found '{arc}', expected one of {', '.join(ARCS)}"
                         f"{did_you_mean(arc.lower(), ARCS)}")
    night = scenario.time == "night"
    bands = _band_index(scenario.weapons.bands_in, band)
    console = user_console(highlight=False, soft_wrap=True)
    console.print(f"[bold]{escape(shooter.name)}[/] ({escape(shooter.cls.name)} "
                  f"{shooter.type}) firing at [bold]{escape(aim.name)}[/] "
                  f"({escape(aim.cls.name)} {aim.type}, size {aim.gun_size}/{aim.torpedo_size},"
                  f" armor {aim.armor:+d}); {'night' if night else 'day'}")
    headings = [f"≤{scenario.weapons.bands_in[b]:g} in" for b in bands]
    shown = 0
    reach = scenario.sighting_in if night else None
    for line in ship_lines(shooter, [aim], scenario.weapons, night, charts, reach):
        kind = "torpedo" if line.weapon == shooter.torpedo_weapon and line.arc in (
            "beam", "bow/stern-on") else line.arc
        if arc is not None and not kind.startswith(arc.lower()) and \
                not (arc.lower() in ("bow", "stern") and line.arc == "bow or stern"):
            continue
        table = Table("", *headings, title=escape(f"{line.weapon} {line.arc}: "
                                                  f"{line.factors} factor(s)"))
        for i, k in enumerate(AT_LEAST):
            table.add_row(f"≥{k} effective hit{'s' if k > 1 else ''}",
                          *[f"{float(line.cells[b].at_least[i]) * 100:.1f}%" for b in bands])
        table.add_row("expected", *[f"{float(line.cells[b].expected):.3f}" for b in bands])
        console.print(table)
        shown += 1
    if not shown:
        console.print(f"{escape(shooter.name)} has no weapon that matches.")
