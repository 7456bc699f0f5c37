"""The build pipeline, readable in one function.

Load, validate, derive, render, assemble, write: nothing is written until everything has
been validated and rendered. Which components go into which packet is data, the
ruleset's recipe (``kit.yaml``); components are functions registered by name.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import __version__
from generator.core.output import transaction, write_kit
from generator.core.parallel import fork_map, workers
from generator.data.library import Library
from generator.data.library import raters as raters  # re-exported
from generator.data.library import validated_library as validated_library  # re-exported
from generator.kit.assemble import assemble_drawn
from generator.kit.inventory import PIECES_JSON, inventory
from generator.kit.online import ONLINE_FILE, Online, load_online
from generator.kit.packets import EMPTY, PacketSpec, packet_pages
from generator.kit.recipe import Job, Plan, plan
from generator.kit.registry import default_scenario
from generator.kit.registry import owner as owner  # re-exported
from generator.kit.seam import (
    Command,
    Context,
    KitOptions,
    Rendered,
    Request,
    Ruleset,
)
from generator.pages import kitdoc
from generator.pages.autofit import grouped
from generator.pages.component import Component
from generator.pages.layout import Paper
from generator.pieces.pieces import Piece
from generator.rules.dice import build_seed, seed_record

if TYPE_CHECKING:
    from generator.aids.setupmap import MapInput
    from generator.pages.kitdoc import KitCanvas


INVENTORIED = ("kit", "markers")
"""The requests whose output folder gets the kit's inventory, ``pieces.json``."""

DICE = "dice"
"""The recipe name of a ruleset's pre-rolled dice sheet (``dice`` or ``dice:SIDE``)."""


@dataclass
class BuildResult:
    """What a build wrote and what the user should be told."""

    folder: Path
    files: dict[str, int]
    manifest: Path
    warnings: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    exports: list[str] = field(default_factory=list)
    """Other things written (PNG folders, TTS sheets), one line each."""
    pieces: list[Piece] = field(default_factory=list)
    """Every distinct piece on the kit's sheets (for PNG and Tabletop Simulator export)."""
    inventory: bytes = b""
    """The kit's ``pieces.json``, when its command writes one."""


@dataclass
class Kit:
    """A request carried out up to the bytes of its files, nothing written yet."""

    folder: str
    """The folder the recipe names, relative to the output root."""
    files: dict[str, bytes]
    pages: dict[str, int]
    packets: list[PacketSpec]
    components: dict[str, Component]
    warnings: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    title: str = ""
    """The ruleset's title."""
    sides: dict[str, str] = field(default_factory=dict)
    """Side id to side name, as the scenario gives them."""
    record: dict[str, Any] = field(default_factory=dict)
    """What the manifest should also say (the dice seeds in force)."""
    sources: dict[str, list[Piece]] = field(default_factory=dict)
    """Each component's pieces by component key, in plan order (for the inventory).
    Without ``export`` their artwork is a blank stand-in: only their descriptions are kept."""
    values: dict[str, str] = field(default_factory=dict)
    """The recipe's names (scenario, scenario_name, scale...)."""
    ruleset: str = ""
    """The ruleset's registry name."""
    online: Online | None = None
    """The ruleset's ``online.yaml`` (dice, charts, board), None if it has none."""
    inventory: bytes = b""
    """The kit's ``pieces.json`` (``generator.kit.inventory``), written beside its packets
    by the commands that list their pieces (``INVENTORIED``); empty for the others."""
    setup: MapInput | None = None
    """The scenario's set-up as its ruleset reads it (``Context.setup``): the inventory
    places each ship where the set-up map draws her."""


def run(request: Request, *, data: list[Path] | None = None, out: Path = Path("output"),
        paper: Paper = "a4", options: KitOptions | None = None, export: bool = False,
        progress: Callable[[str, int], None] = lambda step, total: None) -> BuildResult:
    """Carry out one request, from the data files to the PDFs on disk.

    Args:
        request: The command and its subject (scenario, class, scale...).
        data: The user's data folders (``--data``), extending the bundled data.
        out: Output root; the recipe names the folder inside it.
        paper: ``a4`` or ``letter``.
        options: Tables file, seed, sheet options, sprue, templates.
        export: Keep every piece in this process (for PNG and TTS export).
        progress: Called with each rendered component and the recipe's length.

    Returns:
        The files written, with warnings, notices and (with ``export``) the pieces.

    """
    kit = compose(request, data=data, paper=paper, options=options, export=export,
                  progress=progress)
    # 6. write them, whole or not at all
    result = _write(kit, out, paper)
    result.warnings = kit.warnings
    result.notices = kit.notices
    result.pieces = kit.pieces
    result.inventory = kit.inventory
    return result


def compose(request: Request, *, data: list[Path] | None = None, paper: Paper = "a4",
            options: KitOptions | None = None, export: bool = False,
            progress: Callable[[str, int], None] = lambda step, total: None,
            library: Library | None = None, note_pages: bool = True,
            only: Collection[str] | None = None, separate_runs: bool = False) -> Kit:
    """Steps 1-5 of ``run``: the kit's files as bytes, for a caller that writes them.

    ``library`` is an already validated library (an event checks it once for all its
    builds); ``note_pages=False`` leaves out each packet's print note (an event's cover
    sheet says the same); ``only`` names the packet files to make (with just the
    components they hold), e.g. to measure one packet rendered on its own. Every packet
    is laid out to print run by run (``PacketSpec.runs``): at home its double-sided runs
    also print as one job (``PacketSpec.one_job``, as its print note says); with
    ``separate_runs`` each run is printed on its own, as an event's cover says.
    """
    options = options or KitOptions()
    print_shop = options.print_shop
    if options.templates is None:  # nothing to set up: Jinja2 waits for the components
        using: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    else:
        from generator.pages.templating import user_templates

        using = user_templates(options.templates)
    with using:
        # 1. load and validate every data file (every problem at once)
        library = library or validated_library(list(data or []))
        # 2. the ruleset that owns the request
        ruleset = owner(library, request)
        # 3. derive: ships, tables, calculators (the ruleset's one required method)
        ctx, work = prepared(ruleset, library, request, paper, options)
        options = ctx.options
        if only is not None:
            kept = [p for p in work.packets if p.file in only]
            needed = {key for p in kept for key in p.keys}
            work = dataclasses.replace(work, packets=kept,
                                       jobs=[j for j in work.jobs if j.key in needed])
        # 4-5. draw every component once on one canvas and write each packet from its
        # pages; with free CPUs and several packets, forked workers each do this for
        # the packets dealt to them.
        seen: set[str] = set()

        def step(key: str) -> None:
            if key not in seen:
                seen.add(key)
                progress(key, len(work.jobs))

        lanes = 1 if export else workers()
        parts = _deal(work, lanes)
        # One part on a machine with free CPUs: its components are drawn side by side.
        aside = lanes > 1 and len(parts) == 1
        layout = _Layout(note_pages, separate_runs)
        tasks = [partial(_draw, ruleset, ctx, part, options, layout, step, aside,
                         export) for part in parts]
        drawn: dict[str, Rendered] = {}
        written: dict[str, bytes] = {}
        for made, files_of_part in (fork_map(tasks) if len(tasks) > 1 else [tasks[0]()]):
            for key in made:
                drawn.setdefault(key, made[key])
                step(key)  # a forked worker's steps are reported when it is done
            written.update(files_of_part)
    rendered = {job.key: drawn[job.key] for job in work.jobs}
    components = {key: r.component for key, r in rendered.items()}
    packets = _specs(work, components, options, layout)
    files = {spec.filename: written[spec.filename] for spec in packets}
    if print_shop:  # PDF/X-4 in CMYK: each finished file rewritten (generator.pages.pdfx)
        from generator.pages.pdfx import convert

        files = {name: convert(data) for name, data in files.items()}
    warnings = [*ctx.warnings, *(w for r in rendered.values() for w in r.warnings),
                *library.font_warnings]
    composed = Kit(work.folder, files, {spec.filename: packet_pages(spec, components)
                                    for spec in packets}, packets, components,
               grouped(warnings), library.notices,
               _distinct_pieces(rendered.values()) if export else [], ruleset.title,
               dict(ctx.sides), dict(ctx.record),
               {key: list(one.pieces) for key, one in rendered.items()},
               {k: str(v) for k, v in ctx.values.items()}, ruleset.name,
               load_online(ruleset.folder, ruleset.name)
               if (ruleset.folder / ONLINE_FILE).is_file() else None)
    composed.setup = ctx.setup
    if request.command in INVENTORIED and only is None:
        # Every build's inventory, for the exports and for whoever builds a module by hand.
        composed.inventory = inventory(composed, composed.online).json_bytes()
    return composed


def prepared(ruleset: Ruleset[Any], library: Library, request: Request, paper: Paper,
             options: KitOptions) -> tuple[Context[Any], Plan]:
    """Step 3 of a build: the ruleset's context, with the seeds in force, and its plan.

    The build seed is set here, before the ruleset prepares, so ``--seed`` means the same
    in every ruleset (``generator.rules.dice.build_seed``), and the manifest's record of
    the seeds is written here alike for every kit: the build seed and the seed of each of
    the recipe's dice sheets. So are the recipe's flags every ruleset means alike.
    """
    recipe = ruleset.recipe(request.command)
    seed = build_seed(options.seed, request.scenario or (
        f"class-{request.class_id}" if request.class_id else ruleset.name))
    ctx = ruleset.prepare(library, request, paper, dataclasses.replace(options, seed=seed))
    ctx.values.setdefault("ruleset", ruleset.name)
    if options.sheets.duplex != "off":  # double-sided sheets: the back-offset check
        ctx.flags.add("duplex")
    work = plan(recipe, ctx.sides, ctx.flags, ctx.values)
    ctx.record = {**seed_record(seed, [j.arg for j in work.jobs if j.name == DICE],
                                bool(ctx.sides)), **ctx.record}
    return ctx, work


@dataclass(frozen=True)
class _Layout:
    """How a build lays out its packets: with print notes; its runs printed apart or not."""

    note_pages: bool
    separate_runs: bool


def _specs(work: Plan, components: dict[str, Component], options: KitOptions,
           layout: _Layout) -> list[PacketSpec]:
    """The packets of a plan.

    A packet of several components opens with its print note (unless an event's cover
    says the same). Its pages print run by run; unless each run is printed on its own
    (an event's print shop), the double-sided runs also print as one job at home. With
    --duplex off it prints single-sided and needs no blank backs.
    """
    return [PacketSpec(p.file, p.title or components[p.keys[0]].title, p.keys,
                       note_page=len(p.keys) > 1 and layout.note_pages,
                       note=p.note or "", duplex=options.sheets.duplex, runs=True,
                       one_job=not layout.separate_runs)
            for p in work.packets]


def _draw(ruleset: Ruleset[Any], ctx: Context[Any], work: Plan, options: KitOptions,
          layout: _Layout, progress: Callable[[str], None], aside: bool = False,
          pieces: bool = True) -> tuple[dict[str, Rendered], dict[str, bytes]]:
    """Render a plan's components on one canvas and write its packets from the pages.

    With ``aside``, forked workers draw the components and this process adopts their
    pages (``_render_aside``); should that not work out, it draws them all itself.
    Without ``pieces`` the components' cut-out pieces are dropped (only an export needs
    them, and a piece's artwork may be a closure, which cannot leave a forked worker).
    """
    for side_by_side in ((True, False) if aside else (False,)):
        with kitdoc.drawing() as kit:
            rendered = (_render_aside(ruleset, ctx, work, kit, progress) if side_by_side
                        else render(ruleset, ctx, work, kit=kit, progress=progress))
            if rendered is None:
                continue
            components = {key: r.component for key, r in rendered.items()}
            files = assemble_drawn(kit, _specs(work, components, options, layout),
                                   components)
            if not pieces:
                rendered = {key: dataclasses.replace(one, pieces=described(one.pieces))
                            for key, one in rendered.items()}
            return rendered, files
    raise AssertionError("unreachable: the last attempt draws in this process")


def _render_aside(ruleset: Ruleset[Any], ctx: Context[Any], work: Plan, kit: KitCanvas,
                  progress: Callable[[str], None]) -> dict[str, Rendered] | None:
    """Draw a plan's components in forked workers; adopt their pages onto ``kit``.

    Each worker draws on its own copy of the build canvas (forked after every character
    got its code, so the copies encode text alike) and hands its pages back. Workers
    take tasks from one queue: the recipe's groups (components sharing derived data,
    such as the calculator's caches) first, as the largest, then every other component
    alone. A component draws the same page wherever it is drawn, so the packets are
    byte for byte those of one process. None when a worker's pages cannot be adopted
    (a font outside the kit's faces), or when there is only one task to share out; the
    caller then draws everything itself.
    """
    rest, *grouped = _groups(work)
    tasks_jobs = [*grouped, *([job] for job in rest)]
    if len(tasks_jobs) < 2:
        return None

    here = os.getpid()
    renamed: dict[int, dict[str, str]] = {}

    def arrived(index: int, value: tuple[dict[str, Rendered], kitdoc.Handover | None]
                ) -> None:
        # Pages are adopted as they arrive: this process waits for its workers anyway.
        made, handover = value
        if handover is not None and handover.pid != here:
            renamed[index] = kit.adopt(handover, tag=f"W{index}.")
        for key in made:
            progress(key)

    done = fork_map([partial(_draw_aside, ruleset, ctx, jobs) for jobs in tasks_jobs],
                    on_result=arrived)
    if any(handover is None for _, handover in done):
        return None  # (the caller starts again on a new canvas)
    results: dict[str, Rendered] = {}
    for n, (made, _) in enumerate(done):
        names = renamed.get(n, {})
        for key, one in made.items():
            drawn = [names.get(name, name) for name in one.component.drawn]
            results[key] = dataclasses.replace(
                one, component=dataclasses.replace(one.component, drawn=drawn))
    return {job.key: results[job.key] for job in work.jobs}


def _draw_aside(ruleset: Ruleset[Any], ctx: Context[Any], jobs: list[Job]
                ) -> tuple[dict[str, Rendered], kitdoc.Handover | None]:
    """In a worker: draw ``jobs`` on this process's copy of the build canvas."""
    kit = kitdoc.active()
    assert kit is not None
    since = kit.checkpoint()
    made = _render_group(ruleset, ctx, jobs, kit)
    # Side by side is never used for an export: the pieces' descriptions only.
    return ({key: dataclasses.replace(one, pieces=described(one.pieces))
             for key, one in made.items()},
            kit.handover(since))


BUSIEST = 0.7
"""Deal a build by packet only if no worker draws more than this share of its components."""


def _deal(work: Plan, lanes: int) -> list[Plan]:
    """Deal a plan's packets to up to ``lanes`` workers, each with the jobs it needs.

    A component two workers need is drawn by both, so each packet goes where it adds
    the fewest components not already there (the largest packets first). A plan of one
    packet, or one lane, stays whole, and so does one whose busiest worker would still
    draw more than ``BUSIEST`` of the components (the default kit: its packets share
    the card, tables and aids, so two workers would draw them twice): its components
    are then drawn side by side instead (``_render_aside``).
    """
    lanes = min(lanes, len(work.packets))
    if lanes < 2:
        return [work]
    keys: list[set[str]] = [set() for _ in range(lanes)]
    dealt: list[list[Any]] = [[] for _ in range(lanes)]
    for packet in sorted(work.packets, key=lambda p: -len(p.keys)):
        lane = min(range(lanes), key=lambda i: (len(keys[i] | set(packet.keys)), i))
        keys[lane].update(packet.keys)
        dealt[lane].append(packet)
    if max(len(k) for k in keys) > BUSIEST * len(work.jobs):
        return [work]
    return [dataclasses.replace(work, packets=[p for p in work.packets if p in mine],
                                jobs=[j for j in work.jobs if j.key in needed])
            for mine, needed in zip(dealt, keys, strict=True) if mine]


def render(ruleset: Ruleset[Any], ctx: Context[Any], work: Plan, *, kit: KitCanvas,
           progress: Callable[[str], None] = lambda key: None) -> dict[str, Rendered]:
    """Render every job of a plan on ``kit``, in this process, in its recipe groups.

    Each component records which of the canvas's pages are its own and returns its own
    warnings. The results come back in plan order.
    """
    results: dict[str, Rendered] = {}
    for jobs in _groups(work):
        for key, one in _render_group(ruleset, ctx, jobs, kit).items():
            results[key] = one
            progress(key)
    return {job.key: results[job.key] for job in work.jobs}


def _groups(work: Plan) -> list[list[Job]]:
    """The plan's jobs by recipe group, the jobs of no group first (an empty list if none).

    A group's components share derived data (a calculator's caches), so they are drawn
    one after the other in one process.
    """
    grouped: list[list[Job]] = []
    placed: set[str] = set()
    for names in work.groups:
        jobs = [j for j in work.jobs if j.name in names]
        placed.update(j.key for j in jobs)
        if jobs:
            grouped.append(jobs)
    return [[j for j in work.jobs if j.key not in placed], *grouped]


def _render_group(ruleset: Ruleset[Any], ctx: Context[Any], jobs: list[Job],
                  kit: KitCanvas) -> dict[str, Rendered]:
    out: dict[str, Rendered] = {}
    for job in jobs:
        first = len(kit.page_names)
        made = ruleset.component(job.name)(ctx, job.arg)
        one = made if isinstance(made, Rendered) else Rendered(made)
        drawn = kit.drawn_since(first, one.component.pages, job.key)
        for page in empty_backs(one):
            drawn[page] = EMPTY  # a blank back that says so, not a page of bare footer
        # The recipe's key is the component's identity in packets, whatever it calls itself.
        out[job.key] = dataclasses.replace(one, component=dataclasses.replace(
            one.component, key=job.key, drawn=drawn))
    return out


def empty_backs(one: Rendered) -> list[int]:
    """The back pages of a sheet component whose sheet's pieces have no backs.

    Such a back holds nothing but the sheet's footer (the last sheets of a run of
    counters, say, whose pieces print on one side). Its place stays (the next front
    must not land on its back), but the packet prints it as a blank back.
    """
    comp = one.component
    if not (comp.two_sided and comp.cut_out and comp.inventory and one.pieces):
        return []
    backed = {piece.title for piece in one.pieces if piece.back is not None}
    return [2 * sheet + 1 for sheet, counts in enumerate(comp.inventory)
            if 2 * sheet + 1 < comp.pages and not backed & set(counts)]


def _no_art(canvas: Any, width: float, height: float, bleed: float) -> None:
    """The stand-in artwork of a described piece: draws nothing."""


def described(pieces: list[Piece]) -> list[Piece]:
    """The pieces with their artwork replaced by a stand-in that draws nothing.

    A piece's artwork may be a closure, which cannot leave a forked worker; what it is
    (id, title, size, copies, two-sided or not) can, and the kit's inventory needs no more.
    """
    return [dataclasses.replace(p, front=_no_art, back=None if p.back is None else _no_art)
            for p in pieces]


def _distinct_pieces(rendered: Any) -> list[Piece]:
    """Every piece once; a pool on both sides (smoke, fires) adds up its quantities."""
    every: dict[str, Piece] = {}
    for one in rendered:
        for piece in one.pieces:
            if piece.id in every:
                piece = dataclasses.replace(piece,
                                            quantity=every[piece.id].quantity + piece.quantity)
            every[piece.id] = piece
    return list(every.values())


# ---- the commands, each one request -------------------------------------------------

def build(scenario_id: str | None = None, *, data: list[Path] | None = None,
          out: Path = Path("output"), paper: Paper = "a4", class_id: str | None = None,
          ship: str | None = None, ruleset: str | None = None,
          options: KitOptions | None = None,
          progress: Callable[[str, int], None] = lambda step, total: None) -> BuildResult:
    """Build a scenario's kit (or a one-ship proof kit for ``class_id``) into ``out``.

    With ``class_id`` and no ``ruleset``, the proof is the first rating ruleset's;
    ``build_class`` builds one for each.
    """
    if class_id is not None:
        request = Request("class", class_id=class_id, ship=ship, ruleset=ruleset)
    else:
        request = Request("kit", scenario=scenario_id or default_scenario())
    return run(request, data=data, out=out, paper=paper, options=options, progress=progress)


def build_class(class_id: str, *, ship: str | None = None, rulesets: list[str] | None = None,
                data: list[Path] | None = None, out: Path = Path("output"),
                paper: Paper = "a4", options: KitOptions | None = None,
                ) -> list[BuildResult]:
    """One proof kit per ruleset for a class: the named ones, or every one that rates it."""
    if not rulesets:
        library = validated_library(list(data or []))
        rulesets = raters(library, class_id)
        if not rulesets:
            owner(library, Request("class", class_id=class_id))  # says what is wrong
    return [build(class_id=class_id, ship=ship, ruleset=name, data=data, out=out, paper=paper,
                  options=options) for name in rulesets]


def build_tables(scenario_id: str | None = None, *, data: list[Path] | None = None,
                 out: Path = Path("output"), paper: Paper = "a4",
                 options: KitOptions | None = None) -> BuildResult:
    """Write the rules calculator's PDFs (and a scenario's matchups) one file each."""
    return run(Request("tables", scenario=scenario_id), data=data, out=out, paper=paper,
               options=options)


def build_aids(kind: Command, scenario_id: str | None = None, *,
               classes: list[str] | None = None, scale: str | None = None,
               data: list[Path] | None = None, out: Path = Path("output"),
               paper: Paper = "a4", options: KitOptions | None = None) -> BuildResult:
    """Write precision aids: ``rulers``, a scenario's ``strings`` and tapes, or ``gauges``."""
    return run(Request(kind, scenario=scenario_id, classes=tuple(classes or ()), scale=scale),
               data=data, out=out, paper=paper, options=options)


def build_markers(scenario_id: str, *, data: list[Path] | None = None,
                  out: Path = Path("output"), paper: Paper = "a4",
                  options: KitOptions | None = None, png: Path | None = None, dpi: int = 300,
                  tts: Path | None = None, pod: Path | None = None) -> BuildResult:
    """Write a scenario's marker sheets, and optionally the pieces as exports.

    ``png``: every face as a PNG; ``tts``: Tabletop Simulator sheets; ``pod``:
    print-on-demand files (one face a page and one image a face, with bleed).
    """
    from generator.core.output import write_atomic
    from generator.pieces.export import export_pngs, export_tts
    from generator.pieces.pod import LISTING, export_pod

    export = png is not None or tts is not None or pod is not None
    # One transaction: the sheets, the PNGs and the TTS sheets are put in place together
    # once every one of them is written, so a failed export leaves the old kit whole. The
    # export folders are the user's: written into file by file, never swapped.
    with transaction() as txn:
        result = run(Request("markers", scenario=scenario_id), data=data, out=out,
                     paper=paper, options=options, export=export)
        # Each export folder gets the kit's inventory too: which image is whose, and how
        # many copies, for whoever builds a module from the images.
        if png is not None:
            images = export_pngs(result.pieces, txn.stage(png, named=True), dpi)
            write_atomic(txn.stage(png, named=True) / PIECES_JSON, result.inventory)
            result.exports.append(f"{png}/ ({len(images)} PNGs at {dpi} dpi, {PIECES_JSON})")
        if tts is not None:
            manifest = export_tts(result.pieces, txn.stage(tts, named=True), dpi)
            write_atomic(txn.stage(tts, named=True) / PIECES_JSON, result.inventory)
            result.exports.append(f"{tts}/ ({len(manifest.sheets)} Tabletop Simulator "
                                  f"sheets and {manifest.file})")
        if pod is not None:
            sets = export_pod(result.pieces, txn.stage(pod, named=True), dpi)
            result.exports.append(f"{pod}/ ({len(sets)} print-on-demand sets, one face a "
                                  f"page and one image a face with bleed, {LISTING})")
    return result


def _write(kit: Kit, out: Path, paper: Paper) -> BuildResult:
    folder = out / kit.folder
    # Whole or not at all: staged beside the folder and swapped in (generator.core.output).
    files = {**kit.files, PIECES_JSON: kit.inventory} if kit.inventory else kit.files
    manifest = write_kit(folder, files, kit.pages, {
        "generator": f"quarterdeck {__version__}", "kit": kit.folder, "paper": paper,
        **kit.record,
    })
    result = BuildResult(folder, dict(kit.pages), manifest)
    if kit.inventory:
        result.exports.append(f"{folder / PIECES_JSON} (the kit's inventory)")
    return result
