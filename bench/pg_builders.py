"""Two builders, two machines (simulated): two `papershelf embed` processes, each with its own
workers, against one PostgreSQL library, against one process alone on a copy of it.

The provider is the hash provider with a fixed delay per call (PAPERSHELF_HASH_DELAY), standing in
for a model on each machine: the machines' encoding is what should add up.  Reports each run's
seconds (from the build summary), papers written by each builder, and `verify`.

    python bench/pg_builders.py --url postgresql://... --papers 64 --delay 0.05
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg

from papershelf import Library

TEXT = "---\nid: p{i:03d}\ntitle: Paper {i}\n---\n\n# Intro\n\nTopic number {i}.\n\n# Results\n\nFigure 1: Caption {i}.\n"


def database(admin: str, name: str) -> str:
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return admin.replace("/postgres?", f"/{name}?", 1)


def embed(url: str, delay: str, workers: int) -> subprocess.Popen:
    env = dict(os.environ, PAPERSHELF_LIBRARY=url, PAPERSHELF_HASH_DELAY=delay)
    return subprocess.Popen([sys.executable, "-m", "papershelf", "embed", "--provider", "hash", "--batch-size", "2",
                             "--workers", str(workers), "--json"], env=env, stdout=subprocess.PIPE, text=True)


def summary(proc: subprocess.Popen) -> dict:
    out, _ = proc.communicate()
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True, help="maintenance URL of the server (…/postgres?host=…)")
    ap.add_argument("--papers", type=int, default=64)
    ap.add_argument("--delay", default="0.05")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.papers):
            Path(tmp, f"p{i:03d}.md").write_text(TEXT.format(i=i))
        urls = [database(args.url, "bench_one"), database(args.url, "bench_two")]
        for url in urls:
            with Library(url) as lib:
                lib.add([tmp])
    alone = summary(embed(urls[0], args.delay, args.workers))
    a, b = (summary(p) for p in [embed(urls[1], args.delay, args.workers) for _ in range(2)])
    with Library(urls[1]) as lib:
        ok, pending = lib.verify().ok, len(lib.pending())
        states = lib.store.query("SELECT count(*) AS n FROM embed_state")[0]["n"]
    print(json.dumps({"papers": args.papers, "workers_each": args.workers, "alone_s": alone["seconds"],
                      "pair_s": [a["seconds"], b["seconds"]], "speedup": round(alone["seconds"] /
                                                                             max(a["seconds"], b["seconds"]), 2),
                      "written": [a["embedded"], b["embedded"]], "states": states, "pending_after": pending,
                      "verify_ok": ok}))


if __name__ == "__main__":
    main()
