"""What the rulesets of ship classes and scenarios declare alike.

NAVAL ACTION and Surface Action read the same two kinds of data file, call their status
pages ``sheets`` and their pieces ``markers``, and take a table scale from the command
line; each declares these here once instead of spelling them in its ruleset class.
"""

from __future__ import annotations

from pydantic import BaseModel

from generator.core.errors import UsageError
from generator.core.scales import Scale, parse_scale

SHEET_PREVIEWS = {"status": "sheets", "marker": "markers", "counter": "markers"}
"""``quarterdeck preview --component`` names for a kit of status sheets and markers."""


def ship_kinds(ship_class: type[BaseModel], scenario: type[BaseModel],
               ) -> dict[str, type[BaseModel]]:
    """A ruleset's data kinds when it reads ship classes and scenarios (``data_kinds``)."""
    return {"ship-class": ship_class, "scenario": scenario}


def scale_option(text: str) -> Scale:
    """A scale from the command line (``--scale``), as a usage error when it is not one."""
    try:
        return parse_scale(text)
    except ValueError as exc:
        raise UsageError(f"--scale: found '{text}', {exc}") from None
