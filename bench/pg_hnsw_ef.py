"""HNSW recall@10 and latency against ef_search on a kept lab library (pg_lab_scale.py's): which
ef_search the store needs at that size.  Query vectors are the lab bench's 100 held-out points
(same clusters, not in the library), split by index: even ones to choose on, odd ones to report.

    python bench/pg_hnsw_ef.py --url postgresql://.../pg_lab_1m?... --windows 1000000 --ef 200 400 600
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from pg_lab_scale import DIM, exact_top10
from pg_scale import synthetic

from papershelf import Filters, Library
from papershelf.metrics import percentile


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--windows", type=int, required=True, help="the library's size (its --vectors-for)")
    ap.add_argument("--ef", type=int, nargs="+", default=[200, 400])
    args = ap.parse_args()
    both = synthetic(args.windows + 100, DIM)
    x, qvecs = both[:args.windows], both[args.windows:]
    truth = exact_top10(x, qvecs)
    out: dict = {"windows": args.windows, "load_avg": [os.getloadavg()[0]], "ef": []}
    with Library(args.url) as lib:
        space = lib.store.get_space(lib.store.query("SELECT id FROM spaces ORDER BY id LIMIT 1")[0]["id"])
        for ef in args.ef:
            lib.store.ef_search = ef
            row: dict = {"ef_search": ef}
            for name, part in (("dev", range(0, 100, 2)), ("test", range(1, 100, 2))):
                ms, recall = [], []
                for i in part:
                    t = time.perf_counter()
                    hits = [h.unit_id for h in lib.store.vector_search(space, qvecs[i], 10, Filters())]
                    ms.append((time.perf_counter() - t) * 1000)
                    recall.append(len(set(hits) & set(truth[i])) / 10)
                row[name] = {"recall@10": round(float(np.mean(recall)), 4), "p50_ms": round(percentile(ms, 50), 1),
                             "p95_ms": round(percentile(ms, 95), 1)}
            out["ef"].append(row)
            print(json.dumps(row), flush=True)
    out["load_avg"].append(os.getloadavg()[0])
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
