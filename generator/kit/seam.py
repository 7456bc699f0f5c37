"""What a ruleset provides to the shared pipeline, with defaults for everything optional.

A ruleset is a folder ``generator/rulesets/<name>/`` (or a package of its own, found
through the ``quarterdeck.rulesets`` entry-point group) holding its schema, its tables
as YAML, its recipe (``kit.yaml``) and small component modules. ``Ruleset`` below is the
whole seam: a ruleset names its data kinds, derives a typed context for a request
(``Context[Derived]``), and registers components by name; every other hook it may
provide is declared on it with a default. The pipeline does the rest (see
``generator.kit.pipeline``); rulesets are found by ``generator.kit.registry``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar

from generator.core.errors import Problem, UsageError

if TYPE_CHECKING:  # imported where used: a ruleset loaded for `odds` needs no page engine
    import click
    from pydantic import BaseModel

    from generator.aids.setupmap import MapInput
    from generator.data.library import Entry, Library
    from generator.kit.recipe import KitRecipes, Recipe
    from generator.pages.component import Component
    from generator.pages.layout import Paper
    from generator.pieces.imposition import Options as SheetOptions
    from generator.pieces.pieces import Piece
    from generator.pieces.sprue import Sprue

_MOVED = {"BaseModel": "pydantic", "SheetOptions": "generator.pieces.imposition:Options",
          "Paper": "generator.pages.layout", "Component": "generator.pages.component",
          "Piece": "generator.pieces.pieces", "COMMANDS": "generator.kit.recipe",
          "KitRecipes": "generator.kit.recipe", "Recipe": "generator.kit.recipe",
          "load_recipes": "generator.kit.recipe", "Sprue": "generator.pieces.sprue"}
"""Names this module used to import at the top, still importable from it."""


def __getattr__(name: str) -> Any:
    if name not in _MOVED:
        raise AttributeError(name)
    import importlib

    module, _, attr = _MOVED[name].partition(":")
    return getattr(importlib.import_module(module), attr or name)


def _sheet_options() -> SheetOptions:
    from generator.pieces.imposition import Options

    return Options()

Command = Literal["kit", "tables", "markers", "rulers", "strings", "gauges", "class"]
Progress = Callable[[str], None]
D = TypeVar("D")
"""A ruleset's own derived data: what its ``prepare`` puts in ``Context.data``."""


@dataclass(frozen=True)
class KitOptions:
    """Choices a user makes for a whole build.

    Attributes:
        tables: A YAML file replacing some of the ruleset's tables (``--tables``).
        seed: The build seed (``--seed``); the pipeline sets it before ``prepare``, the
            scenario's unless given (``generator.rules.dice.build_seed`` says what it means).
        sheets: How marker and counter sheets are printed (duplex, bleed, cut guides,
            back offset); the paper comes from the build.
        sprue: A sheet-layout file replacing the ruleset's own (``--sprue``).
        templates: A folder of Jinja2 templates overriding bundled ones by name.
        values: Named choices a ruleset's own command passes to its ``prepare`` (a map's
            hex size, a counter size...), as the user wrote them.
        print_shop: Write print-shop files (``--print-shop``: ``pages.pdfx``).

    """

    tables: Path | None = None
    seed: int | None = None
    sheets: SheetOptions = field(default_factory=_sheet_options)
    sprue: Path | None = None
    templates: Path | None = None
    values: dict[str, str] = field(default_factory=dict)
    print_shop: bool = False


@dataclass(frozen=True)
class Request:
    """What the user asked for: a command and its subject.

    Attributes:
        command: Which recipe to follow.
        scenario: Scenario id (None for generic tables and aids, or a class kit).
        class_id: For the ``class`` command: the class to proof.
        ship: For ``class``: which ship (default: the first).
        classes: For ``strings`` without a scenario: classes to string up.
        scale: For aids: a scale name or "N yards per cm|in".
        ruleset: For ``class``: which ruleset's proof (default: the first that rates it).

    """

    command: Command
    scenario: str | None = None
    ruleset: str | None = None
    class_id: str | None = None
    ship: str | None = None
    classes: tuple[str, ...] = ()
    scale: str | None = None


@dataclass
class Context(Generic[D]):
    """Everything a ruleset derived for one request, handed to every component.

    Generic in the ruleset's own data: a ruleset's ``prepare`` returns a
    ``Context[Derived]`` (its own dataclass) and its components take one, so mypy checks
    every use of ``ctx.data``. ``data`` is given by keyword when the context is made.

    Attributes:
        request: What was asked.
        paper: Paper size.
        options: The user's build options.
        sides: Side id -> side name, in order (empty without a scenario).
        values: Names for the recipe's folder, file and title templates.
        flags: Conditions the recipe's ``when:`` may test (``scenario``, ``duplex``).
        warnings: Warnings found while deriving (service dates...).
        data: The ruleset's own derived data (views, tables, calculators): required, by
            keyword (``Context(request, paper, options, data=derived)``).
        record: Fields the manifest records for the kit (the seeds in force...).
        setup: The set-up the map draws and an online table starts from (None: none).

    """

    request: Request
    paper: Paper
    options: KitOptions
    sides: dict[str, str] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)
    data: D = field(kw_only=True)
    record: dict[str, Any] = field(default_factory=dict)
    setup: MapInput | None = None

    def for_scenario(self, scenario_id: str, name: str, sides: Iterable[Any]) -> None:
        """Say the request is a scenario's, the same way in every ruleset.

        Sets its sides (each with ``id`` and ``name``), the names its recipe's folder and
        titles use, and the ``scenario`` flag a recipe's ``when:`` tests.
        """
        self.sides = {s.id: s.name for s in sides}
        self.values.update(scenario=scenario_id, scenario_name=name)
        self.flags.add("scenario")


@dataclass
class Rendered:
    """What a component returns: its pages, plus warnings and cut-out pieces.

    Attributes:
        component: The rendered PDF and its bookmarks.
        warnings: Things the user should know (labels that could not fit...).
        pieces: Distinct pieces on its sheets (for PNG and Tabletop Simulator export).

    """

    component: Component
    warnings: list[str] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)


ComponentFn = Callable[[Context[D], "str | None"], "Component | Rendered"]
"""A component: (context, argument from the recipe) -> pages. Pure: no writing, no globals."""


class Components(Generic[D]):
    """A registry of components by name; ``@registry("name")`` registers a function.

    Typed by the data its components read: a ruleset's ``Components[Derived]`` takes
    only components of a ``Context[Derived]`` (or of any context: ``SHARED``'s).
    """

    def __init__(self, *parents: Components[Any]) -> None:
        self._own: dict[str, ComponentFn[D]] = {}
        self._parents = parents

    def __call__(self, name: str) -> Callable[[ComponentFn[D]], ComponentFn[D]]:
        """Register the decorated function under ``name``."""
        def register(fn: ComponentFn[D]) -> ComponentFn[D]:
            if name in self._own:
                raise ValueError(f"component '{name}' registered twice")
            self._own[name] = fn
            return fn
        return register

    def names(self) -> list[str]:
        """Every registered name (own and inherited)."""
        out = [n for p in self._parents for n in p.names()]
        return list(dict.fromkeys([*out, *self._own]))

    def get(self, name: str) -> ComponentFn[D]:
        """The function registered under ``name`` (own first, then inherited)."""
        if name in self._own:
            return self._own[name]
        for parent in self._parents:
            if name in parent.names():
                found: ComponentFn[D] = parent.get(name)
                return found
        raise KeyError(name)


def sheet_component(ctx: Context[Any], pieces: list[Piece], sprue: Sprue, key: str, title: str,
                    label: str, footer: str, warnings: list[str] | None = None) -> Rendered:
    """Cut-out pieces imposed on sheets as one component, with their fit warnings.

    Every ruleset's counters, markers and cards go through here: the user's sheet
    options (duplex, bleed, cut guides, back offset) on the build's paper.

    Args:
        ctx: The build context (paper and sheet options).
        pieces: What to print.
        sprue: The sheet layout.
        key: Component key (``markers:allied``).
        title: Bookmark and sheet title.
        label: Page-label prefix.
        footer: Footer text.
        warnings: Warnings gathered while making the pieces (besides their own).

    """
    from generator.core.errors import DataError, RenderError
    from generator.pieces.imposition import Options, as_component, impose
    from generator.pieces.pieces import piece_warnings

    options: Options = dataclasses.replace(ctx.options.sheets, paper=ctx.paper)
    try:
        imposed = impose(pieces, sprue, options, title, footer)
    except RenderError:
        # A piece larger than the layout's printable area: the user's sprue (its margin,
        # orientation, bleed) or tables (the piece's size) asked for it; say where.
        problem = _too_large(pieces, sprue, options)
        if problem is None:
            raise
        raise DataError([problem]) from None
    return Rendered(as_component(imposed, key, title, label),
                    [*(warnings or []), *piece_warnings(pieces)], pieces)


def _too_large(pieces: list[Piece], sprue: Sprue, options: SheetOptions) -> Problem | None:
    """The first piece larger than the sprue's printable area, located at its margin.

    The area is the one ``imposition.layout`` places pieces in: the page less the margins,
    the footer and the reach of crop marks, and a region heading above the first row.
    None when every piece fits (the layout failed for another reason).
    """
    from generator.core.units import MM
    from generator.pages.layout import page_size
    from generator.pieces.cropmarks import sheet_margin
    from generator.pieces.imposition import FOOTER, HEADING, cut_mode

    landscape = sprue.orientation == "landscape"
    page_w, page_h = page_size(options.paper, landscape)
    bleed = sprue.bleed if options.bleed else 0.0
    margin = sheet_margin(cut_mode(options, sprue), sprue.margin, bleed)
    room_w = page_w - 2 * margin
    room_h = page_h - 2 * margin - FOOTER - HEADING
    for piece in pieces:
        need_w, need_h = piece.width + 2 * bleed, piece.height + 2 * bleed
        if need_w > room_w + 1e-6 or need_h > room_h + 1e-6:
            paper = f"{options.paper.upper()} {sprue.orientation}"
            with_bleed = " with its bleed" if bleed else ""
            return sprue.problem(("margin",), (
                f"found room for {room_w / MM:.1f} x {max(room_h, 0) / MM:.1f} mm on "
                f"{paper} inside the {margin / MM:g}mm margin, expected room for "
                f"piece '{piece.id}' ({need_w / MM:.1f} x {need_h / MM:.1f} mm{with_bleed}): "
                "a smaller margin or bleed, the other orientation, or a smaller piece "
                "(its size in --tables, where the ruleset's tables give it)"))
    return None


SHARED: Components[Any] = Components()
"""Components any ruleset's recipe may name (the back-offset check sheet...)."""


@SHARED("duplex-check")
def _duplex_check(ctx: Context[Any], arg: str | None) -> Component:
    """The back-offset calibration sheet for double-sided printing."""
    from generator.pieces.duplexcheck import render_duplex_check

    return render_duplex_check(ctx.paper, ctx.options.sheets.duplex,
                               ctx.options.sheets.back_offset,
                               f"quarterdeck · {ctx.values.get('scenario_name', '')}")


class OddsIndex(Protocol):
    """A ruleset's answers to ``quarterdeck odds``, as kept in the user cache."""

    def print_answer(self, firer: str, target: str, weapon: str | None, band: str | None,
                     scenario: str | None) -> None:
        """Print one matchup (UsageError for a ship, weapon or band it does not know)."""


# ---- commands and calculators (issue 28): the part of the seam ``quarterdeck`` reads ----

@dataclass(frozen=True)
class Calculator:
    """One kind of question a ruleset answers exactly in the terminal, and its command.

    Attributes:
        command: The ``quarterdeck`` command that asks it: ``odds`` (answered through
            ``Ruleset.odds``) or one of the ruleset's own ``commands()``.
        asks: What a question gives it, shown where another command is asked instead.

    """

    command: str
    asks: str


def commands_module(ruleset: Ruleset[Any]) -> Any:
    """The ``commands`` module beside a ruleset's own module, or None when it has none.

    A ruleset folder keeps its commands and calculators in ``commands.py`` (the same
    file name in every ruleset); a module that exists but fails to import is an error
    naming it, never a ruleset silently left without its commands.
    """
    import importlib
    import importlib.util
    import sys

    module = type(ruleset).__module__
    package = module if hasattr(sys.modules.get(module), "__path__") \
        else module.rpartition(".")[0]
    if not package:
        return None
    name = f"{package}.commands"
    try:
        if importlib.util.find_spec(name) is None:
            return None
        return importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 - any failure at import: the module is named
        from generator.data.registry import RulesetImportError

        raise RulesetImportError(f"ruleset '{ruleset.name}': its commands module {name} "
                                 f"cannot be imported: {exc}") from exc


def _named(calculators: Iterable[Calculator]) -> str:
    """The commands that answer, each group asking the same thing followed by what it asks."""
    groups: list[tuple[list[str], str]] = []
    for one in calculators:
        if groups and groups[-1][1] == one.asks:
            groups[-1][0].append(one.command)
        else:
            groups.append(([one.command], one.asks))
    return " and ".join(" and ".join(f"`quarterdeck {c}`" for c in commands) + f" ({asks})"
                        for commands, asks in groups)

# ---- end of commands and calculators ---------------------------------------------------


class Ruleset(Generic[D]):
    """A rule system's plug. Subclasses set the class attributes and ``prepare``.

    Generic in the ruleset's own derived data (``class MyGame(Ruleset[Derived])``): its
    ``prepare`` returns a ``Context[Derived]`` and its components read ``ctx.data`` typed.
    Everything below ``prepare`` is a hook with a default; the pipeline, the commands and
    the data layer call nothing else on a ruleset.

    Attributes:
        name: Registry name (``my-rules``), also the ``ruleset:`` of data files.
        title: Name as printed.
        folder: The ruleset's folder (``kit.yaml``, ``tables/``, ``sprues/``).
        data_kinds: Data file kinds this ruleset reads, ``kind:`` -> model; every ruleset
            has ``scenario`` and most ``ship-class``.
        components: The ruleset's component registry.
        default_scenario: What ``quarterdeck build`` builds when this is the default.
        order: Position in listings; the lowest is the default ruleset.
        templates: Folder name of the ruleset's templates under ``templates/``.
        override_tables: The bundled tables (file names in ``tables/``) that ``--tables``
            may replace, for ``quarterdeck tables --export``; None: every file there.
        preview_names: Names ``quarterdeck preview --component`` accepts besides the
            class recipe's own component names, each naming one of them
            (``{"status": "sheets"}``).
        rates_missile_era: Whether its ``rating.derive`` also rates shared classes with
            missile-era facts (``modern:``); the others never see such classes.
        converts_old_files: Whether it once kept class files of its own, which
            ``from_old_file`` turns into shared ones (``quarterdeck convert``).
        old_file_lacks: What those old files lack that other rulesets need ("gun
            positions, ranges or rounds"): ``convert`` marks every other ruleset unrated
            for that reason. None: they lack nothing.

    """

    name: ClassVar[str]
    title: ClassVar[str]
    folder: ClassVar[Path]
    data_kinds: ClassVar[dict[str, type[BaseModel]]]
    components: ClassVar[Components[Any]]
    default_scenario: ClassVar[str | None] = None
    order: ClassVar[int] = 100
    templates: ClassVar[str | None] = None
    override_tables: ClassVar[tuple[str, ...] | None] = None
    preview_names: ClassVar[dict[str, str]] = {}
    rates_missile_era: ClassVar[bool] = False
    converts_old_files: ClassVar[bool] = False
    old_file_lacks: ClassVar[str | None] = None

    # ---- the one thing every ruleset writes ----------------------------------------

    def prepare(self, library: Library, request: Request, paper: Paper,
                options: KitOptions) -> Context[D]:
        """Derive everything the request's components need (ships, tables, calculators).

        Raises:
            UsageError: The request does not apply to this ruleset.
            DataError: The scenario's data is inconsistent.

        """
        raise NotImplementedError

    # ---- defaults ------------------------------------------------------------------

    @functools.cached_property
    def recipes(self) -> KitRecipes:
        """The ruleset's ``kit.yaml``, checked against the registered components."""
        from generator.cache import key, remember, slot
        from generator.kit.recipe import KitRecipes, load_recipes

        names = [*self.components.names(), *SHARED.names()]
        path = self.folder / "kit.yaml"
        # Checked recipes are cached under everything they depend on (the file's bytes,
        # the component names, the code), so a build need not parse YAML at all.
        try:
            text = path.read_bytes()
        except OSError:
            text = b""
        return remember(slot("recipes", self.name),
                        key("recipes", text, str(path), names) if text else None,
                        lambda: load_recipes(path, f"{self.name}/kit.yaml", names),
                        KitRecipes)

    def recipe(self, command: Command) -> Recipe:
        """The recipe for ``command``, or a UsageError saying the ruleset has none."""
        from generator.kit.recipe import COMMANDS

        assert command in COMMANDS
        found: Recipe | None = getattr(self.recipes, "class_" if command == "class" else command)
        if found is None:
            from generator.kit.instead import instead

            raise UsageError(f"{self.title} has no '{command}' output; "
                             f"{instead(self, command)}")
        return found

    def component(self, name: str) -> ComponentFn[D]:
        """The component registered under ``name`` (the ruleset's own, then shared)."""
        found: ComponentFn[D]
        try:
            found = self.components.get(name)
        except KeyError:
            found = SHARED.get(name)
        return found

    @property
    def class_model(self) -> type[BaseModel] | None:
        """The ship-class model, if the ruleset reads ship classes."""
        return self.data_kinds.get("ship-class")

    @property
    def scenario_model(self) -> type[BaseModel]:
        """The scenario model."""
        return self.data_kinds["scenario"]

    def check(self, library: Library) -> tuple[list[Problem], list[str]]:
        """Cross-file problems and warnings (default: none beyond each file's schema).

        Run by ``quarterdeck check`` and before every build, over the whole library.
        """
        return [], []

    # ---- commands and calculators (issue 28): read from the ruleset's commands.py --------

    def commands(self) -> Iterable[click.Command]:
        """Extra ``quarterdeck`` commands: ``commands()`` of its ``commands.py`` (or none)."""
        import click

        module = commands_module(self)
        found = list(module.commands()) if module is not None else []
        if not all(isinstance(c, click.Command) for c in found):
            raise TypeError(f"ruleset '{self.name}': commands() must give click commands")
        return found

    def calculators(self) -> tuple[Calculator, ...]:
        """Its calculators: ``CALCULATORS`` of its ``commands.py`` (default: none).

        ``quarterdeck odds`` answers through ``odds`` for a ruleset with an ``odds``
        calculator, and names the commands that answer for one with other calculators.
        """
        found = getattr(commands_module(self), "CALCULATORS", ())
        if not isinstance(found, tuple) or not all(isinstance(c, Calculator) for c in found):
            raise TypeError(f"ruleset '{self.name}': CALCULATORS must be a tuple of "
                            "Calculator")
        return found

    def odds(self, library: Library, scenario: str | None, firer: str, target: str,
             weapon: str | None, band: str | None, tables: Path | None) -> None:
        """Print one matchup's exact odds (``quarterdeck odds``).

        The default prints none: it names the ruleset's calculators that answer instead,
        or says it has none.
        """
        elsewhere = [c for c in self.calculators() if c.command != "odds"]
        if elsewhere:
            raise UsageError(f"{self.title} answers its odds with {_named(elsewhere)}, not "
                             "`quarterdeck odds`")
        raise UsageError(f"{self.title} has no odds calculator; `quarterdeck tables` "
                         "prints what it resolves")

    # ---- end of commands and calculators -----------------------------------------------

    def odds_index(self, library: Library, tables: Path | None,
                   complete: bool) -> OddsIndex | None:
        """What ``quarterdeck odds`` may keep in the user cache to answer from (None: no index).

        A ruleset that returns one has every question answered by the index's
        ``print_answer``, and the index is pickled into the user cache keyed by the
        library, the code and the ``tables`` file. Its module should import no schema
        or tables: a cached index then answers without loading them. With ``complete``
        it holds every result its questions can ask for, computed now.
        """
        return None

    def describe_class(self, entry: Entry) -> tuple[str, str, str, str]:
        """(id, name, nation, type) of a class, for listings."""
        cls = entry.model
        nation = getattr(cls, "nation", "")
        kind = getattr(cls, "type", "")
        return (str(cls.id), str(cls.name), str(getattr(nation, "value", nation)),
                str(getattr(kind, "value", kind)))

    def from_old_file(self, data: dict[str, Any]) -> dict[str, Any]:
        """A shared class file's data from one of its old class files (``quarterdeck convert``).

        Only asked of a ruleset that says ``converts_old_files``; the default refuses.

        Raises:
            UsageError: The ruleset kept no class files of its own.

        """
        raise UsageError(f"{self.title} kept no class files of its own to convert")

    def new_class_yaml(self, class_id: str, nation: str, ship_type: str) -> str:
        """A commented class file to start from, its unknowns as placeholders.

        A ruleset that reads ship classes shares the one class file (and its scaffold,
        ``shipclass/new-class.yaml.j2``); another uses its own ``new-class.yaml.j2``.
        """
        from generator.pages.templating import render_text

        if self.class_model is not None:
            return new_class_yaml(class_id, nation, ship_type)
        if self.templates is None:
            raise UsageError(f"{self.title} has no class scaffold")
        return render_text(f"{self.templates}/new-class.yaml.j2", escape=False, id=class_id,
                           nation=nation, type=ship_type)

    def new_scenario_yaml(self, scenario_id: str) -> str:
        """A scenario file to start from (``quarterdeck new-scenario``).

        Default: every field of the scenario model, required ones as placeholders
        ``check`` refuses until they are filled in (``generator.data.scaffold``).
        """
        from generator.data.scaffold import model_scenario_yaml

        return model_scenario_yaml(self.scenario_model, self.name, self.title, scenario_id)

    def schema_reference(self) -> str:
        """The Markdown reference page for the data schema (generic: one table a model)."""
        from generator.data.schemadoc import generic_reference

        return generic_reference(self.title, self.data_kinds)

    def catalog(self, library: Library, paper: Paper) -> Component:
        """The list of every class (generic: id, name, nation and type)."""
        from generator.kit.catalog import render_listing

        rows = [self.describe_class(e) for e in library.classes_of(self.name).values()]
        return render_listing(f"{self.title}: ship classes", rows, paper)


def new_class_yaml(class_id: str, nation: str, ship_type: str) -> str:
    """A commented shared class file to start from (``quarterdeck new-class``)."""
    from generator.pages.templating import render_text

    return render_text("shipclass/new-class.yaml.j2", escape=False, id=class_id,
                       nation=nation, type=ship_type)
