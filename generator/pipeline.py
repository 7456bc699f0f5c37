"""The build pipeline, readable in one function.

Load, validate, derive, render, assemble, write: nothing is written until everything has
been validated and rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pypdf import PdfReader

from generator import __version__, fonts
from generator.errors import DataError, UsageError
from generator.layout import Paper
from generator.library import Library, load_library
from generator.output import write_kit
from generator.packets import assemble, packet_pages
from generator.parallel import fork_map
from generator.rulesets import REGISTRY
from generator.rulesets.base import AidKind, Kit, KitOptions, Ruleset
from generator.suggest import did_you_mean

DEFAULT_SCENARIO = "savo-island"


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


def validated_library(data: list[Path]) -> Library:
    """Load every data file and run every ruleset's cross-checks.

    Raises:
        DataError: With every problem found, in every file.

    """
    library = load_library(data)
    for ruleset in REGISTRY.values():
        problems, warnings = ruleset.check(library)
        library.problems.extend(problems)
        library.warnings.extend(warnings)
    if library.problems:
        raise DataError(library.problems)
    return library


def build(scenario_id: str | None = None, *, data: list[Path] | None = None,
          out: Path = Path("output"), paper: Paper = "a4", class_id: str | None = None,
          ship: str | None = None, options: KitOptions | None = None,
          progress: Callable[[str, int], None] = lambda step, total: None) -> BuildResult:
    """Build a scenario's kit (or a one-ship kit for ``class_id``) into ``out``.

    Args:
        scenario_id: Scenario id; the default scenario when None.
        data: The user's data folders (``--data``), extending the bundled data.
        out: Output root; the kit goes in ``out/<scenario>/``.
        paper: ``a4`` or ``letter``.
        class_id: Build a single-ship kit for this class instead of a scenario.
        ship: With ``class_id``, which ship (default: the first).
        options: The user's tables file and dice seed.
        progress: Called with each finished step and the expected number of steps.

    Returns:
        The files written, with warnings and notices.

    """
    options = options or KitOptions()
    # 1. load and validate everything (all problems at once)
    library = validated_library(list(data or []))
    # 2. find the ruleset that owns the request
    if class_id is not None:
        owner = next((r for r in REGISTRY.values() if class_id in library.classes_of(r.name)),
                     None)
        if owner is None:
            every = [c for r in REGISTRY.values() for c in library.classes_of(r.name)]
            raise UsageError(f"no class '{class_id}'{did_you_mean(class_id, every)}")
        steps = 2

        def tick(step: str) -> None:
            progress(step, steps)

        kit: Kit = owner.class_kit_parts(library, class_id, ship, paper, tick, options)
    else:
        scenario_id = scenario_id or DEFAULT_SCENARIO
        ruleset, scenario = _scenario_owner(library, scenario_id)
        # per side: briefing, sheets, matchups, strings, tapes, markers; then the shared ten
        steps = 6 * len(scenario.sides) + 10

        def tick(step: str) -> None:
            progress(step, steps)

        # 3-4. derive and render every component, in memory
        kit = ruleset.kit_parts(library, scenario_id, paper, tick, options)
    return _assemble_and_write(kit, library, out, paper)


def build_tables(scenario_id: str | None = None, *, data: list[Path] | None = None,
                 out: Path = Path("output"), paper: Paper = "a4",
                 options: KitOptions | None = None) -> BuildResult:
    """Write the rules calculator's PDFs (and a scenario's matchups) one file each.

    Args:
        scenario_id: A scenario for matchup and victory sheets, or None for the
            generic tables only (NAVAL ACTION).
        data: The user's data folders.
        out: Output root; files go in ``out/tables/`` or ``out/<scenario>/tables/``.
        paper: ``a4`` or ``letter``.
        options: The user's tables file and dice seed.

    Returns:
        The files written.

    """
    library = validated_library(list(data or []))
    ruleset = _owner_or_default(library, scenario_id)
    kit = ruleset.tables_parts(library, scenario_id, paper, options or KitOptions())
    return _assemble_and_write(kit, library, out, paper)


def build_aids(kind: AidKind, scenario_id: str | None = None, *, classes: list[str] | None = None,
               scale: str | None = None, data: list[Path] | None = None,
               out: Path = Path("output"), paper: Paper = "a4",
               options: KitOptions | None = None) -> BuildResult:
    """Write precision aids: rulers, a scenario's range strings and tapes, or gauges.

    Args:
        kind: ``rulers``, ``strings`` or ``gauges``.
        scenario_id: Take ships, torpedo types and scale from this scenario.
        classes: Without a scenario, string up these classes (NAVAL ACTION).
        scale: Override the scale (a name or "N yards per cm|in").
        data: The user's data folders.
        out: Output root; files go in ``out/<scenario>/aids/`` or ``out/aids/<scale>/``.
        paper: ``a4`` or ``letter``.
        options: The user's tables file.

    Returns:
        The files written.

    """
    library = validated_library(list(data or []))
    ruleset = _owner_or_default(library, scenario_id)
    kit = ruleset.aids_parts(library, kind, scenario_id, list(classes or []), scale, paper,
                             options or KitOptions())
    return _assemble_and_write(kit, library, out, paper)


def build_markers(scenario_id: str, *, data: list[Path] | None = None,
                  out: Path = Path("output"), paper: Paper = "a4",
                  options: KitOptions | None = None, png: Path | None = None, dpi: int = 300,
                  tts: Path | None = None) -> BuildResult:
    """Write a scenario's marker sheets, and optionally every marker as PNG and TTS sheets.

    Args:
        scenario_id: The scenario whose ships set the markers.
        data: The user's data folders.
        out: Output root; sheets go in ``out/<scenario>/markers/``.
        paper: ``a4`` or ``letter``.
        options: Tables, sheet options (duplex, bleed, cut, back offset) and sprue.
        png: Folder for one PNG per marker face (named by the marker's id).
        dpi: PNG resolution.
        tts: Folder for Tabletop Simulator deck sheets.

    Returns:
        The files written (PDFs), with warnings; the PNG and TTS files are listed in
        ``markers.json`` next to the PDFs.

    """
    from generator.export import export_pngs, export_tts

    # 1-4. load, validate, derive and render everything before writing anything
    library = validated_library(list(data or []))
    ruleset = _scenario_owner(library, scenario_id)[0]
    kit = ruleset.markers_parts(library, scenario_id, paper, options or KitOptions())
    # 5-6. assemble and write the sheets, then the exports
    result = _assemble_and_write(kit, library, out, paper)
    if png is not None:
        images = export_pngs(kit.pieces, png, dpi)
        result.exports.append(f"{png}/ ({len(images)} PNGs at {dpi} dpi)")
    if tts is not None:
        manifest = export_tts(kit.pieces, tts, dpi)
        result.exports.append(f"{tts}/ ({len(manifest.sheets)} Tabletop Simulator sheets "
                              f"and {manifest.file})")
    return result


def _owner_or_default(library: Library, scenario_id: str | None) -> Ruleset:
    """The scenario's ruleset, or NAVAL ACTION (the only one so far) without a scenario."""
    if scenario_id is None:
        return REGISTRY["naval-action"]
    return _scenario_owner(library, scenario_id)[0]


def _scenario_owner(library: Library, scenario_id: str) -> tuple[Ruleset, Any]:
    """The ruleset that owns a scenario, and the scenario (UsageError if there is none)."""
    entry = library.scenarios.get(scenario_id)
    if entry is None:
        raise UsageError(f"no scenario '{scenario_id}'"
                         f"{did_you_mean(scenario_id, library.scenarios)}; "
                         "`quarterdeck list scenarios` shows them")
    return REGISTRY[entry.model.ruleset], entry.model


def _assemble_and_write(kit: Kit, library: Library, out: Path, paper: Paper) -> BuildResult:
    # 5. assemble packets (still in memory)
    # Packets share components; in one process a component is parsed once, but packets
    # assembled side by side finish sooner on two or more CPUs.
    readers: dict[str, PdfReader] = {}
    merged = fork_map([partial(assemble, spec, kit.components, readers)
                       for spec in kit.packets])
    files = {spec.filename: pdf for spec, pdf in zip(kit.packets, merged, strict=True)}
    pages = {spec.filename: packet_pages(spec, kit.components) for spec in kit.packets}
    warnings = list(kit.warnings) + _font_warnings(kit, library)
    # 6. write: temp files renamed into place, then the manifest
    folder = out / kit.folder
    manifest = write_kit(folder, files, pages, {
        "generator": f"quarterdeck {__version__}", "kit": kit.folder, "paper": paper,
    })
    return BuildResult(folder, pages, manifest, warnings, library.notices)


def _font_warnings(kit: Kit, library: Library) -> list[str]:
    """Name every ship whose name has a character no bundled font can draw."""
    warnings = []
    for ruleset in REGISTRY.values():
        for entry in library.classes_of(ruleset.name).values():
            for ship in getattr(entry.model, "ships", []):
                missing = fonts.missing_characters(ship.name)
                if missing:
                    chars = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
                    warnings.append(f"{entry.doc.display}: ship '{ship.name}' has {chars} that "
                                    "no bundled font can print; it would show as an empty box")
    return warnings
