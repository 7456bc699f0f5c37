"""What a hostile input may never make quarterdeck do, watched through Python's audit hooks.

``watch()`` records, while it is active, every process quarterdeck starts (``subprocess``,
``os.system``, ``os.exec*``, ``os.posix_spawn``, ``os.spawn*``; forking itself is allowed:
the pipeline forks copies of itself, which run no other program) and every file it opens
under a *canary* folder, a folder outside the data that hostile inputs point at (a font
file, an image, a template, ``/etc/passwd``-like targets), and every file or folder it
removes or renames away that is not its own: only quarterdeck's temporaries (a path with a
``.quarterdeck-`` part), the folders it marked as its own, and the user cache may go
(``os.rmdir`` is allowed anywhere: it removes only an empty folder). ``assert_inert()``
fails if any of these happened.

Builds run in this process while watched (``QUARTERDECK_JOBS=1``), so a forked worker's
events cannot escape the hook.

The corpus runner ``run_cli`` runs the real command line in this process and checks the
two ways a run may end: exit 0, or exit 2 with every problem line located (or a usage
error) and no traceback. An internal error (exit 70) or any other code fails.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROCESS_EVENTS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
                  "os.startfile", "pty.spawn")
"""Audit events that start another program."""

LOCATED = re.compile(r"^(?:.+?:\d+:\d+: .+|.+?: found .+|error: .+|Error: .+|warning: .+"
                     r"|Usage: .+|Try .+|\s+.*)$")
"""A problem line: ``file:line:column: ...``, ``path: found X, expected Y``, a usage error
(click's ``Usage:``/``Try``/``Error:`` lines), a warning, or an indented continuation."""


@dataclass
class Watch:
    """What happened while ``watch()`` was active."""

    canaries: list[Path]
    processes: list[tuple[str, Any]] = field(default_factory=list)
    opened: list[str] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)

    def assert_inert(self) -> None:
        """Fail when a process was started, a canary opened or a foreign file removed."""
        assert not self.processes, f"a process was started: {self.processes[:3]}"
        assert not self.opened, f"a file outside the data was opened: {self.opened[:3]}"
        assert not self.removed, f"a file quarterdeck did not make was removed: " \
                                 f"{self.removed[:3]}"


def _own(path: str) -> bool:
    """Whether quarterdeck may remove or rename away ``path``: a temporary, a marked
    folder of its own, or the user cache."""
    from generator.core.ownedfolders import MARKER, PREFIX

    if any(part.startswith(PREFIX) for part in Path(path).parts):
        return True
    if os.path.isdir(path) and not os.path.islink(path) and \
            os.path.isfile(os.path.join(path, MARKER)):
        return True
    from generator.cache.usercache import folder

    cache = folder()
    return cache is not None and path.startswith(os.path.abspath(cache) + os.sep)


_ACTIVE: list[Watch] = []
_INSTALLED = False


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if not _ACTIVE:
        return
    current = _ACTIVE[-1]
    if event.startswith(PROCESS_EVENTS):
        current.processes.append((event, args[:2]))
    elif event in ("os.remove", "os.rename", "shutil.rmtree") and len(args) >= 2 and \
            isinstance(args[0], (str, bytes, os.PathLike)) and \
            args[2 if event == "os.rename" else 1] in (None, -1):  # else relative to a folder fd:
        # rmtree's own removals inside a folder it was allowed to remove
        path = os.path.abspath(os.fsdecode(args[0]))
        if not _own(path):
            current.removed.append((event, path))
    elif event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        try:
            path = os.path.abspath(os.fsdecode(args[0]))
        except (TypeError, ValueError):
            return
        for canary in current.canaries:
            if path == str(canary) or path.startswith(str(canary) + os.sep):
                current.opened.append(path)


@contextlib.contextmanager
def watch(*canaries: Path) -> Iterator[Watch]:
    """Record processes started and canary files opened while the block runs."""
    global _INSTALLED
    if not _INSTALLED:
        sys.addaudithook(_hook)
        _INSTALLED = True
    found = Watch([Path(os.path.abspath(c)) for c in canaries])
    saved = os.environ.get("QUARTERDECK_JOBS")
    os.environ["QUARTERDECK_JOBS"] = "1"
    _ACTIVE.append(found)
    try:
        yield found
    finally:
        _ACTIVE.pop()
        if saved is None:
            os.environ.pop("QUARTERDECK_JOBS", None)
        else:
            os.environ["QUARTERDECK_JOBS"] = saved


def run_cli(args: list[str], *canaries: Path) -> tuple[int, str, str]:
    """Run the command line in this process, watched; (exit code, stdout, stderr).

    Fails on anything but exit 0 or a located exit 2, on a traceback, and on a process
    started or a canary opened.
    """
    from click.testing import CliRunner

    from generator.cli.main import main

    with watch(*canaries) as seen:
        result = CliRunner().invoke(main, args, catch_exceptions=True)
    stdout, stderr = result.stdout, result.stderr
    seen.assert_inert()
    assert "Traceback" not in stdout + stderr, stdout + stderr
    assert result.exit_code in (0, 2), (result.exit_code, stdout, stderr, result.exception)
    if result.exit_code == 2:
        lines = [line for line in stderr.splitlines() if line.strip()]
        assert lines, "exit 2 without a message"
        assert "internal error" not in stderr.lower(), stderr
        assert all(LOCATED.match(line) for line in lines), stderr
    return result.exit_code, stdout, stderr
