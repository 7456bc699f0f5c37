"""The one error hierarchy of quarterdeck.

Every failure a user can cause is one of these; the CLI turns them into messages and
exit statuses, never tracebacks.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.core.terminal import escaped, inert


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, located as precisely as we can.

    Attributes:
        file: The file as the user would name it (relative where possible).
        line: 1-based line, 0 when unknown.
        column: 1-based column, 0 when unknown.
        path: Dotted field path inside the document (``guns.0.bore_in``), or "".
        message: ``found X, expected Y`` (plus an optional "did you mean" hint).

    """

    file: str
    line: int
    column: int
    path: str
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}:{self.column}"
        field = f" {self.path}:" if self.path else ""
        # One problem, one line: user text quoted in it (a key, a value, a file name) may
        # hold line breaks, control or invisible characters, or undecodable bytes, all
        # shown escaped (see generator.core.terminal).
        line = f"{where}:{field} {self.message}"
        if line.isprintable():
            return line
        return "".join(ch if ch.isprintable() else escaped(ch) for ch in line)


class QuarterdeckError(Exception):
    """Base of every error quarterdeck reports to a user."""

    exit_code = 1

    def __str__(self) -> str:
        # The message quotes user text (an id, a name, a path): printed wherever the
        # error is reported, it must not act on the terminal.
        return inert(super().__str__())


class DataError(QuarterdeckError):
    """The ship data or scenarios are invalid; carries every problem found."""

    exit_code = 2

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(set(problems))
        count = len(self.problems)
        super().__init__(f"{count} problem{'s' if count != 1 else ''} in the data")


class UsageError(QuarterdeckError):
    """The user asked for something that does not exist (unknown scenario, class...)."""

    exit_code = 2


class OutputError(QuarterdeckError):
    """Writing the results failed (permissions, disk full, refusing to overwrite)."""

    exit_code = 1


class RenderError(QuarterdeckError):
    """A component could not be drawn (a bug or an impossible layout)."""

    exit_code = 1
