"""Rule 27's data: the rating of a library class, and the order of battle (a scenario).

An order of battle lists each side's forces and, in each, its counters: a type, the
ships the counter stands for (by class and name) or, for transports and landing craft,
a count and a label. Strength and AA come from the ships' ratings unless the counter
sets them; the grouping rules (CA and CL in pairs, DD flotillas of 4-6 ...) are checked
against ``tables/naval.yaml`` with located messages (see ``model.py``).
"""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from generator.data.datamodel import Name, SideBase, Strict, once
from generator.rulesets.rule27.tables import TypeId

COMBAT = ("BB", "BC", "CA", "CL", "DD", "CV", "CVE")
"""Types whose strength is a combat or damage strength that may never be 0."""


class Rule27Class(Strict):
    """What Rule 27 makes of a library class: its type and per-ship points."""

    id: str = Field(max_length=60, description="The class id.")
    name: str = Field(max_length=60, description="The class name.")
    nation: str = Field(max_length=4, description="Navy code.")
    type: TypeId = Field(description="Rule 27 type: BB, BC, CA, CL, DD, CV, CVE, LS, LC or NT.")
    points: Fraction = Field(ge=0, le=400, description="One ship's points: gun, armour and torpedo scores (a counter takes the square root of its ships' sum, see tables/rating.yaml).")
    aa_points: Fraction = Field(ge=0, le=100, description="One ship's AA points.")
    air_capacity: int | None = Field(None, ge=1, le=20, description="Carriers: one ship's air capacity (its strength).")
    ship_names: list[str] = Field(min_length=1, max_length=300, description="Ship names.")
    aka: dict[str, str] = Field(default_factory=dict, description="Other spellings to names.")
    notes: str | None = Field(None, max_length=500, description="Notes.")

    @field_validator("points", "aa_points", mode="before")
    @classmethod
    def _number(cls, value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
            raise ValueError("expected a number")
        return Fraction(str(value)) if isinstance(value, float) else Fraction(value)

    @field_validator("points")
    @classmethod
    def _combat_has_strength(cls, value: Fraction, info: ValidationInfo) -> Fraction:
        kind = info.data.get("type")
        if kind in COMBAT and kind not in ("CV", "CVE") and value <= 0:
            raise ValueError(f"expected points above 0 (a {kind} is a combat ship: its "
                             "strength is its combat and damage strength)")
        return value


class ShipRef(Strict):
    """One ship of a counter, by class and name."""

    class_: str = Field(alias="class", max_length=60, description="Library class id.")
    name: Name = Field(description="The ship's name (or another spelling the class lists).")


class Counter(Strict):
    """One counter line of a force (``count`` copies for transports and landing craft)."""

    type: TypeId = Field(description="BB, BC, CA, CL, DD, CV, CVE, LS, LC or NT.")
    class_: str | None = Field(None, alias="class", max_length=60, description="Library class of every ship named as plain text.")
    ships: list[str | ShipRef] = Field(default_factory=list, max_length=40, description="The ships: names of `class`, or {class, name} each.")
    name: Name | None = Field(None, description="Label for a counter without named ships (NT, LS, LC), or a flotilla's name.")
    short: str | None = Field(None, min_length=1, max_length=20, description="What the counter prints when `name` does not fit it, e.g. '14th Sq.' for '14th Squadriglia'; it keeps every numeral of `name` (the order of battle prints the whole name beside the counter's number).")
    count: int = Field(1, ge=1, le=60, description="Copies of this counter (NT, LS and LC only).")
    strength: int | None = Field(None, ge=0, le=20, description="Replaces the derived strength.")
    aa: int | None = Field(None, ge=0, le=20, description="Replaces the derived AA.")
    note: str | None = Field(None, max_length=200, description="Anything particular (your own words).")

    @field_validator("short")
    @classmethod
    def _short_keeps_numerals(cls, value: str | None, info: ValidationInfo) -> str | None:
        name = info.data.get("name")
        if value is not None:
            if name is None:
                raise ValueError("expected a counter 'name' for the short form to stand for")
            if _numerals(value) != _numerals(name):
                raise ValueError(f"expected a short form of '{name}' that keeps its numerals "
                                 f"({', '.join(_numerals(name)) or 'none'})")
        return value


def _numerals(text: str) -> list[str]:
    """The numbers written in a name, in order ('8th/13th DF': 8, 13)."""
    return re.findall(r"\d+", text)


class Force(Strict):
    """A fleet, squadron or convoy of one side, with its base."""

    name: Name = Field(description="Force name, e.g. 'Force H'.")
    base: str | None = Field(None, max_length=60, description="Where it is based at the start (printed on the order of battle).")
    commander: str | None = Field(None, max_length=120, description="Who commanded it (printed on the order of battle).")
    counters: list[Counter] = Field(min_length=1, max_length=80, description="Its counters.")


class Side(SideBase):
    """One side of the order of battle."""

    forces: list[Force] = Field(min_length=1, max_length=20, description="Its forces.")
    left_out: list[str] = Field(default_factory=list, max_length=20, description="Ships of the side at the date that have no counter, each with why (printed on the order of battle; your own words, at most 300 characters each).")

    @field_validator("left_out")
    @classmethod
    def _short_lines(cls, values: list[str]) -> list[str]:
        for value in values:
            if not 1 <= len(value) <= 300:
                raise ValueError("expected lines of 1 to 300 characters")
        return values

    @field_validator("forces")
    @classmethod
    def _unique(cls, forces: list[Force]) -> list[Force]:
        once([f.name for f in forces], "force name")
        return forces

    @property
    def ships(self) -> list[str]:
        """Every ship the side's counters name (what shared listings count)."""
        return [s if isinstance(s, str) else s.name
                for f in self.forces for c in f.counters for s in c.ships]


class Scenario(Strict):
    """A Rule 27 order of battle (``kind: scenario``, ``ruleset: rule-27``)."""

    kind: Literal["scenario"] = Field(description="Always 'scenario'.")
    ruleset: Literal["rule-27"] = Field(description="Always 'rule-27'.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60, description="Stable id; equal to the file name.")
    name: Name = Field(description="Title, e.g. 'Mediterranean, June 1940'.")
    date: dt.date = Field(description="Date of the order of battle (ships must be in commission).")
    theatre: str | None = Field(None, max_length=60, description="Sea zone: Atlantic Ocean, Mediterranean Sea or Red Sea.")
    counter_size: str = Field("0.5in", max_length=20, description="Counter size (square), e.g. '0.5in', '0.625in' or '5/8in'.")
    hex: str = Field("16mm", max_length=20, description="The map's hex size across the flats, for the sea-box overlay (at least 5mm).")
    hex_orientation: Literal["flat", "pointy"] = Field("flat", description="How the map's hexes stand: flat (flat top) or pointy.")
    sides: list[Side] = Field(min_length=2, max_length=4, description="The sides.")
    sources: list[str] = Field(default_factory=list, max_length=40, description="Where the order of battle came from (each line at most 1000 characters).")
    notes: str | None = Field(None, max_length=4000, description="Designer's notes (your own words).")

    @field_validator("sources")
    @classmethod
    def _bounded_lines(cls, values: list[str]) -> list[str]:
        for value in values:
            if not 1 <= len(value) <= 1000:
                raise ValueError("expected lines of 1 to 1000 characters")
        return values

    @field_validator("sides")
    @classmethod
    def _unique_sides(cls, sides: list[Side]) -> list[Side]:
        once([s.id for s in sides], "side id")
        return sides
