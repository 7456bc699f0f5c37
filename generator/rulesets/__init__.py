"""The ruleset registry: every rule system found through the ``quarterdeck.rulesets`` group.

A ruleset is plugged in by an entry point, so a club or designer can ship one as a pip
package of its own::

    [project.entry-points."quarterdeck.rulesets"]
    my-game = "my_game:RULESET"

The bundled rulesets register the same way (see ``pyproject.toml``). When quarterdeck
runs from a source tree that was never installed there is no entry-point metadata, so
the bundled ones are then found by their module names below.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded with the first ruleset: a light command may need none
    from generator.kit.seam import Ruleset

GROUP = "quarterdeck.rulesets"
BUNDLED = {"naval-action": "generator.rulesets.naval_action:RULESET",
           "surface-action": "generator.rulesets.surface_action:RULESET",
           "rule-27": "generator.rulesets.rule27:RULESET",
           "modern-naval": "generator.rulesets.modern_naval:RULESET",
           "naval-warfare": "generator.rulesets.naval_warfare:RULESET"}
"""Fallback when the package metadata is missing (a checkout run without installing)."""


def _load(target: str) -> Ruleset:
    from generator.kit.seam import Ruleset

    module, _, attr = target.partition(":")
    found = getattr(importlib.import_module(module), attr)
    if not isinstance(found, Ruleset):
        raise TypeError(f"{target} is not a quarterdeck Ruleset")
    return found


def _targets() -> dict[str, str]:
    """Every registered ruleset's ``module:attribute``, by entry-point name.

    Reading the entry points means importing ``importlib.metadata`` and scanning every
    installed distribution; the answer is kept in the user cache under a stamp of what it
    depends on (``_distributions_stamp``), so a light command does neither.
    """
    from generator.cache import usercache

    stamp = _distributions_stamp()
    cached = usercache.load("entry-points", stamp) if stamp is not None else None
    if isinstance(cached, dict) and all(isinstance(k, str) and isinstance(v, str)
                                        for k, v in cached.items()):
        found: dict[str, str] = dict(cached)
    else:
        from importlib import metadata

        found = {}
        for point in metadata.entry_points(group=GROUP):
            found.setdefault(point.name, point.value)
        if stamp is not None:
            usercache.store("entry-points", stamp, dict(found))
    for name, target in BUNDLED.items():
        found.setdefault(name, target)
    return found


def _distributions_stamp() -> str | None:
    """What the installed entry points depend on, found without ``importlib.metadata``.

    Every ``sys.path`` entry, and in each folder every ``*.dist-info``/``*.egg-info``
    with the size and mtime of its ``entry_points.txt``: installing, removing, upgrading
    or editing a distribution changes it. None (do not cache) when an import hook other
    than the standard path finder could supply distributions.
    """
    import os
    import stat
    import sys
    from importlib.machinery import PathFinder

    if any(hasattr(finder, "find_distributions") and finder is not PathFinder
           for finder in sys.meta_path):
        return None
    parts: list[object] = [sys.version]
    for entry in sys.path:
        where = entry or "."
        try:
            info = os.stat(where)
        except OSError:
            parts.append((entry, None))
            continue
        if not stat.S_ISDIR(info.st_mode):  # a zip file: its own size and mtime
            parts.append((entry, os.path.abspath(where), info.st_size, info.st_mtime_ns))
            continue
        parts.append((entry, os.path.abspath(where)))
        try:
            names = sorted(n for n in os.listdir(where)
                           if n.lower().endswith((".dist-info", ".egg-info")))
        except OSError:
            return None
        for name in names:
            try:
                points = os.stat(os.path.join(where, name, "entry_points.txt"))
            except OSError:
                parts.append(name)
                continue
            parts.append((name, points.st_size, points.st_mtime_ns))
    return repr(parts)


def _module_stamp(target: str) -> str:
    """Where a ruleset's module lives and its size and mtime, found without importing it."""
    from importlib.util import find_spec
    from pathlib import Path

    try:
        spec = find_spec(target.partition(":")[0])
    except (ImportError, ValueError):
        return "?"
    origin = getattr(spec, "origin", None)
    if not origin:
        return "?"
    try:
        info = Path(origin).stat()
    except OSError:
        return "?"
    return f"{origin}:{info.st_size}:{info.st_mtime_ns}"


class _Registry(MutableMapping[str, "Ruleset"]):
    """The rulesets by name, each imported on first use.

    Names come from the entry points without importing anything; listing order (the
    rulesets' ``order``) needs the rulesets themselves, so it is remembered in the user
    cache keyed by every ruleset's target and module file, and only a miss (or a ruleset
    added with ``register``) imports them all.
    """

    def __init__(self) -> None:
        self._targets: dict[str, str] | None = None
        self._loaded: dict[str, Ruleset] = {}
        self._added: dict[str, Ruleset] = {}
        self._removed: set[str] = set()
        self._order: list[str] | None = None

    def _pending(self) -> dict[str, str]:
        if self._targets is None:
            self._targets = _targets()
        return self._targets

    def _get(self, name: str) -> Ruleset | None:
        if name in self._removed:
            return None
        if name in self._added:
            return self._added[name]
        if name not in self._loaded:
            target = self._pending().get(name)
            if target is None:
                return None
            ruleset = _load(target)
            self._loaded[name] = ruleset
            if ruleset.name != name:  # an entry point named unlike its ruleset
                self._order = None
        return self._loaded[name]

    def _all(self) -> dict[str, Ruleset]:
        """Every ruleset, imported, by its own name, in listing order."""
        found: dict[str, Ruleset] = {}
        for name in self._pending():
            ruleset = self._get(name)
            if ruleset is not None and name not in self._added:
                found.setdefault(ruleset.name, ruleset)
        for name, ruleset in self._added.items():
            found[name] = ruleset
        for name in self._removed:
            found.pop(name, None)
        return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))

    def cache_key(self) -> str | None:
        """What the ruleset order depends on, or None once rulesets were added at run time.

        quarterdeck's version and, for each registered ruleset, its target and the size
        and mtime of its module file.
        """
        if self._added or self._removed:
            return None
        from generator import __version__

        return repr((__version__, sorted((n, t, _module_stamp(t))
                                         for n, t in self._pending().items())))

    def names(self) -> list[str]:
        """Every ruleset's name in listing order, importing them only on a cache miss."""
        if self._order is not None:
            return self._order
        key = self.cache_key()
        if key is not None:
            from generator.cache import usercache

            targets = self._pending()
            cached = usercache.load("rulesets", key)
            if isinstance(cached, list) and sorted(cached) == sorted(targets) \
                    and all(isinstance(n, str) for n in cached):
                self._order = cached
                return cached
            self._order = list(self._all())
            if sorted(self._order) == sorted(targets):
                usercache.store("rulesets", key, self._order)
            return self._order
        self._order = list(self._all())
        return self._order

    def __getitem__(self, name: str) -> Ruleset:
        found = self._get(name) if isinstance(name, str) else None
        if found is None:
            for ruleset in self._all().values() if isinstance(name, str) else ():
                if ruleset.name == name:  # registered under another entry-point name
                    return ruleset
            raise KeyError(name)
        return found

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.names()))

    def __len__(self) -> int:
        return len(self.names())

    def __setitem__(self, name: str, ruleset: Ruleset) -> None:
        self._added[name] = ruleset
        self._removed.discard(name)
        self._order = None

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._added.pop(name, None)
        self._removed.add(name)
        self._order = None

    def __repr__(self) -> str:
        return f"REGISTRY({', '.join(self.names())})"


def discover() -> dict[str, Ruleset]:
    """Every registered ruleset, by name, in listing order (``order``, then name)."""
    return _Registry()._all()


REGISTRY = _Registry()
"""Every ruleset by name, in listing order; each is imported when first looked up."""


def cache_key() -> str | None:
    """A key for anything cached about the registered rulesets (None: do not cache)."""
    return REGISTRY.cache_key()


def register(ruleset: Ruleset) -> None:
    """Add a ruleset at run time (tests, or a program embedding quarterdeck)."""
    REGISTRY[ruleset.name] = ruleset


def default_ruleset() -> Ruleset:
    """The ruleset listed first: the one ``build`` without a scenario serves."""
    return next(iter(REGISTRY.values()))


def default_scenario() -> str | None:
    """The scenario ``quarterdeck build`` builds when none is named."""
    return default_ruleset().default_scenario


def __getattr__(name: str) -> Any:
    """``Ruleset`` itself, imported only when asked for (it pulls in the page engine)."""
    if name == "Ruleset":
        from generator.kit.seam import Ruleset

        return Ruleset
    raise AttributeError(name)


__all__ = ["GROUP", "REGISTRY", "Ruleset", "default_ruleset", "default_scenario", "register"]
