"""What an online table needs beyond the printed pieces: a ruleset's ``online.yaml``.

Each ruleset keeps an ``online.yaml`` beside its ``kit.yaml``: the dice its rules roll,
which of its components are charts (the card, the tables, each side's matchups) and which
one is the playing surface, the table a tactical game is played on, and whether each
side's pieces and matchups are its own player's only. The kit inventory
(``generator.kit.inventory``) and the VASSAL and Tabletop Simulator writers read it, so no
shared module names a ruleset or one of its components.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from generator.core.errors import DataError
from generator.data.datamodel import Strict
from generator.data.validation import validate
from generator.data.yamlsource import load_yaml

ONLINE_FILE = "online.yaml"


class Die(Strict):
    """One die button: how many dice of how many sides, in which colour."""

    name: str = Field(max_length=40, description="The button's name, e.g. 'White d6'.")
    sides: int = Field(ge=2, le=100, description="Faces of each die.")
    count: int = Field(1, ge=1, le=10, description="Dice rolled together.")
    color: str = Field("white", pattern=r"^[a-z]+$", description="A colour name for the die.")
    purpose: str = Field("", max_length=120, description="What the rules roll it for.")


class Board(Strict):
    """The playing surface: an open sea sized to the table, or one of the kit's pages."""

    kind: Literal["sea", "component"] = Field(description="'sea': a plain sea board; "
                                              "'component': a page of the kit.")
    component: str | None = Field(None, pattern=r"^[a-z][a-z0-9-]*(:[a-z0-9*-]+)?$",
                                  description="With 'component': its key, e.g. "
                                  "'route-chart:control'.")
    width: float = Field(180, gt=0, le=2000, description="Table width in cm.")
    height: float = Field(120, gt=0, le=2000, description="Table depth in cm.")
    scale: str | None = Field(None, max_length=60, description="The scale when the scenario "
                              "names none, e.g. '1000 yards per in'.")
    units_only: bool = Field(False, description="Distances are read in table units only "
                             "(the rules give ranges in cm, not yards).")


class Online(Strict):
    """A ruleset's ``online.yaml``."""

    dice: list[Die] = Field(min_length=1, max_length=8, description="The dice the rules roll.")
    charts: list[str] = Field(default_factory=list, max_length=32,
                              description="Component names whose pages are charts.")
    board: Board = Field(description="The playing surface.")
    hidden: bool = Field(False, description="Each side's pieces and matchups are its own "
                         "player's only (the packets keep them apart).")


def load_online(folder: Path, name: str) -> Online:
    """The ruleset's ``online.yaml`` in ``folder``; a located DataError when malformed."""
    path = folder / ONLINE_FILE
    doc, problems = load_yaml(path, f"{name}/{ONLINE_FILE}")
    if problems:
        raise DataError(problems)
    loaded, problems = validate(Online, doc)
    if problems or loaded is None:
        raise DataError(problems)
    return loaded
