"""Forked render steps: same results, same order, errors as if nothing had been forked."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from generator.core import parallel
from generator.core.parallel import can_fork, fork_map, fork_safe
from generator.kit.pipeline import build


def _alone() -> None:
    """Fail with the culprits when another test left a thread running in this process.

    ``fork_map`` forks only from a single-threaded process, so a leaked thread would
    turn these tests' children into the parent without saying why.
    """
    import threading

    assert threading.active_count() == 1, f"threads left running: {threading.enumerate()}"


@pytest.mark.skipif(not fork_safe(), reason="needs fork")
def test_results_come_back_in_order_from_children(monkeypatch: pytest.MonkeyPatch) -> None:
    _alone()
    monkeypatch.setenv("QUARTERDECK_JOBS", "3")
    parent = os.getpid()
    results = fork_map([lambda: ("a", os.getpid()), lambda: ("b", os.getpid()),
                        lambda: ("c", os.getpid())])
    assert [name for name, _ in results] == ["a", "b", "c"]
    assert results[0][1] == parent
    assert results[1][1] != parent and results[2][1] != parent
    assert results[1][1] != results[2][1]


@pytest.mark.skipif(not fork_safe(), reason="needs fork")
def test_tasks_are_dealt_over_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers for five tasks: this process and one child, results still in order."""
    _alone()
    monkeypatch.setenv("QUARTERDECK_JOBS", "2")
    parent = os.getpid()
    results = fork_map([lambda i=i: (i, os.getpid()) for i in range(5)])  # type: ignore[misc]
    assert [i for i, _ in results] == [0, 1, 2, 3, 4]
    assert {pid for i, pid in results if i % 2 == 0} == {parent}
    children = {pid for i, pid in results if i % 2 == 1}
    assert len(children) == 1 and parent not in children


def test_free_cpus_count_affinity_less_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QUARTERDECK_JOBS", raising=False)
    monkeypatch.setattr(parallel, "cpu_times", lambda: None)  # no /proc/stat: load average
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    monkeypatch.setattr(os, "getloadavg", lambda: (0.2, 0.0, 0.0))
    assert parallel.usable_cpus() == 4 and parallel.free_cpus() == 4
    monkeypatch.setattr(os, "getloadavg", lambda: (3.0, 0.0, 0.0))  # two others busy
    assert parallel.free_cpus() == 2
    monkeypatch.setattr(os, "getloadavg", lambda: (8.0, 0.0, 0.0))  # a loaded machine
    assert parallel.free_cpus() == 1
    if fork_safe():
        assert parallel.workers() == 1 and not can_fork()
        assert {pid for pid in fork_map([os.getpid, os.getpid])} == {os.getpid()}
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3})  # pinned to one CPU
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert parallel.free_cpus() == 1


def test_free_cpus_are_the_cpu_time_others_left_since_the_last_look(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    # A load average that counts tasks waiting for a disk says the machine is busy...
    monkeypatch.setattr(os, "getloadavg", lambda: (2.0, 2.0, 2.0))
    monkeypatch.setattr(parallel, "_ticks_per_second", lambda: 100)
    # (free, total) ticks of 4 CPUs, and this process's CPU seconds, at each look:
    looks = iter([((1000, 4000, 4), 0.0),
                  ((1120, 4160, 4), 0.4),  # 40 ticks each: only this process was busy
                  ((1121, 4168, 4), 0.4),  # 8 ticks: too short to tell, as before
                  ((1160, 4320, 4), 0.8),  # 3 CPUs busy, one of them with our work
                  ((1160, 4480, 4), 0.8),  # every CPU busy, none of it ours
                  ((31160, 44480, 4), 0.8)])  # 100 s ago: the load average decides
    current = [next(looks)]
    monkeypatch.setattr(parallel, "cpu_times", lambda: current[0][0])
    monkeypatch.setattr(parallel, "own_cpu", lambda: current[0][1])
    monkeypatch.setattr(parallel, "_since", current[0])
    monkeypatch.setattr(parallel, "_found", None)
    found = []
    for look in looks:
        current[0] = look
        found.append(parallel.free_cpus())
    assert found == [4, 4, 2, 1, 3]


def test_cpu_times_read_the_machine() -> None:
    times = parallel.cpu_times()
    if sys.platform.startswith("linux"):
        assert times is not None
        idle, total, cpus = times
        assert 0 <= idle <= total and cpus == os.cpu_count()
    else:
        assert times is None


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
