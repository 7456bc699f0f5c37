"""A ruleset's share of the shared ship types: the ones its rules cover.

The shared class files (``generator.data.shipclass``) know every type any ruleset rates;
a ruleset's own files should accept only those its rules speak of. ``TypeSubset`` says
which, once, readable by pydantic (which refuses the rest, naming only these) and by mypy
(which sees the shared ``ShipType``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from generator.core.suggest import did_you_mean
from generator.data.shipclass import ShipType


@dataclass(frozen=True)
class TypeSubset:
    """The shared types one ruleset has rules for, in the order it lists them.

    Iterating it gives the types. As the metadata of ``Annotated[ShipType, subset]`` it
    makes pydantic accept only these (its error names only them) while mypy and the
    schema pages see the shared ``ShipType``.
    """

    types: tuple[ShipType, ...]

    def __iter__(self) -> Iterator[ShipType]:
        """The types, in the ruleset's order."""
        return iter(self.types)

    def __len__(self) -> int:
        """How many types the ruleset knows."""
        return len(self.types)

    def codes(self) -> tuple[str, ...]:
        """The types' codes, in order (``"BB"``, ``"BC"``...)."""
        return tuple(t.value for t in self.types)

    @property
    def narrowed(self) -> Any:
        """The codes as a ``Literal``, for the messages that list what a field accepts."""
        return Literal[self.codes()]

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler,
                                     ) -> CoreSchema:
        """A check of the code itself, so an error names only these types (not all)."""
        return core_schema.no_info_plain_validator_function(self.parse)

    def parse(self, value: object) -> ShipType:
        """The type a code names, if the ruleset knows it.

        Raises:
            ValueError: Not one of these types (the message lists them, with a guess).

        """
        codes = self.codes()
        if isinstance(value, str) and value in codes:
            return ShipType(value)
        hint = did_you_mean(value, list(codes)) if isinstance(value, str) else ""
        raise ValueError(f"expected one of {', '.join(codes)}{hint}")
