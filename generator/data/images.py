"""Images named by data files (a class's own marker art): kept inside the data folder.

A data file may name a PNG or SVG next to it. The path is resolved against the file's
folder and must stay inside the data folder the file was loaded from (no ``..`` or
symbolic link out of it), and the image must be small enough to print quickly.

An image is untrusted input, so it is checked from its bytes, not its name: a PNG is
decoded in full under the pixel limit (a decompression bomb or a corrupt data stream is
refused, not drawn); an SVG must be plain UTF-8 XML that refers to nothing outside itself
(no links to files or ``data:`` URLs, no DOCTYPE or entities, no XInclude, no CSS
imports), gzip-compressed images are refused, and the drawing must have a finite size.
The same checked bytes are what the marker sheet draws (``load_image``), so what passed
``check`` is what prints.

An SVG's text is set in the kit's bundled fonts, whatever ``font-family`` it names:
svglib's own font lookup would open ``<name>.ttf`` (an absolute path, one relative to
the working folder, or a URL through ReportLab) and run ``fc-match`` with the name, so
data could embed any font file on the machine in a PDF or start a process. Every
``font-family`` in the parsed tree is rewritten to a bundled family before svglib sees
it, and svglib is handed a font map (``BundledFonts``) that answers from the bundled
faces alone. The number of text elements is bounded too. The SVG's tree is checked
and its fonts rewritten in ``generator.data.svgtree``.
"""

from __future__ import annotations

import io
import math
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core.errors import DataError, Problem
from generator.core.pathargs import resolved
from generator.data.svgtree import (
    MAX_SVG_SIZE,
    BundledFonts,
    bundle_fonts,
    short_reason,
    shortened,
    svg_tree,
)

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing
    from reportlab.lib.utils import ImageReader

    from generator.data.library import Library

MAX_BYTES = 2 * 1024 * 1024
MAX_PIXELS = 4096
MAX_SVG_REACH = 1_000_000.0
"""Farthest any shape may lie from the SVG's origin, after transforms."""


def check_image(data_file: Path, root: Path | None, relative: str) -> tuple[Path | None, str]:
    """Resolve and check an image path named in a data file.

    Args:
        data_file: The YAML file naming the image.
        root: The data folder it was loaded from.
        relative: The path as written, relative to the YAML file's folder.

    Returns:
        The resolved path and "" when usable, else None and what is wrong, phrased
        as ``expected ...`` for a located message.

    """
    path, _, expected = _read_checked(data_file, root, relative)
    return path, expected


def class_image_problems(library: Library, ruleset: str) -> list[Problem]:
    """Every class of a ruleset whose ``marker_image`` is missing or refused, located."""
    from generator.data.validation import describe

    problems = []
    for entry in library.classes_of(ruleset).values():
        image = entry.model.marker_image
        if image is not None:
            found, expected = check_image(entry.doc.path, entry.root, image)
            if found is None:
                problems.append(entry.doc.problem(("marker_image",),
                                                  f"found {describe(image)}, {expected}"))
    return problems


def class_images(library: Library, ruleset: str) -> dict[str, Path]:
    """Class id to its checked marker image, for a ruleset's classes that supply one."""
    images = {}
    for class_id, entry in library.classes_of(ruleset).items():
        if entry.model.marker_image is not None:
            found, _ = check_image(entry.doc.path, entry.root, entry.model.marker_image)
            if found is not None:
                images[class_id] = found
    return images


def load_image(path: Path) -> ImageReader | Drawing:
    """A checked image ready to draw: a ReportLab ImageReader (PNG) or Drawing (SVG).

    Args:
        path: The image as ``check_image`` resolved it.

    Raises:
        DataError: The image fails the checks (it changed since ``check`` ran).

    """
    data, expected = _read_bytes(path)
    drawable: Any = None
    if data is not None:
        drawable, expected = (_svg_drawing(data) if path.suffix.lower() == ".svg"
                              else _decoded_png(data))
    if drawable is None:
        raise DataError([Problem(str(path), 0, 0, "", f"found a marker image that changed "
                                                      f"since it was checked, {expected}")])
    if path.suffix.lower() == ".svg":
        return drawable
    from reportlab.lib.utils import ImageReader

    return ImageReader(drawable)


def draw_fitted(c: Any, image: Any, x: float, y: float, width: float, height: float) -> None:
    """Draw a loaded image (``load_image``) as large as fits the box, centred in it.

    Args:
        c: The canvas.
        image: A ReportLab ImageReader (PNG) or Drawing (SVG).
        x: The box's left edge (points).
        y: The box's bottom edge (points).
        width: The box's width.
        height: The box's height.

    """
    from reportlab.graphics import renderPDF
    from reportlab.graphics.shapes import Drawing

    if isinstance(image, Drawing):
        w, h = max(float(image.width), 1e-6), max(float(image.height), 1e-6)
        scale = min(width / w, height / h)
        c.saveState()
        c.translate(x + (width - w * scale) / 2, y + (height - h * scale) / 2)
        c.scale(scale, scale)
        renderPDF.draw(image, c, 0, 0)
        c.restoreState()
    else:
        iw, ih = image.getSize()
        scale = min(width / iw, height / ih)
        c.drawImage(image, x + (width - iw * scale) / 2, y + (height - ih * scale) / 2,
                    iw * scale, ih * scale, mask="auto")


LOOP = "expected a file, not a symbolic link that loops (or a path that cannot be resolved)"
"""Why a path that ``resolved`` cannot follow is refused, as a located message says it."""


def _read_checked(data_file: Path, root: Path | None,
                  relative: str) -> tuple[Path | None, bytes | None, str]:
    """The image's path and bytes when every check passes, else Nones and ``expected ...``."""
    if "\x00" in relative:
        return None, None, "expected a file name without NUL bytes"
    base, path = resolved(root or data_file.parent), resolved(data_file.parent / relative)
    if base is None or path is None:
        return None, None, LOOP
    if not path.is_relative_to(base):
        return None, None, "expected a path inside the data folder"
    data, expected = _read_bytes(path)
    if data is None:
        return None, None, expected
    if path.suffix.lower() == ".png":
        _, expected = _decoded_png(data)
    else:
        _, expected = _svg_drawing(data)
    return (None, None, expected) if expected else (path, data, "")


def _read_bytes(path: Path) -> tuple[bytes | None, str]:
    """An image file's bytes (a bounded regular file, not gzip), or None and ``expected ...``."""
    try:
        info = path.stat()
    except (OSError, ValueError):
        info = None
    if info is None or not stat.S_ISREG(info.st_mode):
        return None, "expected an existing PNG or SVG file next to the class file"
    if info.st_size > MAX_BYTES:
        return None, f"expected an image of at most 2 MB (it has {info.st_size / 1e6:.1f} MB)"
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        return None, f"expected a readable image ({exc.strerror})"
    if len(data) > MAX_BYTES:
        return None, "expected an image of at most 2 MB (it grew while being read)"
    if data[:2] == b"\x1f\x8b":
        return None, "expected an uncompressed image (gzip-compressed files are refused)"
    return data, ""


def _decoded_png(data: bytes) -> tuple[Any, str]:
    """The PNG decoded in full (a PIL image) and "", or None and ``expected ...``.

    The size is read from the header and checked before a single pixel is decoded, so a
    small file that inflates to gigapixels is refused cheaply; decoding then happens here,
    inside the guard, so a corrupt data stream is a message rather than a crash later.
    """
    import warnings

    from PIL import Image

    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return None, "expected a readable PNG image (no PNG signature)"
    if len(data) >= 24 and data[12:16] == b"IHDR":
        # The size is in the header: refuse a decompression bomb before Pillow sees it.
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        if width > MAX_PIXELS or height > MAX_PIXELS:
            return None, f"expected at most {MAX_PIXELS} px a side (it is {width} x {height})"
    try:
        with warnings.catch_warnings():  # a header past Pillow's own limit: refused below
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=["PNG"])
        width, height = image.size
    except Image.DecompressionBombError as exc:
        return None, f"expected at most {MAX_PIXELS} px a side ({short_reason(exc)})"
    except Exception as exc:  # noqa: BLE001 - Pillow's parsers raise many kinds; all mean "unreadable"
        return None, f"expected a readable PNG image ({short_reason(exc)})"
    if width > MAX_PIXELS or height > MAX_PIXELS:
        return None, f"expected at most {MAX_PIXELS} px a side (it is {width} x {height})"
    try:
        image.load()
    except Exception as exc:  # noqa: BLE001 - as above: zlib, struct, EOF and OS errors alike
        return None, f"expected a readable PNG image ({short_reason(exc)})"
    return image, ""


def _svg_drawing(data: bytes) -> tuple[Drawing | None, str]:
    """The SVG as a ReportLab Drawing and "", or None and ``expected ...``.

    The tree drawn is the one checked (parsed once, here), with its fonts rewritten to
    the bundled ones (``bundle_fonts``) and svglib's font lookup replaced by
    ``BundledFonts``: nothing in the SVG can make svglib open a file or start a process.
    """
    root, expected = svg_tree(data)
    if root is None:
        return None, expected
    from reportlab.graphics.shapes import Drawing
    from svglib.svglib import SvgRenderer

    from generator.core import fonts

    fonts.register()
    bundle_fonts(root)
    try:
        # The source is a stream, not a path: svglib then resolves no external reference
        # (they are refused above anyway).
        renderer = SvgRenderer(io.BytesIO(data), font_map=BundledFonts())
        if not isinstance(getattr(renderer.attrConverter, "_font_map", None), BundledFonts):
            # An svglib that ignores ``font_map`` would look fonts up its own way.
            return None, "expected an SVG that can be drawn (svglib ignores the font map)"
        drawing = renderer.render(root)
        bounds = drawing.getBounds() if drawing is not None else None
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - svglib's failures are many
        return None, f"expected an SVG that can be drawn ({short_reason(exc)})"
    if not isinstance(drawing, Drawing) or bounds is None:
        return None, "expected an SVG that can be drawn"
    width, height = drawing.width, drawing.height
    if not all(isinstance(v, int | float) and math.isfinite(v) and 0 < v <= MAX_SVG_SIZE
               for v in (width, height)):
        return None, (f"expected an SVG of finite size, at most {MAX_SVG_SIZE:g} units a side "
                      f"(it is {width:g} x {height:g})")
    # Shapes far outside the picture are clipped anyway, but their coordinates still reach
    # the PDF, which cannot write a number as large as 1e308.
    reach = _reach(drawing)
    if not math.isfinite(reach) or reach > MAX_SVG_REACH:
        how_far = f"{reach:g}" if math.isfinite(reach) else "no finite distance"
        return None, (f"expected an SVG whose shapes lie within {MAX_SVG_REACH:,.0f} units of "
                      f"its origin (they reach {how_far})")
    odd = _odd_figure(drawing)
    if odd:
        return None, f"expected an SVG whose figures are all finite numbers ({odd})"
    return _drawn(drawing)


def _reach(drawing: Drawing) -> float:
    """How far from the origin any shape lies, transforms applied (inf: not a finite figure).

    Each shape is measured on its own: a group's own bounds (ReportLab's ``getBounds``)
    compare figures with ``<``, so a NaN drops out of them instead of spreading.
    """
    from reportlab.graphics.shapes import mmult, transformPoint

    farthest = 0.0
    stack: list[tuple[Any, Any]] = [(drawing, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))]
    while stack:
        node, matrix = stack.pop()
        local = getattr(node, "transform", None)
        if local is not None:
            matrix = mmult(matrix, local)
        contents = getattr(node, "contents", None)
        if contents is not None:
            stack.extend((child, matrix) for child in contents)
            continue
        bounds = node.getBounds()
        if bounds is None:
            continue
        x1, y1, x2, y2 = bounds
        for corner in ((x1, y1), (x1, y2), (x2, y1), (x2, y2)):
            for figure in transformPoint(matrix, corner):
                if not math.isfinite(figure):
                    return math.inf
                farthest = max(farthest, abs(figure))
    return farthest


def _odd_figure(drawing: Drawing) -> str:
    """A shape's figure that is infinite or NaN (``a Rect's strokeWidth is nan``), or "".

    ReportLab writes such a line width, opacity or colour into the page as ``nan`` or
    refuses it mid-page; positions are measured by ``_reach``, every other figure here.
    """
    from reportlab.lib.colors import Color

    def finite(value: Any) -> bool:
        if isinstance(value, float):
            return math.isfinite(value)
        if isinstance(value, list | tuple):
            return all(finite(v) for v in value)
        if isinstance(value, Color):
            return finite([value.red, value.green, value.blue, value.alpha])
        return True

    stack: list[Any] = [drawing]
    while stack:
        node = stack.pop()
        stack.extend(getattr(node, "contents", None) or [])
        for name, value in vars(node).items():
            if name != "contents" and not finite(value):
                return f"a {type(node).__name__}'s {name} is {shortened(repr(value))}"
    return ""


def _drawn(drawing: Drawing) -> tuple[Drawing | None, str]:
    """The drawing and "" once it has been drawn into a scratch PDF, else None and why.

    ReportLab writes every figure of a shape (a line width, a font size, a dash) into
    the page as it draws, and refuses one it cannot write (infinite, NaN): drawing here,
    inside the guard, makes that a message rather than a crash on the marker sheet.
    """
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(io.BytesIO())
    try:
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.showPage()
        canvas.save()
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - ReportLab's failures are many
        # ReportLab's number writer names its C function: say what it means instead.
        reason = ("a figure too large or not a number" if "_fp_" in str(exc)
                  else short_reason(exc))
        return None, f"expected an SVG that can be drawn ({reason})"
    return drawing, ""
