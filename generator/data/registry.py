"""The ruleset registry: every rule system found through the ``quarterdeck.rulesets`` group.

A ruleset is plugged in by an entry point, so a club or designer can ship one as a pip
package of its own::

    [project.entry-points."quarterdeck.rulesets"]
    my-game = "my_game:RULESET"

The bundled rulesets register the same way (see ``pyproject.toml``). When quarterdeck
runs from a source tree that was never installed there is no entry-point metadata, so
the bundled ones are then read from that tree's own ``pyproject.toml``.

The registry lives in the data layer, below every layer that asks for a ruleset, and
imports each ruleset by name at run time: no module of ``generator`` imports a ruleset
package. What the data layer needs of a ruleset is ``DataRuleset`` below; the kit layer
sees the same registry with every entry checked to be a whole ``kit.seam.Ruleset``
(``generator.kit.registry``).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Protocol,
    TypeGuard,
    TypeVar,
    cast,
    runtime_checkable,
)

from generator.core.errors import Problem, UsageError

if TYPE_CHECKING:  # imported where used: a light command needs no pydantic
    from pydantic import BaseModel

    from generator.cache import Key
    from generator.data.library import Entry, Library

GROUP = "quarterdeck.rulesets"
"""The entry-point group rulesets register in."""


@runtime_checkable
class DataRuleset(Protocol):
    """What the data layer asks of a ruleset: its data kinds, its checks, its listing.

    ``generator.kit.seam.Ruleset`` provides all of it (with defaults for ``check``,
    ``describe_class`` and the rating hooks); a ruleset writes only its class attributes
    and the hooks that apply to it.
    """

    name: ClassVar[str]
    """Registry name (``my-game``), also the ``ruleset:`` of data files."""
    title: ClassVar[str]
    """Name as printed."""
    order: ClassVar[int]
    """Position in listings; the lowest is the default ruleset."""
    data_kinds: ClassVar[dict[str, type[BaseModel]]]
    """Data file kinds the ruleset reads, ``kind:`` -> model."""
    rates_missile_era: ClassVar[bool]
    """Whether its ``rating.derive`` also rates classes with missile-era facts (``modern:``)."""
    converts_old_files: ClassVar[bool]
    """Whether it once kept class files of its own that ``from_old_file`` converts."""
    old_file_lacks: ClassVar[str | None]
    """What its old class files lack that other rulesets need (None: nothing)."""

    @property
    def class_model(self) -> type[BaseModel] | None:
        """The ship-class model, if the ruleset reads ship classes."""

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Cross-file problems and warnings of the ruleset's files in ``library``."""

    def describe_class(self, entry: Entry) -> tuple[str, str, str, str]:
        """(id, name, nation, type) of a class, for listings."""

    def from_old_file(self, data: dict[str, Any]) -> dict[str, Any]:
        """A shared class file's data from one of its old class files (``quarterdeck convert``)."""


class RulesetImportError(UsageError):
    """A registered ruleset cannot be loaded: its entry point, module and the reason.

    Exit status 2, like any error in what quarterdeck was set up with: the ruleset's
    package (or the entry point naming it) is broken or missing, and no ruleset is ever
    left out of a listing or a check without saying so.
    """


def _load(name: str, target: str) -> DataRuleset:
    """The ruleset an entry point names.

    Raises:
        RulesetImportError: The module cannot be imported, lacks the attribute, or the
            attribute is not a ruleset.

    """
    module, _, attr = target.partition(":")
    where = f"ruleset entry point '{name}' ({target})"
    try:
        found: object = importlib.import_module(module)
    except Exception as exc:  # noqa: BLE001 - any failure at import time is the ruleset's
        raise RulesetImportError(f"{where}: cannot import module '{module}': "
                                 f"{type(exc).__name__}: {exc}") from exc
    try:  # a lazy package imports its ruleset module here (``rulesets.lazy``)
        for part in filter(None, attr.split(".")):
            found = getattr(found, part)
    except Exception as exc:  # noqa: BLE001 - as above
        raise RulesetImportError(f"{where}: cannot read {attr} from module '{module}': "
                                 f"{type(exc).__name__}: {exc}") from exc
    if not isinstance(found, DataRuleset):
        raise RulesetImportError(f"{where}: found {type(found).__name__}, expected a "
                                 "quarterdeck Ruleset (generator.kit.seam.Ruleset)")
    return found


def source_points() -> dict[str, str]:
    """The entry points a source tree's ``pyproject.toml`` declares (empty when installed).

    A checkout run without installing has no package metadata; its own project file
    names the bundled rulesets.
    """
    import tomllib

    path = _project_file()
    try:
        with path.open("rb") as handle:
            project = tomllib.load(handle).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    if project.get("name") != "quarterdeck":
        return {}
    points = project.get("entry-points", {}).get(GROUP, {})
    return {str(k): str(v) for k, v in points.items()} if isinstance(points, dict) else {}


def _project_file() -> Path:
    """Where a source tree keeps ``pyproject.toml``: next to the ``generator`` package."""
    return Path(__file__).resolve().parents[2] / "pyproject.toml"


def targets() -> dict[str, str]:
    """Every registered ruleset's ``module:attribute``, by entry-point name.

    Reading the entry points means importing ``importlib.metadata`` and scanning every
    installed distribution; the answer is kept in the user cache under a stamp of what it
    depends on (``distributions_stamp``), so a light command does neither.
    """
    from generator.cache import key, remember, text_map

    stamp = distributions_stamp()
    return dict(remember("entry-points", key("entry-points", stamp) if stamp is not None
                         else None, _entry_points, text_map))


def _entry_points() -> dict[str, str]:
    """Every registered ruleset's target, read from the installed distributions."""
    from importlib import metadata

    found: dict[str, str] = {}
    for point in metadata.entry_points(group=GROUP):
        found.setdefault(point.name, point.value)
    for name, target in source_points().items():
        found.setdefault(name, target)
    return found


def distributions_stamp() -> str | None:
    """What the registered entry points depend on, found without ``importlib.metadata``.

    Every ``sys.path`` entry, and in each folder every ``*.dist-info``/``*.egg-info``
    with the size and mtime of its ``entry_points.txt``, and the source tree's
    ``pyproject.toml``: installing, removing, upgrading or editing a distribution changes
    it. None (do not cache) when an import hook other than the standard path finder could
    supply distributions.
    """
    import os
    import stat
    import sys
    from importlib.machinery import PathFinder

    if any(hasattr(finder, "find_distributions") and finder is not PathFinder
           for finder in sys.meta_path):
        return None
    parts: list[object] = [sys.version]
    try:
        project = _project_file().stat()
        parts.append(("pyproject", project.st_size, project.st_mtime_ns))
    except OSError:
        parts.append(("pyproject", None))
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


class _Store:
    """The rulesets by name, each imported on first use (shared by every typed view).

    Names come from the entry points without importing anything; listing order (the
    rulesets' ``order``) needs the rulesets themselves, so it is remembered in the user
    cache keyed by every ruleset's target and module file, and only a miss (or a ruleset
    added with ``register``) imports them all.
    """

    def __init__(self) -> None:
        self._targets: dict[str, str] | None = None
        self.loaded: dict[str, DataRuleset] = {}
        self.added: dict[str, DataRuleset] = {}
        self.removed: set[str] = set()
        self.order: list[str] | None = None

    def pending(self) -> dict[str, str]:
        """Every entry point's target, by name (read once)."""
        if self._targets is None:
            self._targets = targets()
        return self._targets

    def get(self, name: str) -> DataRuleset | None:
        """The ruleset registered as ``name`` (imported now), or None."""
        if name in self.removed:
            return None
        if name in self.added:
            return self.added[name]
        if name not in self.loaded:
            target = self.pending().get(name)
            if target is None:
                return None
            ruleset = _load(name, target)
            self.loaded[name] = ruleset
            if ruleset.name != name:  # an entry point named unlike its ruleset
                self.order = None
        return self.loaded[name]

    def every(self) -> dict[str, DataRuleset]:
        """Every ruleset, imported, by its own name, in listing order."""
        found: dict[str, DataRuleset] = {}
        for name in self.pending():
            ruleset = self.get(name)
            if ruleset is not None and name not in self.added:
                found.setdefault(ruleset.name, ruleset)
        for name, ruleset in self.added.items():
            found[name] = ruleset
        for name in self.removed:
            found.pop(name, None)
        return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))

    def cache_key(self) -> Key | None:
        """What the ruleset order depends on, or None once rulesets were added at run time.

        For each registered ruleset, its target and the size and mtime of its module
        file (``key`` adds quarterdeck's version and code).
        """
        if self.added or self.removed:
            return None
        from generator.cache import key

        return key("rulesets", sorted((n, t, _module_stamp(t))
                                      for n, t in self.pending().items()))

    def names(self) -> list[str]:
        """Every ruleset's name in listing order, importing them only on a cache miss."""
        if self.order is not None:
            return self.order
        from generator.cache import remember

        pending = sorted(self.pending())

        def complete(names: Any) -> TypeGuard[list[str]]:
            # Read back or made: every registered ruleset, and nothing else.
            return isinstance(names, list) and all(isinstance(n, str) for n in names) \
                and sorted(names) == pending

        self.order = remember("rulesets", self.cache_key(), lambda: list(self.every()),
                              complete, kept=complete)
        return self.order

R = TypeVar("R")


class Registry(MutableMapping[str, R], Generic[R]):
    """Every ruleset by name, in listing order, each imported when first looked up.

    One store, seen through views of different types: the data layer's (``REGISTRY``,
    every entry a ``DataRuleset``) and the kit layer's (every entry a whole
    ``kit.seam.Ruleset``). A view checks each ruleset it hands out against its type.
    """

    def __init__(self, store: _Store, kind: type[Any] | Callable[[], type[Any]]) -> None:
        self._store = store
        self._kind_given = kind

    @functools.cached_property
    def _kind(self) -> type[Any]:
        # A view's type may be named late: ``list`` reads names alone and should not
        # import the module that defines it.
        given = self._kind_given
        return given if isinstance(given, type) else given()

    def typed(self, kind: type[Any] | Callable[[], type[Any]]) -> Registry[Any]:
        """The same registry, each entry checked to be a ``kind`` (a subclass of ruleset).

        ``kind`` may be a function giving the type, called when an entry is first handed
        out.
        """
        return Registry(self._store, kind)

    def _checked(self, name: str, found: DataRuleset) -> R:
        if not isinstance(found, self._kind):
            target = self._store.pending().get(name, "added at run time")
            raise RulesetImportError(f"ruleset entry point '{name}' ({target}): found "
                                     f"{type(found).__name__}, expected a "
                                     f"{self._kind.__module__}.{self._kind.__qualname__}")
        return cast("R", found)  # checked just above against this view's kind

    def cache_key(self) -> Key | None:
        """A key for anything cached about the registered rulesets (None: do not cache)."""
        return self._store.cache_key()

    def names(self) -> list[str]:
        """Every ruleset's name in listing order, importing them only on a cache miss."""
        return self._store.names()

    def every(self) -> dict[str, R]:
        """Every ruleset, imported, in listing order."""
        return {n: self._checked(n, r) for n, r in self._store.every().items()}

    def __getitem__(self, name: str) -> R:
        found = self._store.get(name) if isinstance(name, str) else None
        if found is None:
            for ruleset in self._store.every().values() if isinstance(name, str) else ():
                if ruleset.name == name:  # registered under another entry-point name
                    return self._checked(name, ruleset)
            raise KeyError(name)
        return self._checked(name, found)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.names()))

    def __len__(self) -> int:
        return len(self.names())

    def __setitem__(self, name: str, ruleset: R) -> None:
        if not isinstance(ruleset, DataRuleset):
            raise TypeError(f"{ruleset!r} is not a quarterdeck Ruleset")
        self._store.added[name] = ruleset
        self._store.removed.discard(name)
        self._store.order = None

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._store.added.pop(name, None)
        self._store.removed.add(name)
        self._store.order = None

    def __repr__(self) -> str:
        return f"REGISTRY({', '.join(self.names())})"


REGISTRY: Registry[DataRuleset] = Registry(_Store(), DataRuleset)
"""Every ruleset by name, in listing order, as the data layer reads them."""


def discover() -> Mapping[str, DataRuleset]:
    """Every registered ruleset, freshly read, by name, in listing order."""
    return _Store().every()


def cache_key() -> Key | None:
    """A key for anything cached about the registered rulesets (None: do not cache)."""
    return REGISTRY.cache_key()


def register(ruleset: DataRuleset) -> None:
    """Add a ruleset at run time (tests, or a program embedding quarterdeck)."""
    REGISTRY[ruleset.name] = ruleset
