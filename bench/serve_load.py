"""Load on `papershelf serve`: N concurrent clients on loopback, while a build writes.

Builds (or reuses, --keep) a SciFact library, starts a real `papershelf serve` on
127.0.0.1, starts a writer process that keeps adding and embedding new documents
into the same library, and then for each mode and client count runs N client
processes that send SciFact claims to /api/search for a fixed time.  Reports
p50/p99 latency, requests/s and errors.  Bounded: at most 16 clients, at most
60 s per run, and the server stops by itself.

    python bench/serve_load.py ../shared/data/scifact --keep /tmp/sf-serve.db --clients 1 4 --seconds 15
    python bench/serve_load.py ../shared/data/scifact --provider local --keep /tmp/sf-local.db
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from papershelf import Library
from papershelf.beir import build_library, load_beir
from papershelf.embed.base import ProviderSpec
from papershelf.metrics import percentile

WRITER = """
import sys, time
from papershelf import Library
from papershelf.document import Block, Document
from papershelf.embed.base import ProviderSpec
from papershelf.models import Paper
path, spec_json, until = sys.argv[1], sys.argv[2], float(sys.argv[3])
spec = ProviderSpec.from_json(spec_json)
n = 0
with Library(path) as lib:
    while time.time() < until:
        for _ in range(20):
            n += 1
            text = f"Load test document {n}: macrophage signalling and wound repair measured over {n} days."
            lib.add_document(Paper(id=f"load-{n}", title=f"Load {n}", source_format="beir"),
                             Document(title=f"Load {n}", blocks=[Block("text", text)]))
        lib.embed(spec)
print(n)
"""


def spec_for(provider: str) -> ProviderSpec:
    if provider == "hash":  # the real model's dimension, so the matrix searched is the same size
        return ProviderSpec("hash", "hash-v1", (("dimension", 384),))
    return ProviderSpec(provider)


def prepare(folder: str, path: str, spec: ProviderSpec) -> int:
    corpus, _, _, _ = load_beir(folder)
    with Library(path) as lib:
        if lib.store.count_papers() < len(corpus):
            build_library(lib, corpus)
        lib.embed(spec, workers=2)
        return lib.store.count_papers()


def client(url: str, queries: list[str], mode: str, until: float, offset: int, out) -> None:
    """One client: search back to back until `until`; put (latencies ms, errors) on `out`."""
    lat, errors = [], 0
    with httpx.Client(timeout=30) as http:
        i = offset
        while time.time() < until:
            t0 = time.perf_counter()
            r = http.get(f"{url}/api/search", params={"query": queries[i % len(queries)], "mode": mode})
            lat.append((time.perf_counter() - t0) * 1000)
            errors += r.status_code != 200
            i += 1
    out.put((lat, errors))


def run_load(url: str, queries: list[str], mode: str, clients: int, seconds: float) -> dict:
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    start = time.time() + 1.5  # let every client process start before the clock runs
    until = start + seconds
    procs = [ctx.Process(target=_delayed, args=(start, url, queries, mode, until, n * 97, out)) for n in range(clients)]
    for p in procs:
        p.start()
    results = [out.get(timeout=seconds + 60) for _ in procs]
    for p in procs:
        p.join(10)
    lat = [x for r in results for x in r[0]]
    return {"mode": mode, "clients": clients, "requests": len(lat), "errors": sum(r[1] for r in results),
            "p50_ms": round(percentile(lat, 50), 1), "p99_ms": round(percentile(lat, 99), 1),
            "rps": round(len(lat) / seconds, 1)}


def _delayed(start, *args) -> None:
    time.sleep(max(0.0, start - time.time()))
    client(*args)


def start_server(path: str, stop_after: float) -> tuple[subprocess.Popen, str]:
    discovery = Path(path + ".server.json")
    discovery.unlink(missing_ok=True)
    proc = subprocess.Popen([sys.executable, "-m", "papershelf", "-L", path, "serve", "--port", "0",
                             "--stop-after", str(stop_after)], stderr=subprocess.DEVNULL)
    deadline = time.time() + 300  # the real model loads before the server advertises itself
    while not discovery.exists():
        if proc.poll() is not None or time.time() > deadline:
            raise SystemExit("server did not start")
        time.sleep(0.1)
    return proc, json.loads(discovery.read_text())["url"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scifact")
    ap.add_argument("--keep", default="/tmp/papershelf-serve-load.db", help="library to build or reuse")
    ap.add_argument("--provider", default="hash", choices=["hash", "local"])
    ap.add_argument("--clients", type=int, nargs="+", default=[1, 4])
    ap.add_argument("--modes", nargs="+", default=["lexical", "hybrid"])
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--no-build", action="store_true", help="no writer process during the load")
    args = ap.parse_args()
    if max(args.clients) > 16 or args.seconds > 60:
        raise SystemExit("bounded: at most 16 clients and 60 s per run")
    spec = spec_for(args.provider)
    t0 = time.time()
    papers = prepare(args.scifact, args.keep, spec)
    print(f"library {args.keep}: {papers} papers, {spec.provider}/{spec.model_name} ({time.time() - t0:.0f}s)",
          file=sys.stderr)
    _, queries, _, _ = load_beir(args.scifact)
    queries = list(queries.values())
    total = len(args.modes) * len(args.clients) * (args.seconds + 5) + 30
    server, url = start_server(args.keep, total + 300)
    writer = None
    if not args.no_build:
        writer = subprocess.Popen([sys.executable, "-c", WRITER, args.keep, spec.to_json(), str(time.time() + total)],
                                  stdout=subprocess.PIPE, text=True)
    try:
        rows = [run_load(url, queries, mode, n, args.seconds) for mode in args.modes for n in args.clients]
    finally:
        server.terminate()
        server.wait(30)
    written = int(writer.communicate(timeout=total + 120)[0] or 0) if writer else 0
    print(json.dumps({"provider": spec.provider, "model": spec.model_name, "papers": papers,
                      "documents_written_during_load": written, "cpus": os.cpu_count(), "results": rows}, indent=1))
    print(f"{'mode':8} {'clients':>7} {'requests':>8} {'errors':>6} {'p50 ms':>7} {'p99 ms':>7} {'req/s':>7}",
          file=sys.stderr)
    for r in rows:
        print(f"{r['mode']:8} {r['clients']:7} {r['requests']:8} {r['errors']:6} {r['p50_ms']:7} {r['p99_ms']:7} "
              f"{r['rps']:7}", file=sys.stderr)


if __name__ == "__main__":
    main()
