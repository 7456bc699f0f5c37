# ruff: noqa: E501  (one field per line, as in the rulesets' schema.py files)
"""Rule 27's tables as data (``tables/naval.yaml``): types, categories, steps, cargo.

Every card and the bombing calculator read the same validated tables, so a user's
``--tables`` file changes what is printed and what is computed together.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from generator.data.datamodel import Strict
from generator.rules.defaults import Defaults, is_default
from generator.rules.tables import TableSet, bundled_file

FOLDER = Path(__file__).parent
TABLES = FOLDER / "tables" / "naval.yaml"
Category = Literal["NT", "AF", "CF", "SF"]
TypeId = Literal["BB", "BC", "CA", "CL", "DD", "CV", "CVE", "LS", "LC", "NT"]
TYPE_IDS: tuple[TypeId, ...] = ("BB", "BC", "CA", "CL", "DD", "CV", "CVE", "LS", "LC", "NT")


class CategoryRow(Strict):
    """One category of naval units, in bombing-allocation order."""

    id: Category = Field(description="NT, AF, CF or SF.")
    title: str = Field(min_length=1, max_length=40, description="Printed name.")


class TypeRow(Strict):
    """One counter type: its category, how many ships it stands for, its movement."""

    category: Category = Field(description="NT, AF, CF or SF.")
    title: str = Field(min_length=1, max_length=60, description="What the counter stands for.")
    ships: tuple[int, int] = Field(description="Fewest and most ships one counter stands for.")
    move: int = Field(ge=1, le=30, description="Sea boxes per naval step.")
    zone: Literal["adjacent", "hex", "none"] = Field(description="Naval combat zone: the hex and adjacent hexes, the hex only, or none.")
    half: bool = Field(description="Has a half-strength side (flips after half its strength in hits).")
    fixed_strength: int | None = Field(None, ge=1, le=5, description="Strength every counter of the type has (AF, NT).")

    @model_validator(mode="after")
    def _range(self) -> TypeRow:
        low, high = self.ships
        if not 0 <= low <= high <= 60:
            raise ValueError(f"expected 0 <= fewest <= most <= 60 ships, found [{low}, {high}]")
        return self


class Steps(Strict):
    """Naval steps in each phase and their length."""

    movement: int = Field(ge=1, le=20, description="Naval steps in the movement phase.")
    exploitation: int = Field(ge=1, le=20, description="Naval steps in the exploitation phase.")
    hours: int = Field(ge=1, le=240, description="Hours in one naval step.")


class CargoExample(Strict):
    """Ships combining to carry a larger item."""

    carriers: str = Field(min_length=1, max_length=40)
    cargo: str = Field(min_length=1, max_length=60)


class Cargo(Strict):
    """Cargo capacities and the RE doubling."""

    sf_capacity_re: int = Field(ge=0, le=10, description="RE an undamaged SF carries (non-c/m, no heavy equipment).")
    af_capacity_re: int = Field(ge=0, le=10, description="RE an AF carries.")
    nt_capacity_re: int = Field(ge=0, le=10, description="RE an NT carries.")
    doubled: list[str] = Field(max_length=10, description="Unit kinds whose RE size is doubled at sea.")
    examples: list[CargoExample] = Field(max_length=10)
    mp_per_step: dict[str, int] = Field(max_length=5, description="MPs a ground unit spends embarking, disembarking and per naval step aboard.")


class Markers(Strict):
    """How many markers each side's sheet carries."""

    hit_fronts: list[int] = Field(min_length=1, max_length=10, description="Damage-hit markers' fronts (each back counts one more).")
    hits_each: int = Field(ge=0, le=40, description="Copies of each damage-hit marker per side.")
    task_forces: int = Field(ge=0, le=40, description="Task Force markers per side (numbered from 1).")
    cargo_fronts: list[int] = Field(min_length=1, max_length=10, description="Cargo markers' fronts in RE (each back one more).")
    cargo_each: int = Field(ge=0, le=40, description="Copies of each cargo marker per side.")


def _every_category(rows: list[CategoryRow]) -> list[CategoryRow]:
    order = [c.id for c in rows]
    if sorted(order) != sorted(["NT", "AF", "CF", "SF"]):
        raise ValueError(f"expected the categories NT, AF, CF and SF once each, found {', '.join(order)}")
    return rows


def _every_type(strengths: dict[TypeId, int]) -> dict[TypeId, int]:
    missing = [t for t in TYPE_IDS if t not in strengths]
    if missing:
        raise ValueError(f"expected a default strength for every type, missing {', '.join(missing)}")
    return strengths


# The rules live in the fields' types, so that a --tables file meets them too (a model
# validator does not come along to the override model, see validation.optional_fields).
Categories = Annotated[list[CategoryRow], AfterValidator(_every_category)]
DefaultStrengths = Annotated[dict[TypeId, Annotated[int, Field(ge=1, le=20)]], AfterValidator(_every_type)]


class NavalTables(Strict):
    """The whole of ``tables/naval.yaml``."""

    kind: Literal["rule27-tables"] = Field(description="Always 'rule27-tables'.")
    categories: Categories = Field(min_length=4, max_length=4, description="Categories in bombing-allocation order.")
    types: dict[TypeId, TypeRow] = Field(min_length=10, max_length=10, description="Every counter type.")
    knots: dict[int, int] = Field(max_length=10, description="Cruising speed the text gives beside each movement rate.")
    half_round: Literal["down", "up", "nearest"] = Field(description="How a half-strength side rounds half the strength.")
    half_aa: Literal["same", "half"] = Field(description="AA on a half-strength side: the same, or halved like strength.")
    flip_hits: Literal["excess", "all"] = Field(description="Hit markers when a counter flips: 'excess' keeps the hits beyond the strength the flip took off; 'all' removes every hit marker.")
    steps: Steps
    sea_box_hexes: int = Field(ge=1, le=20, description="Map hexes across one sea box.")
    coast_defence_adjacent_from: int = Field(ge=1, le=10, description="Coast-defence strength from which the combat zone reaches adjacent hexes.")
    cargo: Cargo
    markers: Markers
    default_strength: DefaultStrengths = Field(description="Strength `quarterdeck bombing` assumes for a type given without one.")
    defaults: Defaults


    def category_of(self, type_id: str) -> Category:
        """The category of a type."""
        return self.types[type_id].category  # type: ignore[index]

    def half_of(self, strength: int) -> int:
        """The strength printed on a half-strength side, rounded as ``half_round`` says."""
        half = Fraction(strength, 2)
        return {"down": math.floor(half), "up": math.ceil(half),
                "nearest": math.floor(half + Fraction(1, 2))}[self.half_round]

    def half_aa_of(self, aa: int) -> int:
        """The AA printed on a half-strength side."""
        return aa if self.half_aa == "same" else self.half_of(aa)

    def is_default(self, key: str) -> bool:
        """Whether a table is one quarterdeck chose (printed with DEFAULT)."""
        return is_default(self, key)


TABLE_SET = TableSet(bundled_file(NavalTables, TABLES, "rule27/tables/naval.yaml"))
"""The tables a Rule 27 ``--tables`` file may replace keys of."""


def bundled_tables() -> NavalTables:
    """The bundled tables (read once)."""
    return TABLE_SET.bundled()[NavalTables]


def load_tables(override: Path | None = None) -> NavalTables:
    """The bundled tables with a user's file replacing top-level keys (``--tables``).

    A key the user replaces is no longer the bundled DEFAULT reading, so it drops out of
    ``defaults`` unless the user's file lists it again (``generator.rules.tables``).

    Raises:
        DataError: A located message for every problem in the user's file.

    """
    return TABLE_SET.load(override)[NavalTables]
