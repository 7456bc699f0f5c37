"""Data models every ruleset shares: strict parsing, navies, and named ships."""

from __future__ import annotations

import datetime as dt
import enum
import types
import typing
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic import Strict as StrictValue

NAME_CHARS = 60
"""Longest ship, class or side name: longer names cannot fit a counter or a sheet heading."""
NOTE_CHARS = 500
"""Longest short note (a battery, a ship, a fit)."""
LINE_CHARS = 1000
"""Longest line of a list of texts (a source, a special rule)."""
TEXT_CHARS = 4000
"""Longest free text (designer's notes, briefings, set-up, victory conditions)."""
LIST_ITEMS = 40
"""Most lines in a list of texts (sources, special rules)."""

Name = Annotated[str, Field(min_length=1, max_length=NAME_CHARS)]
"""A printed name: 1-60 characters."""
Line = Annotated[str, Field(min_length=1, max_length=LINE_CHARS)]
"""One line of a list of texts: 1-1000 characters."""


NUMBERS = (int, float)


def _number_field(annotation: Any) -> bool:
    """A field that holds a number, or a number or nothing (``float | None``)."""
    union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    members = typing.get_args(annotation) if union else (annotation,)
    return (any(m in NUMBERS for m in members)
            and all(m in NUMBERS or m is type(None) for m in members))


class Strict(BaseModel):
    """Base for every data model: unknown keys are errors, values are not coerced.

    A number field takes a number only: ``speed_kn: "36.5"`` (text) is refused, not read
    as 36.5, as the schema reference promises (an int is still a float, a bool no int).
    """

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        """Mark each number field strict, so text that looks like a number is refused."""
        super().__pydantic_init_subclass__(**kwargs)
        changed = False
        for info in cls.model_fields.values():
            if _number_field(info.annotation) and not any(
                    isinstance(m, StrictValue) for m in info.metadata):
                info.metadata.append(StrictValue())
                changed = True
        if changed and cls.__pydantic_complete__:  # built already (no defer_build): again
            cls.model_rebuild(force=True)


class Nation(enum.StrEnum):
    """Navies the Master List covers (ISO-like codes)."""

    US = "US"
    UK = "UK"
    AU = "AU"
    CA = "CA"
    NZ = "NZ"
    IN = "IN"
    JP = "JP"
    DE = "DE"
    IT = "IT"
    FR = "FR"
    NL = "NL"
    SU = "SU"
    PL = "PL"
    GR = "GR"
    NO = "NO"
    IL = "IL"
    SY = "SY"
    EG = "EG"
    AR = "AR"


NATION_NAMES = {
    "US": "United States", "UK": "Royal Navy", "AU": "Royal Australian Navy",
    "CA": "Royal Canadian Navy", "NZ": "Royal New Zealand Navy", "IN": "Royal Indian Navy",
    "JP": "Imperial Japanese Navy", "DE": "Kriegsmarine", "IT": "Regia Marina",
    "FR": "Marine nationale", "NL": "Koninklijke Marine", "SU": "Soviet Navy",
    "PL": "Polish Navy", "GR": "Hellenic Navy", "NO": "Royal Norwegian Navy",
    "IL": "Israeli Navy", "SY": "Syrian Navy", "EG": "Egyptian Navy", "AR": "Argentine Navy",
}


class Ship(Strict):
    """One named ship of a class."""

    name: str = Field(min_length=1, max_length=NAME_CHARS, description="Name as printed on the sheet, 1-60 characters (Unicode allowed: 'Chōkai', 'Марат').")
    hull: str | None = Field(None, max_length=20, description="Hull number or pennant, e.g. 'CA-34' (at most 20 characters).")
    commissioned: dt.date = Field(description="Date of commissioning (YYYY-MM-DD).")
    lost: dt.date | None = Field(None, description="Date lost, if she was (YYYY-MM-DD).")
    aka: list[Name] = Field(default_factory=list, max_length=10, description="Other spellings accepted when naming the ship (e.g. 'Chokai', 'Marat'); at most 10, each 1-60 characters.")
    note: str | None = Field(None, max_length=NOTE_CHARS, description="Anything particular to this ship (your own words, at most 500 characters).")

    @model_validator(mode="after")
    def _lost_after_commissioned(self) -> Ship:
        if self.lost is not None and self.lost < self.commissioned:
            raise ValueError("expected 'lost' on or after 'commissioned'")
        return self




class SideBase(Strict):
    """What every ruleset's scenario side has first: its id, name and commander."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=40, description="Short id used for the packet's file name (at most 40 characters).")
    name: str = Field(min_length=1, max_length=60, description="Side's name, 1-60 characters, e.g. 'Allied Screening Force'.")
    commander: str | None = Field(None, max_length=120, description="Historical commander (at most 120 characters).")


class ShipRefBase(Strict):
    """What every ruleset's scenario ship has first: her class and her name."""

    class_: str = Field(alias="class", max_length=60, description="Class id (file name), e.g. 'new-orleans'.")
    name: str = Field(max_length=60, description="A ship of that class (any spelling in its 'aka').")

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, populate_by_name=True)


HEX_COLOUR = r"^#[0-9a-fA-F]{6}$"
"""A colour as a data file gives it: '#rrggbb'."""


class NavyColours(Strict):
    """A navy's (or a side's) marker colours: the ground, and the ink printed on it."""

    fill: str = Field(pattern=HEX_COLOUR)
    ink: str = Field(pattern=HEX_COLOUR)


def once(values: list[str], what: str) -> None:
    """Refuse repeated values in a list of names or ids.

    Raises:
        ValueError: "expected each <what> once (repeated: ...)", for a located message.

    """
    repeated = sorted({v for v in values if values.count(v) > 1})
    if repeated:
        raise ValueError(f"expected each {what} once (repeated: {', '.join(repeated)})")
