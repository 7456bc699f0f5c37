"""Shared fixtures: kits are built once per test session into temporary folders."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# The user cache (validated library, ruleset order) goes to a folder of this session,
# never the user's own: tests start cold and leave nothing behind in ~/.cache.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="qd-test-cache-")
os.environ.pop("QUARTERDECK_NO_CACHE", None)

from generator.pipeline import BuildResult, build

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def savo(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    return build("savo-island", out=tmp_path_factory.mktemp("a4"), paper="a4")


@pytest.fixture(scope="session")
def savo_letter(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    return build("savo-island", out=tmp_path_factory.mktemp("letter"), paper="letter")


@pytest.fixture(scope="session")
def sunda(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    return build("sunda-strait", out=tmp_path_factory.mktemp("sunda"))
