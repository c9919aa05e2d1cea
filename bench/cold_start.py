"""`papershelf search` in fresh processes: wall time and peak memory, plus warm per-query latency.

For each library and mode (lexical, hybrid) the command runs `--runs` times in a
new process after one untimed warm-up run (which also writes the derived vector
files, and leaves the OS page cache warm, as it is for a user's second search);
reported are the median wall time and the child's peak RSS (`os.wait4` rusage).
Then, in this process, warm hybrid latency per query including query encoding.

    python bench/cold_start.py demo/library.db /tmp/lib10k.db --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

QUERIES = ["what keeps macrophages inflammatory in wounds", "coral bleaching by depth", "IL-6 western blot",
           "citation graph dense retrieval", "field notes on sampling", "signal transduction in cells",
           "table of survey sites", "fine-tuning sentence encoders", "temperature anomalies", "protein assays"]


def run_once(library: str, mode: str, query: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one `papershelf search` in a fresh process."""
    cmd = [sys.executable, "-m", "papershelf", "--library", library, "search", query, "--mode", mode, "-n", "10"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    return wall, usage.ru_maxrss / 1024


def cold(library: str, mode: str, runs: int) -> dict:
    run_once(library, mode, QUERIES[0])  # warm-up: derived files, page cache
    times, peaks = zip(*(run_once(library, mode, QUERIES[i % len(QUERIES)]) for i in range(runs)))
    return {"wall_median_s": round(float(np.median(times)), 3), "wall_min_s": round(min(times), 3),
            "peak_rss_mb": round(max(peaks))}


def warm(library: str, n: int = 30) -> dict:
    from papershelf import Library

    with Library(library) as lib:
        lib.search(QUERIES[0], mode="hybrid")
        times, cpu = [], []
        for i in range(n):
            t0, c0 = time.perf_counter(), time.process_time()
            lib.search(QUERIES[i % len(QUERIES)] + f" {i}", mode="hybrid")  # new text: no cached encoding
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    return {"warm_hybrid_p50_ms": round(1000 * float(np.median(times)), 1),
            "warm_hybrid_cpu_p50_ms": round(1000 * float(np.median(cpu)), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("libraries", nargs="+")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    out: dict[str, dict[str, dict | float] | tuple[float, float, float]] = {}
    for library in args.libraries:
        results: dict[str, dict | float] = {mode: cold(library, mode, args.runs) for mode in ("lexical", "hybrid")}
        results.update(warm(library))
        out[library] = results
    out["load_average"] = os.getloadavg()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
