"""Vector search at scale on a synthetic library: load, latency, memory, shortlist recall.

Builds (or reuses) a synthetic library (bench/synthetic_library.py), then in one run:
* snapshot from SQLite into memory (what every process paid before derived files);
* derived files written once, then mapped by a fresh index (what a new process pays now);
* warm query latency: exact scan of every window vs the derived files' shortlist (the nearest
  k-means clusters of unit means, then their int8 codes) + exact re-score of the windows of a few
  hundred units;
* recall@100 of that against the exact scan, unfiltered and with a selective filter;
* resident memory of the process after each step, and the size of the derived files.

    python bench/vector_scale.py /tmp/lib10k.db --papers 10000
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import time

import numpy as np
from synthetic_library import build as build_library
from synthetic_library import queries

from papershelf.models import Filters
from papershelf.store.sqlite import SQLiteStore
from papershelf.store.sqlite import snapshot as vector_snapshot
from papershelf.store.sqlite.vector_index import VectorIndex


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def latency(index: VectorIndex, space, qs: np.ndarray, f: Filters) -> tuple[float, list]:
    times, results = [], []
    for q in qs:
        t0 = time.perf_counter()
        results.append(index.search(space, q, 100, f))
        times.append((time.perf_counter() - t0) * 1000)
    return float(np.percentile(times, 50)), results


def recall(exact: list, approx: list) -> float:
    got = [len({h.unit_id for h in a} & {h.unit_id for h in e}) / max(1, len(e)) for e, a in zip(exact, approx)]
    return float(np.mean(got))


def _folders(path: str) -> list[str]:
    root = vector_snapshot.files_root(path)
    return [os.path.join(root, name) for name in os.listdir(root)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path")
    ap.add_argument("--papers", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=100)
    args = ap.parse_args()
    if not os.path.exists(args.path):
        build_library(args.path, args.papers)
    store = SQLiteStore(args.path, create=False)
    space = store.active_space()
    out: dict = {"papers": store.count_papers(), "rss_start_mb": round(rss_mb())}
    shutil.rmtree(vector_snapshot.files_root(args.path), ignore_errors=True)
    assert space is not None, "the library has no vector space to measure"

    snap, out["sqlite_load_s"] = timed(vector_snapshot.build, store, space)
    out["windows"], out["units"] = len(snap.vectors), snap.units
    out["rss_in_memory_mb"] = round(rss_mb())
    exact = VectorIndex(store, files=False)
    exact._cache[space.id] = snap
    snap.codes = None  # the exact scan: every window
    qs = queries(args.queries)
    selective = Filters(year_from=2001, year_to=2001, sources=["object_unit"])
    out["exact_p50_ms"], exact_hits = latency(exact, space, qs, Filters())
    _, exact_filtered = latency(exact, space, qs[:20], selective)
    del exact, snap

    _, out["derived_files_build_s"] = timed(
        vector_snapshot.build_files, store, args.path, store.library_id(), space)
    fresh = VectorIndex(store)
    rss0 = rss_mb()
    _, out["cold_map_s"] = timed(fresh.matrix, space)
    out["shortlist_p50_ms"], approx = latency(fresh, space, qs, Filters())
    _, approx_filtered = latency(fresh, space, qs[:20], selective)
    out["rss_mapped_mb"] = round(rss_mb())
    out["rss_added_by_mapped_index_mb"] = round(rss_mb() - rss0)
    out["derived_files_mb"] = {name: round(os.path.getsize(os.path.join(folder, name)) / 2**20)
                               for folder in _folders(args.path) for name in sorted(os.listdir(folder))}
    out["recall@100"] = round(recall(exact_hits, approx), 4)
    out["recall@100_selective_filter"] = round(recall(exact_filtered, approx_filtered), 4)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
