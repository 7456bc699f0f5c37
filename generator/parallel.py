"""Run independent render steps side by side in forked processes.

A kit's calculator pages, its other components, and its packets do not depend on one
another, and each is CPU-bound Python, so threads would not help. ``fork`` is cheap
(the children share the loaded library and fonts) and the results (PDF bytes) pickle
back quickly. Where forking is unsafe or pointless (one CPU, not Linux, other threads
running, ``QUARTERDECK_JOBS=1``) everything simply runs in this process, in order, with
identical output.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def can_fork() -> bool:
    """Whether forking helps and is safe here."""
    if os.environ.get("QUARTERDECK_JOBS", "") == "1":
        return False
    # Forking a process with other threads can deadlock the child (a lock held by a
    # thread that does not exist there); macOS frameworks dislike fork outright.
    return (sys.platform.startswith("linux") and hasattr(os, "fork")
            and (os.cpu_count() or 1) > 1 and threading.active_count() == 1)


def fork_map(tasks: Sequence[Callable[[], T]]) -> list[T]:
    """Call every task and return their results in order.

    The first task runs in this process while each other task runs in a forked child.
    A child that fails is run again here, so an error surfaces as if nothing had been
    forked.

    Args:
        tasks: Functions without arguments whose results can be pickled.

    Returns:
        The results, in the order of ``tasks``.

    """
    if len(tasks) < 2 or not can_fork():
        return [task() for task in tasks]
    children: list[tuple[int, int] | None] = [None]
    parent = os.getpid()
    for task in tasks[1:]:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, and leave without running any cleanup
            _die_with(parent)
            os.close(read)
            code = 0
            try:
                payload = pickle.dumps((True, task()), protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException:  # noqa: BLE001 - reported by re-running in the parent
                payload = pickle.dumps((False, traceback.format_exc()))
                code = 1
            with os.fdopen(write, "wb") as pipe:
                pipe.write(payload)
            os._exit(code)
        os.close(write)
        children.append((pid, read))
    outputs: list[bytes] = []
    try:
        first = tasks[0]()
    finally:  # reap every child even if this process's own task failed
        for child in children[1:]:
            assert child is not None
            pid, read = child
            with os.fdopen(read, "rb") as pipe:
                outputs.append(pipe.read())  # read all before waiting: a full pipe blocks
            os.waitpid(pid, 0)
    results: list[T] = [first]
    for task, data in zip(tasks[1:], outputs, strict=True):
        try:
            ok, value = pickle.loads(data)
        except Exception:  # noqa: BLE001 - a child killed mid-write: do it here
            ok, value = False, None
        results.append(value if ok else task())
    return results


PR_SET_PDEATHSIG = 1
"""linux/prctl.h: the signal a process gets when its parent thread dies."""


def _die_with(parent: int) -> None:
    """Make this forked child die when ``parent`` does, so no killed build leaves workers.

    On Linux the kernel sends SIGKILL to the child when the parent dies; the parent may
    already have died before the request was made, which ``getppid`` then shows.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no libc prctl: the getppid check still helps
            pass
    if os.getppid() != parent:
        os._exit(1)
