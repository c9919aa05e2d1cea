"""Two versions of papershelf searching one library, claim by claim in turn: the paired difference.

Why: on a shared machine a run's p50 moves by 10-15 ms from one run to the next, more than most
changes are worth, so two runs one after the other cannot tell them apart.  Here each version runs in
its own process (its own checkout on PYTHONPATH, its own warm library) and the two search the same
claim one after the other, in alternating order, for every claim and round: the machine's load falls
on both alike, and the median of the per-claim differences is the change.

    python bench/paired.py ../shared/data/scifact --url postgresql://.../pg_lab_1m?... \\
        --old /path/to/older/checkout [--new .] [--mode lexical] [--claims 100] [--rounds 3]

The first round warms both alike (each has searched every claim once when the second begins).

`--unseen N` measures first contact instead: after `--restart PGDATA [--drop-caches]` (as
bench/pg_unseen.py), both warm up on the claims after the first N, then each of the first N claims
is searched once, by one version, the two taking turns (`--swap` gives each the other half: run
both ways, since the halves' claims differ).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from papershelf.metrics import percentile
from papershelf.models import SearchMode


def worker(url: str, folder: str, mode: SearchMode) -> None:
    """Search the claim whose index each stdin line names; answer with its milliseconds."""
    from papershelf import Library, SearchOptions
    from papershelf.beir import load_beir

    _, queries, _, _ = load_beir(folder)
    claims = list(queries.values())
    with Library(url) as lib:
        print("ready", flush=True)
        for line in sys.stdin:
            t = time.perf_counter()
            lib.search(claims[int(line)], SearchOptions(mode=mode))
            print(f"{(time.perf_counter() - t) * 1000:.3f}", flush=True)


def start(root: str, args: argparse.Namespace) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(root), HF_HUB_OFFLINE="1")
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), args.folder, "--url", args.url,
                             "--mode", args.mode, "--worker"], cwd=root, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready", f"{root} did not start"
    return proc


def ask(proc: subprocess.Popen, claim: int) -> float:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{claim}\n")
    proc.stdin.flush()
    return float(proc.stdout.readline())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", help="a BEIR folder (SciFact): its claims are the queries")
    ap.add_argument("--url", required=True, help="the library (a path or a postgresql:// URL)")
    ap.add_argument("--old", help="the older checkout (its folder holds the papershelf package)")
    ap.add_argument("--new", default=".", help="the newer checkout (default: this one)")
    ap.add_argument("--mode", default="lexical", choices=("lexical", "vector", "hybrid"))
    ap.add_argument("--claims", type=int, default=100, help="the first N claims")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--unseen", type=int, default=0, metavar="N", help="first contact on the first N claims")
    ap.add_argument("--swap", action="store_true", help="with --unseen: the other half of them to each")
    ap.add_argument("--restart", metavar="PGDATA", help="restart the server in PGDATA first")
    ap.add_argument("--drop-caches", action="store_true", help="drop the OS page cache at the restart")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args.url, args.folder, args.mode)
    if not args.old:
        ap.error("--old is required")
    if args.restart:
        from pg_unseen import restart  # (this folder's)

        restart(args.restart, args.drop_caches)
    procs = {"old": start(args.old, args), "new": start(args.new, args)}
    ms: dict[str, list[float]] = {"old": [], "new": []}
    if args.unseen:
        first_contact(procs, ms, args)
    else:
        for r in range(args.rounds):
            for i in range(args.claims):
                for name in (("old", "new") if (i + r) % 2 else ("new", "old")):
                    ms[name].append(ask(procs[name], i))
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    out = {"mode": args.mode, "claims": args.unseen or args.claims, "rounds": 1 if args.unseen else args.rounds,
           "first_contact": bool(args.unseen), "load_avg_end": os.getloadavg(),
           **{f"{name}_p50_ms": round(percentile(v, 50), 1) for name, v in ms.items()},
           "ratio_of_p50s": round(percentile(ms["new"], 50) / percentile(ms["old"], 50), 3)}
    if not args.unseen:  # (first contact: each claim was searched by one version only)
        diff = sorted(n - o for o, n in zip(ms["old"], ms["new"], strict=True))
        out["paired_difference_median_ms"] = round(percentile(diff, 50), 2)
    print(json.dumps(out, indent=1))


def first_contact(procs: dict[str, subprocess.Popen], ms: dict[str, list[float]], args: argparse.Namespace) -> None:
    """Both warm up on the claims after the first `args.unseen`; then each of those is searched
    once, by the two versions in turn."""
    for i in range(args.unseen, args.unseen + args.claims):
        for proc in procs.values():
            ask(proc, i)
    for i in range(args.unseen):
        name = "old" if (i + args.swap) % 2 else "new"
        ms[name].append(ask(procs[name], i))


if __name__ == "__main__":
    main()
