"""Cold command times, side by side with a bare-ReportLab floor of the same page count.

Every figure is the wall clock of a fresh process, as a user waits for it:

* ``quarterdeck build SCENARIO`` for every bundled scenario (the default kit first), and
  the floor: a fresh ``python bench/floor_reportlab.py --specs ...`` drawing the default
  scenario's status-sheet blocks, repeated until it fills the kit's page count, with
  ReportLab's compression (a finished PDF). The ship blocks are prepared before the
  clock starts (written to JSON), so the floor process imports only ReportLab and fonts;
* the default kit once more with forking off (``QUARTERDECK_JOBS=1``): on free CPUs a
  build draws its components in forked workers, and must never be slower than this;
* the light commands: ``--version``, ``--help``, ``list`` (all, scenarios, classes),
  ``check``, ``odds`` (one question asked again, and a new question every run). A new
  question is answered from the ruleset's odds index in the user cache; its first run
  (the "first run" column) is the one that builds the index.

Runs are interleaved (kit, floor, next kit, ...) so load drift hits each alike; each
figure is the median of ``--repeat`` runs (min shown too). All runs share one user cache
folder (``XDG_CACHE_HOME`` in a temporary directory) warmed by one untimed run of each
command first, which is what a user's second and later commands see; that first,
cache-filling run is reported too. The machine (CPU model, CPUs usable by this process,
load average before and after) is recorded with the figures in
``bench/results/cold.json``.

    python bench/cold.py              # every bundled scenario, 5 runs each
    python bench/cold.py --quick      # the default kit and the light commands, 3 runs
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

KIT_TARGET = 0.8  # s, the default kit cold
SCENARIO_TARGET = 1.0  # s, every other bundled scenario
LIGHT_TARGET = 0.25  # s, list, odds, check, --help
NEW_ODDS = "odds, a new question each run"
ONE = "build, one process"
"""The default kit with forking off: a build on free CPUs must never be slower."""
FLOOR_RATIO = 2.0  # the default kit against the floor of its page count


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    commit = subprocess.run(["git", "-C", str(HERE), "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip()
    return {"cpu": model, "cpus": os.cpu_count(), "usable_cpus": usable,
            "python": platform.python_version(), "platform": platform.platform(),
            "load_before": os.getloadavg(), "commit": commit}


CPU: dict[str, list[float]] = {}
"""CPU seconds (user + system) of each timed child, by figure: less sensitive than the
wall clock to other work on a shared machine."""


def timed(argv: list[str], env: dict[str, str], cwd: Path, name: str = "") -> float:
    """Wall clock of one fresh process (it must succeed); its CPU time goes to ``CPU``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if name:
        CPU.setdefault(name, []).append(after.ru_utime - before.ru_utime
                                        + after.ru_stime - before.ru_stime)
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 3 if args.quick and args.repeat == 5 else args.repeat
    quarterdeck = str(Path(sys.executable).with_name("quarterdeck"))
    info = machine()

    from floor_reportlab import pages_of, specs_from_views, specs_to_json

    from generator.data.library import validated_library
    from generator.rulesets import REGISTRY, default_scenario

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp / "cache"),
               "PYTHONPYCACHEPREFIX": str(tmp / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python caches bytecode
        env.pop("QUARTERDECK_NO_CACHE", None)
        library = validated_library([])
        default = default_scenario() or ""
        scenarios = [default] + ([] if args.quick else
                                 sorted(s for s in library.scenarios if s != default))
        # The default scenario's ship blocks, as the floor draws them (prepared untimed).
        entry = library.scenarios[default]
        ruleset = REGISTRY[entry.model.ruleset]
        views = ruleset._views(library, entry.model)  # type: ignore[attr-defined]
        scenario = entry.model
        line = f"{scenario.name} · {scenario.date_label or scenario.date.isoformat()}"
        blocks = [s for side in scenario.sides for s in specs_from_views(views[side.id], line)]

        light = {
            "--version": ["--version"],
            "--help": ["--help"],
            "list": ["list"],
            "list scenarios": ["list", "scenarios"],
            "list classes": ["list", "classes"],
            "check": ["check"],
            # The same question every run: after the first, answered from the user cache.
            "odds": ["odds", "--firer", "Chokai", "--battery", "BOW", "--target", "Astoria",
                     "--range", "medium", "--scenario", "savo-island"],
        }
        # A question never asked before, every run: the odds computed, the library read
        # from the user cache (each firer against each enemy of the default scenario).
        pairs = [(f.name, t.name) for a in scenario.sides for b in scenario.sides if a != b
                 for f in a.ships for t in b.ships]
        new_questions = iter([["odds", "--firer", firer, "--target", target, "--range",
                               band, "--scenario", default]
                              for band in ("medium", "long", "close")
                              for firer, target in pairs])
        first: dict[str, float] = {}
        pages: dict[str, int] = {}
        floor_argv: list[str] = []
        floor_pages = 0
        for sid in scenarios:  # untimed for the figures: fills the cache, compiles bytecode
            out = tmp / "out" / sid
            first[f"build {sid}"] = timed([quarterdeck, "build", sid, "--out", str(out)],
                                          env, tmp)
            manifest = json.loads((out / sid / "manifest.json").read_text())
            pages[sid] = sum(f["pages"] for f in manifest["files"].values()) \
                if isinstance(manifest["files"], dict) else \
                sum(f["pages"] for f in manifest["files"])
        for name, argv in light.items():
            first[name] = timed([quarterdeck, *argv], env, tmp)
        first[NEW_ODDS] = timed([quarterdeck, *next(new_questions)], env, tmp)
        chosen = pages_of(blocks, pages[default])
        specs_file = tmp / "floor.json"
        specs_file.write_text(specs_to_json(chosen), encoding="utf-8")
        floor_argv = [sys.executable, str(HERE / "floor_reportlab.py"), "--specs",
                      str(specs_file), "--compress", "--out", str(tmp / "floor.pdf")]
        floor_pages = int(subprocess.run(floor_argv, env=env, cwd=tmp, check=True,
                                         capture_output=True, text=True).stdout.split()[-1])

        runs: dict[str, list[float]] = {}
        for _ in range(repeat):
            for sid in scenarios:
                runs.setdefault(f"build {sid}", []).append(
                    timed([quarterdeck, "build", sid, "--out", str(tmp / "out" / sid)],
                          env, tmp, f"build {sid}"))
                if sid == default:
                    runs.setdefault("floor", []).append(timed(floor_argv, env, tmp, "floor"))
                    runs.setdefault(ONE, []).append(
                        timed([quarterdeck, "build", sid, "--out", str(tmp / "out" / sid)],
                              {**env, "QUARTERDECK_JOBS": "1"}, tmp, ONE))
            for name, argv in light.items():
                runs.setdefault(name, []).append(timed([quarterdeck, *argv], env, tmp, name))
            runs.setdefault(NEW_ODDS, []).append(
                timed([quarterdeck, *next(new_questions)], env, tmp, NEW_ODDS))
    info["load_after"] = os.getloadavg()

    median = {k: statistics.median(v) for k, v in runs.items()}
    rows = []
    kit = f"build {default}"
    for key, values in runs.items():
        if key == "floor":
            target, what = None, f"floor, {floor_pages} pages (ReportLab alone)"
        elif key == ONE:
            target, what = None, f"build {default}, in one process (QUARTERDECK_JOBS=1)"
        elif key.startswith("build "):
            sid = key.split(" ", 1)[1]
            target = KIT_TARGET if sid == default else SCENARIO_TARGET
            what = f"{key}, {pages[sid]} pages" + (" (default kit)" if sid == default else "")
        else:
            target = LIGHT_TARGET if key != "--version" else None
            what = f"quarterdeck {key}" + (" (the same question again)" if key == "odds"
                                           else "")
        verdict = "" if target is None else ("ok" if median[key] < target else "MISS")
        rows.append((what, median[key], min(values), statistics.median(CPU[key]),
                     first.get(key), target, verdict))
    ratio = (median[kit] / pages[default]) / (median["floor"] / floor_pages)
    best = (min(runs[kit]) / pages[default]) / (min(runs["floor"]) / floor_pages)
    cpu_ratio = ((statistics.median(CPU[kit]) / pages[default])
                 / (statistics.median(CPU["floor"]) / floor_pages))
    print(f"machine: {info['cpu']} · {info['usable_cpus']} of {info['cpus']} CPUs usable · "
          f"load {info['load_before'][0]:.2f} before, {info['load_after'][0]:.2f} after · "
          f"Python {info['python']} · {info['commit']}")
    print(f"{repeat} interleaved cold runs each; s = median wall clock of a fresh process\n")
    print("| command | median s | min s | CPU s | first run s (fills the cache) | target | |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for what, med, low, cpu, cold, target, verdict in rows:
        print(f"| {what} | {med:.3f} | {low:.3f} | {cpu:.3f} | "
              f"{'' if cold is None else f'{cold:.3f}'} | "
              f"{'' if target is None else f'< {target:g}'} | {verdict} |")
    alone = median[kit] / median[ONE]
    print(f"\ndefault kit / the same in one process: {alone:.2f}x median wall "
          f"[never slower: {'ok' if alone <= 1.0 else 'MISS'}]")
    print(f"default kit / floor, per page: {ratio:.2f}x median wall, {best:.2f}x best wall, "
          f"{cpu_ratio:.2f}x CPU [target <= {FLOOR_RATIO:g}x: "
          f"{'ok' if ratio <= FLOOR_RATIO else 'MISS'}]")
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    (results / "cold.json").write_text(json.dumps({
        "machine": info, "repeat": repeat, "pages": pages, "floor_pages": floor_pages,
        "runs": runs, "cpu": CPU, "first": first, "median": median, "kit_one_process": alone,
        "kit_floor_ratio": ratio, "kit_floor_ratio_best": best, "kit_floor_ratio_cpu": cpu_ratio},
        indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
