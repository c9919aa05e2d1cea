"""Embedding build speed (issue: resumable, parallel builds). A script, not a timed test.

1. Parallel HTTP: an OpenAI-compatible server on 127.0.0.1 that answers every
   request after a fixed delay; the same papers built with workers = 1, 2, 4, 8;
   papers/s and speedup over one worker.
2. Local model: pipeline windows/s against raw ``model.encode`` on the same
   windows, in the same run; and what windows cost against one truncated
   text per unit.
3. No-op rerun over N already-embedded papers (deterministic provider).

    python bench/embed_speed.py                  # all three
    python bench/embed_speed.py --only http --papers 500 --delay 0.15
    python bench/embed_speed.py --only local --local-folder ../shared/data/pdfs
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from typing import Any

from papershelf import Library
from papershelf.document import Block, Document
from papershelf.embed.base import ProviderSpec
from papershelf.models import Paper
from tests.providers import EmbeddingServer

WORDS = ["cell", "signal", "protein", "model", "data", "graph", "reef", "coral", "wound", "layer", "table", "figure", "method", "result", "sample", "network", "retrieval", "index", "query", "matrix", "vector", "dense", "sparse", "gene", "tissue", "dose"]


def synthetic_paper(i: int) -> tuple[Paper, Document]:
    """A small structured paper: 3 sections of ~120 words and 2 captions."""
    def sentence(k):
        return " ".join(WORDS[(i * 7 + k * 3 + j) % len(WORDS)] for j in range(12)) + "."
    blocks = []
    for s in range(3):
        blocks.append(Block("heading", f"Section {s + 1}", level=1))
        blocks.append(Block("text", " ".join(sentence(s * 10 + k) for k in range(10)) + f" See Figure {s % 2 + 1}."))
    blocks.append(Block("text", f"Figure 1: Result {i} for the {WORDS[i % len(WORDS)]} experiment."))
    blocks.append(Block("text", f"Table 1: Counts of {WORDS[(i + 3) % len(WORDS)]} per condition."))
    title = f"Synthetic paper {i}"
    return Paper(id=f"syn{i:05d}", title=title), Document(title=title, blocks=blocks)


def make_library(path: str, n: int) -> Library:
    lib = Library(path)
    store: Any = lib.store  # the SQLite store's own transaction(), not the contract's
    with store.transaction():
        pass
    for i in range(n):
        lib.add_document(*synthetic_paper(i))
    return lib


def bench_http(n: int, delay: float, workers_list: list[int], batch: int) -> dict:
    tmp = tempfile.mkdtemp(prefix="papershelf-bench-")
    base = os.path.join(tmp, "base.db")
    make_library(base, n).close()
    rows = []
    with EmbeddingServer(dimension=64, delay=delay) as server:
        spec = ProviderSpec("openai", "bench-embed", (), (("base_url", server.url), ("batch_size", batch)))
        for w in workers_list:
            path = os.path.join(tmp, f"w{w}.db")
            shutil.copy(base, path)
            with Library(path) as lib:
                before = len(server.requests)
                t0 = time.perf_counter()
                report = lib.embed(spec, workers=w)
                dt = time.perf_counter() - t0
                assert report.complete and len(report.embedded) == n, report.to_dict()
            rows.append({"workers": w, "seconds": round(dt, 2), "papers_per_s": round(n / dt, 1),
                         "chunks": report.units, "requests": len(server.requests) - before})
    for r in rows:
        r["speedup"] = round(rows[0]["seconds"] / r["seconds"], 2)
        r["efficiency"] = round(r["speedup"] / r["workers"], 2)
    shutil.rmtree(tmp, ignore_errors=True)
    return {"papers": n, "delay_s": delay, "batch": batch, "runs": rows}


def bench_local(n: int, folder: str | None = None) -> dict:
    from papershelf.embed.local import LocalProvider
    from papershelf.embed.windows import windows
    from papershelf.units import embedding_parts

    tmp = tempfile.mkdtemp(prefix="papershelf-bench-")
    if folder:  # real papers (e.g. ../shared/data/pdfs) instead of n synthetic ones
        lib = Library(os.path.join(tmp, "local.db"))
        lib.add([folder])
        n = lib.store.count_papers()
    else:
        lib = make_library(os.path.join(tmp, "local.db"), n)
    model = LocalProvider()
    texts = []  # exactly the windows the pipeline encodes
    for pid in lib.store.paper_ids():
        paper = lib.store.get_paper(pid)
        for u in lib.store.paper_units(pid):
            if u.indexable:
                texts += windows(*embedding_parts(u, paper.title if paper else None), model.window_tokens, model.count_tokens)
    model.encode(texts[:32])  # warm up
    t0 = time.perf_counter()
    model.encode(texts)  # raw: one call, the model's own batching
    raw = len(texts) / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    report = lib.embed(ProviderSpec("local"), provider_factory=lambda: model)
    seconds = time.perf_counter() - t0
    pipe = report.windows / seconds
    # The price of windows: the same units as one (truncated) text each.
    whole = LocalProvider(window_tokens=0)
    t0 = time.perf_counter()
    flat = lib.embed(ProviderSpec("local", None, (("window_tokens", 0),)), provider_factory=lambda: whole)
    flat_seconds = time.perf_counter() - t0
    lib.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return {"papers": n, "units": report.units, "windows": len(texts), "raw_windows_per_s": round(raw, 1),
            "pipeline_windows_per_s": round(pipe, 1), "ratio": round(pipe / raw, 3),
            "units_per_s_windowed": round(report.units / seconds, 1),
            "units_per_s_truncated": round(flat.units / flat_seconds, 1),
            "windowed_cost": round(seconds / flat_seconds, 2)}


def bench_noop(n: int) -> dict:
    tmp = tempfile.mkdtemp(prefix="papershelf-bench-")
    lib = make_library(os.path.join(tmp, "noop.db"), n)
    spec = ProviderSpec("hash", "hash-v1", (("dimension", 64),))
    t0 = time.perf_counter()
    first = lib.embed(spec)
    build = time.perf_counter() - t0
    t0 = time.perf_counter()
    again = lib.embed(spec)
    noop = time.perf_counter() - t0
    assert again.units == 0 and again.skipped == n
    lib.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return {"papers": n, "first_build_s": round(build, 2), "chunks": first.units, "noop_rerun_s": round(noop, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=["http", "local", "noop"])
    ap.add_argument("--papers", type=int, default=500)
    ap.add_argument("--delay", type=float, default=0.15)
    ap.add_argument("--batch", type=int, default=16, help="texts per HTTP request")
    ap.add_argument("--local-papers", type=int, default=60)
    ap.add_argument("--local-folder", help="local: real papers to embed instead of synthetic ones")
    ap.add_argument("--noop-papers", type=int, default=10_000)
    args = ap.parse_args()
    out: dict[str, str | dict] = {"date": time.strftime("%Y-%m-%d"),
                                  "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                                             f"Python {platform.python_version()}"}
    if args.only in (None, "http"):
        out["http"] = bench_http(args.papers, args.delay, [1, 2, 4, 8], args.batch)
        print(json.dumps(out["http"]), file=sys.stderr)
    if args.only in (None, "local"):
        out["local"] = bench_local(args.local_papers, args.local_folder)
        print(json.dumps(out["local"]), file=sys.stderr)
    if args.only in (None, "noop"):
        out["noop"] = bench_noop(args.noop_papers)
        print(json.dumps(out["noop"]), file=sys.stderr)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
