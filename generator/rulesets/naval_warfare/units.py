"""The Naval Warfare unit types, read from ``tables/units.yaml``.

Minimal stand-in with the agreed signature; the kit's own version replaces it at merge.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from generator.datamodel import Strict
from generator.validation import load_model

UNITS_FILE = Path(__file__).parent / "tables" / "units.yaml"


class UnitType(Strict):
    """One unit type and its three combat values (fleet, commerce attack and defence)."""

    id: str = Field(max_length=40)
    name: str = Field(max_length=80)
    fleet: int = Field(ge=0, le=99)
    attack: int = Field(ge=0, le=99)
    defence: int = Field(ge=0, le=99)
    range: int = Field(ge=0, le=20)


class UnitsFile(Strict):
    """The file's shape: a list of unit types."""

    units: list[UnitType] = Field(min_length=1, max_length=60)


def load_units(path: Path | None = None) -> dict[str, UnitType]:
    """Unit types by id, from ``path`` or the bundled table."""
    chosen = UNITS_FILE if path is None else path
    shown = "naval_warfare/tables/units.yaml" if path is None else None
    return {u.id: u for u in load_model(UnitsFile, chosen, shown).units}
