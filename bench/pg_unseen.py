"""Search latency on claims a PostgreSQL server has not seen: the first contact, not a warm rerun.

Why: a lab bench that searches the same claims twice measures pages its first pass brought into
memory.  A library whose read set nears the machine's memory answers a new claim from disk, so
this bench (1) optionally restarts the server and drops the OS page cache, (2) warms by use:
every claim after the first `--held-out` is searched lexically and hybrid, (3) measures lexical
search on the even held-out claims and hybrid on the odd ones, each seen for the first time, and
(4) lexical again on the even ones.  It also counts, per relation, the blocks the unseen pass
read from outside shared buffers (pg_statio), so a slow pass says which index it waited on.

    python bench/pg_unseen.py ../shared/data/scifact --url postgresql://.../pg_lab_1m?... \\
        [--restart PGDATA] [--drop-caches]

--restart needs a server started by scripts/pg_server.py in PGDATA; --drop-caches needs root.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

from papershelf import Library, SearchOptions
from papershelf.beir import load_beir
from papershelf.metrics import percentile
from papershelf.models import SearchMode

# a table's own blocks (with its TOAST), and each index's
_STATIO = ("SELECT relname AS name, coalesce(heap_blks_read, 0) + coalesce(toast_blks_read, 0) + "
           "coalesce(tidx_blks_read, 0) AS n FROM pg_statio_user_tables "
           "UNION ALL SELECT indexrelname, coalesce(idx_blks_read, 0) FROM pg_statio_user_indexes")


def restart(pgdata: str, drop_caches: bool) -> None:
    """Stop the server, drop the OS page cache (root), start it again."""
    script = os.path.join(os.path.dirname(__file__), "..", "scripts", "pg_server.py")
    subprocess.run([sys.executable, script, "stop", pgdata], check=True, capture_output=True)
    if drop_caches:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
    subprocess.run([sys.executable, script, "start", pgdata], check=True, capture_output=True)


def timed(lib: Library, claims: list[str], mode: SearchMode) -> dict:
    ms = []
    for c in claims:
        t = time.perf_counter()
        lib.search(c, SearchOptions(mode=mode))
        ms.append((time.perf_counter() - t) * 1000)
    return {"n": len(ms), "p50_ms": round(percentile(ms, 50), 1), "p95_ms": round(percentile(ms, 95), 1)}


def blocks(lib: Library) -> dict[str, int]:
    store: Any = lib.store  # (a PostgreSQL store: its query(), not the contract's)
    return {r["name"]: int(r["n"]) for r in store.query(_STATIO)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", help="a BEIR folder (SciFact): its claims are the queries")
    ap.add_argument("--url", required=True, help="the library's postgresql:// URL")
    ap.add_argument("--held-out", type=int, default=200, help="claims kept unseen (the first ones)")
    ap.add_argument("--restart", metavar="PGDATA", help="restart the server in PGDATA first")
    ap.add_argument("--drop-caches", action="store_true", help="drop the OS page cache at the restart")
    args = ap.parse_args()
    _, queries, _, _ = load_beir(args.folder)
    claims = list(queries.values())
    held, rest = claims[:args.held_out], claims[args.held_out:]
    if args.restart:
        restart(args.restart, args.drop_caches)
    out: dict = {"load_avg_start": os.getloadavg(), "claims_warm": len(rest)}
    with Library(args.url) as lib:
        t = time.perf_counter()
        for c in rest:
            lib.search(c, SearchOptions(mode="lexical"))
            lib.search(c, SearchOptions(mode="hybrid"))
        out["warm_s"] = round(time.perf_counter() - t, 1)
        before = blocks(lib)
        out["lexical_unseen"] = timed(lib, held[0::2], "lexical")
        out["hybrid_unseen"] = timed(lib, held[1::2], "hybrid")
        after = blocks(lib)
        read = {k: after[k] - before.get(k, 0) for k in after if after[k] - before.get(k, 0) > 0}
        out["blocks_read_unseen"] = dict(sorted(read.items(), key=lambda kv: -kv[1]))
        out["lexical_seen_again"] = timed(lib, held[0::2], "lexical")
    out["load_avg_end"] = os.getloadavg()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
