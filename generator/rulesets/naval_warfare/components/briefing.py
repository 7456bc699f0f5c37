"""Briefings: a team's forces, bases, flags and cards; game control's full balance.

A team's briefing names only the nations it plays. Game control's holds the Starting
Naval Balance in the text's form (unit types down, nations across), every team's
allowances and every nation's bases. Values that are the kit's DEFAULT readings say so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.core.safetext import markup, text
from generator.core.units import MM
from generator.kit.seam import Context
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.rules.defaults import LABEL, is_default, note
from generator.rulesets.naval_warfare.registry import COMPONENTS

if TYPE_CHECKING:
    from generator.rulesets.naval_warfare import Derived
    from generator.rulesets.naval_warfare.schema import NationForces, Team
    from generator.rulesets.naval_warfare.units import UnitType


TEAM_LABELS = {"nof": "NOF", "mof": "MOF", "advantage_cards": "Advantage Cards",
               "task_force_cards": "TF cards"}


def _team_grid(teams: list[Team], nations: dict[str, NationForces], width: float) -> Grid:
    """Flags a turn, cards and task forces per team, and which values are DEFAULTs."""
    rows = []
    for team in teams:
        defaults = ", ".join(TEAM_LABELS[k] for k in team.defaults)
        rows.append([team.name, team.alliance, ", ".join(nations[n].code for n in team.nations),
                     str(team.nof), str(team.mof), str(team.advantage_cards),
                     str(team.task_force_cards),
                     note(defaults) if defaults else "campaign"])
    fractions = [0.2, 0.09, 0.1, 0.07, 0.07, 0.1, 0.08, 0.29]
    return Grid([width * f for f in fractions],
                [["Team", "Alliance", "Nations", "NOF a turn", "MOF a turn", "Advantage Cards",
                  "TF cards", "Source"]], rows, aligned(3, 7) + ["left"])


def _nation_grid(d: Derived, nation: NationForces, width: float) -> Grid:
    """One nation's counters: the balance, the spares and each type's values."""
    rows = []
    for unit in d.units.values():
        count = nation.units.get(unit.id, 0)
        spare = nation.spares.get(unit.id, 0)
        if not (count or spare or unit.id in nation.units):
            continue
        # A carrier group's Air Point is a counter of its own: say so where it is read.
        name = unit.name + (" (carries 1 Air Point)" if unit.carries else "")
        rows.append([name, str(count), str(spare), str(unit.fleet), str(unit.attack),
                     str(unit.defence), range_cell(unit, nation)])
    rows.append(["Tonnage Points", str(nation.tonnage), "", "", "", "", ""])
    rows.append(["Logistic Support Points (naval only)", str(nation.lsp), "", "", "", "", ""])
    rows.append(["Garrisons", str(nation.garrisons), "", "", "", "", ""])
    widths = [width * 0.37] + [width * 0.63 / 6] * 6
    return Grid(widths, [["Unit", "Balance", "Spares", "Fleet", "Attack", "Defence",
                          "Range"]], rows, aligned(1, 7))


def range_cell(unit: UnitType, nation: NationForces) -> str:
    """A unit's range; where the nation's own range differs, it is land-based air's.

    Japan's land-based Air Points reach 1 sea area, its carrier-borne ones their own
    sea area (0), as the text's "Operational Range" gives them.
    """
    reach = nation.ranges.get(unit.id, unit.range)
    if reach == unit.range:
        return str(reach)
    return f"{unit.range} (land {reach})"


def _bases_grid(nations: list[NationForces], width: float) -> Grid:
    rows = []
    for nation in nations:
        for base in nation.bases:
            note = base.note or ""
            if base.from_turn is not None:
                note = f"{note} (fleet base from turn {base.from_turn})".strip()
            rows.append([nation.name, base.name, note,
                         LABEL if is_default(nation, "bases") else "Annex A"])
    return Grid([width * 0.22, width * 0.3, width * 0.34, width * 0.14],
                [["Nation", "Fleet base", "Where / when", "Source"]], rows, aligned(3, 4))


def _defaults_line(nation: NationForces) -> str:
    """The nation's note (Annex A's for the USSR), then which figures are DEFAULT readings."""
    lead = f"{nation.note} " if nation.note else ""
    if not nation.defaults:
        return lead + "Every figure is the text's."
    return (lead + f"{LABEL} readings (the text gives no figure; game control may change "
            "them): " + ", ".join(nation.defaults) + ".")


def render_team(d: Derived, team: Team, ctx: Context[Derived]) -> Component:
    """A team's briefing: allowances, each nation's balance and bases. No other team."""
    assert d.campaign is not None
    doc = CanvasDoc(ctx.paper, f"Briefing: {team.name}", f"{d.foot} · {team.name}")
    width = doc.box.width
    doc.anchor(f"Briefing: {team.name}")
    doc.paragraph(markup("{name}: {alliance}", name=team.name, alliance=team.alliance), "h1")
    doc.paragraph(markup("{campaign}, {date} (turn {turn}). Nations played: {nations}.",
                         campaign=d.campaign.name, date=d.campaign.date,
                         turn=d.campaign.turn,
                         nations=", ".join(n.name for n in d.team_nations(team.id))), "body")
    doc.section("Flags, cards and task forces",
                f"Values marked {LABEL} are the kit's reading where the text gives none; "
                "game control sets the real figures.",
                _team_grid([team], d.nations, width))
    for nation in d.team_nations(team.id):
        title = f"Naval balance: {nation.name}"
        doc.section(title, text(_defaults_line(nation)), _nation_grid(d, nation, width),
                    heading=text(title))
    doc.section("Fleet bases", "Operations are measured from the force's fleet base; a "
                "damaged unit is repaired only at one (one unit per base per turn).",
                _bases_grid(d.team_nations(team.id), width))
    pdf, pages = doc.finish()
    return Component(f"briefing:{team.id}", f"Briefing: {team.name}",
                     f"{team.id.upper()}-Brief-", pdf, pages, doc.bookmarks)


def _balance_grid(d: Derived, width: float) -> Grid:
    """The Starting Naval Balance in the text's form: unit types down, nations across."""
    nations = list(d.nations.values())
    rows = []
    listed = [u for u in d.units.values() if any(u.id in n.units for n in nations)]
    for unit in listed:
        rows.append([unit.name, *(str(n.units.get(unit.id, 0)) for n in nations)])
    rows.append(["Tonnage Points", *(str(n.tonnage) for n in nations)])
    rows.append(["Logistic Support Points (Naval Only)", *(str(n.lsp) for n in nations)])
    first = 46 * MM
    rest = (width - first) / max(1, len(nations))
    return Grid([first] + [rest] * len(nations), [["Unit type", *(n.code for n in nations)]],
                rows, aligned(1, len(nations) + 1), size=7)


def render_control(d: Derived, ctx: Context[Derived]) -> Component:
    """Game control's briefing: the full balance, every team, every nation's bases."""
    assert d.campaign is not None
    campaign = d.campaign
    doc = CanvasDoc(ctx.paper, "Game control: the full balance", f"{d.foot} · game control")
    width = doc.box.width
    doc.anchor("Game control: the full balance")
    doc.paragraph(markup("{name}: game control", name=campaign.name), "h1")
    doc.paragraph(markup("{date}, turn {turn}. Nations: {nations}.", date=campaign.date,
                         turn=campaign.turn,
                         nations=", ".join(f"{n.code} {n.name}" for n in campaign.nations)),
                  "body")
    if campaign.note:
        doc.paragraph(text(campaign.note), "body")
    title = f"Starting naval balance, {campaign.date}"
    doc.section(title, "Counters on the table at the start, by nation (codes as on the "
                "counters).", _balance_grid(d, width), heading=text(title))
    doc.section("Teams", "Each team's packet shows its own nations, routes and cards only.",
                _team_grid(list(d.teams.values()), d.nations, width))
    kept = [n.name for n in d.nations.values() if d.team_of(n.id) is None]
    if kept:
        doc.paragraph(markup("Kept by game control (no team plays them): {kept}.",
                             kept=", ".join(kept)), "body")
    for nation in d.nations.values():
        title = f"Naval balance: {nation.name}"
        doc.section(title, text(_defaults_line(nation)), _nation_grid(d, nation, width),
                    heading=text(title))
    doc.section("Fleet bases (Annex A)", "Every nation's fleet bases.",
                _bases_grid(list(d.nations.values()), width))
    pdf, pages = doc.finish()
    return Component("briefing:control", "Game control: the full balance", "GC-Brief-", pdf,
                     pages, doc.bookmarks)


@COMPONENTS("briefing")
def briefing(ctx: Context[Derived], team: str | None) -> Component:
    """A team's briefing, or game control's ('control')."""
    from generator.rulesets.naval_warfare import CONTROL

    d: Derived = ctx.data
    if team == CONTROL or team is None:
        return render_control(d, ctx)
    return render_team(d, d.teams[team], ctx)
