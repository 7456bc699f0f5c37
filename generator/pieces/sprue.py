"""Sheet layouts ("sprues") as validated YAML data with unit strings.

A sprue says how a ruleset's pieces are laid out on paper: orientation, margin,
gutter, bleed, the default cut guides, and the regions of the sheet with the piece
groups each one takes. Rulesets ship their sprues as YAML next to their tables; a
user can pass their own file (``--sprue``) and gets located messages when it is wrong:
its regions must place each of the piece groups the bundled sprue places, once, and no
other (``group_problems``), and a piece larger than its printable area is located at its
``margin`` (``generator.kit.seam.sheet_component``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PrivateAttr

from generator.core.errors import DataError, Problem
from generator.core.suggest import did_you_mean
from generator.core.units import MM, parse_length
from generator.data.validation import load_model

if TYPE_CHECKING:
    from generator.data.yamlsource import Loc, SourceDoc

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

    _source: tuple[str, str] | None = PrivateAttr(None)
    """The file it was read from and its name in messages (None when built in code)."""

    def groups(self) -> list[str]:
        """Every piece group the regions place, in order."""
        return list(dict.fromkeys(g for region in self.regions for g in region.groups))

    def problem(self, loc: Loc, message: str) -> Problem:
        """A problem with this layout, located in its file when it was read from one."""
        from generator.data.yamlsource import dotted, load_yaml

        if self._source is not None:
            path, display = self._source
            doc, _ = load_yaml(Path(path), display)
            return doc.problem(loc, message)
        return Problem(f"sprue '{self.id}'", 0, 0, dotted(loc), message)


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
    return _sourced(load_model(Sprue, path, display), path, display)


def _sourced(sprue: Sprue, path: Path, display: str | None) -> Sprue:
    sprue._source = (str(path), display or str(path))
    return sprue


def user_or_bundled(path: Path | None, bundled: Path, display: str) -> Sprue:
    """The user's sheet layout (``--sprue``), or the ruleset's bundled one.

    The user's regions may place only the piece groups the bundled layout places (a
    typo is located with a did-you-mean), and must place every one of them: a piece of
    a group no region takes could not be printed.

    Raises:
        DataError: The user's file is missing or invalid, each problem located.

    """
    own = load_sprue(bundled, display)
    if path is None:
        return own
    if not path.exists() and not path.is_symlink():  # anything else: load_yaml says what
        raise DataError([Problem(str(path), 0, 0, "", "found no such file, expected a "
                                                      "sprue file (YAML)")])
    known = own.groups()

    def placed(sprue: Sprue, doc: SourceDoc) -> list[Problem]:
        return group_problems(sprue, doc, known)

    return _sourced(load_model(Sprue, path, str(path), check=placed), path, str(path))


def group_problems(sprue: Sprue, doc: SourceDoc, known: list[str]) -> list[Problem]:
    """A layout's groups that no piece has, or it places twice, and those it places nowhere.

    Args:
        sprue: The user's layout.
        doc: Its file, for positions.
        known: The groups the ruleset's pieces come in (its bundled layout's).

    """
    problems = []
    first: dict[str, str] = {}
    for r, region in enumerate(sprue.regions):
        for g, group in enumerate(region.groups):
            if group in first:  # its pieces would be printed once for each
                problems.append(doc.problem(
                    ("regions", r, "groups", g),
                    f"found piece group '{group}' again (first in {first[group]}), expected "
                    "each group in one region"))
                continue
            first[group] = f"regions.{r}.groups.{g}"
            if group not in known:
                problems.append(doc.problem(
                    ("regions", r, "groups", g),
                    f"found piece group '{group}', expected one of {', '.join(known)}"
                    f"{did_you_mean(group, known)}"))
    missing = [g for g in known if g not in sprue.groups()]
    if missing:
        problems.append(doc.problem(("regions",), (
            f"found no region for piece group{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)}, expected every group placed: {', '.join(known)}")))
    return problems
