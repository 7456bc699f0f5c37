"""Benchmark quarterdeck: bundled scenarios, generated big packets, and the ReportLab floor.

Usage: ``python bench/run.py [--quick] [--repeat N]`` (see bench/README.md). Prints a
table and writes the same figures to ``bench/results/latest.json``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "latest.json"
sys.path.insert(0, str(HERE))  # fleet.py and floor_reportlab.py live beside this file

# Targets (see README.md).
DEFAULT_COLD_S = 1.0
THOUSAND_PAGES = 1000
THOUSAND_S = 20.0
THOUSAND_MB = 300.0
FLOOR_RATIO = 1.3

# What the user waits for: a fresh interpreter that imports quarterdeck and builds.
CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from pathlib import Path
from generator.kit.pipeline import build
t1 = time.perf_counter()
result = build(sys.argv[1], data=[Path(p) for p in sys.argv[3:]], out=Path(sys.argv[2]))
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "build_s": t2 - t1, "files": result.files}))
"""


# -- measuring -------------------------------------------------------------------------

def _maxrss_mb(usage: Any) -> float:
    """ru_maxrss in MB (10^6 bytes): kilobytes on Linux, bytes on macOS."""
    scale = 1 if sys.platform == "darwin" else 1024
    return usage.ru_maxrss * scale / 1e6


def child_env(pycache: Path) -> dict[str, str]:
    """The environment of the cold children: the user's, with bytecode caching on.

    A user's interpreter reuses compiled bytecode; a sandbox with
    ``PYTHONDONTWRITEBYTECODE`` would recompile quarterdeck on every run. The children
    cache bytecode under ``pycache`` (a temporary folder of the benchmark, filled by the
    untimed first run), so no ``__pycache__`` is written into the project.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def cold_run(scenario: str, data: list[Path], env: dict[str, str]) -> dict[str, Any]:
    """Build once in a fresh interpreter; wall time from outside, peak memory of the child.

    The child is reaped with ``os.wait4``, which returns the resource usage of exactly
    that child: the same ``ru_maxrss`` as ``getrusage(RUSAGE_CHILDREN)`` would give in a
    parent whose only child it was.
    """
    with tempfile.TemporaryDirectory() as tmp, \
            tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        cmd = [sys.executable, "-c", CHILD, scenario, str(Path(tmp) / "out"),
               *[str(p) for p in data]]
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=tmp, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise RuntimeError(f"build of {scenario} failed:\n{err.read().decode()}")
        report = json.loads(out.read().decode())
    return {"wall_s": wall, "import_s": report["import_s"], "build_s": report["build_s"],
            "peak_mb": _maxrss_mb(usage), "pages": sum(report["files"].values()),
            "files": report["files"]}


def cold(scenario: str, data: list[Path], repeat: int, env: dict[str, str]) -> dict[str, Any]:
    """Median of ``repeat`` cold builds (after one untimed run that warms disk caches)."""
    cold_run(scenario, data, env)
    runs = [cold_run(scenario, data, env) for _ in range(repeat)]
    return {
        "wall_s": statistics.median(r["wall_s"] for r in runs),
        "import_s": statistics.median(r["import_s"] for r in runs),
        "build_s": statistics.median(r["build_s"] for r in runs),
        "peak_mb": max(r["peak_mb"] for r in runs),
        "pages": runs[0]["pages"],
        "files": runs[0]["files"],
        "runs_wall_s": [r["wall_s"] for r in runs],
    }


def timed(fn: Callable[[], Any]) -> float:
    """Seconds one call of ``fn`` takes (after a collection, so garbage is not inherited)."""
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def warm(scenario: str, data: list[Path], repeat: int) -> float:
    """Median in-process build time after one warm-up build.

    The packets module keeps deflated streams by content hash for the life of the
    process; it is emptied before every timed build, so repeating a build cannot reuse
    the previous build's compressed pages.
    """
    from generator.kit.pipeline import build

    with tempfile.TemporaryDirectory() as tmp:
        build(scenario, data=data, out=Path(tmp) / "warm-up")
        times = []
        for i in range(repeat):
            times.append(timed(lambda i=i: build(scenario, data=data,
                                                 out=Path(tmp) / f"run{i}")))
    return statistics.median(times)


@contextmanager
def counting_canvas() -> Iterator[Counter[str]]:
    """Count ReportLab drawing calls (and characters drawn) while the block runs."""
    from reportlab.pdfgen.canvas import Canvas

    kinds = {"drawString": "texts", "drawCentredString": "texts", "drawRightString": "texts",
             "rect": "rects", "line": "lines", "circle": "circles", "wedge": "wedges",
             "drawPath": "paths", "showPage": "pages"}
    counts: Counter[str] = Counter()
    saved = {name: getattr(Canvas, name) for name in kinds}

    def wrap(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
            counts[kinds[name]] += 1
            if kinds[name] == "texts":
                counts["chars"] += len(args[2])
            return original(self, *args, **kwargs)
        return counted

    for name, original in saved.items():
        setattr(Canvas, name, wrap(name, original))
    try:
        yield counts
    finally:
        for name, original in saved.items():
            setattr(Canvas, name, original)


# -- the three parts ---------------------------------------------------------------------

def bench_scenarios(ids: list[str], repeat: int, env: dict[str, str]) -> list[dict[str, Any]]:
    """Part a: every bundled scenario: cold and warm build time, pages, pages per second."""
    from generator.data.library import validated_library

    library = validated_library([])
    rows = []
    for sid in ids:
        print(f"  scenario {sid} ...", file=sys.stderr, flush=True)
        c = cold(sid, [], repeat, env)
        w = warm(sid, [], repeat)
        rows.append({
            "scenario": sid,
            "ships": sum(len(s.ships) for s in library.scenarios[sid].model.sides),
            "pages": c["pages"], "files": c["files"],
            "cold_s": c["wall_s"], "cold_import_s": c["import_s"], "cold_build_s": c["build_s"],
            "cold_runs_s": c["runs_wall_s"], "warm_s": w,
            "pages_per_s_cold": c["pages"] / c["wall_s"], "pages_per_s_warm": c["pages"] / w,
            "peak_mb": c["peak_mb"],
        })
    return rows


def bench_packet(ships: int, folder: Path, repeat: int, env: dict[str, str]) -> dict[str, Any]:
    """Part b: a generated fleet of ``ships`` ships: cold build time, pages, peak memory."""
    from fleet import write_fleet

    from generator.data.library import validated_library

    print(f"  packet of {ships} ships ...", file=sys.stderr, flush=True)
    sid = write_fleet(folder, ships, validated_library([]))
    c = cold(sid, [folder], repeat, env)
    return {"ships": ships, "scenario": sid, "pages": c["pages"], "files": c["files"],
            "cold_s": c["wall_s"], "cold_import_s": c["import_s"], "cold_build_s": c["build_s"],
            "cold_runs_s": c["runs_wall_s"], "pages_per_s": c["pages"] / c["wall_s"],
            "peak_mb": c["peak_mb"]}


def thousand_pages(points: list[dict[str, Any]]) -> dict[str, Any]:
    """Time and memory at 1,000 pages.

    Measured if a build reached 1,000 pages, else a straight line through the two
    largest builds measured.
    """
    big = [p for p in points if p["pages"] >= THOUSAND_PAGES]
    if big:
        p = min(big, key=lambda q: q["pages"])
        scale = THOUSAND_PAGES / p["pages"]
        return {"how": f"measured at {p['pages']} pages, scaled down linearly",
                "pages": THOUSAND_PAGES, "wall_s": p["cold_s"] * scale, "peak_mb": p["peak_mb"],
                "measured_pages": p["pages"]}
    a, b = sorted(points, key=lambda q: q["pages"])[-2:]

    def line(key: str) -> float:
        # Never below the larger build: a falling line is noise, not economy of scale.
        slope = max(0.0, (b[key] - a[key]) / (b["pages"] - a["pages"]))
        return float(b[key] + slope * (THOUSAND_PAGES - b["pages"]))

    return {"how": f"extrapolated in a straight line through the builds of {a['pages']} and "
                   f"{b['pages']} pages", "pages": THOUSAND_PAGES, "wall_s": line("cold_s"),
            "peak_mb": line("peak_mb"), "from_pages": [a["pages"], b["pages"]]}


def bench_floor(ships: int, folder: Path, repeat: int) -> dict[str, Any]:
    """Part c: status sheets of a generated fleet: quarterdeck's render against bare ReportLab."""
    from fleet import scenario_id, write_fleet
    from floor_reportlab import render_floor, specs_from_views

    from generator.data.library import validated_library
    from generator.rulesets.naval_action import RULESET
    from generator.rulesets.naval_action.components.status_sheet import render_sheets

    print(f"  floor, {ships} ships ...", file=sys.stderr, flush=True)
    sid = scenario_id(ships)
    if not (folder / f"{sid}.yaml").exists():
        write_fleet(folder, ships, validated_library([]))
    library = validated_library([folder])
    scenario = library.scenarios[sid].model
    views = RULESET._views(library, scenario)  # exactly the views `build` renders
    line = f"{scenario.name} · {scenario.date_label or scenario.date.isoformat()}"
    specs = [s for side in scenario.sides for s in specs_from_views(views[side.id], line)]

    def quarterdeck() -> int:
        return sum(render_sheets(views[side.id], "a4", f"Ship status: {side.name}", line,
                                 f"sheets:{side.id}", f"{side.id.upper()}-").pages
                   for side in scenario.sides)

    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "floor.pdf"
        with counting_canvas() as qd_counts:
            qd_pages = quarterdeck()
        with counting_canvas() as floor_counts:
            floor_pages = render_floor(specs, io.BytesIO())
        # warm-up done above; now interleave the timed runs so drift hits all three alike
        qd_t, floor_t, floor_z_t = [], [], []
        for _ in range(repeat):
            qd_t.append(timed(quarterdeck))
            floor_t.append(timed(lambda: render_floor(specs, pdf)))
            floor_z_t.append(timed(lambda: render_floor(specs, pdf, compress=True)))
        floor_bytes = pdf.stat().st_size
    build_s = warm(sid, [folder], repeat)
    qd_s, floor_s, floor_z_s = (statistics.median(t) for t in (qd_t, floor_t, floor_z_t))

    def per_ship(counts: Counter[str]) -> dict[str, float]:
        keys = ("texts", "chars", "rects", "lines", "circles", "wedges", "paths")
        return {k: counts[k] / ships for k in keys}

    return {
        "ships": ships, "scenario": sid,
        "sheets_pages": qd_pages, "floor_pages": floor_pages,
        "sheets_s": qd_s, "floor_s": floor_s, "floor_compressed_s": floor_z_s,
        "floor_compressed_pdf_mb": floor_bytes / 1e6,
        "sheets_runs_s": qd_t, "floor_runs_s": floor_t, "floor_compressed_runs_s": floor_z_t,
        "ratio": qd_s / floor_s,
        "pipeline_warm_s": build_s, "pipeline_ratio": build_s / floor_z_s,
        "primitives_per_ship": {"quarterdeck": per_ship(qd_counts),
                                "floor": per_ship(floor_counts)},
        "primitives_total": {"quarterdeck": dict(qd_counts), "floor": dict(floor_counts)},
    }


# -- reporting ---------------------------------------------------------------------------

def _mark(ok: bool) -> str:
    return "ok" if ok else "MISS"


def meta(quick: bool, repeat: int) -> dict[str, Any]:
    """Where and on what the figures were measured."""
    import pypdf
    import reportlab

    from generator import __version__

    try:
        commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=HERE,
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {
        "when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "mode": "quick" if quick else "full", "repeat": repeat,
        "quarterdeck": __version__, "commit": commit,
        "python": platform.python_version(), "reportlab": reportlab.Version,
        "pypdf": pypdf.__version__, "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "cold_children": "fresh interpreter, bytecode cached in a private PYTHONPYCACHEPREFIX",
        "load_average_at_start": _load(),
    }


def _load() -> list[float] | None:
    """The 1, 5 and 15-minute load averages (other work skews timings), if known."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def report(r: dict[str, Any]) -> str:
    """The results as a plain-text table."""
    m = r["meta"]
    out = [f"quarterdeck benchmark ({m['mode']}, median of {m['repeat']}) · {m['when']}",
           f"quarterdeck {m['quarterdeck']} ({m['commit']}) · Python {m['python']} · "
           f"ReportLab {m['reportlab']} · pypdf {m['pypdf']} · {m['cpus']} CPUs · "
           f"{m['platform']}",
           f"load average at start {m['load_average_at_start']}, at end "
           f"{m['load_average_at_end']} (other work on the machine skews timings)", ""]

    out.append("a. Bundled scenarios: build(id, out=tmp). cold = fresh interpreter, wall clock "
               "(start-up + imports + build); warm = in-process after a warm-up build")
    out.append(f"   {'scenario':<14}{'ships':>6}{'pages':>6}{'cold s':>8}{'import':>8}"
               f"{'build':>7}{'warm s':>8}{'pg/s cold':>10}{'pg/s warm':>10}{'peak MB':>9}  target")
    for s in r["scenarios"]:
        target = ""
        if s["scenario"] == r["default_scenario"]:
            target = f"cold < {DEFAULT_COLD_S:g} s: {_mark(s['cold_s'] < DEFAULT_COLD_S)}"
        out.append(f"   {s['scenario']:<14}{s['ships']:>6}{s['pages']:>6}{s['cold_s']:>8.3f}"
                   f"{s['cold_import_s']:>8.3f}{s['cold_build_s']:>7.3f}{s['warm_s']:>8.3f}"
                   f"{s['pages_per_s_cold']:>10.1f}{s['pages_per_s_warm']:>10.1f}"
                   f"{s['peak_mb']:>9.0f}  {target}")
    out.append("")

    out.append("b. Generated packets: build(id, data=[folder], out=tmp) in a fresh interpreter; "
               "pages summed over all packets")
    out.append(f"   {'ships':>6}{'pages':>7}  {'packets (pages)':<40}{'wall s':>8}{'pg/s':>8}"
               f"{'peak MB':>9}")
    for p in r["packets"]:
        files = ", ".join(f"{k} {v}" for k, v in p["files"].items())
        out.append(f"   {p['ships']:>6}{p['pages']:>7}  {files:<40}{p['cold_s']:>8.3f}"
                   f"{p['pages_per_s']:>8.1f}{p['peak_mb']:>9.0f}")
    t = r["thousand_pages"]
    out.append(f"   1,000 pages ({t['how']}): {t['wall_s']:.2f} s "
               f"[target < {THOUSAND_S:g} s: {_mark(t['wall_s'] < THOUSAND_S)}], "
               f"{t['peak_mb']:.0f} MB [target < {THOUSAND_MB:g} MB: "
               f"{_mark(t['peak_mb'] < THOUSAND_MB)}]")
    out.append("")

    f = r["floor"]
    out.append(f"c. Floor: status sheets of the {f['ships']}-ship fleet, in-process after "
               "warm-up")
    out.append(f"   {'':<58}{'time s':>8}{'pages':>7}{'pg/s':>8}")
    rows = [("quarterdeck render_sheets (every side)", f["sheets_s"], f["sheets_pages"]),
            ("floor_reportlab, uncompressed (as render_sheets)", f["floor_s"], f["floor_pages"]),
            ("floor_reportlab, compressed (finished PDF)", f["floor_compressed_s"],
             f["floor_pages"])]
    for label, secs, pages in rows:
        out.append(f"   {label:<58}{secs:>8.3f}{pages:>7}{pages / secs:>8.1f}")
    out.append(f"   sheets / floor = {f['ratio']:.2f}x [target <= {FLOOR_RATIO:g}x: "
               f"{_mark(f['ratio'] <= FLOOR_RATIO)}]")
    out.append(f"   whole pipeline (warm build, {r['floor_packet_pages']} pages in "
               f"{len(r['floor_packet_files'])} packets) {f['pipeline_warm_s']:.3f} s / "
               f"compressed floor = {f['pipeline_ratio']:.2f}x (for information)")
    keys = ("texts", "chars", "rects", "lines", "circles", "wedges", "paths")
    out.append("   canvas calls per ship " + "".join(f"{k:>8}" for k in keys))
    for who in ("quarterdeck", "floor"):
        per = f["primitives_per_ship"][who]
        out.append(f"   {who:<22}" + "".join(f"{per[k]:>8.1f}" for k in keys))
    qd, fl = (f["primitives_total"][who] for who in ("quarterdeck", "floor"))
    differ = [f"{k} {qd.get(k, 0)} vs {fl.get(k, 0)}" for k in (*keys, "pages")
              if qd.get(k, 0) != fl.get(k, 0)]
    out.append("   the floor makes the same calls" if not differ else
               "   FLOOR DIFFERS (update bench/floor_reportlab.py): " + ", ".join(differ))
    return "\n".join(out)


def main() -> None:
    """Run the benchmark and write bench/results/latest.json."""
    parser = argparse.ArgumentParser(description="Benchmark quarterdeck (see bench/README.md).")
    parser.add_argument("--quick", action="store_true",
                        help="only savo-island and a 100-ship packet")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per figure (median)")
    args = parser.parse_args()

    from fleet import ship_pairs

    from generator.data.library import validated_library
    from generator.rulesets import default_scenario

    DEFAULT_SCENARIO = default_scenario()

    library = validated_library([])
    ids = [DEFAULT_SCENARIO] if args.quick else sorted(library.scenarios)
    available = len(ship_pairs(library))
    sizes = [100] if args.quick else [500, available]
    floor_ships = 100 if args.quick else 500
    results: dict[str, Any] = {"meta": meta(args.quick, args.repeat),
                               "default_scenario": DEFAULT_SCENARIO,
                               "available_ships": available}
    with tempfile.TemporaryDirectory() as tmp:
        env = child_env(Path(tmp) / "pycache")
        results["scenarios"] = bench_scenarios(ids, args.repeat, env)
        results["packets"] = [bench_packet(n, Path(tmp) / f"fleet-{n}", args.repeat, env)
                              for n in sizes]
        points = [{"pages": s["pages"], "cold_s": s["cold_s"], "peak_mb": s["peak_mb"]}
                  for s in results["scenarios"]] + results["packets"]
        results["thousand_pages"] = thousand_pages(points)
        results["floor"] = bench_floor(floor_ships, Path(tmp) / f"fleet-{floor_ships}",
                                       args.repeat)
    packet = next(p for p in results["packets"] if p["ships"] == floor_ships)
    results["floor_packet_pages"] = packet["pages"]
    results["floor_packet_files"] = packet["files"]
    results["meta"]["load_average_at_end"] = _load()
    results["targets"] = {
        "default_cold_s": DEFAULT_COLD_S, "thousand_pages_s": THOUSAND_S,
        "thousand_pages_mb": THOUSAND_MB, "sheets_floor_ratio": FLOOR_RATIO,
    }
    text = report(results)
    results["table"] = text.splitlines()
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    print(text)
    print(f"\nwritten: {RESULTS}")


if __name__ == "__main__":
    main()
