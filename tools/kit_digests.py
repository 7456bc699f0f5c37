"""Digest of every bundled kit's files, to show a refactor left the output byte-identical.

Composes, in memory, every command (kit, tables, markers, rulers, gauges, strings) of
every bundled scenario on both papers, plus the scenario-less tables and aids, and prints
one ``sha256  request  file`` line per file (or the error a request gives). Run it before
and after a change and ``diff`` the two listings.

    python tools/kit_digests.py > before.txt
"""

from __future__ import annotations

import hashlib
import sys

from generator.core.errors import QuarterdeckError
from generator.data.library import load_library
from generator.kit.pipeline import compose
from generator.kit.seam import Request

COMMANDS = ("kit", "tables", "markers", "rulers", "gauges", "strings")


def main() -> None:
    """Print the digests (argument: an optional substring a scenario id must contain)."""
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    library = load_library()
    scenarios: list[str | None] = [None, *sorted(s for s in library.scenarios if only in s)]
    for scenario in scenarios:
        for command in COMMANDS if scenario else ("tables", "rulers", "gauges"):
            for paper in ("a4", "letter"):
                name = f"{command} {scenario or '-'} {paper}"
                try:
                    kit = compose(Request(command, scenario=scenario),  # type: ignore[arg-type]
                                  paper=paper)  # type: ignore[arg-type]
                except QuarterdeckError as error:
                    print(f"{'error':64}  {name}  {type(error).__name__}")
                    continue
                for file, data in sorted(kit.files.items()):
                    print(f"{hashlib.sha256(data).hexdigest()}  {name}  {file}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
