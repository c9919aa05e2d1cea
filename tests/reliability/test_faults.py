"""Fault suite: a misbehaving OpenAI-compatible server on 127.0.0.1, case by case.

For every fault: each affected paper fails with a clear reason, papers not reached
stay pending, no old vector is lost or changed, the build ends in bounded time with
failures (the command's exit code 1), a healthy rerun heals the library, and a
complete library is not re-embedded (no request at all).

Short (CI): 8 of the 13 faults, 1 worker.  ``PAPERSHELF_SUITE=full``: every fault with
1 and 4 workers and more papers.  Run: ``python -m pytest tests/reliability/test_faults.py``.
"""

from __future__ import annotations

import threading
import time

import pytest

from papershelf import Library
from papershelf.embed.base import ProviderSpec
from papershelf.embed.openai import reset_health

from ..backends import tamper
from ..providers import DROP, DROP_MID, HANG, EmbeddingServer
from .common import FULL, scale, slack, write_papers

N_PAPERS = scale(4, 12)
WORKERS = [1, 4] if FULL else [1]


def _vectors(body):
    return [[0.25] * 64 for _ in body["input"]]


FAULTS = {
    # name: what the server answers to every request while the fault lasts
    "timeout": "slow",
    "hang": HANG,
    "429 Retry-After": (429, {"Retry-After": "0.1"}, {"error": "rate limited"}),
    "500": (500, {}, {"error": "internal"}),
    "400": (400, {}, {"error": "bad input"}),
    "malformed JSON": (200, {}, "{not json"),
    "empty data": (200, {}, {"data": []}),
    "wrong dimension": (200, {}, lambda b: {"data": [{"index": i, "embedding": [0.1] * 32}
                                                     for i in range(len(b["input"]))]}),
    "NaN": (200, {}, lambda b: {"data": [{"index": i, "embedding": [float("nan")] * 64}
                                         for i in range(len(b["input"]))]}),
    "fewer vectors": (200, {}, lambda b: {"data": [{"index": i, "embedding": [0.1] * 64}
                                                   for i in range(len(b["input"]) - 1)]}),
    "dropped connection": DROP,
    "dropped mid-response": DROP_MID,
    "server dies": "die",
}
EXPECTED = {  # words every affected paper's reason must contain
    "timeout": "unreachable", "hang": "unreachable", "429 Retry-After": "HTTP 429", "500": "HTTP 500",
    "400": "HTTP 400", "malformed JSON": "malformed", "empty data": "0 vectors", "wrong dimension": "32-dimensional",
    "NaN": "non-finite", "fewer vectors": "vectors for", "dropped connection": "unreachable",
    "dropped mid-response": "unreachable", "server dies": "unreachable",
}
STATS = {"faults": 0, "papers_failed": 0, "max_seconds": 0.0}


def _spec(url: str) -> ProviderSpec:
    # Short timeouts and backoff keep the suite quick; the defaults only scale the same bounds.
    return ProviderSpec("openai", "test-embed", (("dimension", 64),),
                        (("base_url", url), ("batch_size", 8), ("backoff", 0.05), ("timeout", 0.5),
                         ("max_retries", 2), ("cooldown", 0.5)))


def _stored(lib: Library) -> dict[str, bytes]:
    return {unit_id: bytes(blob) for unit_id, blob in tamper(lib.store).all_vectors()}


SHORT = ["hang", "429 Retry-After", "500", "malformed JSON", "wrong dimension", "NaN", "dropped mid-response",
         "server dies"]


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize("fault", list(FAULTS) if FULL else SHORT)
def test_a_fault_fails_clearly_keeps_old_vectors_and_a_rerun_heals(tmp_path, fault, workers):
    folder = tmp_path / "papers"
    paths = write_papers(folder, N_PAPERS)
    with EmbeddingServer(dimension=64) as server, Library(str(tmp_path / "lib.db")) as lib:
        lib.add([str(folder)])
        spec = _spec(server.url)
        assert lib.embed(spec).complete
        # every paper changes, so every paper needs the provider again
        for p in paths:
            p.write_text(p.read_text(encoding="utf-8").replace("rises", "falls"), encoding="utf-8")
        lib.add([str(folder)])
        before = _stored(lib)
        inject(server, fault)
        t0 = time.monotonic()
        report = lib.embed(spec, workers=workers)
        took = time.monotonic() - t0
        assert took < 8 * slack(), (fault, took)
        assert report.failed and not report.complete and len(report.failed) == N_PAPERS, report.failed
        for reason in report.failed.values():
            assert EXPECTED[fault] in reason or "not tried" in reason, (fault, reason)
        assert _stored(lib) == before, "a failed paper's old vectors must stay exactly as they were"
        assert lib.verify().ok
        assert {p for p, _ in lib.pending()} == set(lib.store.paper_ids())
        STATS["faults"] += 1
        STATS["papers_failed"] += len(report.failed)
        STATS["max_seconds"] = max(STATS["max_seconds"], took)

    # the provider is back (a new server where it died): a healthy rerun heals the library
    reset_health()
    with EmbeddingServer(dimension=64) as healthy, Library(str(tmp_path / "lib.db")) as lib:
        spec = _spec(healthy.url)
        healed = lib.embed(spec, workers=workers)
        assert healed.complete and not healed.failed and lib.verify().ok
        asked = len(healthy.requests)
        again = lib.embed(spec, workers=workers)
        assert again.selected == 0 and len(healthy.requests) == asked  # complete: not re-embedded


def inject(server: EmbeddingServer, fault: str) -> None:
    what = FAULTS[fault]
    if what == "slow":
        server.delay = 1.0  # beyond the 0.5 s timeout
    elif what == "die":
        threading.Timer(0.05, server.stop).start()
        server.delay = 0.2  # the first requests are in flight when it dies
    else:
        server.outage = what


@pytest.fixture(scope="module", autouse=True)
def _fault_figures():
    """The suite's figures for RELIABILITY.md, printed when the module is done (not a test: it checks nothing)."""
    yield
    print(f"\nfault suite: {STATS['faults']} faults injected, {STATS['papers_failed']} papers failed with a reason, "
          f"slowest failed build {STATS['max_seconds']:.2f}s")
