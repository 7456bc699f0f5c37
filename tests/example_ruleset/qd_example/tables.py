# ruff: noqa: E501  (one field per line, as in the rulesets' schema.py files)
"""Example Skirmish's tables as data (``tables/skirmish.yaml``), through the shared loader.

The counters, the reference card, the worksheet and ``quarterdeck salvo`` all read the
same validated tables, so a ``--tables`` file changes what is printed and computed alike.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Literal

from pydantic import Field

from generator.core.errors import Problem
from generator.data.datamodel import Strict
from generator.data.yamlsource import SourceDoc
from generator.rules.defaults import Defaults, is_default
from generator.rules.dietable import DieTable, table_problems
from generator.rules.tables import TableSet, bundled_file

TABLES = Path(__file__).parent / "tables" / "skirmish.yaml"


class Band(Strict):
    """A range band: how far it reaches and the die score that hits."""

    id: str = Field(pattern=r"^[a-z]{1,12}$", description="Band id (short, medium...).")
    reach: int = Field(ge=1, le=40, description="Farthest range in hexes.")
    to_hit: int = Field(ge=2, le=6, description="Lowest d6 score that hits.")


class Markers(Strict):
    """Markers on each side's sheet."""

    smoke: int = Field(ge=0, le=20, description="Smoke markers per side (back: thinning).")
    hits: int = Field(ge=0, le=20, description="Hit markers per side (back: one more).")


class SkirmishTables(Strict):
    """The whole of ``tables/skirmish.yaml``."""

    kind: Literal["skirmish-tables"] = Field(description="Always 'skirmish-tables'.")
    bands: list[Band] = Field(min_length=1, max_length=5, description="Range bands, nearest first.")
    sink_hits: int = Field(ge=1, le=10, description="Net hits in one salvo that sink an undamaged ship.")
    half_round: Literal["down", "up", "nearest"] = Field(description="How a damaged side rounds half the guns and armour.")
    turns: int = Field(ge=1, le=30, description="Turns in a game.")
    night_from: int = Field(ge=1, le=30, description="First night turn (short range only).")
    markers: Markers
    critical: DieTable = Field(description="Rolled once for each salvo that does damage.")
    defaults: Defaults

    def band(self, name: str) -> Band:
        """The band called ``name`` (KeyError when there is none)."""
        found = {b.id: b for b in self.bands}
        return found[name]

    def half_of(self, value: int) -> int:
        """A damaged side's value: half, rounded as ``half_round`` says."""
        half = Fraction(value, 2)
        return {"down": math.floor(half), "up": math.ceil(half),
                "nearest": math.floor(half + Fraction(1, 2))}[self.half_round]

    def is_default(self, key: str) -> bool:
        """Whether a table is one quarterdeck chose (printed with DEFAULT)."""
        return is_default(self, key)


def _critical(doc: SourceDoc) -> list[Problem]:
    return table_problems(doc, ("critical",))


TABLE_SET = TableSet(bundled_file(SkirmishTables, TABLES, "example/tables/skirmish.yaml",
                                  precheck=_critical), precheck=_critical)
"""The tables a ``--tables`` file may replace keys of."""


def load_tables(override: Path | None = None) -> SkirmishTables:
    """The bundled tables, with a user's file replacing top-level keys (``--tables``)."""
    return TABLE_SET.load(override)[SkirmishTables]
