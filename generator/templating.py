"""Jinja2 text templates and the small markup they produce, turned into flowables.

Templates write lines: ``# `` title, ``## `` heading, ``### `` subheading, ``- `` bullet,
``@ `` bookmark anchor, blank line between paragraphs. Values are XML-escaped, so a ship
called "Smith & Co" cannot break the layout; ``<b>`` in the template itself is allowed.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
from reportlab.platypus import Flowable, Paragraph, Spacer

from generator.bundled import bundled_dir
from generator.tablestyle import Anchor, styles
from generator.units import MM


def templates_dir() -> Path:
    """Folder of the bundled templates."""
    return bundled_dir("quarterdeck_templates", "templates")


@functools.cache
def environment(escape: bool = True) -> jinja2.Environment:
    """The shared Jinja2 environment (strict: an undefined name is an error).

    Args:
        escape: XML-escape values (for text that becomes PDF paragraphs); off for
            Markdown files.

    """
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=escape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_text(name: str, escape: bool = True, **context: Any) -> str:
    """Render a template to text (``escape=False`` for Markdown output)."""
    return environment(escape).get_template(name).render(**context)


def markup_to_flowables(text: str) -> list[Flowable]:
    """Turn the template mini-markup into platypus flowables."""
    st = styles()
    out: list[Flowable] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            out.append(Paragraph(" ".join(para), st["body"]))
            out.append(Spacer(1, 1.5 * MM))
            para.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("@ "):
            flush()
            out.append(Anchor(line[2:]))
        elif line.startswith("### "):
            flush()
            out.append(Paragraph(line[4:], st["h3"]))
        elif line.startswith("## "):
            flush()
            out.append(Paragraph(line[3:], st["h2"]))
        elif line.startswith("# "):
            flush()
            out.append(Paragraph(line[2:], st["h1"]))
        elif line.startswith("- "):
            flush()
            out.append(Paragraph(line[2:], st["bullet"], bulletText="•"))
        else:
            para.append(line)
    flush()
    return out


@contextlib.contextmanager
def user_templates(folder: Path | None) -> Iterator[None]:
    """Let templates in ``folder`` override bundled ones by name, for one build."""
    yield
