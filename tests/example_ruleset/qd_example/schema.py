# ruff: noqa: E501  (one field per line, as in the rulesets' schema.py files)
"""Example Skirmish's data: a rated ship class, and a scenario naming ships by class."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, field_validator

from generator.aids.boardaids import HexSize
from generator.aids.boardparts import Orientation
from generator.core.units import MM
from generator.data.datamodel import Name, SideBase, Strict, once

ShipType = Literal["BB", "CR", "DD"]


class SkirmishClass(Strict):
    """What Example Skirmish makes of a shared class (``rating.py``): one counter per ship."""

    id: str = Field(max_length=60, description="The class id.")
    name: str = Field(max_length=60, description="The class name.")
    nation: str = Field(max_length=4, description="Navy code.")
    type: ShipType = Field(description="BB (capital ship), CR (cruiser) or DD (destroyer).")
    guns: int = Field(ge=1, le=6, description="Dice rolled when the ship fires.")
    armour: int = Field(ge=0, le=5, description="Hits the ship's armour stops from each salvo.")
    move: int = Field(ge=1, le=8, description="Hexes a turn.")
    ship_names: list[str] = Field(min_length=1, max_length=300, description="Ship names.")
    aka: dict[str, str] = Field(default_factory=dict, description="Other spellings to names.")


class ShipRef(Strict):
    """One ship of a side, by library class and name."""

    class_: str = Field(alias="class", max_length=60, description="Library class id.")
    name: Name = Field(description="The ship's name (or another spelling the class lists).")


class Side(SideBase):
    """One side: its counter colour and its ships."""

    colour: str = Field("#34495e", pattern=r"^#[0-9a-fA-F]{6}$", description="Counter ground, '#rrggbb'.")
    ships: list[ShipRef] = Field(min_length=1, max_length=30, description="Its ships, one counter each.")


class Scenario(Strict):
    """An Example Skirmish scenario (``kind: scenario``, ``ruleset: example-skirmish``)."""

    kind: Literal["scenario"] = Field(description="Always 'scenario'.")
    ruleset: Literal["example-skirmish"] = Field(description="Always 'example-skirmish'.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60, description="Stable id.")
    name: Name = Field(description="Title.")
    date: dt.date = Field(description="Date of the action.")
    hex: HexSize = Field(16 * MM, description="The map's hex across the flats, for the overlay (5-60mm).")
    hex_orientation: Orientation = Field("flat", description="flat (flat top) or pointy.")
    sides: list[Side] = Field(min_length=2, max_length=4, description="The sides.")
    notes: str | None = Field(None, max_length=2000, description="Designer's notes.")

    @field_validator("sides")
    @classmethod
    def _unique_sides(cls, sides: list[Side]) -> list[Side]:
        once([s.id for s in sides], "side id")
        return sides
