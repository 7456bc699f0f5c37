"""Shared fixtures: kits are built once per test session into temporary folders.

``kits`` is the session's one cache of bundled builds: ``kits.build("komandorski")`` builds
the scenario the first time any test asks for it and hands every later caller the same
``BuildResult`` (a build is deterministic, so one build serves every test that only reads
it). Tests must treat a shared kit as read-only: a test that changes files builds its own.
"""

from __future__ import annotations

import gc
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# The user cache (validated library, ruleset order) goes to a folder of this session,
# never the user's own: tests start cold and leave nothing behind in ~/.cache.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="qd-test-cache-")
os.environ.pop("QUARTERDECK_NO_CACHE", None)

from generator.kit.pipeline import BuildResult, build  # noqa: E402
from generator.kit.pipeline import _write as write_composed  # noqa: E402
from generator.kit.seam import KitOptions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# The session keeps what it built and read (kits, PDFs read back into characters, the
# library) for later tests: a large graph of long-lived objects that Python's full
# collection walks whole each time it runs. With the default third threshold (10) that
# happened every few seconds and took about a sixth of the suite's time; at 1000 a full
# collection is rare, while the young generations, where short-lived cycles die, are
# collected as often as before. Only when collection runs changes; what tests see does not.
gc.set_threshold(700, 10, 1000)


@dataclass
class Kits:
    """Bundled builds made once per session, keyed by what was asked."""

    root: Path
    built: dict[tuple[str, ...], BuildResult] = field(default_factory=dict)
    progress: dict[tuple[str, ...], list[tuple[str, int]]] = field(default_factory=dict)
    """Every ``progress(step, total)`` call the pipeline made during each build."""

    def _folder(self, key: tuple[str, ...]) -> Path:
        folder = self.root / f"k{len(self.built)}"
        folder.mkdir()
        return folder

    def build(self, scenario: str, *, paper: str = "a4", seed: int | None = None) -> BuildResult:
        """The scenario's kit with the bundled data (and ``seed`` for its dice)."""
        key = ("kit", scenario, paper, repr(seed))
        if key not in self.built and seed is None:
            # The kit tests/builds.py composed (in memory, for tests that read pages),
            # written as ``build`` writes it: one build serves both kinds of test.
            from tests import builds

            made = builds.kit(scenario, paper=paper)
            result = write_composed(made, self._folder(key), paper)  # type: ignore[arg-type]
            result.warnings, result.notices = made.warnings, made.notices
            self.built[key] = result
            self.progress[key] = builds.progress(scenario, paper=paper)
        if key not in self.built:
            calls: list[tuple[str, int]] = []
            options = KitOptions(seed=seed) if seed is not None else None
            self.built[key] = build(scenario, out=self._folder(key), paper=paper,  # type: ignore[arg-type]
                                    options=options,
                                    progress=lambda step, total: calls.append((step, total)))
            self.progress[key] = calls
        return self.built[key]

    def progress_of(self, scenario: str) -> list[tuple[str, int]]:
        """The progress calls of the scenario's default (A4) build."""
        self.build(scenario)
        return self.progress[("kit", scenario, "a4", "None")]

    def markers(self, scenario: str) -> BuildResult:
        """The scenario's marker sheets (``quarterdeck markers``)."""
        key = ("markers", scenario)
        if key not in self.built:
            from tests import builds

            made = builds.kit(scenario, command="markers")  # as for ``build``: one build
            result = write_composed(made, self._folder(key), "a4")
            result.warnings, result.notices = made.warnings, made.notices
            self.built[key] = result
        return self.built[key]


# The files that take longest, run first. With ``--dist loadfile`` a file runs whole on one
# worker; one started last leaves the other worker idle until it ends. (pyproject's
# ``--no-loadscope-reorder`` keeps this order: xdist would order files by test count.)
SLOW_FIRST = ("test_light_commands.py", "test_browser.py", "test_label_fitter.py", "test_event.py",
              "test_text_is_text.py", "test_fuzz.py", "test_hardening_terminal.py",
              "test_example_ruleset.py", "test_kitdoc.py", "test_designers.py", "test_pdf.py",
              "test_surface_action.py", "test_hardening_templates.py", "test_calculator.py",
              "test_hardening_events.py", "test_modern_naval_kit.py", "test_table_rules.py",
              "test_seam.py", "test_hardening_load.py", "test_markers.py", "test_prose.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: in-file order kept


@pytest.fixture(scope="session")
def kits(tmp_path_factory: pytest.TempPathFactory) -> Kits:
    return Kits(tmp_path_factory.mktemp("kits"))


@pytest.fixture(scope="session")
def savo(kits: Kits) -> BuildResult:
    return kits.build("savo-island")


@pytest.fixture(scope="session")
def savo_letter(kits: Kits) -> BuildResult:
    return kits.build("savo-island", paper="letter")


@pytest.fixture(scope="session")
def sunda(kits: Kits) -> BuildResult:
    return kits.build("sunda-strait")
