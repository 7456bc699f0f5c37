"""Table aids in centimetres: movement bands, MVR turning, detection ranges, fire light.

All are strips for the shared strip engine (``generator.aids.strips``): split across pages
with glue tabs, calibration bars on every page, every length exact in points. The
numbers come from ``rules.yaml`` (bands, minimum moves, ranges, aircraft bonuses, fog,
the light of a burning ship), so a ``--tables`` file changes the aids too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.aids.strips import TICK_LENGTH, Band, Extra, Mark, SegmentView, Strip, render_strips
from generator.core import fonts
from generator.core.units import MM
from generator.kit.seam import Context
from generator.pages.component import Component
from generator.rulesets.modern_naval.registry import COMPONENTS
from generator.rulesets.modern_naval.tables import Search, Tables, context_tables

if TYPE_CHECKING:
    from generator.rulesets.modern_naval.ruleset import Derived

CM = 10 * MM
ZERO = Mark(0.0, "major", "0")
"""The zero line: the shared engine leaves paper before it, so it must be marked."""
BAND_TINTS = (colors.Color(0.80, 0.88, 0.97), colors.Color(0.93, 0.96, 1.0))


def cm_marks(length_cm: float, labelled_every: int = 5) -> list[Mark]:
    """A tick every cm, longer and labelled every ``labelled_every`` cm."""
    marks = [ZERO]
    for i in range(1, int(length_cm) + 1):
        major = i % labelled_every == 0
        marks.append(Mark(i * CM, "major" if major else "minor", f"{i}" if major else ""))
    return marks


def movement_strip(tables: Tables) -> Strip:
    """Speed markers to 5 cm bands: each band shaded and named by its markers."""
    m = tables.movement
    bands = [Band((b.markers - 1) * m.band_cm * CM, b.markers * m.band_cm * CM,
                  BAND_TINTS[b.markers % 2],
                  f"{b.markers} marker{'s' * (b.markers > 1)}: {b.low_cm:g}–{b.high_cm:g} cm")
             for b in m.bands]
    length = m.bands[-1].high_cm
    marks = cm_marks(length)
    first = m.bands[0]
    if first.low_cm > 0 and not float(first.low_cm).is_integer():
        marks.append(Mark(first.low_cm * CM, "mid"))
    marks = [Mark(mk.at, mk.size, f"{mk.at / CM:g}" if mk.size == "major" or (
        abs(mk.at - first.low_cm * CM) < 1e-6) else "") for mk in marks]
    return Strip("movement", f"Movement: {m.band_cm:g} cm bands", length * CM,
                 sorted(marks, key=lambda mk: mk.at), bands)


def turning_strip(tables: Tables) -> Strip:
    """The straight run each MVR needs before a turn, one labelled tick each."""
    rows = tables.turning.rows
    length = max(r.minimum_cm for r in rows)
    at = {r.minimum_cm * CM: f"MVR {r.mvr}" for r in rows}
    marks = [Mark(i * CM / 2, "minor") for i in range(1, int(2 * length) + 1)
             if not any(abs(i * CM / 2 - a) < 1e-6 for a in at)]
    marks += [ZERO, *(Mark(a, "major", label) for a, label in at.items())]
    return Strip("turning", "Turning: least move before each turn", length * CM,
                 sorted(marks, key=lambda mk: mk.at), height=16 * MM)


ABBREVIATION = {"very-small": "VS", "small": "S", "medium": "M", "large": "L",
                "very-large": "VL"}
ALT = {"low": "lo", "medium": "med", "high": "hi"}


def search_strip(search: Search, key: str, fog: bool = False) -> Strip:
    """Detection or identification limits as labelled ticks, the aircraft bonus marked.

    Each row's limit is named by its size (``S``) or size and aircraft altitude
    (``M/lo``); the same row's limit against an aircraft contact is named ``+air``.

    Args:
        search: The radar or visual table.
        key: Strip key.
        fog: Mark the fog-halved distances (visual identification in fog).

    """
    scale = 0.5 if fog and search.fog_halves else 1.0
    names: dict[float, list[str]] = {}
    for row in search.ranges:
        name = ABBREVIATION[row.size] + (f"/{ALT[row.altitude]}" if row.altitude else "")
        names.setdefault(row.cm * scale, []).append(name)
        names.setdefault((row.cm + search.bonus.cm) * scale, []).append(f"{name} +air")
    length = max(names)
    marks = [Mark(i * CM, "mid" if i % 10 == 0 else "minor", str(i) if i % 10 == 0 else "")
             for i in range(1, int(length) + 1) if not any(abs(i - d) < 1e-6 for d in names)]
    labels = {d * CM: f"{d:g} cm: " + " · ".join(parts) for d, parts in names.items()}
    marks += [ZERO, *(Mark(at, "major") for at in labels)]
    fogged = " in fog (halved)" if scale != 1 else ""
    title = (f"{search.title}{fogged}: VS/S/M/L/VL size; lo/med/hi aircraft altitude; "
             f"+air: +{search.bonus.cm * scale:g} cm against aircraft")
    return Strip(key, title, length * CM, sorted(marks, key=lambda mk: mk.at),
                 extra=limit_labels(labels))


def limit_labels(labels: dict[float, str]) -> Extra:
    """Draw each limit's label under its tick: centred, or beside it near a segment's end.

    The strip engine hides a centred label that would run off its segment; a limit at a
    segment's end still needs its name, so it goes on the side that has room.
    """
    def draw(c: Canvas, view: SegmentView, start: float, end: float) -> None:
        low, high = view.x(view.start) + 1.0 * MM, view.x(view.end) - 1.0 * MM
        y = view.top - TICK_LENGTH["major"] - 3.0 * MM
        c.setFillColor(colors.black)
        for at, text in labels.items():
            if not view.start - 1e-6 <= at <= view.end + 1e-6:
                continue
            x = view.x(at)
            wide = fonts.string_width(text, fonts.BOLD, 8)
            if low <= x - wide / 2 and x + wide / 2 <= high:
                left = x - wide / 2
            elif x + 1.2 * MM + wide <= high:
                left = x + 1.2 * MM
            elif x - 1.2 * MM - wide >= low:
                left = x - 1.2 * MM - wide
            else:
                continue
            c.setFont(fonts.BOLD, 8)
            c.drawString(left, y, text)

    return draw


def fire_strip(tables: Tables) -> Strip:
    """The radius a burning ship lights at night."""
    radius = tables.special_damage.by_key("fire").illumination_cm or 0
    marks = [ZERO, *(Mark(i * CM, "minor") for i in range(1, int(radius)))]
    marks.append(Mark(radius * CM, "knot", f"{radius:g} cm", "lit by a fire"))
    return Strip("fire", "A burning ship lights all within this radius", radius * CM, marks,
                 height=16 * MM)


def aid_strips(tables: Tables) -> list[Strip]:
    """Every aid strip, in print order."""
    strips = [movement_strip(tables), turning_strip(tables),
              search_strip(tables.radar_detection, "radar")]
    visual = tables.visual_identification
    strips.append(search_strip(visual, "visual"))
    if visual.fog_halves:
        strips.append(search_strip(visual, "visual-fog", fog=True))
    strips.append(fire_strip(tables))
    return strips


def render_aids(tables: Tables, paper: str, footer: str) -> Component:
    """The aids (key ``aids``)."""
    component, _ = render_strips(
        aid_strips(tables), paper, "Table aids (cm)", footer, "aids", "Aids-",  # type: ignore[arg-type]
        ["Print at 100 %; check the calibration bars. Cut each strip out; glue a segment's "
         "grey tab under the end of the one before.",
         "Distances are measured in centimetres on the table.",
         # An empty last line: the shared engine sets the first strip's cut line only
         # 1 mm under the last note's baseline, so the note's descenders would touch it.
         ""])
    return component


@COMPONENTS("aids")
def aids(ctx: Context[Derived], arg: str | None) -> Component:
    """The table aids in cm."""
    return render_aids(context_tables(ctx.options), ctx.paper,
                       ctx.data.foot)
