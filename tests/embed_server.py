"""A real OpenAI-compatible /v1/embeddings server on 127.0.0.1 for tests and benchmarks.

Answers with deterministic vectors (HashProvider) after an optional delay and
can be scripted to misbehave: a queue of canned failures is served first.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from papershelf.embed.testing import HashProvider


class EmbeddingServer:
    def __init__(self, dimension: int = 64, delay: float = 0.0):
        self.provider = HashProvider(dimension=dimension)
        self.delay = delay
        self.script: list[tuple[int, dict, object]] = []  # (status, headers, body) served before normal answers
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.requests.append({"path": self.path, "body": body,
                                            "auth": self.headers.get("Authorization"), "t": time.monotonic()})
                    canned = server.script.pop(0) if server.script else None
                if server.delay:
                    time.sleep(server.delay)
                if canned is not None:
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

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
