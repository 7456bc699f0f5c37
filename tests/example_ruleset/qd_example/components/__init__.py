"""Example Skirmish's component registry; importing the package registers every component.

Component modules import ``COMPONENTS`` from here and ``Derived`` only for type checking,
so they never import the ruleset module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.kit.seam import Components

if TYPE_CHECKING:
    from qd_example.ruleset import Derived

COMPONENTS: Components[Derived] = Components()

from qd_example.components import aids as aids  # noqa: E402
from qd_example.components import sheets as sheets  # noqa: E402
