"""The calculator's pages: per-factor chances, damage-chart odds, and matchup sheets.

Every number is exact (icepool fractions) and computed from the scenario's weapons table
and ``charts.yaml``, the same data the reference card prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from xml.sax.saxutils import escape

from generator.core.units import MM
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.pages.matchuppages import ShipTable, render_matchup_pages
from generator.rules.dice import percent
from generator.rules.targets import alike
from generator.rulesets.surface_action import odds
from generator.rulesets.surface_action.ask import AT_LEAST
from generator.rulesets.surface_action.charts import Charts
from generator.rulesets.surface_action.derive import ShipView
from generator.rulesets.surface_action.matchups import Line, ship_lines
from generator.rulesets.surface_action.schema import ShipType, Weapon, Weapons

ARMORS = range(-4, 3)
SIZES = range(1, 7)
OUT = "—"


def band_labels(weapons: Weapons) -> list[str]:
    """``["0-6 in", "6-12 in", ...]`` for the scenario's bands."""
    starts = odds.band_starts(weapons.bands_in)
    return [f"{a:g}-{b:g} in" for a, b in zip(starts, weapons.bands_in, strict=True)]


def factor_grid(kind: odds.Kind, weapon: Weapon, weapons: Weapons, night: bool,
                charts: Charts) -> Grid:
    """One weapon: chance one factor scores an effective hit, by armor, size and band."""
    bands = band_labels(weapons)
    rows = []
    for armor in ARMORS:
        for size in SIZES:
            row = [f"{armor:+d}" if armor else "0", str(size)]
            for band in range(len(bands)):
                s = odds.shot(kind, weapon, band, size, armor, night=night, weapons=weapons,
                              charts=charts)
                row.append(OUT if s is None else percent(s.chance, 1) +
                           ("" if s.penetrating else "*"))
            rows.append(row)
    header: list[list[str | None]] = [["Armor", "Size", *bands]]
    widths = [14 * MM, 11 * MM, *[20 * MM] * len(bands)]
    return Grid(widths, header, rows, aligned(0, len(widths)), size=7.5)


def cell_text(distribution: dict[str, Fraction]) -> str:
    """``"P 33% · M 17% · — 17%"`` in chart order of appearance."""
    return " · ".join(f"{cell or OUT} {percent(p)}" for cell, p in distribution.items())


def chart_odds_grid(kind: odds.Kind, charts: Charts) -> Grid:
    """Each type's chance of each chart result for one hit, near and beyond the limit."""
    rows = []
    for ship_type in ShipType:
        t = ship_type.value
        fire = Fraction(sum(odds.fires_started(n, t, False, charts) > 0 for n in range(1, 7)),
                        6)
        near = cell_text(odds.cell_odds(kind, t, False, charts))
        chart, _ = charts.column(kind, t)
        far = cell_text(odds.cell_odds(kind, t, True, charts)) if chart.long_range else ""
        rows.append([t, near, far or "same", percent(fire)])
    limit = next((c.long_range.beyond_in for c in charts.damage_charts.values()
                  if c.long_range), 24)
    header: list[list[str | None]] = [["Type", f"Each result, up to {limit:g} in",
                                       f"Beyond {limit:g} in", "Fire"]]
    widths = [12 * MM, 78 * MM, 78 * MM, 12 * MM]
    return Grid(widths, header, rows, ["left", "left", "left", "center"], size=7.5,
                wrap=frozenset({1, 2}))


def fate_grid(kind: odds.Kind, penetrating: bool, charts: Charts, hits: int = 6) -> Grid:
    """Sunk and out-of-action chances by type after 1..``hits`` effective hits."""
    checks = {"M": charts.hit_checks.M, "S": charts.hit_checks.S}
    rows = []
    for ship_type in ShipType:
        t = ship_type.value
        per_hit = odds.hit_damage(kind, t, long_range=False, penetrating=penetrating,
                                  readied=False, checks=checks, charts=charts)
        row = [t]
        for f in odds.fates(per_hit, hits, charts):
            row += [percent(f.sunk), percent(f.crippled + f.abandoned)]
        rows.append(row)
    header: list[list[str | None]] = [
        ["Type", *[x for k in range(1, hits + 1) for x in (f"{k} hit{'s' * (k > 1)}", None)]],
        ["", *["sunk", "out"] * hits],
    ]
    widths = [12 * MM, *[13.5 * MM] * (2 * hits)]
    return Grid(widths, header, rows, aligned(1, len(widths)),
                spans=[(0, 1 + 2 * i, 2 + 2 * i) for i in range(hits)], size=7.5)


def render_resolution(weapons: Weapons, night: bool, charts: Charts, paper: Paper,
                      footer: str) -> Component:
    """The scenario's resolution tables (key ``odds``)."""
    doc = CanvasDoc(paper, "Resolution tables", footer)
    doc.anchor("Resolution tables")
    doc.paragraph("Resolution tables", "h1")
    doc.paragraph(
        "Every chance below is exact, worked from this scenario's weapons table and the "
        "charts on the reference card. One factor is one die: it must roll the hit value, "
        "then the target's size, then the adjusted power, so its chance is the product of "
        "the three. * marks a non-penetrating result (power below 1, counted as 1): only S "
        "and F hits count for guns, only P and F for torpedoes. — : out of range."
        + (" Night: gun hit values are already reduced beyond "
           f"{charts.gunfire.night_penalty_beyond_in:g} in." if night else ""))
    for kind, table in (("gunfire", weapons.guns), ("torpedo", weapons.torpedoes)):
        for key, weapon in table.items():
            grid = factor_grid(kind, weapon, weapons, night, charts)  # type: ignore[arg-type]
            doc.ensure(grid.header_height + 60 * MM)
            doc.anchor(f"{key} ({'gun' if kind == 'gunfire' else 'torpedo'})")
            hits = " ".join(str(h) if h is not None else OUT for h in weapon.hit)
            doc.paragraph(f"{escape(weapon.name or key)} ({escape(key)}): hit values {hits}, power "
                          f"{weapon.power}" + (", less 1 per band beyond the closest"
                                               if kind == "gunfire" else ", at every range"),
                          "h3")
            doc.grid(grid)
            doc.space(2)
    sections: list[tuple[str, str, Grid]] = [
        ("Gunfire/bomb damage: chance of each result per hit", "Read the type's column of the "
         "gunfire charts; the fire column is the chance a hit also starts a fire "
         "(carriers without readied planes).", chart_odds_grid("gunfire", charts)),
        ("Torpedo damage: chance of each result per hit", "The torpedo chart has no range "
         "modifier.", chart_odds_grid("torpedo", charts)),
        ("Gunfire: the ship's fate after its hits", "Chance the ship is sunk (3 P, a Sunk "
         "result or an explosion) and out of action (2 P or 3 F, or abandoned) after that "
         "many effective gun hits within the long-range limit, all rolled before any damage "
         "control, with the M and S checks in force.", fate_grid("gunfire", True, charts)),
        ("Gunfire that does not penetrate", "Only S and F count.",
         fate_grid("gunfire", False, charts)),
        ("Torpedoes: the ship's fate after its hits", "As above, for torpedo hits.",
         fate_grid("torpedo", True, charts)),
    ]
    for title, note, grid in sections:
        doc.section(title, note, grid, keep=40 * MM)
    pdf, pages = doc.finish()
    return Component("odds", "Resolution tables", "Odds-", pdf, pages, doc.bookmarks[1:])


def matchup_grid(lines: Sequence[Line], weapons: Weapons) -> Grid:
    """One firing ship's lines: cumulative chances of 1, 2 and 3+ effective hits by band."""
    bands = band_labels(weapons)
    rows = []
    for line in lines:
        row = [f"{line.weapon} {line.arc} ×{line.factors}", line.target.label]
        for c in line.cells:
            row.append(OUT if c.shot is None else "·".join(
                percent(p).rstrip("%") for p in c.at_least) + ("*" if not c.shot.penetrating
                                                               else ""))
        rows.append(row)
    at_least = "·".join(f"≥{k}" for k in AT_LEAST)
    header: list[list[str | None]] = [["Weapon, arc, factors", "Size, armor: targets", *bands],
                                      ["", "", *[at_least + " %"] * len(bands)]]
    widths = [30 * MM, 52 * MM, *[18 * MM] * len(bands)]
    return Grid(widths, header, rows, aligned(2, len(widths)), size=7,
                wrap=frozenset({1}))


def render_matchups(views: Sequence[ShipView], enemies: Sequence[ShipView], weapons: Weapons,
                    night: bool, charts: Charts, paper: Paper, key: str, label: str,
                    title: str, footer: str, reach_in: float | None = None,
                    known: bool = True) -> Component:
    """One side's matchup pages: each ship against every enemy group.

    ``reach_in``: at night, the scenario's sighting range; bands beyond it print as out of
    reach (a burning target can be engaged farther, by the fire bonus).
    """
    intro = (
        "For each of your ships, each gun arc and torpedo set against each enemy group: the "
        "chance, in per cent, of at least 1, 2 and 3 effective hits from all its factors at "
        "each range band (size, armor and the power lost to range already applied). Halve "
        "the factors (a half rounds up) when turning costs the ship half strength, and read "
        "the resolution tables for other counts. * : non-penetrating (S and F only for guns, "
        "P and F for torpedoes). Bow/stern-on torpedoes: the target turned to put the "
        "marker in its bow or stern arc (size 1)."
        + (" Night: gun hit values reduced beyond "
           f"{charts.gunfire.night_penalty_beyond_in:g} in." if night else "")
        + (f" Night: the bands stop at the sighting range, {reach_in:g} in: guns and "
           "torpedoes cannot engage a target farther off unless it is burning (seen "
           f"{charts.sighting.fire_bonus_in:g} in farther) or, for torpedoes, fired its guns "
           "last turn." if reach_in is not None else ""))
    # Sisters of one class whose lines are the same (the same fit) share one table.
    fits = alike([(view, ship_lines(view, enemies, weapons, night, charts, reach_in, known))
                  for view in views],
                 lambda fit: (fit[0].cls.id, fit[0].type, repr(fit[1])))
    tables = []
    for sisters in fits:
        (view, lines), names = sisters[0], [v.name for v, _ in sisters]
        tables.append(ShipTable(tuple(names), f"{', '.join(escape(n) for n in names)} "
                                f"({escape(view.cls.name)} {view.type})",
                                matchup_grid(lines, weapons)))
    return render_matchup_pages(paper, title, footer, intro, tables, key, label)
