"""What a ruleset provides to the shared pipeline."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel

from generator.errors import Problem
from generator.imposition import Options as SheetOptions
from generator.layout import Paper
from generator.packets import Component, PacketSpec
from generator.pieces import Piece

if TYPE_CHECKING:
    from generator.library import Library

Progress = Callable[[str], None]
AidKind = Literal["rulers", "strings", "gauges"]


@dataclass(frozen=True)
class KitOptions:
    """Choices a user makes for a whole build.

    Attributes:
        tables: A YAML file replacing some of the ruleset's tables (``--tables``).
        seed: Seed for pre-rolled dice sheets (default: derived from the scenario id).
        sheets: How marker and counter sheets are printed (duplex, bleed, cut guides,
            back offset); the paper comes from the build.
        sprue: A sheet-layout file replacing the ruleset's own (``--sprue``).

    """

    tables: Path | None = None
    seed: int | None = None
    sheets: SheetOptions = field(default_factory=lambda: SheetOptions())
    sprue: Path | None = None


@dataclass
class Kit:
    """Everything a ruleset rendered for one scenario, before anything is written."""

    folder: str
    components: dict[str, Component]
    packets: list[PacketSpec]
    warnings: list[str] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    """Every distinct piece on the kit's sheets (for PNG and Tabletop Simulator export)."""


class Ruleset(Protocol):
    """A rule system's plug: schema, cross-file checks, derivations and components."""

    name: str
    title: str
    class_model: type[BaseModel]
    scenario_model: type[BaseModel]

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Cross-file problems (unknown classes, ships...) and warnings (service dates)."""
        ...

    def kit_parts(self, library: Library, scenario_id: str, paper: Paper,
                  progress: Progress, options: KitOptions) -> Kit:
        """Derive and render every component of a scenario's kit, in memory."""
        ...

    def class_kit_parts(self, library: Library, class_id: str, ship: str | None,
                        paper: Paper, progress: Progress, options: KitOptions) -> Kit:
        """A kit for one ship of a class (for designers)."""
        ...

    def tables_parts(self, library: Library, scenario_id: str | None, paper: Paper,
                     options: KitOptions) -> Kit:
        """The rules calculator's tables (and a scenario's matchups), one PDF each."""
        ...

    def markers_parts(self, library: Library, scenario_id: str, paper: Paper,
                      options: KitOptions) -> Kit:
        """A scenario's marker (counter) sheets, one PDF per side, plus its pieces.

        Args:
            library: The validated library.
            scenario_id: The scenario whose ships set the markers.
            paper: ``a4`` or ``letter``.
            options: Tables, sheet options and sprue.

        """
        ...

    def aids_parts(self, library: Library, kind: AidKind, scenario_id: str | None,
                   classes: list[str], scale: str | None, paper: Paper,
                   options: KitOptions) -> Kit:
        """Precision aids on their own: rulers, range strings and tapes, or gauges.

        Args:
            library: The validated library.
            kind: Which aids.
            scenario_id: Take the scale, ships and torpedo types from this scenario.
            classes: For strings without a scenario: the classes to string up.
            scale: A scale name or "N yards per cm|in" (default: the scenario's, else
                tabletop).
            paper: Paper size.
            options: The user's tables file.

        """
        ...

    def new_class_yaml(self, class_id: str, nation: str, ship_type: str) -> str:
        """A commented class file to start from."""
        ...

    def schema_reference(self) -> str:
        """The Markdown reference page for the data schema."""
        ...

    def catalog(self, library: Library, paper: Paper) -> Component:
        """The master list of classes."""
        ...

    def describe_class(self, entry: Any) -> tuple[str, str, str, str]:
        """(id, name, nation, type) for listings."""
        ...


def describe_class(entry: Any) -> tuple[str, str, str, str]:
    """(id, name, nation, type) of a class entry, for listings.

    Every ruleset's classes have these four fields.
    """
    cls = entry.model
    return str(cls.id), str(cls.name), str(cls.nation.value), str(cls.type.value)
