"""The Naval Warfare rule tables in force: the bundled YAML, or a user's ``--tables`` file.

``tables/combat.yaml``, ``tables/merchant.yaml``, ``tables/supply.yaml`` and
``tables/counters.yaml`` are read once; a ``--tables`` file may replace any of their
top-level keys (``damage_table``, ``combat_modifiers``, ``colour_table``, ``losses``,
``supply``...), each checked as the bundled one is and every problem located in the
user's file.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import Problem
from generator.data.yamlsource import SourceDoc
from generator.rules.dietable import table_problems
from generator.rules.tables import TableFile, TableSet, bundled_file
from generator.rulesets.naval_warfare.campaign import (
    CounterMix,
    SupplyTable,
    counter_mix,
    load_supply,
    supply_problems,
)
from generator.rulesets.naval_warfare.combat import CombatTables
from generator.rulesets.naval_warfare.merchanttables import COLOURS, MerchantTables

TABLES = Path(__file__).parent / "tables"
COMBAT_FILE = TABLES / "combat.yaml"
MERCHANT_FILE = TABLES / "merchant.yaml"


def _colour_problems(doc: SourceDoc) -> list[Problem]:
    """The colour table's faults, located (when the file gives that table).

    Those of its die table, its DEFAULT cells included (each must name a row and a column
    of the table).
    """
    if not isinstance(doc.data, dict) or "colour_table" not in doc.data:
        return []
    return table_problems(doc, ("colour_table", "table"))


def _colour_key(problem: Problem) -> Problem:
    """A losses key that names no colour, said with the colours and a did-you-mean.

    The model refuses the key by its type (a colour name); its own message names no
    colour, so it is rewritten here, where it is still located at the key.
    """
    from generator.core.suggest import did_you_mean

    match = re.fullmatch(r"losses\.(.+)\.\[key\]", problem.path)
    if match is None:
        return problem
    key = match.group(1)
    return dataclasses.replace(problem, path=f"losses.{key}", message=(
        f"found unknown key '{key}', expected a colour: {', '.join(COLOURS)}"
        f"{did_you_mean(key, COLOURS)}"))


@dataclass(frozen=True)
class RuleTables:
    """The combat and merchant tables in force."""

    combat: CombatTables
    merchant: MerchantTables

    @property
    def replaced(self) -> bool:
        """Whether any table differs from the bundled one."""
        return self != bundled()


TABLE_SET = TableSet(
    bundled_file(CombatTables, COMBAT_FILE, "naval_warfare/tables/combat.yaml"),
    bundled_file(MerchantTables, MERCHANT_FILE, "naval_warfare/tables/merchant.yaml",
                 precheck=_colour_problems),
    TableFile(SupplyTable, load_supply), TableFile(CounterMix, counter_mix),
    precheck=_colour_problems, check=supply_problems, recast=_colour_key)
"""Every table a Naval Warfare ``--tables`` file may replace: the combat and merchant
rules', the supply table and the counter mix (one file serves the whole ruleset)."""


def bundled() -> RuleTables:
    """The tables as bundled (the text's, with the DEFAULT readings marked)."""
    found = TABLE_SET.bundled()
    return RuleTables(found[CombatTables], found[MerchantTables])


def load(override: Path | None = None) -> RuleTables:
    """The combat and merchant tables in force: bundled, or replaced by a user's file.

    Raises:
        DataError: A located message for every problem in the user's file.

    """
    found = TABLE_SET.load(override)
    return RuleTables(found[CombatTables], found[MerchantTables])


def tables_in_force(user_file: Path | None) -> tuple[SupplyTable, CounterMix]:
    """The supply table and counter mix in force: bundled, or replaced by a ``--tables`` file.

    The file may replace ``supply``, ``round``, ``defaults``, any key of
    ``tables/counters.yaml`` and any rule table's (``TABLE_SET``); every
    problem in it is located.

    Raises:
        DataError: The user's file is malformed.

    """
    found = TABLE_SET.load(user_file)
    return found[SupplyTable], found[CounterMix]
