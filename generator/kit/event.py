"""Conventions: one event file builds every table's packets, covers and a print-shop bundle.

A club lists its scenarios and how many tables play each; ``quarterdeck event FILE``
then builds, for every paper size the event asks for, one **table pack** per table (each
side's packet and the referee's, each opening with a cover sheet), the scenarios' extras
once each, a **print-shop bundle** (every pack in print order behind a summary of pages,
paper and card), and a **piece inventory** (what each packet's cut-out sheets hold,
sheet by sheet), all written whole or not at all::

    OUT/<event>/<paper>/table-01-<scenario>/<side>.pdf ...
    OUT/<event>/<paper>/extras/<scenario>/...
    OUT/<event>/<paper>/print-shop.pdf
    OUT/<event>/inventory.csv
    OUT/<event>/manifest.json

Each table's dice come from its own seed (given in the file, or derived from the event
seed, the scenario and the table number), so no two tables roll the same dice, and the
same event file rebuilds byte for byte. The builds run side by side on the CPUs this
process may use; the library is loaded and checked once, before they start.

An event file is untrusted input: besides each field's bounds, the event as a whole asks
for at most ``MAX_BUILDS`` builds, checked before anything is built. A failed write (a
full disk, a quota) is an ``OutputError`` naming the file, and leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import hashlib
import io
import itertools
import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field
from pypdf import PdfReader, PdfWriter

from generator import __version__
from generator.core import fonts
from generator.core.errors import Problem
from generator.core.output import transaction
from generator.core.ownedfolders import MANIFEST, write_error
from generator.core.parallel import fork_map
from generator.core.safetext import text
from generator.core.units import MM
from generator.data.datamodel import Strict
from generator.data.library import Library
from generator.data.validation import load_model, name_problem
from generator.data.yamlsource import Loc, SourceDoc
from generator.kit.packets import BLANK, PacketSpec, sheet_layout
from generator.kit.pipeline import BuildResult, Kit, compose, validated_library
from generator.kit.printnote import blank_page
from generator.kit.seam import KitOptions, Request
from generator.pages import branding
from generator.pages.canvasdoc import CanvasDoc
from generator.pages.component import Component
from generator.pages.grid import Grid, aligned
from generator.pages.layout import Paper, page_size
from generator.pages.pdfstream import StreamedPdf

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
LOGO_BOX = 30 * MM
"""The square a cover's logo is fitted into, 2 mm in from the masthead's top right."""


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
    extras: list[Extra] = Field(default_factory=list, max_length=5)
    templates: str | None = Field(default=None, min_length=1, max_length=200)
    """A template folder next to the event file (its ``branding.yaml`` brands every page)."""
    scenarios: list[EventScenario] = Field(min_length=1, max_length=40)
    """Each scenario once (checked with the event, ``load_event``)."""


@dataclass
class Section:
    """A run of a packet's pages printed one way."""

    first: int
    last: int
    how: str
    """``double-sided on paper``, ``double-sided on card`` or ``single-sided on card``."""


@dataclass
class Pack:
    """One finished packet of a table, with what its cover and the print shop need."""

    paper: Paper
    path: str
    """Relative to the paper's folder."""
    sha256: str
    """Of the file as written into the staging folder."""
    pages: int
    scenario: str
    table: int
    side: str
    sections: list[Section]
    inventory: list[tuple[str, int, str, int]] = field(default_factory=list)
    """(component title, sheet in the component, piece, copies on that sheet)."""


EventResult = BuildResult
"""What an event build wrote: the folder, the files with their pages, the manifest."""


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


def build_event(path: Path, *, data: list[Path] | None = None, out: Path = Path("output"),
                progress: Callable[[int, int], None] = lambda done, total: None,
                ) -> EventResult:
    """Build every table pack, extra, bundle and inventory an event file asks for.

    Each build writes its packets straight into the event's staging folder (in the output
    root, swapped in at the end), and the bundles are then streamed together from those
    files, so memory stays near that of the largest single build however big the event.

    Args:
        path: The event file.
        data: The user's data folders (``--data``).
        out: Output root; the event's folder is made inside it.
        progress: Called with (builds done, builds in all): once before the first build
            and once as each build (one table on one paper, or one extra) finishes.

    Raises:
        DataError: The event file or the data has problems (nothing is written).

    """
    library = validated_library(list(data or []))
    event, logo_path, templates = load_event(path, library)
    logo = _logo(logo_path)
    from generator.pages.templating import check_user_dir

    if templates is not None:
        check_user_dir(templates)
    brand = branding.load(templates) if templates is not None else None
    root = out / slug(event.name)
    made = _missing_folders(root.parent)
    try:
        with transaction() as txn:
            staged = Staged(txn.stage(root), root)
            tasks = _tasks(library, event, logo, brand, templates, staged)
            done = [0]

            def finished(index: int, result: tuple[list[Pack], list[str]]) -> None:
                done[0] += 1
                progress(done[0], len(tasks))

            progress(0, len(tasks))
            results = fork_map([partial(_quietly, task) for task in tasks],
                               on_result=finished)
            packs = [pack for found, _ in results for pack in found]
            warnings = [w for _, found in results for w in found]
            files = _finish(event, staged, packs, templates)
    except BaseException:
        for folder in made:  # nothing written: not even the empty output root
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    return EventResult(root, {n: pages for n, (pages, _) in sorted(files.items())},
                       root / MANIFEST, list(dict.fromkeys(warnings)))


def _missing_folders(folder: Path) -> list[Path]:
    """``folder`` and its ancestors that do not exist yet, deepest first."""
    missing = []
    for candidate in [folder, *folder.parents]:
        if candidate.exists():
            break
        missing.append(candidate)
    return missing


def _tasks(library: Library, event: Event, logo: Any, brand: branding.Brand | None,
           templates: Path | None, out: Staged,
           ) -> list[Callable[[], tuple[list[Pack], list[str]]]]:
    """One build per table and paper, and one per extra, scenario and paper."""
    tasks: list[Callable[[], tuple[list[Pack], list[str]]]] = []
    for build in plan(event):
        entry = build.scenario
        if build.extra is not None:
            tasks.append(partial(_extra, library, templates, build.paper, entry.id,
                                 build.extra, out))
            continue
        seed = (entry.seeds[build.index] if entry.seeds is not None
                else table_seed(event.seed, entry.id, build.number))
        tasks.append(partial(_table, library, event, logo, brand, templates, build.paper,
                             entry.id, build.number, seed, out))
    return tasks


# ---------------------------------------------------------------- building


def _workers() -> int:
    """Builds to run side by side: the CPUs this process may use that are free now."""
    from generator.core.parallel import workers

    return max(1, workers())


def _quietly(task: Callable[[], tuple[list[Pack], list[str]]]) -> tuple[list[Pack], list[str]]:
    """Run one build with its own render steps in this process (the event forks already)."""
    with _single_process():
        return task()


@contextmanager
def _single_process() -> Iterator[None]:
    old = os.environ.get("QUARTERDECK_JOBS")
    os.environ["QUARTERDECK_JOBS"] = "1"
    try:
        yield
    finally:
        if old is None:
            del os.environ["QUARTERDECK_JOBS"]
        else:
            os.environ["QUARTERDECK_JOBS"] = old


def _table(library: Library, event: Event, logo: Any, brand: branding.Brand | None,
           templates: Path | None, paper: Paper, scenario: str, number: int,
           seed: int, out: Staged) -> tuple[list[Pack], list[str]]:
    """One table's packets, each behind its cover sheet, written into the staging folder."""
    kit = compose(Request("kit", scenario=scenario), library=library, paper=paper,
                  options=KitOptions(seed=seed, templates=templates), note_pages=False)
    folder = f"table-{number:02d}-{scenario}"
    packs = []
    for spec in kit.packets:
        side = _side_name(kit, spec)
        sections = _sections(spec, kit.components, offset=2)
        inventory = _inventory(spec, kit.components)
        with branding.branded(templates):
            cover = _cover(event, logo, brand, paper, kit, spec, number, side, seed,
                           sections, inventory)
        pdf = _join([cover, kit.files[spec.filename]])
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        name = f"{folder}/{spec.filename}"
        packs.append(Pack(paper, name, out.put(f"{paper}/{name}", pdf), pages, scenario,
                          number, side, sections, inventory))
    return packs, kit.warnings


@dataclass(frozen=True)
class Staged:
    """The event's staging folder, and the folder it becomes (named in messages)."""

    staging: Path
    root: Path

    @contextmanager
    def writing(self, name: str) -> Iterator[Path]:
        """The staged path of ``name``; a failure to write it is an ``OutputError``.

        A full disk (ENOSPC), a quota (EDQUOT) or any other ``OSError`` while the block
        runs is reported as ``build`` reports it, naming the file as the user will see
        it; the transaction then removes everything staged, so nothing is left behind.
        """
        try:
            yield self.staging / name
        except OSError as exc:
            raise write_error(self.root / name, exc) from exc

    def put(self, name: str, data: bytes) -> str:
        """Write one file of the event into the staging folder; its SHA-256."""
        with self.writing(name) as path:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)  # a re-run of a failed worker's build writes the same bytes
        return hashlib.sha256(data).hexdigest()


def _extra(library: Library, templates: Path | None, paper: Paper, scenario: str,
           command: Extra, out: Staged) -> tuple[list[Pack], list[str]]:
    """A scenario's extra output (its tables, markers, aids) once for the whole event."""
    kit = compose(Request(command, scenario=scenario), library=library, paper=paper,
                  options=KitOptions(templates=templates), note_pages=False)
    packs = []
    for spec in kit.packets:
        sections = _sections(spec, kit.components, offset=0)
        name = f"extras/{scenario}/{spec.filename}"
        packs.append(Pack(paper, name, out.put(f"{paper}/{name}", kit.files[spec.filename]),
                          kit.pages[spec.filename], scenario, 0, spec.title, sections,
                          _inventory(spec, kit.components)))
    return packs, kit.warnings


def _side_name(kit: Kit, spec: PacketSpec) -> str:
    """The side a packet serves, from its file name (``allied.pdf``), else its title."""
    stem = Path(spec.filename).stem
    return kit.sides.get(stem, "Referee" if stem == "referee" else spec.title)


def _sections(spec: PacketSpec, components: dict[str, Component],
              offset: int) -> list[Section]:
    """How each run of pages prints, as 1-based page numbers after ``offset`` cover pages."""
    runs: list[Section] = []
    for number, placed in enumerate(sheet_layout(spec, components), start=offset + 1):
        comp = components.get(placed.key or "")
        if comp is None:
            how = runs[-1].how if runs else "double-sided on paper"
        elif comp.cut_out and not comp.two_sided:
            how = "single-sided on card"
        elif comp.cut_out or comp.two_sided:
            how = "double-sided on card"
        else:
            how = "double-sided on paper"
        if runs and runs[-1].how == how and runs[-1].last == number - 1:
            runs[-1].last = number
        else:
            runs.append(Section(number, number, how))
    return runs


def _inventory(spec: PacketSpec, components: dict[str, Component]) -> list[tuple[str, int,
                                                                              str, int]]:
    """Every piece on the packet's cut-out sheets: (sheet title, sheet, piece, copies)."""
    rows: list[tuple[str, int, str, int]] = []
    for key in spec.components:
        comp = components[key]
        for sheet, counts in enumerate(comp.inventory, start=1):
            rows.extend((comp.title, sheet, piece, n) for piece, n in sorted(counts.items()))
    return rows


def _join(pdfs: list[bytes]) -> bytes:
    """PDFs one after another, outlines kept, into one file."""
    writer = PdfWriter()
    for pdf in pdfs:
        writer.append(PdfReader(io.BytesIO(pdf)))
    writer.add_metadata({"/Creator": "quarterdeck", "/Producer": "quarterdeck (ReportLab, pypdf)"})
    writer.compress_identical_objects()
    ident = hashlib.sha256(b"".join(pdfs)).digest()[:16]
    from pypdf.generic import ArrayObject, ByteStringObject

    writer._ID = ArrayObject([ByteStringObject(ident), ByteStringObject(ident)])
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


# ---------------------------------------------------------------- covers


def _logo(path: Path | None) -> branding.Logo | None:
    return branding.load_logo(path) if path is not None else None


def _masthead(doc: CanvasDoc, event: Event, logo: branding.Logo | None,
              brand: branding.Brand | None) -> None:
    """The cover's head: event, club and date, the logo at the right, in the club's colours.

    Plain black on white unless the event's ``branding.yaml`` gives cover colours.
    """
    from reportlab.lib.colors import HexColor

    c, box = doc.canvas, doc.box
    if logo is None and brand is not None:
        logo = brand.logo  # the club's logo when the event names none of its own
    height = 34 * MM
    top = doc.y
    if brand is not None and brand.background.lower() != "#ffffff":
        c.setFillColor(HexColor(brand.background))
        c.rect(box.x - 2 * MM, top - height, box.width + 4 * MM, height + 2 * MM, stroke=0,
               fill=1)
    ink = HexColor(brand.text) if brand is not None else HexColor("#000000")
    room = box.width - (36 * MM if logo is not None else 0)
    c.setFillColor(ink)
    name = fonts.clip_text(event.name, fonts.BOLD, 20, room - 4 * MM)
    c.setFont(fonts.BOLD, 20)
    c.drawString(box.x + 2 * MM, top - 11 * MM, name)
    byline = " · ".join(p for p in (event.club, event.date.strftime("%-d %B %Y")) if p)
    c.setFont(fonts.REGULAR, 10)
    c.drawString(box.x + 2 * MM, top - 18 * MM,
                 fonts.clip_text(byline, fonts.REGULAR, 10, room - 4 * MM))
    c.setFillColor(HexColor("#000000"))
    if logo is not None:
        branding.draw_image(c, logo, box.x + box.width - LOGO_BOX - 2 * MM,
                            top - LOGO_BOX - 2 * MM, LOGO_BOX, LOGO_BOX)
    doc.y = top - height - 4 * MM


def _cover(event: Event, logo: Any, brand: branding.Brand | None, paper: Paper, kit: Kit,
           spec: PacketSpec, table: int, side: str, seed: int, sections: list[Section],
           inventory: list[tuple[str, int, str, int]]) -> bytes:
    """The cover sheet: who and what, contents and how to print; then the pieces.

    Page one names the event, table, scenario and side, lists the packet's contents with
    page numbers and says how each run of pages prints; page two lists the pieces its
    cut-out sheets hold, to check a cut kit against.
    """
    foot = f"{event.name} · {event.date.isoformat()}"
    doc = CanvasDoc(paper, f"{event.name}: table {table}, {side}", foot)
    _masthead(doc, event, logo, brand)
    doc.paragraph(f"Table {table}: {text(_scenario_title(kit, spec))}", "h1")
    doc.paragraph(f"<b>{text(side)}</b> packet · {text(kit.title)} · dice seed {seed}",
                  "body")
    doc.space(3)
    doc.paragraph("Contents", "h2")
    # Grid cells are drawn as plain text, never markup, so names go in as written.
    rows = [[title, str(page)] for title, page in _contents(kit, spec, 2)]
    doc.grid(Grid([doc.box.width - 30 * MM, 30 * MM], [["Section", "Page"]], rows,
                  aligned(1, 2), size=9))
    doc.space(3)
    doc.paragraph("How to print", "h2")
    doc.paragraph("Print at 100 % (actual size; switch off 'fit to page'): rulers, gauges "
                  "and counters are measured. Double-sided means flipped on the long edge.",
                  "body")
    how = [[f"{s.first}–{s.last}" if s.last > s.first else str(s.first), s.how]
           for s in sections]
    doc.grid(Grid([40 * MM, doc.box.width - 40 * MM], [["Pages", "Print"]], how,
                  aligned(1, 2), size=9))
    doc.finish_page()
    if inventory:
        doc.paragraph("Pieces in this packet", "h2")
        doc.paragraph("Check a cut kit against this list: each cut-out sheet and what it "
                      "holds.", "body")
        rows = [[title, str(sheet), piece, str(n)]
                for title, sheet, piece, n in inventory]
        doc.grid(Grid([60 * MM, 16 * MM, doc.box.width - 96 * MM, 20 * MM],
                      [["Sheets", "Sheet", "Piece", "Copies"]], rows, aligned(1, 4), size=8))
        pdf, pages = doc.finish()
    else:
        doc.paragraph(BLANK, "body")
        pdf, pages = doc.finish()
    if pages % 2:  # the packet itself starts on a right-hand page
        width, height = page_size(paper)
        pdf = _join([pdf, blank_page(width, height)])
    return pdf


def _scenario_title(kit: Kit, spec: PacketSpec) -> str:
    title = spec.title
    return title.split(":")[0] if ":" in title else title


def _contents(kit: Kit, spec: PacketSpec, offset: int) -> list[tuple[str, int]]:
    """Each component's title and first page in the packet (after ``offset`` cover pages)."""
    seen: dict[str, int] = {}
    for number, placed in enumerate(sheet_layout(spec, kit.components), start=offset + 1):
        if placed.key is not None and placed.key in kit.components and placed.key not in seen:
            seen[placed.key] = number
    return [(kit.components[key].title, page) for key, page in seen.items()]


# ---------------------------------------------------------------- writing


def _finish(event: Event, out: Staged, packs: list[Pack],
            templates: Path | None) -> dict[str, tuple[int, str]]:
    """The combined packs, bundles, inventory and manifest, from the packs already written.

    Returns:
        Every file of the event (but the manifest): its pages and SHA-256.

    """
    files: dict[str, tuple[int, str]] = {f"{p.paper}/{p.path}": (p.pages, p.sha256)
                                         for p in packs}
    by_paper: dict[Paper, list[Pack]] = {}
    for pack in packs:
        by_paper.setdefault(pack.paper, []).append(pack)
    for paper, mine in by_paper.items():
        blank = blank_page(*page_size(paper))
        tables = [p for p in mine if p.table]
        if event.combined:
            for number in sorted({p.table for p in tables}):
                parts = [p for p in tables if p.table == number]
                name = f"{paper}/{parts[0].path.split('/')[0]}.pdf"
                with out.writing(name) as path, StreamedPdf(path) as combined:
                    for part in parts:
                        combined.append(out.staging / paper / part.path, part.side,
                                        pad=blank if part.pages % 2 else None)
                files[name] = (combined.pages, combined.sha256)
        name = f"{paper}/print-shop.pdf"
        with out.writing(name) as path, StreamedPdf(path) as bundle:
            with branding.branded(templates):
                summary = _summary(event, paper, mine)
            bundle.append(summary, "Summary")
            for part in mine:
                where = f"Table {part.table}" if part.table else "Extra"
                bundle.append(out.staging / paper / part.path,
                              f"{where}: {part.scenario}, {part.side}",
                              pad=blank if part.pages % 2 else None)
        files[name] = (bundle.pages, bundle.sha256)
    inventory = _inventory_csv(packs)
    files["inventory.csv"] = (0, out.put("inventory.csv", inventory))
    manifest = {"generator": f"quarterdeck {__version__}", "event": event.name,
                "date": event.date.isoformat(), "paper": list(event.paper),
                "tables": [{"paper": p.paper, "table": p.table, "scenario": p.scenario,
                            "side": p.side, "file": f"{p.paper}/{p.path}", "pages": p.pages}
                           for p in packs if p.table],
                "files": [{"name": n, "pages": files[n][0], "sha256": files[n][1]}
                          for n in sorted(files)]}
    with out.writing(MANIFEST) as path:
        path.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    return files


def _sheets(pack: Pack) -> Counter[str]:
    """Sheets of paper and card one copy of a packet takes."""
    count: Counter[str] = Counter()
    for s in pack.sections:
        n = s.last - s.first + 1
        stock = "card" if "card" in s.how else "paper"
        count[stock] += n if s.how.startswith("single") else (n + 1) // 2
    return count


def _summary(event: Event, paper: Paper, packs: list[Pack]) -> bytes:
    """The print shop's first pages: every packet in print order, pages and stock."""
    doc = CanvasDoc(paper, f"{event.name}: print-shop summary ({paper.upper()})",
                    f"{event.name} · print-shop bundle")
    doc.paragraph(f"{text(event.name)}: print-shop bundle, {paper.upper()}", "h1")
    doc.paragraph("Everything below follows these pages, in this order. Each packet starts "
                  "on a new sheet. Print at 100 %; the sheet counts assume double-sided "
                  "printing flipped on the long edge, card for the cut-outs.", "body")
    rows = []
    totals: Counter[str] = Counter()
    for pack in packs:
        sheets = _sheets(pack)
        totals.update(sheets)
        totals["pages"] += pack.pages + pack.pages % 2
        where = f"table {pack.table}" if pack.table else "extra"
        rows.append([where, pack.scenario, pack.side, pack.path, str(pack.pages),
                     str(sheets["paper"]), str(sheets["card"])])
    rows.append(["total", "", "", "", str(totals["pages"]), str(totals["paper"]),
                 str(totals["card"])])
    w = doc.box.width
    doc.grid(Grid([18 * MM, 30 * MM, 28 * MM, w - 128 * MM, 16 * MM, 18 * MM, 18 * MM],
                  [["Where", "Scenario", "Packet", "File", "Pages", "Paper", "Card"]], rows,
                  aligned(4, 7), size=7.5))
    pdf, _ = doc.finish()
    reader = PdfReader(io.BytesIO(pdf))
    if len(reader.pages) % 2:
        pdf = _join([pdf, blank_page(*page_size(paper))])
    return pdf


def _inventory_csv(packs: list[Pack]) -> bytes:
    """Every piece of every packet, sheet by sheet, as a spreadsheet can read it.

    Every cell goes through ``_csv_safe``: sides, sheet titles and pieces are the data's
    text (a user's scenario may name a side ``=HYPERLINK(...)``), and no column is trusted
    to stay numbers or ids. Rows end in CRLF (RFC 4180), so a line break of either kind
    inside a cell is quoted: a bare CR in a name cannot start a row of its own.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(["paper", "table", "scenario", "packet", "sheets", "sheet", "piece",
                     "copies"])
    for pack in packs:
        for title, sheet, piece, n in pack.inventory:
            writer.writerow([_csv_safe(str(cell)) for cell in (
                pack.paper, pack.table or "", pack.scenario, pack.side, title, sheet, piece,
                n)])
    return buffer.getvalue().encode("utf-8")


def _csv_safe(value: str) -> str:
    """A cell a spreadsheet will not run as a formula.

    One that starts like a formula (after any spaces, which some spreadsheets skip) gets
    a leading ``'``, as OWASP advises; the rest are written as they are.
    """
    from generator.data.sheettable import FORMULA_START

    return "'" + value if value.lstrip(" \u00a0\u3000")[:1] in FORMULA_START else value


__all__ = ["Event", "EventResult", "build_event", "load_event", "slug", "table_seed"]
