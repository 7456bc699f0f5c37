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
it, and svglib is handed a font map (``_BundledFonts``) that answers from the bundled
faces alone. The number of text elements is bounded too.
"""

from __future__ import annotations

import io
import math
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core.errors import DataError, Problem
from generator.core.pathargs import resolved

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing
    from reportlab.lib.utils import ImageReader

MAX_BYTES = 2 * 1024 * 1024
MAX_PIXELS = 4096
MAX_SVG_SIZE = 100_000.0
"""Largest width, height or viewBox figure of an SVG (user units; a marker is ~1,000)."""
MAX_SVG_REACH = 1_000_000.0
"""Farthest any shape may lie from the SVG's origin, after transforms."""
MAX_SVG_ELEMENTS = 50_000
"""Most elements an SVG may draw, counting each ``<use>`` copy."""
MAX_SVG_DEPTH = 64
"""Deepest nesting of SVG elements."""
MAX_SVG_TEXTS = 1_000
"""Most ``<text>``, ``<tspan>`` and ``<textPath>`` elements an SVG may hold, counting each
``<use>`` copy. A marker or logo labels a few things (an Inkscape file splits a label
into a few ``<tspan>``s); each element costs svglib a style lookup and ReportLab a text
measurement: 1,000 of them load in a fraction of a second (0.3 to 0.6 s here)."""

_XINCLUDE = "{http://www.w3.org/2001/XInclude}"
_URL = re.compile(r"url\s*\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_FONT_FAMILY = re.compile(r"(font-family\s*:\s*)([^;}]*)", re.IGNORECASE)
"""A ``font-family`` declaration in a ``style`` attribute or a style sheet; the value ends
where svglib's own splitting ends it (``;``, or ``}`` in a sheet)."""
_TEXTS = frozenset({"text", "tspan", "textPath", "tref", "altGlyph"})
_TEXT_REFUSAL = (f"expected an SVG of at most {MAX_SVG_TEXTS:,} text elements (<text>, "
                 "<tspan>), counting copies")


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
        return None, f"expected at most {MAX_PIXELS} px a side ({_reason(exc)})"
    except Exception as exc:  # noqa: BLE001 - Pillow's parsers raise many kinds; all mean "unreadable"
        return None, f"expected a readable PNG image ({_reason(exc)})"
    if width > MAX_PIXELS or height > MAX_PIXELS:
        return None, f"expected at most {MAX_PIXELS} px a side (it is {width} x {height})"
    try:
        image.load()
    except Exception as exc:  # noqa: BLE001 - as above: zlib, struct, EOF and OS errors alike
        return None, f"expected a readable PNG image ({_reason(exc)})"
    return image, ""


def _reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:80]


def _svg_drawing(data: bytes) -> tuple[Drawing | None, str]:
    """The SVG as a ReportLab Drawing and "", or None and ``expected ...``.

    The tree drawn is the one checked (parsed once, here), with its fonts rewritten to
    the bundled ones (``_bundle_fonts``) and svglib's font lookup replaced by
    ``_BundledFonts``: nothing in the SVG can make svglib open a file or start a process.
    """
    root, expected = _svg_tree(data)
    if root is None:
        return None, expected
    from reportlab.graphics.shapes import Drawing
    from svglib.svglib import SvgRenderer

    from generator.core import fonts

    fonts.register()
    _bundle_fonts(root)
    try:
        # The source is a stream, not a path: svglib then resolves no external reference
        # (they are refused above anyway).
        renderer = SvgRenderer(io.BytesIO(data), font_map=_BundledFonts())
        if not isinstance(getattr(renderer.attrConverter, "_font_map", None), _BundledFonts):
            # An svglib that ignores ``font_map`` would look fonts up its own way.
            return None, "expected an SVG that can be drawn (svglib ignores the font map)"
        drawing = renderer.render(root)
        bounds = drawing.getBounds() if drawing is not None else None
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - svglib's failures are many
        return None, f"expected an SVG that can be drawn ({_reason(exc)})"
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
                return f"a {type(node).__name__}'s {name} is {_short(repr(value))}"
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
                  else _reason(exc))
        return None, f"expected an SVG that can be drawn ({reason})"
    return drawing, ""


class _BundledFonts:
    """svglib's font lookup (its ``font_map``), answered from the kit's bundled faces only.

    svglib's own ``FontMap.find_font`` resolves a family it does not know by registering
    ``<family>.ttf`` with ReportLab, which opens it as a path (absolute, relative to the
    working folder, on ReportLab's font search path, or as a URL), and then by running
    ``fc-match``. This one never opens a file or starts a process: every family, weight
    and style is one of the faces ``generator.core.fonts`` registered.
    """

    def find_font(self, font_name: str, weight: str = "normal",
                  style: str = "normal") -> tuple[str, bool]:
        """The bundled face for a family, weight and style, and True (always a match)."""
        return _bundled_face(font_name, weight, style), True


def _bundled_family(family: str) -> str:
    """The bundled family standing in for a CSS ``font-family`` list.

    No serif or monospaced face is bundled, so every family is PT Sans, except a narrow
    or condensed one, which is PT Sans Narrow (the kit's face for dense tables).
    """
    from generator.core import fonts

    first = family.split(",", 1)[0].lower()
    return fonts.NARROW if "narrow" in first or "condensed" in first else fonts.REGULAR


def _bundled_face(family: str, weight: str, style: str) -> str:
    """The registered face for a family (as ``_bundled_family`` maps it), weight and style.

    Bold is ``bold``, ``bolder`` or a weight of 600 or more; italic is ``italic`` or
    ``oblique``. PT Sans has no bold italic (bold is used) and PT Sans Narrow no italic.
    """
    from generator.core import fonts

    weight, style = str(weight).strip().lower(), str(style).strip().lower()
    bold = weight in ("bold", "bolder") or (weight.isdecimal() and len(weight) <= 4
                                                and int(weight) >= 600)
    italic = style in ("italic", "oblique") or style.startswith("oblique ")
    if _bundled_family(family) == fonts.NARROW:
        return fonts.NARROW_BOLD if bold else fonts.NARROW
    if bold:
        return fonts.BOLD
    return fonts.ITALIC if italic else fonts.REGULAR


def _bundle_fonts(root: Any) -> None:
    """Rewrite every ``font-family`` in the tree to a bundled family (``_bundled_family``).

    Attributes, ``style`` attributes and ``<style>`` sheets alike, so svglib only ever
    sees the bundled names (``_BundledFonts`` maps anything else too, as a second guard).
    """
    def declarations(text: str) -> str:
        return _FONT_FAMILY.sub(lambda m: m.group(1) + _bundled_family(m.group(2)), text)

    for element in root.iter():
        if not isinstance(element.tag, str):  # comments are gone; nothing else is left
            continue
        for attribute, value in element.attrib.items():
            local = attribute.rpartition("}")[2].lower()  # "{namespace}name" or "name"
            if local == "font-family":
                element.set(attribute, _bundled_family(value))
            elif local == "style" and "font-family" in value.lower():
                element.set(attribute, declarations(value))
        if element.tag.rpartition("}")[2] == "style" and element.text:
            element.text = declarations(element.text)


def _svg_tree(data: bytes) -> tuple[Any, str]:
    """The SVG parsed (an lxml root) and "" when it is self-contained, else None and why."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, "expected an SVG in UTF-8"
    lowered = text.lower()
    if "<svg" not in lowered:
        return None, "expected an SVG image (no <svg> element found)"
    if "<!entity" in lowered or "<!doctype" in lowered:
        return None, "expected an SVG without DOCTYPE or ENTITY declarations"
    from lxml import etree  # type: ignore[import-untyped]

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, remove_comments=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        return None, f"expected a well-formed SVG ({_reason(exc)})"
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None:
        return None, "expected an SVG without DOCTYPE or ENTITY declarations"
    if not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
        return None, "expected an SVG image (its root element is not <svg>)"
    for sibling in [*root.itersiblings(preceding=True), *root.itersiblings()]:
        if sibling.tag is etree.PI:  # <?xml-stylesheet href="..."?> before or after <svg>
            return None, ("expected an SVG without processing instructions (it has "
                          f"<?{sibling.target}?>)")
    expected = _svg_tree_refusal(root, etree)
    return (None, expected) if expected else (root, "")


def _svg_tree_refusal(root: Any, etree: Any) -> str:
    """Walk the parsed SVG: references, styles, size, nesting and ``<use>`` expansion."""
    ids: dict[str, Any] = {}
    uses: list[tuple[Any, str]] = []
    depth = count = texts = 0
    for event, element in etree.iterwalk(root, events=("start", "end")):
        if event == "end":
            depth -= 1
            continue
        depth += 1
        count += 1
        if depth > MAX_SVG_DEPTH:
            return f"expected SVG elements nested at most {MAX_SVG_DEPTH} deep"
        if not isinstance(element.tag, str):
            if element.tag is etree.PI:
                return ("expected an SVG without processing instructions (it has "
                        f"<?{element.target}?>)")
            if element.tag is etree.Entity:
                return "expected an SVG without entities"
            continue
        tag = element.tag
        if tag.startswith(_XINCLUDE):
            return "expected an SVG without XInclude"
        name = etree.QName(element).localname
        if name in _TEXTS:
            texts += 1
            if texts > MAX_SVG_TEXTS:
                return _TEXT_REFUSAL
        for attribute, value in element.attrib.items():
            local = etree.QName(attribute).localname
            if local in ("href", "src"):
                if not value.strip().startswith("#"):
                    return (f"expected an SVG that refers to nothing outside itself (its <{name}> "
                            f"links '{_short(value)}')")
                if name == "use":
                    uses.append((element, value.strip()[1:]))
            elif local == "id":
                ids[value] = element
            refusal = _css_refusal(value, name)
            if refusal:
                return refusal
            if local == "style":
                refusal = _declarations_refusal(value, name)
                if refusal:
                    return refusal
        if name == "style":
            refusal = (_css_refusal(element.text or "", name)
                       or _sheet_refusal(element.text or ""))
            if refusal:
                return refusal
        if name == "svg":
            refusal = _svg_size_refusal(element)
            if refusal:
                return refusal
    return _use_refusal(uses, ids, count, texts)


def _css_refusal(text: str, where: str) -> str:
    """Why a style sheet or attribute value reaches outside the SVG, or ""."""
    if "@import" in text.lower():
        return f"expected an SVG without CSS @import (in its <{where}>)"
    for target in _URL.findall(text):
        if not target.startswith("#"):
            return (f"expected an SVG that refers to nothing outside itself (its <{where}> "
                    f"uses url({_short(target)}))")
    return ""


def _declarations_refusal(style: str, where: str) -> str:
    """Why a ``style`` attribute is not ``name: value; ...`` as svglib reads it, or "".

    svglib splits the attribute at ``;`` and each declaration at ``:``, and fails on one
    that does not hold exactly one ``:``; this says so in the words of the file.
    """
    for declaration in style.split(";"):
        declaration = declaration.strip()
        if declaration and declaration.count(":") != 1:
            return (f"expected an SVG whose style attributes hold 'name: value' declarations "
                    f"(its <{where}> has '{_short(declaration)}')")
    return ""


def _sheet_refusal(sheet: str) -> str:
    """Why a ``<style>`` sheet is not CSS svglib can apply (a broken rule or selector), or ""."""
    import cssselect2  # type: ignore[import-untyped]
    import tinycss2  # type: ignore[import-untyped]

    for rule in tinycss2.parse_stylesheet(sheet, skip_comments=True, skip_whitespace=True):
        if rule.type == "error":
            return f"expected an SVG whose <style> is valid CSS ({rule.message[:80]})"
        if rule.type == "qualified-rule":
            try:
                cssselect2.compile_selector_list(rule.prelude)
            except Exception as exc:  # noqa: BLE001 - SelectorError, and what a bad prelude raises
                return (f"expected an SVG whose <style> is valid CSS (a selector: "
                        f"{_reason(exc)})")
    return ""


def _svg_size_refusal(element: Any) -> str:
    """Why an ``<svg>`` element's size is unusable (huge, infinite), or ""."""
    for attribute in ("width", "height", "viewBox", "x", "y"):
        value = element.get(attribute)
        if value is None:
            continue
        for number in _NUMBER.findall(value):
            figure = float(number)
            if not math.isfinite(figure) or abs(figure) > MAX_SVG_SIZE:
                return (f"expected an SVG of at most {MAX_SVG_SIZE:g} units a side (its "
                        f"{attribute} is '{_short(value)}')")
    return ""


def _use_refusal(uses: list[tuple[Any, str]], ids: dict[str, Any], count: int,
                 texts: int) -> str:
    """Why the SVG's ``<use>`` copies are unsafe to expand, or "".

    A ``<use>`` may copy a part that holds no ``<use>`` itself: that rules out cycles (a
    part copying itself) and copies of copies growing exponentially, and lets the expanded
    size be counted as the sum of the copied parts.
    """
    total = count
    for element, target_id in uses:
        target = ids.get(target_id)
        if target is None:
            continue  # svglib skips a copy of nothing
        for part in target.iter():
            tag = part.tag
            if part is element or (isinstance(tag, str)
                                   and (tag.endswith("}use") or tag == "use")):
                return ("expected an SVG whose <use> copies hold no <use> themselves "
                        f"(it copies '#{_short(target_id)}')")
            total += 1
            if total > MAX_SVG_ELEMENTS:
                return f"expected an SVG of at most {MAX_SVG_ELEMENTS} elements, counting copies"
            if isinstance(tag, str) and tag.rpartition("}")[2] in _TEXTS:
                texts += 1
                if texts > MAX_SVG_TEXTS:
                    return _TEXT_REFUSAL
    if total > MAX_SVG_ELEMENTS:
        return f"expected an SVG of at most {MAX_SVG_ELEMENTS} elements, counting copies"
    return ""


def _short(text: str) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= 40 else text[:37] + "..."
