"""Two source trees side by side: is the new one slower to build the default kit?

Runs, interleaved so load drift hits each alike, in fresh processes as a user waits:
``quarterdeck build`` (the default kit) from the OLD tree and from the NEW tree, a bare
ReportLab floor (``floor_reportlab.py --ships N --compress``, N the default scenario's
ships) between them, and the light commands (``--help``, ``list``, ``odds``) of both.
Each tree runs with this interpreter and ``PYTHONPATH=TREE``; both share nothing but the
interpreter and its site-packages. Prints the median of ``--repeat`` runs, each tree's
ratio to the floor and NEW / OLD.

    python bench/compare.py --old /path/to/old/checkout --new . --repeat 7
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIGHT = {"--help": ["--help"], "list": ["list"],
         "odds": ["odds", "--firer", "Chokai", "--battery", "BOW", "--target", "Astoria",
                  "--range", "medium", "--scenario", "savo-island"]}


def timed(argv: list[str], env: dict[str, str]) -> float:
    """Wall clock of one fresh process (it must succeed)."""
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    """Time both trees and the floor; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True)
    parser.add_argument("--new", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--ships", type=int, default=14, help="floor ships (Savo: 14)")
    args = parser.parse_args()
    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        envs = {}
        for name, tree in trees.items():
            env = {**os.environ, "PYTHONPATH": str(tree),
                   "XDG_CACHE_HOME": str(tmp / f"cache-{name}"),
                   "PYTHONPYCACHEPREFIX": str(tmp / f"pycache-{name}")}
            env.pop("QUARTERDECK_NO_CACHE", None)
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            envs[name] = env
        jobs: dict[str, tuple[list[str], dict[str, str]]] = {}
        for name in trees:
            jobs[f"build ({name})"] = ([sys.executable, "-m", "generator", "build", "--out",
                                        str(tmp / f"out-{name}")], envs[name])
            for label, argv in LIGHT.items():
                jobs[f"{label} ({name})"] = ([sys.executable, "-m", "generator", *argv],
                                             envs[name])
        jobs["floor"] = ([sys.executable, str(HERE / "floor_reportlab.py"), "--ships",
                          str(args.ships), "--compress", "--out", str(tmp / "floor.pdf")],
                         dict(os.environ))
        for argv, env in jobs.values():  # untimed: bytecode and the user cache warmed
            timed(argv, env)
        for _ in range(args.repeat):
            for key, (argv, env) in jobs.items():
                times.setdefault(key, []).append(timed(argv, env))
    med = {k: statistics.median(v) for k, v in times.items()}
    floor = med["floor"]
    print(f"{'figure':18} {'old s':>8} {'new s':>8} {'old/floor':>10} {'new/floor':>10} "
          f"{'new/old':>8}")
    for label in ("build", *LIGHT):
        old, new = med[f"{label} (old)"], med[f"{label} ({'new'})"]
        print(f"{label:18} {old:8.3f} {new:8.3f} {old / floor:10.2f} {new / floor:10.2f} "
              f"{new / old:8.2f}")
    print(f"{'floor':18} {floor:8.3f}  ({args.repeat} runs each, medians, interleaved)")


if __name__ == "__main__":
    main()
