"""Surface Action data schema: ship classes and scenarios, declared once.

Game values use the rule text's own notation, so a class file reads like the scenario
ship data the rules describe: gun factors ``n-n-n`` (bow, either broadside, stern), target
size ``n/n`` (guns/torpedoes), torpedo factors ``n`` or ``n/n`` with reloads in
parentheses. Every field carries a description; ``docs/shipdata-surface-action.md`` is
generated from these models (``quarterdeck docs``).
"""

from __future__ import annotations

import datetime as dt
import enum
import re
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from generator.data.datamodel import NATION_NAMES, Line, Nation, Ship, SideBase, Strict, once
from generator.data.setup import Setup

__all__ = ["NATION_NAMES", "Nation", "Ship"]

GUN_FACTORS = re.compile(r"^(\d{1,2})-(\d{1,2})-(\d{1,2})$")
SIZE = re.compile(r"^([1-6])/([1-6])$")
TORPEDO_FACTORS = re.compile(r"^(\d{1,2})(?:/(\d{1,2}))?(?:\s*\((\d{1,2})\))?$")
WEAPON_ID = r"^[a-z0-9][a-z0-9.-]*$"


class ShipType(enum.StrEnum):
    """The text's ship types, which pick the damage chart column."""

    BB = "BB"
    BC = "BC"
    CV = "CV"
    CVL = "CVL"
    CVE = "CVE"
    CA = "CA"
    CL = "CL"
    AKL = "AKL"
    DD = "DD"
    TB = "TB"
    AKS = "AKS"


TYPE_NAMES = {
    "BB": "battleship", "BC": "battlecruiser", "CV": "fleet carrier", "CVL": "light carrier",
    "CVE": "escort carrier", "CA": "heavy cruiser or armored ship", "CL": "light cruiser",
    "AKL": "large auxiliary or transport", "DD": "destroyer or destroyer escort",
    "TB": "torpedo boat", "AKS": "small auxiliary or transport",
}

CARRIERS = frozenset({ShipType.CV, ShipType.CVL, ShipType.CVE})
BIG_TURNERS = frozenset({ShipType.BB, ShipType.BC})
"""Types that turn on the 2.5-inch circle."""


@dataclass(frozen=True)
class Arcs:
    """Gun factors by arc: 60° bow, 120° either broadside, 60° stern."""

    bow: int
    side: int
    stern: int

    def __str__(self) -> str:
        return f"{self.bow}-{self.side}-{self.stern}"


@dataclass(frozen=True)
class TorpedoFactors:
    """Torpedo factors: one set for either side, or one set per side; plus reloads."""

    port: int
    starboard: int
    per_side: bool
    reloads: int

    def __str__(self) -> str:
        text = f"{self.port}/{self.starboard}" if self.per_side else str(self.port)
        return text + (f" ({self.reloads})" if self.reloads else "")

    def bearing(self) -> int:
        """Factors that can bear on one target (one broadside)."""
        return max(self.port, self.starboard)


def parse_arcs(text: str) -> Arcs:
    """``"2-4-2"`` as bow, broadside and stern factors."""
    match = GUN_FACTORS.match(text)
    if match is None:
        raise ValueError(f"expected bow-broadside-stern factors such as '2-4-2', found '{text}'")
    return Arcs(*(int(g) for g in match.groups()))


def parse_size(text: str) -> tuple[int, int]:
    """``"4/5"`` as (gunfire size, torpedo size)."""
    match = SIZE.match(text)
    if match is None:
        raise ValueError(f"expected gun/torpedo size values 1-6 such as '4/5', found '{text}'")
    return int(match.group(1)), int(match.group(2))


def parse_torpedoes(text: str) -> TorpedoFactors:
    """``"8"``, ``"4/4"`` or ``"8 (8)"``: either-side or per-side factors, reloads."""
    match = TORPEDO_FACTORS.match(text.strip())
    if match is None:
        raise ValueError("expected torpedo factors such as '8', '4/4' or '4/4 (8)', "
                         f"found '{text}'")
    first, second, reloads = match.groups()
    port = int(first)
    return TorpedoFactors(port, int(second) if second else port, second is not None,
                          int(reloads or 0))


class GunBattery(Strict):
    """Guns of one weapon type and their factors by arc."""

    weapon: str = Field(pattern=WEAPON_ID, max_length=40, description="Weapon type id, e.g. '8in'; the scenario's weapons table gives its hit values by range band and its power.")
    factors: str = Field(max_length=20, description="Dice rolled into the bow, either broadside and stern arcs: 'n-n-n', e.g. '4-10-4'.")
    role: Literal["main", "secondary"] = Field(description="'main' (lost by M hits) or 'secondary' (other guns, lost by S hits; can fire starshell).")
    note: str | None = Field(None, max_length=500, description="The guns behind the factors, e.g. '10 x 8in/50 in 5 twin turrets' (at most 500 characters).")

    @field_validator("factors")
    @classmethod
    def _factors(cls, value: str) -> str:
        parse_arcs(value)
        return value


class Torpedoes(Strict):
    """Torpedo tubes: one weapon type, its factors and reloads."""

    weapon: str = Field(pattern=WEAPON_ID, max_length=40, description="Weapon type id, e.g. '24in-type93'; the scenario's weapons table gives its hit values and power.")
    factors: str = Field(max_length=20, description="'n' (either broadside), 'n/n' (one set per broadside), optionally with reloads in parentheses: '8 (8)', '4/4'.")
    note: str | None = Field(None, max_length=500, description="The tubes behind the factors, e.g. '16 x 24in in 4 quadruple mounts' (at most 500 characters).")

    @field_validator("factors")
    @classmethod
    def _factors(cls, value: str) -> str:
        parse_torpedoes(value)
        return value


class Radar(Strict):
    """A radar fit: ships with radar sight every target within its range."""

    range_in: float = Field(gt=0, le=40, description="Sighting range in inches (1 in = 1,000 yd).")
    fitted: dt.date = Field(description="Date first fitted (YYYY-MM-DD); scenarios before it ignore it.")
    note: str | None = Field(None, max_length=500, description="The set, e.g. 'SG surface search' (at most 500 characters).")


class Facts(Strict):
    """Ship facts as built or as refitted for the class's service (each one sourced)."""

    length_ft: float = Field(ge=50, le=1300, description="Overall length in feet, 50-1300.")
    displacement_t: int | None = Field(None, ge=50, le=100000, description="Standard displacement in long tons.")
    speed_kn: float = Field(gt=0, le=45, description="Maximum speed in knots (sets the speed in inches, 6 kn per inch).")
    belt_in: float = Field(0, ge=0, le=25, description="Main belt in inches (0 if none).")
    armament: str = Field(max_length=1000, description="Guns and torpedo tubes as fitted, in words (at most 1000 characters).")


class ShipClass(Strict):
    """A Surface Action ship class (one YAML file)."""

    kind: Literal["ship-class"] = Field(description="Always 'ship-class'.")
    ruleset: Literal["surface-action"] = Field(description="Always 'surface-action' for these files.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60, description="Stable id, lowercase with hyphens, at most 60 characters; equal to the file name.")
    name: str = Field(min_length=1, max_length=60, description="Class name, 1-60 characters, e.g. 'Takao'.")
    nation: Nation = Field(description="Navy: " + ", ".join(n.value for n in Nation) + " (sets the night sighting value).")
    type: ShipType = Field(description="Type, which picks the damage chart column: " + ", ".join(t.value for t in ShipType) + ".")
    ships: list[Ship] = Field(min_length=1, max_length=300, description="The ships of the class (1-300).")
    facts: Facts = Field(description="Sourced facts the game values were rated from.")
    guns: list[GunBattery] = Field(default_factory=list, max_length=10, description="Gun batteries (main first; at most 10).")
    torpedoes: Torpedoes | None = Field(None, description="Torpedo tubes, if any.")
    size: str = Field(max_length=10, description="Target size 'guns/torpedoes', each 1-6, e.g. '5/4'.")
    armor: int = Field(ge=-4, le=2, description="Armor value added to a hitting gun's power: negative for heavy armour, 0 for light, positive for none.")
    fire_control: Literal["early", "regular", "advanced"] = Field(description="Fire-control generation: early, regular or advanced (how turning spoils gunfire).")
    damage_control: int = Field(ge=1, le=5, description="Damage-control rating: a repair or fire roll at or under it succeeds.")
    speed_in: float | None = Field(None, gt=0, le=8, description="Speed in inches per turn (default: knots ÷ 6, rounded down to ½ in).")
    night_sighting: int | None = Field(None, ge=1, le=6, description="Night sighting value if it differs from the navy's.")
    radar: list[Radar] = Field(default_factory=list, max_length=10, description="Radar fits with dates (at most 10).")
    sources: list[Line] = Field(min_length=1, max_length=40, description="Where the facts came from (title, address, which facts); 1-40 lines of at most 1000 characters.")
    unverified: list[Line] = Field(default_factory=list, max_length=500, description="Field paths of figures no source confirmed (e.g. 'facts.displacement_t'); at most 500.")
    notes: str | None = Field(None, max_length=4000, description="Designer's notes: how the game values were rated (your own words, at most 4000 characters).")

    @field_validator("size")
    @classmethod
    def _size(cls, value: str) -> str:
        parse_size(value)
        return value

    @field_validator("ships")
    @classmethod
    def _unique_names(cls, ships: list[Ship]) -> list[Ship]:
        once([s.name for s in ships], "ship")
        return ships

    @model_validator(mode="after")
    def _one_main(self) -> ShipClass:
        if self.guns and not any(b.role == "main" for b in self.guns):
            raise ValueError("expected at least one battery with role 'main'")
        return self


class Weapon(Strict):
    """One weapon type's line in a weapons table."""

    hit: list[int | None] = Field(min_length=1, max_length=20, description="Basic hit value in each range band, closest first; null (or a shorter list) where the weapon cannot reach.")
    power: int = Field(ge=0, le=9, description="Penetration ('power') value: guns lose 1 for each band beyond the closest; torpedoes do not.")
    name: str | None = Field(None, max_length=60, description="As printed, e.g. '8in/50 (20 cm)' (at most 60 characters).")

    @field_validator("hit")
    @classmethod
    def _hits(cls, values: list[int | None]) -> list[int | None]:
        for value in values:
            if value is not None and not 1 <= value <= 6:
                raise ValueError(f"expected hit values 1-6 or null, found {value}")
        return values


class Weapons(Strict):
    """A scenario's weapons table: range bands, then hit values and power per weapon type."""

    bands_in: list[Annotated[float, Field(gt=0, le=200)]] = Field(min_length=1, max_length=20, description="Upper limit of each range band in inches, closest first, e.g. [6, 12, 18, 24, 30, 36]; 1-20 bands, each at most 200 in.")
    guns: dict[str, Weapon] = Field(min_length=1, max_length=50, description="Gun weapon types by id (1-50).")
    torpedoes: dict[str, Weapon] = Field(default_factory=dict, max_length=20, description="Torpedo weapon types by id (at most 20).")

    @field_validator("bands_in")
    @classmethod
    def _increasing(cls, values: list[float]) -> list[float]:
        if any(b <= a for a, b in zip(values, values[1:], strict=False)) or values[0] <= 0:
            raise ValueError("expected band limits that grow from more than 0")
        return values


class Special(Strict):
    """Scenario conditions of one ship."""

    speed_in: float | None = Field(None, gt=0, le=8, description="Speed limit in inches for this scenario.")
    readied_planes: bool = Field(False, description="A carrier with planes readied on deck (worse fires).")
    radar: bool | None = Field(None, description="Force radar on or off whatever the fitting dates.")
    note: str | None = Field(None, max_length=500, description="Printed on the ship's row of the data sheet (at most 500 characters).")


class ShipRef(Strict):
    """A ship in a scenario: class id, ship name, formation."""

    class_: str = Field(alias="class", max_length=60, description="Class id (file name), e.g. 'takao'.")
    name: str = Field(max_length=60, description="A ship of that class (any spelling in its 'aka').")
    formation: str | None = Field(None, max_length=20, description="Formation label; ships with the same label start in one line (up to 8).")
    flagship: bool = Field(False, description="The fleet flagship (exempt from unplanned movement with its formation).")
    special: Special | None = Field(None, description="Scenario conditions for this ship.")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Cards(Strict):
    """How a side uses the event-card deck."""

    hand: int = Field(3, ge=0, le=10, description="Cards dealt before the first turn.")
    draw: int = Field(1, ge=0, le=5, description="Cards drawn in each Card Draw phase.")


class Side(SideBase):
    """One side of a scenario; each side gets its own packet."""

    ships: list[ShipRef] = Field(min_length=1, max_length=100, description="Ships of this side (1-100).")
    edge: str | None = Field(None, max_length=120, description="The side's friendly table edge, where its ships enter (at most 120 characters).")
    briefing: str | None = Field(None, max_length=4000, description="What this side knows and wants (own packet and referee only; at most 4000 characters).")
    dummies: int = Field(2, ge=0, le=20, description="Dummy formation blanks this side may use.")
    torpedo_dummies: int = Field(2, ge=0, le=20, description="Dummy torpedo markers this side may use.")
    cards: Cards = Field(default_factory=lambda: Cards.model_validate({}), description="Hand and draw of event cards.")


class HitCheck(Strict):
    """What the immediate die roll after an M or S hit does (the text leaves it to scenarios)."""

    explosion: list[int] = Field(default_factory=list, max_length=6, description="Rolls on which the ship blows up and sinks.")
    fire: list[int] = Field(default_factory=list, max_length=6, description="Rolls on which a fire starts.")

    @field_validator("explosion", "fire")
    @classmethod
    def _faces(cls, values: list[int]) -> list[int]:
        if any(not 1 <= v <= 6 for v in values):
            raise ValueError("expected die faces 1-6")
        return values


class HitChecks(Strict):
    """Checks after M and S hits, for one navy's ships."""

    M: HitCheck = Field(description="After an M (main battery) hit.")
    S: HitCheck = Field(description="After an S (other batteries) hit.")


class Scenario(Strict):
    """A Surface Action scenario (one YAML file)."""

    kind: Literal["scenario"] = Field(description="Always 'scenario'.")
    ruleset: Literal["surface-action"] = Field(description="Always 'surface-action' for these files.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60, description="Stable id, at most 60 characters, equal to the file name.")
    name: str = Field(min_length=1, max_length=80, description="Battle name, 1-80 characters.")
    date: dt.date = Field(description="Date the action is fought (sets radar fits).")
    date_label: str | None = Field(None, max_length=40, description="Date as printed, e.g. '14/15 November 1942' (at most 40 characters).")
    time: Literal["day", "night"] = Field(description="day or night: which sighting rules apply.")
    sighting_in: int = Field(36, ge=1, le=72, description="Day: sighting distance in inches (36 unless a special rule changes it). Night: the normal night sighting range, 4-18.")
    weapons: Weapons = Field(description="The weapons table: hit values by range band and power per weapon type.")
    enemy_known: bool = Field(False, description="Each side knows the other's order of battle, so its matchup pages may name the enemy classes. Default false: matchups name only the target values (size and armor).")
    sides: list[Side] = Field(min_length=2, max_length=8, description="The sides (two to eight).")
    hit_checks: dict[Nation, HitChecks] = Field(default_factory=dict, description="Explosion and fire checks after M and S hits, by navy of the ship hit (default: the ruleset's table).")
    starting_conditions: str = Field(max_length=4000, description="The whole set-up (referee's packet only; at most 4000 characters).")
    setup: Setup | None = Field(None, description="The table, its land and each formation's starting position, course and speed: printed as the set-up map (see docs/designers.md).")
    special_rules: list[Line] = Field(default_factory=list, max_length=40, description="Conditions every player reads; at most 40 lines of 1000 characters.")
    victory: str = Field(max_length=4000, description="Victory conditions every player reads (at most 4000 characters).")
    sources: list[Line] = Field(min_length=1, max_length=40, description="Where the order of battle came from; 1-40 lines of at most 1000 characters.")
