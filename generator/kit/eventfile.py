"""An event file: what a convention plays, on how many tables, checked before anything is built.

``load_event`` reads it (``Event``) and checks it against the library: each scenario
exists and is listed once, each extra is one every scenario's ruleset prints, the logo
and template folder are beside the event file, and the event as a whole asks for at most
``MAX_BUILDS`` builds (``plan`` lists them, in the order they are made). ``table_seed``
gives each table its own dice. Building the event is ``kit.event``.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from generator.core.errors import Problem
from generator.data.datamodel import Strict
from generator.data.library import Library
from generator.data.validation import load_model, name_problem
from generator.data.yamlsource import Loc, SourceDoc
from generator.pages import branding
from generator.pages.layout import Paper

Extra = Literal["tables", "markers", "rulers", "gauges", "strings"]
"""Commands whose output an event may add once per scenario (besides the table packs)."""
MAX_TABLES = 64
"""Most tables one scenario may have at an event (a bound on untrusted input)."""
MAX_BUILDS = 400
"""Most builds one event may ask for: every table and every scenario's extras, per paper.

Each field alone is bounded, but their product is not small: 40 scenarios of 64 tables on
two papers would be 5,120 table builds, and the ten bundled scenarios at 64 tables on two
papers, a 16-line file, 1,280 (tests/hostile_corpus/events/). A build
is one table on one paper (every side's packet and the referee's, about 130 pages) or one
extra of one scenario on one paper. 400 is 200 tables on both A4 and Letter (or 400 on
one): several times the largest naval-wargame convention, where a few dozen tables is a
big event, and still something a laptop finishes: about 50,000 pages of packets, plus the
print-shop bundles that repeat them, at some 300 pages a second (bench/README.md) is
minutes, not hours, and a few gigabytes of disk at most.
"""
SEED_LIMIT = 2**31 - 1


class EventScenario(Strict):
    """One scenario at the event and the tables that play it."""

    id: str = Field(min_length=1, max_length=60, pattern=r"^[a-z0-9][a-z0-9-]*$")
    tables: int = Field(ge=1, le=MAX_TABLES)
    seeds: list[Annotated[int, Field(ge=0, le=SEED_LIMIT)]] | None = Field(
        default=None, max_length=MAX_TABLES)
    """One seed per table (in table order); by default each is derived from the event seed.

    That there is one per table is checked with the event (``load_event``), where the
    problem can be located at the list.
    """


class Event(Strict):
    """An event file: who runs it, what is played on how many tables, and what to print."""

    kind: Literal["event"]
    name: str = Field(min_length=1, max_length=80)
    date: datetime.date
    club: str = Field(default="", max_length=80)
    logo: str | None = Field(default=None, min_length=1, max_length=200)
    """A PNG or SVG next to the event file (or below it)."""
    paper: list[Paper] = Field(default_factory=lambda: list[Paper](["a4"]), min_length=1,
                              max_length=2)
    seed: int = Field(default=1, ge=0, le=SEED_LIMIT)
    combined: bool = False
    """Also write one PDF per table holding all its packets, each behind its cover."""
    print_shop: bool = False
    """Write every PDF as a print-shop file: PDF/X-4, its colours in CMYK."""
    extras: list[Extra] = Field(default_factory=list, max_length=5)
    templates: str | None = Field(default=None, min_length=1, max_length=200)
    """A template folder next to the event file (its ``branding.yaml`` brands every page)."""
    scenarios: list[EventScenario] = Field(min_length=1, max_length=40)
    """Each scenario once (checked with the event, ``load_event``)."""


def table_seed(event_seed: int, scenario: str, table: int) -> int:
    """The dice seed of one table: stable, and different for every table of an event."""
    digest = hashlib.sha256(f"{event_seed}:{scenario}:{table}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % (SEED_LIMIT + 1)


def slug(name: str) -> str:
    """A folder name for the event: lowercase words joined by hyphens (ASCII only)."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    return "-".join(words)[:60] or "event"


@dataclass(frozen=True)
class Build:
    """One build an event asks for, and the field of the event file that asks for it."""

    paper: Paper
    scenario: EventScenario
    number: int
    """The table's number through the event (0 for an extra)."""
    index: int
    """The table's place among its scenario's tables, from 0 (or the extra's in extras)."""
    extra: Extra | None
    asked_by: Loc
    """``paper.N`` past the first paper; else the scenario's ``tables`` or ``extras.N``."""


def plan(event: Event) -> Iterator[Build]:
    """Every build of the event, in the order they are made (paper by paper)."""
    for nth, paper in enumerate(event.paper):
        number = 0
        for place, entry in enumerate(event.scenarios):
            for index in range(entry.tables):
                number += 1
                yield Build(paper, entry, number, index, None,
                            ("paper", nth) if nth else ("scenarios", place, "tables"))
            for index, extra in enumerate(event.extras):
                yield Build(paper, entry, 0, index, extra,
                            ("paper", nth) if nth else ("extras", index))


def builds_problem(event: Event, doc: SourceDoc) -> Problem | None:
    """The problem when the event asks for more than ``MAX_BUILDS`` builds, else None.

    It is located at the field whose build is the first one too many, in build order: a
    scenario's ``tables``, one of the ``extras``, or the second ``paper``.
    """
    tables = sum(entry.tables for entry in event.scenarios)
    extras = len(event.scenarios) * len(event.extras)
    papers = len(event.paper)
    total = papers * (tables + extras)
    if total <= MAX_BUILDS:
        return None
    over = next(itertools.islice(plan(event), MAX_BUILDS, None))
    return doc.problem(over.asked_by, (
        f"found {total} builds, expected at most {MAX_BUILDS} ({_count(tables, 'table')} "
        f"and {_count(extras, 'extra')}, times {_count(papers, 'paper')})"))


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def load_event(path: Path, library: Library) -> tuple[Event, Path | None, Path | None]:
    """Read and check an event file against the library's scenarios.

    Besides each field's own bounds, the event as a whole may ask for at most
    ``MAX_BUILDS`` builds (tables and extras, on every paper).

    Returns:
        The event, its checked logo's path and its template folder (None when not given).

    Raises:
        DataError: Every problem, each located in the event file.

    """
    found: list[Path | None] = [None, None]

    def check(event: Event, doc: SourceDoc) -> list[Problem]:
        problems = _shape_problems(event, doc)
        problems += [name_problem(doc, ("scenarios", i, "id"), s.id, sorted(library.scenarios),
                                 "a scenario (quarterdeck list scenarios)")
                    for i, s in enumerate(event.scenarios) if s.id not in library.scenarios]
        problems.extend(_extras_problems(event, doc, library))
        too_many = builds_problem(event, doc)
        if too_many is not None:
            problems.append(too_many)
        if event.logo is not None:
            logo, expected = branding.check_logo(path, path.parent, event.logo,
                                                 "the event file's folder")
            if logo is None:
                problems.append(doc.problem(("logo",), f"found {event.logo!r}, {expected}"))
            found[0] = logo
        if event.templates is not None:
            from generator.core.pathargs import resolved
            from generator.data.images import LOOP

            folder = resolved(path.parent / event.templates)
            base = resolved(path.parent)
            if folder is None or base is None:
                problems.append(doc.problem(("templates",), f"found {event.templates!r}, "
                                            f"{LOOP.replace('a file', 'a folder')}"))
            elif not folder.is_relative_to(base) or not folder.is_dir():
                problems.append(doc.problem(("templates",), f"found {event.templates!r}, "
                                            "expected a folder beside the event file or "
                                            "below it"))
            else:
                found[1] = folder
        return problems

    return load_model(Event, path, check=check), found[0], found[1]


def _shape_problems(event: Event, doc: SourceDoc) -> list[Problem]:
    """A value listed twice (each at its second place), a scenario's seeds not one a table."""
    problems = []
    named: list[tuple[str, str, list[str], tuple[str, ...]]] = [
        ("paper", "paper size", list(event.paper), ()),
        ("extras", "extra", list(event.extras), ()),
        ("scenarios", "scenario", [s.id for s in event.scenarios], ("id",))]
    for field_name, what, values, inside in named:
        for index, value in enumerate(values):
            first = values.index(value)
            if first < index:
                problems.append(doc.problem((field_name, index, *inside), (
                    f"found {value!r} again, expected each {what} once (it is "
                    f"{field_name}.{first} too)")))
    for index, entry in enumerate(event.scenarios):
        if entry.seeds is not None and len(entry.seeds) != entry.tables:
            problems.append(doc.problem(("scenarios", index, "seeds"), (
                f"found {_count(len(entry.seeds), 'seed')}, expected one per table "
                f"({entry.tables})")))
    return problems


def _extras_problems(event: Event, doc: SourceDoc, library: Library) -> list[Problem]:
    """Extras some scenario's ruleset does not print (found before anything is built)."""
    from generator.kit.registry import REGISTRY

    problems = []
    for index, extra in enumerate(event.extras):
        lacking = []
        for entry in event.scenarios:
            scenario = library.scenarios.get(entry.id)
            ruleset = REGISTRY.get(scenario.model.ruleset) if scenario is not None else None
            if ruleset is not None and getattr(ruleset.recipes, extra, None) is None:
                lacking.append(f"{entry.id}, a {ruleset.title} scenario,")
        if lacking:
            problems.append(doc.problem(("extras", index), (
                f"found {extra!r}, expected an extra every scenario's ruleset prints "
                f"({' and '.join(lacking)} {'have' if len(lacking) > 1 else 'has'} none)")))
    return problems
