"""Safe YAML loading that remembers where every value came from.

PyYAML only *composes* the document here (no object construction), then plain
mappings, lists and scalars are built by hand. Any explicit tag that would construct
an object (``!!python/object``...) is refused as a problem, and every value's line
and column are kept so errors can point at ``file:line:column``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.errors import Problem

# libyaml's composer is ~10x faster than the pure-Python one; marks are identical.
_Loader: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

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
# A guard against alias bombs ("billion laughs"): no real data file comes close.
_MAX_NODES = 200_000

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
    """Render a field path as ``guns.0.bore_in``."""
    return ".".join(str(p) for p in loc)


class _Builder:
    def __init__(self, doc: SourceDoc, loader: Any) -> None:
        self.doc = doc
        self.loader = loader
        self.problems: list[Problem] = []
        self.count = 0

    def build(self, node: yaml.Node, loc: Loc) -> Any:
        self.count += 1
        if self.count > _MAX_NODES:
            raise _TooBig
        mark = (node.start_mark.line + 1, node.start_mark.column + 1)
        self.doc.value_marks[loc] = mark
        if node.tag not in _SAFE_TAGS:
            self.problems.append(
                Problem(
                    self.doc.display, *mark, dotted(loc),
                    f"found YAML tag '{node.tag}', expected plain YAML (tags that "
                    "construct objects are refused)",
                )
            )
            return None
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = self.build(key_node, (*loc, "<key>"))
                if not isinstance(key, str | int):
                    self.problems.append(
                        self.doc.problem(loc, "found a complex key, expected a name"))
                    continue
                key_mark = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                if key in out:
                    self.problems.append(
                        Problem(self.doc.display, *key_mark, dotted((*loc, key)),
                                f"found key '{key}' twice, expected each key once")
                    )
                self.doc.key_marks[(*loc, key)] = key_mark
                out[key] = self.build(value_node, (*loc, key))
            self.doc.value_marks.pop((*loc, "<key>"), None)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*loc, i)) for i, item in enumerate(node.value)]
        # The composer has already resolved the scalar's tag: plain text needs no
        # constructor, the rest call theirs directly (construct_object's bookkeeping is
        # for recursive objects, which scalars are not).
        if node.tag == _STR:
            return node.value
        return self.loader.yaml_constructors[node.tag](self.loader, node)


class _TooBig(Exception):
    pass


def load_yaml(path: Path, display: str | None = None) -> tuple[SourceDoc, list[Problem]]:
    """Load one YAML file safely, with positions.

    Args:
        path: File to read (never modified).
        display: Name to show in messages (defaults to the path).

    Returns:
        The document and the problems found while reading it (syntax, tags, duplicates).

    """
    shown = display or str(path)
    doc = SourceDoc(path=path, display=shown, data=None)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        return doc, [Problem(shown, 1, 1, "", f"found bytes that are not UTF-8 ({exc.reason}), "
                                               "expected a UTF-8 text file")]
    except OSError as exc:
        return doc, [Problem(shown, 0, 0, "", f"found an unreadable file ({exc.strerror}), "
                                               "expected a readable YAML file")]
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
    except _TooBig:
        return doc, [Problem(shown, 1, 1, "", f"found more than {_MAX_NODES} values "
                                              "(alias expansion?), expected a data file")]
    finally:
        loader.dispose()
