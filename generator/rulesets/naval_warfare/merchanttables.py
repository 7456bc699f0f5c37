"""``tables/merchant.yaml`` for the merchant war of Naval Warfare 1942-45, as a model.

The colour table (odds columns by roll difference), the losses each colour costs, the
tonnage lines, supply and transport, and the text's worked examples: what a ``--tables``
file may replace, key by key. The calculator that reads them is ``merchant.py``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from generator.data.datamodel import Strict
from generator.rules.dietable import DieTable, parse_rolls

MAX_TEXT = 400
"""The longest force description taken."""
COLOURS = ("Red", "Orange", "Yellow", "Blue", "Green")

Rate = Annotated[str, Field(max_length=20, pattern=r"^\s*[0-9]{1,3}(\s*/\s*[1-9][0-9]?)?\s*$")]
Percent = Annotated[int, Field(ge=0, le=100)]


def rate(text: str) -> Fraction:
    """``"1/2"`` as 1/2, ``"3"`` as 3."""
    return Fraction(text.replace(" ", ""))


class ColourTable(Strict):
    """The colour result table: a die table plus the text's row and column headings.

    The cells the text does not give (our readings, printed DEFAULT) are the die table's
    own ``defaults``, as in every ruleset's die tables.
    """

    table: DieTable
    row_labels: dict[int | str, Annotated[str, Field(max_length=20)]] = Field(max_length=40)
    column_labels: list[Annotated[str, Field(max_length=20)]] = Field(max_length=40)

    @model_validator(mode="after")
    def _labels(self) -> ColourTable:
        keys = [str(k) for k in self.table.rows]
        labelled = [str(k) for k in self.row_labels]
        if sorted(labelled) != sorted(keys):
            raise ValueError(f"row_labels: found labels for rows {', '.join(labelled)}, "
                             f"expected one for each row of the table: {', '.join(keys)}")
        if len(self.column_labels) != len(self.table.columns):
            raise ValueError(f"column_labels: found {len(self.column_labels)}, expected "
                             f"{len(self.table.columns)} (one per column)")
        if self.table.axis != "ratio":
            raise ValueError(f"table.axis: found '{self.table.axis}', expected ratio (odds "
                             "columns)")
        return self

    def cell_at(self, row: str, column: str) -> str:
        """The cell of a row (by its key) and column (by its heading)."""
        cells = dict(zip([str(k) for k in self.table.rows], self.table.rows.values(),
                         strict=True))[row]
        return str(cells[self.table.headings.index(column)])

    def ordered_rows(self) -> list[tuple[str, str, list[str]]]:
        """Each row as (key, label, cells), lowest roll first (as the text prints them)."""
        labels = {str(k): v for k, v in self.row_labels.items()}
        rows = [(str(k), labels[str(k)], [str(c) for c in cells])
                for k, cells in self.table.rows.items()]
        return sorted(rows, key=lambda r: (parse_rolls(r[0]) or (0, 0))[0])

    def is_default(self, row: str, column: str) -> bool:
        """Whether that cell is our reading rather than the text's (the table's ``defaults``)."""
        return self.table.is_default(row, column)


class Losses(Strict):
    """One colour's line of the loss table."""

    name: str = Field(max_length=40)
    raider_surface: Percent
    raider_subs: Percent
    escort: Percent
    tonnage_german_subs: Rate
    tonnage_other: Rate


class SubmarineLine(Strict):
    """Which unit of which nation reads the German submarine line."""

    unit: str = Field(max_length=40)
    nation: str = Field(max_length=8)


class Supply(Strict):
    """One line of the supply effectiveness table."""

    length: str = Field(max_length=60)
    factor: Rate
    name: str = Field(max_length=20)


class Transport(Strict):
    """What one Tonnage Point carries of one cargo."""

    cargo: str = Field(max_length=80)
    per_point: str = Field(max_length=60)


class ForceText(Strict):
    """Part of a worked example's force, with the CV the text gives it."""

    units: str = Field(max_length=MAX_TEXT)
    text_cv: int = Field(ge=0, le=9999)
    note: str = Field(default="", max_length=200, description="Why the text's CV may differ.")


class TextFigures(Strict):
    """Every figure a worked example states."""

    raider_cv: int = Field(ge=0, le=9999)
    escort_cv: int = Field(ge=0, le=9999)
    odds: str = Field(max_length=12)
    difference: int = Field(ge=-20, le=20)
    colour: str = Field(max_length=20)
    tonnage: int = Field(ge=0, le=9999)
    escort_raw: str | None = Field(default=None, max_length=12)
    escort_steps: int = Field(ge=0, le=9999)
    raider_raw: str | None = Field(default=None, max_length=12)
    raider_steps: int = Field(ge=0, le=9999)


class Example(Strict):
    """One of the text's worked examples."""

    number: int = Field(ge=1, le=99)
    title: str = Field(max_length=160)
    raider_nation: str = Field(max_length=8)
    escort_nation: str = Field(max_length=8)
    raiders: list[ForceText] = Field(max_length=20)
    escorts: list[ForceText] = Field(max_length=20)
    raider_roll: int = Field(ge=1, le=6)
    escort_roll: int = Field(ge=1, le=6)
    text: TextFigures


Colour = Literal["Red", "Orange", "Yellow", "Blue", "Green"]


def _every_colour(losses: dict[Colour, Losses]) -> dict[Colour, Losses]:
    """Every colour the table can give costs something (in a --tables file too)."""
    missing = [c for c in COLOURS if c not in losses]
    if missing:
        raise ValueError(f"expected losses for every colour ({', '.join(COLOURS)}), "
                         f"missing {', '.join(missing)}")
    return losses


class MerchantTables(Strict):
    """``tables/merchant.yaml``: what a ``--tables`` file may replace, key by key."""

    colour_table: ColourTable
    losses: Annotated[dict[Colour, Losses], AfterValidator(_every_colour)]
    german_submarines: SubmarineLine
    national_submarines: dict[Annotated[str, Field(max_length=8)],
                              Annotated[str, Field(max_length=40)]] = Field(max_length=20)
    surface_classes: list[Annotated[str, Field(max_length=40)]] = Field(max_length=20)
    air_points: list[Annotated[str, Field(max_length=40)]] = Field(max_length=20)
    supply_effectiveness: list[Supply] = Field(max_length=10)
    transport: list[Transport] = Field(max_length=20)
    examples: list[Example] = Field(default_factory=list, max_length=20)
