"""Faces rasterised: drawn with ReportLab, rendered with PDFium, written as PNGs.

Each face is drawn exactly as on the printed sheet (``draw_face`` with no bleed, so the
image is the trim box) into an uncompressed in-memory PDF and rendered onto a bitmap of
its exact pixel size. The work is split over forked processes in contiguous chunks, each
its own PDF, so the images are identical however it is split. PDFium and Pillow are
imported on first use (``imaging``): the printed kit works without them.
"""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from generator.core import fonts
from generator.core.errors import RenderError, UsageError
from generator.core.output import write_atomic
from generator.core.parallel import can_fork, fork_map
from generator.core.safetext import SafeCanvas
from generator.pieces.pieces import Art, draw_face

if TYPE_CHECKING:
    from PIL.Image import Image

WHITE = (255, 255, 255)
_T = TypeVar("_T")
_R = TypeVar("_R")


@dataclass(frozen=True)
class RasterJob:
    """One face to rasterise at an exact pixel size."""

    label: str  # for error messages: "front of ship.chokai"
    art: Art
    width: float  # points
    height: float
    width_px: int
    height_px: int


def render_jobs(jobs: Sequence[RasterJob], dpi: int,
                paths: Sequence[Path] | None = None) -> list[bytes]:
    """Rasterise every job to a PNG, in order, split over forked processes.

    Args:
        jobs: The faces.
        dpi: Stored in the PNGs.
        paths: Where to write each job's PNG; None to return the PNGs instead.

    Returns:
        The PNGs in job order, or an empty list when they were written to ``paths``.

    """
    if not jobs:
        return []
    imaging()  # fail early, and import in the parent so the children share the modules
    fonts.register()  # the art may use the kit's fonts; register once, before forking
    items: list[tuple[RasterJob, Path | None]] = list(
        zip(jobs, paths if paths is not None else [None] * len(jobs), strict=True))
    # Each chunk is its own PDF, so a chunk's output depends only on its own faces:
    # the images are identical however the work is split (see the tests).
    return spread(items, lambda item: item[0].width_px * item[0].height_px + _PAGE_COST,
                   functools.partial(_render_chunk, dpi=dpi))


# Drawing and loading one page costs roughly as much as rasterising this many pixels;
# it keeps the split fair when the faces are tiny.
_PAGE_COST = 20_000


def _split(items: Sequence[_T], weight: Callable[[_T], int]) -> list[list[_T]]:
    """Cut ``items`` into contiguous chunks of similar weight, one per usable CPU."""
    workers = min(len(items), (os.cpu_count() or 1) if can_fork() else 1)
    if workers <= 1:
        return [list(items)]
    total = sum(weight(item) for item in items)
    chunks: list[list[_T]] = [[]]
    done = 0
    for item in items:
        # Start the next chunk once this one has its share (but never make more chunks
        # than workers, and never leave one empty).
        if chunks[-1] and done >= total * len(chunks) / workers and len(chunks) < workers:
            chunks.append([])
        chunks[-1].append(item)
        done += weight(item)
    return chunks


def spread(items: Sequence[_T], weight: Callable[[_T], int],
            work: Callable[[list[_T]], list[_R]]) -> list[_R]:
    """``work`` on contiguous chunks of ``items`` in forked processes; results in order."""
    chunks = _split(items, weight)
    results = fork_map([functools.partial(work, chunk) for chunk in chunks])
    return [value for result in results for value in result]


def _render_chunk(items: Sequence[tuple[RasterJob, Path | None]], dpi: int) -> list[bytes]:
    """Draw the jobs into one PDF (a page per face) and rasterise each page to a PNG.

    Returns:
        The PNGs of the jobs without a path; the others are written to their path.

    """
    pdfium, pdfium_c = imaging()
    jobs = [job for job, _ in items]
    buffer = io.BytesIO()
    # Uncompressed: the PDF never leaves memory, and PDFium parses it faster that way.
    canvas = SafeCanvas(buffer, pagesize=(jobs[0].width, jobs[0].height), invariant=1,
                    pageCompression=0)
    for job in jobs:
        canvas.setPageSize((job.width, job.height))
        try:
            draw_face(canvas, job.art, 0, 0, job.width, job.height, bleed=0)
        except Exception as exc:
            raise RenderError(f"cannot draw the {job.label}: {exc}") from exc
        canvas.showPage()
    canvas.save()
    pngs: list[bytes] = []
    pdf = pdfium.PdfDocument(buffer.getvalue())
    try:
        for index, job in enumerate(jobs):
            page = pdf[index]
            try:
                image = _rasterise(pdfium, pdfium_c, page, job.width_px, job.height_px)
            finally:
                page.close()
            png = png_bytes(image, dpi)
            path = items[index][1]
            if path is None:
                pngs.append(png)
            else:
                write_atomic(path, png)
    finally:
        pdf.close()
    return pngs


def _rasterise(pdfium: Any, pdfium_c: Any, page: Any, width_px: int, height_px: int) -> Image:
    """Render a page onto a bitmap of exactly ``width_px`` x ``height_px``.

    ``PdfPage.render(scale=dpi/72)`` sizes its bitmap as ``ceil(page_size * scale)``,
    and the page size it reads back is a float32 of the decimal ReportLab wrote, so it
    is often one pixel too big (15.24 mm at 150 dpi is exactly 90 px but renders 91).
    Cropping or padding that pixel would shift the art or leave a white line. Instead
    the page is stretched onto a bitmap of the exact size, which is rendering at the
    exact scale for each axis (``px / (points * dpi / 72)``, within half a pixel of
    ``dpi / 72``): the trim box then fills the image edge to edge.
    """
    bitmap = pdfium.PdfBitmap.new_native(width_px, height_px, pdfium_c.FPDFBitmap_BGR)
    # A white background, not transparency: the image stands for a printed piece, and
    # TTS and VASSAL show transparent corners as holes in the card.
    bitmap.fill_rect((*WHITE, 255), 0, 0, width_px, height_px)
    pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width_px, height_px, 0,
                                   pdfium_c.FPDF_ANNOT)
    image: Image = bitmap.to_pil()  # BGR bitmaps are copied into an RGB image
    return image


def png_bytes(image: Image, dpi: float) -> bytes:
    """An image as PNG bytes, its DPI stored (the same pixels always give the same bytes)."""
    out = io.BytesIO()
    # Pillow writes no tIME chunk unless asked, so equal pixels give equal bytes.
    image.save(out, format="PNG", dpi=(dpi, dpi))
    return out.getvalue()


def imaging() -> tuple[Any, Any]:
    """PDFium and its raw bindings, imported on first use.

    Only image export needs PDFium and Pillow; importing them lazily keeps the printed
    kit working where they are not installed.
    """
    try:
        import PIL.Image  # noqa: F401 - checked here, used through pypdfium2 and below
        import pypdfium2 as pdfium  # type: ignore[import-untyped]
        import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]
    except ImportError as exc:
        raise UsageError("image export needs the pypdfium2 and pillow packages "
                         f"(pip install pypdfium2 pillow): {exc}") from exc
    return pdfium, pdfium_c
