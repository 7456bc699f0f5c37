"""The marker tables (``tables/markers.yaml``): sizes, colours and pool sizes as data."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from generator.core.errors import Problem
from generator.data.datamodel import Nation, NavyColours, Strict
from generator.data.validation import key_problems, load_model, name_problem
from generator.data.yamlsource import SourceDoc
from generator.pieces.faces import Face, faces_precheck, size_between
from generator.pieces.sprue import length_between

TABLES = Path(__file__).parent / "tables"


# Any marker length up to a hand's width; a marker no larger than a page.
Length = Annotated[float, length_between(0.1, 100)]
Size = Annotated[tuple[float, float], size_between(1, 170, "12mm x 12mm")]


class ShipMarker(Strict):
    """How ship markers are drawn."""

    scale: int = Field(ge=1000, le=100000, description="Marker scale (12000 for 1:12,000).")
    width: Length = Field(description="Marker width across the beam.")
    silhouette_beam: Length = Field(description="Width the silhouette is drawn at.")
    bow_bar: Length = Field(description="Thickness of the bow-edge bar.")


class MarkerSizes(Strict):
    """Trim sizes of the other markers (face-layout markers carry their own)."""

    aircraft: Size
    torpedo_spread: Size = Field(alias="torpedo-spread")
    battery_target: Size = Field(alias="battery-target")
    depth_track: Size = Field(alias="depth-track")


class MarkerPools(Strict):
    """How many of each pooled marker a scenario's side gets."""

    smoke_per_ship: dict[str, Annotated[int, Field(ge=0, le=10)]] = Field(
        description="Smoke markers per ship, by type.")
    smoke_minimum: int = Field(ge=0, le=50)
    burning_per_ship: int = Field(ge=0, le=10)
    damage_per_ship: int = Field(ge=0, le=10)
    reduced_spreads: int = Field(ge=0, le=10)
    planes_per_element: int = Field(ge=1, le=50)


class AircraftType(Strict):
    """One aircraft element type."""

    code: str = Field(min_length=1, max_length=3)
    name: str = Field(min_length=1, max_length=40)


class MarkerFaces(Strict):
    """Face layouts of the pool markers (``generator/pieces/faces.py``); they bind no values."""

    smoke: Face = Field(description="A smoke screen.")
    burning: Face = Field(description="A ship on fire.")
    damage: Face = Field(description="Damage: D on the front, HD on the derived back.")


class MarkerTables(Strict):
    """Everything ``tables/markers.yaml`` holds."""

    marker_ship: ShipMarker
    marker_sizes: MarkerSizes
    marker_pools: MarkerPools
    aircraft_types: dict[str, AircraftType]
    depths: list[Annotated[str, Field(min_length=1, max_length=4)]] = Field(min_length=1,
                                                                           max_length=8)
    crush_depth: dict[str, str]
    nation_colours: dict[str, NavyColours]
    marker_faces: MarkerFaces


AIRCRAFT = ("fighter", "dive-bomber", "torpedo-bomber", "level-bomber")
NAVIES = tuple(n.value for n in Nation)


def marker_problems(given: dict[str, Any], doc: SourceDoc,
                    base: dict[str, Any] | None = None) -> list[Problem]:
    """Keyed marker tables that lack a name the sheets look up, or name nothing known.

    ``given`` maps a file's top-level keys to their validated tables; they replace those
    of ``base`` (the bundled markers unless given) before names are looked up. Problems
    are located in ``doc``.
    """
    merged = dict(bundled_markers()) if base is None else dict(base)
    merged.update(given)
    problems: list[Problem] = []
    if "aircraft_types" in given:
        problems += key_problems(doc, ("aircraft_types",), given["aircraft_types"], AIRCRAFT,
                                 "aircraft type")
    if "nation_colours" in given:
        problems += key_problems(doc, ("nation_colours",), given["nation_colours"], NAVIES,
                                 "navy code", complete=False)
    if "crush_depth" in given or "depths" in given:
        crush, depths = merged["crush_depth"], merged["depths"]
        where = "crush_depth" if "crush_depth" in given else "depths"
        problems += key_problems(doc, ("crush_depth",), crush, (*NAVIES, "default"),
                                 "navy code or 'default'", complete=False)
        if "default" not in crush:
            problems.append(doc.problem((where,), "found no crush_depth.default, expected "
                                                  "the depth that crushes every other navy"))
        problems += [name_problem(doc, ("crush_depth", navy) if where == "crush_depth"
                                  else ("depths",), depth, depths, "one of the depths")
                     for navy, depth in crush.items() if depth not in depths]
    return problems


@functools.cache
def bundled_markers(path: Path = TABLES / "markers.yaml") -> MarkerTables:
    """Load and validate the bundled marker tables.

    Raises:
        DataError: With every problem, located, if the file is invalid.

    """
    return load_model(MarkerTables, path, path.name, precheck=faces_precheck("marker_faces"),
                      check=lambda tables, doc: marker_problems(dict(tables), doc, {}))
