"""Fault injection for tests and benchmarks (not part of the package).

`FaultyProvider` wraps any provider to fail the Nth call, drop vectors for
chosen texts, or add delay.  `EmbeddingServer` is a
real OpenAI-compatible HTTP endpoint on 127.0.0.1 serving HashProvider vectors,
for tests and benchmarks of the `openai` provider; it misbehaves on request:
canned answers (`script`, then `outage` for every later request), a request
that is never answered (`HANG`), a connection closed without an answer
(`DROP`) or in the middle of one (`DROP_MID`), or the server stopping (`stop`).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

from papershelf.embed.hashing import HashProvider
from papershelf.embed.provider import Provider
from papershelf.errors import ProviderError

HANG = "__hang__"  # accept the request, never answer (until the server stops)
DROP = "__drop__"  # close the connection without a response
DROP_MID = "__drop_mid__"  # send the headers and half the body, then close


class FaultPlan:
    """Shared between the FaultyProvider instances of one build (one per worker)."""

    def __init__(self, fail_calls=(), fail_texts=(), drop_texts=(), delay: float = 0.0, wrong_dimension=False):
        self.fail_calls = set(fail_calls)  # 1-based call numbers that raise
        self.fail_texts = tuple(fail_texts)  # a call containing a text with this substring raises
        self.drop_texts = tuple(drop_texts)  # texts with this substring get no vector back
        self.delay = delay
        self.wrong_dimension = wrong_dimension
        self.calls = 0
        self.texts_encoded = 0
        self._lock = threading.Lock()


class FaultyProvider(Provider):
    def __init__(self, inner: Provider, plan: FaultPlan):
        self.inner, self.plan = inner, plan
        self.name, self.model = inner.name, inner.model
        self.window_tokens = inner.window_tokens

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def encode(self, texts: list[str]) -> np.ndarray:
        with self.plan._lock:
            self.plan.calls += 1
            n = self.plan.calls
        if self.plan.delay:
            time.sleep(self.plan.delay)
        if n in self.plan.fail_calls:
            raise ProviderError(f"injected failure on call {n}")
        if any(s in t for t in texts for s in self.plan.fail_texts):
            raise ProviderError("injected failure for a chosen text")
        vectors = self.inner.encode(texts)
        with self.plan._lock:
            self.plan.texts_encoded += len(texts)
        if self.plan.drop_texts:
            keep = [i for i, t in enumerate(texts) if not any(s in t for s in self.plan.drop_texts)]
            vectors = vectors[keep]
        if self.plan.wrong_dimension:
            vectors = np.hstack([vectors, vectors])
        return vectors


class EmbeddingServer:
    """``/v1/embeddings`` on 127.0.0.1: deterministic vectors after an optional delay;
    `script` holds canned (status, headers, body) answers served first."""

    def __init__(self, dimension: int = 64, delay: float = 0.0, port: int = 0):
        self.provider = HashProvider(dimension=dimension)
        self.delay = delay
        # (status, headers, body) or a fault marker (HANG, DROP, ...), served before normal answers
        self.script: list[tuple[int, dict, object] | str] = []
        self.outage: tuple[int, dict, object] | str | None = None  # served to every request once the script is out
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if server.stopping.is_set():  # a dead server answers nothing, even on an open connection
                    self.close_connection = True
                    return
                with server.lock:
                    server.requests.append({"path": self.path, "body": body,
                                            "auth": self.headers.get("Authorization"), "t": time.monotonic()})
                    canned = server.script.pop(0) if server.script else server.outage
                if server.delay and server.stopping.wait(server.delay):
                    self.close_connection = True
                    return
                if canned == HANG:
                    server.stopping.wait(60)  # bounded: the test's server stops long before
                    self.close_connection = True
                    return
                if canned == DROP:
                    self.close_connection = True
                    return
                if canned == DROP_MID:
                    data = json.dumps({"data": [{"index": 0, "embedding": [0.5] * 64}]}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data[:len(data) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                status: int
                headers: dict[str, str]
                payload: object
                if isinstance(canned, tuple):
                    status, headers, payload = canned
                    if callable(payload):
                        payload = payload(body)
                else:
                    status, headers = 200, {}
                    vecs = server.provider.encode(body["input"])
                    payload = {"object": "list", "model": body["model"],
                               "data": [{"object": "embedding", "index": i, "embedding": v.tolist()}
                                        for i, v in enumerate(vecs)]}
                data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        class Server(ThreadingHTTPServer):
            allow_reuse_address = True

            def handle_error(self, request, client_address):
                pass  # clients killed mid-request (crash tests) are expected, not news

        self.httpd = Server(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self) -> None:
        """Stop serving (a server dying mid-run): later requests are refused."""
        if self.stopping.is_set():
            return
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()
