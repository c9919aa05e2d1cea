"""`related` latency on a large library: cold (first call of a process) and warm p50/p95 over papers drawn
at random, on a library built by bench/synthetic_library.py with reference lists.

    python bench/synthetic_library.py /tmp/lib10k.db --papers 10000 --refs 25
    python bench/related_scale.py /tmp/lib10k.db --calls 40
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from papershelf import Library


def measure(path: str, calls: int, seed: int = 0, limit: int = 10) -> dict[str, float]:
    with Library(path, create=False) as lib:
        papers = sorted(lib.store.paper_ids())
        picked = random.Random(seed).sample(papers, min(calls + 1, len(papers)))
        t = time.perf_counter()
        lib.related(picked[0], limit=limit)
        cold = (time.perf_counter() - t) * 1000
        warm = []
        for p in picked[1:]:
            t = time.perf_counter()
            lib.related(p, limit=limit)
            warm.append((time.perf_counter() - t) * 1000)
    warm.sort()
    return {"papers": len(papers), "cold_ms": round(cold, 1), "warm_p50_ms": round(statistics.median(warm), 1),
            "warm_p95_ms": round(warm[int(0.95 * (len(warm) - 1))], 1), "calls": len(warm)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("--calls", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(json.dumps(measure(args.library, args.calls, args.seed)))


if __name__ == "__main__":
    main()
