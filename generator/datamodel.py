"""Data models every ruleset shares: strict parsing, navies, and named ships."""

from __future__ import annotations

import datetime as dt
import enum

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Strict(BaseModel):
    """Base for every data model: unknown keys are errors, values are not coerced."""

    model_config = ConfigDict(extra="forbid", frozen=True)


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


NATION_NAMES = {
    "US": "United States", "UK": "Royal Navy", "AU": "Royal Australian Navy",
    "CA": "Royal Canadian Navy", "NZ": "Royal New Zealand Navy", "IN": "Royal Indian Navy",
    "JP": "Imperial Japanese Navy", "DE": "Kriegsmarine", "IT": "Regia Marina",
    "FR": "Marine nationale", "NL": "Koninklijke Marine", "SU": "Soviet Navy",
    "PL": "Polish Navy", "GR": "Hellenic Navy", "NO": "Royal Norwegian Navy",
}


class Ship(Strict):
    """One named ship of a class."""

    name: str = Field(min_length=1, description="Name as printed on the sheet (Unicode allowed: 'Chōkai', 'Марат').")
    hull: str | None = Field(None, description="Hull number or pennant, e.g. 'CA-34'.")
    commissioned: dt.date = Field(description="Date of commissioning (YYYY-MM-DD).")
    lost: dt.date | None = Field(None, description="Date lost, if she was (YYYY-MM-DD).")
    aka: list[str] = Field(default_factory=list, description="Other spellings accepted when naming the ship (e.g. 'Chokai', 'Marat').")
    note: str | None = Field(None, description="Anything particular to this ship (your own words).")

    @model_validator(mode="after")
    def _lost_after_commissioned(self) -> Ship:
        if self.lost is not None and self.lost < self.commissioned:
            raise ValueError("expected 'lost' on or after 'commissioned'")
        return self




def once(values: list[str], what: str) -> None:
    """Refuse repeated values in a list of names or ids.

    Raises:
        ValueError: "expected each <what> once (repeated: ...)", for a located message.

    """
    repeated = sorted({v for v in values if values.count(v) > 1})
    if repeated:
        raise ValueError(f"expected each {what} once (repeated: {', '.join(repeated)})")
