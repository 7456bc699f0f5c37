"""Recipes: which components go into which packet, in which order, as data.

Each ruleset keeps a ``kit.yaml`` beside its code. It names, for every command that
prints something (``kit``, ``tables``, ``markers``, ``rulers``, ``strings``, ``gauges``,
``class``), the output folder and the packets, each packet an ordered list of component
names. The pipeline reads the recipe, renders each distinct component once and merges
them into packets; nothing about packets is written in Python.

A content item is ``NAME`` or ``NAME:ARG``. ``{side}`` in an argument, a file name or a
title stands for the packet's side when the packet says ``per: side``; the argument
``*`` expands to one item per side, in the scenario's order. Any other argument is
handed to the component as it is (``briefing:referee``). The item, after substitution,
is the component's key in the kit (``sheets:allied``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from generator.core.errors import DataError
from generator.core.suggest import did_you_mean
from generator.data.datamodel import Strict
from generator.data.validation import validate
from generator.data.yamlsource import load_yaml

ITEM = r"^[a-z][a-z0-9-]*(?::(?:\{side\}|\*|[a-z0-9][a-z0-9-]*))?$"
"""A content item: a component name, optionally ``:{side}``, ``:*`` or a fixed argument."""

FLAG = r"^!?[a-z][a-z0-9-]*$"
COMMANDS = ("kit", "tables", "markers", "rulers", "strings", "gauges", "class")
"""The commands a recipe may describe (``class`` is the one-ship proof kit)."""

MAX_ITEMS = 64
"""Most content items in one packet (a bound, so a typo cannot build a 10,000-page file)."""


class Packet(Strict):
    """One output file: a list of components, once or once per side."""

    file: str = Field(pattern=r"^[A-Za-z0-9{}_.-]+\.pdf$", max_length=80, description="File name, e.g. '{side}.pdf'.")
    title: str | None = Field(None, max_length=120, description="Bookmark and PDF title; default: the first component's title.")
    per: Literal["side"] | None = Field(None, description="'side': one packet per side of the scenario.")
    when: list[str] = Field(default_factory=list, max_length=8, description="Flags that must hold ('scenario', 'duplex'; '!flag' for 'not').")
    contents: list[str] = Field(min_length=1, max_length=MAX_ITEMS, description="Component items in page order.")
    note: str | None = Field(None, max_length=400, description="A line for the packet's print note, e.g. where the items printed once per table are.")
    needs: dict[str, str] = Field(default_factory=dict, max_length=8, description="Component name to a flag it is printed only under, e.g. {setup-map: setup} (a scenario without a set-up block has no map).")

    @field_validator("contents")
    @classmethod
    def _items(cls, value: list[str]) -> list[str]:
        for item in value:
            if not re.match(ITEM, item):
                raise ValueError(f"found '{item}', expected NAME, NAME:{{side}}, NAME:* or "
                                 "NAME:ARG (lowercase words joined by hyphens)")
        return value

    @field_validator("when")
    @classmethod
    def _flags(cls, value: list[str]) -> list[str]:
        for flag in value:
            if not re.match(FLAG, flag):
                raise ValueError(f"found '{flag}', expected a flag such as 'scenario' or "
                                 "'!duplex'")
        return value


class Recipe(Strict):
    """What one command prints: the folder, the packets, and render groups."""

    folder: str = Field(max_length=120, description="Output folder under --out, e.g. '{scenario}/tables'.")
    folder_without_scenario: str | None = Field(None, max_length=120, description="Folder when no scenario is named (generic tables or aids).")
    groups: list[list[str]] = Field(default_factory=list, max_length=8, description="Component names rendered together in one worker (they share derived data); the rest form one more group.")
    packets: list[Packet] = Field(min_length=1, max_length=32)


class KitRecipes(Strict):
    """A ruleset's ``kit.yaml``: a recipe per command it supports."""

    kit: Recipe
    tables: Recipe | None = None
    markers: Recipe | None = None
    rulers: Recipe | None = None
    strings: Recipe | None = None
    gauges: Recipe | None = None
    class_: Recipe | None = Field(None, alias="class")


@dataclass(frozen=True)
class Job:
    """One component to render: its registered name, its argument and its key."""

    name: str
    arg: str | None
    key: str


@dataclass(frozen=True)
class PlannedPacket:
    """A packet with its side filled in: file name, title (or None) and component keys."""

    file: str
    title: str | None
    keys: list[str]
    note: str | None = None


@dataclass(frozen=True)
class Plan:
    """A recipe applied to one request: the jobs in first-use order and the packets."""

    folder: str
    jobs: list[Job]
    packets: list[PlannedPacket]
    groups: list[list[str]]


def load_recipes(path: Path, display: str, components: Iterable[str]) -> KitRecipes:
    """Load and check a ruleset's ``kit.yaml``.

    Args:
        path: The file.
        display: How to name it in messages.
        components: Every registered component name (an item naming another is an error).

    Raises:
        DataError: Every problem, located (file:line:column), with did-you-mean.

    """
    doc, problems = load_yaml(path, display)
    if problems:
        raise DataError(problems)
    loaded, problems = validate(KitRecipes, doc)
    if problems or loaded is None:
        raise DataError(problems)
    recipes = loaded
    known = set(components)
    for command in COMMANDS:
        recipe: Recipe | None = getattr(recipes, "class_" if command == "class" else command)
        if recipe is None:
            continue
        for p, packet in enumerate(recipe.packets):
            for i, item in enumerate(packet.contents):
                name = item.split(":", 1)[0]
                if name not in known:
                    problems.append(doc.problem(
                        (command, "packets", p, "contents", i),
                        f"found component '{name}', expected one of the registered "
                        f"components{did_you_mean(name, known)}"))
                if "{side}" in item and packet.per != "side":
                    problems.append(doc.problem(
                        (command, "packets", p, "contents", i),
                        f"found '{item}' in a packet without 'per: side', expected "
                        "NAME:* or a packet with per: side"))
        for g, group in enumerate(recipe.groups):
            for i, name in enumerate(group):
                if name not in known:
                    problems.append(doc.problem(
                        (command, "groups", g, i),
                        f"found component '{name}', expected one of the registered "
                        f"components{did_you_mean(name, known)}"))
    if problems:
        raise DataError(problems)
    return recipes


def plan(recipe: Recipe, sides: Mapping[str, str], flags: set[str],
         values: Mapping[str, str]) -> Plan:
    """Apply a recipe to one request.

    Args:
        recipe: The command's recipe.
        sides: Side id to side name, in order (empty without a scenario).
        flags: Conditions that hold (``scenario``, ``duplex``...).
        values: Names usable in folder, file and title templates (``scenario``...).

    Returns:
        The folder, each distinct component once in first-use order, and the packets.

    """
    def fill(text: str, side: str | None) -> str:
        names = dict(values)
        if side is not None:
            names.update(side=side, side_name=sides[side], SIDE=side.upper())
        return re.sub(r"\{([a-z_A-Z]+)\}", lambda m: names.get(m.group(1), m.group(0)), text)

    folder_template = recipe.folder
    if "scenario" not in flags and recipe.folder_without_scenario:
        folder_template = recipe.folder_without_scenario
    jobs: dict[str, Job] = {}
    packets: list[PlannedPacket] = []
    for packet in recipe.packets:
        if not all((f[1:] not in flags) if f.startswith("!") else (f in flags)
                   for f in packet.when):
            continue
        for side in (list(sides) if packet.per == "side" else [None]):
            keys: list[str] = []
            for item in packet.contents:
                name, _, arg = item.partition(":")
                if name in packet.needs and packet.needs[name] not in flags:
                    continue
                args: list[str | None]
                if arg == "*":
                    args = list(sides)
                elif arg == "{side}":
                    args = [side]
                else:
                    args = [arg or None]
                for one in args:
                    key = f"{name}:{one}" if one is not None else name
                    jobs.setdefault(key, Job(name, one, key))
                    keys.append(key)
            title = fill(packet.title, side) if packet.title else None
            note = fill(packet.note, side) if packet.note else None
            packets.append(PlannedPacket(fill(packet.file, side), title, keys, note))
    return Plan(fill(folder_template, None), list(jobs.values()), packets,
                [list(g) for g in recipe.groups])
