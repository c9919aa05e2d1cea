"""PostgreSQL + pgvector at scale, next to the SQLite backend: load time, HNSW recall@10
against exact search, p50/p99 vector-search latency with and without a selective filter.

Synthetic 384-d vectors from a mixture of 2,000 Gaussian clusters (real embeddings are
clustered; uniform noise is HNSW's worst case and nothing like a library), one window per
unit, 10 units per paper, years 1950–2049 uniformly (so one year is a 1 % filter),
30 % of units figures/tables.  Vectors are bulk-loaded with COPY (a build writes them
paper by paper; `--contract-papers` times that path too), then the HNSW index is built
the way `mark_complete` builds it.  Queries go through the backends' real
`vector_search` (depth 10).  Ground truth is exact cosine in NumPy.

    python bench/pg_scale.py --n 200000 --sqlite-max 200000 [--url postgresql://...]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time

import numpy as np

from papershelf.models import Filters, Space, VectorRow
from papershelf.store.postgres import PostgresStore
from papershelf.store.sqlite import SQLiteStore

DIM, PER_PAPER = 384, 10


def synthetic(n: int, dim: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((2000, dim), dtype=np.float32)
    x = centers[rng.integers(0, 2000, n)] + 0.6 * rng.standard_normal((n, dim), dtype=np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def unit_meta(i: int) -> tuple[str, str, str, str | None]:
    """(unit_id, paper_id, unit_kind, object_kind) of synthetic unit i."""
    paper = f"p{i // PER_PAPER:07d}"
    if i % 10 < 3:
        return f"{paper}:obj:{i % 10}", paper, "object", "figure" if i % 2 else "table"
    return f"{paper}:body:{i % 10}", paper, "body", None


def load_postgres(store: PostgresStore, x: np.ndarray) -> tuple[int, dict[str, float]]:
    """Papers, manifests, unit rows and window rows with COPY; returns (space id, timings)."""
    t0 = time.perf_counter()
    space = store.ensure_space("bench", "bench", "synthetic", x.shape[1], "bench", 1, {})
    n, papers = len(x), (len(x) + PER_PAPER - 1) // PER_PAPER
    with store.transaction() as db, db.cursor() as cur:
        with cur.copy("COPY papers (id, year, added_at, updated_at) FROM STDIN") as cp:
            for p in range(papers):
                cp.write_row((f"p{p:07d}", 1950 + p % 100, 0, 0))
        with cur.copy("COPY manifests FROM STDIN") as cp:
            for p in range(papers):
                cp.write_row((f"p{p:07d}", 7, 3, 0, 7, 3, 0, "h", "h", "h", 1, 0))
        with cur.copy("COPY vectors FROM STDIN") as cp:
            for i in range(n):
                uid, pid, kind, okind = unit_meta(i)
                cp.write_row((space.id, "objects" if kind == "object" else "body", uid, pid, kind, None, okind, None,
                              "h", "h", 1, 10, 1))
        with cur.copy("COPY vector_windows FROM STDIN WITH (FORMAT BINARY)") as cp:
            cp.set_types(["int4", "text", "int4", "text", "text", "text", "vector"])
            for i in range(n):
                uid, pid, kind, okind = unit_meta(i)
                cp.write_row((space.id, uid, 0, pid, "object_unit" if kind == "object" else "body_unit", okind, x[i]))
    t1 = time.perf_counter()
    store.query("ANALYZE vector_windows")
    store.ensure_vector_index(space.id, force=True)
    t2 = time.perf_counter()
    return space.id, {"copy_s": t1 - t0, "hnsw_build_s": t2 - t1}


def contract_write_rate(store: PostgresStore, space_id: int, x: np.ndarray, papers: int) -> float:
    """Vectors per second through write_paper_vectors (one transaction per paper), rewriting loaded papers."""
    t0 = time.perf_counter()
    for p in range(papers):
        rows = []
        for i in range(p * PER_PAPER, (p + 1) * PER_PAPER):
            uid, _, kind, okind = unit_meta(i)
            rows.append(VectorRow("objects" if kind == "object" else "body", uid, kind, "h", "h", 1, 10, None, okind,
                                  None, x[i].tobytes()))
        store.write_paper_vectors(space_id, f"p{p:07d}", rows, {"body": "h", "object": "h", "chunk": "h"},
                                  {"body": 7, "object": 3, "chunk": 0})
    return papers * PER_PAPER / (time.perf_counter() - t0)


def load_sqlite(path: str, x: np.ndarray) -> tuple[SQLiteStore, Space, float]:
    t0 = time.perf_counter()
    store = SQLiteStore(path)
    space = store.ensure_space("bench", "bench", "synthetic", x.shape[1], "bench", 1, {})
    papers = (len(x) + PER_PAPER - 1) // PER_PAPER
    with store.transaction() as db:
        db.executemany("INSERT INTO papers(id, year, added_at, updated_at) VALUES (?,?,0,0)",
                       [(f"p{p:07d}", 1950 + p % 100) for p in range(papers)])
        rows = []
        for i in range(len(x)):
            uid, pid, kind, okind = unit_meta(i)
            rows.append((space.id, "objects" if kind == "object" else "body", uid, pid, kind, okind, "h", "h", 1, 10,
                         x[i].tobytes()))
        db.executemany("INSERT INTO vectors(space_id, collection, unit_id, paper_id, unit_kind, object_kind, "
                       "unit_hash, kind_hash, policy_version, token_estimate, vector) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                       rows)
    return store, space, time.perf_counter() - t0


def truth(x: np.ndarray, q: np.ndarray, k: int, mask: np.ndarray | None = None) -> list[str]:
    scores = x @ q
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    top = np.argsort(-scores)[:k]
    return [unit_meta(int(i))[0] for i in top if np.isfinite(scores[i])]


def measure(search, queries: np.ndarray, filters: Filters, answers: list[list[str]] | None) -> dict[str, float]:
    search(queries[0], filters)  # warm
    times, recalls = [], []
    for n, q in enumerate(queries):
        t = time.perf_counter()
        hits = search(q, filters)
        times.append((time.perf_counter() - t) * 1000)
        if answers is not None:
            recalls.append(len({h.unit_id for h in hits} & set(answers[n])) / max(1, len(answers[n])))
    out = {"p50_ms": round(float(np.percentile(times, 50)), 2), "p99_ms": round(float(np.percentile(times, 99)), 2)}
    if recalls:
        out["recall@10"] = round(float(np.mean(recalls)), 4)
    return out


def start_server() -> str:
    import pgserver

    return pgserver.get_server(tempfile.mkdtemp(prefix="psb", dir="/tmp"), cleanup_mode="delete").get_uri()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--sqlite-max", type=int, default=200_000, help="largest N also loaded into SQLite")
    ap.add_argument("--contract-papers", type=int, default=500)
    ap.add_argument("--ef", type=int, nargs="+", default=[40, 100, 200])
    ap.add_argument("--url", default=os.environ.get("PAPERSHELF_BENCH_POSTGRES"))
    args = ap.parse_args()
    x = synthetic(args.n, DIM)
    queries = synthetic(args.n + args.queries, DIM)[args.n:]  # same clusters, points not in the library
    years = np.array([1950 + (i // PER_PAPER) % 100 for i in range(args.n)])
    selective = Filters(year_from=2001, year_to=2001)
    answers = [truth(x, q, 10) for q in queries]
    answers_f = [truth(x, q, 10, years == 2001) for q in queries]
    url = args.url or start_server()
    import psycopg

    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("DROP DATABASE IF EXISTS pg_scale WITH (FORCE)")
        admin.execute("CREATE DATABASE pg_scale")
    store = PostgresStore(url.replace("/postgres?", "/pg_scale?", 1) if "/postgres?" in url else url + "_scale")
    space_id, load = load_postgres(store, x)
    space = store.get_space(space_id)
    assert space is not None, "load_postgres has just made the space"
    result = {"n": args.n, "dim": DIM, "postgres": {"load": {k: round(v, 1) for k, v in load.items()}}}
    result["postgres"]["db_size_mb"] = round(store.stats().size_bytes / 2**20)

    def pg_search(q, f):
        return store.vector_search(space, q, 10, f)

    for ef in args.ef:
        store.ef_search = ef
        result["postgres"][f"hnsw_ef{ef}"] = measure(pg_search, queries, Filters(), answers)
    store.ef_search = max(args.ef)
    result["postgres"]["selective_filter_1pct"] = measure(pg_search, queries, selective, answers_f)
    result["postgres"]["filter_30pct_objects"] = measure(pg_search, queries[:50], Filters(sources=["object_unit"]),
                                                         None)
    result["postgres"]["exact"] = measure(lambda q, f: store._exact_search(space, q, 10, f), queries[:20], Filters(),
                                          answers[:20])
    result["postgres"]["contract_write_vectors_per_s"] = round(contract_write_rate(store, space_id, x,
                                                                                   args.contract_papers))
    store.close()
    if args.n <= args.sqlite_max:
        with tempfile.TemporaryDirectory() as tmp:
            lite, lspace, secs = load_sqlite(os.path.join(tmp, "lib.db"), x)
            lite_res: dict[str, float | dict[str, float]] = {"load_s": round(secs, 1)}
            lite_res["exact"] = measure(lambda q, f: lite.vector_search(lspace, q, 10, f), queries, Filters(),
                                        answers)
            lite_res["selective_filter_1pct"] = measure(lambda q, f: lite.vector_search(lspace, q, 10, f), queries,
                                                        selective, answers_f)
            result["sqlite"] = lite_res
            lite.close()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
