"""An SVG's parsed tree: checked to refer to nothing outside itself, its fonts the kit's.

The SVG must be plain UTF-8 XML with no DOCTYPE or entities, no XInclude, no links to
files or ``data:`` URLs, no CSS imports, a finite size, and bounded nesting, elements
and text elements, ``<use>`` copies counted (``svg_tree``). Every ``font-family`` is then
rewritten to a bundled family (``bundle_fonts``) and svglib is handed a font map
(``BundledFonts``) that answers from the bundled faces alone, so nothing in the SVG can
make svglib open a file or start a process. ``generator.data.images`` draws the tree.
"""

from __future__ import annotations

import math
import re
from typing import Any

MAX_SVG_SIZE = 100_000.0
"""Largest width, height or viewBox figure of an SVG (user units; a marker is ~1,000)."""
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


def short_reason(exc: BaseException) -> str:
    """An exception as a short reason: its first line, at most 80 characters."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:80]


class BundledFonts:
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


def bundle_fonts(root: Any) -> None:
    """Rewrite every ``font-family`` in the tree to a bundled family (``_bundled_family``).

    Attributes, ``style`` attributes and ``<style>`` sheets alike, so svglib only ever
    sees the bundled names (``BundledFonts`` maps anything else too, as a second guard).
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


def svg_tree(data: bytes) -> tuple[Any, str]:
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
        return None, f"expected a well-formed SVG ({short_reason(exc)})"
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
                            f"links '{shortened(value)}')")
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
                    f"uses url({shortened(target)}))")
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
                    f"(its <{where}> has '{shortened(declaration)}')")
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
                        f"{short_reason(exc)})")
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
                        f"{attribute} is '{shortened(value)}')")
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
                        f"(it copies '#{shortened(target_id)}')")
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


def shortened(text: str) -> str:
    """Text quoted in a message: on one line, at most 40 characters."""
    text = text.replace("\n", " ")
    return text if len(text) <= 40 else text[:37] + "..."
