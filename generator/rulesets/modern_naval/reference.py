"""The modern naval reference card: every table the text prints, then the DEFAULTS.

Each table is drawn from ``rules.yaml`` (the calculator computes from the same data);
the effects the text writes as sentences are said in quarterdeck's own words, built
from the numbers in the tables, so a ``--tables`` file changes the card and the odds
together. Values the text does not print are marked DEFAULT where they appear.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from generator.core.units import MM
from generator.kit.seam import Context
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Align, Grid
from generator.pages.layout import Paper
from generator.rules.defaults import LABEL, is_default, mark
from generator.rulesets.modern_naval.registry import COMPONENTS
from generator.rulesets.modern_naval.tables import (
    ORDINALS,
    BasicDamage,
    Modifier,
    Search,
    SeekerTable,
    Special,
    Tables,
    context_tables,
    signed,
)

if TYPE_CHECKING:
    from generator.rulesets.modern_naval.ruleset import Derived

NA = "n/a"
DASH = "—"
SIZE = 8.0


def grid(header: Sequence[str], rows: Sequence[Sequence[str]], widths_mm: Sequence[float],
         aligns: Sequence[Align] = (), wrap: frozenset[int] = frozenset(),
         group_rows: frozenset[int] = frozenset()) -> Grid:
    """A reference table at the card's type size."""
    return Grid([w * MM for w in widths_mm], [list(header)], [list(r) for r in rows],
                list(aligns) or ["left"] * len(widths_mm), size=SIZE, wrap=wrap,
                group_rows=group_rows)


def cm(value: float) -> str:
    """A distance as the text prints it: ``30 cm``."""
    return f"{value:g} cm"


def turn_rows(tables: Tables) -> list[list[str]]:
    """The turn sequence: phase number, step, name."""
    rows = []
    for phase in tables.turn_sequence.phases:
        rows.append([phase.number, "", phase.name])
        rows += [["", f"{step.step})", step.name] for step in phase.steps]
    return rows


def movement_rows(tables: Tables) -> list[list[str]]:
    """Speed markers and the distance they require."""
    m = tables.movement
    rows = [[str(b.markers), f"{b.low_cm:g} and {cm(b.high_cm)}"] for b in m.bands]
    return [*rows, ["0", m.zero]]


def turning_rows(tables: Tables) -> list[list[str]]:
    """MVR and minimum move."""
    return [[str(r.mvr), cm(r.minimum_cm)] for r in tables.turning.rows]


def modifier_rows(rows: Sequence[Modifier], spaced: bool) -> list[list[str]]:
    """Label and modifier, as printed."""
    return [[mark(r.label, is_default(r)), r.text(spaced)] for r in rows]


def range_rows(search: Search) -> list[list[str]]:
    """Searcher size or type, and distance; the aircraft bonus last."""
    rows = [[r.label, cm(r.cm)] for r in search.ranges]
    return [*rows, [search.bonus.label, f"+{cm(search.bonus.cm)}"]]


def combat_rows(tables: Tables) -> list[list[str]]:
    """The combat modifiers table laid out as the text lays it out.

    A group's heading row carries its first "Used By" name and each row under it the
    next; a group of one unlabelled row is a single line with its value.
    """
    table = tables.combat_modifiers
    rows: list[list[str]] = []
    for group in table.groups:
        used = table.used_by(group)
        if len(group.rows) == 1 and not group.rows[0].label:
            rows.append([group.label, group.rows[0].text(), ", ".join(used)])
            continue
        lines = [[group.label, ""]] + [[r.label, r.text()] for r in group.rows]
        for i, line in enumerate(lines):
            last = i == len(lines) - 1
            cell = ", ".join(used[i:]) if last else (used[i] if i < len(used) else "")
            rows.append([*line, cell])
    return rows


def seeker_rows(table: SeekerTable) -> list[list[str]]:
    """The seeker against ECM grid: seeker (first row of its group), generation, cells."""
    rows = []
    previous = None
    for row in table.seekers:
        name = row.seeker if row.seeker != previous else ""
        previous = row.seeker
        gen = ORDINALS[row.generation] if row.generation is not None else DASH
        rows.append([name, gen, *[NA if v is None else f"{v:+d}".replace("+0", "0")
                                  for v in row.vs_ecm]])
    return rows


def other_rows(table: SeekerTable) -> list[list[str]]:
    """The table's other modifiers, defaults marked."""
    rows = []
    for r in [*table.other, *table.defaults]:
        rows.append([mark(r.label, is_default(r)), "" if r.group else r.text()])
    return rows


def target_rows(table: SeekerTable) -> list[list[str]]:
    """The missile table's target size and speed columns side by side."""
    rows = []
    for i in range(max(len(table.size), len(table.speed))):
        size = table.size[i] if i < len(table.size) else None
        speed = table.speed[i] if i < len(table.speed) else None
        rows.append([size.label if size else "", size.text() if size else "",
                     speed.label if speed else "", speed.text() if speed else ""])
    return rows


def _ko(level_ko: int | None) -> str:
    return (f"Roll a d10 for each weapon or system: {level_ko}+ knocks it out."
            if level_ko is not None else "")


def level_rows(damage: BasicDamage) -> list[list[str]]:
    """Result, damage level and what it does (our words, the numbers from the table)."""
    rows = []
    for level in damage.levels:
        if level.key == "intact":
            effect = "Nothing of consequence."
        elif level.key == "wrecked":
            effect = ("Out of the fight: mark it (smoke and flames); it drifts and blocks lines "
                      "of sight and of fire.")
        else:
            effect = _ko(level.knock_out)
            if level.mobility is not None:
                effect += (f" Speed and MVR each roll a d10: on {level.mobility.trigger}+ "
                           "a further d10 says how much is lost (table below).")
        rows.append([level.result_text(), level.label, effect])
    return rows


def mobility_rows(damage: BasicDamage) -> list[list[str]]:
    """The further d10 of each level that has one."""
    rows = []
    for level in damage.levels:
        if level.mobility is None:
            continue
        for roll in level.mobility.rolls:
            faces = str(roll.low) if roll.low == roll.high else f"{roll.low} to {roll.high}"
            rows.append([level.label, f"{level.mobility.trigger}+", faces,
                         f"-{roll.speed}", f"+{cm(roll.mvr_cm)}"])
    return rows


def special_effect(result: Special) -> str:
    """A special damage result in our own words, its numbers from the table."""
    if result.key == "optional_fire":
        return "Optional rule: a fire breaks out if this hit destroyed any weapon."
    if result.key == "none":
        return "Nothing more."
    if result.key == "demoralisation":
        return (f"Morale shaken: crew quality {result.crew:+d}; it may happen again and may "
                "take the crew below -2.")
    if result.key == "propulsion":
        return (f"Engines fail: lose speed markers at once (table below); top speed falls "
                f"by {result.max_speed_lost} level for good.")
    if result.key == "blackout":
        return ("Power lost: nothing but small arms and machine guns or RPGs may fire until "
                "damage control restores it; a commander aboard loses his initiative bonus "
                "meanwhile. Repeats add up.")
    if result.key == "helm":
        port, starboard = result.port or (0, 0), result.starboard or (0, 0)
        return (f"Helm confused: the vessel turns at once, to port on {port[0]}-{port[1]} "
                f"or to starboard on {starboard[0]}-{starboard[1]} (d10) and then runs "
                f"{result.drift_die or 'd10'} cm straight on.")
    return (f"Fire aboard: the vessel is lit at night and lights everything within "
            f"{cm(result.illumination_cm or 0)} of it. Repeats add up; fight it in damage "
            "control.")


class Card(CanvasDoc):
    """The card's page flow: a table starts on a fresh page rather than break."""

    def section(self, title: str, note: str, grid: Grid, heading: str | None = None,
                keep: float = 30 * MM) -> None:
        """A section kept whole on one page when it fits one (tables read better whole)."""
        super().section(title, note, grid, heading, keep=max(keep, whole(grid)))

    def grid(self, grid: Grid, keep_rows: int = 3) -> None:
        """A table, moved whole to the next page rather than broken where it fits one."""
        self.ensure(whole(grid))
        super().grid(grid, keep_rows)


def whole(grid: Grid) -> float:
    """A table's full height, capped at what a page can surely hold."""
    return min(grid.height(), 200 * MM)


def render_reference(tables: Tables, paper: Paper, footer: str) -> Component:
    """The reference card (key ``card``)."""
    doc = Card(paper, "Modern naval reference card", footer)
    doc.anchor("Reference card")
    doc.paragraph("Modern naval: reference card", "h1")
    doc.paragraph("Every table of the rules, transcribed. Where the rules leave a value out, "
                  f"quarterdeck's choice is printed and marked {LABEL}.")
    ts = tables.turn_sequence
    doc.section(ts.title, "Units are activated one at a time, the sides taking turns, in "
                "every phase unless a rule says otherwise.",
                grid(["Phase", "Step", "What happens"], turn_rows(tables), [14, 14, 100]))
    m = tables.movement
    doc.section(m.title, f"Each speed marker is worth a {cm(m.band_cm)} band of movement.",
                grid(m.header, movement_rows(tables), [24, 70]))
    t = tables.turning
    doc.section(t.title, "Before each turn the vessel must have moved at least the minimum "
                "move of its MVR.", grid(t.header, turning_rows(tables), [24, 40]))
    ini = tables.initiative
    doc.section(ini.title, f"Each side rolls a {ini.die} and adds these; the higher score "
                "has the initiative (ties: see the rules).",
                grid(ini.header, modifier_rows(ini.modifiers, ini.spaced), [80, 30]))
    for search, verb, visual in ((tables.radar_detection, "detect", False),
                                 (tables.visual_identification, "identify", True)):
        fog = (" In fog the final distance is halved." if search.fog_halves else "")
        # The text caps only visual identification at the tactical visibility (4.8); a
        # radar's reach (4.7) is its size's distance whatever the light or weather.
        rows = "ships by size, aircraft by altitude"
        bound = (f"the lower of the tactical visibility and this distance ({rows})." if visual
                 else f"this distance ({rows}); the tactical visibility does not shorten it.")
        doc.section(search.title, f"The farthest a unit may try to {verb}: {bound}{fog}",
                    grid(search.header, range_rows(search), [90, 30]))
        doc.paragraph(f"{search.title}: roll {search.die} with these; {search.success} or "
                      "more succeeds.", "h3")
        doc.grid(grid(search.modifier_header, modifier_rows(search.modifiers, search.spaced),
                      [90, 30]))
        doc.space(2)
    doc.paragraph("A radar success: the contact's owner either removes it or marks it as a "
                  "radar contact. A visual success: a plain contact is removed or shown as a "
                  "real unit; a radar contact becomes one of the owner's units or a civilian "
                  "vessel or aircraft.")
    cmt = tables.combat_modifiers
    doc.section(cmt.title, "Ship against ship every modifier counts; when aircraft take part "
                "only the groups whose Used By column names the attack. Modifiers are added "
                "to the die.", grid(cmt.header, combat_rows(tables), [70, 28, 40]))
    for table in (tables.sam_modifiers, tables.missile_modifiers):
        head = [*table.header]
        g = grid(head, seeker_rows(table), [28, 24, 20, 20, 20],
                 ["left", "left", "center", "center", "center"])
        doc.section(table.title, f"Columns: the target's {escape(table.ecm_header)}.", g)
        if table.target_header is not None:
            doc.grid(grid(["Target size", "", "Speed markers", ""], target_rows(table),
                          [30, 16, 30, 16]))
            doc.space(1)
        doc.grid(grid(["Other modifiers", ""], other_rows(table), [80, 60]))
        doc.space(2)
    hit = tables.to_hit
    by_kind = "".join(f"; {escape(k)}: {v}" for k, v in hit.by_kind.items())
    # The score is quarterdeck's unless the user's --tables file gave their own.
    chosen = is_default(hit)
    doc.section(mark("To hit", chosen), "The rules print the modifiers but not the score to "
                f"beat. {LABEL + ': a' if chosen else 'A'} hit needs a modified {hit.die} of "
                f"{hit.score} or more{by_kind}. "
                "A target without ECM reads "
                f"{mark(signed(hit.no_ecm, False), chosen)} in the seeker grid, and n/a "
                "means that ECM does not affect that seeker (adds 0). Missiles and guided "
                f"torpedoes, {mark('procedure', True)}: launch in the launch "
                "phase as a marker, move with the vessels; in the combat phase the target "
                "may shoot SAMs at it (SAM table, missile row), deploy countermeasures (the "
                "ECM column) and fire CIWS (combat table as a ship gun against a "
                f"{hit.missile_size.replace('-', ' ')} air target); a survivor then rolls "
                "on the missile table. Torpedoes read the missile table's target rows with "
                "no ECM column.",
                grid(["Roll", "Hit on"], [[hit.die, mark(f"{hit.score}+", chosen)]], [20, 40]))
    bd = tables.basic_damage
    doc.section(bd.title, f"Roll {bd.die} with these modifiers; a score of 1 or more means "
                "every working weapon and system (FCS, EO, ESM, ECM too) rolls on its own, "
                "except spent limited-ammunition weapons. Mark the worst level reached.",
                grid(bd.header, modifier_rows(bd.modifiers, True), [90, 30]))
    doc.grid(grid(bd.results_header, level_rows(bd), [20, 28, 120], wrap=frozenset({2})))
    doc.space(1)
    doc.grid(grid(["Level", "Trigger", "Further d10", "Speed", "MVR"], mobility_rows(bd),
                  [30, 18, 24, 18, 20]))
    doc.space(2)
    sd = tables.special_damage
    doc.section(sd.title, f"After light damage or worse roll {sd.die}, unmodified.",
                grid(sd.header, [[r.roll, special_effect(r)] for r in sd.results],
                     [24, 140], wrap=frozenset({1})))
    prop = sd.by_key("propulsion")
    doc.grid(grid(["Propulsion d10", "Speed markers removed"],
                  [[f"{m.low} to {m.high}" if m.low != m.high else str(m.low), str(m.lost)]
                   for m in prop.markers_lost], [30, 40]))
    doc.space(2)
    ad = tables.aircraft_damage
    names = {lv.key: lv.label for lv in bd.levels}
    fate = [[", ".join(names[k] for k in ad.continues), "Flies on."],
            [", ".join(names[k] for k in ad.leaves_and_may_return),
             "Leaves the table at once; may come back over any edge in a later air move "
             "after a crew test and carries an aircraft damage marker."],
            [", ".join(names[k] for k in ad.lost),
             "Out of the game (aborted or shot down)."]]
    doc.section(ad.title, "Aircraft roll basic damage only. Any result but Intact also "
                "cancels the CMD or guided bomb attacks the aircraft is making.",
                grid(["Result", "Aircraft"], fate, [50, 110], wrap=frozenset({1})))
    dc = tables.damage_control
    doc.section(dc.title, f"In the damage control phase roll {dc.die} plus crew quality for "
                "each damaged system and each fire. Repairable: "
                f"{escape(', '.join(dc.systems))}. Weapons stay lost. A repair clears all of a "
                "system's damage (speed returns to the maximum left after any propulsion "
                "failure).",
                grid(dc.header, [[r.shown, f"Systems: {r.system} {r.fires_word}: {r.fire}"]
                                 for r in dc.results], [24, 110]))
    pdf, pages = doc.finish()
    # A card: its pages print back to back, starting on a right-hand page.
    return Component("card", "Reference card", "Card-", pdf, pages, doc.bookmarks[1:],
                     two_sided=True)


@COMPONENTS("reference-card")
def reference_card(ctx: Context[Derived], arg: str | None) -> Component:
    """The reference card, from the build's tables (``--tables`` honoured)."""
    return render_reference(context_tables(ctx.options), ctx.paper,
                            ctx.data.foot)
