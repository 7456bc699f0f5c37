"""The data library: every YAML file of the bundled data and the user's folders.

Files describe themselves (``kind:`` and ``ruleset:``), so a user's folder may be laid
out any way they like. A user's class or scenario with the same id as a bundled one
replaces it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from generator.core.errors import DataError, Problem
from generator.core.suggest import did_you_mean
from generator.data.bundled import bundled_dir
from generator.data.entry import Entry as Entry  # re-exported
from generator.data.entry import Frozen
from generator.data.files import UNDECODABLE as UNDECODABLE  # re-exported
from generator.data.files import data_files as data_files  # re-exported
from generator.data.files import decodable, display_name
from generator.data.registry import REGISTRY
from generator.data.yamlsource import MAX_FILE_BYTES, SourceDoc, load_yaml

if TYPE_CHECKING:  # imported where used: a command answered from the cache needs no pydantic
    from pydantic import BaseModel

    from generator.cache import Key
    from generator.data.shipclass import ShipClass as SharedClass


def kinds() -> list[str]:
    """Every data kind some registered ruleset reads (``ship-class``, ``scenario``...)."""
    return list(dict.fromkeys(k for r in REGISTRY.values() for k in r.data_kinds))


def bundled_data_dir() -> Path:
    """Folder of the bundled ship data."""
    return bundled_dir("quarterdeck_shipdata", "shipdata")


_NO_KEY: Any = object()
"""Default of the ``key`` arguments: compute the cache key here."""

@dataclass
class Library:
    """Every class and scenario, by ruleset and id, plus what went wrong loading them."""

    classes: dict[str, dict[str, Entry]] = field(default_factory=dict)
    scenarios: dict[str, Entry] = field(default_factory=dict)
    other: dict[tuple[str, str], dict[str, Entry]] = field(default_factory=dict)
    """Files of the other kinds a ruleset declares (units, counters, decks...), by
    (ruleset, kind) and id."""
    _refitted: dict[tuple[str, str, str, Any], Any] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unrated: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per ruleset: shared classes it cannot rate, with the reason (issue 14)."""
    user_classes: dict[str, str] = field(default_factory=dict)
    """The user's shared class files, id to file as shown (``check`` reports on these)."""
    font_warnings: list[str] = field(default_factory=list)
    """Every ship whose name has a character no bundled font draws (``font_warnings``):
    found once when the library is checked, shown by every build."""

    def __getstate__(self) -> dict[str, Any]:
        # Every entry frozen with one memo, so values entries share are stored once.
        memo: dict[int, Frozen] = {}

        def frozen(entry: Entry) -> Entry:
            copy = Entry.__new__(Entry)
            copy.__dict__.update(entry.frozen_state(memo))
            return copy

        state = dict(self.__dict__)
        state["classes"] = {r: {i: frozen(e) for i, e in table.items()}
                            for r, table in self.classes.items()}
        state["scenarios"] = {i: frozen(e) for i, e in self.scenarios.items()}
        state["other"] = {k: {i: frozen(e) for i, e in table.items()}
                          for k, table in self.other.items()}
        state["_refitted"] = {}  # rebuilt on demand; may hold models of any ruleset
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def classes_of(self, ruleset: str) -> dict[str, Entry]:
        """Classes of one ruleset, by id."""
        return self.classes.setdefault(ruleset, {})

    def model_at(self, ruleset: str, class_id: str, ship: str, date: Any) -> Any:
        """A class's rating for one ship on a date: her refits applied, if she had any.

        A ship whose fits (``ships[].fits``) took effect by ``date`` is rated from the
        facts as she carried them then; any other ship gets the class's rating.
        """
        from generator.data.shipclass import deriver, facts_at

        entry = self.classes_of(ruleset)[class_id]
        facts = entry.facts
        if facts is None:
            return entry.model
        carried = next((s for s in facts.ships if s.name == ship or ship in s.aka), None)
        if carried is None or not any(f.from_ <= date for f in carried.fits):
            return entry.model
        key = (ruleset, class_id, ship, date)
        if key not in self._refitted:
            rating = deriver(ruleset)(facts_at(facts, ship, date))
            self._refitted[key] = rating.model if rating.model is not None else entry.model
        return self._refitted[key]

    def of_kind(self, ruleset: str, kind: str) -> dict[str, Entry]:
        """Files of one data kind of one ruleset, by id."""
        if kind == "ship-class":
            return self.classes_of(ruleset)
        if kind == "scenario":
            return {i: e for i, e in self.scenarios.items() if e.of_ruleset() == ruleset}
        return self.other.setdefault((ruleset, kind), {})


def _cache_key(user_paths: list[Path] | tuple[Path, ...], bundled: bool) -> Key | None:
    """Everything a loaded library depends on, or None when it cannot be cached.

    Besides quarterdeck's version and code (which ``key`` always adds): the registered
    rulesets, the working folder (user files are named relative to it) and the path and
    SHA-256 of every data file read, so a changed, added or removed file is always a miss.
    """
    import hashlib
    import stat

    from generator.cache import code_stamp, key
    from generator.data.registry import cache_key

    rulesets = cache_key()
    if rulesets is None:  # a ruleset registered at run time: its code is not stamped
        return None
    digest = hashlib.sha256()
    roots = ([bundled_data_dir()] if bundled else []) + list(user_paths)
    for root in roots:
        if not root.exists():
            continue
        digest.update(os.fsencode(root.resolve()) + b"\0")
        for path in data_files(root):
            # Only regular files are hashed (a pipe would block; the loader reports it).
            try:
                info = os.stat(path)
                if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
                    return None
                with open(path, "rb") as handle:
                    content = handle.read()
            except OSError:
                return None
            # A file name need not be UTF-8: its bytes, as the file system has them.
            digest.update(os.fsencode(path) + f"\0{len(content)}\0".encode())
            digest.update(_content_digest(content))
        # check validates the images a class names with the YAML: an edited SVG must
        # be a miss too (an edit always changes a file's size or time).
        digest.update(code_stamp([root], IMAGE_SUFFIXES).encode())
    # The bundled files are named the same from any folder; a user's file relative to it.
    return key("library", rulesets, str(Path.cwd()) if user_paths else "", bundled,
               [str(p) for p in user_paths], digest.digest())


IMAGE_SUFFIXES = (".png", ".svg")
"""Files a data file may name (``marker_image``, a logo): checked with the data."""


def _content_digest(content: bytes) -> bytes:
    """SHA-256 of a file's bytes (the bytes themselves are the key, so never stale)."""
    import hashlib

    return hashlib.sha256(content).digest()


def load_library(user_paths: list[Path] | tuple[Path, ...] = (), *,
                 bundled: bool = True) -> Library:
    """Load and validate every data file; never raises for bad data.

    A library loaded before from exactly the same files and code comes from the user
    cache (``generator.cache``) instead of being parsed and validated again.

    Args:
        user_paths: The user's folders or files (``--data``), in order of precedence.
        bundled: Include the bundled data.

    Returns:
        The library, with ``problems`` listing everything wrong in any file.

    """
    return _cached("library-user" if user_paths else "library", user_paths, bundled,
                   lambda: _load_library(user_paths, bundled))


def checked_library(user_paths: list[Path] | tuple[Path, ...] = (),
                    key: Any = _NO_KEY) -> Library:
    """The bundled data plus ``user_paths``, loaded and run through every ruleset's ``check``.

    Cached like ``load_library``, checks included, so a command that only reports
    (``check``) imports no ruleset when nothing changed. ``key`` is
    ``checked_key(user_paths)`` when the caller already has it.
    """
    def load_and_check() -> Library:
        library = _load_library(user_paths, True)
        for ruleset in REGISTRY.values():
            problems, warnings = ruleset.check(library)
            library.problems.extend(problems)
            library.warnings.extend(warnings)
        library.font_warnings = font_warnings(library)
        return library

    # Bundled-only and with the user's folders in entries of their own: a build with
    # --data does not push out what every plain command reads.
    return _cached("checked-user" if user_paths else "checked", user_paths, True,
                   load_and_check, key)


def font_warnings(library: Library) -> list[str]:
    """Name every ship whose name has a character no bundled font can draw."""
    from generator.core import fonts

    warnings = []
    for name in REGISTRY:  # names only: no ruleset is imported for this
        for entry in library.classes_of(name).values():
            # A shared class file's ships are its facts' ships (every ruleset's rating
            # names them alike), read without importing the ruleset of each rating.
            named = entry.facts if entry.facts is not None else entry.model
            for ship in getattr(named, "ships", []):
                missing = fonts.missing_characters(ship.name)
                if missing:
                    warnings.append(f"{entry.doc.display}: ship '{ship.name}' has "
                                    f"{_unprintable(missing)}")
    for entry in library.scenarios.values():
        warnings.extend(_scenario_font_warnings(entry.doc))
    return warnings


def _unprintable(missing: list[str]) -> str:
    """The end of a glyph warning: the characters, by code point, and what they do."""
    chars = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
    return f"{chars} that no bundled font can print; it would show as an empty box"


def _scenario_font_warnings(doc: Any) -> list[str]:
    """Located warnings for a scenario's text that no bundled font can draw.

    A scenario's briefings, set-up names and sources print as they are, so a character
    such as the prime of 9\u2032S would print as an empty box on every packet.
    """
    from generator.core import fonts
    from generator.data.yamlsource import dotted

    found: list[str] = []

    def walk(value: Any, loc: tuple[Any, ...]) -> None:
        if isinstance(value, str):
            missing = fonts.missing_characters(value)
            if missing:
                line, column = doc.mark(loc)
                found.append(f"{doc.display}:{line}:{column}: {dotted(loc)}: has "
                             f"{_unprintable(missing)}")
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*loc, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*loc, index))

    walk(doc.data, ())
    return found


def validated_library(data: list[Path], key: Any = _NO_KEY) -> Library:
    """Load every data file and run every ruleset's cross-checks.

    ``key`` is ``checked_key(data)`` when the caller already has it.

    Raises:
        DataError: With every problem found, in every file.

    """
    library = checked_library(data, key)
    if library.problems:
        raise DataError(library.problems)
    return library


@dataclass
class Listing:
    """One ruleset as ``quarterdeck list`` shows it."""

    title: str
    classes: list[tuple[str, str, str, str]]
    """(id, name, nation, type) of every class it rates, by nation, then name."""
    scenarios: int


@dataclass
class Summary:
    """What ``check`` and ``list`` print about the checked library, as plain strings.

    Cached under the checked library's own key, so with unchanged code and data these
    commands unpickle no model and import no ruleset (nor pydantic).
    """

    key: str | None
    """The cache key it was stored under (None: not cacheable)."""
    problems: list[Problem] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unrated: list[str] = field(default_factory=list)
    """One line per bundled class a ruleset cannot rate (``shipclass.unrated_lines``)."""
    yours: list[str] = field(default_factory=list)
    """For each of the user's classes: the rulesets that rate it, and why each other not."""
    classes: int = 0
    """Class files (ids), each counted once however many rulesets rate it."""
    rulesets: dict[str, Listing] = field(default_factory=dict)
    """Every ruleset, in listing order."""
    scenarios: list[tuple[str, str, str, str, str]] = field(default_factory=list)
    """(id, ruleset, name, date, ships) of every scenario, by id."""


def checked_key(user_paths: list[Path] | tuple[Path, ...] = ()) -> Key | None:
    """The key ``checked_library`` and ``summary`` are cached under (None: not cached)."""
    return _cache_key(user_paths, True)


def summary(user_paths: list[Path] | tuple[Path, ...] = (), key: Any = _NO_KEY) -> Summary:
    """The checked library (bundled plus ``user_paths``) summed up for ``check`` and ``list``.

    Args:
        user_paths: The user's folders or files (``--data``).
        key: ``checked_key(user_paths)`` when the caller already has it.

    """
    from generator.cache import remember, slot

    found = checked_key(user_paths) if key is _NO_KEY else key
    # One file per set of user folders: `check` and `check mydata` in turn both hit.
    where = slot("summary", str(Path.cwd()), [str(p) for p in user_paths]) if user_paths \
        else "summary"
    return remember(where, found, lambda: _summed(user_paths, found), Summary)


def _summed(user_paths: list[Path] | tuple[Path, ...], found: Key | None) -> Summary:
    """``summary`` made from the checked library (kept under ``found``)."""
    library = checked_library(user_paths, found)
    # A glyph no font draws is the check's to report too, not only the build's.
    made = Summary(found, list(library.problems), list(library.notices),
                   [*library.warnings, *library.font_warnings])
    if not made.problems:
        from generator.data.checkreport import rating_lines, user_class_ids
        from generator.data.shipclass import unrated_lines

        yours = user_class_ids(library)
        made.unrated = [line for line in unrated_lines(library)
                        if line.split("'")[1] not in yours]
        made.yours = [line for cid in sorted(yours)
                      for line in rating_lines(library, cid, yours[cid])]
        made.classes = len({cid for r in REGISTRY for cid in library.classes_of(r)}
                           | {cid for table in library.unrated.values() for cid in table})
        for name, ruleset in REGISTRY.items():
            described = sorted((ruleset.describe_class(e)
                                for e in library.classes_of(name).values()),
                               key=lambda d: d[2:0:-1])
            count = sum(1 for e in library.scenarios.values() if e.of_ruleset() == name)
            made.rulesets[name] = Listing(ruleset.title, described, count)
        for sid, entry in sorted(library.scenarios.items()):
            model = entry.model
            # A campaign game's start file has teams, not sides with ships.
            ships = sum(len(getattr(s, "ships", ())) for s in getattr(model, "sides", ()))
            made.scenarios.append((sid, model.ruleset, model.name,
                                   getattr(model, "date_label", None) or str(model.date),
                                   str(ships)))
    return made


class Asked(Protocol):
    """What ``owner_name`` reads of a request (``generator.kit.seam.Request`` has it)."""

    @property
    def scenario(self) -> str | None:
        """The scenario asked for."""

    @property
    def ruleset(self) -> str | None:
        """The ruleset named (``--ruleset``)."""

    @property
    def class_id(self) -> str | None:
        """The class asked for (``build --class``)."""


def owner_name(library: Library, request: Asked) -> str:
    """The name of the ruleset that serves a request, found without importing a ruleset.

    Raises:
        UsageError: Naming the class, ruleset or scenario that does not exist.

    """
    from generator.core.errors import UsageError

    if request.class_id is not None:
        owners = raters(library, request.class_id)
        if request.ruleset is not None:
            if request.ruleset not in REGISTRY:
                raise UsageError(f"no ruleset '{request.ruleset}'"
                                 f"{did_you_mean(request.ruleset, REGISTRY)}")
            if request.ruleset not in owners:
                why = library.unrated.get(request.ruleset, {}).get(request.class_id)
                raise UsageError(f"{REGISTRY[request.ruleset].title} does not rate the class "
                                 f"'{request.class_id}'" + (f": {why}" if why else ""))
            return request.ruleset
        if not owners:
            every = {c for r in REGISTRY for c in library.classes_of(r)}
            raise UsageError(f"no class '{request.class_id}'"
                             f"{did_you_mean(request.class_id, sorted(every))}")
        return owners[0]
    if request.scenario is None:
        return next(iter(REGISTRY))  # the ruleset listed first
    entry = library.scenarios.get(request.scenario)
    if entry is None:
        raise UsageError(f"no scenario '{request.scenario}'"
                         f"{did_you_mean(request.scenario, library.scenarios)}; "
                         "`quarterdeck list scenarios` shows them")
    return str(entry.of_ruleset())


def raters(library: Library, class_id: str) -> list[str]:
    """The rulesets that rate a class, in registry order."""
    return [name for name in REGISTRY if class_id in library.classes_of(name)]


def _cached(name: str, user_paths: list[Path] | tuple[Path, ...], bundled: bool,
            load: Callable[[], Library], key: Any = _NO_KEY) -> Library:
    from generator.cache import remember

    found: Key | None = _cache_key(user_paths, bundled) if key is _NO_KEY else key

    def made() -> Library:
        library = load()
        if found is not None:
            library._refitted.clear()  # rebuilt on demand; may hold models of any ruleset
        return library

    return remember(name, found, made, Library)


def _load_library(user_paths: list[Path] | tuple[Path, ...], bundled: bool) -> Library:
    from generator.data.shipclass import ShipClass as SharedClass

    layers: list[tuple[Path, bool]] = []
    missing: list[Problem] = []
    if bundled and user_paths:
        # The bundled layer rarely changes while a user's files do: it comes from its own
        # cache entry ("library"; one with the user's files is "library-user") and only
        # the user's layers are read and validated here.
        library = load_library((), bundled=True)
    else:
        library = Library()
        if bundled:
            layers.append((bundled_data_dir(), True))
    for path in user_paths:
        if not path.exists():  # also a link that loops or leads nowhere: say which
            found = "a symbolic link that loops or leads nowhere" if path.is_symlink() \
                else "no such file or folder"
            missing.append(Problem(str(path), 0, 0, "", f"found {found}, expected a data "
                                                        "folder"))
            continue
        layers.append((path, False))
    library.problems[0:0] = missing  # reported first, as before the bundled layer
    for root, is_bundled in layers:
        seen_here: dict[tuple[str, str, str], str] = {}
        base = root if root.is_dir() else root.parent
        for path in data_files(root):
            display = display_name(path, base, is_bundled)
            if not decodable(path, base):
                library.problems.append(Problem(display, 0, 0, "", UNDECODABLE))
                continue
            entry = _load_entry(path, display, is_bundled, library)
            if entry is None:
                continue
            entry.root = base.resolve()
            kind = entry.doc.data["kind"]
            # Class ids are per ruleset (a Takao for each); scenario ids are global, since
            # a build names only the scenario.
            key = (kind, getattr(entry.model, "ruleset", "") if kind != "scenario" else "",
                   entry.model.id)
            if key in seen_here:
                library.problems.append(entry.doc.problem(
                    ("id",), f"found id '{entry.model.id}' again (also in {seen_here[key]}), "
                             "expected each id once"))
                continue
            seen_here[key] = display
            if isinstance(entry.model, SharedClass):
                _add_shared_class(entry, display, is_bundled, library)
                continue
            if kind == "scenario":
                table = library.scenarios
            else:
                table = library.of_kind(entry.model.ruleset, kind)
            if entry.model.id in table and not is_bundled:
                library.notices.append(f"{display}: replaces the bundled {kind} "
                                       f"'{entry.model.id}'")
            table[entry.model.id] = entry
    return library


def _load_entry(path: Path, display: str, is_bundled: bool, library: Library) -> Entry | None:
    from generator.data.validation import describe, validate

    doc, problems = load_yaml(path, display)
    if not problems:  # a scaffold's placeholders are refused before the schema looks
        from generator.data.scaffold import placeholder_problems

        problems = placeholder_problems(doc)
    if problems:
        library.problems.extend(problems)
        return None
    data = doc.data
    if not isinstance(data, dict):
        library.problems.append(doc.problem((), f"found {describe(data)}, expected a mapping "
                                                 "with 'kind' and 'ruleset'"))
        return None
    kind, ruleset_name = data.get("kind"), data.get("ruleset")
    known = kinds()
    if kind not in known:
        library.problems.append(doc.problem(
            ("kind",), f"found {describe(kind)}, expected one of {', '.join(known)}"
            f"{did_you_mean(str(kind), known) if isinstance(kind, str) else ''}"))
        return None
    if kind == "ship-class" and "ruleset" not in data:
        return _load_shared_class(path, doc, is_bundled, library)
    if not isinstance(ruleset_name, str) or ruleset_name not in REGISTRY:
        library.problems.append(doc.problem(
            ("ruleset",), f"found {describe(ruleset_name)}, expected one of "
            f"{', '.join(REGISTRY)}"
            f"{did_you_mean(str(ruleset_name), REGISTRY) if isinstance(ruleset_name, str) else ''}"
        ))
        return None
    ruleset = REGISTRY[ruleset_name]
    if kind not in ruleset.data_kinds:
        library.problems.append(doc.problem(
            ("kind",), f"found '{kind}', expected a kind {ruleset.title} reads: "
            f"{', '.join(ruleset.data_kinds)}"))
        return None
    model: type[BaseModel] = ruleset.data_kinds[kind]
    instance, problems = validate(model, doc)
    if problems or instance is None:
        library.problems.extend(problems)
        return None
    stem = path.stem
    found_id = getattr(instance, "id", stem)
    if found_id != stem:
        library.problems.append(doc.problem(("id",), f"found '{found_id}', "
                                                     f"expected '{stem}' "
                                                     "(the file name without .yaml)"))
        return None
    if kind == "ship-class" and not is_bundled:
        library.warnings.append(f"{display}: a class file for {ruleset_name} only; run "
                                f"`quarterdeck convert {display}` to write it once for "
                                "every ruleset")
    return Entry(instance, doc, is_bundled, ruleset=ruleset_name)


# --- one ship library (issue 14): shared class files, rated by every ruleset ---------------

def _load_shared_class(path: Path, doc: SourceDoc, is_bundled: bool,
                       library: Library) -> Entry | None:
    """Validate a ruleset-less class file against the shared model and its cross-checks."""
    from generator.data.shipclass import ShipClass as SharedClass
    from generator.data.shipclass import cross_check
    from generator.data.validation import validate

    instance, problems = validate(SharedClass, doc)
    if problems or instance is None:
        library.problems.extend(problems)
        return None
    problems = cross_check(instance, doc)
    if instance.id != path.stem:
        problems.append(doc.problem(("id",), f"found '{instance.id}', expected '{path.stem}' "
                                             "(the file name without .yaml)"))
    if problems:
        library.problems.extend(problems)
        return None
    return Entry(instance, doc, is_bundled)


def _add_shared_class(entry: Entry, display: str, is_bundled: bool, library: Library) -> None:
    """Ask every ruleset to rate a shared class; file each rating under its ruleset."""
    from generator.data.shipclass import derivers, unknown_rulesets

    facts: SharedClass = entry.model
    if not is_bundled:
        library.user_classes[facts.id] = display
    found = derivers()
    library.problems.extend(entry.doc.problem(loc, message)
                            for loc, message in unknown_rulesets(facts, list(found)))
    for name, derive in found.items():
        rating = derive(facts)
        library.problems.extend(entry.doc.problem(loc, message)
                                for loc, message in rating.problems)
        unrated = library.unrated.setdefault(name, {})
        unrated.pop(facts.id, None)
        table = library.classes_of(name)
        if rating.model is None:
            if rating.unrated is not None:
                unrated[facts.id] = rating.unrated
                # A user's file that cannot be rated still hides the bundled rating.
                table.pop(facts.id, None)
            continue
        if facts.id in table and not is_bundled:
            library.notices.append(f"{display}: replaces the bundled ship-class "
                                   f"'{facts.id}' ({name})")
        table[facts.id] = Entry(rating.model, entry.doc, is_bundled, entry.root, facts,
                                rating.overrides)
