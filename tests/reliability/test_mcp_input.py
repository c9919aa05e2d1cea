"""Standing suite: raw bytes to `papershelf mcp` on stdin, as a broken or hostile client sends
them, and a client that goes away mid-call (issue #27).  Every line gets a JSON-RPC answer."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from papershelf.frontends.mcp import TOOLS
from tests.servers import cli_env, make_library

from .capture import capture_server
from .common import slack

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}

# (bytes sent, the JSON-RPC error code expected, or None for a good request)
LINES: list[tuple[bytes, int | None]] = [
    (b"not json at all", -32700),
    (b"\xff\xfe\x00garbage \xc3\x28", -32700),
    (b"{" * 5, -32700),
    (b"[" * 200_000, -32700),  # nesting far past any parser's recursion limit
    (b"1" * 100_000, -32700),  # a number past Python's integer-string limit
    (b'{"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"x": ' + b"9" * 50_000 + b"}}", -32700),
    (b'{"jsonrpc": "2.0", "id": 6, "method": "tools/list", "params": {"x": 1e99999}}', None),
    (b'{"foo": 1}', -32600),
    (b"[]", -32600),
    (b'"just a string"', -32600),
    (b'{"jsonrpc": "2.0", "id": 7}', -32600),
    (b'{"jsonrpc": "1.0", "id": 8, "method": "tools/list"}', -32600),
    (b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "search", "arguments": '
     b'{"query": "wound \\ud800 healing", "mode": "lexical"}}}', None),
    (b'{"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "search", "arguments": '
     b'{"query": "wound", "mode": "lexical", "limit": 1e308}}}', None),
    (b'{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "search", "arguments": '
     b'{"query": "wound", "mode": "lexical"}}}', None),
]


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return make_library(tmp_path_factory.mktemp("mcp-raw"))


def _mcp(db: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "papershelf", "-L", str(db), "mcp", *args], env=cli_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _send(proc: subprocess.Popen, data: bytes) -> None:
    proc.stdin.write(data + b"\n")
    proc.stdin.flush()


def _answer(proc: subprocess.Popen, timeout: float = 60) -> dict:
    box: list[bytes] = []
    t = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)
    t.start()
    t.join(timeout)
    assert box and box[0], f"no answer; stderr: {proc.stderr.read1(4000) if proc.poll() is not None else ''}"
    return json.loads(box[0])


def _initialized(proc: subprocess.Popen) -> None:
    _send(proc, json.dumps(INIT).encode())
    assert "result" in _answer(proc)
    _send(proc, b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')


def test_every_line_gets_a_json_rpc_answer(library):
    proc = _mcp(library)
    try:
        _initialized(proc)
        answered = 0
        for data, code in LINES:
            _send(proc, data)
            reply = _answer(proc)
            if code is None:
                assert "result" in reply or "error" in reply, reply
            else:
                assert reply.get("error", {}).get("code") == code, (data[:60], reply)
            answered += 1
        assert answered == len(LINES)
        _send(proc, b'{"jsonrpc": "2.0", "id": 99, "method": "tools/list"}')  # still serving
        assert len(_answer(proc)["result"]["tools"]) == len(TOOLS)
    finally:
        proc.stdin.close()
        proc.wait(10)
    assert b"Traceback" not in proc.stderr.read()


def test_mcp_exits_promptly_when_its_client_goes_away_mid_call(library):
    with capture_server(hang=60) as hung:
        proc = _mcp(library, "--rerank-url", hung.url, "--rerank-timeout", "50")
        try:
            _initialized(proc)
            _send(proc, b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search", '
                        b'"arguments": {"query": "wound", "mode": "lexical"}}}')
            deadline = time.monotonic() + 30
            while not hung.received and time.monotonic() < deadline:
                time.sleep(0.05)
            assert hung.received  # the call is now waiting on the hung reranker
            t0 = time.monotonic()
            proc.stdin.close()
            proc.wait(10)
            assert time.monotonic() - t0 < 2 * slack()
        finally:
            proc.kill() if proc.poll() is None else None
        assert b"Traceback" not in proc.stderr.read()
