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
import hashlib
import io
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from pypdf import PdfReader

from generator import __version__
from generator.core.output import transaction
from generator.core.ownedfolders import MANIFEST, write_error
from generator.core.parallel import fork_map
from generator.data.library import Library
from generator.kit.eventfile import Build, Event, Extra, load_event, plan, slug, table_seed
from generator.kit.eventprint import (
    Pack,
    cover_pages,
    cover_sheet,
    cut_sheets,
    event_logo,
    inventory_csv,
    join_pdfs,
    piece_rows,
    side_name,
    summary_pages,
)
from generator.kit.packets import print_sections, sheet_layout
from generator.kit.pipeline import BuildResult, compose, validated_library
from generator.kit.printnote import blank_page
from generator.kit.seam import KitOptions, Request
from generator.pages import branding, pdfx
from generator.pages.layout import Paper, page_size
from generator.pages.pdfstream import StreamedPdf

EventResult = BuildResult
"""What an event build wrote: the folder, the files with their pages, the manifest."""


def build_event(path: Path, *, data: list[Path] | None = None, out: Path = Path("output"),
                progress: Callable[[int, int], None] = lambda done, total: None,
                announce: Callable[[str], None] = lambda built: None,
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
        announce: Called with the build just finished, in words ("a4 · table 2 ·
            savo-island", "a4 · tables of savo-island"), just before ``progress``.

    Raises:
        DataError: The event file or the data has problems (nothing is written).

    """
    library = validated_library(list(data or []))
    event, logo_path, templates = load_event(path, library)
    logo = event_logo(logo_path)
    from generator.pages.templating import check_user_dir

    if templates is not None:
        check_user_dir(templates)
    brand = branding.load(templates) if templates is not None else None
    root = out / slug(event.name)
    made = _missing_folders(root.parent)
    try:
        with transaction() as txn:
            staged = Staged(txn.stage(root), root)
            builds = list(plan(event))
            tasks = _tasks(library, event, builds, logo, brand, templates, staged)
            names = [_build_name(build) for build in builds]
            done = [0]

            def finished(index: int, result: tuple[list[Pack], list[str]]) -> None:
                done[0] += 1
                announce(names[index])
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


def _build_name(build: Build) -> str:
    """One build of the event in words, for its progress display."""
    if build.extra is not None:
        return f"{build.paper} · {build.extra} of {build.scenario.id}"
    return f"{build.paper} · table {build.number} · {build.scenario.id}"


def _tasks(library: Library, event: Event, builds: list[Build], logo: Any,
           brand: branding.Brand | None, templates: Path | None, out: Staged,
           ) -> list[Callable[[], tuple[list[Pack], list[str]]]]:
    """One task per build of ``plan(event)``: a table on a paper, or an extra."""
    tasks: list[Callable[[], tuple[list[Pack], list[str]]]] = []
    for build in builds:
        entry = build.scenario
        if build.extra is not None:
            tasks.append(partial(_extra, library, templates, build.paper, entry.id,
                                 build.extra, out, event.print_shop))
            continue
        seed = (entry.seeds[build.index] if entry.seeds is not None
                else table_seed(event.seed, entry.id, build.number))
        tasks.append(partial(_table, library, event, logo, brand, templates, build.paper,
                             entry.id, build.number, seed, out))
    return tasks


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


DUPLEX_CHECK = "duplex-check"
"""The shared component of the back-offset check sheet."""


def _table(library: Library, event: Event, logo: Any, brand: branding.Brand | None,
           templates: Path | None, paper: Paper, scenario: str, number: int,
           seed: int, out: Staged) -> tuple[list[Pack], list[str]]:
    """One table's packets, each behind its cover sheet, written into the staging folder."""
    kit = compose(Request("kit", scenario=scenario), library=library, paper=paper,
                  options=KitOptions(seed=seed, templates=templates), note_pages=False,
                  separate_runs=True)
    folder = f"table-{number:02d}-{scenario}"
    packs = []
    for spec in kit.packets:
        if set(spec.components) <= {DUPLEX_CHECK}:
            # The back-offset check is per printer, not per table: an event prints it
            # once, with the markers extra, not behind every table's cover.
            continue
        side = side_name(kit, spec)
        with branding.branded(templates):
            cover, sections, sheets = cover_pages(partial(
                cover_sheet, event, logo, brand, paper, kit, spec, number, side, seed))
        inventory = piece_rows(sheets)
        pdf = join_pdfs([cover, kit.files[spec.filename]])
        if event.print_shop:  # the cover and its packet, recoloured as one file
            pdf = pdfx.convert(pdf, f"{event.name}: table {number}, {side}")
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
           command: Extra, out: Staged, print_shop: bool) -> tuple[list[Pack], list[str]]:
    """A scenario's extra output (its tables, markers, aids) once for the whole event."""
    kit = compose(Request(command, scenario=scenario), library=library, paper=paper,
                  options=KitOptions(templates=templates, print_shop=print_shop),
                  note_pages=False, separate_runs=True)
    packs = []
    for spec in kit.packets:
        layout = sheet_layout(spec, kit.components)
        sections = print_sections(layout, kit.components, 0)
        name = f"extras/{scenario}/{spec.filename}"
        packs.append(Pack(paper, name, out.put(f"{paper}/{name}", kit.files[spec.filename]),
                          kit.pages[spec.filename], scenario, 0, spec.title, sections,
                          piece_rows(cut_sheets(layout, kit.components, 0))))
    return packs, kit.warnings


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
        shop = f"{event.name}: print-shop bundle ({paper.upper()})" if event.print_shop \
            else None
        if shop is not None:
            blank = pdfx.convert(blank)
        tables = [p for p in mine if p.table]
        if event.combined:
            for number in sorted({p.table for p in tables}):
                parts = [p for p in tables if p.table == number]
                name = f"{paper}/{parts[0].path.split('/')[0]}.pdf"
                title = (f"{event.name}: table {number} ({paper.upper()})"
                         if shop is not None else None)
                with out.writing(name) as path, StreamedPdf(path, title) as combined:
                    for part in parts:
                        combined.append(out.staging / paper / part.path, part.side,
                                        pad=blank if part.pages % 2 else None)
                files[name] = (combined.pages, combined.sha256)
        name = f"{paper}/print-shop.pdf"
        with out.writing(name) as path, StreamedPdf(path, shop) as bundle:
            with branding.branded(templates):
                summary = summary_pages(event, paper, mine)
            if shop is not None:
                summary = pdfx.convert(summary)
            bundle.append(summary, "Summary")
            for part in mine:
                where = f"Table {part.table}" if part.table else "Extra"
                bundle.append(out.staging / paper / part.path,
                              f"{where}: {part.scenario}, {part.side}",
                              pad=blank if part.pages % 2 else None)
        files[name] = (bundle.pages, bundle.sha256)
    inventory = inventory_csv(packs)
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


__all__ = ["Event", "EventResult", "build_event", "load_event", "slug", "table_seed"]
