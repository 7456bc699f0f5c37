"""``quarterdeck odds``: one matchup answered exactly, for whichever ruleset is asked.

A ruleset registers its calculators through the seam (``Ruleset.calculators``): one with
an ``odds`` calculator answers here (``Ruleset.odds``, or the index it keeps in the user
cache, ``Ruleset.odds_index``); one whose calculators are commands of its own (a combat
resolver, say) is named with them, so the user is told which command answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeGuard

import click

from generator.cli.replay import Replay, with_file
from generator.core.errors import UsageError
from generator.kit.options import data_option, ruleset_option, scenario_option, tables_option

if TYPE_CHECKING:
    from generator.cache import Key


@click.command()
@click.option("--firer",
              help="Firing ship's name (accents optional); CLASS:NAME if several classes "
                   "have a ship of that name.")
@click.option("--target", help="Target ship's name.")
@click.option("--battery", help="Which weapon: a battery position or arc (e.g. BOW, "
                                "broadside) or 'torpedo'; default: every weapon.")
@click.option("--range", "band", help="Range band (the ruleset's names, e.g. close, medium, "
                                      "long, or a band's limit in inches); default: all.")
@scenario_option("Scenario that sets the date, sea state and ships (and so the ruleset).")
@ruleset_option("Whose odds without --scenario (default: the first in `quarterdeck list "
                "rulesets`).")
@tables_option()
@data_option
def odds(firer: str | None, target: str | None, battery: str | None, band: str | None,
         scenario: str | None, ruleset: str | None, tables: Path | None,
         data: tuple[Path, ...]) -> None:
    """Answer one matchup exactly in the terminal, or name the command that does."""
    from generator.core.terminal import user_console
    from generator.data.library import checked_key, owner_name, validated_library
    from generator.kit.seam import Request
    from generator.rulesets import REGISTRY

    if ruleset is not None and ruleset not in REGISTRY:
        from generator.core.suggest import did_you_mean

        raise UsageError(f"--ruleset: no ruleset '{ruleset}'{did_you_mean(ruleset, REGISTRY)}")
    if firer is None or target is None:
        _unasked(firer, target, scenario, ruleset, tables, data)
    # A question asked again (each turn of a game, say) is answered from the user cache
    # while the code, the data and the --tables file are unchanged.
    library_key = checked_key(list(data))
    key = library_key
    if key is not None and tables is not None:
        key = with_file(key, tables)
    answer = Replay("odds", user_console(highlight=False, soft_wrap=True), key,
                    repr((firer, target, battery, band, scenario, ruleset, str(tables))))
    if answer.replay():
        return
    library = validated_library(list(data), library_key)
    name = owner_name(library, Request("kit", scenario=scenario))
    if ruleset is not None and scenario is not None and ruleset != name:
        raise UsageError(f"--ruleset: found '{ruleset}', expected '{name}': the ruleset of "
                         f"scenario '{scenario}' (or leave --ruleset out)")
    name = ruleset or name
    index = _odds_index(name, library, key, tables)
    with answer.recording():
        if index is not None:
            index.print_answer(firer, target, battery, band, scenario)
        else:  # the ruleset answers itself, or names the calculators that do
            REGISTRY[name].odds(library, scenario, firer, target, battery, band, tables)
    answer.remember()


def _unasked(firer: str | None, target: str | None, scenario: str | None,
             ruleset: str | None, tables: Path | None, data: tuple[Path, ...]) -> NoReturn:
    """Name the ruleset's own calculators, or say which ships the question lacks.

    ``odds --ruleset NAME`` alone is a fair way to ask where a ruleset's odds are: one
    that answers them elsewhere names its commands before any ship is asked for.
    """
    from generator.data.library import owner_name, validated_library
    from generator.kit.seam import Request
    from generator.rulesets import REGISTRY

    name = ruleset or owner_name(validated_library(list(data)), Request("kit", scenario=scenario))
    found = REGISTRY[name]
    if not any(c.command == "odds" for c in found.calculators()):
        found.odds(validated_library(list(data)), scenario, firer or "", target or "", None,
                   None, tables)
    wanted = [(f"--{n}", what) for n, v, what in (("firer", firer, "the firing ship's name"),
                                                   ("target", target, "the target's name"))
              if v is None]
    raise UsageError(f"{' and '.join(o for o, _ in wanted)}: found nothing, expected "
                     f"{' and '.join(w for _, w in wanted)} (quarterdeck odds --help)")


def _odds_index(name: str, library: Any, found: Key | None, tables: Path | None) -> Any:
    """The ruleset's odds index: from the user cache, else built (and kept, complete).

    A kept index answers a question never asked before without importing the ruleset,
    its schema or its tables; it is built once per library, code and ``--tables`` file.
    """
    from generator.cache import remember, slot
    from generator.rulesets import REGISTRY

    # One entry per ruleset: questions that alternate between rulesets keep both.
    return remember(slot("odds-index", name), found,
                    lambda: REGISTRY[name].odds_index(library, tables, found is not None),
                    _answers, kept=lambda index: index is not None)


def _answers(value: Any) -> TypeGuard[Any]:
    """Whether a value read back is an odds index (it answers questions)."""
    return callable(getattr(value, "print_answer", None))


COMMANDS = [odds]
"""This module's commands, added to ``quarterdeck`` by ``generator.cli.main``."""
