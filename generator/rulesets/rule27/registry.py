"""The Rule 27 component registry.

It sits apart from ``__init__`` so that every component module can register itself
without importing the ruleset class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.kit.seam import Components

if TYPE_CHECKING:
    from generator.rulesets.rule27.ruleset import Derived

COMPONENTS: Components[Derived] = Components()
