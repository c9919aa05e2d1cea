"""Sweep fusion settings on a BEIR dataset already built into a library (``bench beir --keep``).

Precomputes each query's BM25 and cosine candidate lists once, then scores
fusion variants (RRF k and weights, convex combination of normalized scores,
BM25 field weights) by nDCG@10 on two halves of the queries (even/odd
position): a setting worth adopting wins on both halves, not just overall.

    python bench/fusion_sweep.py /tmp/scifact.db ../shared/data/scifact
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from papershelf import Filters, Library
from papershelf.beir import load_beir
from papershelf.metrics import ndcg_at_k
from papershelf.search.fusion import rrf
from papershelf.search.query import fts_query


def collapse(units: list[tuple[str, float]], paper_of: dict[str, str]) -> list[tuple[str, float]]:
    seen, out = set(), []
    for u, s in units:
        p = paper_of.get(u, u.split(":")[0])
        if p not in seen:
            seen.add(p)
            out.append((p, s))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("library")
    ap.add_argument("beir")
    ap.add_argument("--depth", type=int, default=100)
    args = ap.parse_args()
    lib = Library(args.library, create=False)
    _, queries, qrels, _ = load_beir(args.beir)
    space = lib.store.active_space()
    assert space is not None, "the library has no vector space to sweep"
    provider = lib.query_provider(space)
    qids = list(queries)
    t0 = time.perf_counter()
    qvecs = provider.encode([queries[q] for q in qids])
    print(f"encoded {len(qids)} queries in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    paper_of: dict[str, str] = {}
    vec: dict[str, list[tuple[str, float]]] = {}
    for i, q in enumerate(qids):
        hits = lib.store.vector_search(space, qvecs[i], args.depth, Filters())
        paper_of.update({h.unit_id: h.paper_id for h in hits})
        vec[q] = [(h.unit_id, h.score) for h in hits]
    lex_by_weights: dict[tuple[float, float, float], dict[str, list[tuple[str, float]]]] = {}
    for weights in [(2.0, 2.0, 1.0), (1.0, 1.0, 1.0), (3.0, 1.0, 1.0), (0.5, 1.0, 1.0)]:
        lex_by_weights[weights] = {}
        for q in qids:
            lex_hits = lib.store.lexical_search(fts_query(queries[q]) or '""', args.depth, Filters(), weights)
            paper_of.update({h.unit_id: h.paper_id for h in lex_hits})
            lex_by_weights[weights][q] = [(h.unit_id, h.score) for h in lex_hits]

    halves = [qids[0::2], qids[1::2]]

    def score(rank_fn) -> tuple[float, ...]:  # (all, even half, odd half)
        per = {q: ndcg_at_k([p for p, _ in rank_fn(q)][:10], qrels[q], 10) for q in qids}
        return (float(np.mean([per[q] for q in qids])),) + tuple(float(np.mean([per[q] for q in h])) for h in halves)

    rows = []

    def add(name, fn):
        rows.append((name,) + score(fn))

    base_lex = lex_by_weights[(2.0, 2.0, 1.0)]
    for w, lex in lex_by_weights.items():
        add(f"lexical fields={w}", lambda q, lex=lex: collapse(lex[q], paper_of))
    add("vector", lambda q: collapse(vec[q], paper_of))

    def rrf_fn(k, wl, wv, lex=base_lex, doc_level=False):
        def f(q):
            if doc_level:
                lists = [([p for p, _ in collapse(lex[q], paper_of)], wl), ([p for p, _ in collapse(vec[q], paper_of)], wv)]
                fused = rrf(lists, k)
                return sorted(fused.items(), key=lambda x: -x[1])
            fused = rrf([([u for u, _ in lex[q]], wl), ([u for u, _ in vec[q]], wv)], k)
            return collapse(sorted(fused.items(), key=lambda x: -x[1]), paper_of)
        return f

    for k in (10, 30, 60, 100):
        for wl, wv in ((1, 1), (1, 1.5), (1.5, 1), (1, 2)):
            add(f"rrf k={k} wl={wl} wv={wv}", rrf_fn(k, wl, wv))
    add("rrf k=60 doc-level", rrf_fn(60, 1, 1, doc_level=True))

    def convex(alpha, lex=base_lex, norm="minmax"):
        def f(q):
            scores: dict[str, float] = {}
            for lst, w in ((lex[q], 1 - alpha), (vec[q], alpha)):
                if not lst:
                    continue
                s = np.array([x for _, x in lst])
                if norm == "minmax":
                    lo, hi = s.min(), s.max()
                    z = (s - lo) / (hi - lo) if hi > lo else np.ones_like(s)
                else:  # z-score
                    z = (s - s.mean()) / (s.std() or 1.0)
                for (u, _), v in zip(lst, z):
                    scores[u] = scores.get(u, 0.0) + w * float(v)
            return collapse(sorted(scores.items(), key=lambda x: -x[1]), paper_of)
        return f

    for alpha in (0.3, 0.4, 0.5, 0.6, 0.7):
        add(f"convex minmax alpha={alpha}", convex(alpha))
        add(f"convex zscore alpha={alpha}", convex(alpha, norm="z"))
    for w, lex in lex_by_weights.items():
        add(f"convex minmax alpha=0.5 fields={w}", convex(0.5, lex))
        add(f"rrf k=60 fields={w}", rrf_fn(60, 1, 1, lex))

    print(f"{'setting':45s} {'nDCG@10':>8s} {'even':>7s} {'odd':>7s}")
    for name, a, e, o in rows:
        print(f"{name:45s} {a:8.4f} {e:7.4f} {o:7.4f}")
    json.dump([dict(zip(("setting", "ndcg@10", "even", "odd"), r)) for r in rows], open("/tmp/sweep.json", "w"))


if __name__ == "__main__":
    main()
