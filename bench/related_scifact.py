"""Topic sanity for `related` by meaning: on SciFact's corpus (abstracts, no citations), the papers related to
an abstract judged relevant to a claim should include the other abstracts judged relevant to the same claims
far more often than chance.  A sanity number, not a target (issue 39): SciFact's judgments say which
abstracts support or refute a claim, not which are alike, and most claims have one relevant abstract.

For every abstract relevant to a claim that has other relevant abstracts: its `related` top 10 (no filters,
meaning alone since there are no reference lists), and the share of the other abstracts relevant to any of
its claims found there (recall@10), against chance (10 draws from the corpus without the abstract itself).

    python bench/related_scifact.py /tmp/relfuse/scifact.db             # builds and embeds it the first time
    python bench/related_scifact.py /tmp/relfuse/scifact.db --data ../shared/data/scifact
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from papershelf import Library  # noqa: E402
from papershelf.beir import build_library, load_beir  # noqa: E402

DATA = Path(os.environ.get("PAPERSHELF_SHARED_DATA", ROOT.parent / "shared" / "data")) / "scifact"
K = 10


def together(qrels: dict[str, dict[str, int]]) -> dict[str, set[str]]:
    """abstract -> the other abstracts judged relevant to one of its claims (only abstracts that have any)."""
    out: dict[str, set[str]] = defaultdict(set)
    for docs in qrels.values():
        relevant = {d for d, score in docs.items() if score > 0}
        for d in relevant:
            out[d] |= relevant - {d}
    return {d: others for d, others in out.items() if others}


def measure(path: str, data: Path) -> dict[str, float]:
    if not data.is_dir():
        sys.exit(f"{data} not found: the shared SciFact data is needed (see ../shared/data/README.md)")
    corpus, _, qrels, _ = load_beir(str(data))
    pairs = together(qrels)
    with Library(path) as lib:
        if lib.store.count_papers() != len(corpus):
            build_library(lib, corpus)
        if lib.pending():
            lib.embed()
        recall = []
        for d, others in sorted(pairs.items()):
            top = [h.paper_id for h in lib.related(d, limit=K).results]
            recall.append(len(others & set(top)) / len(others))
    n = len(corpus)
    return {"abstracts": len(recall), "corpus": n, f"recall@{K}": round(sum(recall) / len(recall), 4),
            f"chance@{K}": round(K / (n - 1), 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library", help="a library file: built from the corpus and embedded when it is not yet")
    ap.add_argument("--data", type=Path, default=DATA, help="the SciFact folder (BEIR format)")
    args = ap.parse_args()
    print(json.dumps(measure(args.library, args.data)))


if __name__ == "__main__":
    main()
