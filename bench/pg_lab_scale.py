"""A PostgreSQL lab library grown step by step (e.g. 100k -> 300k -> 1M windows): lexical,
vector (HNSW) and hybrid search latency, recall, load and index build times, disk size, the
contract's write rate, and a writer adding papers while 4 clients search.

What grows: papers of 10 body units each, one window per unit (so windows = units), whose
text is 5-8 sentences drawn at random from the SciFact abstracts (real scientific prose and
vocabulary; about one 128-token window), the title a SciFact title, the heading one of eight
section names; years 1950-2049.  Vectors are pg_scale.py's clustered 384-d vectors in a space
of the local model (all-MiniLM-L6-v2), so a hybrid search encodes its query with that model.
Queries are SciFact claims.  Each step is bulk-loaded with COPY by `--workers` processes (a
build writes paper by paper; the write rate through the contract is measured separately), then the
BM25 statistics are recounted in bulk and the HNSW index rebuilt, each timed (pg_bulk.py).

    python bench/pg_lab_scale.py ../shared/data/scifact --sizes 100000 300000 --url postgresql://...
    # grow a copy of a kept library (its vectors drawn for the same largest size):
    ... --sizes 1000000 --vectors-for 1000000 --db pg_lab_1m --template pg_lab
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import pg_bulk
from pg_scale import synthetic
from pg_units import DIM, PER_PAPER, SECTIONS, Text

from papershelf import Filters, Library, SearchOptions
from papershelf.beir import load_beir
from papershelf.document import Block, Document
from papershelf.embed.build import _space_for
from papershelf.metrics import percentile
from papershelf.models import Paper


def timed(fn, items) -> list[float]:
    out = []
    for it in items:
        t = time.perf_counter()
        fn(it)
        out.append((time.perf_counter() - t) * 1000)
    return out


def stats(ms: list[float]) -> dict:
    return {"p50_ms": round(percentile(ms, 50), 1), "p95_ms": round(percentile(ms, 95), 1), "n": len(ms)}


def client(url: str, claims: list[str], seconds: float, out) -> None:
    """One searching client (its own process and connection): lexical and vector searches in turn."""
    errors, ms = 0, []
    with Library(url) as lib:
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            t = time.perf_counter()
            try:
                lib.search(claims[i % len(claims)], SearchOptions(mode="lexical" if i % 2 else "vector"))
            except Exception:  # noqa: BLE001 - counted, the point is that there are none
                errors += 1
            ms.append((time.perf_counter() - t) * 1000)
            i += 1
    out.put((errors, ms))


def write_papers(lib: Library, text: Text, start: int, papers: int) -> float:
    """Papers per second through the contract (add_document: one transaction per paper)."""
    t0 = time.perf_counter()
    for p in range(start, start + papers):
        title = text.title()
        blocks = []
        for s in SECTIONS[:PER_PAPER // 2]:
            blocks += [Block("heading", s, level=1), Block("text", text.unit()), Block("text", text.unit())]
        lib.add_document(Paper(id=f"w{p:07d}", title=title, year=2020, source_format="beir"),
                         Document(title=title, blocks=blocks))
    return papers / (time.perf_counter() - t0)


def under_load(url: str, lib: Library, text: Text, claims: list[str], seconds: float, start: int) -> dict:
    q: mp.Queue = mp.Queue()
    procs = [mp.Process(target=client, args=(url, claims[i::4], seconds, q)) for i in range(4)]
    for p in procs:
        p.start()
    time.sleep(3)  # clients connected and warm
    t0, written = time.perf_counter(), 0
    while time.perf_counter() - t0 < seconds - 6:
        write_papers(lib, text, start + written, 1)
        written += 1
    rate = written / (time.perf_counter() - t0)
    results = [q.get() for _ in procs]
    for p in procs:
        p.join()
    ms = [m for _, r in results for m in r]
    return {"writer_papers_per_s": round(rate, 2), "searches": len(ms), "errors": sum(e for e, _ in results),
            **stats(ms)}


# What a search reads, each read whole once through SQL (so any server can be warmed, no file access):
# the postings' two indexes (index-only scans), the tsvectors (detoasted), the units, the vectors
# and the HNSW graph (an exact scan does not read it: a few hundred searches at a large ef do).
WARM = ["SET enable_seqscan = off",
        "SELECT count(doc_key) FROM bm25_postings WHERE term_id > 0",
        "SELECT count(term_id) FROM bm25_postings WHERE doc_key > 0",
        "RESET enable_seqscan",
        "SELECT count(*) FROM search_docs WHERE length(tsv) > 0",
        "SELECT count(*) FROM bm25_docs", "SELECT sum(length(text)) FROM body_units",
        "SELECT count(*) FROM vector_windows"]


def warm(lib: Library, space, qvecs: np.ndarray) -> float:
    """Read what searches read (WARM), then 300 HNSW searches at ef_search 1000; the seconds taken."""
    t = time.perf_counter()
    store: Any = lib.store  # the PostgreSQL store's own query() and ef_search, not the contract's
    for sql in WARM:
        store.query(sql)
    ef = store.ef_search
    store.ef_search = 1000
    rng = np.random.default_rng(1)
    for q in rng.normal(size=(300, qvecs.shape[1])).astype(np.float32):
        store.vector_search(space, q / np.linalg.norm(q), 10, Filters())
    store.ef_search = ef
    return round(time.perf_counter() - t, 1)


def exact_top10(x: np.ndarray, qvecs: np.ndarray) -> list[list[str]]:
    """Each query's true 10 nearest windows (exact cosine), by unit id: the truth of HNSW recall."""
    return [[f"u{i:08d}" for i in np.argsort(-(x @ q))[:10]] for q in qvecs]


def measure(lib: Library, space, x: np.ndarray, n: int, claims: list[str], qvecs: np.ndarray) -> dict:
    store: Any = lib.store  # the PostgreSQL store's own query() and ef_search, not the contract's
    res: dict = {"windows": n, "disk_mb": round(store.stats().size_bytes / 2**20)}
    sizes = store.query("SELECT relname, pg_total_relation_size(oid) AS b FROM pg_class WHERE relname IN "
                        "('bm25_postings', 'vector_windows', 'search_docs')")
    res["table_mb"] = {r["relname"]: round(r["b"] / 2**20) for r in sizes}
    lexical = lambda c: lib.search(c, SearchOptions(mode="lexical"))  # noqa: E731
    lexical(claims[0])
    res["lexical"] = stats(timed(lexical, claims))
    print(json.dumps(res), flush=True)
    res["lexical_filtered_year"] = stats(timed(lambda c: lib.search(c, SearchOptions(
        mode="lexical", filters=Filters(year_min=2001, year_max=2001))), claims[:50]))
    answers = exact_top10(x[:n], qvecs)
    hits: list[list[str]] = []
    ms = timed(lambda q: hits.append([h.unit_id for h in store.vector_search(space, q, 10, Filters())]), qvecs)
    res["hnsw"] = {**stats(ms), "recall@10": round(float(np.mean(
        [len(set(h) & set(a)) / 10 for h, a in zip(hits, answers)])), 4), "ef_search": store.ef_search}
    print(json.dumps(res), flush=True)
    parts: list[dict] = []
    hybrid = lambda c: parts.append(lib.search(c, SearchOptions(mode="hybrid")).timings_ms)  # noqa: E731
    hybrid(claims[0])  # loads the model
    res["hybrid_with_encoder"] = stats(timed(hybrid, claims[:100]))
    # vector_ms includes encoding the query (the encoder runs beside BM25)
    res["hybrid_with_encoder"]["parts_p50_ms"] = {k: round(percentile([p.get(k, 0) for p in parts[1:]], 50), 1)
                                                  for k in ("lexical_ms", "vector_ms", "total_ms")}
    enc = lib.query_provider(space)
    res["query_encoder_p50_ms"] = stats(timed(lambda c: enc.encode([c]), claims[:50]))["p50_ms"]
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--url", required=True)
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 300_000, 1_000_000])
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--load-seconds", type=float, default=60)
    ap.add_argument("--vectors-for", type=int, help="the largest size of the run that loaded a kept library")
    ap.add_argument("--measure-only", action="store_true", help="a kept library: only the search measurements")
    ap.add_argument("--warm", action="store_true", help="read what searches read before measuring (a server "
                    "in steady use; a library just built has its caches filled with the build's writes)")
    ap.add_argument("--ef-search", type=int, help="HNSW ef_search (default: the store's)")
    ap.add_argument("--keep", action="store_true", help="keep the library of an earlier run; measure its size first")
    ap.add_argument("--db", default="pg_lab", help="the database of the library")
    ap.add_argument("--template", help="start from a copy of this kept library's database")
    ap.add_argument("--workers", type=int, default=2, help="sessions of the bulk load and recount")
    ap.add_argument("--build-only", action="store_true", help="build the sizes; measure nothing")
    args = ap.parse_args()
    corpus, queries, _, _ = load_beir(args.folder)
    claims = list(queries.values())[:args.queries]
    text = Text(corpus)
    top = args.vectors_for or max(args.sizes)
    both = synthetic(top + 100, DIM)  # queries: same clusters, points not in the library
    x, qvecs = both[:top], both[top:]
    import psycopg

    db = psycopg.sql.Identifier(args.db)
    with psycopg.connect(args.url, autocommit=True) as admin:
        if not args.keep or not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (args.db,)).fetchone():
            admin.execute(psycopg.sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(db))
            copy = psycopg.sql.SQL(" TEMPLATE {} STRATEGY FILE_COPY").format(
                psycopg.sql.Identifier(args.template)) if args.template else psycopg.sql.SQL("")
            admin.execute(psycopg.sql.SQL("CREATE DATABASE {}{}").format(db, copy))
    url = args.url.replace("/postgres?", f"/{args.db}?", 1)
    out: dict = {"load_avg_start": os.getloadavg(), "steps": []}
    with Library(url) as lib:
        spec = lib.configured_spec()
        space = _space_for(lib.store, spec, spec.create())
        done = lib.store.window_count(space.id)
        for n in sorted(args.sizes):
            step: dict = {}
            if n > done:
                # the HNSW index is built last (pgvector inserting each new window into it is slow)
                lib.store.query(f"DROP INDEX IF EXISTS vector_windows_hnsw_{space.id}")
                lib.store.query("UPDATE spaces SET hnsw = false WHERE id = %s", (space.id,))
                step["copy_s"] = round(pg_bulk.load(url, space.id, corpus, done, n, x, args.workers, PER_PAPER), 1)
                done = n
                t = time.perf_counter()
                step["bm25_phases_s"] = pg_bulk.recount(url, args.workers)
                step["bm25_build_s"] = round(time.perf_counter() - t, 1)
                print(json.dumps(step), flush=True)
            elif n < done:
                continue
            lib.store.query("VACUUM ANALYZE bm25_postings")
            lib.store.query("ANALYZE")
            if "copy_s" in step:
                t = time.perf_counter()
                lib.store.query(f"DROP INDEX IF EXISTS vector_windows_hnsw_{space.id}")
                lib.store.query("UPDATE spaces SET hnsw = false, completed_at = %s WHERE id = %s",
                                (time.time(), space.id))
                lib.store.ensure_vector_index(space.id, force=True)
                step["hnsw_build_s"] = round(time.perf_counter() - t, 1)
                step["load_avg_build"] = os.getloadavg()
            space = lib.store.get_space(space.id)
            if args.build_only:
                step["disk_mb"] = round(lib.store.stats().size_bytes / 2**20)
                print(json.dumps(step), flush=True)
                continue
            if args.ef_search:
                lib.store.ef_search = args.ef_search
            if args.warm:
                step["warm_s"] = warm(lib, space, qvecs)
            step.update(measure(lib, space, x, n, claims, qvecs))
            if args.measure_only:
                print(json.dumps(step), flush=True)
                continue
            step["contract_write_papers_per_s"] = round(write_papers(lib, text, n, 20), 2)
            step["writer_and_4_clients"] = under_load(url, lib, text, claims, args.load_seconds, n + 100)
            step["load_avg"] = os.getloadavg()
            out["steps"].append(step)
            print(json.dumps(step), flush=True)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
