"""Warm `ask` latency of two source trees on one library, interleaved question by question, so both see the same
machine load: each tree runs in its own process (its own imports), asks every question once cold and once warm,
and the driver alternates which tree goes first.  Nothing runs in parallel.

    python bench/ask_ab.py LIBRARY.db --before /tmp/before-base --after . --half dev [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from ask_eval import questions  # noqa: E402

WORKER = r"""
import json, sys, time
from papershelf import Library
lib = Library(sys.argv[1], create=False)
print("ready", flush=True)
for line in sys.stdin:
    q = json.loads(line)
    lib.ask(q, limit=8)
    t = time.perf_counter()
    lib.ask(q, limit=8)
    print(json.dumps(time.perf_counter() - t), flush=True)
"""


def worker(tree: str, library: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()))
    p = subprocess.Popen([sys.executable, "-c", WORKER, library], cwd=tree, env=env, text=True,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    return p


def ask(p: subprocess.Popen, question: str) -> float:
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(json.dumps(question) + "\n")
    p.stdin.flush()
    return float(json.loads(p.stdout.readline()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", default=str(ROOT))
    ap.add_argument("--half", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    trees = {"before": worker(args.before, args.library), "after": worker(args.after, args.library)}
    times: dict[str, list[float]] = {"before": [], "after": []}
    load = [os.getloadavg()[0]]
    for r in range(args.rounds):
        for i, q in enumerate(questions(args.half)):
            order = ("before", "after") if (i + r) % 2 == 0 else ("after", "before")
            for name in order:
                times[name].append(ask(trees[name], q["question"]))
        load.append(os.getloadavg()[0])
    for p in trees.values():
        assert p.stdin is not None
        p.stdin.close()
        p.wait()
    print(json.dumps({**{f"{k}_warm_p50_ms": round(1000 * statistics.median(v), 1) for k, v in times.items()},
                      **{f"{k}_warm_p90_ms": round(1000 * statistics.quantiles(v, n=10)[-1], 1)
                         for k, v in times.items()},
                      "questions": len(times["after"]), "load_1min": [round(x, 1) for x in load]}))


if __name__ == "__main__":
    main()
