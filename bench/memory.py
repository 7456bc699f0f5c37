"""Peak memory and time against page count (issue 21 item 3).

Two ways a job grows, each measured in a fresh child process (``os.wait4`` gives its
peak resident memory, ``ru_maxrss``):

* **one build** of a generated scenario (``bench/fleet.py``) with few and with the most
  ships a scenario may hold (100 a side): one canvas, every packet of one kit;
* **an event** (``quarterdeck event``) of two scenarios at a few tables and at enough
  tables for about 10,000 pages: many builds, their packs written as they finish and
  the print-shop bundle streamed from the files.

The issue's targets: the 10,000-page job's peak within 1.3x of the ~200-page job's, and
10,000 pages in under 60 s.

    python bench/memory.py            # both, full size (several minutes)
    python bench/memory.py --quick    # smaller: 1 and 8 tables, 20 and 100 ships
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RATIO_TARGET = 1.3
SECONDS_TARGET = 60.0


def child(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Run ``argv``; return (wall seconds, peak RSS in MB) of that child alone."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, **(env or {})})
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{err}")
    return wall, usage.ru_maxrss / 1000  # KB on Linux; MB = 10^6 bytes


def pages_under(folder: Path, skip: tuple[str, ...] = ()) -> int:
    """Pages of every PDF under ``folder`` (names in ``skip`` left out)."""
    import pypdfium2 as pdfium

    total = 0
    for pdf in folder.rglob("*.pdf"):
        if pdf.name not in skip:
            total += len(pdfium.PdfDocument(str(pdf)))
    return total


SCENARIOS = ("savo-island", "sunda-strait")
"""Two NAVAL ACTION scenarios of 124 pages a table (an event allows 64 tables each)."""


def event_run(tables: int, work: Path) -> dict[str, Any]:
    """One event of ``tables`` tables over ``SCENARIOS`` (A4, no extras or combined packs)."""
    spec = work / f"event-{tables}.yaml"
    shares = [tables // len(SCENARIOS) + (i < tables % len(SCENARIOS))
              for i in range(len(SCENARIOS))]
    listed = "".join(f"  - id: {sid}\n    tables: {n}\n"
                     for sid, n in zip(SCENARIOS, shares, strict=True) if n)
    spec.write_text(f"kind: event\nname: Bench {tables}\ndate: 2026-11-28\nclub: Bench\n"
                    f"paper: [a4]\nseed: 1\ncombined: false\nextras: []\n"
                    f"scenarios:\n{listed}", encoding="utf-8")
    out = work / f"out-{tables}"
    wall, peak = child([sys.executable, "-m", "generator", "event", str(spec), "--out",
                        str(out)])
    # The table packs' pages (the print-shop bundle repeats them).
    pages = pages_under(out, skip=("print-shop.pdf",))
    return {"job": f"event, {tables} tables", "pages": pages, "seconds": wall,
            "peak_mb": peak}


def fleet_run(ships: int, work: Path) -> dict[str, Any]:
    """One build of a generated scenario of ``ships`` ships."""
    data = work / f"fleet-{ships}"
    data.mkdir()
    code = (f"import sys; sys.path.insert(0, {str(HERE)!r})\n"
            "from fleet import write_fleet\n"
            "from generator.kit.pipeline import validated_library\n"
            f"print(write_fleet(__import__('pathlib').Path({str(data)!r}), {ships}, "
            "validated_library([])))")
    scenario = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                              text=True).stdout.strip()
    out = work / f"fleet-out-{ships}"
    wall, peak = child([sys.executable, "-m", "generator", "build", scenario, "--data",
                        str(data), "--out", str(out)])
    return {"job": f"build, {ships} ships", "pages": pages_under(out), "seconds": wall,
            "peak_mb": peak}


def main() -> int:
    """Print both comparisons and write bench/results/memory.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    small_t, large_t = (1, 8) if args.quick else (2, 80)
    small_s, large_s = (20, 100) if args.quick else (40, 200)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for run in (lambda: fleet_run(small_s, work), lambda: fleet_run(large_s, work),
                    lambda: event_run(small_t, work), lambda: event_run(large_t, work)):
            row = run()
            rows.append(row)
            print(f"{row['job']:22} {row['pages']:6} pages {row['seconds']:7.1f} s "
                  f"{row['peak_mb']:7.0f} MB peak", flush=True)
    ok = True
    for small, large in ((rows[0], rows[1]), (rows[2], rows[3])):
        ratio = large["peak_mb"] / small["peak_mb"]
        print(f"{large['job']} / {small['job']}: {large['pages'] / small['pages']:.0f}x the "
              f"pages, {ratio:.2f}x the peak memory (target <= {RATIO_TARGET})")
        ok = ok and ratio <= RATIO_TARGET
    big = rows[3]
    rate = big["seconds"] * 10_000 / big["pages"]
    print(f"event: {big['pages'] / big['seconds']:.0f} pages/s, i.e. 10,000 pages in "
          f"{rate:.0f} s (target < {SECONDS_TARGET:.0f})")
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "memory.json").write_text(json.dumps(rows, indent=1))
    return 0 if ok and rate < SECONDS_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
