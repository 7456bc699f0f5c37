"""Sheet layouts ("sprues") as validated YAML data with unit strings.

A sprue says how a ruleset's pieces are laid out on paper: orientation, margin,
gutter, bleed, the default cut guides, and the regions of the sheet with the piece
groups each one takes. Rulesets ship their sprues as YAML next to their tables; a
user can pass their own file (``--sprue``) and gets located messages when it is wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from generator.errors import UsageError
from generator.units import MM, parse_length
from generator.validation import load_model

CutMode = Literal["lines", "marks", "both"]


def _length(low_mm: float, high_mm: float) -> BeforeValidator:
    """A validator turning a unit string ("3mm", "0.125in") into points, within bounds."""

    def convert(value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise ValueError("expected a length such as '3mm' or '0.125in'")
        try:
            points = parse_length(value) if isinstance(value, str) else float(value) * MM
        except ValueError:
            raise ValueError("expected a length such as '3mm' or '0.125in'") from None
        if not low_mm * MM - 1e-9 <= points <= high_mm * MM + 1e-9:
            raise ValueError(f"expected a length from {low_mm:g}mm to {high_mm:g}mm")
        return points

    return BeforeValidator(convert)


length_between = _length
"""The same validator under a public name, for other files with physical sizes."""

Margin = Annotated[float, _length(5, 40)]
Gutter = Annotated[float, _length(0, 20)]
Bleed = Annotated[float, _length(0.5, 6)]


class _Strict(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class Region(_Strict):
    """A part of the sheet that takes some groups of pieces, under a heading."""

    title: str = Field(min_length=1, description="Heading printed above the region.")
    groups: list[str] = Field(min_length=1, description="Piece groups placed here, in order.")
    new_page: bool = Field(False, description="Start the region on a fresh sheet.")


class Sprue(_Strict):
    """A sheet layout (one YAML file)."""

    kind: Literal["sprue"] = Field(description="Always 'sprue'.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="Stable id.")
    title: str = Field(description="Title of the printed sheets.")
    orientation: Literal["portrait", "landscape"] = Field("portrait", description="Page orientation.")
    margin: Margin = Field(10 * MM, description="Distance kept from the paper edge (5mm-40mm).")
    gutter: Gutter = Field(3 * MM, description="Space between neighbouring pieces' bleed boxes (0-20mm).")
    bleed: Bleed = Field(3 * MM, description="Bleed used when bleed is switched on (0.5mm-6mm).")
    cut: CutMode = Field("lines", description="Default cut guides: lines, marks or both.")
    regions: list[Region] = Field(min_length=1, description="Regions in order down the sheets.")


def load_sprue(path: Path, display: str | None = None) -> Sprue:
    """Load and validate a sprue file.

    Args:
        path: The YAML file.
        display: How to name the file in messages (defaults to the path).

    Returns:
        The sprue, lengths in points.

    Raises:
        DataError: With every problem found, each located.

    """
    return load_model(Sprue, path, display, cache=True)


def user_or_bundled(path: Path | None, bundled: Path, display: str) -> Sprue:
    """The user's sheet layout (``--sprue``), or the ruleset's bundled one.

    Raises:
        UsageError: When the user's file does not exist.

    """
    if path is None:
        return load_sprue(bundled, display)
    if not path.is_file():
        raise UsageError(f"no sprue file '{path}'")
    return load_sprue(path, str(path))
