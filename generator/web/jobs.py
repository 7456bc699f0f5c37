"""Jobs: one ``quarterdeck`` command run for the browser, bounded, with its progress.

Each job is the real command line in its own process (``python -m generator``), in a
folder of its own under the server's output: the command's own loaders, checks and
error boundary apply, and its messages are the terminal's, word for word. A process
can be stopped when it runs too long, which a thread cannot, and a fresh process is
single-threaded, so a build may still fork its workers (``generator.core.parallel``).

Bounds: at most ``Limits.running`` jobs at once, ``Limits.kept`` kept (the oldest
finished ones are forgotten, their folders removed), ``Limits.seconds`` each, and what a
job prints is cut at ``MAX_OUTPUT`` characters. A job's files are found by listing its
folder once it ends; a request names a file by its number in that list, never by a path.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

PROGRESS_ENV = "QUARTERDECK_PROGRESS"
"""Set to ``lines`` for a job: the command reports progress as lines (``cli.progress``)."""
PROGRESS_MARK = "\x1eprogress\t"
"""How a progress line begins: a control character no message of the command can print
(user text in messages is made inert), so a message never passes for progress."""
MAX_OUTPUT = 200_000
"""Characters of a job's output kept (an odds table, a build's list of files)."""
SHOWN = (".pdf", ".png", ".zip", ".json", ".csv", ".vmod", ".txt", ".svg")
"""The kinds of file a job's page offers to download."""


class JobRefused(Exception):
    """A job the server will not start now (too many running): the message says why."""


@dataclass(frozen=True)
class Limits:
    """How many jobs run at once and are kept, and how long one may run."""

    running: int = 2
    kept: int = 30
    seconds: float = 600.0


@dataclass
class Job:
    """One command run for the browser: what was asked, how far it got, what it made."""

    id: str
    title: str
    command: str
    argv: list[str]
    folder: Path
    inputs: frozenset[str] = frozenset()
    """Files the server put in the folder for the command (an uploaded event): not output."""
    state: str = "queued"
    """``queued``, ``running``, ``done`` (exit 0) or ``failed``."""
    done: int = 0
    total: int = 0
    step: str = ""
    messages: list[str] = field(default_factory=list)
    """What the command said on stderr (notes, warnings, located errors), line by line."""
    output: str = ""
    """What the command printed on stdout (an answer, the files it wrote)."""
    status: int | None = None
    files: list[str] = field(default_factory=list)
    """The files it wrote, relative to its folder, in order: a request names one by index."""
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None

    def summary(self) -> dict[str, object]:
        """What a page polling the job is told (JSON)."""
        return {"id": self.id, "state": self.state, "done": self.done, "total": self.total,
                "step": self.step, "messages": self.messages, "output": self.output,
                "files": self.files, "title": self.title}


QUARTERDECK = (sys.executable, "-m", "generator")
"""How the server runs a ``quarterdeck`` command: this interpreter, this package."""


def command_environment(base: Mapping[str, str] | None = None, *,
                        progress: bool = False) -> dict[str, str]:
    """The environment a command runs in for the server: plain text, never a traceback.

    ``progress``: report progress as lines the server reads (a job), not a bar.
    """
    env = dict(os.environ if base is None else base)
    env.update({"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100",
                "PYTHONIOENCODING": "utf-8"})
    if progress:
        env[PROGRESS_ENV] = "lines"
    env.pop("QUARTERDECK_DEBUG", None)
    return env


def progress_line(done: int, total: int, step: str) -> str:
    """One progress line as a job's command writes it (read back by ``Jobs``)."""
    clean = "".join(ch if ch.isprintable() else " " for ch in step)
    return f"{PROGRESS_MARK}{done}\t{total}\t{clean}"


class Jobs:
    """The server's jobs: started, watched, bounded and forgotten."""

    def __init__(self, root: Path, limits: Limits | None = None,
                 environment: dict[str, str] | None = None) -> None:
        """Jobs kept under ``root``, within ``limits``, run in ``environment``."""
        self.root = root
        self.limits = limits or Limits()
        self._environment = environment
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def get(self, job_id: str) -> Job | None:
        """The job with this id, or None (an id is 16 hex digits; nothing else is looked up)."""
        if len(job_id) != 16 or any(ch not in "0123456789abcdef" for ch in job_id):
            return None
        with self._lock:
            return self._jobs.get(job_id)

    def folder(self) -> tuple[str, Path]:
        """A new job's id and its empty folder."""
        job_id = secrets.token_hex(8)
        path = self.root / job_id
        path.mkdir(parents=True, exist_ok=False)
        return job_id, path

    def start(self, job_id: str, folder: Path, title: str, command: str, argv: list[str],
              inputs: frozenset[str] = frozenset()) -> Job:
        """Run ``quarterdeck COMMAND ARGV`` in ``folder`` as a new job; refuse past the bounds."""
        with self._lock:
            running = sum(1 for j in self._jobs.values() if j.state in ("queued", "running"))
            if running >= self.limits.running:
                shutil.rmtree(folder, ignore_errors=True)
                raise JobRefused(f"found {running} jobs running, expected at most "
                                 f"{self.limits.running}: wait for one to finish")
            job = Job(job_id, title, command, list(argv), folder, inputs)
            self._jobs[job_id] = job
            self._forget_old()
        threading.Thread(target=self._run, args=(job,), daemon=True,
                         name=f"job-{job_id}").start()
        return job

    def wait(self, job: Job, seconds: float) -> Job:
        """Wait until ``job`` ends or ``seconds`` pass (for short questions and tests)."""
        end = time.monotonic() + seconds
        while job.state in ("queued", "running") and time.monotonic() < end:
            time.sleep(0.05)
        return job

    def _forget_old(self) -> None:
        """Forget the oldest finished jobs past ``Limits.kept`` (and remove their folders)."""
        finished = sorted((j for j in self._jobs.values() if j.ended is not None),
                          key=lambda j: j.ended or 0.0)
        while len(self._jobs) > self.limits.kept and finished:
            old = finished.pop(0)
            del self._jobs[old.id]
            shutil.rmtree(old.folder, ignore_errors=True)

    def _environment_for(self) -> dict[str, str]:
        """A job's environment: progress as lines, no colour, no traceback."""
        return command_environment(self._environment, progress=True)

    def _run(self, job: Job) -> None:
        """Run the job's process to its end (or its time limit), then list its files."""
        job.state = "running"
        try:
            process = subprocess.Popen(
                [*QUARTERDECK, job.command, *job.argv],
                cwd=job.folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, env=self._environment_for(), text=True,
                encoding="utf-8", errors="replace", start_new_session=True)
        except OSError as exc:
            job.messages.append(f"error: could not start the command: {exc.strerror}")
            self._end(job, 1)
            return
        out: list[str] = []
        readers = [threading.Thread(target=_read, args=(process.stdout, out.append),
                                    daemon=True),
                   threading.Thread(target=_read, args=(process.stderr,
                                                        lambda line: self._heard(job, line)),
                                    daemon=True)]
        for reader in readers:
            reader.start()
        try:
            status = process.wait(timeout=self.limits.seconds)
        except subprocess.TimeoutExpired:
            _stop(process)
            status = process.wait()
            job.messages.append(f"error: the job ran {self.limits.seconds:.0f} s, expected at "
                                "most that: it was stopped")
            status = status or 124
        for reader in readers:
            reader.join(timeout=5)
        job.output = _here(job.folder, "".join(out)[:MAX_OUTPUT])
        job.messages = [_here(job.folder, line) for line in job.messages]
        self._end(job, status)

    def _heard(self, job: Job, line: str) -> None:
        """One line of the command's stderr: progress, or a message to show."""
        if line.startswith(PROGRESS_MARK):
            parts = line[len(PROGRESS_MARK):].rstrip("\n").split("\t", 2)
            if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
                job.done, job.total, job.step = int(parts[0]), int(parts[1]), parts[2]
            return
        if sum(len(m) for m in job.messages) < MAX_OUTPUT:
            job.messages.append(line.rstrip("\n"))

    def _end(self, job: Job, status: int) -> None:
        """Record how a job ended and list (and zip) the files it wrote."""
        job.status = status
        job.files = _listed(job.folder, job.inputs)
        if status == 0 and job.files:
            job.files.append(_zipped(job.folder, job.files))
        if status == 0 and job.total:
            job.done = job.total
        job.ended = time.monotonic()
        job.state = "done" if status == 0 else "failed"


def _read(stream: object, take: Callable[[str], None]) -> None:
    """Hand each line of a job's pipe to ``take`` until the pipe closes."""
    for line in stream:  # type: ignore[attr-defined]
        take(line)


def _here(folder: Path, text: str) -> str:
    """``text`` with the job's folder left out of the paths it names (``japanese.pdf``)."""
    return text.replace(f"{folder}/", "").replace(f"{folder}", ".")


def _stop(process: subprocess.Popen[str]) -> None:
    """Stop a job's process and the workers it forked (its own session's group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()


def _listed(folder: Path, inputs: frozenset[str]) -> list[str]:
    """The files a job wrote (regular files of the shown kinds, no links), sorted."""
    found = []
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink() or not path.is_file() or name in inputs \
                or path.suffix.lower() not in SHOWN or name.startswith("."):
            continue
        found.append(name)
    return found


ZIP_NAME = "kit.zip"
"""The one archive of everything a job wrote, beside its files."""


def _zipped(folder: Path, names: list[str]) -> str:
    """Write every file of a job into ``kit.zip`` in its folder; the archive's name."""
    with zipfile.ZipFile(folder / ZIP_NAME, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in names:
            archive.write(folder / name, name)
    return ZIP_NAME
