"""NAVAL ACTION data schema: ship classes and scenarios, declared once.

Every field carries a description; ``docs/shipdata-naval-action.md`` is generated
from these models (``quarterdeck docs``) and a test fails when it is stale.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field, field_validator

from generator.data.datamodel import (
    NATION_NAMES,
    Line,
    Nation,
    Ship,
    ShipRefBase,
    SideBase,
    Strict,
    once,
)
from generator.data.setup import Setup
from generator.data.shipclass import AAGuns, Aircraft, Position
from generator.data.shipclass import Armor as FactArmor
from generator.data.shipclass import GunBattery as FactBattery
from generator.data.shipclass import Radar as FactRadar
from generator.data.shipclass import ShipType as Shared
from generator.data.typesubset import TypeSubset

__all__ = ["NATION_NAMES", "AAGuns", "Aircraft", "Nation", "Position", "Ship", "Strict"]


SHIP_TYPES = TypeSubset((
    Shared.BB, Shared.BC, Shared.CV, Shared.CVL, Shared.CVE, Shared.CA, Shared.CL,
    Shared.CLAA, Shared.DL, Shared.DD, Shared.DE, Shared.TB, Shared.SS, Shared.AK, Shared.AP))
"""The Master List's types, largest first (the order it lists them): the first 15 shared."""
ShipType = SHIP_TYPES
"""The same list under the name ``rating.py`` iterates."""
NAType = Annotated[Shared, SHIP_TYPES]
"""A ship type a NAVAL ACTION file may name (any other is refused, naming these)."""

TYPE_NAMES = {
    "BB": "battleship", "BC": "battlecruiser", "CV": "aircraft carrier",
    "CVL": "light carrier", "CVE": "escort carrier", "CA": "heavy cruiser",
    "CL": "light cruiser", "CLAA": "anti-aircraft cruiser", "DL": "destroyer leader",
    "DD": "destroyer", "DE": "destroyer escort", "TB": "torpedo boat", "SS": "submarine",
    "AK": "cargo ship", "AP": "transport",
}


class Armor(FactArmor):
    """Armour as built (facts); the armor factor is derived from these (see the rules below)."""

    factor: int | None = Field(None, ge=1, le=10, description="Override the derived armor factor.")


class GunBattery(FactBattery):
    """One battery: guns of one bore that bear through one arc."""

    # The shared facts, with what NAVAL ACTION needs of them: range and rounds required.
    position: Position = Field(description="Arc of fire: BOW, C, STN, L, R, LB, RB, LS or RS.")
    old: bool = Field(False, description="'On' guns: a model designed before 1922 (fires with all old guns, last).")
    max_range_yd: int = Field(ge=1000, le=50000, description="Maximum range in yards.")
    rounds_per_gun: int = Field(ge=1, le=2000, description="Rounds carried per gun.")
    dp: bool = Field(False, description="Dual-purpose guns; 3in-5.25in DP guns count towards the AA factor.")
    note: str | None = Field(None, max_length=500, description="Free text, e.g. '5in/25 single mounts' (at most 500 characters).")
    caliber_factor: int | None = Field(None, ge=1, le=12, description="Override the derived caliber factor.")
    close_range_yd: int | None = Field(None, ge=1, le=50000, description="Override the derived close-range limit (1-50,000 yd).")
    medium_range_yd: int | None = Field(None, ge=1, le=50000, description="Override the derived medium-range limit (1-50,000 yd).")
    fire_step: int | None = Field(None, ge=1, le=20, description="Override the derived step in the gunfire sequence.")


class TorpedoMount(Strict):
    """Identical torpedo mounts (each mount fires its spread in one direction per turn)."""

    size_in: Literal[18, 21, 24] = Field(description="Torpedo diameter in inches: 18, 21 or 24.")
    mounts: int = Field(1, ge=1, le=12, description="How many such mounts (side mounts split evenly left/right).")
    tubes: int = Field(ge=1, le=10, description="Tubes per mount.")
    mount: Literal["side", "centerline"] = Field(description="'side' fires to its own side only; 'centerline' to either side.")
    reloads: int = Field(0, ge=0, le=20, description="Reload torpedoes per mount.")
    two_turn: bool = Field(False, description="Long-range torpedo that runs for two turns (Japanese 24in Type 93).")
    run_yd: int | None = Field(None, ge=500, le=50000, description="Whole run in yards (both turns of a two-turn torpedo); default from the torpedo_runs table.")


class Radar(FactRadar):
    """A radar fit, active in scenarios on or after the date fitted."""

    type: Literal["SC", "SG"] = Field(description="SC (early, 20,000 yd) or SG (later, 30,000 yd).")


class Overrides(Strict):
    """Per-class overrides of derived values (use sparingly, say why in notes)."""

    aa_factor: float | None = Field(None, ge=0, le=50, description="Replace the derived AA factor.")
    damage_control: Literal["good", "poor"] | None = Field(None, description="Force Good or Poor damage control whatever the date.")


class ShipClass(Strict):
    """A NAVAL ACTION ship class (one YAML file)."""

    kind: Literal["ship-class"] = Field(description="Always 'ship-class'.")
    ruleset: Literal["naval-action"] = Field(description="Always 'naval-action' for these files.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60, description="Stable id, lowercase with hyphens, at most 60 characters; equal to the file name.")
    name: str = Field(min_length=1, max_length=60, description="Class name, 1-60 characters, e.g. 'New Orleans'.")
    nation: Nation = Field(description="Navy: " + ", ".join(n.value for n in Nation) + ".")
    type: NAType = Field(description="Type: " + ", ".join(SHIP_TYPES.codes()) + ".")
    ships: list[Ship] = Field(min_length=1, max_length=300, description="The ships of the class (1-300).")
    length_ft: float = Field(ge=50, le=1300, description="Overall length in feet, 50-1300 (sets the 1:12,000 marker; a smaller craft cannot be drawn).")
    armor: Armor = Field(description="Armour facts and optional armor-factor override.")
    speed_kn: float = Field(gt=0, le=45, description="Maximum speed in knots.")
    guns: list[GunBattery] = Field(default_factory=list, max_length=30, description="Surface gun batteries (at most 30).")
    aa_guns: list[AAGuns] = Field(default_factory=list, max_length=20, description="Heavy AA guns not listed as batteries (at most 20).")
    torpedoes: list[TorpedoMount] = Field(default_factory=list, max_length=10, description="Torpedo mounts (at most 10).")
    radar: list[Radar] = Field(default_factory=list, max_length=10, description="Radar fits with dates (at most 10).")
    aircraft: Aircraft | None = Field(None, description="Floatplanes or air group.")
    comparative_strength: float | None = Field(None, ge=0, le=100, description="Comparative Strength (CS); by default measured from firepower, belt and speed.")
    funnels: int | None = Field(None, ge=0, le=6, description="Funnels drawn on the marker's silhouette (default by type: 2 for big ships and destroyers, 1 for escorts and carriers, 0 for submarines).")
    marker_image: str | None = Field(None, pattern=r"(?i)^[^\\]+\.(png|svg)$", max_length=300, description="Your own top-down image for the ship marker instead of the generated silhouette: a PNG or SVG path relative to this file, inside the data folder, at most 2 MB and 4096 px; drawn bow to the right.")
    overrides: Overrides | None = Field(None, description="Overrides of derived values.")
    sources: list[Line] = Field(min_length=1, max_length=40, description="Where the facts came from (title, address, which facts); 1-40 lines of at most 1000 characters.")
    unverified: list[Line] = Field(default_factory=list, max_length=500, description="Field paths of figures no source confirmed (e.g. 'guns.0.rounds_per_gun'); at most 500.")
    notes: str | None = Field(None, max_length=4000, description="Designer's notes (your own words, at most 4000 characters).")

    @field_validator("ships")
    @classmethod
    def _unique_names(cls, ships: list[Ship]) -> list[Ship]:
        once([s.name for s in ships], "ship")
        return ships


class Special(Strict):
    """Scenario-specific condition of one ship (ammunition left, guns out of action...)."""

    rounds_per_gun: dict[Position, Annotated[int, Field(ge=0, le=2000)]] = Field(default_factory=dict, description="Rounds left per gun, by battery position (e.g. {BOW: 20}); 0-2000.")
    disabled: list[Position] = Field(default_factory=list, max_length=9, description="Batteries out of action.")
    damage: Literal["D", "HD"] | None = Field(None, description="Damage at the start.")
    max_speed_kn: float | None = Field(None, gt=0, le=45, description="Speed limit for this scenario.")
    note: str | None = Field(None, max_length=500, description="Printed on the ship's sheet (at most 500 characters).")


class ShipRef(ShipRefBase):
    """A ship in a scenario: class id plus ship name."""

    special: Special | None = Field(None, description="Scenario conditions for this ship.")
    victory_value: float | None = Field(None, ge=0, le=100, description="What sinking this ship scores, agreed before play (a transport or merchant is usually worth far more than its fighting value); 0-100. Default: its comparative strength.")


class Side(SideBase):
    """One side of a scenario; each side gets its own packet."""

    ships: list[ShipRef] = Field(min_length=1, max_length=100, description="Ships of this side (1-100).")
    briefing: str | None = Field(None, max_length=4000, description="What this side knows and wants (only in its own packet and the referee's; at most 4000 characters).")
    setup: str | None = Field(None, max_length=4000, description="Where this side's ships start (only in its own packet and the referee's; at most 4000 characters).")
    special_rules: list[Line] = Field(default_factory=list, max_length=40, description="Conditions only this side (and the referee) should read, e.g. about its own ships; at most 40 lines of 1000 characters.")


class AirGroup(Strict):
    """Aircraft not carried by the scenario's ships (land-based or from off-table carriers)."""

    side: str = Field(max_length=40, description="Side id the aircraft fly for.")
    type: Literal["fighter", "dive-bomber", "torpedo-bomber", "level-bomber"] = Field(description="fighter, dive-bomber, torpedo-bomber or level-bomber.")
    planes: int = Field(ge=1, le=500, description="Number of aircraft (formed into 6-plane elements, fractions rounded off).")
    nation: Nation | None = Field(None, description="Nation of the aircraft (default: that of the side's first ship).")
    note: str | None = Field(None, max_length=500, description="Where they come from, e.g. 'Ju 88s from Sicily' (at most 500 characters).")


class Scenario(Strict):
    """A NAVAL ACTION scenario (one YAML file)."""

    kind: Literal["scenario"] = Field(description="Always 'scenario'.")
    ruleset: Literal["naval-action"] = Field(description="Always 'naval-action' for these files.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60, description="Stable id, at most 60 characters, equal to the file name.")
    name: str = Field(min_length=1, max_length=80, description="Battle name, 1-80 characters.")
    date: dt.date = Field(description="Date the action is fought (sets radar fits and damage control).")
    date_label: str | None = Field(None, max_length=40, description="Date as printed, e.g. '28 Feb/1 Mar 1942' (at most 40 characters).")
    time_of_day: Literal["day", "night", "dawn", "dusk"] = Field(description="day, night, dawn or dusk.")
    start_time: str | None = Field(None, max_length=20, description="Local time the first turn starts, e.g. '01:43'.")
    visibility: Literal["good", "poor", "bad"] = Field(description="good, poor or bad.")
    sea_state: Literal["calm", "moderate", "rough", "very-rough"] = Field(description="calm, moderate, rough or very-rough.")
    scale: str = Field("tabletop", max_length=60, description="Table scale: tabletop, floor, large-floor or 'N yards per cm|in'.")
    sides: list[Side] = Field(min_length=2, max_length=8, description="The sides (two to eight).")
    starting_conditions: str = Field(max_length=4000, description="The whole set-up (referee's packet only: it may name every ship; at most 4000 characters).")
    special_rules: list[Line] = Field(default_factory=list, max_length=40, description="Conditions every player reads; must not name ships (hidden information); at most 40 lines of 1000 characters.")
    enemy_known: bool = Field(False, description="Each side knows the other's order of battle, so its matchup pages may name the enemy classes. Default false: matchups name only the target values (armor), never an enemy class.")
    strength_ratio: bool = Field(False, description="Use the comparative-strength ratio (rule text IV): the stronger side's losses score their CS times the ratio of the sides' totals, to the weaker side's advantage. Default false: every loss scores its plain CS.")
    victory: str = Field(max_length=4000, description="Victory notes every player reads; must not name ships (at most 4000 characters).")
    air_groups: list[AirGroup] = Field(default_factory=list, max_length=20, description="Aircraft from outside the scenario's ships; each gets 6-plane element markers.")
    setup: Setup | None = Field(None, description="The table, its land and each group's starting position, course and speed: printed as the set-up map (see docs/designers.md).")
    sources: list[Line] = Field(min_length=1, max_length=40, description="Where the order of battle came from; 1-40 lines of at most 1000 characters.")

    @field_validator("scale")
    @classmethod
    def _scale(cls, value: str) -> str:
        from generator.core.scales import parse_scale

        parse_scale(value)
        return value
