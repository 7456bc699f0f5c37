"""Benchmark NAVAL ACTION's matchup pages as a battle grows (issue 21, item 5).

Usage: ``python bench/matchups.py [--ships 20,50,100,200] [--repeat 3]``.

For each size N, ``bench/fleet.py`` writes an N-ship scenario (two sides, round-robin
over the bundled classes); the ruleset prepares it as ``quarterdeck tables`` would, and
then, for every side, exactly what the ``matchups:{side}`` component does is timed in
two halves:

* **compute**: the matchup grids (every weapon of every firing ship against every enemy
  target group), from a fresh calculator, so no memo carries over from a previous run;
* **draw**: rendering those pages to PDF bytes.

The table shows per N the CPU seconds of each half (the fastest of ``--repeat`` runs:
CPU time, because the wall clock on a shared machine carries other people's work), the
pages and PDF bytes of both sides' components together (as rendered, page streams
uncompressed; and with every stream deflated, as packets store them), and the grids:
how many the pages asked for (one per firing ship) against how many were computed (one
per distinct fit and target set).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fleet import write_fleet  # noqa: E402


def prepare(folder: Path, ships: int) -> Any:
    """The prepared context of an N-ship generated scenario."""
    from generator.data.library import validated_library
    from generator.kit.seam import KitOptions, Request
    from generator.rulesets.naval_action import RULESET

    bundled = validated_library([])
    sid = write_fleet(folder, ships, bundled)
    library = validated_library([folder])
    return RULESET.prepare(library, Request("tables", scenario=sid), "a4", KitOptions())


STREAM = re.compile(rb"stream\r?\n(.*?)endstream", re.S)


def deflated(pdf: bytes) -> int:
    """The PDF's size with every stream deflated, as packets store them (zlib level 6)."""
    size = len(pdf)
    for match in STREAM.finditer(pdf):
        size += len(zlib.compress(match.group(1), 6)) - len(match.group(1))
    return size


def one_run(ctx: Any) -> dict[str, float]:
    """Compute and draw every side's matchups once, from a fresh calculator."""
    from generator.rulesets.naval_action import side_matchup_pages
    from generator.rulesets.naval_action.components.matchup_sheet import render_matchups

    d = ctx.data
    d.__dict__.pop("calculator", None)  # a fresh calculator: no memo from the last run
    compute = draw = 0.0
    pages = size = packed = 0
    for side in ctx.sides:
        start = time.process_time()
        computed = side_matchup_pages(d, side)
        compute += time.process_time() - start
        start = time.process_time()
        comp = render_matchups(computed, d.calculator, ctx.paper, f"matchups:{side}",
                               f"{side.upper()}-Odds-", f"{d.foot} · {ctx.sides[side]} matchups")
        draw += time.process_time() - start
        pages += comp.pages
        size += len(comp.pdf)
        packed += deflated(comp.pdf)
    stats = d.calculator.counts
    return {"compute": compute, "draw": draw, "pages": pages, "bytes": size, "deflated": packed,
            "requested": stats.requested.get("grid", 0), "computed": stats.computed.get("grid", 0)}


def main() -> None:
    """Run and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ships", default="20,50,100,200",
                        help="comma-separated fleet sizes (default 20,50,100,200)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed runs per size (the fastest is shown)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.ships.split(",")]
    print("| ships | compute s | draw s | total s | pages | bytes | deflated bytes "
          "| deflated/page | grids requested | grids computed |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="qd-bench-matchups-") as tmp:
        for n in sizes:
            ctx = prepare(Path(tmp) / f"fleet-{n}", n)
            one_run(ctx)  # warm-up: imports, fonts, wrapped-paragraph caches
            runs = [one_run(ctx) for _ in range(args.repeat)]
            compute = min(r["compute"] for r in runs)
            draw = min(r["draw"] for r in runs)
            last = runs[-1]
            print(f"| {n} | {compute:.3f} | {draw:.3f} | {compute + draw:.3f} "
                  f"| {last['pages']:.0f} | {last['bytes']:,.0f} | {last['deflated']:,.0f} "
                  f"| {last['deflated'] / max(last['pages'], 1):,.0f} "
                  f"| {last['requested']:.0f} | {last['computed']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
