"""The mini-markup templates write, made safe and set on a page: one path for every template.

``markup_blocks`` reads it; ``markup_onto`` sets it on a drawn document (``CanvasDoc``)
and ``markup_to_flowables`` on a platypus flow, each block kind the same way wherever a
ruleset's prose comes from.

Lines: ``# `` title, ``## `` heading, ``### `` subheading, ``- `` bullet, ``| `` a line
of its own, ``@ `` bookmark anchor, blank line between paragraphs. ``<b>``, ``<i>`` and
a few other tags in a template's own text are kept; any other markup is printed as text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from markupsafe import Markup

from generator.core.units import MM

if TYPE_CHECKING:
    from reportlab.platypus import Flowable

    from generator.pages.canvasdoc import CanvasDoc

MARKUP_TAGS = ("b", "i", "u", "strike", "super", "sub")
"""Paragraph tags a template's own text may use; ``<br/>`` too."""
_TAG = re.compile(r"<(/?)([a-zA-Z]+)\s*(/?)>")
ENTITY = re.compile(r"&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|amp|lt|gt|quot|apos|nbsp);")
"""A character reference ReportLab reads (``&amp;``, ``&#233;``...), its inside grouped."""


def entity_char(reference: str) -> str | None:
    """The character a ``&...;`` reference names (its inside given).

    None for a number past Unicode's last code point or a surrogate (ReportLab fails on
    them).
    """
    if not reference.startswith("#"):
        return reference
    number = int(reference[2:], 16) if reference[1:2] in "xX" else int(reference[1:])
    if number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
        return None
    return chr(number)


def safe_markup(text: str) -> str:
    """Keep the plain paragraph tags, escape every other ``<`` and bare ``&``.

    Values are escaped by the template engine already; this guards the template's own
    text, so a template cannot load an image or a font (``<img src=...>``) nor break
    the paragraph with an unbalanced tag: a stray closing tag is printed as text and an
    unclosed one is closed at the end.
    """
    out: list[str] = []
    opened: list[str] = []
    at = 0
    while at < len(text):
        char = text[at]
        tag = _TAG.match(text, at) if char == "<" else None
        if tag and _keep(tag, opened):
            out.append(tag.group(0))
            at = tag.end()
            continue
        entity = ENTITY.match(text, at) if char == "&" else None
        if entity and entity_char(entity.group(1)) is not None:  # else printed as text
            out.append(entity.group(0))
            at = entity.end()
            continue
        out.append({"<": "&lt;", ">": "&gt;", "&": "&amp;"}.get(char, char))
        at += 1
    out += [f"</{name}>" for name in reversed(opened)]
    return "".join(out)


def _keep(tag: re.Match[str], opened: list[str]) -> bool:
    """Whether a tag is one a template may write here (and track what it opens)."""
    closing, name, empty = tag.group(1), tag.group(2), tag.group(3)
    if name == "br":
        return bool(empty) and not closing
    if name not in MARKUP_TAGS or empty:
        return False
    if not closing:
        opened.append(name)
        return True
    if opened and opened[-1] == name:
        opened.pop()
        return True
    return False


def markup_blocks(text: str) -> list[tuple[str, str]]:
    """Split template mini-markup into ``(kind, text)`` blocks, the text made safe.

    Kinds: ``anchor`` (``@ ``, plain text), ``h1``/``h2``/``h3`` (``# ``...), ``bullet``
    (``- ``), ``line`` (``| ``, one short line of its own) and ``body`` (consecutive
    lines, joined; a blank line ends a paragraph).
    """
    blocks: list[tuple[str, str]] = []
    para: list[str] = []
    prefixes = (("### ", "h3"), ("## ", "h2"), ("# ", "h1"), ("- ", "bullet"), ("| ", "line"))

    def flush() -> None:
        if para:
            blocks.append(("body", safe_markup(" ".join(para))))
            para.clear()

    for raw in text.splitlines():
        line = raw.strip()
        kind = next((k for prefix, k in prefixes if line.startswith(prefix)), None)
        if not line:
            flush()
        elif line.startswith("@ "):
            flush()
            blocks.append(("anchor", str(Markup(line[2:]).unescape())))
        elif kind is not None:
            flush()
            blocks.append((kind, safe_markup(line[line.index(" ") + 1:])))
        else:
            para.append(line)
    flush()
    return blocks


HEADING_ROOM = 30 * MM
"""Room kept below a bookmarked heading, so a heading never ends a page alone."""


def markup_onto(doc: CanvasDoc, text: str, *, body: str = "body",
                bookmark_headings: bool = False) -> None:
    """Set template mini-markup on a drawn document.

    Headings take their own style (``h1``...), a bullet and a line of its own the small
    print, anchors a bookmark. A document chooses only the style of its paragraphs
    (``body``: a reference card's prose is small print) and whether ``#``/``##``
    headings are bookmarks of their own.
    """
    for kind, line in markup_blocks(text):
        if kind == "anchor":
            doc.anchor(line)
        elif kind in ("h1", "h2") and bookmark_headings:
            doc.ensure(HEADING_ROOM)
            doc.anchor(re.sub(r"<[^>]+>", "", line))
            doc.paragraph(line, kind)
        elif kind in ("h1", "h2", "h3"):
            doc.paragraph(line, kind)
        elif kind == "bullet":
            doc.paragraph(f"• {line}", "small")
        elif kind == "line":
            doc.paragraph(line, "small")
        else:
            doc.paragraph(line, body)


def markup_to_flowables(text: str) -> list[Flowable]:
    """Turn the template mini-markup into platypus flowables."""
    # platypus takes a while to import; a build's workers import it side by side.
    from reportlab.platypus import Paragraph, Spacer

    from generator.pages.tablestyle import Anchor, styles

    st = styles()
    out: list[Flowable] = []
    for kind, line in markup_blocks(text):
        if kind == "anchor":
            out.append(Anchor(line))
        elif kind == "body":
            out += [Paragraph(line, st["body"]), Spacer(1, 1.5 * MM)]
        elif kind == "bullet":
            out.append(Paragraph(line, st["bullet"], bulletText="•"))
        elif kind == "line":
            out.append(Paragraph(line, st["small"]))
        else:
            out.append(Paragraph(line, st[kind]))
    return out
