r"""The terminal: where commands print tables and answers that hold user text.

User text is inert here. A class name, a ship's name, a note or a file name may hold
control characters: ESC starts sequences that set colours, move the cursor, rewrite the
window title or make hyperlinks (CSI ``ESC [``, OSC ``ESC ]``; C1 ``\x9b`` is a one-byte
CSI), CR and backspace overwrite what was printed, BEL rings, bidi overrides reorder
what follows. ``inert(text)`` shows every such character as a visible escape, so what
reaches the terminal is only what quarterdeck itself styles.

The escape is the one Python and YAML double-quoted strings use: ``\x1b``, ``\r``,
``\x9b``, ``\u202e``. It is ASCII (any terminal and encoding shows it); it names the
character exactly, where a caret form (``^[``) has no name for C1 or bidi characters
and dropping them (as PDFs do) would hide that something was there; it is what a user
types in a YAML double-quoted string to write that character, so it can be searched
for; and problem lines (``generator.core.errors.Problem``) already showed escaped characters
this way. A byte of a file name that is not UTF-8 (which Python holds as a lone
surrogate) shows as that byte, ``\xff``, as ``ls -b`` names it in octal. A backslash
the user typed is left as it is: doubling it would garble every Windows path and every
note that quotes one, and a backslash does nothing on a terminal; so the text
``\x1b`` typed as four characters prints as itself, which is the one ambiguity kept.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from typing import Any

__all__ = ["InertStream", "escaped", "inert", "user_console"]

_ALLOWED_FORMAT = frozenset("\u200c\u200d")
"""Format characters left as they are: zero-width non-joiner and joiner, which Persian,
the Indic scripts and emoji sequences need and which cannot reorder or hide other text."""

_SHOWN = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
"""Unicode categories that are shown escaped: control characters (C0, DEL and C1),
format characters (bidi embeddings, overrides and isolates, marks, zero-width space,
word joiner, byte-order mark, tag characters...), surrogates (undecodable bytes) and the
line and paragraph separators, which some terminals and editors break lines at."""


def escaped(char: str) -> str:
    r"""One character as its escape: ``\x1b``, ``\n``, ``\u202e``, ``\U000e0041``.

    A lone surrogate from an undecodable file-name byte (U+DC80 to U+DCFF, Python's
    ``surrogateescape``) is shown as the byte it stands for, ``\xff``.
    """
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return char.encode("unicode_escape").decode("ascii")


def inert(text: str, keep: str = "\n\t") -> str:
    r"""``text`` with every character that could act on a terminal shown as its escape.

    Escaped: C0 and C1 control characters (ESC, BEL, backspace, CR, NUL, ``\x9b``...)
    except those in ``keep`` (newline and tab: they only start a line or move right, and
    messages and notes are written with them), DEL, format characters that can reorder
    or hide text (bidi overrides and isolates U+202A-U+202E, U+2066-U+2069, the marks
    U+200E, U+200F and U+061C, zero-width space, tags...), line and paragraph separators,
    and surrogates. Everything printable, in any script, is left alone; so is a tab or
    newline in ``keep``. Applying it twice changes nothing more.
    """
    if text.isprintable():  # the common case: nothing to look at
        return text
    return "".join(
        char if (char.isprintable() or char in keep or char in _ALLOWED_FORMAT
                 or unicodedata.category(char) not in _SHOWN)
        else escaped(char)
        for char in text)


_SGR = re.compile(r"(\x1b\[[0-9;:]*m)")
"""A Select Graphic Rendition sequence (a colour, bold, reset): the only one let through."""


class InertStream:
    """A text stream that writes through to another with everything but colours inert.

    For code that writes to ``sys.stdout`` directly (``click.echo`` in a ruleset's own
    command) instead of through ``say``, ``tell`` or ``user_console``: every character
    ``inert`` escapes is escaped, except whole SGR sequences (``ESC [ 1 ; 31 m``), so the
    command's colours still show on a terminal. User text in such output can still change
    colours (click drops them when the output is not a terminal), but it cannot move the
    cursor, erase, set the title, make a hyperlink or reorder text. It holds no ``buffer``:
    nothing can write bytes past it.
    """

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` made inert (SGR sequences kept); bytes are refused."""
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if not text.isprintable():
            # re.split with a group alternates: text, sequence, text, sequence...
            parts = zip(itertools.cycle((False, True)), _SGR.split(text), strict=False)
            text = "".join(part if sequence else inert(part) for sequence, part in parts)
        return int(self._stream.write(text))

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding...
        if name == "buffer":
            raise AttributeError(name)
        return getattr(self._stream, name)


def user_console(**options: Any) -> Any:
    """A rich console for printing user text: inert, and no emoji codes.

    Every string it prints is made ``inert`` before rich reads its markup and measures
    it (so tables stay aligned), and every segment of text it draws is checked again
    (a ``Text`` built elsewhere); rich's own control codes (cursor moves of a progress
    display) and styles are kept. rich replaces ``:name:`` codes even in escaped markup,
    so emoji codes are off: a ship's name prints as its owner typed it. ``options`` go to
    ``rich.console.Console``; rich is imported here, on first use (light commands that
    print nothing never load it).
    """
    return _console_class()(emoji=False, **options)


@functools.cache
def _console_class() -> Any:
    from collections.abc import Iterable

    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.segment import Segment
    from rich.text import Text

    class InertConsole(Console):
        """A rich console that shows control characters in what it prints as escapes."""

        def render_str(self, text: str, **options: Any) -> Text:
            return super().render_str(inert(text), **options)

        def render(self, renderable: RenderableType,
                   options: ConsoleOptions | None = None) -> Iterable[Segment]:
            if isinstance(renderable, Text) and not renderable.plain.isprintable():
                # A Text made elsewhere: escaped before it is laid out, so a long escape
                # wraps like any text instead of being cut at the edge of its cell.
                made = renderable.blank_copy()
                for part in renderable.render(self):
                    made.append(inert(part.text), part.style)
                renderable = made
            for segment in super().render(renderable, options):
                if segment.control or segment.text.isprintable():
                    yield segment
                else:
                    yield Segment(inert(segment.text), segment.style)

    return InertConsole
