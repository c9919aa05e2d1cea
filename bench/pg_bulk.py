"""Bulk build of a benchmark PostgreSQL library in parallel sessions (pg_lab_scale.py's big steps).

Why: building 1 M windows paper by paper takes days, and even one bulk recount in one session
took 9 minutes at 100 k.  Here the rows are COPYed by `workers` processes over disjoint ranges of
papers, then the BM25 statistics are recounted from the tsvectors with the library's own SQL
(`bm25.reset`, `count_units`, `count_postings`, `index_postings`, `forward.fill`): the postings
of disjoint ranges of units in parallel sessions, the indexes built last with the server's
parallel maintenance workers, then the forward rows of disjoint ranges in parallel sessions.
The end state is what `bm25.rebuild` writes (the tests check it with `bm25.problems` on a small
library).  Server settings for a build (postgresql.conf): large
maintenance_work_mem, wal_level minimal, max_wal_size of several GB.
"""

from __future__ import annotations

import multiprocessing as mp
import time

import numpy as np
import psycopg
from pg_units import Text
from pg_units import load as load_units
from psycopg.rows import dict_row

from papershelf import Library
from papershelf.store.postgres import bm25, forward

CHUNK = 20_000  # units per transaction of one loading process
_SHARED: dict = {}  # the loaders' inputs, inherited through fork (the vectors are large)


def _load_range(url: str, lo: int, hi: int) -> None:
    with Library(url) as lib:
        for a in range(lo, hi, CHUNK):
            text = Text(_SHARED["corpus"], seed=a)  # (deterministic per chunk, whatever the split)
            load_units(lib, _SHARED["space"], text, a, min(hi, a + CHUNK), _SHARED["x"])


def _parallel(target, args_list: list[tuple]) -> None:
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=target, args=a) for a in args_list]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    if any(p.exitcode for p in procs):
        raise RuntimeError(f"a bulk worker failed: exit codes {[p.exitcode for p in procs]}")


def _splits(lo: int, hi: int, parts: int, step: int) -> list[tuple[int, int]]:
    """`parts` ranges covering lo..hi, their bounds multiples of `step` (whole papers)."""
    cuts = [lo + (hi - lo) * i // parts // step * step for i in range(parts)] + [hi]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


def load(url: str, space_id: int, corpus: list[dict], lo: int, hi: int, x: np.ndarray, workers: int,
         per_paper: int) -> float:
    """Units lo..hi (papers, units, index rows with tsvectors, vectors) by `workers` processes."""
    t0 = time.perf_counter()
    _SHARED.update(corpus=corpus, space=space_id, x=x)
    _parallel(_load_range, [(url, a, b) for a, b in _splits(lo, hi, workers, per_paper)])
    return time.perf_counter() - t0


def _postings_range(url: str, lo: int, hi: int) -> None:
    with psycopg.connect(url, row_factory=dict_row) as db:
        bm25.count_postings(db, lo, hi)


def _forward_range(url: str, lo: int, hi: int) -> None:
    with psycopg.connect(url, row_factory=dict_row) as db:
        forward.fill(db, "p.doc_key > %s AND p.doc_key <= %s", (lo, hi))


def recount(url: str, workers: int) -> dict[str, float]:
    """The BM25 statistics of every unit, recounted in bulk; seconds per phase."""
    out: dict[str, float] = {}
    t = time.perf_counter()
    with psycopg.connect(url, row_factory=dict_row) as db:
        bm25.reset(db)
        bm25.count_units(db, None)
        row = db.execute("SELECT coalesce(max(doc_key), 0) AS k FROM bm25_docs").fetchone()
        assert row is not None, "an aggregate without GROUP BY returns one row"
        top = row["k"]
    out["units_terms_s"] = time.perf_counter() - t
    t = time.perf_counter()
    _parallel(_postings_range, [(url, a, b) for a, b in _splits(0, int(top), workers, 1)])
    out["postings_s"] = time.perf_counter() - t
    t = time.perf_counter()
    with psycopg.connect(url, row_factory=dict_row) as db:
        bm25.index_postings(db)
    out["postings_indexes_s"] = time.perf_counter() - t
    t = time.perf_counter()
    _parallel(_forward_range, [(url, a, b) for a, b in _splits(0, int(top), workers, 1)])
    out["forward_s"] = time.perf_counter() - t
    return {k: round(v, 1) for k, v in out.items()}
