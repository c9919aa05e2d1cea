"""How well the bounded top-k (store/postgres/topk.py) spends its read budget on a big library:
for SciFact claims, its ranking against the exact (exhaustive) BM25 ranking of the same library -
the share of the exact top 10 / top 100 it keeps, how often it proves its answer - and the
ranking's latency alone (`store.lexical_search`, no snippets), each budget measured back to back
on every claim so the machine's load falls on all alike.

Claims: one half by claim id parity (`--half even` to tune on, `odd` to measure once).
`0:2000:400` is the first bounded read's budget (2,000 postings of every list, nothing more).

    python bench/pg_topk_budget.py ../shared/data/scifact --url postgresql://.../pg_lab?... \\
        --budgets 16000:200:400 32000:200:400 --half even --claims 60
"""

from __future__ import annotations

import argparse
import json
import os
import time

from papershelf import Filters, Library
from papershelf.beir import load_beir
from papershelf.metrics import percentile
from papershelf.search.query import fts_query
from papershelf.store.postgres import bm25, topk

K = 100


def _ranked(store, match: str) -> tuple[list[str], float, bool]:
    proven: list[bool] = []
    real = topk.top

    def spy(*a):
        r = real(*a)
        proven.append(r[1])
        return r

    topk.top = spy
    try:
        t = time.perf_counter()
        hits = store.lexical_search(match, K, Filters())
        ms = (time.perf_counter() - t) * 1000
    finally:
        topk.top = real
    return [h.unit_id for h in hits], ms, bool(proven and proven[0])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--url", required=True)
    ap.add_argument("--budgets", nargs="+", default=["16000:200:400"], help="BUDGET:HEAD:RESCORE")
    ap.add_argument("--half", choices=["even", "odd", "all"], default="even")
    ap.add_argument("--claims", type=int, default=60)
    args = ap.parse_args()
    _, queries, _, _ = load_beir(args.folder)
    parity = {"even": [0], "odd": [1], "all": [0, 1]}[args.half]
    claims = [q for qid, q in queries.items() if int(qid) % 2 in parity][:args.claims]
    budgets = [tuple(int(v) for v in b.split(":")) for b in args.budgets]
    kept: dict = {b: {"top10": [], "top100": [], "ms": [], "proven": 0} for b in budgets}
    exact_ms: list[float] = []
    load = [os.getloadavg()[0]]
    with Library(args.url) as lib:
        store = lib.store
        for claim in claims:
            match = fts_query(claim)
            if not match:
                continue
            full, bm25.FULL_MAX = bm25.FULL_MAX, 10**12  # every list read: the truth
            truth, ms, _ = _ranked(store, match)
            bm25.FULL_MAX = full
            exact_ms.append(ms)
            for b in budgets:
                topk.BUDGET, topk.HEAD, topk.RESCORE = b
                got, ms, proven = _ranked(store, match)
                r = kept[b]
                r["ms"].append(ms)
                r["proven"] += proven
                r["top10"].append(len(set(got[:10]) & set(truth[:10])) / max(1, min(10, len(truth))))
                r["top100"].append(len(set(got) & set(truth)) / max(1, len(truth)))
        load.append(os.getloadavg()[0])
    out = {"claims": len(exact_ms), "half": args.half, "load_avg": load,
           "exhaustive_p50_ms": round(percentile(exact_ms, 50), 1), "budgets": []}
    for b, r in kept.items():
        out["budgets"].append({"budget:head:rescore": ":".join(map(str, b)), "p50_ms": round(percentile(r["ms"], 50), 1),
                               "p95_ms": round(percentile(r["ms"], 95), 1),
                               "top10_kept": round(sum(r["top10"]) / len(r["top10"]), 4),
                               "top100_kept": round(sum(r["top100"]) / len(r["top100"]), 4), "proven": r["proven"]})
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
