"""DEFAULT is printed one way: through ``generator.rules.defaults``, never spelt by hand."""

from __future__ import annotations

import ast
import functools
import re

from tests.paths import ROOT

WORD = re.compile(r"\bDEFAULT\b")

KNOWN = {
    # Not printed for players: a comment in the YAML a designer's scaffold starts from.
    "generator/data/scaffold.py": "the scaffold's comment on `default: true`",
}
"""Files (or folders) still allowed to spell DEFAULT in a string, with why."""


def _documentation(tree: ast.AST) -> set[int]:
    """The string constants that document rather than print: docstrings and schema text."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            found |= {id(s.value) for s in body if isinstance(s, ast.Expr)
                      and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)}
        if isinstance(node, ast.keyword) and node.arg == "description":
            found |= {id(n) for n in ast.walk(node.value) if isinstance(n, ast.Constant)}
    return found


@functools.cache
def spelt_by_hand() -> tuple[str, ...]:
    """Every string constant in ``generator/`` that spells DEFAULT, as ``path:line``."""
    found: list[str] = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where == "generator/rules/defaults.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _documentation(tree)
        found += [f"{where}:{node.lineno}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in skip and WORD.search(node.value)]
    return tuple(found)


def test_no_printed_string_spells_default_outside_the_one_mechanism() -> None:
    unexpected = [place for place in spelt_by_hand()
                  if not any(place.startswith(known) for known in KNOWN)]
    assert unexpected == []


def test_every_known_exception_still_applies() -> None:
    # A file cleaned up leaves the list, so the list says only what is left to do.
    places = spelt_by_hand()
    assert [k for k in KNOWN if not any(p.startswith(k) for p in places)] == []


def test_the_scan_sees_a_label_spelt_in_an_f_string() -> None:
    tree = ast.parse('x = f"{name} (DEFAULT length)"\n"""A DEFAULT docstring."""\n')
    skip = _documentation(tree)
    hits = [n for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and id(n) not in skip and WORD.search(n.value)]
    assert [h.value for h in hits] == [" (DEFAULT length)"]


def test_the_label_forms() -> None:
    from generator.rules.defaults import label, mark, note

    assert (label(False, "length"), label(True), label(True, "length")) == (
        "", " (DEFAULT)", " (DEFAULT length)")
    assert mark("Very Large", True) == "Very Large (DEFAULT)"
    assert (note("the text is blank"), note("the text is blank", "*")) == (
        "DEFAULT: the text is blank", "* DEFAULT: the text is blank")
