"""One component of one class, to PNG, fast (``quarterdeck preview``).

A preview loads only the class's own file (not the whole library), asks the ruleset for
the class context it builds for a proof kit, renders the one component asked for and
rasterises its first page with pypdfium2. Nothing else is built, so a designer sees a
status sheet or a marker in a fraction of a second after saving the file.

Which component: any component of the ruleset's ``class`` recipe, by its name
(``sheets``, ``markers``, ``counters``...), or a short name the ruleset gives one of them
(``Ruleset.preview_names``: ``status``, ``marker``...), or ``card``, the class's entry in
the ruleset's catalog. ``component_names`` lists them from the seam, for any ruleset.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core.errors import DataError, UsageError
from generator.core.suggest import did_you_mean

if TYPE_CHECKING:
    from generator.data.library import Library
    from generator.kit.seam import Ruleset
    from generator.pages.component import Component

CARD = "card"
"""The preview of the class's entry in the ruleset's catalog (``Ruleset.catalog``)."""
MAX_PIXELS = 40_000_000
"""Largest PNG (a Letter page at 600 dpi is about 34 million pixels)."""


@dataclass
class Preview:
    """A rendered preview: the PNG, its size, and how long it took."""

    png: bytes
    size: tuple[int, int]
    dpi: int
    seconds: float
    ruleset: str
    title: str


def class_file(class_id: str, data: list[Path]) -> Path:
    """The file holding ``class_id`` (a user's folder first, then the bundled library)."""
    from generator.data.library import bundled_data_dir, data_files
    from generator.data.yamlsource import load_yaml

    seen: list[str] = []
    for root in [*reversed(data), bundled_data_dir()]:
        for path in data_files(root):
            if path.stem == class_id:
                doc, _ = load_yaml(path)
                if isinstance(doc.data, dict) and doc.data.get("kind") == "ship-class":
                    return path
                if doc.data is None:  # unreadable: loading it says why, at its place
                    return path
            elif "scenarios" not in path.parts:
                seen.append(path.stem)
    raise UsageError(f"no class '{class_id}'{did_you_mean(class_id, sorted(set(seen)))}")


def one_class_library(path: Path) -> Library:
    """A library of just one class file, validated and rated (no scenario checks)."""
    from generator.data.library import bundled_data_dir, load_library

    bundled = bundled_data_dir().resolve()
    library = load_library([path], bundled=False)
    if library.problems:
        raise DataError(library.problems)
    if path.resolve().is_relative_to(bundled):
        # Show bundled files by their library name, as `check` does.
        library.notices.clear()
    return library


def choose_ruleset(library: Library, class_id: str, ruleset: str | None) -> Ruleset[Any]:
    """The ruleset to preview with: the one named, else the first that rates the class."""
    from generator.kit.registry import owner
    from generator.kit.seam import Request

    return owner(library, Request("class", class_id=class_id, ruleset=ruleset))


def component_names(ruleset: Ruleset[Any]) -> dict[str, str]:
    """Every name ``preview`` takes for ``ruleset``, each with the recipe item it renders.

    ``card`` (the class's catalog entry, drawn by ``Ruleset.catalog``), then each
    component of the ``class`` recipe by its name (its first item of that name), then the
    ruleset's own short names for them (``Ruleset.preview_names``). A ruleset without a
    class recipe has only ``card``.
    """
    names = {CARD: CARD}
    try:
        recipe = ruleset.recipe("class")
    except UsageError:  # no proof kit: only its catalog entry
        return names
    for packet in recipe.packets:
        for item in packet.contents:
            names.setdefault(item.partition(":")[0], item)
    for short, component in ruleset.preview_names.items():
        if component in names:
            names.setdefault(short, names[component])
    return names


def render_component(library: Library, ruleset: Ruleset[Any], class_id: str, kind: str,
                     paper: str = "a4", ship: str | None = None) -> Component:
    """Render one component of the class's proof kit (nothing else).

    Raises:
        UsageError: ``kind`` is none of ``component_names(ruleset)`` (they are listed).

    """
    from generator.kit.pipeline import prepared
    from generator.kit.seam import KitOptions, Rendered, Request

    offered = component_names(ruleset)
    if kind not in offered:
        raise UsageError(f"--component: found '{kind}', expected one of {ruleset.title}'s "
                         f"components: {', '.join(offered)}"
                         f"{did_you_mean(kind, list(offered))}")
    if kind == CARD:
        return ruleset.catalog(library, paper)  # type: ignore[arg-type]
    request = Request("class", class_id=class_id, ship=ship, ruleset=ruleset.name)
    # Prepared as a build prepares it, with the build seed set (a proof's counters draw on it).
    ctx, _ = prepared(ruleset, library, request, paper, KitOptions())  # type: ignore[arg-type]
    name, _, arg = offered[kind].partition(":")
    side = next(iter(ctx.sides), None)
    made = ruleset.component(name)(ctx, (arg or None) if arg != "{side}" else side)
    return made.component if isinstance(made, Rendered) else made


def rasterise(pdf: bytes, dpi: int, page: int = 0) -> tuple[bytes, tuple[int, int]]:
    """One page of a PDF as PNG bytes at ``dpi`` (the resolution stored in the file)."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    document = pdfium.PdfDocument(pdf)
    try:
        one = document[page]
        width, height = one.get_size()
        pixels = (width * dpi / 72) * (height * dpi / 72)
        if pixels > MAX_PIXELS:
            raise UsageError(f"--dpi: found {dpi}, expected a resolution giving at most "
                             f"{MAX_PIXELS // 1_000_000} million pixels for this page")
        image = one.render(scale=dpi / 72).to_pil()
    finally:
        document.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi))
    return buffer.getvalue(), image.size


def preview(class_id: str, *, ruleset: str | None = None, kind: str = "status",
            dpi: int = 100, data: list[Path] | None = None, paper: str = "a4",
            ship: str | None = None) -> Preview:
    """Render one component of one class to PNG, timing the whole of it."""
    start = time.perf_counter()
    library = one_class_library(class_file(class_id, list(data or [])))
    chosen = choose_ruleset(library, class_id, ruleset)
    component = render_component(library, chosen, class_id, kind, paper, ship)
    png, size = rasterise(component.pdf, dpi)
    return Preview(png, size, dpi, time.perf_counter() - start, chosen.name, component.title)
