"""Is the bounded top-k (store/postgres/topk.py) harmless?  SciFact's 5,183 abstracts inside a big
lab library (pg_lab_scale.py's, 300k or 1M windows of SciFact-like prose), each claim searched
lexically in exact mode (`PAPERSHELF_PG_EXACT_LEXICAL=1`: every list read when unproven, the
exact BM25 ranking, as SQLite FTS5 ranks - tests/test_pg_tokens.py checks the scores are FTS5's)
and in the default mode, back to back: nDCG@10 and recall@100 against SciFact's qrels (one hit per
paper, as `bench beir`), the share of the exact top 10 kept, and the latency of both.

Halves: claim ids even (A, the development half the read budget was chosen on, by its agreement
with the exact ranking, never by qrels) and odd (B, measured once).

    python bench/pg_scale_ndcg.py ../shared/data/scifact --url postgresql://.../pg_lab?... --add
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from papershelf import Library, SearchOptions
from papershelf.beir import load_beir
from papershelf.metrics import bootstrap_ci, ndcg_at_k, percentile, recall_at_k
from papershelf.store.postgres import bm25
from papershelf.store.postgres.papers import TSV_SQL


def add_scifact(lib: Library, corpus: list[dict]) -> float:
    """The abstracts as papers of one body unit each (ids: SciFact's), by COPY, then their BM25
    statistics; no vectors (pending papers: lexical search is the point)."""
    t0 = time.perf_counter()
    store: Any = lib.store  # the PostgreSQL store's own transaction() and query(), not the contract's
    with store.transaction() as db, db.cursor() as cur:
        if cur.execute("SELECT 1 FROM papers WHERE id = %s", (corpus[0]["_id"],)).fetchone():
            return 0.0
        cur.execute("CREATE TEMP TABLE sf (unit_id text, paper_id text, title text, heading text, body text)")
        with cur.copy("COPY papers (id, title, year, added_at, updated_at) FROM STDIN") as cp:
            for d in corpus:
                cp.write_row((d["_id"], d.get("title") or "", 2000, 0, 0))
        with cur.copy("COPY body_units (id, paper_id, ordinal, text, section_path, section_title, section_level, "
                      "token_estimate, content_hash) FROM STDIN") as cp:
            for d in corpus:
                cp.write_row((f"{d['_id']}:body:0", d["_id"], 0, d.get("text") or "", "", "", 0,
                              len(d.get("text") or "") // 4, "h"))
        with cur.copy("COPY sf FROM STDIN") as cp:
            for d in corpus:
                cp.write_row((f"{d['_id']}:body:0", d["_id"], d.get("title") or "", "", d.get("text") or ""))
        cur.execute("INSERT INTO search_docs(unit_id, paper_id, source, object_kind, title, heading, body, tsv) "
                    "SELECT unit_id, paper_id, 'body_unit', NULL, title, heading, body, "
                    + TSV_SQL.replace("%s", "{}").format("title", "heading", "body") + " FROM sf")
        bm25.rebuild(db, only_new=True)
    store.query("ANALYZE")
    return time.perf_counter() - t0


def _ranked(lib: Library, text: str, exact: bool) -> tuple[list[str], float]:
    os.environ["PAPERSHELF_PG_EXACT_LEXICAL"] = "1" if exact else "0"
    t = time.perf_counter()
    resp = lib.search(text, SearchOptions(mode="lexical", limit=100, per_paper=1, snippets=False))
    return [h.paper_id for h in resp.results], (time.perf_counter() - t) * 1000


def summary(r: dict, halves: list[str]) -> dict:
    out: dict = {"p50_ms": round(percentile(r["ms"], 50), 1), "p95_ms": round(percentile(r["ms"], 95), 1)}
    for half in ("A", "B", None):
        vals = [v for v, h in zip(r["ndcg"], halves) if half is None or h == half]
        if vals:
            lo, hi = bootstrap_ci(vals)
            out[f"ndcg@10_{half or 'all'}"] = [round(sum(vals) / len(vals), 4), round(lo, 4), round(hi, 4)]
    out["recall@100"] = round(sum(r["recall"]) / len(r["recall"]), 4)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--url", required=True, help="the lab library")
    ap.add_argument("--add", action="store_true", help="add the SciFact abstracts first (once)")
    ap.add_argument("--half", choices=["A", "B", "all"], default="all")
    ap.add_argument("--max-claims", type=int)
    args = ap.parse_args()
    corpus, queries, qrels, _ = load_beir(args.folder)
    with Library(args.url) as lib:
        out: dict = {"add_s": round(add_scifact(lib, corpus), 1) if args.add else None}
        store: Any = lib.store  # the PostgreSQL store's own query(), not the contract's
        out["units"] = int(store.query("SELECT sum(docs) AS n FROM bm25_totals")[0]["n"])
        per: dict[str, dict[str, list[float]]] = {m: {"ndcg": [], "recall": [], "ms": []} for m in ("exact", "default")}
        halves: list[str] = []
        kept: list[float] = []
        load = [os.getloadavg()[0]]
        lib.search("warm up", mode="lexical")
        for qid, text in queries.items():
            half = "A" if int(qid) % 2 == 0 else "B"
            if args.half not in ("all", half) or len(halves) == args.max_claims:
                continue
            halves.append(half)
            ranked = {}
            for mode in ("exact", "default"):
                ranked[mode], ms = _ranked(lib, text, mode == "exact")
                per[mode]["ms"].append(ms)
                per[mode]["ndcg"].append(ndcg_at_k(ranked[mode], qrels[qid], 10))
                per[mode]["recall"].append(recall_at_k(ranked[mode], qrels[qid], 100))
            want = ranked["exact"][:10]
            kept.append(len(set(ranked["default"][:10]) & set(want)) / max(1, len(want)))
        load.append(os.getloadavg()[0])
    out.update({m: summary(r, halves) for m, r in per.items()})
    out.update(claims=len(halves), top10_papers_kept=round(sum(kept) / len(kept), 4), load_avg=load)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
