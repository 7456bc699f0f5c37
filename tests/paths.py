"""Where the tests and the project are, for test files at any depth under tests/."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
"""The tests folder (corpora, data, the example ruleset)."""
ROOT = TESTS.parent
"""The project's root (README, shipdata, generator)."""
