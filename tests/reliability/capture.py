"""A rerank endpoint on 127.0.0.1 that records every request it receives (an attacker's capture
server, or the user's own reranker), optionally hanging before it answers."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Capture:
    url: str
    received: list[bytes] = field(default_factory=list)

    @property
    def texts(self) -> int:
        return sum(len(json.loads(b).get("texts", [])) for b in self.received)


@contextmanager
def capture_server(hang: float = 0.0) -> Iterator[Capture]:
    """Answers TEI-shaped scores (every text 1.0) after `hang` seconds; records each body."""
    cap = Capture("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            cap.received.append(body)
            time.sleep(hang)
            try:
                n = len(json.loads(body).get("texts", []))
            except ValueError:
                n = 0
            data = json.dumps([{"index": i, "score": 1.0} for i in range(n)]).encode()
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the client gave up

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    cap.url = f"http://127.0.0.1:{server.server_address[1]}/rerank"
    try:
        yield cap
    finally:
        server.shutdown()
        server.server_close()
