"""The Naval Warfare campaign start file: nations, their forces and bases, teams, routes.

A campaign file (``kind: scenario``, ``ruleset: naval-warfare``) is the Starting Naval
Balance of the rule text written as data, so a game control can write any start, on any
date, with any set of nations. Values the text does not give (flag allowances, garrisons,
Advantage Card allotments, spare counters, route lengths) carry the kit's DEFAULT
readings; each nation and team lists them under ``defaults:`` and the printed pieces say
DEFAULT beside them until the game control replaces the value and drops the name.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import (
    BeforeValidator,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    model_validator,
)
from pydantic_core import InitErrorDetails

from generator.core.suggest import did_you_mean
from generator.core.units import INCH, parse_length
from generator.data.datamodel import Strict

Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,19}$")]
Name = Annotated[str, Field(min_length=1, max_length=60)]
Count = Annotated[int, Field(ge=0, le=500)]
Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]

COUNTER_SIZES = {"1/2in": 0.5 * INCH, "5/8in": 0.625 * INCH, "3/4in": 0.75 * INCH}
"""The counter sizes the kit prints (the text's counters are 5/8 in)."""


def _counter_size(value: object) -> float:
    """A counter size: 1/2in, 5/8in or 3/4in (or the same as a length such as 16mm)."""
    expected = "expected a counter size: " + ", ".join(COUNTER_SIZES)
    if isinstance(value, bool) or not isinstance(value, str):
        raise ValueError(expected)
    text = value.strip().replace(" ", "")
    if text in COUNTER_SIZES:
        return COUNTER_SIZES[text]
    fraction = re.fullmatch(r"(\d+)/(\d+)in", text)
    try:
        points = (float(Fraction(int(fraction[1]), int(fraction[2]))) * INCH if fraction
                  else parse_length(text))
    except (ValueError, ZeroDivisionError):
        raise ValueError(expected) from None
    for size in COUNTER_SIZES.values():
        if abs(points - size) < 0.01:
            return size
    raise ValueError(expected)


def _sea_areas(value: object) -> int:
    """A route length: a whole number of sea areas (0 = starts and ends in one sea area)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("expected a whole number of sea areas (0 when the route starts and "
                         "ends in the same sea area)")
    if not 0 <= value <= 60:
        raise ValueError("expected a number of sea areas from 0 to 60")
    return value


CounterSize = Annotated[float, BeforeValidator(_counter_size)]
SeaAreas = Annotated[int, BeforeValidator(_sea_areas)]


class FleetBase(Strict):
    """A fleet base of Annex A (or one a game control adds); a bare name will do."""

    @model_validator(mode="before")
    @classmethod
    def _bare_name(cls, value: object) -> object:
        return {"name": value} if isinstance(value, str) else value

    name: Name = Field(description="The base as the rules name it, e.g. 'Scapa Flow'.")
    note: str | None = Field(None, max_length=60, description="Where it is, or when it opens ('after Turn 3').")
    from_turn: int | None = Field(None, ge=1, le=200, description="First turn it serves as a fleet base.")


NATION_DEFAULTS = ("units", "tonnage", "lsp", "garrisons", "spares", "ranges", "bases")
TEAM_DEFAULTS = ("nof", "mof", "advantage_cards", "task_force_cards")


class NationForces(Strict):
    """One nation's balance at the start: units, Tonnage Points, LSP, bases, garrisons."""

    id: Id = Field(description="Stable id, e.g. 'uk'.")
    name: Name = Field(description="Name as printed, e.g. 'UK & Commonwealth'.")
    code: str = Field(pattern=r"^[A-Z]{1,4}$", description="Short code printed on its counters, e.g. 'UK'.")
    colour: Colour = Field("#5a6270", description="Ground colour of its counters.")
    units: dict[str, Count] = Field(default_factory=dict, max_length=40, description="Counters by unit type id (the balance, plus Air Points).")
    spares: dict[str, Count] = Field(default_factory=dict, max_length=40, description="Spare counters printed beyond the balance, by unit type id.")
    tonnage: Count = Field(0, description="Tonnage Points (each about 100,000 tonnes).")
    lsp: Count = Field(0, description="Logistic Support Points (naval only).")
    garrisons: Count = Field(0, description="Garrison counters.")
    ranges: dict[str, Annotated[int, Field(ge=0, le=20)]] = Field(default_factory=dict, max_length=20, description="Range in sea areas where this nation differs from the unit table (Japanese land-based air: 1).")
    bases: list[FleetBase] = Field(default_factory=list, max_length=60, description="Fleet bases (Annex A): a name, or name, note and from_turn.")
    note: str | None = Field(None, max_length=200, description="What the rules say of this nation's forces (Annex A's USSR note), printed in its briefing.")
    defaults: list[Literal["units", "tonnage", "lsp", "garrisons", "spares", "ranges", "bases"]] = Field(default_factory=list, max_length=7, description="Which values are the kit's DEFAULT readings, not the text's.")


class Team(Strict):
    """A team of players: the nations it plays, its flags and its Advantage Cards."""

    id: Id = Field(description="Stable id, used in file names, e.g. 'axis-europe'.")
    name: Name = Field(description="Name as printed.")
    alliance: Name = Field(description="Allies, Axis, neutral...")
    nations: list[Id] = Field(min_length=1, max_length=12, description="Nation ids this team plays.")
    nof: Count = Field(0, description="Naval Operations Flags a turn.")
    mof: Count = Field(0, description="Military Offensive Flags a turn.")
    advantage_cards: Annotated[int, Field(ge=0, le=60)] = Field(0, description="Advantage Cards dealt at the start.")
    task_force_cards: Annotated[int, Field(ge=0, le=24)] = Field(4, description="Task Force cards printed.")
    defaults: list[Literal["nof", "mof", "advantage_cards", "task_force_cards"]] = Field(default_factory=list, max_length=4, description="Which values are the kit's DEFAULT readings.")


class Route(Strict):
    """A merchant route: its fleet base of origin, tonnage and length in sea areas."""

    name: Name = Field(description="Route name, e.g. 'UK - Argentina'.")
    nation: Id = Field(description="Nation whose tonnage sails it.")
    base: Name = Field(description="Fleet base of origin (one of the nation's bases).")
    tonnage: Count | None = Field(None, description="Tonnage Points allocated (leave out: a blank for the team to fill).")
    length: SeaAreas = Field(description="Length in sea areas (0: starts and ends in the same sea area).")
    slots: Annotated[int, Field(ge=1, le=12)] = Field(4, description="Counter slots printed for escorts and for raiders.")
    default: bool = Field(False, description="The length (or tonnage) is the kit's DEFAULT reading.")


class Campaign(Strict):
    """A campaign start: the naval balance of every nation, the teams and the routes."""

    kind: Literal["scenario"] = Field(description="Always 'scenario'.")
    ruleset: Literal["naval-warfare"] = Field(description="Always 'naval-warfare'.")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$", description="Stable id (the file name).")
    name: Name = Field(description="Campaign name as printed.")
    date: Name = Field(description="When it starts, as printed ('Jan/Feb 1942').")
    turn: int = Field(1, ge=1, le=200, description="The turn it starts on.")
    counter_size: CounterSize = Field("5/8in", validate_default=True, description="Counter size: 1/2in, 5/8in or 3/4in.")
    note: str | None = Field(None, max_length=1000, description="A note for game control (never on team pages).")
    nations: list[NationForces] = Field(min_length=1, max_length=24, description="Every nation's forces.")
    teams: list[Team] = Field(min_length=1, max_length=12, description="The teams; a nation no team plays is kept by game control.")
    routes: list[Route] = Field(default_factory=list, max_length=200, description="Merchant routes at the start.")

    @model_validator(mode="wrap")
    @classmethod
    def _joined(cls, data: object, handler: ValidatorFunctionWrapHandler) -> Campaign:
        """Run the cross-references even when a value fails, so every problem shows at once."""
        joined = cross_references(data)
        try:
            campaign: Campaign = handler(data)
        except ValidationError as exc:
            if not joined:
                raise
            raise ValidationError.from_exception_data(
                exc.title, [*exc.errors(), *joined]) from None  # type: ignore[list-item]
        if joined:
            raise ValidationError.from_exception_data(cls.__name__, joined)
        return campaign


Loc = tuple[str | int, ...]


def _problem(loc: Loc, found: object, expected: str) -> InitErrorDetails:
    """A located 'found X, expected Y' in pydantic's own error form (validation prints it)."""
    return {"type": "value_error", "loc": loc, "input": found,
            "ctx": {"error": ValueError(expected)}}


def _name_of(base: object) -> str | None:
    if isinstance(base, str):
        return base
    if isinstance(base, dict) and isinstance(base.get("name"), str):
        return str(base["name"])
    return None


def cross_references(data: object) -> list[InitErrorDetails]:
    """What joins the file to the rules and to itself, read from the raw data.

    Unit types the rules have (with did-you-mean), each nation and team id once, a
    team's nations, a route's nation and its fleet base of origin in that nation's list,
    and the Advantage Card allotments against the deck. Values of the wrong shape are
    left to the schema, which reports them.
    """
    from generator.rulesets.naval_warfare.units import load_units

    if not isinstance(data, dict):
        return []
    units = list(load_units())
    out: list[InitErrorDetails] = []
    nations: dict[str, list[str]] = {}
    raw_nations = data.get("nations")
    for n, nation in enumerate(raw_nations if isinstance(raw_nations, list) else []):
        if not isinstance(nation, dict):
            continue
        for key in ("units", "spares", "ranges"):
            given = nation.get(key)
            for unit in (given if isinstance(given, dict) else {}):
                if str(unit) not in units:
                    out.append(_problem(("nations", n, key, unit), str(unit),
                                        f"expected a unit type of the rules: {', '.join(units)}"
                                        f"{did_you_mean(str(unit), units)}"))
        bases = nation.get("bases")
        names = [_name_of(b) for b in (bases if isinstance(bases, list) else [])]
        for b, name in enumerate(names):
            if name is not None and name in names[:b]:
                out.append(_problem(("nations", n, "bases", b), name,
                                    "expected each fleet base once"))
        ident = nation.get("id")
        if isinstance(ident, str):
            if ident in nations:
                out.append(_problem(("nations", n, "id"), ident, "expected each nation id once"))
            nations[ident] = [x for x in names if x is not None]
    played: dict[str, str] = {}
    teams: set[str] = set()
    raw_teams = data.get("teams")
    allotted = 0
    for t, team in enumerate(raw_teams if isinstance(raw_teams, list) else []):
        if not isinstance(team, dict):
            continue
        ident = team.get("id")
        if isinstance(ident, str):
            if ident in teams:
                out.append(_problem(("teams", t, "id"), ident, "expected each team id once"))
            teams.add(ident)
        cards = team.get("advantage_cards")
        allotted += cards if isinstance(cards, int) and not isinstance(cards, bool) else 0
        members = team.get("nations")
        for i, nation_id in enumerate(members if isinstance(members, list) else []):
            if not isinstance(nation_id, str):
                continue
            if nation_id not in nations:
                out.append(_problem(("teams", t, "nations", i), nation_id,
                                    f"expected a nation id of this file: {', '.join(nations)}"
                                    f"{did_you_mean(nation_id, nations)}"))
            elif nation_id in played:
                out.append(_problem(("teams", t, "nations", i), nation_id,
                                    f"expected each nation in one team (team "
                                    f"'{played[nation_id]}' plays it)"))
            else:
                played[nation_id] = str(ident)
    raw_routes = data.get("routes")
    for r, route in enumerate(raw_routes if isinstance(raw_routes, list) else []):
        if not isinstance(route, dict):
            continue
        owner, base = route.get("nation"), route.get("base")
        if not isinstance(owner, str):
            continue
        if owner not in nations:
            out.append(_problem(("routes", r, "nation"), owner,
                                f"expected a nation id of this file: {', '.join(nations)}"
                                f"{did_you_mean(owner, nations)}"))
        elif isinstance(base, str) and base not in nations[owner]:
            listed = nations[owner]
            out.append(_problem(("routes", r, "base"), base,
                                f"expected a fleet base of '{owner}': "
                                f"{', '.join(listed) or 'none listed'}"
                                f"{did_you_mean(base, listed)}"))
    out.extend(_deal(allotted))
    return out


def _deal(allotted: int) -> list[InitErrorDetails]:
    """The teams may be allotted no more Advantage Cards than the deck holds."""
    from generator.rulesets.naval_warfare.components.advantage import load_advantage_deck

    held = load_advantage_deck().total()
    if allotted <= held:
        return []
    return [_problem(("teams",), f"{allotted} Advantage Cards allotted in all",
                     f"expected at most {held} (the cards in the deck)")]


__all__ = ["COUNTER_SIZES", "Campaign", "FleetBase", "NationForces", "Route", "Team"]
