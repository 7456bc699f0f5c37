"""Run independent render steps side by side in forked processes.

A kit's calculator pages, its other components, and its packets do not depend on one
another, and each is CPU-bound Python, so threads would not help. ``fork`` is cheap
(the children share the loaded library and fonts) and the results (PDF bytes) pickle
back quickly. Forking pays only on CPUs that are free: the process's affinity mask less
the machine's load average decides how many workers run (``workers``), so a build on a
busy machine runs in one process instead of fighting itself for one CPU. Where forking
is unsafe or pointless (one free CPU, not Linux, other threads running,
``QUARTERDECK_JOBS=1``) everything simply runs in this process, in order, with identical
output.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import selectors
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def fork_safe() -> bool:
    """Whether forking is possible and safe here at all (whatever the machine's load)."""
    if os.environ.get("QUARTERDECK_JOBS", "") == "1":
        return False
    # Forking a process with other threads can deadlock the child (a lock held by a
    # thread that does not exist there); macOS frameworks dislike fork outright.
    return (sys.platform.startswith("linux") and hasattr(os, "fork")
            and threading.active_count() == 1)


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask), not the machine's count."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def cpu_times() -> tuple[int, int, int] | None:
    """The machine's CPU time so far, from ``/proc/stat``: (free, total, CPUs), in ticks.

    Free time is idle time and time given to niced processes.

    None where there is no such file (not Linux) or it cannot be read.
    """
    try:
        with open("/proc/stat", "rb") as stat:
            lines = stat.read(1 << 16).splitlines()
    except OSError:
        return None
    if not lines or not lines[0].startswith(b"cpu "):
        return None
    fields = [int(x) for x in lines[0].split()[1:]]
    cpus = sum(1 for line in lines[1:] if line.startswith(b"cpu"))
    if len(fields) < 5 or cpus < 1:
        return None
    # idle and iowait are time no process wanted the CPU; time spent on niced processes
    # (the second field) is free too, as a build at normal priority takes it from them.
    # Guest time is already counted in user time.
    return fields[1] + fields[3] + fields[4], sum(fields[:8]), cpus


def own_cpu() -> float:
    """CPU seconds this process and its finished workers have used so far."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _ticks_per_second() -> int:
    try:
        return max(1, os.sysconf("SC_CLK_TCK"))
    except (AttributeError, ValueError, OSError):
        return 100


_since = (cpu_times(), own_cpu())
"""The machine's CPU times and this process's CPU time when quarterdeck started (this
module is imported first), then when they were last measured."""
_found: int | None = None
"""The last count of free CPUs measured, given again when asked again at once."""
WINDOW = 12
"""Ticks (0.12 s of one CPU at 100 a second) the measure needs at least: a build has
loaded its data and prepared its pages in more than that."""
STALE = 1000
"""Ticks per CPU (about 10 s) after which the measure says little about now."""


def free_cpus() -> int:
    """CPUs free for this build: the usable ones less those other work keeps busy.

    How busy the machine is was measured since quarterdeck started or last asked
    (loading the data and preparing a build take a few tenths of a second): the CPU
    time all processes used, less this process's own and its workers' and less what
    niced processes got (they give way to a build), in CPUs. That
    sees work that started a moment ago, and it does not count tasks that merely wait
    for a disk, as the load average does (on some virtual machines the load average
    stays near 1 with every CPU idle). Without that measure (not Linux, too short or
    too long ago), the one-minute load average decides: it counts runnable processes,
    this one among them. On a busy machine a forked worker only competes with the
    others for the same CPU and the build gets slower, so this is what decides whether
    forking pays.
    """
    global _since, _found
    usable = usable_cpus()
    (then, own_then), now, own = _since, cpu_times(), own_cpu()
    if then is not None and now is not None and now[2] == then[2]:
        idle, total = now[0] - then[0], now[1] - then[1]
        if total < WINDOW and _found is not None:  # asked again at once: the same answer
            return min(usable, _found)
        if total >= WINDOW:
            _since = (now, own)
            if total <= STALE * now[2]:
                mine = (own - own_then) * _ticks_per_second()
                others = max(0.0, total - idle - mine) * now[2] / total
                _found = max(1, int(now[2] - others + 0.25))
                return min(usable, _found)
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average: trust the affinity mask
        return usable
    return max(1, min(usable, int(usable - max(0.0, load - 1.0) + 0.5)))


def workers() -> int:
    """How many processes to run side by side (1: everything here, in order).

    ``QUARTERDECK_JOBS=N`` chooses N (1 turns forking off); otherwise the free CPUs.
    """
    if not fork_safe():
        return 1
    chosen = os.environ.get("QUARTERDECK_JOBS", "")
    if chosen.isdigit() and int(chosen) > 0:
        return min(int(chosen), 64)
    return free_cpus()


def can_fork() -> bool:
    """Whether forking helps and is safe here: safe, and at least two CPUs are free."""
    return fork_safe() and workers() > 1


def fork_map(tasks: Sequence[Callable[[], T]],
             on_result: Callable[[int, T], None] | None = None) -> list[T]:
    """Call every task and return their results in order.

    The tasks are dealt into as many groups as there are workers (``workers()``, at
    least two once forking was decided on); the first group runs in this process and
    each other group in a forked child, one task after another. A child that fails has
    its tasks run again here, so an error surfaces as if nothing had been forked.

    With ``on_result``, each result is also handed to ``on_result(index, result)`` in this
    process as soon as its task finishes (in the order they finish), so a caller can show
    progress or write results away; see ``_fork_streaming``.

    Args:
        tasks: Functions without arguments whose results can be pickled.
        on_result: Called here once per task, with its index and result, as each finishes.

    Returns:
        The results, in the order of ``tasks``.

    """
    if on_result is not None:
        return _fork_streaming(tasks, on_result)
    if len(tasks) < 2 or not can_fork():
        return [task() for task in tasks]
    width = min(len(tasks), max(2, workers()))
    # Dealt round-robin: neighbouring tasks (one side's packets) tend to cost alike.
    lanes = [list(range(lane, len(tasks), width)) for lane in range(width)]
    children: list[tuple[int, int]] = []
    parent = os.getpid()
    for lane in lanes[1:]:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, and leave without running any cleanup
            _die_with(parent)
            os.close(read)
            code = 0
            try:
                payload = pickle.dumps((True, [tasks[i]() for i in lane]),
                                       protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException:  # noqa: BLE001 - reported by re-running in the parent
                payload = pickle.dumps((False, traceback.format_exc()))
                code = 1
            with os.fdopen(write, "wb") as pipe:
                pipe.write(payload)
            os._exit(code)
        os.close(write)
        children.append((pid, read))
    outputs: list[bytes] = []
    results: dict[int, T] = {}
    try:
        for i in lanes[0]:
            results[i] = tasks[i]()
    finally:  # reap every child even if this process's own task failed
        for pid, read in children:
            with os.fdopen(read, "rb") as pipe:
                outputs.append(pipe.read())  # read all before waiting: a full pipe blocks
            os.waitpid(pid, 0)
    for lane, data in zip(lanes[1:], outputs, strict=True):
        try:
            ok, values = pickle.loads(data)
        except Exception:  # noqa: BLE001 - a child killed mid-write: do it here
            ok, values = False, None
        if not ok or not isinstance(values, list) or len(values) != len(lane):
            values = [tasks[i]() for i in lane]
        for i, value in zip(lane, values, strict=True):
            results[i] = value
    return [results[i] for i in range(len(tasks))]


def _fork_streaming(tasks: Sequence[Callable[[], T]],
                    on_result: Callable[[int, T], None]) -> list[T]:
    """``fork_map`` with a callback per result, as each task finishes.

    Every worker is a forked child (this process only listens, so it takes no CPU), and
    the children take task numbers from one shared queue, so a slow task does not hold
    up the tasks dealt after it. Each result is sent back as soon as it is computed. A
    child that fails or dies stops taking tasks; whatever no child delivered then runs
    here, in order, so an error surfaces as if nothing had been forked.
    """
    results: dict[int, T] = {}

    def deliver(index: int, value: T) -> None:
        results[index] = value
        on_result(index, value)

    if len(tasks) >= 2 and can_fork():
        _fork_queue(tasks, min(len(tasks), max(2, workers())), deliver)
    for index, task in enumerate(tasks):
        if index not in results:
            deliver(index, task())
    return [results[i] for i in range(len(tasks))]


def _fork_queue(tasks: Sequence[Callable[[], T]], width: int,
                deliver: Callable[[int, T], None]) -> None:
    """Run ``tasks`` in ``width`` forked children fed from a queue; deliver what they send.

    The queue is a pipe of task numbers, four bytes each, fed from here as the children
    drain it. A pipe read of four bytes takes exactly one whole number (writes here are
    whole numbers, at most PIPE_BUF bytes at a time, and reads hold the pipe's lock), so
    no two children take the same task.
    """
    queue_read, queue_write = os.pipe()
    queue: list[int] = []
    parent = os.getpid()
    children: dict[int, int] = {}  # result pipe -> child pid (0 once reaped)
    try:
        for _ in range(width):
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: take, compute, send; leave without any cleanup
                _die_with(parent)
                code = 1
                try:
                    os.close(read)
                    os.close(queue_write)
                    code = _stream_child(tasks, queue_read, write)
                finally:  # never return into the parent's code
                    os._exit(code)
            os.close(write)
            children[read] = pid
        os.close(queue_read)
        queue_read = -1
        os.set_blocking(queue_write, False)
        numbers = b"".join(i.to_bytes(4, "big") for i in range(len(tasks)))
        queue = [queue_write]
        queue_write = -1  # _listen owns it now, and closes it
        _listen(children, queue, memoryview(numbers), deliver)
    finally:  # reap every child, even if a callback here failed
        for fd in (queue_read, queue_write, *queue):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        for read, pid in children.items():
            if pid:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            with contextlib.suppress(OSError):
                os.close(read)


def _stream_child(tasks: Sequence[Callable[[], object]], queue: int, pipe: int) -> int:
    """In a forked child: run tasks off the queue, sending each result; the exit code."""
    with os.fdopen(pipe, "wb") as out:
        while True:
            taken = os.read(queue, 4)
            if len(taken) < 4:
                return 0
            index = int.from_bytes(taken, "big")
            try:
                payload = pickle.dumps((index, tasks[index]()),
                                       protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException:  # noqa: BLE001 - re-run in the parent, which reports it
                return 1
            out.write(len(payload).to_bytes(8, "big") + payload)
            out.flush()


def _listen(children: dict[int, int], queue: list[int], pending: memoryview,
            deliver: Callable[[int, T], None]) -> None:
    """Feed the queue and read results as they come, reaping each child at its end.

    ``queue`` holds the queue's write end; it is closed (and removed) once all is sent.
    """
    buffers = {read: bytearray() for read in children}
    with selectors.DefaultSelector() as selector:
        for read in children:
            selector.register(read, selectors.EVENT_READ)
        selector.register(queue[0], selectors.EVENT_WRITE)
        while buffers:
            for key, _ in selector.select():
                fd = key.fd
                if queue and fd == queue[0]:
                    try:
                        pending = pending[os.write(fd, pending[:PIPE_CHUNK]):]
                    except BlockingIOError:
                        continue
                    except OSError:  # every child is gone: what is left runs here
                        pending = pending[:0]
                    if not pending:
                        selector.unregister(fd)
                        queue.clear()
                        os.close(fd)
                    continue
                chunk = os.read(fd, 1 << 20)
                if not chunk:  # the child is done (or died): reap it
                    selector.unregister(fd)
                    del buffers[fd]
                    os.waitpid(children[fd], 0)
                    children[fd] = 0
                    continue
                buffer = buffers[fd]
                buffer += chunk
                while len(buffer) >= 8 and len(buffer) >= 8 + int.from_bytes(buffer[:8],
                                                                               "big"):
                    size = int.from_bytes(buffer[:8], "big")
                    try:
                        index, value = pickle.loads(bytes(buffer[8:8 + size]))
                    except Exception:  # noqa: BLE001 - a garbled frame: the task re-runs here
                        index = -1
                    del buffer[:8 + size]
                    if index >= 0:
                        deliver(index, value)


PIPE_CHUNK = 4096
"""Bytes of task numbers written to the queue at once: PIPE_BUF, so never split."""


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
