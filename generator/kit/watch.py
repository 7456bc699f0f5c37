"""Rebuild a preview or a proof kit whenever a file in a folder changes (``quarterdeck watch``).

The folder is polled: each file's modification time and size, so no dependency and no
platform-specific notification is needed, and a test can step the watcher by hand. A
rebuild that fails on bad data prints its located problems and leaves the last good
output where it was: the PNG and the kit are only ever replaced whole.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.errors import DataError, QuarterdeckError

MAX_FILES = 5000
"""Most files a watched folder may hold (each poll looks at every one)."""

Snapshot = dict[str, tuple[int, int]]


LOOP = (-1, -1)
"""What a snapshot holds for a symbolic link that leads back to itself (no file to read)."""


def snapshot(folder: Path, ignore: tuple[Path, ...] = ()) -> Snapshot:
    """Modification time and size of every file under ``folder`` (bounded).

    Files under ``ignore`` (the watcher's own output) are left out, so writing the output
    inside the folder does not set off another rebuild. A symbolic link that loops (to
    itself, or through others back to itself) is kept as ``LOOP``; a linked folder is not
    entered, as the data loader does not enter one.
    """
    found: Snapshot = {}
    # realpath, unlike Path.resolve, never fails on a link that loops.
    skipped = [os.path.realpath(p) for p in ignore]
    for path in sorted(folder.rglob("*")):
        if len(found) >= MAX_FILES:
            break
        real = os.path.realpath(path)
        if any(real == s or real.startswith(s.rstrip(os.sep) + os.sep) for s in skipped):
            continue
        try:
            info = os.stat(path)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                found[str(path)] = LOOP
            continue  # removed between listing and looking: the next poll sees it
        if stat.S_ISREG(info.st_mode):
            found[str(path)] = (info.st_mtime_ns, info.st_size)
    return found


def loop_warning(path: str) -> str:
    """What the watcher says of a symbolic link that loops (it skips it)."""
    return f"{path}: skipped a symbolic link that leads back to itself; remove it"


@dataclass
class Outcome:
    """What one rebuild did: the lines to show and whether it succeeded."""

    ok: bool
    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """Links in the folder that loop, found since the last outcome (each said once)."""


@dataclass
class Watcher:
    """Polls a folder and runs ``build`` when anything in it changed.

    Attributes:
        folder: The folder watched.
        build: Rebuilds the output; returns the lines to show. Raises a
            ``QuarterdeckError`` (usually ``DataError``) when the data is broken.
        last_good: What the last successful build said it wrote.

    """

    folder: Path
    build: Callable[[], list[str]]
    ignore: tuple[Path, ...] = ()
    seen: Snapshot = field(default_factory=dict)
    last_good: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    """Warnings for the next outcome (links that newly loop)."""

    def changed(self) -> bool:
        """Whether any file was added, removed or modified since the last look."""
        now = snapshot(self.folder, self.ignore)
        different = now != self.seen
        self.pending += [loop_warning(path) for path, seen in now.items()
                         if seen == LOOP and self.seen.get(path) != LOOP]
        self.seen = now
        return different

    def rebuild(self) -> Outcome:
        """Build once; on bad data, the located problems and a word on the kept output."""
        warnings, self.pending = self.pending, []
        try:
            lines = self.build()
        except DataError as exc:
            kept = ([f"kept the last good output: {line.removeprefix('wrote ')}"
                     for line in self.last_good] or ["nothing built yet"])
            return Outcome(False, [*(str(p) for p in exc.problems), f"error: {exc}", *kept],
                           warnings)
        except QuarterdeckError as exc:
            return Outcome(False, [f"error: {exc}"], warnings)
        self.last_good = lines
        return Outcome(True, lines, warnings)

    def run(self, show: Callable[[Outcome], None], *, interval: float = 0.5,
            iterations: int | None = None, sleep: Callable[[float], None] = time.sleep,
            ) -> Outcome:
        """Build now, then again on every change; stop after ``iterations`` polls.

        Returns:
            The last outcome (for ``--once``: the only one).

        """
        self.changed()
        outcome = self.rebuild()
        show(outcome)
        polls = 0
        while iterations is None or polls < iterations:
            sleep(interval)
            polls += 1
            if self.changed():
                outcome = self.rebuild()
                show(outcome)
        return outcome
