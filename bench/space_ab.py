"""Compare two embedding spaces of one library on a BEIR dataset, query by query.

A library kept by ``papershelf bench beir --keep`` holds every space built into
it (say, whole-unit vectors and windowed vectors).  This runs the same queries
against two of them in vector and hybrid mode and reports nDCG@10 of each and
the paired difference with a 95 % bootstrap interval, so a change is judged on
the same queries, in one run.

    python bench/space_ab.py /tmp/sf-win.db ../shared/data/scifact --a 1 --b 2
"""

from __future__ import annotations

import argparse
import json

from papershelf import Library
from papershelf.beir import load_beir
from papershelf.metrics import bootstrap_ci, ndcg_at_k
from papershelf.models import SearchMode, Space
from papershelf.search import SearchOptions


def per_query(lib: Library, space: Space, queries: dict, qrels: dict, mode: SearchMode) -> dict[str, float]:
    opts = SearchOptions(mode=mode, limit=10, per_paper=1, snippets=False)
    return {qid: ndcg_at_k([h.paper_id for h in lib.search(text, opts, space_id=space.id).results],
                           qrels[qid], 10) for qid, text in queries.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("library")
    ap.add_argument("beir")
    ap.add_argument("--a", type=int, required=True, help="space id A (the baseline)")
    ap.add_argument("--b", type=int, required=True, help="space id B")
    args = ap.parse_args()
    lib = Library(args.library, create=False)
    _, queries, qrels, _ = load_beir(args.beir)
    a, b = lib.store.get_space(args.a), lib.store.get_space(args.b)
    assert a is not None and b is not None, "--a and --b must name spaces of the library"
    report = {"a": {"id": a.id, "model": a.model, "options": a.options}, "b": {"id": b.id, "model": b.model, "options": b.options}}
    modes: tuple[SearchMode, ...] = ("vector", "hybrid")
    for mode in modes:
        sa, sb = per_query(lib, a, queries, qrels, mode), per_query(lib, b, queries, qrels, mode)
        diff = [sb[q] - sa[q] for q in queries]
        lo, hi = bootstrap_ci(diff)
        n = len(diff)
        report[mode] = {"a": round(sum(sa.values()) / n, 4), "b": round(sum(sb.values()) / n, 4),
                        "b_minus_a": round(sum(diff) / n, 4), "ci95": [round(lo, 4), round(hi, 4)],
                        "b_better": sum(d > 0 for d in diff), "a_better": sum(d < 0 for d in diff)}
        print(mode, json.dumps(report[mode]), flush=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
