"""Forked render steps: same results, same order, errors as if nothing had been forked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.parallel import can_fork, fork_map
from generator.pipeline import build


def test_results_come_back_in_order_from_children() -> None:
    parent = os.getpid()
    results = fork_map([lambda: ("a", os.getpid()), lambda: ("b", os.getpid()),
                        lambda: ("c", os.getpid())])
    assert [name for name, _ in results] == ["a", "b", "c"]
    assert results[0][1] == parent
    if can_fork():
        assert results[1][1] != parent and results[2][1] != parent


def test_a_failing_task_raises_in_the_parent() -> None:
    def boom() -> int:
        raise ValueError("bad table")

    with pytest.raises(ValueError, match="bad table"):
        fork_map([lambda: 1, boom])
    with pytest.raises(ValueError, match="bad table"):
        fork_map([boom, lambda: 1])  # the children are still reaped


def test_jobs_1_runs_everything_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUARTERDECK_JOBS", "1")
    assert not can_fork()
    assert {pid for pid in fork_map([os.getpid, os.getpid])} == {os.getpid()}


def test_progress_counts_every_component(tmp_path: Path) -> None:
    calls: list[tuple[str, int]] = []
    build("savo-island", out=tmp_path, progress=lambda step, total: calls.append((step, total)))
    assert len(calls) == calls[0][1] == len({step for step, _ in calls})
