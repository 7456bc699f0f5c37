"""Modern naval markers for one side: contacts and dummies, speed, damage and the rest.

Every marker is drawn from a face layout in ``tables/markers.yaml`` (``generator/pieces/faces.py``)
and imposed on sheets by the shared engine (``base.sheet_component``). Numbers printed
on markers come from ``rules.yaml``: the 5 cm band of each speed marker, the knock-out
score of each damage level, the fire's light radius.

Contacts hide information: every real contact and every dummy of a side is drawn by one
and the same front art, and their numbers (printed on the backs only) are dealt at
random, so neither the face nor the piece id on the sheet tells them apart.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from generator.data.datamodel import Strict
from generator.data.validation import load_model
from generator.kit.seam import Context, Rendered, sheet_component
from generator.pages.autofit import LabelFitter
from generator.pieces.faces import Face, face_art, face_piece, faces_precheck
from generator.pieces.pieces import Piece
from generator.pieces.sprue import Sprue, user_or_bundled
from generator.rules.dice import in_force, owner_seed
from generator.rulesets.modern_naval.model import UnitView, WeaponView
from generator.rulesets.modern_naval.registry import COMPONENTS
from generator.rulesets.modern_naval.tables import Tables, context_tables

if TYPE_CHECKING:
    from generator.rulesets.modern_naval.ruleset import Derived

HERE = Path(__file__).parent
MARKERS_FILE = HERE / "tables" / "markers.yaml"
SPRUE_FILE = HERE / "sprues" / "markers.yaml"
AIR = ("aircraft", "helicopter")
ALTITUDES = ("low", "medium", "high")
"""An aircraft's altitudes, as the detection tables' rows name them."""
Count = int


class Counts(Strict):
    """How many of each marker a side gets."""

    speed_sets_per_vessel: int = Field(ge=0, le=4)
    contacts_per_unit: int = Field(ge=0, le=4)
    dummies: int = Field(ge=0, le=60)
    civilian_vessels: int = Field(ge=0, le=60)
    civilian_aircraft: int = Field(ge=0, le=60)
    fires_per_vessel: int = Field(ge=0, le=10)
    damage_sets_per_vessel: int = Field(ge=0, le=4)
    blackouts_per_vessel: int = Field(ge=0, le=4)
    aircraft_damage_per_aircraft: int = Field(ge=0, le=6)
    missiles_per_launcher: int = Field(ge=0, le=20)
    most_per_weapon: int = Field(ge=0, le=40)
    generic_vessels: int = Field(ge=0, le=40)
    generic_aircraft: int = Field(ge=0, le=40)


class Colours(Strict):
    """A side's marker colours."""

    fill: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    ink: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")


class MarkerFaces(Strict):
    """The face layouts of every marker."""

    contact: Face
    contact_back: Face
    dummy_back: Face
    radar_contact: Face
    civilian: Face
    speed: Face
    missile: Face
    damage: Face
    fire: Face
    blackout: Face
    aircraft_damage: Face
    altitude: Face


class MarkerTables(Strict):
    """``tables/markers.yaml``."""

    counts: Counts
    side_colours: list[Colours] = Field(min_length=1, max_length=12)
    faces: MarkerFaces


@functools.cache
def bundled_markers() -> MarkerTables:
    """The bundled marker tables."""
    return load_model(MarkerTables, MARKERS_FILE, "modern_naval/tables/markers.yaml",
                      precheck=faces_precheck("faces"))


DAMAGE_GROUNDS = {"light": "#b38600", "heavy": "#c25400", "critical": "#a01010",
                  "wrecked": "#2b2b2b"}
"""Damage markers darken as the level worsens, so a glance across the table reads them."""


def deal_numbers(real: int, dummies: int, rng: random.Random) -> dict[int, bool]:
    """Numbers 1..real+dummies dealt at random: True for a real contact, False a dummy."""
    numbers = list(range(1, real + dummies + 1))
    rng.shuffle(numbers)
    return {n: i < real for i, n in enumerate(numbers)}


FORM_LABELS = {False: "CONTACT", True: "AIR CONTACT"}
"""A contact's form as printed: the detection tables read whether it is an aircraft."""


def air_dummies(dummies: int, units: Sequence[UnitView]) -> int:
    """How many of a side's dummies come in the aircraft form: its share of aircraft.

    A side of ships only gets surface dummies, a side of aircraft only air dummies, and
    a mixed side splits them by its units, halves rounded up toward aircraft.
    """
    if not units:
        return 0
    share = dummies * sum(1 for u in units if u.category in AIR) / len(units)
    return int(share + 0.5)


def launcher_markers(weapon: WeaponView, counts: Counts) -> int:
    """Markers for one missile or torpedo weapon: its rounds, capped."""
    rounds = weapon.ammunition if weapon.ammunition is not None else counts.missiles_per_launcher
    return min(rounds, counts.most_per_weapon)


def side_pieces(tables: Tables, marks: MarkerTables, side_id: str, side_name: str,
                units: Sequence[UnitView], colours: Colours, seed: int, dummies: int,
                fitter: LabelFitter) -> list[Piece]:
    """Every marker one side needs, in sheet order, each with its quantity and group."""
    faces, counts = marks.faces, marks.counts
    colour = {"fill": colours.fill, "ink": colours.ink}
    vessels = [u for u in units if u.category not in AIR]
    aircraft = [u for u in units if u.category in AIR]
    pieces: list[Piece] = []

    # Contacts: one front for each form (surface, aircraft), backs by number.
    real_units = [u for u in units for _ in range(counts.contacts_per_unit)]
    rng = random.Random(seed)
    dealt = deal_numbers(len(real_units), dummies, rng)
    front_ids = {False: f"contact.{side_id}", True: f"contact.{side_id}.air"}
    fronts = {air: face_art(faces.contact, {"side": side_name, "label": FORM_LABELS[air],
                                            **colour}, front_ids[air], fitter)
              for air in (False, True)}
    hidden = list(real_units)
    rng.shuffle(hidden)
    # Dummies' forms are dealt after the units, so a side's units keep their numbers.
    flying = air_dummies(dummies, real_units)
    dummy_forms = [True] * flying + [False] * (dummies - flying)
    rng.shuffle(dummy_forms)
    forms: dict[bool, int] = {False: 0, True: 0}
    for number, is_real in sorted(dealt.items()):
        pid = f"contact.{side_id}.{number}"
        if is_real:
            unit = hidden.pop()
            air = unit.category in AIR
            back = face_art(faces.contact_back, {"number": number, "unit": unit.name,
                                                 "fill": colours.fill}, pid, fitter)
        else:
            air = dummy_forms.pop()
            back = face_art(faces.dummy_back, {"number": number, "fill": colours.fill}, pid,
                            fitter)
        forms[air] += 1
        # The title names the form, which the front shows anyway, and not whether the
        # contact is real: warnings and manifests may be seen by others.
        title = f"{'Air contact' if air else 'Contact'} {number}"
        pieces.append(Piece(pid, title, *faces.contact.size, fronts[air], back, 1,
                            "contact", fitter.of([front_ids[air], pid])))

    # Any contact may become a radar contact: one for each, in its form.
    bonus = tables.visual_identification.bonus.cm
    notes = {False: "identify to reveal", True: f"identify: +{bonus:g} cm"}
    for air in (False, True):
        if forms[air]:
            suffix = ".air" if air else ""
            pieces.append(face_piece(faces.radar_contact,
                                     {"fill": colours.fill, "label": FORM_LABELS[air],
                                      "note": notes[air]},
                                     f"radar-contact.{side_id}{suffix}",
                                     "Air radar contact" if air else "Radar contact",
                                     forms[air], "radar-contact", fitter))
    for what, count in (("vessel", counts.civilian_vessels),
                        ("aircraft", counts.civilian_aircraft)):
        if count:
            pieces.append(face_piece(faces.civilian, {"what": what},
                                     f"civilian.{side_id}.{what}", f"Civilian {what}", count,
                                     "civilian", fitter))

    # Speed markers 0..the fastest vessel's rating, one set per vessel that can reach it.
    top = max((v.speed for v in vessels), default=0)
    for number in range(0, top + 1):
        need = sum(1 for v in vessels if v.speed >= number) * counts.speed_sets_per_vessel
        if not need:
            continue
        band = tables.movement.band(number)
        legend = (f"{band.low_cm:g}–{band.high_cm:g} cm" if band is not None else "drifts")
        pieces.append(face_piece(faces.speed, {"number": number, "band": legend, **colour},
                                 f"speed.{side_id}.{number}", f"Speed {number}", need,
                                 "speed", fitter))

    # Missiles and torpedoes in flight, numbered so that each can be followed.
    for kind, label, group in (("missile", "MISSILE", "missile"),
                               ("torpedo", "TORPEDO", "torpedo")):
        total = sum(launcher_markers(w, counts) for u in units for w in u.weapons
                    if w.kind == kind or (kind == "missile" and w.kind == "sam"
                                          and "surface" in w.targets))
        for number in range(1, total + 1):
            pieces.append(face_piece(faces.missile, {"number": number, "label": label,
                                                     **colour},
                                     f"{group}.{side_id}.{number}", f"{label.title()} {number}",
                                     1, group, fitter))

    if vessels:
        for level in tables.basic_damage.levels[1:]:
            note = (f"KO {level.knock_out}+" if level.knock_out is not None else "drifts")
            pieces.append(face_piece(faces.damage, {"level": level.label.split(" ")[0].upper(),
                                                    "note": note,
                                                    "ground": DAMAGE_GROUNDS[level.key]},
                                     f"damage.{side_id}.{level.key}", level.label,
                                     len(vessels) * counts.damage_sets_per_vessel, "damage",
                                     fitter))
        fire = tables.special_damage.by_key("fire")
        pieces.append(face_piece(faces.fire, {"note": f"lights {fire.illumination_cm:g} cm"},
                                 f"fire.{side_id}", "Fire",
                                 len(vessels) * counts.fires_per_vessel, "fire", fitter))
        pieces.append(face_piece(faces.blackout, {}, f"blackout.{side_id}", "Blackout",
                                 len(vessels) * counts.blackouts_per_vessel, "blackout", fitter))
    if aircraft:
        per = next((m for m in tables.basic_damage.modifiers
                    if m.factor == "aircraft_markers"), None)
        note = f"{per.value:+d} to damage" if per is not None and per.value else "damaged"
        pieces.append(face_piece(faces.aircraft_damage, {"note": note},
                                 f"aircraft-damage.{side_id}", "Aircraft damage",
                                 len(aircraft) * counts.aircraft_damage_per_aircraft,
                                 "aircraft-damage", fitter))
        # One of each altitude per aircraft: the distances it detects and identifies at.
        for height in ALTITUDES:
            radar = tables.radar_detection.limit_row("medium", height).cm
            visual = tables.visual_identification.limit_row("medium", height).cm
            pieces.append(face_piece(faces.altitude, {
                "level": height.upper(), "radar": f"radar {radar:g} cm",
                "visual": f"visual {visual:g} cm", "fill": colours.fill},
                f"altitude.{side_id}.{height}", f"Altitude {height}", len(aircraft),
                # With the aircraft's damage markers: the sheet's groups stay as they were.
                "aircraft-damage", fitter))
    return pieces


def generic_units(counts: Counts) -> list[UnitView]:
    """Stand-in units for a sheet made without a scenario."""
    vessels = [UnitView(id=f"vessel-{i}", name=f"Vessel {i}", category="ship", size="medium",
                        speed=6, mvr=6,
                        weapons=(WeaponView(name="missile", kind="missile"),
                                 WeaponView(name="torpedo", kind="torpedo",
                                            targets=frozenset({"surface", "submarine"}))))
               for i in range(1, counts.generic_vessels + 1)]
    planes = [UnitView(id=f"aircraft-{i}", name=f"Aircraft {i}", category="aircraft",
                       size="small") for i in range(1, counts.generic_aircraft + 1)]
    return [*vessels, *planes]


def sprue(path: Path | None) -> Sprue:
    """The user's sheet layout (``--sprue``) or the bundled one."""
    return user_or_bundled(path, SPRUE_FILE, "modern_naval/sprues/markers.yaml")


@COMPONENTS("markers")
def markers(ctx: Context[Derived], arg: str | None) -> Rendered:
    """One side's markers (``markers:<side>``), or a generic sheet without a scenario."""
    tables = context_tables(ctx.options)
    marks = bundled_markers()
    views, dummies = ctx.data.views, ctx.data.dummies
    sides = list(ctx.sides)
    # Every side's name: a word of one is cut to fit only where it tells no two apart.
    fitter = LabelFitter(ctx.sides.values())
    if arg is None or arg not in ctx.sides:
        side_id, side_name, index = "generic", "Contact", 0
        units: Sequence[UnitView] = generic_units(marks.counts)
        if arg is not None:
            side_id, side_name = arg, arg
    else:
        side_id, side_name, index = arg, ctx.sides[arg], sides.index(arg)
        units = views.get(arg, [])
    colours = marks.side_colours[index % len(marks.side_colours)]
    # Each side's dummies are dealt from its own seed, as its dice are drawn.
    seed = owner_seed(in_force(ctx.options.seed), side_id, True)
    pieces = side_pieces(tables, marks, side_id, side_name, units, colours, seed,
                         dummies.get(side_id, marks.counts.dummies), fitter)
    title = f"Markers: {side_name}" if side_id != "generic" else "Markers"
    return sheet_component(ctx, pieces, sprue(ctx.options.sprue), f"markers:{side_id}", title,
                           "Markers-", ctx.data.foot,
                           fitter.warnings)
