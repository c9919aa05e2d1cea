"""Warm search latency through the Python API (`Library.search`, the path the HTTP server and MCP use),
with each stage's share: query encoding, vector search, lexical BM25, phrase evidence, named objects,
snippets and the hits' rows.

Queries: `--set vocab` draws 2-4 distinct words from a random unit of the library itself (so the
words follow the corpus's own Zipf distribution, common ones included: the case where BM25 over an
OR query matches most units); `--set short` is bench/data/short_queries.jsonl (English words, which
on the synthetic library mostly match nothing lexically).  Every query text is new to the process
(no cached query vector is ever hit); the first `--warmup` searches are not counted.

Stage times are per-thread CPU (`time.thread_time`) and wall, summed per search; the search's own
CPU (`time.process_time`, every thread) and wall are the totals.  The load average is printed, since
the machine is shared.

    python bench/warm_search.py /tmp/lib10k.db --queries 200 [--set vocab|short] [--mode hybrid] [--json]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from papershelf import Library  # (first: it keeps OpenBLAS to one thread, as the server and the CLI do)
from papershelf.search import engine

SHORT = Path(__file__).resolve().parent / "data" / "short_queries.jsonl"


def vocab_queries(lib: Library, n: int, seed: int = 7) -> list[str]:
    """2-4 distinct words of a random unit's text, for `n` random units."""
    rng = random.Random(seed)
    store: Any = lib.store  # the SQLite store's SQL (this bench reads a SQLite library)
    total = store.query("SELECT max(rowid) AS n FROM search_docs")[0]["n"]
    out: list[str] = []
    while len(out) < n:
        row = store.query("SELECT body FROM search_docs WHERE rowid = ?", (rng.randint(1, total),))
        if not row:
            continue
        words = list(dict.fromkeys(row[0]["body"].split()))
        q = " ".join(rng.sample(words, min(len(words), rng.randint(2, 4))))
        if q not in out:
            out.append(q)
    return out


def short_queries(n: int) -> list[str]:
    qs = [json.loads(line)["query"] for line in SHORT.read_text().splitlines() if line.strip()]
    return list(dict.fromkeys(qs))[:n]


class Stages:
    """Per-search sums of wall and thread CPU for the wrapped callables."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)

    def wrap(self, name: str, fn):
        @functools.wraps(fn)
        def timed(*a, **kw):
            t, c = time.perf_counter(), time.thread_time()
            try:
                return fn(*a, **kw)
            finally:
                self.wall[name] += time.perf_counter() - t
                self.cpu[name] += time.thread_time() - c
        return timed

    def reset(self) -> None:
        self.wall.clear()
        self.cpu.clear()


def instrument(lib: Library, stages: Stages) -> None:
    store = lib.store
    for name, attr in (("lexical", "lexical_search"), ("phrase", "matching"), ("vector", "vector_search"),
                       ("snippets_fts", "snippets"), ("rows", "get_units"), ("rows", "get_papers"),
                       ("rows", "index_size"), ("named", "objects_named")):
        setattr(store, attr, stages.wrap(name, getattr(store, attr)))
    lib._queries.vector = stages.wrap("encode", lib._queries.vector)  # type: ignore[method-assign]
    lib._queries.passage = stages.wrap("snippets_passage", lib._queries.passage)  # type: ignore[method-assign]
    engine.make_snippet = stages.wrap("snippets_make", engine.make_snippet)
    engine._fuse = stages.wrap("fusion", engine._fuse)
    engine.cap_per_paper = stages.wrap("fusion", engine.cap_per_paper)


def run(library: str, queries: list[str], mode: str, warmup: int) -> dict:
    stages = Stages()
    with Library(library) as lib:
        instrument(lib, stages)
        walls, cpus, per_wall, per_cpu, hits = [], [], defaultdict(list), defaultdict(list), []
        for i, q in enumerate(queries):
            stages.reset()
            t, c = time.perf_counter(), time.process_time()
            resp = lib.search(q, mode=mode, limit=10)
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            if i < warmup:
                if i == warmup - 1 and hasattr(lib.store, "postings"):
                    lib.store.postings.wait()  # a derived postings file being built: warm means built
                continue
            walls.append(wall)
            cpus.append(cpu)
            hits.append(len(resp.results))
            for k in set(stages.wall) | {"encode", "lexical", "vector"}:
                per_wall[k].append(stages.wall.get(k, 0.0))
                per_cpu[k].append(stages.cpu.get(k, 0.0))

    def ms(xs, p=50):
        return round(1000 * (statistics.median(xs) if p == 50 else statistics.quantiles(xs, n=10)[8]), 2)

    return {"queries": len(walls), "mode": mode, "wall_p50_ms": ms(walls), "wall_p90_ms": ms(walls, 90),
            "cpu_p50_ms": ms(cpus), "cpu_p90_ms": ms(cpus, 90), "mean_hits": round(statistics.mean(hits), 2),
            "stages_p50_ms": {k: {"wall": ms(per_wall[k]), "cpu": ms(per_cpu[k]),
                                  "cpu_mean": round(1000 * statistics.mean(per_cpu[k]), 2)}
                              for k in sorted(per_wall)},
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--set", choices=("vocab", "short"), default="vocab")
    ap.add_argument("--mode", default="hybrid", choices=("hybrid", "lexical", "vector"))
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with Library(args.library) as lib:
        queries = vocab_queries(lib, args.queries + args.warmup) if args.set == "vocab" \
            else short_queries(args.queries + args.warmup)
    out = run(args.library, queries, args.mode, args.warmup)
    out["set"] = args.set
    print(json.dumps(out, indent=None if args.json else 1))


if __name__ == "__main__":
    main()
