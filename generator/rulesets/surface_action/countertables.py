"""The counter tables (``tables/counters.yaml``): sizes, counts, legends and navy colours.

Everything a side's counter sheet depends on that is not a rule of the game lives in
that file, so a club that wants bigger blanks or more hit markers edits data, not code.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator

from generator.data.datamodel import Nation, Strict
from generator.data.validation import load_model
from generator.pieces.faces import Face, faces_precheck, size_between

TABLES = Path(__file__).parent / "tables"
COUNTERS_FILE = TABLES / "counters.yaml"
_HEX = r"^#[0-9a-fA-F]{6}$"
DEFAULT_NAVY = "default"

# Below 8 mm not even the big number of a blank reads; above 60 mm it is no longer a
# counter (and would not fit the sheet's rows sensibly).
Size = Annotated[tuple[float, float], size_between(8, 60)]
Colour = Annotated[str, Field(pattern=_HEX)]


class Sizes(Strict):
    """Trim sizes of the counters not drawn from a face layout (those carry their own)."""

    blank: Size = Field(description="Formation blanks and dummy blanks.")
    torpedo: Size = Field(description="Torpedo markers and dummy torpedo markers.")


class HitMarker(Strict):
    """One hit letter: how many per ship and the reminder printed under the letter."""

    per_ship: int = Field(ge=0, le=10, description="Markers per ship that can take this hit.")
    meaning: str = Field(min_length=1, max_length=24, description="Tiny reminder, e.g. 'speed ½'.")
    only: Literal["torpedoes", "carriers"] | None = Field(
        None, description="Only ships with torpedo tubes, or only carriers, get this letter.")


class Fire(Strict):
    """Fire markers: how many (the face layout ``faces.fire`` says what they show)."""

    per_ship: int = Field(ge=0, le=10)


class CounterFaces(Strict):
    """The face layouts of the open counters (see ``generator/pieces/faces.py``).

    Values each face may bind: ``turn``: number, legend, fill, ink; ``hit``: letter,
    meaning, fill, ink; ``fire``: fill, ink (``fill``/``ink`` are the side's navy colours).
    """

    turn: Face = Field(description="Turn counters 1..highest.")
    hit: Face = Field(description="Hit markers, one per letter.")
    fire: Face = Field(description="Fire markers.")


class Turns(Strict):
    """Turn counters: one set of 1..highest per ship."""

    sets_per_ship: int = Field(ge=0, le=5)
    highest: int = Field(ge=1, le=12)
    step_deg: int = Field(ge=1, le=180, description="Degrees one step of the counter stands for.")


class Blanks(Strict):
    """Formation blanks per ship (dummies come from the scenario's side)."""

    per_ship: int = Field(ge=0, le=3)


class TorpedoCounts(Strict):
    """Torpedo markers per ship with tubes and per full reload."""

    per_ship: int = Field(ge=0, le=5)
    per_reload: int = Field(ge=0, le=5)


class Colours(Strict):
    """A navy's counter colours."""

    fill: Colour = Field(description="Counter ground.")
    ink: Colour = Field(description="Type and symbols on the ground.")


class CounterTables(Strict):
    """Everything ``tables/counters.yaml`` holds."""

    sizes: Sizes
    hit_markers: dict[str, HitMarker] = Field(min_length=1)
    fire: Fire
    turns: Turns
    blanks: Blanks
    torpedoes: TorpedoCounts
    navy_colours: dict[str, Colours]
    faces: CounterFaces

    @field_validator("hit_markers")
    @classmethod
    def _letters(cls, value: dict[str, HitMarker]) -> dict[str, HitMarker]:
        bad = [key for key in value if not re.fullmatch(r"[A-Z]", key)]
        if bad:
            raise ValueError(f"expected single capital letters as keys, found {', '.join(bad)}")
        return value

    @field_validator("navy_colours")
    @classmethod
    def _navies(cls, value: dict[str, Colours]) -> dict[str, Colours]:
        known = {n.value for n in Nation} | {DEFAULT_NAVY}
        bad = sorted(set(value) - known)
        if bad:
            raise ValueError(f"expected navy codes or '{DEFAULT_NAVY}', found {', '.join(bad)} "
                             "(quote \"NO\": bare NO is read as false)")
        if DEFAULT_NAVY not in value:
            raise ValueError(f"expected a '{DEFAULT_NAVY}' entry for navies not listed")
        return value

    def colours(self, nation: str) -> Colours:
        """A navy's colours, or the default ones."""
        return self.navy_colours.get(nation, self.navy_colours[DEFAULT_NAVY])


@functools.cache
def bundled_counters(path: Path = COUNTERS_FILE) -> CounterTables:
    """Load and validate the bundled counter tables (once per process).

    Args:
        path: The tables file; the bundled one unless a test passes another.

    Returns:
        The tables, lengths in points.

    Raises:
        DataError: With every problem, located, if the file is invalid.

    """
    display = "surface_action/tables/counters.yaml" if path == COUNTERS_FILE else str(path)
    return load_model(CounterTables, path, display, precheck=faces_precheck("faces"))
