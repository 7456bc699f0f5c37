# ruff: noqa: E501  (one field per line, as in the other rulesets' schema.py files)
"""Modern naval data: rated classes, aircraft, the weapons table, the rating rules, scenarios.

Ships and submarines are shared class files (``shipdata/classes/modern/<navy>/``) with
missile-era facts under ``modern:``; ``rating.py`` checks the class file's
``ratings: {modern-naval: ...}`` block and files a ``ModernClass`` for this ruleset.
Aircraft and helicopters have no place in the ship model, so they are files of their own
kind (``kind: aircraft-class``). Game values are not stored: ``derive.py`` computes them
from the facts with the rating rules in force (``tables/rating.yaml``, replaceable with
``--tables``), then applies the file's overrides.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from generator.core.suggest import did_you_mean
from generator.data.datamodel import Line, Nation, Ship, SideBase, Strict, once
from generator.data.setup import Setup
from generator.data.shipclass import ModernSystem, ModernWeapon, ShipType

SIZES = ("very-small", "small", "medium", "large", "very-large")
"""Size classes, as the text's modifier tables name them."""
SEEKERS = ("ARH", "SARH", "CMD (V)", "CMD (R)", "CMD (Wire)", "IR")
"""Seeker rows of the SAM and missile modifier tables."""
GENERATIONAL = ("ARH", "SARH")
"""Seekers whose rows the tables split by generation (1st, 2nd, 3rd)."""
MVRS = (2, 4, 6, 8, 10)
"""The turning table's MVR values."""
KINDS = ("gun", "rocket", "bomb", "sam", "missile", "torpedo", "ciws", "asw")
TARGETS = ("surface", "air", "submarine", "missile")

Size = Literal["very-small", "small", "medium", "large", "very-large"]
Generation = Annotated[int, Field(ge=1, le=3)]
WEAPON_ID = r"^[a-z0-9][a-z0-9.-]*$"


def check_mvr(value: int | None) -> int | None:
    """An MVR must be one of the turning table's rows."""
    if value is not None and value not in MVRS:
        raise ValueError("expected one of the text's MVR values: "
                         + ", ".join(str(m) for m in MVRS))
    return value


class Overrides(Strict):
    """Game values a class file sets by hand instead of the rating rules (all optional)."""

    size: Size | None = Field(None, description="Size class: very-small, small, medium, large or very-large.")
    speed: int | None = Field(None, ge=0, le=6, description="Speed rating: the most speed markers (0-6).")
    mvr: int | None = Field(None, description="MVR, one of 2, 4, 6, 8, 10 (cm of minimum move before a turn).")
    damage: int | None = Field(None, ge=-5, le=5, description="Target damage modifier added to the basic damage d10.")
    crew: int | None = Field(None, ge=-2, le=2, description="Crew quality -2..+2 (a scenario may set it again).")
    fcs: int | None = Field(None, ge=0, le=3, description="Fire-control generation 1-3, 0 for none.")
    eo: int | None = Field(None, ge=0, le=3, description="EO generation 1-3, 0 for none.")
    esm: int | None = Field(None, ge=0, le=3, description="ESM generation 1-3, 0 for none.")
    ecm: int | None = Field(None, ge=0, le=3, description="ECM generation 1-3, 0 for none.")
    weapons: list[ModernWeapon] | None = Field(None, max_length=30, description="Weapon fits replacing the facts' list.")
    notes: str | None = Field(None, max_length=4000, description="Designer's notes on the hand ratings.")

    @field_validator("mvr")
    @classmethod
    def _mvr(cls, value: int | None) -> int | None:
        return check_mvr(value)


class AircraftOverrides(Overrides):
    """Hand ratings of an aircraft type: as a class's, but aircraft do not turn by MVR."""

    @field_validator("mvr")
    @classmethod
    def _mvr(cls, value: int | None) -> int | None:
        if value is not None:
            raise ValueError("expected no mvr: aircraft and helicopters do not turn by MVR")
        return value


class ModernClass(Strict):
    """A ship or submarine class as this ruleset files it: facts, plus hand ratings."""

    kind: Literal["ship-class"] = Field(description="Always 'ship-class'.")
    ruleset: Literal["modern-naval"] = Field(description="Always 'modern-naval'.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60, description="Stable id, equal to the file name.")
    name: str = Field(min_length=1, max_length=60, description="Class name.")
    nation: Nation = Field(description="Navy.")
    type: ShipType = Field(description="Ship type.")
    category: Literal["ship", "submarine"] = Field("ship", description="ship or submarine.")
    ships: list[Ship] = Field(min_length=1, max_length=300, description="The ships of the class.")
    length_m: float = Field(ge=10, le=400, description="Overall length in metres.")
    full_load_t: int = Field(ge=10, le=120000, description="Full-load displacement in tonnes.")
    speed_kn: float = Field(gt=0, le=60, description="Maximum speed in knots.")
    systems: list[ModernSystem] = Field(default_factory=list, max_length=30, description="Fire control, EO, ESM and ECM sets.")
    weapons: list[ModernWeapon] = Field(default_factory=list, max_length=30, description="Weapon fits.")
    helicopters: int = Field(0, ge=0, le=100, description="Helicopters carried.")
    aircraft: int = Field(0, ge=0, le=200, description="Fixed-wing aircraft carried.")
    complement: int | None = Field(None, ge=1, le=6000, description="Crew as built.")
    overrides: Overrides = Field(default_factory=lambda: Overrides.model_validate({}), description="Hand ratings.")
    sources: list[Line] = Field(min_length=1, max_length=40, description="Where the facts came from.")
    unverified: list[Line] = Field(default_factory=list, max_length=500, description="Figures no source confirmed.")
    notes: str | None = Field(None, max_length=4000, description="Designer's notes.")


class AircraftClass(Strict):
    """An aircraft or helicopter type (one YAML file, ``kind: aircraft-class``)."""

    kind: Literal["aircraft-class"] = Field(description="Always 'aircraft-class'.")
    ruleset: Literal["modern-naval"] = Field(description="Always 'modern-naval'.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60, description="Stable id, equal to the file name.")
    name: str = Field(min_length=1, max_length=60, description="Type name, e.g. 'A-4 Skyhawk'.")
    nation: Nation = Field(description="Air arm's country.")
    category: Literal["aircraft", "helicopter"] = Field(description="aircraft or helicopter.")
    service_year: int = Field(ge=1940, le=2100, description="Year the type (this variant) entered service.")
    max_takeoff_kg: float = Field(ge=100, le=700000, description="Maximum take-off weight in kg.")
    speed_kn: float = Field(gt=0, le=2500, description="Maximum speed in knots.")
    systems: list[ModernSystem] = Field(default_factory=list, max_length=30, description="Radar or fire control, EO, ESM and ECM sets.")
    weapons: list[ModernWeapon] = Field(default_factory=list, max_length=30, description="A typical anti-ship or air-defence load.")
    ratings: AircraftOverrides = Field(default_factory=lambda: AircraftOverrides.model_validate({}), description="Hand ratings (mvr does not apply).")
    sources: list[Line] = Field(min_length=1, max_length=40, description="Where the facts came from.")
    unverified: list[Line] = Field(default_factory=list, max_length=500, description="Figures no source confirmed.")
    notes: str | None = Field(None, max_length=4000, description="Designer's notes.")


class WeaponSpec(Strict):
    """One weapon type: what it is, its seeker, its reach and its warhead."""

    name: str = Field(min_length=1, max_length=40, description="As printed, e.g. 'Exocet MM38'.")
    kind: Literal["gun", "rocket", "bomb", "sam", "missile", "torpedo", "ciws", "asw"] = Field(description="gun, rocket, bomb, sam, missile, torpedo, ciws or asw.")
    seeker: str | None = Field(None, max_length=20, description="ARH, SARH, CMD (V), CMD (R), CMD (Wire) or IR; none for unguided weapons.")
    generation: int | None = Field(None, description="1-3 for ARH and SARH; none for the other seekers.")
    targets: list[Literal["surface", "air", "submarine", "missile"]] = Field(min_length=1, max_length=4, description="What it may engage.")
    range_km: tuple[Annotated[float, Field(ge=0, le=2000)], Annotated[float, Field(ge=0, le=2000)]] | None = Field(None, description="[minimum, maximum] range in km, as sourced (or range_nm).")
    range_nm: tuple[Annotated[float, Field(ge=0, le=1000)], Annotated[float, Field(ge=0, le=1000)]] | None = Field(None, description="[minimum, maximum] range in nautical miles, when the source gives miles.")
    range_cm: tuple[Annotated[float, Field(ge=0, le=2000)], Annotated[float, Field(ge=0, le=2000)]] | None = Field(None, description="[minimum, maximum] range on the table in cm, replacing the ground-scale rule.")
    warhead_kg: float | None = Field(None, ge=0, le=5000, description="Warhead (or shell or bomb) weight in kg, as sourced; sets the damage modifier.")
    damage: int | None = Field(None, ge=-5, le=5, description="Weapon damage modifier replacing the warhead rule.")
    sources: list[Line] = Field(default_factory=list, max_length=20, description="Where the figures came from.")
    unverified: list[Line] = Field(default_factory=list, max_length=20, description="Figures no source confirmed.")

    @field_validator("seeker")
    @classmethod
    def _seeker(cls, value: str | None) -> str | None:
        if value is not None and value not in SEEKERS:
            raise ValueError("expected a seeker type the SAM and missile tables have: "
                             f"{', '.join(SEEKERS)}{did_you_mean(value, SEEKERS)}")
        return value

    @field_validator("generation")
    @classmethod
    def _generation(cls, value: int | None, info: ValidationInfo) -> int | None:
        if "seeker" not in info.data:
            return value  # the seeker itself is wrong: that problem is reported already
        seeker = info.data["seeker"]
        if seeker in GENERATIONAL:
            if value not in (1, 2, 3):
                raise ValueError(f"expected generation 1, 2 or 3: the {seeker} rows of the "
                                 "SAM and missile tables are split by generation")
        elif value is not None:
            what = f"the {seeker} row" if seeker else "an unguided weapon"
            raise ValueError(f"expected no generation: {what} has none in the tables")
        return value

    @model_validator(mode="after")
    def _ordered(self) -> WeaponSpec:
        if (self.range_km is None) == (self.range_nm is None):
            raise ValueError("expected exactly one of range_km and range_nm")
        for field in ("range_km", "range_nm", "range_cm"):
            pair = getattr(self, field)
            if pair is not None and pair[0] > pair[1]:
                raise ValueError(f"expected {field} as [minimum, maximum], found {list(pair)}")
        return self


KM_PER_NM = 1.852


def reach_km(spec: WeaponSpec) -> tuple[float, float]:
    """A weapon's sourced (minimum, maximum) range in km, whichever unit it was given in."""
    if spec.range_km is not None:
        return (spec.range_km[0], spec.range_km[1])
    assert spec.range_nm is not None  # the model requires one of the two
    return (spec.range_nm[0] * KM_PER_NM, spec.range_nm[1] * KM_PER_NM)


class Band(Strict):
    """A limit and the value below it."""

    below: float = Field(gt=0, le=1e7)
    value: int | str


class RatingRules(Strict):
    """The rules that turn sourced facts into game values (all quarterdeck DEFAULTs)."""

    metres_per_cm: float = Field(gt=0, le=100000, description="Ground scale: metres of sea per cm of table.")
    ship_size_t: list[Band] = Field(min_length=1, max_length=10, description="Full-load tonnes below which a ship has each size.")
    ship_size_above: Size
    aircraft_size_kg: list[Band] = Field(min_length=1, max_length=10)
    aircraft_size_above: Size
    ship_damage_t: list[Band] = Field(min_length=1, max_length=10)
    ship_damage_above: int = Field(ge=-5, le=5)
    aircraft_damage_kg: list[Band] = Field(min_length=1, max_length=10)
    aircraft_damage_above: int = Field(ge=-5, le=5)
    knots_per_marker: float = Field(gt=0, le=100, description="Knots for each speed marker (rounded down, at most 6).")
    aircraft_speed: int = Field(ge=0, le=6)
    mvr_length_m: list[Band] = Field(min_length=1, max_length=10)
    mvr_above: int
    generation_year: list[Band] = Field(min_length=1, max_length=5)
    generation_above: int = Field(ge=1, le=3)
    weapon_damage_kg: list[Band] = Field(min_length=1, max_length=12)
    weapon_damage_above: int = Field(ge=-5, le=5)
    crew_default: int = Field(ge=-2, le=2)

    @model_validator(mode="after")
    def _values(self) -> RatingRules:
        for band in self.mvr_length_m:
            check_mvr(int(band.value))
        check_mvr(self.mvr_above)
        for bands in (self.ship_size_t, self.aircraft_size_kg):
            for band in bands:
                if band.value not in SIZES:
                    raise ValueError(f"expected sizes {', '.join(SIZES)}, found {band.value}")
        return self


class DataTables(Strict):
    """The data tables a user's ``--tables`` file may replace."""

    weapons: dict[Annotated[str, Field(pattern=WEAPON_ID, max_length=40)], WeaponSpec] = Field(min_length=1, max_length=300)
    rating: RatingRules


class UnitRef(Strict):
    """A unit in a scenario: a ship of a class, or an aircraft or helicopter of a type."""

    class_: str = Field(alias="class", max_length=60, description="Class or aircraft type id.")
    name: str = Field(min_length=1, max_length=60, description="A ship of the class, or the aircraft's call sign.")
    crew: int | None = Field(None, ge=-2, le=2, description="Crew quality, replacing the side's.")
    weapons: list[ModernWeapon] | None = Field(None, max_length=30, description="This unit's load, replacing the class's.")
    note: str | None = Field(None, max_length=500, description="Printed on the unit card.")
    altitude: Literal["low", "medium", "high"] | None = Field(None, description="An aircraft's or helicopter's altitude at the start: the radar and visual distances read it (4.7, 4.8). Not for a ship.")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Side(SideBase):
    """One side; its packet holds only its own units, set-up and briefing."""

    crew: int = Field(0, ge=-2, le=2, description="Crew quality of the side's units.")
    commander_bonus: int = Field(0, ge=-2, le=2, description="Initiative modifier of the commander on table (-2..+2).")
    units: list[UnitRef] = Field(min_length=1, max_length=60, description="The side's units.")
    dummies: int | None = Field(None, ge=0, le=30, description="Dummy contact markers the side gets (default: the markers table's, 4).")
    known: bool = Field(False, description="Whether the side knows the enemy order of battle (its matchup pages then name the enemy units).")
    setup: str | None = Field(None, max_length=4000, description="Where the side's units start (own packet and umpire only).")
    briefing: str | None = Field(None, max_length=4000, description="What the side knows and wants (own packet and umpire only).")

    @property
    def ships(self) -> list[UnitRef]:
        """The side's units, under the name the shared listings count."""
        return self.units


class Scenario(Strict):
    """A modern naval scenario (one YAML file)."""

    kind: Literal["scenario"] = Field(description="Always 'scenario'.")
    ruleset: Literal["modern-naval"] = Field(description="Always 'modern-naval'.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60, description="Stable id, equal to the file name.")
    name: str = Field(min_length=1, max_length=80, description="Action name.")
    date: dt.date = Field(description="Date of the action.")
    date_label: str | None = Field(None, max_length=40, description="Date as printed.")
    sea_state: int = Field(3, ge=0, le=6, description="Sea state 0-6: the text's tables modify from 4 up and stop at 6 (3.1, 4.7, 6.2), so a higher sea state has no rules to play it.")
    fog: bool = Field(False, description="Fog (halves visual identification).")
    night: bool = Field(False, description="Night.")
    visibility_cm: int = Field(ge=1, le=500, description="Tactical visibility in cm, set at game set-up.")
    sides: list[Side] = Field(min_length=2, max_length=4, description="The sides.")
    starting_conditions: str = Field(max_length=4000, description="The whole set-up (umpire only).")
    setup: Setup | None = Field(None, description="The table, its coast and each group's starting position, course and speed: printed as the set-up map (see docs/designers.md).")
    special_rules: list[Line] = Field(default_factory=list, max_length=40, description="Rules every player reads.")
    victory: str = Field(max_length=4000, description="Victory conditions every player reads.")
    sources: list[Line] = Field(min_length=1, max_length=40, description="Where the order of battle came from.")
    unverified: list[Line] = Field(default_factory=list, max_length=100, description="Parts of the order of battle no source confirmed.")

    @field_validator("sides")
    @classmethod
    def _unique(cls, sides: list[Side]) -> list[Side]:
        once([s.id for s in sides], "side id")
        return sides
