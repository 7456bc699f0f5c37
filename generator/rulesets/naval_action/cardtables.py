"""The NAVAL ACTION Action Card tables (``tables/action-card.yaml``), validated.

One source for the card and the calculator (the models are ``cardmodels``).
``load_tables(user_file)`` returns the bundled tables with any table the user supplies
replacing the bundled one; the user's file may also replace derivation tables
(``derivation.yaml``), such as the comparative-strength values.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from generator.core.errors import Problem
from generator.data.validation import key_problems, load_model
from generator.data.yamlsource import SourceDoc
from generator.rules.dietable import row_width_problems
from generator.rules.tables import TableFile, TableSet, locate
from generator.rulesets.naval_action import rules as derivation
from generator.rulesets.naval_action.cardmodels import DAMAGE, CardTables, TorpedoRuns
from generator.rulesets.naval_action.markertables import (
    MarkerTables,
    bundled_markers,
    marker_problems,
)
from generator.rulesets.naval_action.rules import DerivationRules

TABLES = Path(__file__).parent / "tables"


class Tables(BaseModel):
    """The card tables and the derivation tables in force for a build."""

    model_config = ConfigDict(defer_build=True, frozen=True, arbitrary_types_allowed=True)
    card: CardTables
    rules: DerivationRules
    markers: MarkerTables = Field(default_factory=bundled_markers)
    replaced: tuple[str, ...] = ()
    origin: str = "bundled"
    display: str = "bundled"
    positions: dict[str, tuple[int, int]] = Field(default_factory=dict)

    def locate(self, names: Iterable[str], message: str) -> Problem:
        """A problem the tables cause on a page, at the user's table behind it (``locate``)."""
        return locate(self.display, self.positions, names, message)


GRIDS = {"penetration": ("rows", "gunfire_dud"), "torpedo_hits": ("rows",),
         "aa_results": ("rows",)}
"""The card's die tables and the keys holding their rows (each row as wide as its columns)."""


def _precheck(doc: SourceDoc) -> list[Problem]:
    """Problems a model could only point at its whole table, located at the row or key."""
    data = doc.data if isinstance(doc.data, dict) else {}
    problems = row_width_problems(doc, GRIDS)
    problems += _penetration_problems(doc, data.get("penetration"))
    dc = data.get("damage_control")
    if isinstance(dc, dict) and {"always_good", "good_from"} & set(dc):
        problems.append(doc.problem(("damage_control",), (
            "found which navies have Good damage control, expected the Action Card's table "
            "(good, poor, rerolls); did you mean 'damage_control_navies'?"), key=True))
    return problems


def _penetration_problems(doc: SourceDoc, pen: Any) -> list[Problem]:
    """Penetration rows for faces no roll reaches, and results the damage steps lack."""
    if not isinstance(pen, dict) or not isinstance(pen.get("rows"), dict):
        return []
    shifts = pen.get("shift_up")
    shift = max([v for v in shifts.values() if type(v) is int and 0 <= v <= 3], default=0) \
        if isinstance(shifts, dict) else 0
    problems = [doc.problem(("penetration", "rows", face),
                            f"found die face {face}, expected a face from 1 to {6 + shift} "
                            f"(rows past 6 are reached only by a shift up of {shift})", key=True)
                for face in pen["rows"] if type(face) is int and not 1 <= face <= 6 + shift]
    steps = pen.get("steps")
    if isinstance(steps, dict):
        cells = [c for row in pen["rows"].values() if isinstance(row, list) for c in row]
        cells += pen["gunfire_dud"] if isinstance(pen.get("gunfire_dud"), list) else []
        # A cell that is no result at all is the model's to report, with a did-you-mean.
        lacking = sorted({c for c in cells if c in DAMAGE} - set(steps))
        if lacking:
            problems.append(doc.problem(("penetration", "steps"), (
                f"found no {', '.join(lacking)}, expected the damage steps of every result "
                "the rows give")))
    return problems


def _coverage(tables: dict[str, Any], doc: SourceDoc) -> list[Problem]:
    """Keyed tables (card or derivation) that lack a name the rules look up, or name nothing."""
    problems = derivation.coverage_problems(tables, doc) + marker_problems(tables, doc)
    runs = tables.get("torpedo_runs")
    if isinstance(runs, TorpedoRuns):
        problems += key_problems(doc, ("torpedo_runs", "yards_per_turn"), runs.yards_per_turn,
                                 derivation.TORPEDO_SIZES, "torpedo size in inches")
    return problems


@functools.cache
def _bundled_card() -> CardTables:
    path = TABLES / "action-card.yaml"
    return load_model(CardTables, path, path.name, precheck=_precheck,
                      check=lambda card, doc: _coverage(dict(card), doc))


TABLE_SET = TableSet(TableFile(CardTables, _bundled_card),
                     TableFile(DerivationRules, derivation.bundled_rules),
                     TableFile(MarkerTables, bundled_markers),
                     precheck=_precheck, check=_coverage)
"""Every table a NAVAL ACTION ``--tables`` file may replace: the card's, the derivation's
and the markers'."""


def load_tables(user_file: Path | None = None) -> Tables:
    """The tables in force: bundled, with any table in ``user_file`` replacing its own.

    Args:
        user_file: A YAML file holding some top-level keys of ``action-card.yaml``,
            ``derivation.yaml`` or ``markers.yaml``.

    Returns:
        The merged tables.

    Raises:
        DataError: With every problem in the user's file, located.

    """
    found = TABLE_SET.load(user_file)
    if user_file is None:
        return Tables.model_construct(card=found[CardTables], rules=found[DerivationRules],
                                      markers=found[MarkerTables])
    return Tables(card=found[CardTables], rules=found[DerivationRules],
                  markers=found[MarkerTables], replaced=found.replaced,
                  origin=user_file.name, display=str(user_file), positions=dict(found.positions))


_ACTIVE: contextvars.ContextVar[Tables | None] = contextvars.ContextVar("tables", default=None)


def active() -> Tables:
    """The tables in force for the current build (bundled unless ``using`` says otherwise)."""
    tables = _ACTIVE.get()
    return tables if tables is not None else load_tables()


@contextlib.contextmanager
def using(tables: Tables) -> Iterator[Tables]:
    """Make ``tables`` the ones every derivation and component reads, for a block."""
    token = _ACTIVE.set(tables)
    rules_token = derivation.ACTIVE.set(tables.rules)
    try:
        yield tables
    finally:
        derivation.ACTIVE.reset(rules_token)
        _ACTIVE.reset(token)
