"""Tests that need a tool outside Python: skipped on a workstation, failed in CI.

``.ci/run`` installs Ghostscript, xvfb and Chromium and sets ``CI=true``; a tool missing
there is a broken CI, not a reason to pass quietly.
"""

from __future__ import annotations

import os

import pytest


def need_tool(why_missing: str | None) -> None:
    """Skip with ``why_missing`` when it is set; fail instead under ``CI=true``."""
    if why_missing is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must have this tool: {why_missing}")
    pytest.skip(why_missing)
