"""One component of one class, to PNG, fast (``quarterdeck preview``).

A preview loads only the class's own file (not the whole library), asks the ruleset for
the class context it builds for a proof kit, renders the one component asked for and
rasterises its first page with pypdfium2. Nothing else is built, so a designer sees a
status sheet or a marker in a fraction of a second after saving the file.

Which component: ``status`` is the recipe's ``sheets`` item, ``marker`` and ``counter``
its ``markers`` item, ``card`` the class's entry in the ruleset's catalog.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from generator.core.errors import DataError, UsageError
from generator.core.suggest import did_you_mean

if TYPE_CHECKING:
    from generator.data.library import Library
    from generator.kit.seam import Ruleset
    from generator.pages.component import Component

PreviewKind = Literal["status", "marker", "counter", "card"]
KINDS: tuple[PreviewKind, ...] = ("status", "marker", "counter", "card")
ITEMS = {"status": "sheets", "marker": "markers", "counter": "markers"}
"""Which ``class`` recipe component each preview kind is."""
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


def choose_ruleset(library: Library, class_id: str, ruleset: str | None) -> Ruleset:
    """The ruleset to preview with: the one named, else the first that rates the class."""
    from generator.kit.pipeline import owner
    from generator.kit.seam import Request

    return owner(library, Request("class", class_id=class_id, ruleset=ruleset))


def render_component(library: Library, ruleset: Ruleset, class_id: str, kind: PreviewKind,
                     paper: str = "a4", ship: str | None = None) -> Component:
    """Render one component of the class's proof kit (nothing else)."""
    from generator.kit.pipeline import prepared
    from generator.kit.seam import KitOptions, Rendered, Request

    if kind == "card":
        return ruleset.catalog(library, paper)  # type: ignore[arg-type]
    wanted = ITEMS[kind]
    recipe = ruleset.recipe("class")
    items = [item for packet in recipe.packets for item in packet.contents
             if item.split(":")[0] == wanted]
    if not items:
        offered = [k for k, v in ITEMS.items()
                   if any(i.split(":")[0] == v for p in recipe.packets for i in p.contents)]
        raise UsageError(f"--component: {ruleset.title} proofs have no {kind}; expected one "
                         f"of {', '.join([*offered, 'card'])}")
    request = Request("class", class_id=class_id, ship=ship, ruleset=ruleset.name)
    # Prepared as a build prepares it, with the build seed set (a proof's counters draw on it).
    ctx, _ = prepared(ruleset, library, request, paper, KitOptions())  # type: ignore[arg-type]
    name, _, arg = items[0].partition(":")
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


def preview(class_id: str, *, ruleset: str | None = None, kind: PreviewKind = "status",
            dpi: int = 100, data: list[Path] | None = None, paper: str = "a4",
            ship: str | None = None) -> Preview:
    """Render one component of one class to PNG, timing the whole of it."""
    start = time.perf_counter()
    library = one_class_library(class_file(class_id, list(data or [])))
    chosen = choose_ruleset(library, class_id, ruleset)
    component = render_component(library, chosen, class_id, kind, paper, ship)
    png, size = rasterise(component.pdf, dpi)
    return Preview(png, size, dpi, time.perf_counter() - start, chosen.name, component.title)
