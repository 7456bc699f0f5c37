"""The marker tables (``tables/markers.yaml``): sizes, colours and pool sizes as data."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from generator.faces import Face, faces_precheck
from generator.units import parse_length
from generator.validation import load_model

TABLES = Path(__file__).parent / "tables"
_SIZE = re.compile(r"^\s*(\S+)\s*x\s*(\S+)\s*$")
_HEX = r"^#[0-9a-fA-F]{6}$"


def _points(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, str):
        raise ValueError("expected a length such as '8mm' or '0.3in'")
    try:
        return parse_length(value)
    except ValueError:
        raise ValueError("expected a length such as '8mm' or '0.3in'") from None


def _size(value: object) -> tuple[float, float]:
    match = _SIZE.match(value) if isinstance(value, str) else None
    if match is None:
        raise ValueError("expected a size such as '12mm x 12mm'")
    try:
        width, height = parse_length(match.group(1)), parse_length(match.group(2))
    except ValueError:
        raise ValueError("expected a size such as '12mm x 12mm'") from None
    if not (0 < width <= 500 and 0 < height <= 700):
        raise ValueError("expected a size that fits on a page")
    return width, height


Length = Annotated[float, BeforeValidator(_points)]
Size = Annotated[tuple[float, float], BeforeValidator(_size)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ShipMarker(_Strict):
    """How ship markers are drawn."""

    scale: int = Field(ge=1000, le=100000, description="Marker scale (12000 for 1:12,000).")
    width: Length = Field(description="Marker width across the beam.")
    silhouette_beam: Length = Field(description="Width the silhouette is drawn at.")
    bow_bar: Length = Field(description="Thickness of the bow-edge bar.")


class MarkerSizes(_Strict):
    """Trim sizes of the other markers (face-layout markers carry their own)."""

    aircraft: Size
    torpedo_spread: Size = Field(alias="torpedo-spread")
    battery_target: Size = Field(alias="battery-target")
    depth_track: Size = Field(alias="depth-track")


class MarkerPools(_Strict):
    """How many of each pooled marker a scenario's side gets."""

    smoke_per_ship: dict[str, int] = Field(description="Smoke markers per ship, by type.")
    smoke_minimum: int = Field(ge=0, le=50)
    burning_per_ship: int = Field(ge=0, le=10)
    damage_per_ship: int = Field(ge=0, le=10)
    reduced_spreads: int = Field(ge=0, le=10)
    planes_per_element: int = Field(ge=1, le=50)


class AircraftType(_Strict):
    """One aircraft element type."""

    code: str = Field(min_length=1, max_length=3)
    name: str


class NationColours(_Strict):
    """A navy's marker colours."""

    fill: str = Field(pattern=_HEX)
    ink: str = Field(pattern=_HEX)


class MarkerFaces(_Strict):
    """Face layouts of the simple pool markers (``generator/faces.py``); they bind no values."""

    smoke: Face = Field(description="A smoke screen.")
    burning: Face = Field(description="A ship on fire.")
    damage: Face = Field(description="Damage: D on the front, HD on the derived back.")


class MarkerTables(_Strict):
    """Everything ``tables/markers.yaml`` holds."""

    marker_ship: ShipMarker
    marker_sizes: MarkerSizes
    marker_pools: MarkerPools
    aircraft_types: dict[str, AircraftType]
    depths: list[str] = Field(min_length=1, max_length=8)
    crush_depth: dict[str, str]
    nation_colours: dict[str, NationColours]
    marker_faces: MarkerFaces


@functools.cache
def bundled_markers(path: Path = TABLES / "markers.yaml") -> MarkerTables:
    """Load and validate the bundled marker tables.

    Raises:
        DataError: With every problem, located, if the file is invalid.

    """
    return load_model(MarkerTables, path, path.name, precheck=faces_precheck("marker_faces"))
