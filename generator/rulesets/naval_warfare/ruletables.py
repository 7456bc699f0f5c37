"""The Naval Warfare rule tables in force: the bundled YAML, or a user's ``--tables`` file.

``tables/combat.yaml`` and ``tables/merchant.yaml`` are read once; a ``--tables`` file
may replace any of their top-level keys (``damage_table``, ``combat_modifiers``,
``colour_table``, ``losses``...), each checked as the bundled one is and every problem
located in the user's file.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from generator.core.errors import DataError, Problem
from generator.data.validation import load_model, load_overrides
from generator.data.yamlsource import SourceDoc
from generator.rules.dietable import table_problems
from generator.rulesets.naval_warfare.combat import CombatTables
from generator.rulesets.naval_warfare.merchanttables import COLOURS, MerchantTables

TABLES = Path(__file__).parent / "tables"
COMBAT_FILE = TABLES / "combat.yaml"
MERCHANT_FILE = TABLES / "merchant.yaml"


def _colour_problems(doc: SourceDoc) -> list[Problem]:
    """The colour table's faults, located (when the file gives that table).

    The die table's own faults first; then each DEFAULT cell must name a row and column
    of the table and repeat the cell it marks.
    """
    if not isinstance(doc.data, dict) or "colour_table" not in doc.data:
        return []
    problems = table_problems(doc, ("colour_table", "table"))
    given = doc.data["colour_table"]
    if problems or not isinstance(given, dict):
        return problems
    table, defaults = given.get("table"), given.get("defaults")
    if not isinstance(table, dict) or not isinstance(defaults, list):
        return problems
    rows = {str(k): v for k, v in (table.get("rows") or {}).items()}
    columns = [str(c) for c in table.get("columns") or []]
    for i, cell in enumerate(defaults):
        if not isinstance(cell, dict):
            continue
        loc = ("colour_table", "defaults", i)
        row, column = str(cell.get("row")), str(cell.get("column"))
        if row not in rows:
            problems.append(doc.problem((*loc, "row"), f"found '{row}', expected a row of the "
                                        f"table: {', '.join(rows)}"))
        elif column not in columns:
            problems.append(doc.problem((*loc, "column"), f"found '{column}', expected a "
                                        f"column: {', '.join(columns)}"))
        elif isinstance(rows[row], list) and len(rows[row]) == len(columns):
            actual = str(rows[row][columns.index(column)])
            if str(cell.get("value")) != actual:
                problems.append(doc.problem((*loc, "value"), f"found '{cell.get('value')}', "
                                            f"expected the table's own cell there ('{actual}')"))
    return problems


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


@functools.cache
def bundled() -> RuleTables:
    """The tables as bundled (the text's, with the DEFAULT readings marked)."""
    return RuleTables(
        load_model(CombatTables, COMBAT_FILE, "naval_warfare/tables/combat.yaml", cache=True),
        load_model(MerchantTables, MERCHANT_FILE, "naval_warfare/tables/merchant.yaml",
                   precheck=_colour_problems, cache=True))


def campaign_tables() -> tuple[type[BaseModel], ...]:
    """The kit's own tables (supply, counter mix) a ``--tables`` file may also hold."""
    from generator.rulesets.naval_warfare.campaign import CounterMix, SupplyTable

    return (SupplyTable, CounterMix)


def load(override: Path | None = None, others: tuple[type[BaseModel], ...] = ()) -> RuleTables:
    """The bundled tables, with a user's file replacing top-level keys.

    Args:
        override: The user's ``--tables`` file, if any.
        others: Models of further tables the same file may hold (the kit's own), whose
            keys are accepted here and left to their readers.

    Raises:
        DataError: A located message for every problem in the user's file.

    """
    base = bundled()
    if override is None:
        return base
    try:
        given = load_overrides(override, CombatTables, MerchantTables, *others,
                               precheck=_colour_problems)
    except DataError as exc:
        raise DataError([_colour_key(p) for p in exc.problems]) from None
    combat = {k: v for k, v in given.items() if k in CombatTables.model_fields}
    merchant = {k: v for k, v in given.items() if k in MerchantTables.model_fields}
    return RuleTables(base.combat.model_copy(update=combat),
                      base.merchant.model_copy(update=merchant))
