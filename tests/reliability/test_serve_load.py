"""Standing suite: `serve` and `mcp` against a hung rerank server and a client that goes away
(issue #27): bounded reranks, health and other routes answering, prompt shutdown."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.servers import cli_env, make_library

from .capture import capture_server
from .common import slack

SEARCHES = 45


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return make_library(tmp_path_factory.mktemp("loaded"))


def _serve(db: Path, *args: str) -> tuple[subprocess.Popen, str]:
    discovery = Path(str(db) + ".server.json")
    discovery.unlink(missing_ok=True)
    proc = subprocess.Popen([sys.executable, "-m", "papershelf", "-L", str(db), "serve", "--port", "0", *args],
                            env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not discovery.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.poll() else "slow"
        time.sleep(0.05)
    return proc, json.loads(discovery.read_text())["url"]


def test_a_hung_reranker_holds_few_workers_and_sigterm_stops_within_2s(library):
    with capture_server(hang=60) as hung:
        proc, url = _serve(library, "--rerank-url", hung.url, "--rerank-timeout", "50")
        answers: list[dict] = []

        def search(i: int) -> None:
            try:
                r = httpx.get(f"{url}/api/search", params={"query": f"wound {i}", "mode": "lexical"}, timeout=90)
                answers.append(r.json())
            except httpx.HTTPError:
                pass  # the server was stopped under it

        threads = [threading.Thread(target=search, args=(i,), daemon=True) for i in range(SEARCHES)]
        try:
            for t in threads:
                t.start()
            deadline = time.monotonic() + 20 * slack()
            while len(answers) < SEARCHES - 4 and time.monotonic() < deadline:
                time.sleep(0.1)
            # All but the 4 reranks waiting on the hung server answered, at once, with the notice
            assert len(answers) == SEARCHES - 4, len(answers)
            assert all(any("reranks already waiting" in n for n in a["notices"]) for a in answers)
            assert len(hung.received) == 4
            t0 = time.monotonic()
            for path in ("/api/health", "/api/status", "/api/papers", "/"):
                assert httpx.get(f"{url}{path}", timeout=5).status_code == 200
            assert time.monotonic() - t0 < 2 * slack()
            t0 = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            proc.wait(10)
            stopped = time.monotonic() - t0
        finally:
            proc.kill() if proc.poll() is None else None
        err = proc.stderr.read()
        assert stopped < 2 * slack(), stopped
        assert "Traceback" not in err and "CancelledError" not in err, err[-3000:]
        assert not Path(str(library) + ".server.json").exists()


def _search_cut_off_by_the_stop(url: str) -> None:
    """A search the server is stopped in the middle of: its connection ends without a response."""
    with contextlib.suppress(httpx.RemoteProtocolError, httpx.ReadError):
        httpx.get(f"{url}/api/search", params={"query": "wound"}, timeout=90)


def test_sigint_stops_serve_within_2s_while_a_rerank_hangs(library):
    with capture_server(hang=60) as hung:
        proc, url = _serve(library, "--rerank-url", hung.url, "--rerank-timeout", "50")
        t = threading.Thread(target=_search_cut_off_by_the_stop, args=(url,), daemon=True)
        t.start()
        while not hung.received:
            time.sleep(0.05)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        finally:
            proc.kill() if proc.poll() is None else None
        assert time.monotonic() - t0 < 2 * slack()
        assert "Traceback" not in proc.stderr.read()
