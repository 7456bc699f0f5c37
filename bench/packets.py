"""Packet size against its floor: the same pages rendered alone in one ReportLab run.

For every bundled scenario (or those named), the kit is composed in memory; then each
packet is composed again on its own (``pipeline.compose(..., only={file})``: just the
components it holds, drawn on one fresh canvas), which is the smallest file those pages
make with ReportLab. The ratio of the two is issue 21's "packet bytes <= 1.1x one
render". Also reported: font descriptors per packet (one per subset of each face).

    python bench/packets.py                 # every bundled scenario
    python bench/packets.py savo-island     # one
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from generator.kit import pipeline
from generator.kit.seam import Request

TARGET = 1.1


def main() -> int:
    """Print a table and write bench/results/packets.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*")
    args = parser.parse_args()
    library = pipeline.validated_library([])
    scenarios = args.scenarios or sorted(library.scenarios)
    rows = []
    print(f"{'scenario':24} {'packet':28} {'pages':>5} {'bytes':>9} {'alone':>9} "
          f"{'ratio':>6} {'fonts':>5}")
    for scenario in scenarios:
        kit = pipeline.compose(Request("kit", scenario=scenario), library=library)
        for name, pdf in kit.files.items():
            alone = pipeline.compose(Request("kit", scenario=scenario), library=library,
                                     only={name}).files[name]
            descriptors = re.findall(rb"/FontName /([^\s/>]+)", pdf)
            row = {"scenario": scenario, "packet": name, "pages": kit.pages[name],
                   "bytes": len(pdf), "alone": len(alone), "ratio": len(pdf) / len(alone),
                   "font_descriptors": len(descriptors),
                   "distinct_descriptors": len(set(descriptors))}
            rows.append(row)
            print(f"{scenario:24} {name:28} {row['pages']:5} {row['bytes']:9} "
                  f"{row['alone']:9} {row['ratio']:6.3f} {row['font_descriptors']:5}")
    worst = max(r["ratio"] for r in rows)
    dup = sum(r["font_descriptors"] - r["distinct_descriptors"] for r in rows)
    print(f"largest ratio {worst:.3f} (target <= {TARGET}); duplicate font descriptors: {dup}")
    out = Path(__file__).resolve().parent / "results"
    out.mkdir(exist_ok=True)
    (out / "packets.json").write_text(json.dumps(rows, indent=1))
    return 0 if worst <= TARGET and dup == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
