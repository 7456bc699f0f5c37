"""The Naval Warfare rule tables in force: the bundled YAML, or a user's ``--tables`` file.

``tables/combat.yaml`` and ``tables/merchant.yaml`` are read once; a ``--tables`` file
may replace any of their top-level keys (``damage_table``, ``combat_modifiers``,
``colour_table``, ``losses``...), each checked as the bundled one is and every problem
located in the user's file.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from generator.dietable import table_problems
from generator.errors import Problem
from generator.rulesets.naval_warfare.combat import CombatTables
from generator.rulesets.naval_warfare.merchant import MerchantTables
from generator.validation import load_model, load_overrides
from generator.yamlsource import SourceDoc

TABLES = Path(__file__).parent / "tables"
COMBAT_FILE = TABLES / "combat.yaml"
MERCHANT_FILE = TABLES / "merchant.yaml"


def _colour_problems(doc: SourceDoc) -> list[Problem]:
    """The colour table's die-table faults, located (when the file gives that table)."""
    if isinstance(doc.data, dict) and "colour_table" in doc.data:
        return table_problems(doc, ("colour_table", "table"))
    return []


@dataclass(frozen=True)
class RuleTables:
    """The combat and merchant tables in force."""

    combat: CombatTables
    merchant: MerchantTables

    @property
    def replaced(self) -> bool:
        """Whether any table differs from the bundled one."""
        return self != bundled()


@functools.cache
def bundled() -> RuleTables:
    """The tables as bundled (the text's, with the DEFAULT readings marked)."""
    return RuleTables(
        load_model(CombatTables, COMBAT_FILE, "naval_warfare/tables/combat.yaml"),
        load_model(MerchantTables, MERCHANT_FILE, "naval_warfare/tables/merchant.yaml",
                   precheck=_colour_problems))


def load(override: Path | None = None) -> RuleTables:
    """The bundled tables, with a user's file replacing top-level keys.

    Raises:
        DataError: A located message for every problem in the user's file.

    """
    base = bundled()
    if override is None:
        return base
    given = load_overrides(override, CombatTables, MerchantTables, precheck=_colour_problems)
    combat = {k: v for k, v in given.items() if k in CombatTables.model_fields}
    merchant = {k: v for k, v in given.items() if k in MerchantTables.model_fields}
    return RuleTables(base.combat.model_copy(update=combat),
                      base.merchant.model_copy(update=merchant))
