"""Hidden-link recovery for `related`: hide a citation A -> B between two library papers, ask `related A`,
and read B's rank — for meaning alone, citations alone (coupling + co-citation) and the fusion.

The library is any indexed and embedded library (the README of BENCHMARKS.md names the one measured: the
shared PDFs, the shared Zotero library's PDFs and the wide corpus).  The link truth is written once to
bench/data/related_links.json, keyed by the papers' source file names (stable across id schemes) and split
into dev/test by a hash of the citing file, before any weight is tuned; `--fit` searches the fusion weights
on the dev half only.

    python bench/related_links.py LIBRARY.db --write-truth        # once: the links of this library
    python bench/related_links.py LIBRARY.db --half dev [--fit]
    python bench/related_links.py LIBRARY.db --half test          # once, at the end

Truth derived at scale (a sanity check of the machinery, not evidence about real papers: the synthetic
library draws both its vectors and its citations from the same topics):

    python bench/synthetic_library.py /tmp/lib10k.db --papers 10000 --refs 25
    python bench/related_links.py /tmp/lib10k.db --truth bench/data/related_links_synthetic.json --write-truth --sample 400
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf import Library  # noqa: E402
from papershelf import related as R  # noqa: E402
from papershelf.graph import build  # noqa: E402
from papershelf.paper_vectors import PaperVectors  # noqa: E402

TRUTH = ROOT / "bench" / "data" / "related_links.json"
SIGNALS = {"meaning": {"meaning": 1.0, "direct": 0.0, "coupling": 0.0, "cocitation": 0.0},
           "citations": {"meaning": 0.0, "direct": 0.0, "coupling": 1.0, "cocitation": 1.0}}


def _file(lib: Library, paper_id: str) -> str:
    paper = lib.store.get_paper(paper_id)
    return os.path.basename(paper.source_path or paper_id) if paper else paper_id


def write_truth(lib: Library, truth: Path, sample: int | None = None) -> None:
    graph = build(lib.store)
    links = sorted({(_file(lib, a), _file(lib, b)) for a in graph.papers for b in graph.cited_papers(a)})
    if sample and len(links) > sample:  # a fixed draw, so the file is the same every time it is written
        links = sorted(random.Random(0).sample(links, sample))
    rows = [{"citing": a, "cited": b, "half": "dev" if int(hashlib.sha1(a.encode()).hexdigest(), 16) % 2 else "test"}
            for a, b in links]
    truth.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"{len(rows)} links written to {truth}: {sum(r['half'] == 'dev' for r in rows)} dev")


def ranks(lib: Library, half: str, weights_sets: dict[str, dict[str, float]],
          truth: Path = TRUTH, drop_known: bool = True) -> dict[str, list[int | None]]:
    by_file = {_file(lib, p): p for p in lib.store.paper_ids()}
    graph = build(lib.store)
    space = lib.store.active_space()
    vectors = PaperVectors(lib.store)
    out: dict[str, list[int | None]] = {name: [] for name in weights_sets}
    meaning_of: dict[str, dict] = {}
    for link in json.loads(truth.read_text()):
        if half != "all" and link["half"] != half:
            continue
        a, b = by_file.get(link["citing"]), by_file.get(link["cited"])
        if not a or not b or b not in graph.cited_papers(a):
            continue
        if a not in meaning_of:
            meaning_of[a] = R.paper_meaning(vectors, space, a) if space else {}
        hidden = graph.without(a, graph.paper_work[b])
        cites = R.citation_signals(hidden, a)
        meaning = {p: m for p, m in meaning_of[a].items() if p != a}
        for name, w in weights_sets.items():
            # B's rank among the papers not already linked to A: the links A keeps are known, not recovered
            # (ranking them first is right for a reader, and would only hide what the hidden link tests)
            order = [p for p, _, sig in R.fuse(meaning, cites, w) if p == b or not (sig["direct"] and drop_known)]
            out[name].append(order.index(b) + 1 if b in order else None)
    return out


def summary(rs: list[int | None]) -> dict[str, float]:
    n = len(rs) or 1
    return {"links": len(rs), "recall@5": sum(1 for r in rs if r and r <= 5) / n,
            "recall@10": sum(1 for r in rs if r and r <= 10) / n, "mrr": sum(1 / r for r in rs if r) / n}


def grid() -> dict[str, dict[str, float]]:
    """Meaning, coupling and co-citation weights (direct is left as it is: see `ranks`)."""
    values = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
    return {f"m{m}-c{c}-k{k}": {"meaning": m, "direct": R.WEIGHTS["direct"], "coupling": c, "cocitation": k}
            for m, c, k in itertools.product(values, values, values) if m or c or k}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--write-truth", action="store_true")
    ap.add_argument("--fit", action="store_true", help="search the fusion weights (dev half only)")
    ap.add_argument("--truth", type=Path, default=TRUTH, help="the link truth file (default: the real library's)")
    ap.add_argument("--sample", type=int, help="with --write-truth: keep this many links, drawn at random")
    ap.add_argument("--keep-known", action="store_true", help="rank B among every paper, the ones A still "
                                                              "links to as well (the protocol before)")
    args = ap.parse_args()
    with Library(args.library, create=False) as lib:
        if args.write_truth:
            write_truth(lib, args.truth, args.sample)
            return
        sets = {**SIGNALS, "fused": R.WEIGHTS}
        if args.fit:
            if args.half != "dev":
                sys.exit("--fit tunes on the dev half only")
            sets.update(grid())
        results = {name: summary(rs) for name, rs in ranks(lib, args.half, sets, args.truth, not args.keep_known).items()}
        for name in ("meaning", "citations", "fused"):
            print(name, json.dumps(results[name]))
        if args.fit:
            best = max(grid(), key=lambda k: (results[k]["mrr"], results[k]["recall@5"]))
            print("best", best, json.dumps(results[best]))


if __name__ == "__main__":
    main()
