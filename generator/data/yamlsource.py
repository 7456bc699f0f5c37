"""Safe YAML loading that remembers where every value came from.

PyYAML only *composes* the document here (no object construction), then plain
mappings, lists and scalars are built by hand. Any explicit tag that would construct
an object (``!!python/object``...) is refused as a problem, and every value's line
and column are kept so errors can point at ``file:line:column``.

Every data kind (ship data, tables, sprues, faces, decks, recipes) is read here, so the
limits live in one place: only regular files of at most ``MAX_FILE_BYTES``; lists and
mappings nested at most ``MAX_DEPTH`` deep (an alias inside its own anchor is refused,
not followed); whole numbers of at most ``MAX_DIGITS`` digits; finite floats; real
calendar dates. Each refusal is a located problem, never an exception.
"""

from __future__ import annotations

import math
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core.errors import Problem

if TYPE_CHECKING:
    import yaml

    _Loader: type[Any] = yaml.SafeLoader


def _import_yaml() -> None:
    """Import PyYAML on first use: a command answered from the user cache reads no YAML."""
    if "yaml" not in globals():
        import yaml

        # libyaml's composer is ~10x faster than the pure-Python one; marks are identical.
        globals().update(yaml=yaml, _Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def __getattr__(name: str) -> Any:
    """``yaml`` and ``_Loader``, imported when first asked for from outside."""
    if name in ("yaml", "_Loader"):
        _import_yaml()
        return globals()[name]
    raise AttributeError(name)


_SAFE_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
# A guard against alias bombs ("billion laughs"): no real data file comes close.
_MAX_NODES = 200_000

MAX_DEPTH = 64
"""Deepest nesting of lists and mappings; real data files stay under 10."""
MAX_DIGITS = 18
"""Longest whole number (digits); no count, range or year the games use comes close."""
MAX_FILE_BYTES = 4 * 1024 * 1024
"""Largest data file read; the biggest bundled file is well under 1 MB."""

Loc = tuple[str | int, ...]


@dataclass
class SourceDoc:
    """A loaded YAML document with the position of every value and key.

    Attributes:
        path: The file on disk.
        display: The file's name as shown in messages.
        data: Plain Python data (dicts, lists, str, int, float, bool, None, date).
        value_marks: (line, column) of each value, by field path.
        key_marks: (line, column) of each mapping key, by field path.

    """

    path: Path
    display: str
    data: Any
    value_marks: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[Loc, tuple[int, int]] = field(default_factory=dict)

    def mark(self, loc: Loc, *, key: bool = False) -> tuple[int, int]:
        """Best position for a field path: its key, its value, or the nearest parent.

        Args:
            loc: Field path (tuple of keys and list indexes).
            key: Prefer the key's position (for unknown keys).

        Returns:
            (line, column), 1-based; (1, 1) if nothing better is known.

        """
        probe = tuple(loc)
        while True:
            if key and probe in self.key_marks:
                return self.key_marks[probe]
            if probe in self.value_marks:
                return self.value_marks[probe]
            if probe in self.key_marks:
                return self.key_marks[probe]
            if not probe:
                return (1, 1)
            probe = probe[:-1]

    def problem(self, loc: Loc, message: str, *, key: bool = False) -> Problem:
        """Build a Problem located at ``loc``.

        Args:
            loc: Field path.
            message: ``found X, expected Y`` text.
            key: Point at the key rather than the value.

        Returns:
            The located problem.

        """
        line, column = self.mark(loc, key=key)
        return Problem(self.display, line, column, dotted(loc), message)


def dotted(loc: Loc) -> str:
    """Render a field path as ``guns.0.bore_in`` (control characters in a key escaped).

    A path is printed in a one-line message, so a key holding control characters is
    written with escapes rather than breaking the message in two.
    """
    return ".".join(_printable(str(p)) for p in loc)


def _printable(text: str) -> str:
    return text if text.isprintable() else text.encode("unicode_escape").decode("ascii")

class _Builder:
    """Builds plain data from composed nodes, refusing what a data file cannot hold."""

    def __init__(self, doc: SourceDoc, loader: Any) -> None:
        _import_yaml()
        self.doc = doc
        self.loader = loader
        self.problems: list[Problem] = []
        self.count = 0
        self.open: set[int] = set()

    def refuse(self, mark: tuple[int, int], loc: Loc, message: str) -> None:
        self.problems.append(Problem(self.doc.display, *mark, dotted(loc), message))

    def build(self, node: yaml.Node, loc: Loc, depth: int = 0) -> Any:
        self.count += 1
        if self.count > _MAX_NODES:
            raise _TooBig
        mark = _mark(node)
        self.doc.value_marks[loc] = mark
        if node.tag not in _SAFE_TAGS:
            self.refuse(mark, loc, f"found YAML tag '{node.tag}', expected plain YAML (tags "
                                   "that construct objects are refused)")
            return None
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode):
            # Depth is bounded here so building never exhausts Python's stack, and an
            # alias inside its own anchor is refused rather than followed for ever.
            if id(node) in self.open:
                self.refuse(mark, loc, "found an alias inside its own anchor (a value that "
                                       "contains itself), expected data that ends")
                return None
            if depth >= MAX_DEPTH:
                self.refuse(mark, loc, f"found lists or mappings nested more than {MAX_DEPTH} "
                                       f"deep, expected at most {MAX_DEPTH} levels")
                return None
            self.open.add(id(node))
            try:
                if isinstance(node, yaml.MappingNode):
                    return self.build_mapping(node, loc, depth + 1)
                return [self.build(item, (*loc, i), depth + 1)
                        for i, item in enumerate(node.value)]
            finally:
                self.open.discard(id(node))
        return self.build_scalar(node, loc, mark)

    def build_mapping(self, node: yaml.MappingNode, loc: Loc, depth: int) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key_mark = _mark(key_node)
            if not isinstance(key_node, yaml.ScalarNode):
                # A list or mapping names nothing: refuse it without building it.
                self.refuse(key_mark, loc, "found a complex key (a list or mapping), "
                                           "expected a name")
                continue
            key = self.build(key_node, (*loc, "<key>"), depth)
            if not isinstance(key, str | int):
                if key is not None or key_node.tag == "tag:yaml.org,2002:null":
                    self.refuse(key_mark, loc, f"found key {describe_scalar(key_node)}, "
                                               "expected a name")
                continue
            if key in out:
                self.refuse(key_mark, (*loc, key),
                            f"found key '{key}' twice, expected each key once")
            self.doc.key_marks[(*loc, key)] = key_mark
            out[key] = self.build(value_node, (*loc, key), depth)
        self.doc.value_marks.pop((*loc, "<key>"), None)
        return out

    def build_scalar(self, node: yaml.Node, loc: Loc, mark: tuple[int, int]) -> Any:
        # The composer has already resolved the scalar's tag: plain text needs no
        # constructor, the rest call theirs directly (construct_object's bookkeeping is
        # for recursive objects, which scalars are not).
        if node.tag == _STR:
            return node.value
        text = str(node.value)
        if node.tag == _INT:
            digits = sum(ch.isdigit() for ch in text)
            # Refused before conversion: Python converts at most 4,300 digits, and no
            # count, range or year the games use needs more than a few.
            if digits > MAX_DIGITS or len(text) > 2 * MAX_DIGITS:
                self.refuse(mark, loc, f"found a whole number of {digits} digits, expected "
                                       f"at most {MAX_DIGITS} digits")
                return None
        try:
            value = self.loader.yaml_constructors[node.tag](self.loader, node)
        except (ValueError, OverflowError):
            expected = ("a real date (YYYY-MM-DD)" if node.tag == _TIMESTAMP
                        else "a value YAML can read")
            self.refuse(mark, loc, f"found {describe_scalar(node)}, expected {expected}")
            return None
        if node.tag == _INT and abs(value) >= 10 ** MAX_DIGITS:
            self.refuse(mark, loc, f"found {describe_scalar(node)}, expected a whole number "
                                   f"of at most {MAX_DIGITS} digits")
            return None
        if node.tag == _FLOAT and not math.isfinite(value):
            self.refuse(mark, loc, f"found {describe_scalar(node)}, expected a finite number")
            return None
        return value


def _mark(node: yaml.Node) -> tuple[int, int]:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


def describe_scalar(node: yaml.Node) -> str:
    """A scalar as written, quoted and shortened for a message."""
    text = str(node.value)
    return f"'{text}'" if len(text) <= 40 else f"'{text[:37]}...'"


class _TooBig(Exception):
    pass


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISSOCK, "a socket"))


def read_source(path: Path, shown: str, what: str = "a YAML file") -> tuple[str | None,
                                                                            Problem | None]:
    """Read a user's text file, refusing anything but a bounded regular UTF-8 file.

    A named pipe or a device (``/dev/zero``) would block or never end, so the file's kind
    and size are checked before any byte is read, and no more than the cap is read.

    Args:
        path: The file.
        shown: Its name in messages.
        what: What the file should be, for ``expected ...``.

    Returns:
        The text and None, or None and the problem.

    """
    if "\0" in str(path):
        return None, Problem(shown.replace("\0", "\\0"), 0, 0, "",
                             f"found a NUL byte in the file name, expected {what}")
    try:
        info = path.stat()
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        return None, Problem(shown, 0, 0, "", f"found an unreadable file ({reason}), "
                                              f"expected {what}")
    for test, kind in _KINDS:
        if test(info.st_mode):
            return None, Problem(shown, 0, 0, "", f"found {kind}, expected {what}")
    if not stat.S_ISREG(info.st_mode):
        return None, Problem(shown, 0, 0, "", f"found no regular file, expected {what}")
    if info.st_size > MAX_FILE_BYTES:
        return None, _too_big(shown, info.st_size, what)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return None, Problem(shown, 0, 0, "", f"found an unreadable file ({exc.strerror}), "
                                              f"expected {what}")
    if len(raw) > MAX_FILE_BYTES:  # it grew while we looked
        return None, _too_big(shown, len(raw), what)
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        return None, Problem(shown, line, 1, "", f"found bytes that are not UTF-8 "
                                                 f"({exc.reason}), expected a UTF-8 text file")


def _too_big(shown: str, size: int, what: str) -> Problem:
    return Problem(shown, 0, 0, "", f"found a file of {size / 1e6:.1f} MB, expected {what} "
                                    f"of at most {MAX_FILE_BYTES // (1024 * 1024)} MB")


def load_yaml(path: Path, display: str | None = None) -> tuple[SourceDoc, list[Problem]]:
    """Load one YAML file safely, with positions.

    Args:
        path: File to read (never modified): a regular file of at most ``MAX_FILE_BYTES``.
        display: Name to show in messages (defaults to the path).

    Returns:
        The document and the problems found while reading it (syntax, tags, duplicates,
        nesting, numbers and dates no game can use).

    """
    shown = display or str(path)
    doc = SourceDoc(path=path, display=shown, data=None)
    text, problem = read_source(path, shown)
    if problem is not None or text is None:
        return doc, [problem] if problem is not None else []
    _import_yaml()
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return doc, [Problem(shown, 1, 1, "", "found an empty file, expected a YAML mapping")]
        builder = _Builder(doc, loader)
        doc.data = builder.build(node, ())
        return doc, builder.problems
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = f" ({exc.problem})" if exc.problem else ""
        return doc, [Problem(shown, line, column, "",
                             f"found a YAML syntax error{what}, expected valid YAML")]
    except yaml.reader.ReaderError as exc:  # a control character YAML does not allow
        before = text[:exc.position]
        line, column = before.count("\n") + 1, exc.position - before.rfind("\n")
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return doc, [Problem(shown, line, column, "", f"found the control character "
                                                      f"#x{code:04X}, expected printable text")]
    except yaml.YAMLError as exc:
        reason = " ".join(str(exc).split())[:200]
        return doc, [Problem(shown, 1, 1, "", f"found unreadable YAML ({reason}), "
                                              "expected valid YAML")]
    except _TooBig:
        return doc, [Problem(shown, 1, 1, "", f"found more than {_MAX_NODES} values "
                                              "(alias expansion?), expected a data file")]
    finally:
        loader.dispose()
