"""Exact vector search latency as a library grows, with and without windows.

Runs the real `VectorIndex.search` (normalized matrix, best window per unit,
top-k) over random vectors served by a minimal in-memory store, for N units of
1 window (one text per unit) and of W windows (what windowed embedding stores
for long units: 5.2 per unit on the 27 real PDFs).  No SQLite and no model:
this isolates the NumPy scoring cost that windows multiply.

    python bench/vector_scale.py --units 60000 300000 --windows 5
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from papershelf.vector_index import VectorIndex

from papershelf.store import Filters


class _MemoryStore:
    """The few store methods VectorIndex reads, over one random 'body' collection."""

    def __init__(self, units: int, windows: int, dim: int):
        rng = np.random.default_rng(0)
        self.ids = [f"p{i // 30}:body:{i % 30}" for i in range(units)]
        self.papers = [u.split(":")[0] for u in self.ids]
        self.counts = np.full(units, windows, dtype=np.int64)
        self.matrix = rng.standard_normal((units * windows, dim), dtype=np.float32)

    def generation(self, space_id):
        return 1

    def lock_holder(self):
        return None

    def load_collection(self, space_id, collection, dimension):
        if collection != "body":
            return [], [], np.zeros(0, np.int64), np.zeros((0, dimension), np.float32)
        return self.ids, self.papers, self.counts, self.matrix

    def object_kinds(self, space_id):
        return {}

    def paper_years(self):
        return {}


def measure(units: int, windows: int, dim: int, queries: int) -> dict:
    store = _MemoryStore(units, windows, dim)
    index = VectorIndex(store)
    space = {"id": 1, "dimension": dim}
    t0 = time.perf_counter()
    index.matrix(space)
    load = time.perf_counter() - t0
    rng = np.random.default_rng(1)
    times = []
    for q in rng.standard_normal((queries, dim), dtype=np.float32):
        t0 = time.perf_counter()
        index.search(space, q, 100, Filters())
        times.append((time.perf_counter() - t0) * 1000)
    return {"units": units, "windows_per_unit": windows, "rows": units * windows,
            "matrix_mb": round(units * windows * dim * 4 / 2**20), "load_s": round(load, 2),
            "p50_ms": round(float(np.percentile(times, 50)), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--units", type=int, nargs="+", default=[60_000, 300_000])
    ap.add_argument("--windows", type=int, default=5)
    ap.add_argument("--dim", type=int, default=384)
    ap.add_argument("--queries", type=int, default=20)
    args = ap.parse_args()
    rows = []
    for n in args.units:
        for w in (1, args.windows):
            rows.append(measure(n, w, args.dim, args.queries))
            print(json.dumps(rows[-1]), flush=True)


if __name__ == "__main__":
    main()
