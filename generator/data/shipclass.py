# ruff: noqa: E501  (one field per line, as in the rulesets' schema.py files)
"""One ship class for every ruleset: the historical facts, written once.

A class file (``kind: ship-class`` with no ``ruleset:``) holds what a source can confirm:
ships and their dates, dimensions, speed, armour, guns, torpedoes, aircraft and radar.
Each ruleset turns those facts into its own ratings by rules it keeps as data (see each
ruleset's ``rating.py``); the optional ``ratings:`` block of a file overrides a derived
rating for one ruleset, or says why that ruleset cannot rate the class at all.

This module never names a ruleset: it finds each ruleset's deriver next to the ruleset's
own package (``<package>.rating.derive``).
"""

from __future__ import annotations

import datetime as dt
import enum
import importlib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from generator.core.suggest import did_you_mean
from generator.data.datamodel import Nation, Ship, Strict, once
from generator.data.radarsets import CATEGORIES, RADAR_SETS, category, expected
from generator.data.registry import RulesetImportError
from generator.data.validation import describe

if TYPE_CHECKING:
    from generator.core.errors import Problem
    from generator.data.yamlsource import Loc, SourceDoc

MM_PER_IN = 25.4


class ShipType(enum.StrEnum):
    """Every type any ruleset knows; each ruleset maps these to its own list."""

    BB = "BB"
    BC = "BC"
    CV = "CV"
    CVL = "CVL"
    CVE = "CVE"
    CA = "CA"
    CL = "CL"
    CLAA = "CLAA"
    DL = "DL"
    DD = "DD"
    DE = "DE"
    TB = "TB"
    SS = "SS"
    AK = "AK"
    AP = "AP"
    AKL = "AKL"
    AKS = "AKS"
    FF = "FF"
    PG = "PG"
    MS = "MS"
    LPD = "LPD"


MISSILE_ERA_TYPES = (ShipType.FF, ShipType.LPD, ShipType.MS, ShipType.PG)
"""Types only a missile-era rating reads: a class of one needs its ``modern:`` facts."""


class Position(enum.StrEnum):
    """Battery positions; each bears through its own arc of fire."""

    BOW = "BOW"
    C = "C"
    STN = "STN"
    L = "L"
    R = "R"
    LB = "LB"
    RB = "RB"
    LS = "LS"
    RS = "RS"


class Armor(Strict):
    """Armour as built, in inches."""

    belt_in: float = Field(ge=0, le=25, description="Main belt thickness in inches (0 if none).")
    deck_in: float = Field(0, ge=0, le=15, description="Main armour deck thickness in inches (0 if none).")
    old_deck: bool = Field(False, description="The 'O' flag: weak pre-1922 deck armour never substantially thickened.")


class GunBattery(Strict):
    """Guns of one bore in one position."""

    position: Position = Field(description="BOW, C, STN, L, R, LB, RB, LS or RS.")
    guns: int = Field(ge=1, le=40, description="Number of guns in the battery.")
    bore_in: float = Field(gt=0, le=20, description="Bore in inches (8 for 8-inch, 5.9 for 150 mm).")
    old: bool = Field(False, description="A gun model designed before 1922.")
    max_range_yd: int | None = Field(None, ge=1000, le=50000, description="Maximum range in yards.")
    rounds_per_gun: int | None = Field(None, ge=1, le=2000, description="Rounds carried per gun.")
    dp: bool = Field(False, description="Dual-purpose (surface and anti-aircraft) guns.")
    turrets: int | None = Field(None, ge=1, le=20, description="Number of mounts (turrets) in the battery.")
    note: str | None = Field(None, max_length=500, description="Free text, e.g. '5in/25 single mounts'.")


class AAGuns(Strict):
    """Heavy AA guns that are not also listed as surface batteries."""

    guns: int = Field(ge=1, le=60, description="Number of guns.")
    bore_in: float = Field(gt=0, le=6, description="Bore in inches.")
    note: str | None = Field(None, max_length=500, description="Free text, e.g. '4in/45 HA twin mounts'.")


class TorpedoMount(Strict):
    """Identical torpedo mounts; the bore as the source gives it, in inches or millimetres."""

    size_in: float | None = Field(None, ge=12, le=30, description="Torpedo diameter in inches (21, 24.5...).")
    size_mm: float | None = Field(None, ge=300, le=760, description="Torpedo diameter in millimetres (533, 550, 610...).")
    mounts: int = Field(1, ge=1, le=12, description="How many such mounts (side mounts split evenly left/right).")
    tubes: int = Field(ge=1, le=10, description="Tubes per mount.")
    mount: Literal["side", "centerline"] = Field(description="'side' fires to its own side only; 'centerline' to either side.")
    reloads: int = Field(0, ge=0, le=20, description="Reload torpedoes per mount.")
    two_turn: bool = Field(False, description="Oxygen long-range torpedo (Japanese 24in Type 93).")
    run_yd: int | None = Field(None, ge=500, le=50000, description="Whole run in yards, where a source gives it.")
    note: str | None = Field(None, max_length=500, description="Free text.")

    @model_validator(mode="after")
    def _one_size(self) -> TorpedoMount:
        if (self.size_in is None) == (self.size_mm is None):
            raise ValueError("expected exactly one of size_in and size_mm")
        return self

    @property
    def inches(self) -> float:
        """The bore in inches, whichever unit it was entered in."""
        return self.size_in if self.size_in is not None else (self.size_mm or 0) / MM_PER_IN


class Radar(Strict):
    """A radar fit, from the date fitted: SC, SG, or a named set that counts as one of them."""

    type: str = Field(max_length=40, description="SC (early search set), SG (surface search set), or a named set that counts as one: " + ", ".join(f"{k} ({v.category})" for k, v in RADAR_SETS.items()) + ".")
    name: str | None = Field(None, max_length=40, description="The named set, where type gave one (kept for the reader; rulesets read the category).")
    fitted: dt.date = Field(description="Date first fitted (YYYY-MM-DD).")
    note: str | None = Field(None, max_length=500, description="The set as named by a source.")

    @model_validator(mode="before")
    @classmethod
    def _named_set(cls, data: Any) -> Any:
        """``type: Type 271`` becomes ``type: SG, name: Type 271`` (the table's category)."""
        if isinstance(data, dict) and isinstance(data.get("type"), str) \
                and data["type"] in RADAR_SETS:
            data = {**data, "type": RADAR_SETS[data["type"]].category,
                    "name": data.get("name", data["type"])}
        return data

    @field_validator("type")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in CATEGORIES:
            raise ValueError(expected())
        return value

    @model_validator(mode="after")
    def _agrees(self) -> Radar:
        if self.name is not None and category(self.name) != self.type:
            raise ValueError(f"expected name to be a set of category {self.type}: "
                             f"{', '.join(k for k, v in RADAR_SETS.items() if v.category == self.type)}")
        return self


class Aircraft(Strict):
    """Floatplanes or an air group (aircraft counts, before forming 6-plane elements)."""

    floatplanes: int = Field(0, ge=0, le=40, description="Floatplanes carried.")
    catapults: int = Field(0, ge=0, le=6, description="Catapults.")
    fighters: int = Field(0, ge=0, le=200, description="Fighters in the air group.")
    dive_bombers: int = Field(0, ge=0, le=200, description="Dive and scout bombers.")
    torpedo_bombers: int = Field(0, ge=0, le=200, description="Torpedo bombers.")


class ModernSystem(Strict):
    """A missile-era sensor, fire-control or countermeasure set and the year it entered service."""

    role: Literal["fcs", "eo", "esm", "ecm"] = Field(description="fcs (fire-control radar or director), eo (electro-optical director), esm (radar warning and intercept) or ecm (jamming and decoys).")
    name: str = Field(min_length=1, max_length=80, description="The set as a source names it, e.g. 'Type 909'.")
    year: int = Field(ge=1940, le=2100, description="Year the set (or the class fitted with it) entered service.")
    note: str | None = Field(None, max_length=500, description="Free text.")


class ModernWeapon(Strict):
    """A missile-era weapon fit: launchers or mounts of one weapon type."""

    weapon: str = Field(pattern=r"^[a-z0-9][a-z0-9.-]*$", max_length=40, description="Weapon id in the weapons table of the ruleset that rates it, e.g. 'exocet-mm38'.")
    launchers: int = Field(1, ge=1, le=60, description="Launchers, rails or mounts of this weapon.")
    rounds: int | None = Field(None, ge=1, le=5000, description="Missiles, torpedoes or bombs carried in all (None for guns).")
    note: str | None = Field(None, max_length=500, description="Free text, e.g. 'twin GWS30 launcher'.")


class Modern(Strict):
    """Missile-era facts: what a rating of a missile-age class reads (optional, additive)."""

    category: Literal["ship", "submarine"] = Field("ship", description="ship or submarine.")
    length_m: float | None = Field(None, ge=10, le=400, description="Overall length in metres, as the source gives it.")
    full_load_t: int | None = Field(None, ge=10, le=120000, description="Full-load displacement in tonnes.")
    complement: int | None = Field(None, ge=1, le=6000, description="Crew as built.")
    systems: list[ModernSystem] = Field(default_factory=list, max_length=30, description="Fire control, EO, ESM and ECM sets with their years.")
    weapons: list[ModernWeapon] = Field(default_factory=list, max_length=30, description="Weapon fits.")
    helicopters: int = Field(0, ge=0, le=100, description="Helicopters carried.")
    aircraft: int = Field(0, ge=0, le=200, description="Fixed-wing aircraft carried.")


class Fit(Strict):
    """One ship's armament from a date, where she differed from her sisters."""

    from_: dt.date = Field(alias="from", description="Date the fit applies from (YYYY-MM-DD).")
    guns: list[GunBattery] | None = Field(None, max_length=30, description="Her gun batteries from that date.")
    aa_guns: list[AAGuns] | None = Field(None, max_length=20, description="Her heavy AA guns from that date.")
    torpedoes: list[TorpedoMount] | None = Field(None, max_length=10, description="Her torpedo mounts from that date.")
    radar: list[Radar] | None = Field(None, max_length=10, description="Her radar from that date.")
    note: str | None = Field(None, max_length=500, description="What changed and why.")

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, populate_by_name=True)


class ClassShip(Ship):
    """A named ship of the class, with her own fits where she differed."""

    fits: list[Fit] = Field(default_factory=list, max_length=10, description="Her own armament from given dates (refits, rebuilds).")

    @model_validator(mode="after")
    def _fits_in_service(self) -> ClassShip:
        for fit in self.fits:
            if fit.from_ < self.commissioned:
                raise ValueError(f"expected each fit from {self.commissioned} "
                                 f"(commissioned) on, found {fit.from_}")
        return self


class ShipClass(Strict):
    """One ship class for every ruleset (one YAML file, no ``ruleset:``)."""

    kind: Literal["ship-class"] = Field(description="Always 'ship-class'.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60, description="Stable id, lowercase with hyphens; equal to the file name.")
    name: str = Field(min_length=1, max_length=60, description="Class name, 1-60 characters, e.g. 'Takao'.")
    nation: Nation = Field(description="Navy: " + ", ".join(n.value for n in Nation) + ".")
    type: ShipType = Field(description="Type: " + ", ".join(t.value for t in ShipType) + ".")
    ships: list[ClassShip] = Field(min_length=1, max_length=300, description="The ships of the class.")
    length_ft: float = Field(ge=50, le=1300, description="Overall length in feet, 50-1300 (a marker cannot draw a smaller craft).")
    displacement_t: int | None = Field(None, ge=50, le=100000, description="Standard displacement in long tons.")
    speed_kn: float = Field(gt=0, le=45, description="Maximum speed in knots.")
    modernised: dt.date | None = Field(None, description="Date of a reconstruction that modernised the class (fire control, machinery).")
    armor: Armor = Field(description="Armour facts.")
    guns: list[GunBattery] = Field(default_factory=list, max_length=30, description="Surface gun batteries.")
    aa_guns: list[AAGuns] = Field(default_factory=list, max_length=20, description="Heavy AA guns not listed as batteries.")
    torpedoes: list[TorpedoMount] = Field(default_factory=list, max_length=10, description="Torpedo mounts.")
    radar: list[Radar] = Field(default_factory=list, max_length=10, description="Radar fits with dates.")
    aircraft: Aircraft | None = Field(None, description="Floatplanes or air group.")
    armament: str | None = Field(None, max_length=1000, description="Guns and tubes as fitted, in words.")
    funnels: int | None = Field(None, ge=0, le=6, description="Funnels drawn on a generated silhouette.")
    marker_image: str | None = Field(None, pattern=r"(?i)^[^\\]+\.(png|svg)$", max_length=300, description="Your own top-down image for markers (PNG or SVG inside the data folder), bow to the right.")
    modern: Modern | None = Field(None, description="Missile-era facts; a class with them is rated only by rulesets that rate missile-era classes.")
    ratings: dict[str, dict[str, Any]] = Field(default_factory=dict, max_length=20, description="Per ruleset: ratings that replace derived ones, or {unrated: why}.")
    sources: list[str] = Field(min_length=1, max_length=40, description="Where the facts came from (title, address, which facts).")
    unverified: list[str] = Field(default_factory=list, max_length=500, description="Field paths of figures no source confirmed.")
    discrepancies: list[str] = Field(default_factory=list, max_length=40, description="Where sources or earlier files disagreed, which figure was kept and why.")
    notes: str | None = Field(None, max_length=4000, description="Designer's notes (your own words).")

    @field_validator("ships")
    @classmethod
    def _unique_names(cls, ships: list[ClassShip]) -> list[ClassShip]:
        once([s.name for s in ships], "ship")
        return ships

    @field_validator("sources", "unverified", "discrepancies")
    @classmethod
    def _bounded_lines(cls, values: list[str]) -> list[str]:
        for value in values:
            if len(value) > 1000:
                raise ValueError("expected lines of at most 1000 characters")
        return values

    def last_lost(self) -> dt.date | None:
        """The day the class's last ship was lost, or None while one survived."""
        if any(s.lost is None for s in self.ships):
            return None
        return max(s.lost for s in self.ships if s.lost is not None)


def cross_check(model: ShipClass, doc: SourceDoc) -> list[Problem]:
    """Facts that contradict each other, located in the file."""
    problems = []
    batteries: list[tuple[Loc, GunBattery]] = [(("guns", i), b) for i, b in enumerate(model.guns)]
    batteries += [(("ships", si, "fits", fi, "guns", i), b)
                  for si, ship in enumerate(model.ships) for fi, fit in enumerate(ship.fits)
                  for i, b in enumerate(fit.guns or [])]
    for loc, battery in batteries:
        if battery.turrets is not None and battery.turrets > battery.guns:
            problems.append(doc.problem((*loc, "turrets"), f"found {battery.turrets} mounts, "
                                        f"expected at most {battery.guns} (the battery's "
                                        "guns, one or more in each mount)"))
    if model.modern is None and model.type in MISSILE_ERA_TYPES:
        gun_era = [t.value for t in ShipType if t not in MISSILE_ERA_TYPES]
        problems.append(doc.problem(("type",), (
            f"found '{model.type.value}' in a class with no modern: block, expected a "
            f"gun-era type ({', '.join(gun_era)}) or the class's missile-era facts under "
            f"modern: ({', '.join(t.value for t in MISSILE_ERA_TYPES)} are rated only "
            "from them)")))
    last = model.last_lost()
    if last is not None:
        for i, radar in enumerate(model.radar):
            if radar.fitted > last:
                problems.append(doc.problem(("radar", i, "fitted"), f"found {radar.fitted}, "
                                            f"expected a date on or before {last}, when the "
                                            "class's last ship was lost"))
    return problems


# --- per-ruleset derivation -----------------------------------------------------------

@dataclass
class Rating:
    """What one ruleset made of a class: its model, or why it cannot rate the class."""

    model: BaseModel | None
    overrides: list[str] = field(default_factory=list)
    """Ratings the class file set by hand instead of the ruleset's rules."""
    unrated: str | None = None
    problems: list[tuple[Loc, str]] = field(default_factory=list)
    """Located faults in the ratings block (path inside the file, message)."""


Deriver = Callable[[ShipClass], Rating]


class RatingModule(Protocol):
    """A ruleset's ``rating`` module: how it rates the shared class files (issue 14).

    Found by name, ``<ruleset package>.rating``; a ruleset without one rates no shared
    class. ``derive`` is all the data layer reads of it: what else a ruleset says about
    rating (it rates missile-era classes, it converts its old class files and what they
    lack) is declared on the ruleset itself (``DataRuleset.rates_missile_era``,
    ``converts_old_files``, ``old_file_lacks``, ``from_old_file``).
    """

    def derive(self, facts: ShipClass) -> Rating:
        """The ruleset's rating of a class from its facts (``Rating.model`` None: unrated)."""


def rating_modules() -> dict[str, ModuleType]:
    """Each registered ruleset's ``rating`` module, by ruleset name (those that have one)."""
    from generator.data.registry import REGISTRY

    found: dict[str, ModuleType] = {}
    for name, ruleset in REGISTRY.items():
        module = _rating_module(name, _package(ruleset))
        if module is not None:
            found[name] = module
    return found


class RatingModuleError(RulesetImportError):
    """A ruleset's rating module exists but cannot be imported: a bug in that ruleset.

    Reported like any ruleset that fails to load (exit 2), naming the module, instead
    of every class of the ruleset as unknown.
    """


def _rating_module(ruleset: str, package: str) -> ModuleType | None:
    """``<package>.rating``, or None when the ruleset has none.

    Raises:
        RatingModuleError: The module exists but importing it failed (a missing import
            inside it, a syntax error, an exception at import time).

    """
    target = f"{package}.rating"
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name == target:  # the ruleset rates no classes
            return None
        raise RatingModuleError(f"ruleset '{ruleset}': its rating module {target} cannot "
                                f"be imported: {exc}") from exc
    except Exception as exc:
        raise RatingModuleError(f"ruleset '{ruleset}': its rating module {target} cannot "
                                f"be imported: {type(exc).__name__}: {exc}") from exc


def _package(ruleset: object) -> str:
    """The package a ruleset's class is defined in (its ``__init__`` or a module of it)."""
    module = sys.modules[type(ruleset).__module__]
    return module.__package__ or module.__name__


def derivers() -> dict[str, Deriver]:
    """Each registered ruleset's ``derive``, by ruleset name (those that have one).

    A class with missile-era facts (``modern:``) goes only to the rulesets that say they
    rate such classes (``rates_missile_era``); the others pass it by silently,
    so the gun-era rulesets' libraries and unrated lists stay as they were.
    """
    from generator.data.registry import REGISTRY

    return {name: _era_filtered(module, REGISTRY[name].rates_missile_era)
            for name, module in rating_modules().items()}


def deriver(name: str) -> Deriver:
    """One ruleset's ``derive`` (see ``derivers``), importing no other ruleset.

    Raises:
        KeyError: No ruleset of that name, or it has no rating module.
        RatingModuleError: Its rating module cannot be imported.

    """
    from generator.data.registry import REGISTRY

    ruleset = REGISTRY[name]
    module = _rating_module(name, _package(ruleset))
    if module is None:
        raise KeyError(name)
    return _era_filtered(module, ruleset.rates_missile_era)


def _era_filtered(module: ModuleType, missile_era: bool) -> Deriver:
    """A rating module's ``derive``, passing missile-era classes by unless ``missile_era``."""
    rates: RatingModule = module  # found by name: what it must have is RatingModule
    derive: Deriver = rates.derive
    if missile_era:
        return derive

    def gun_era_only(facts: ShipClass) -> Rating:
        if facts.modern is not None:
            return Rating(None)
        return derive(facts)

    return gun_era_only


def check_override_names(ruleset: str, block: dict[str, Any], known: list[str],
                         ) -> list[tuple[Loc, str]]:
    """Located problems for override keys a ruleset does not rate (did-you-mean)."""
    problems: list[tuple[Loc, str]] = []
    for key in block:
        if key == "unrated":
            if not isinstance(block[key], str) or not 1 <= len(block[key]) <= 500:
                problems.append((("ratings", ruleset, key), "found "
                                 f"{block[key]!r:.40}, expected the reason as text "
                                 "(1-500 characters)"))
            continue
        if key not in known:
            problems.append((("ratings", ruleset, key), f"found unknown rating '{key}', "
                             f"expected one of unrated, {', '.join(known)}"
                             f"{did_you_mean(str(key), known)}"))
    return problems


def ratings_block(facts: ShipClass, ruleset: str, known: list[str],
                  ) -> tuple[dict[str, Any], Rating | None]:
    """A ruleset's block of a class file, or the rating to return at once.

    Returns:
        The block (override name to value) and, when the block names unknown ratings or
        says the ruleset cannot rate the class, the finished ``Rating``; else None.

    """
    block = dict(facts.ratings.get(ruleset, {}))
    problems = check_override_names(ruleset, block, known)
    if problems:
        return block, Rating(None, problems=problems)
    if "unrated" in block:
        return block, Rating(None, unrated=str(block["unrated"]))
    return block, None


def unknown_rulesets(model: ShipClass, names: list[str]) -> list[tuple[Loc, str]]:
    """Located problems for a ratings block naming no known ruleset."""
    return [(("ratings", name), f"found ruleset '{name}', expected one of "
             f"{', '.join(names)}{did_you_mean(name, names)}")
            for name in model.ratings if name not in names]


def rated_by(library: Any, class_id: str) -> list[str]:
    """Rulesets whose library holds a rating of ``class_id`` (for the catalog)."""
    from generator.data.registry import REGISTRY

    return [name for name in REGISTRY if class_id in library.classes_of(name)]


_BOUNDS = {"greater_than": "a number greater than", "greater_than_equal": "a number of at least",
           "less_than": "a number less than", "less_than_equal": "a number of at most"}
"""How a bound a rating model refused is said (``found 9, expected a number of at most 6``)."""


def _expected(err: Any) -> str:
    """The ``expected ...`` half of a message for one of pydantic's errors."""
    kind, ctx = err["type"], err.get("ctx", {})
    if kind == "value_error":
        return str(ctx.get("error", err["msg"]))
    if kind in _BOUNDS:
        return f"expected {_BOUNDS[kind]} {next(iter(ctx.values()), '?')}"
    if kind in ("literal_error", "enum"):
        names = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        found = err.get("input")
        hint = did_you_mean(found, names) if isinstance(found, str) else ""
        return f"expected one of {', '.join(names)}{hint}"
    if kind == "missing":
        return "expected a value (required)"
    if kind.startswith(("int_", "float_")):
        return "expected a number"
    return "expected " + str(err["msg"])[:1].lower() + str(err["msg"])[1:]


def override_errors(exc: ValidationError, ruleset: str, block: dict[str, Any],
                    ) -> list[tuple[Loc, str]]:
    """Located problems for a ruleset model that refused derived or overridden values.

    An error inside an override points at that override in the ratings block; any other
    error (a fact the ruleset's bounds refuse) points at the ruleset's block as a whole.
    """
    problems: list[tuple[Loc, str]] = []
    for err in exc.errors(include_url=False):
        loc = tuple(p for p in err["loc"]
                    if not (isinstance(p, str) and p.startswith("function-")))
        path = ".".join(str(p) for p in loc)
        key = next((k for k in block if path == k or path.startswith(k + ".")), None)
        found = "nothing" if err["type"] == "missing" else describe(err.get("input"))
        message = _expected(err)
        if key is not None:
            rest = path[len(key) + 1:].split(".") if path != key else []
            where: Loc = ("ratings", ruleset, key, *(int(p) if p.isdigit() else p
                                                     for p in rest if p))
            problems.append((where, f"found {found}, {message}"))
        else:
            problems.append((("ratings", ruleset), f"found {path} = {found} in the derived "
                             f"ratings, {message}"))
    return problems


def unrated_lines(library: Any) -> list[str]:
    """One line per class a ruleset cannot rate, with the reason (for ``check``)."""
    return [f"{ruleset} does not rate '{class_id}': {reason}"
            for ruleset, table in sorted(library.unrated.items())
            for class_id, reason in sorted(table.items())]


def facts_at(facts: ShipClass, ship: str, date: dt.date) -> ShipClass:
    """The class's facts as one ship carried them on a date (her fits applied, in order).

    A ruleset that rates one ship at a scenario's date can rate these facts instead of the
    class-level fit. Ratings overrides are dropped: they were set for the class-level fit.

    Raises:
        KeyError: No ship of that name in the class.

    """
    found = next((s for s in facts.ships if s.name == ship or ship in s.aka), None)
    if found is None:
        raise KeyError(ship)
    changes: dict[str, Any] = {}
    for fit in sorted(found.fits, key=lambda f: f.from_):
        if fit.from_ > date:
            break
        for key in ("guns", "aa_guns", "torpedoes", "radar"):
            value = getattr(fit, key)
            if value is not None:
                changes[key] = value
    return facts.model_copy(update={**changes, "ratings": {}})
