"""Scaffolds that cannot lie: placeholders ``check`` refuses until the designer fills them.

A scaffold (``quarterdeck new-class``, ``new-scenario``) writes every value no command
line can know as a placeholder, ``"<fill in: what goes here>"``. The library refuses any
data file still holding one, with a located problem for each, so an untouched scaffold
never passes ``check`` or reaches a printed kit with invented facts.

``model_scenario_yaml`` writes a scenario for any ruleset from its scenario model (the
default of the seam's ``Ruleset.new_scenario_yaml``): required fields become placeholders
(a single-valued ``Literal`` is filled in), optional ones are left as comments carrying
their descriptions. ``tables_yaml`` gathers the bundled tables a ruleset's ``--tables``
accepts into one commented file.
"""

from __future__ import annotations

import datetime as dt
import enum
import json
import re
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from pydantic import BaseModel

from generator.core.errors import Problem, UsageError
from generator.core.suggest import did_you_mean
from generator.data.datamodel import Nation

if TYPE_CHECKING:
    from generator.data.yamlsource import Loc, SourceDoc


class Scaffolded(Protocol):
    """What a scaffold reads of a ruleset (``generator.kit.seam.Ruleset`` has it all)."""

    name: ClassVar[str]
    title: ClassVar[str]
    folder: ClassVar[Path]
    override_tables: ClassVar[tuple[str, ...] | None]

    def new_scenario_yaml(self, scenario_id: str) -> str:
        """The ruleset's scenario scaffold (by default ``model_scenario_yaml``)."""

PLACEHOLDER = re.compile(r"^\s*<fill in\b")
"""A value still holding a scaffold's placeholder."""

NATION_ALIASES = {
    "GB": "UK", "RN": "UK", "BR": "UK", "USA": "US", "USN": "US", "IJN": "JP", "JA": "JP",
    "JPN": "JP", "GE": "DE", "GER": "DE", "KM": "DE", "ITA": "IT", "RM": "IT", "FRA": "FR",
    "MN": "FR", "RU": "SU", "USSR": "SU", "SOV": "SU", "RAN": "AU", "AUS": "AU", "RCN": "CA",
    "NED": "NL", "RNLN": "NL", "POL": "PL", "GRE": "GR", "NOR": "NO",
}
"""Navy codes people type for the ones the data uses (``GB`` is ``UK`` here)."""

TYPE_ALIASES = {
    "BATTLESHIP": "BB", "BATTLECRUISER": "BC", "CARRIER": "CV", "CRUISER": "CA",
    "HEAVY-CRUISER": "CA", "LIGHT-CRUISER": "CL", "DESTROYER": "DD", "ESCORT": "DE",
    "SUBMARINE": "SS", "SUB": "SS", "TORPEDO-BOAT": "TB", "CVS": "CVL", "DDE": "DE",
    "FF": "DE", "CLA": "CLAA", "TRANSPORT": "AP", "CARGO": "AK",
}
"""Type words and foreign codes, for the did-you-mean of ``--type``."""


def placeholder(text: str) -> str:
    """A placeholder value as YAML (double-quoted), saying what goes there."""
    return json.dumps(f"<fill in: {text}>", ensure_ascii=False)


def _walk(value: Any, loc: Loc) -> Iterator[tuple[Loc, str]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _walk(inner, (*loc, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _walk(inner, (*loc, index))
    elif isinstance(value, str) and PLACEHOLDER.match(value):
        yield loc, value


def placeholder_problems(doc: SourceDoc) -> list[Problem]:
    """One located problem for every placeholder a data file still holds."""
    found = list(_walk(doc.data, ()))
    shown = [text if len(text) <= 70 else text[:67] + "..." for _, text in found]
    return [doc.problem(loc, f"found placeholder '{text}', expected your own value "
                             f"(replace all {len(found)} placeholders the scaffold left)")
            for (loc, _), text in zip(found, shown, strict=True)]


def _code(value: str, choices: list[str], aliases: dict[str, str], option: str,
          what: str) -> str:
    """``value`` if it is one of ``choices``; else a UsageError with a did-you-mean."""
    if value in choices:
        return value
    alias = aliases.get(value.upper().replace(" ", "-").replace("_", "-"))
    hint = f"; did you mean '{alias}'?" if alias else did_you_mean(value, choices)
    shown = "".join(ch if ch.isprintable() else "?" for ch in value[:40])
    raise UsageError(f"{option}: found '{shown}', expected {what}: {', '.join(choices)}{hint}")


def nation_code(value: str) -> str:
    """A navy code the data accepts (``--nation``), or a UsageError with a did-you-mean."""
    return _code(value, [n.value for n in Nation], NATION_ALIASES, "--nation", "a navy code")


def type_code(value: str) -> str:
    """A ship type the shared class accepts (``--type``), or a UsageError with a hint."""
    from generator.data.shipclass import ShipType

    return _code(value, [t.value for t in ShipType], TYPE_ALIASES, "--type", "a type code")


# --- scenarios from any ruleset's model --------------------------------------------------

def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """(annotation without ``| None``, whether None was allowed)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _hint(annotation: Any, description: str) -> str:
    """What a placeholder asks for: the description, plus the choices where there are."""
    text = description.rstrip(".") or "a value"
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        choices = [str(m.value) for m in annotation]
        if not any(c in text for c in choices[:2]):
            text += ": " + " ".join(choices)
    if typing.get_origin(annotation) is Literal and not any(
            str(a) in text for a in typing.get_args(annotation)):
        text += ": " + " ".join(str(a) for a in typing.get_args(annotation))
    if annotation is dt.date and "YYYY" not in text:
        text += ", YYYY-MM-DD"
    return text


def _min_items(info: Any) -> int:
    return max((getattr(m, "min_length", 0) or 0 for m in info.metadata), default=0)


def _model_lines(model: type[BaseModel], fixed: dict[str, str], indent: int,
                 expand: frozenset[str] = frozenset()) -> list[str]:
    """YAML lines for ``model``: required fields as placeholders, optional ones commented.

    An optional field named in ``expand`` (a scenario's ``setup`` block) is written out as
    if it were required, so the designer fills it in or deletes it.
    """
    pad = " " * indent
    lines: list[str] = []
    for name, info in model.model_fields.items():
        key = info.alias or name
        description = (info.description or "").replace("\n", " ")
        annotation, _ = _unwrap(info.annotation)
        if key in fixed:
            lines.append(f"{pad}{key}: {fixed[key]}")
            continue
        if key in expand and _is_model(annotation):
            lines.append(f"{pad}{key}:  # {description} Delete the block to print no map.")
            lines += _model_lines(annotation, {}, indent + 2)
            continue
        if not info.is_required():
            lines.append(f"{pad}# {key}: ...  # {description}"[:160].rstrip())
            continue
        args = typing.get_args(annotation)
        if typing.get_origin(annotation) is Literal and len(args) == 1:
            lines.append(f"{pad}{key}: {args[0]}")
        elif _is_model(annotation):
            lines.append(f"{pad}{key}:  # {description}")
            lines += _model_lines(annotation, {}, indent + 2)
        elif typing.get_origin(annotation) is list:
            item: Any = _unwrap(args[0])[0] if args else str
            lines.append(f"{pad}{key}:  # {description}")
            for _ in range(max(1, _min_items(info))):
                if _is_model(item):
                    inner = _model_lines(item, {}, indent + 4)
                    first = next(i for i, line in enumerate(inner)
                                 if not line.lstrip().startswith("#"))
                    inner[first] = f"{pad}  - {inner[first].lstrip()}"
                    lines += inner
                else:
                    lines.append(f"{pad}  - {placeholder(_hint(item, description))}")
        else:
            lines.append(f"{pad}{key}: {placeholder(_hint(annotation, description))}")
    return lines


def scenario_yaml(ruleset: Scaffolded, scenario_id: str) -> str:
    """A scenario scaffold for ``ruleset`` (its ``new_scenario_yaml``)."""
    return ruleset.new_scenario_yaml(scenario_id)


def model_scenario_yaml(model: type[BaseModel], name: str, title: str,
                        scenario_id: str) -> str:
    """A scenario scaffold from a scenario model: each value to choose is a placeholder."""
    head = [f"# Scenario {scenario_id} for {title}. Reference: "
            f"docs/shipdata-{name}.md",
            "# Every \"<fill in: ...>\" is a placeholder: `quarterdeck check` refuses this "
            "file,",
            "# listing each one, until you have replaced them all. Lines starting with '#' "
            "are",
            "# optional fields: remove the '#' and give a value to use one. Then run:",
            f"#     quarterdeck check {scenario_id}.yaml"]
    body = _model_lines(model, {"id": scenario_id, "ruleset": name}, 0,
                        frozenset({"setup"}))
    return "\n".join([*head, *body]) + "\n"


# --- the bundled tables as a starting point for --tables ---------------------------------

def tables_yaml(ruleset: Scaffolded) -> str:
    """Every bundled table ``--tables`` accepts for ``ruleset``, in one commented file."""
    folder = ruleset.folder / "tables"
    names = ruleset.override_tables
    if names is None:
        names = tuple(sorted(p.name for p in folder.glob("*.yaml")))
    if not names:
        raise UsageError(f"{ruleset.title} has no tables to replace with --tables")
    parts = [f"# {ruleset.title}: the bundled tables, as a starting point for --tables FILE.",
             "# Change the values you want; delete every table you keep as bundled (each",
             "# top-level key you leave replaces that whole table, and is validated like ship",
             "# data). Tables marked `default: true` are quarterdeck's own DEFAULT reading",
             "# where the rule text gives no value.",
             ""]
    for name in names:
        text = (folder / name).read_text(encoding="utf-8")
        parts += [f"# ---- from {ruleset.name}/tables/{name} " + "-" * 40, text.rstrip(), ""]
    return "\n".join(parts)
