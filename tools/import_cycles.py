"""Fail when modules of ``generator`` import each other in a circle.

import-linter's layers contract keeps each layer from importing the layers above it;
this closes the gap inside a layer or a ruleset folder. Every import that runs counts,
deferred ones inside functions included; imports only for type checking do not (they
never run). Run by ``.ci/run`` after the dev extra is installed:

    python tools/import_cycles.py
"""

from __future__ import annotations

import sys

import grimp


def cycles(package: str = "generator") -> list[list[str]]:
    """Every group of modules that import each other in a circle (Tarjan's algorithm)."""
    graph = grimp.build_graph(package, exclude_type_checking_imports=True, cache_dir=None)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in graph.find_modules_directly_imported_by(module):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def main() -> int:
    """Print each circle; exit 1 when there is one."""
    found = cycles()
    for group in found:
        print("import circle: " + " <-> ".join(group))
    print(f"import circles: {len(found)}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
