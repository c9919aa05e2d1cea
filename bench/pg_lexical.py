"""Lexical search on PostgreSQL against SQLite FTS5, on the same SciFact library: nDCG@10 per
half of the claims and latency, each claim searched on both backends back to back (so the
shared machine's load falls on both alike; compare the ratio of the p50s).

Halves: claims with an even numeric id (A) and an odd one (B).  Latency is a person's search
(the default 10 results with snippets, phrase and NEAR evidence included), as `bench beir`.

    python bench/pg_lexical.py ../shared/data/scifact --url postgresql://... [--sqlite /tmp/sf.db]

`--heads BUDGET:HEAD:RESCORE` makes PostgreSQL rank every claim from its lists' heads (topk.py)
with that budget, whatever the lists' length (SciFact's 5,183 units are 1/20 of a 100k library).
The approximation's effect on nDCG inside a big library is measured by bench/pg_scale_ndcg.py.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time

import psycopg

from papershelf import Library, SearchOptions
from papershelf.beir import build_library, load_beir
from papershelf.metrics import bootstrap_ci, ndcg_at_k, percentile, recall_at_k


def database(admin: str, name: str, fresh: bool) -> str:
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", (name,)).fetchone()
        if fresh or not exists:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
    return admin.replace("/postgres?", f"/{name}?", 1)


def build(lib: Library, corpus: list[dict], name: str) -> float:
    t0 = time.perf_counter()
    if lib.store.count_papers() != len(corpus):
        build_library(lib, corpus)
    secs = time.perf_counter() - t0
    print(f"{name}: {len(corpus)} abstracts in {secs:.1f} s", flush=True)
    return secs


def run(libs: dict[str, Library], queries: dict[str, str], qrels: dict) -> dict:
    per: dict[str, dict[str, list]] = {n: {"ndcg": [], "recall": [], "ms": [], "half": []} for n in libs}
    for qid, text in queries.items():
        for name, lib in libs.items():
            resp = lib.search(text, SearchOptions(mode="lexical", limit=100, per_paper=1, snippets=False))
            ranked = [h.paper_id for h in resp.results]
            t0 = time.perf_counter()
            lib.search(text, SearchOptions(mode="lexical"))
            per[name]["ms"].append((time.perf_counter() - t0) * 1000)
            per[name]["ndcg"].append(ndcg_at_k(ranked, qrels[qid], 10))
            per[name]["recall"].append(recall_at_k(ranked, qrels[qid], 100))
            per[name]["half"].append("A" if int(qid) % 2 == 0 else "B")
    out = {}
    for name, r in per.items():
        res: dict = {"p50_ms": round(percentile(r["ms"], 50), 2), "p95_ms": round(percentile(r["ms"], 95), 2)}
        for half in ("A", "B", None):
            vals = [v for v, h in zip(r["ndcg"], r["half"]) if half is None or h == half]
            lo, hi = bootstrap_ci(vals)
            res[f"ndcg@10_{half or 'all'}"] = [round(sum(vals) / len(vals), 4), round(lo, 4), round(hi, 4)]
        res["recall@100"] = round(sum(r["recall"]) / len(r["recall"]), 4)
        out[name] = res
    out["p50_ratio"] = round(out["postgresql"]["p50_ms"] / out["sqlite"]["p50_ms"], 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--url", required=True, help="the server's maintenance URL (…/postgres?host=…)")
    ap.add_argument("--sqlite", help="keep the SQLite library here (reused when complete)")
    ap.add_argument("--fresh", action="store_true", help="rebuild the PostgreSQL library")
    ap.add_argument("--max-queries", type=int)
    ap.add_argument("--heads", help="BUDGET:HEAD:RESCORE: PostgreSQL ranks from its lists' heads (topk.py) always")
    args = ap.parse_args()
    if args.heads:
        from papershelf.store.postgres import bm25, topk

        bm25.FULL_MAX = 0
        topk.BUDGET, topk.HEAD, topk.RESCORE = (int(v) for v in args.heads.split(":"))
    corpus, queries, qrels, _ = load_beir(args.folder)
    if args.max_queries:
        queries = dict(list(queries.items())[:args.max_queries])
    with tempfile.TemporaryDirectory() as tmp, Library(args.sqlite or os.path.join(tmp, "sf.db")) as lite, \
                Library(database(args.url, "pg_lexical", args.fresh)) as pg:
        result: dict[str, dict | int | str | None | tuple[float, float, float]] = {
            "build_s": {"sqlite": build(lite, corpus, "sqlite"), "postgresql": build(pg, corpus, "postgresql")}}
        libs = {"sqlite": lite, "postgresql": pg}
        for lib in libs.values():
            lib.search("warm up", mode="lexical")
        result.update(run(libs, queries, qrels))
        result["queries"] = len(queries)
        result["heads"] = args.heads
        result["load"] = os.getloadavg()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
