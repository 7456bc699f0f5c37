"""The calculator's pages: exact chances for every roll the rules make, and dice sheets.

Every number is exact (icepool fractions through ``generator.rules.dice``), computed by the
calculator modules from ``rules.yaml`` (``--tables`` honoured), the data the reference
card prints. Per-scenario matchups are in ``matchups.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from generator.core.units import MM
from generator.kit.seam import Context
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper
from generator.rules.defaults import is_default, mark
from generator.rules.dice import in_force, percent
from generator.rulesets.modern_naval import combat, control, damage, detection
from generator.rulesets.modern_naval.model import Conditions, UnitView, WeaponView
from generator.rulesets.modern_naval.registry import COMPONENTS
from generator.rulesets.modern_naval.tables import (
    LEVELS,
    Tables,
    context_tables,
    die_sides,
)

if TYPE_CHECKING:
    from generator.rulesets.modern_naval.ruleset import Derived

CREWS = range(-2, 3)
SEA = ((3, "3 or less"), (4, "4"), (5, "5"), (6, "6"))
FAST = ((2, "0-4"), (5, "5-6"))
FCS = ((None, "none"), (1, "1st"), (2, "2nd"), (3, "3rd"))


def signed(n: int) -> str:
    """A modifier for a row heading: ``+2``, ``0``, ``-3``."""
    return f"{n:+d}" if n else "0"


def table(header: Sequence[str], rows: Sequence[Sequence[str]], first_mm: float = 24,
          cell_mm: float = 14, left: int = 1) -> Grid:
    """A numeric grid: label columns, then equal cells."""
    widths = [first_mm * MM] * left + [cell_mm * MM] * (len(header) - left)
    return Grid(widths, [list(header)], [list(r) for r in rows], aligned(left, len(widths)),
                size=7.5)


def hit_grid(tables: Tables) -> Grid:
    """Chance to hit by the total of the d20 modifiers, for each score a kind needs."""
    needs = sorted({tables.to_hit.score, *tables.to_hit.by_kind.values()})
    rows = []
    for m in range(-14, 13):
        rows.append([signed(m), *[percent(combat.hit_chance(tables, m, n)) for n in needs]])
    return table(["Modifier total", *[f"needs {n}+" for n in needs]], rows, 26, 22)


def seeker_grid(tables: Tables) -> Grid:
    """Missile and SAM hit chances from the seeker grid alone, by the target's ECM.

    The other modifiers (size, speed markers, crew, fires, missile target) move the total
    as on the card; these are the chances when they add up to nothing.
    """
    rows = []
    for row in tables.missile_modifiers.seekers:
        gen = f" {row.generation}" if row.generation is not None else ""
        cells = [percent(combat.hit_chance(tables, tables.to_hit.no_ecm,
                                           tables.to_hit.needed("missile")))]
        for ecm in (1, 2, 3):
            cells.append(percent(combat.hit_chance(tables, row.against(ecm) or 0,
                                                   tables.to_hit.needed("missile"))))
        rows.append([f"{row.seeker}{gen}", *cells])
    return table(["Seeker", "no ECM", "ECM 1st", "ECM 2nd", "ECM 3rd"], rows, 26, 20)


def anti_missile_grid(tables: Tables) -> Grid:
    """Steps 5b and 5d: a SAM's and a CIWS's chance to hit an incoming missile, by crew.

    A SAM reads the SAM table (the missile-target row, the seeker grid's no-ECM value,
    one less per fire for a CMD or SARH seeker); a CIWS reads the combat table as a ship
    gun against a very small air target, by its FCS, at sea state 3 or less and 1 to 4
    speed markers of its own.
    """
    columns: list[tuple[str, WeaponView, int | None, int]] = [
        ("SAM", WeaponView(name="SAM", kind="sam", seeker="IR"), None, 0),
        ("CMD/SARH SAM, 1 fire", WeaponView(name="SAM", kind="sam", seeker="SARH",
                                            generation=1), None, 1)]
    columns += [(f"CIWS, FCS {label}", WeaponView(name="CIWS", kind="ciws"), fcs, 0)
                for fcs, label in FCS]
    rows = []
    for crew in CREWS:
        row = [signed(crew)]
        for _, weapon, fcs, fires in columns:
            unit = UnitView(id="u", name="u", category="ship", size="small", crew=crew,
                            fcs=fcs, weapons=(weapon,))
            shot = combat.against_missile(tables, unit, weapon,
                                          Conditions(shooter_fires=fires))
            assert shot is not None
            row.append(percent(shot.chance))
        rows.append(row)
    return table(["Crew quality", *[c[0] for c in columns]], rows, 22, 24)


def detection_grid(tables: Tables, method: detection.Method) -> Grid:
    """Chance of success by sea state, own speed markers, FCS (radar) and crew quality."""
    rows = []
    fcs_rows = FCS if method == "radar" else ((None, "—"),)
    for fcs, fcs_label in fcs_rows:
        for sea, sea_label in SEA:
            for speed, speed_label in FAST:
                row = [fcs_label, sea_label, speed_label]
                for crew in CREWS:
                    unit = UnitView(id="u", name="u", category="ship", size="small", crew=crew,
                                    fcs=fcs)
                    a = detection.attempt(tables, method, unit,
                                          Conditions(sea_state=sea, shooter_speed=speed))
                    assert a is not None
                    row.append(percent(a.chance))
                rows.append(row)
    header = ["FCS", "Sea state", "Own speed", *[f"crew {signed(c)}" for c in CREWS]]
    widths = [14 * MM, 18 * MM, 18 * MM, *[16 * MM] * len(CREWS)]
    return Grid(widths, [header], rows, aligned(3, len(widths)), size=7.5)


def limits_grid(tables: Tables) -> Grid:
    """The farthest attempt for each searcher row, against ships and aircraft, with fog."""
    rows = []
    radar, visual = tables.radar_detection, tables.visual_identification
    for r_row, v_row in zip(radar.ranges, visual.ranges, strict=False):
        v_fog = 0.5 if visual.fog_halves else 1.0
        r_fog = 0.5 if radar.fog_halves else 1.0
        rows.append([r_row.label.split(" Aircraft")[0] + (
            f" / aircraft at {r_row.altitude} altitude" if r_row.altitude else ""),
            f"{r_row.cm:g}", f"{r_row.cm + radar.bonus.cm:g}",
            f"{r_row.cm * r_fog:g}",
            f"{v_row.cm:g}", f"{v_row.cm + visual.bonus.cm:g}", f"{v_row.cm * v_fog:g}",
            f"{(v_row.cm + visual.bonus.cm) * v_fog:g}"])
    header = ["Searcher", "Radar", "vs air", "in fog", "Visual", "vs air", "in fog",
              "air, fog"]
    return table(header, rows, 60, 14)


def damage_grid(tables: Tables) -> Grid:
    """Each damage level's chance, and a system's knock-out chance, by modifier total."""
    rows = []
    for m in range(-3, 13):
        odds = damage.level_odds(tables, m)
        rows.append([signed(m), *[percent(odds[k]) for k in LEVELS],
                     percent(damage.knock_out(tables, m))])
    names = [tables.basic_damage.by_key(k).label.split(" ")[0] for k in LEVELS]
    return table(["Modifier total", *names, "System KO"], rows, 24, 18)


def mobility_grid(tables: Tables) -> Grid:
    """Speed levels lost (MVR cm added) by modifier total."""
    losses: list[float] = sorted({
        float(r.speed) for lv in tables.basic_damage.levels if lv.mobility
        for r in lv.mobility.rolls} | {0.0})
    mvr = {float(r.speed): r.mvr_cm for lv in tables.basic_damage.levels if lv.mobility
           for r in lv.mobility.rolls}
    rows = []
    for m in range(-3, 13):
        odds = damage.mobility_odds(tables, m)
        rows.append([signed(m), *[percent(odds.get(loss, Fraction(0))) for loss in losses]])
    header = ["Modifier total", *[f"-{loss:g} / +{mvr.get(loss, 0):g} cm" if loss else "none"
                                  for loss in losses]]
    return table(header, rows, 24, 22)


def special_grid(tables: Tables) -> Grid:
    """Each special damage result's chance per hit, by modifier total."""
    keys = [r.key for r in tables.special_damage.results if not r.optional]
    names = {"none": "nothing", "demoralisation": "crew -1", "propulsion": "engines",
             "blackout": "blackout", "helm": "helm", "fire": "fire"}
    rows = []
    for m in range(-3, 13):
        odds = damage.special_odds(tables, m)
        rows.append([signed(m), *[percent(odds[k]) for k in keys]])
    return table(["Modifier total", *[names.get(k, k) for k in keys]], rows, 24, 18)


def aircraft_grid(tables: Tables) -> Grid:
    """An aircraft's fate per hit, by modifier total (markers already counted in)."""
    rows = []
    for m in range(-3, 13):
        odds = damage.aircraft_odds(tables, m)
        rows.append([signed(m), percent(odds["continues"]), percent(odds["leaves"]),
                     percent(odds["lost"])])
    return table(["Modifier total", "flies on", "leaves, may return", "lost"], rows, 24, 28)


def control_grid(tables: Tables) -> Grid:
    """Damage control by crew quality."""
    rows = []
    by_key = {r.key: r for r in tables.damage_control.results}
    for crew in range(-4, 3):
        odds = control.control_odds(tables, crew)
        rows.append([signed(crew), *[percent(odds[k]) for k in by_key]])
    header = ["Crew quality", *[f"{r.system} / {r.fire}" for r in by_key.values()]]
    return table(header, rows, 22, 44)


def initiative_grid(tables: Tables) -> Grid:
    """Initiative: win, tie and lose by the difference of the sides' modifiers."""
    rows = []
    for diff in range(-6, 7):
        win, tie, lose = control.initiative_odds(tables, diff, 0)
        rows.append([signed(diff), percent(win), percent(tie), percent(lose)])
    return table(["Ours minus theirs", "win", "tie", "lose"], rows, 30, 18)


def render_resolution(tables: Tables, paper: Paper, footer: str) -> Component:
    """The resolution tables (key ``resolution-tables``)."""
    doc = CanvasDoc(paper, "Resolution tables", footer)
    doc.anchor("Resolution tables")
    doc.paragraph("Modern naval: resolution tables", "h1")
    doc.paragraph("Every chance here is exact, worked out from the tables on the reference "
                  "card. Add up the modifiers of a roll, then read the row of that total.")
    hit = tables.to_hit
    sections = [
        ("To hit", f"A modified {hit.die} must reach {mark(str(hit.score), is_default(hit))}; "
         "the modifiers are the combat, SAM or missile table's.", hit_grid(tables)),
        ("Missiles and SAMs: seeker against ECM", "The chance when the other modifiers add "
         "up to 0 (a medium target at 4 speed markers, crew 0, no fires); otherwise add "
         "them to the seeker's cell and read the table above. A target without ECM reads "
         f"{mark(str(hit.no_ecm), is_default(hit))}; n/a adds 0.", seeker_grid(tables)),
        ("Incoming missiles: SAMs (5b) and CIWS (5d)", "The chance one shot hits the "
         "missile, which then does not reach its target. Having no ECM, a missile reads "
         f"{mark(str(hit.no_ecm), is_default(hit))} in the seeker grid; a CIWS fires at sea "
         "state 3 or less with 1 to 4 speed markers. A missile that nothing stops rolls on "
         "the missile table against its target.", anti_missile_grid(tables)),
        ("Radar detection", f"{tables.radar_detection.die}, {tables.radar_detection.success}"
         "+ succeeds. Take one off per vessel the line of sight crosses, and one if land lies "
         "within 30 cm beyond the target (read the column one crew step lower for each).",
         detection_grid(tables, "radar")),
        ("Visual identification", f"{tables.visual_identification.die}, "
         f"{tables.visual_identification.success}+ succeeds.",
         detection_grid(tables, "visual")),
        ("Detection and identification limits (cm)", "The farthest attempt. The tactical "
         "visibility may cut a visual attempt shorter, never a radar one.",
         limits_grid(tables)),
        ("Basic damage", "Total = target's + weapon's damage modifiers + the target's "
         "current level (+1 light, +2 heavy, +3 critical) + aircraft damage markers. System "
         "KO: the chance one working weapon or system is knocked out by the hit.",
         damage_grid(tables)),
        ("Speed and MVR lost per hit", "Speed levels lost and MVR cm added (rolled apart; "
         "each has these chances).", mobility_grid(tables)),
        ("Special damage per hit", "Includes the chance the hit does not reach light damage "
         "(nothing).", special_grid(tables)),
        ("Aircraft hit", "Aircraft roll basic damage only.", aircraft_grid(tables)),
        ("Damage control", f"{tables.damage_control.die} plus crew quality, for each damaged "
         "system (repaired?) and each fire (out, burning, spreading).", control_grid(tables)),
        ("Initiative", f"{tables.initiative.die} each, higher wins.", initiative_grid(tables)),
    ]
    for title, note, grid in sections:
        doc.section(title, note, grid, keep=40 * MM)
    pdf, pages = doc.finish()
    return Component("resolution-tables", "Resolution tables", "Odds-", pdf, pages,
                     doc.bookmarks[1:])


@COMPONENTS("resolution-tables")
def resolution_tables(ctx: Context[Derived], arg: str | None) -> Component:
    """The generic resolution tables."""
    return render_resolution(context_tables(ctx.options), ctx.paper,
                             ctx.data.foot)


# -- pre-rolled dice ------------------------------------------------------------------------

@COMPONENTS("dice")
def dice_sheet(ctx: Context[Derived], arg: str | None) -> Component:
    """A side's pre-rolled sheet (``dice:<side>``): the shared one, a d10 and a d20 a pair."""
    from generator.aids.dicesheet import owner_dice_sheet

    tables = context_tables(ctx.options)
    d10, d20 = die_sides(tables.basic_damage.die), die_sides(tables.to_hit.die)
    how = (f"The <b>white</b> number is a d{d10} (damage, detection, identification, damage "
           f"control, initiative), the <font color='#bf1a1a'><b>red</b></font> number a "
           f"d{d20} (to hit).")
    return owner_dice_sheet(in_force(ctx.options.seed), arg, ctx.sides, ctx.paper,
                            ctx.data.foot, ctx.request.command,
                            ctx.values.get("scenario"), how=how, faces=(d10, d20))
