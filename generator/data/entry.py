"""One validated data file of the library, its heavy parts unpickled only when read.

A cached library (``generator.data.library``) keeps each entry's model, source, facts and
folder pickled on their own (``Frozen``), so a command that needs one ruleset's models,
or none, imports only that ruleset and pays only for what it touches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.data.yamlsource import SourceDoc


@dataclass
class Entry:
    """One validated data file."""

    model: Any
    doc: SourceDoc
    bundled: bool
    root: Path | None = None
    """The data folder the file was found in (files it names must stay inside it)."""
    # --- one ship library (issue 14): set when the entry was derived from a shared class
    facts: Any = None
    """The shared ``generator.data.shipclass.ShipClass`` this ruleset's model was derived from."""
    overrides: list[str] = field(default_factory=list)
    """Ratings the class file set by hand for this ruleset instead of deriving them."""
    ruleset: str | None = None
    """The ruleset a scenario file names: known without reading the cached model (a
    build of one ruleset's scenario then imports no other ruleset)."""

    def of_ruleset(self) -> str | None:
        """The ruleset the file names (``ruleset:``), read without unpickling the model."""
        return self.ruleset if self.ruleset is not None else getattr(self.model, "ruleset",
                                                                       None)

    # In the user cache each entry's model, file and facts are pickled on their own and
    # read back on first use, so a command that needs one ruleset's models (or none:
    # ``check``, ``list``) imports only that ruleset and pays only for what it touches.
    def __getstate__(self) -> dict[str, Any]:
        return self.frozen_state({})

    def frozen_state(self, memo: dict[int, Frozen]) -> dict[str, Any]:
        """The pickle state: each lazy field frozen once per value (``memo`` by id)."""
        state = dict(self.__dict__)
        frozen = dict(state.pop("_frozen", {}))
        for name in _LAZY:
            if name in state:
                value = state.pop(name)
                if id(value) not in memo:
                    memo[id(value)] = Frozen.of(value)
                frozen[name] = memo[id(value)]
        state["_frozen"] = frozen
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __getattr__(self, name: str) -> Any:
        frozen = self.__dict__.get("_frozen") if name in _LAZY else None
        if not frozen or name not in frozen:
            raise AttributeError(name)
        value = frozen.pop(name).get()
        self.__dict__[name] = value
        return value


_LAZY = ("model", "doc", "facts", "root")
"""Entry fields kept pickled in a cached library until first read."""
# A dataclass keeps each field's default as a class attribute, which would answer for a
# field still frozen (None instead of the facts) before ``__getattr__`` is asked; the
# generated ``__init__`` carries its own defaults, so the class attributes can go.
for _name in _LAZY:
    if _name in Entry.__dict__:
        delattr(Entry, _name)


class Frozen:
    """One value pickled on its own inside the cached library, unpickled on first use.

    Entries that share a value (the file and facts of a class every ruleset rates) share
    one ``Frozen``, so it is stored once and read back as one object.
    """

    __slots__ = ("blob", "value")

    def __init__(self, blob: bytes) -> None:
        self.blob = blob
        self.value: Any = Frozen

    @classmethod
    def of(cls, value: Any) -> Frozen:
        """Freeze ``value``."""
        import pickle

        made = cls(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        made.value = value
        return made

    def __getstate__(self) -> bytes:
        return self.blob

    def __setstate__(self, blob: bytes) -> None:
        self.blob = blob
        self.value = Frozen

    def get(self) -> Any:
        """The value, unpickled the first time it is asked for."""
        if self.value is Frozen:
            import pickle

            # Only ever read from a cache file whose signature was verified (usercache.load).
            self.value = pickle.loads(self.blob)  # noqa: S301
        return self.value
