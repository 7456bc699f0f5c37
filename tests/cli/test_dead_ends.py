"""No dead ends (issue 29, item 8): a command a ruleset prints nothing for names the one that does.

Every (command, ruleset) pair without output is found from what each ruleset registers
(its recipes, calculators and commands), run through the real CLI on a bundled scenario,
and must exit 2 with one line that names a command which does print for that ruleset.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.cli.main import main
from generator.data.library import load_library
from generator.kit.instead import instead
from generator.rulesets import REGISTRY

OUTPUTS = ("tables", "markers", "rulers", "strings", "gauges")
"""The shared commands that follow a ruleset's recipe for one scenario."""

LIBRARY = load_library()


def _scenario(ruleset: str) -> str:
    """A bundled scenario of the ruleset (the first by id)."""
    return sorted(LIBRARY.of_kind(ruleset, "scenario"))[0]


def _prints(ruleset: Any, command: str) -> bool:
    """Whether the ruleset has a recipe for ``command``."""
    return getattr(ruleset.recipes, command) is not None


def _pairs() -> list[tuple[str, str]]:
    """Every (ruleset, command) whose recipe is missing: the dead ends to close."""
    return [(name, command) for name, ruleset in REGISTRY.items() for command in OUTPUTS
            if not _prints(ruleset, command)]


def _answering(ruleset: Any) -> set[str]:
    """The commands that do print or answer something for the ruleset."""
    shared = {c for c in OUTPUTS if _prints(ruleset, c)} | {"build"}
    own = {c.name for c in ruleset.commands()}
    return shared | own | {c.command for c in ruleset.calculators()}


def test_the_dead_ends_are_the_ones_we_know() -> None:
    """The pairs tested below (a ruleset that gains an output drops out of this list)."""
    assert _pairs() == [("surface-action", "strings"), ("naval-warfare", "rulers"),
                        ("naval-warfare", "strings"), ("naval-warfare", "gauges"),
                        ("modern-naval", "rulers"), ("modern-naval", "strings"),
                        ("rule-27", "tables"), ("rule-27", "rulers"), ("rule-27", "strings"),
                        ("rule-27", "gauges")]


@pytest.mark.parametrize(("name", "command"), _pairs())
def test_a_missing_output_names_the_command_that_prints_it(name: str, command: str,
                                                           tmp_path: Path) -> None:
    ruleset = REGISTRY[name]
    result = CliRunner().invoke(main, [command, _scenario(name), "--out", str(tmp_path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines  # no traceback
    named = re.findall(r"`quarterdeck ([a-z0-9-]+)", lines[0])
    assert named, lines[0]
    assert command not in named
    assert set(named) <= _answering(ruleset), (named, lines[0])
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize(("name", "command", "message"), [
    ("modern-naval", "rulers", "Modern naval has no 'rulers' output; its measuring aids "
     "come with `quarterdeck gauges`"),
    ("rule-27", "tables", "Rule 27 has no 'tables' output; its tables are in its kit, "
     "`quarterdeck build SCENARIO`; `quarterdeck bombing` answers its odds exactly"),
    ("naval-warfare", "gauges", "Naval Warfare 1942–45 has no 'gauges' output; it prints "
     "no rulers, strings or gauges; everything it prints comes with `quarterdeck build "
     "SCENARIO`"),
])
def test_the_message_in_full(name: str, command: str, message: str) -> None:
    """The words, for the three kinds of answer (a sibling aid, the kit and a calculator)."""
    from generator.core.errors import UsageError

    with pytest.raises(UsageError) as raised:
        REGISTRY[name].recipe(command)  # type: ignore[arg-type]
    assert str(raised.value) == message
    assert instead(REGISTRY[name], command) in message  # type: ignore[arg-type]


def test_odds_names_its_calculator_for_every_ruleset_without_odds(tmp_path: Path) -> None:
    """``odds`` too: each ruleset answering elsewhere names every command that answers."""
    for name, ruleset in REGISTRY.items():
        calculators = [c.command for c in ruleset.calculators()]
        if "odds" in calculators:
            continue
        result = CliRunner().invoke(main, ["odds", "--ruleset", name, "--firer", "x",
                                           "--target", "y"])
        assert result.exit_code == 2, name
        named = re.findall(r"`quarterdeck ([a-z0-9-]+)`", result.stderr)
        assert set(calculators) <= set(named) <= _answering(ruleset) | {"odds"}, name
