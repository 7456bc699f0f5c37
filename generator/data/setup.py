"""A scenario's ``setup:`` block: the table, its land, and where each group starts.

One model for every tactical ruleset. Positions are sea distances (yards, km or nautical
miles, the block's ``units``) from the table's south-west corner, x east and y north, so
a designer copies them off a chart; the table's top edge is north. The table itself is
given in table units (``180`` at a cm scale) or as a length with its unit (``"60000 yd"``,
``"6 ft"``), converted here through ``generator.core.units``. What a ruleset's scale
makes of them (table units, points on a map) is computed by ``placements`` and
``table_size``, so the printed map and a VASSAL module's at-start pieces use the same
numbers.

``setup_problems`` cross-checks a block against its scenario (sides, ship names, the
table's edges) with located ``found X, expected Y`` messages.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from generator.core.errors import Problem
from generator.core.scales import Scale
from generator.core.suggest import did_you_mean
from generator.core.units import convert
from generator.data.datamodel import Strict, once

Loc = tuple[str | int, ...]
Coordinate = Annotated[float, Field(ge=0, le=500_000)]
Point = tuple[Coordinate, Coordinate]
Bearing = Annotated[float, Field(ge=0, lt=360)]

SEA_UNITS = ("yd", "m", "km", "nmi")
"""Units of sea distance a block may use (converted to yards by ``units.convert``)."""
TABLE_UNITS = ("cm", "mm", "in", "ft")
"""Units of table length (converted to the scale's cm or inches)."""
_LENGTH = re.compile(r"^\s*(\d{1,7}(?:\.\d{1,4})?)\s*([a-z]{1,3})\s*$")
MAX_TABLE_UNITS = 2000
"""A table longer than 2,000 units (20 m at a cm scale) is a typo, not a table."""


def _length_text(value: float | str) -> float | str:
    if isinstance(value, str):
        match = _LENGTH.match(value)
        if not match or match.group(2) not in SEA_UNITS + TABLE_UNITS:
            raise ValueError("expected a number of table units or a length such as "
                             f"'60000 yd', '30 km' or '6 ft' (units: "
                             f"{', '.join(SEA_UNITS + TABLE_UNITS)})")
    elif not 1 <= value <= MAX_TABLE_UNITS:
        raise ValueError(f"expected from 1 to {MAX_TABLE_UNITS:,} table units")
    return value


class Table(Strict):
    """The playing area, north at its top edge."""

    width: float | str = Field(description="East-west size: table units (a number) or a length with its unit ('60000 yd', '30 km', '6 ft', '180 cm').")
    depth: float | str = Field(description="North-south size, as width.")

    @field_validator("width", "depth")
    @classmethod
    def _length(cls, value: float | str) -> float | str:
        return _length_text(value)


class Land(Strict):
    """An island, coast or shoal, as an outline of at least three points."""

    name: str | None = Field(None, min_length=1, max_length=60, description="Printed on the map, e.g. 'Savo Island' (1-60 characters).")
    kind: Literal["land", "shoal"] = Field("land", description="land (ships may not enter) or shoal (drawn dashed).")
    outline: list[Point] = Field(min_length=3, max_length=200, description="Corner points [x, y] in the block's units from the south-west corner (3-200 points).")
    label_at: Point | None = Field(None, description="Where its name is printed, [x, y] (default: the middle of its corners).")


class Place(Strict):
    """A named point the victory conditions or orders measure from (an anchorage, a ring)."""

    name: str = Field(min_length=1, max_length=80, description="Printed on the map (1-80 characters).")
    at: Point = Field(description="[x, y] in the block's units from the south-west corner.")
    radius: float | None = Field(None, gt=0, le=500_000, description="Draw a circle of this radius (block units) around it, e.g. the 20,000 yd of a victory condition.")
    pointer: Bearing | None = Field(None, description="Draw an arrow from it on this compass bearing (0-359.9), e.g. towards somewhere off the table.")


class Arc(Strict):
    """A sighting or radar arc drawn around a group's leading ship."""

    label: str = Field(min_length=1, max_length=60, description="What the arc is, e.g. 'SC radar' (1-60 characters).")
    radius: float = Field(gt=0, le=500_000, description="Radius in the block's units.")
    left: Bearing = Field(0, description="Compass bearing where the arc starts (clockwise to right); 0 and 0 make a circle.")
    right: Bearing = Field(0, description="Compass bearing where the arc ends.")


class Group(Strict):
    """Ships that start together: where the leader is, and how the rest follow."""

    name: str = Field(min_length=1, max_length=60, description="Printed beside the group, e.g. 'Southern group' (1-60 characters).")
    side: str = Field(max_length=40, description="Side id the group belongs to.")
    ships: list[Annotated[str, Field(max_length=60)]] = Field(min_length=1, max_length=40, description="Ship names of that side, the leader first (1-40).")
    at: Point = Field(description="Leading ship's position [x, y] in the block's units from the south-west corner.")
    heading: Bearing = Field(description="Compass course, 0-359.9 (0 is north, the table's top edge).")
    speed_kn: float = Field(ge=0, le=1000, description="Speed in knots at the start, 0-1000 (aircraft fly fast).")
    formation: Literal["line-ahead", "line-abreast"] = Field("line-ahead", description="line-ahead (each ship astern of the one before) or line-abreast (each to starboard of the one before).")
    spacing: float | None = Field(None, gt=0, le=20_000, description="Distance between ships in the block's units (default 600 yd).")
    hidden: bool = Field(False, description="Shown only to its own side (and the referee) unless known_to names another side.")
    known_to: list[Annotated[str, Field(max_length=40)]] = Field(default_factory=list, max_length=8, description="Other side ids whose map shows this group although it is hidden.")
    arcs: list[Arc] = Field(default_factory=list, max_length=6, description="Sighting or radar arcs drawn around the leader (at most 6).")

    @field_validator("ships")
    @classmethod
    def _ships_once(cls, ships: list[str]) -> list[str]:
        once(ships, "ship")
        return ships


class Wind(Strict):
    """The wind (the direction it blows from), where the rules use it for smoke."""

    from_: Bearing = Field(alias="from", description="Compass bearing the wind blows from, 0-359.9.")
    knots: float | None = Field(None, ge=0, le=80, description="Wind speed in knots, 0-80, if a source gives it.")


class Light(Strict):
    """The sun or moon (or a flare line) that silhouettes ships on one bearing."""

    source: Literal["sun", "moon"] = Field(description="sun or moon.")
    bearing: Bearing = Field(description="Compass bearing of the sun or moon from the table, 0-359.9.")
    note: str | None = Field(None, max_length=200, description="E.g. 'low, just risen' (at most 200 characters).")


class Setup(Strict):
    """The table, land and starting positions (the printed set-up map)."""

    units: Literal["yd", "m", "km", "nmi"] = Field("yd", description="Unit of every position, outline, radius and spacing in this block: yd, m, km or nmi.")
    table: Table = Field(description="The playing area's size.")
    land: list[Land] = Field(default_factory=list, max_length=30, description="Islands, coasts and shoals (at most 30).")
    places: list[Place] = Field(default_factory=list, max_length=20, description="Named points the orders or victory conditions measure from (at most 20).")
    groups: list[Group] = Field(min_length=1, max_length=40, description="Each group's starting position (1-40).")
    wind: Wind | None = Field(None, description="Wind, where the rules use it.")
    light: Light | None = Field(None, description="Sun or moon, where the rules use it.")
    unverified: list[Annotated[str, Field(max_length=1000)]] = Field(default_factory=list, max_length=40, description="Positions, courses or distances no source confirmed, and where sources disagree which was chosen (at most 40 lines).")

    @model_validator(mode="after")
    def _names_once(self) -> Setup:
        once([g.name for g in self.groups], "group name")
        return self

    def yards(self, value: float) -> float:
        """A distance in the block's units, in yards."""
        return value if self.units == "yd" else convert(value, self.units, "yd")


SETUP_MODELS: list[type[Strict]] = [Setup, Table, Land, Place, Group, Arc, Wind, Light]
"""The block's models, for each ruleset's schema reference page."""


def table_length(value: float | str, scale: Scale) -> float:
    """A table dimension in the scale's table units (cm or in)."""
    if not isinstance(value, str):
        return float(value)
    match = _LENGTH.match(value)
    assert match is not None  # checked by the model
    number, unit = float(match.group(1)), match.group(2)
    if unit in TABLE_UNITS:
        return convert(number, unit, scale.unit)
    return scale.yards_to_units(convert(number, unit, "yd"))


def table_size(setup: Setup, scale: Scale) -> tuple[float, float]:
    """The table's (width, depth) in table units."""
    return table_length(setup.table.width, scale), table_length(setup.table.depth, scale)


def table_yards(setup: Setup, scale: Scale) -> tuple[float, float]:
    """The table's (width, depth) in yards of sea."""
    width, depth = table_size(setup, scale)
    return width * scale.yards_per_unit, depth * scale.yards_per_unit


@dataclass(frozen=True)
class ShipPlace:
    """One ship at the start: where she is in table units, from the south-west corner."""

    name: str
    x: float
    y: float
    heading: float


@dataclass(frozen=True)
class GroupPlace:
    """One group at the start, every number in table units (for the map and VASSAL)."""

    name: str
    side: str
    heading: float
    speed_kn: float
    formation: str
    hidden: bool
    known_to: tuple[str, ...]
    ships: tuple[ShipPlace, ...]

    def seen_by(self, side: str | None) -> bool:
        """Whether ``side``'s map shows this group (None: the referee's, which shows all)."""
        return side is None or side == self.side or not self.hidden or side in self.known_to


def unit_vector(bearing: float) -> tuple[float, float]:
    """(east, north) of a compass bearing."""
    radians = math.radians(bearing)
    return math.sin(radians), math.cos(radians)


DEFAULT_SPACING_YD = 600.0
"""Ship-to-ship distance in a formation when the block gives none."""


def placements(setup: Setup, scale: Scale) -> list[GroupPlace]:
    """Every group's ships in table units: the numbers the map draws and VASSAL places."""
    out = []
    for group in setup.groups:
        per_unit = scale.yards_per_unit
        x0, y0 = setup.yards(group.at[0]) / per_unit, setup.yards(group.at[1]) / per_unit
        step = (setup.yards(group.spacing) if group.spacing else DEFAULT_SPACING_YD) / per_unit
        # Line ahead: astern, along the reciprocal; line abreast: to starboard.
        dx, dy = unit_vector(group.heading + (180 if group.formation == "line-ahead" else 90))
        ships = tuple(ShipPlace(name, x0 + i * step * dx, y0 + i * step * dy, group.heading)
                      for i, name in enumerate(group.ships))
        out.append(GroupPlace(group.name, group.side, group.heading, group.speed_kn,
                              group.formation, group.hidden, tuple(group.known_to), ships))
    return out


@dataclass(frozen=True)
class Range:
    """The closest distance between two groups of different sides at the start."""

    first: str
    second: str
    yards: float
    units: float


def starting_ranges(groups: Sequence[GroupPlace], scale: Scale) -> list[Range]:
    """Closest ship-to-ship distance between every pair of groups of different sides."""
    out = []
    for i, a in enumerate(groups):
        for b in groups[i + 1:]:
            if a.side == b.side:
                continue
            units = min(math.hypot(p.x - q.x, p.y - q.y) for p in a.ships for q in b.ships)
            out.append(Range(a.name, b.name, units * scale.yards_per_unit, units))
    return out


def setup_problems(setup: Setup, doc: Any, scale: Scale, rosters: Mapping[str, Sequence[str]],
                   loc: Loc = ("setup",),
                   same: Callable[[str, str], bool] | None = None) -> list[Problem]:
    """What the schema cannot see: sides, ship names and the table's edges.

    Args:
        setup: The validated block.
        doc: The scenario's source document (``doc.problem(loc, message)``).
        scale: The scale the scenario is played at.
        rosters: Each side id's ship names.
        loc: Where the block is in the file.
        same: Whether a group's ship name means a roster name (default: equal).

    Returns:
        Located problems, every one of them.

    """
    problems: list[Problem] = []
    width, depth = table_size(setup, scale)
    limit_x, limit_y = width * scale.yards_per_unit, depth * scale.yards_per_unit
    tables = ("table",)
    for key, size in (("width", width), ("depth", depth)):
        if not 1 <= size <= MAX_TABLE_UNITS:
            problems.append(doc.problem((*loc, *tables, key), f"found {size:,.4g} {scale.unit} "
                                        f"at {scale.describe()}, expected from 1 to "
                                        f"{MAX_TABLE_UNITS:,} {scale.unit}"))
    if problems:
        return problems
    inside = (f"a point on the table (x 0-{_fmt(setup, limit_x)}, y 0-{_fmt(setup, limit_y)} "
              f"{setup.units})")

    def check_point(point: tuple[float, float], where: Loc) -> None:
        if setup.yards(point[0]) > limit_x + 1e-6 or setup.yards(point[1]) > limit_y + 1e-6:
            problems.append(doc.problem(where, f"found [{point[0]:g}, {point[1]:g}], "
                                               f"expected {inside}"))

    for li, land in enumerate(setup.land):
        for pi, point in enumerate(land.outline):
            check_point(point, (*loc, "land", li, "outline", pi))
        if land.label_at is not None:
            check_point(land.label_at, (*loc, "land", li, "label_at"))
    for pi, place in enumerate(setup.places):
        check_point(place.at, (*loc, "places", pi, "at"))
    sides = list(rosters)
    placed: dict[str, str] = {}
    for gi, group in enumerate(setup.groups):
        here: Loc = (*loc, "groups", gi)
        check_point(group.at, (*here, "at"))
        if group.side not in rosters:
            problems.append(doc.problem((*here, "side"), f"found '{group.side}', expected a "
                                        f"side id ({', '.join(sides)})"
                                        f"{did_you_mean(group.side, sides)}"))
            continue
        for ki, known in enumerate(group.known_to):
            if known not in rosters or known == group.side:
                others = [s for s in sides if s != group.side]
                problems.append(doc.problem((*here, "known_to", ki), f"found '{known}', "
                                            f"expected another side's id ({', '.join(others)})"
                                            f"{did_you_mean(known, others)}"))
        roster = list(rosters[group.side])
        if group.known_to or not group.hidden:
            # Other sides read this name on their maps: it must not give away a ship.
            named = [r for r in roster if re.search(rf"(?<!\w){re.escape(r)}(?!\w)", group.name)]
            if named:
                problems.append(doc.problem((*here, "name"), f"found '{group.name}', expected "
                                            f"a name that names none of the group's ships "
                                            f"(other sides' maps show it; it names "
                                            f"{', '.join(named)})"))
        for si, name in enumerate(group.ships):
            match = next((r for r in roster if (same or str.__eq__)(name, r)), None)
            if match is None:
                problems.append(doc.problem((*here, "ships", si), f"found '{name}', expected "
                                            f"a ship of side '{group.side}' "
                                            f"({', '.join(roster)}){did_you_mean(name, roster)}"))
            elif match in placed:
                problems.append(doc.problem((*here, "ships", si), f"found '{name}' again, "
                                            f"expected each ship in one group (she is in "
                                            f"'{placed[match]}')"))
            else:
                placed[match] = group.name
    for gp, group in zip(placements(setup, scale), setup.groups, strict=True):
        for ship in gp.ships[1:]:
            if not (0 <= ship.x <= width and 0 <= ship.y <= depth):
                problems.append(doc.problem((*loc, "groups", setup.groups.index(group), "at"),
                                            f"found a formation that runs off the table "
                                            f"('{ship.name}' at {ship.x:.1f}, {ship.y:.1f} "
                                            f"{scale.unit}), expected every ship on the "
                                            f"table ({width:g} × {depth:g} {scale.unit})"))
                break
    return problems


def _fmt(setup: Setup, yards: float) -> str:
    """A table edge in the block's units, for a message."""
    value = yards if setup.units == "yd" else convert(yards, "yd", setup.units)
    return f"{value:,.6g}"
