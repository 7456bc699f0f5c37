"""The Naval Warfare unit table (``tables/units.yaml``) as typed values.

Every component and calculator reads the unit types through ``load_units``: the three
combat values (fleet operations, commerce attack, commerce defence) and the operational
range, as the rule text's table gives them.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from generator.data.datamodel import Strict
from generator.data.validation import load_model

UNITS_FILE = Path(__file__).parent / "tables" / "units.yaml"


class UnitType(Strict):
    """One unit type: its name, its three combat values and its range."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]{0,39}$", description="Stable id (heavy-ship).")
    name: str = Field(min_length=1, max_length=60, description="Name as the text gives it.")
    fleet: int = Field(ge=0, le=50, description="Combat value in fleet operations.")
    attack: int = Field(ge=0, le=50, description="Combat value attacking merchant shipping.")
    defence: int = Field(ge=0, le=50, description="Combat value escorting merchant shipping.")
    range: int = Field(ge=0, le=20, description="Operational range in sea areas from its base.")
    code: str = Field("", max_length=8, description="Short label printed on the counter.")
    kind: Literal["ship", "air", "land"] = Field("ship", description="ship (two steps), "
                                                  "air or land (one step each).")
    later_range: int | None = Field(None, ge=0, le=20, description="Range later in the war.")
    carries: str | None = Field(None, max_length=40, description="The Air Point unit one "
                                "undamaged group of this type carries (carrier groups).")

    def damaged(self) -> tuple[int, int, int]:
        """Fleet, attack and defence of a damaged unit: each halved, rounded down."""
        return self.fleet // 2, self.attack // 2, self.defence // 2


class UnitTable(Strict):
    """The file: the unit types in the text's order."""

    units: list[UnitType] = Field(min_length=1, max_length=40)

    @field_validator("units")
    @classmethod
    def _unique(cls, value: list[UnitType]) -> list[UnitType]:
        ids = [u.id for u in value]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValueError(f"found {', '.join(repeated)} more than once, expected each id once")
        return value


@functools.lru_cache(maxsize=4)
def _load(path: Path) -> dict[str, UnitType]:
    table = load_model(UnitTable, path, "naval_warfare/tables/units.yaml"
                       if path == UNITS_FILE else str(path))
    return {u.id: u for u in table.units}


def load_units(path: Path | None = None) -> dict[str, UnitType]:
    """The unit types by id, in the text's order.

    Args:
        path: Another unit table in the same format (default: the bundled one).

    Raises:
        DataError: The file is malformed, each problem located.

    """
    return dict(_load(path or UNITS_FILE))
