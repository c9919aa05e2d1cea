"""The MCP stdio transport papershelf runs: the SDK's, with two things it lacks.

* A line that is not a JSON-RPC message (not JSON, invalid UTF-8, numbers past what JSON
  parsers take, nesting too deep, an object that is no request) gets the JSON-RPC answer the
  specification asks for — ``-32700 Parse error`` or ``-32600 Invalid Request`` — instead of
  silence, so a client is never left waiting for a reply.
* When the client goes away (stdin closes) the process ends within `EXIT_WITHIN` seconds, even
  while a tool call still runs in its worker thread (a hung reranker, a slow read): the library
  is only read, so leaving the call is safe.
"""

from __future__ import annotations

import io
import json
import os
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable

import anyio
import mcp_types as types

EXIT_WITHIN = 1.0


def rpc_error(line: str) -> str | None:
    """The JSON-RPC error answer for a line that is no JSON-RPC message; None for a good one."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return _error(None, -32700, "Parse error: the line is not JSON")
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception:  # noqa: BLE001 - pydantic's or jiter's: any reason means the same answer
        rid = data.get("id") if isinstance(data, dict) else None
        rid = rid if isinstance(rid, (str, int)) and not isinstance(rid, bool) else None
        return _error(rid, -32600, "Invalid Request: not a JSON-RPC 2.0 request, notification or response")
    return None


def _error(rid: str | int | None, code: int, message: str) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}})


class Stdout:
    """stdout for the SDK's writer and for the error answers: one whole line per write."""

    def __init__(self) -> None:
        self.file = anyio.wrap_file(io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", errors="replace",
                                                     write_through=True))
        self.lock = anyio.Lock()

    async def write(self, text: str) -> None:
        async with self.lock:
            await self.file.write(text)

    async def flush(self) -> None:
        async with self.lock:
            await self.file.flush()


class CheckedStdin:
    """stdin's lines for the SDK's reader, the bad ones answered here; at its end `on_eof` runs."""

    def __init__(self, out: Stdout, on_eof: Callable[[], None]):
        self.out, self.on_eof = out, on_eof
        self.file = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self.file:
            if not line.strip():
                continue
            answer = rpc_error(line)
            if answer is None:
                yield line
            else:
                await self.out.write(answer + "\n")
                await self.out.flush()
        self.on_eof()


def exit_soon(cleanup: Callable[[], None]) -> None:
    """Leave the process within `EXIT_WITHIN` seconds unless it ends by itself first."""

    def later() -> None:
        time.sleep(EXIT_WITHIN)
        cleanup()
        sys.stderr.flush()
        os._exit(0)

    threading.Thread(target=later, daemon=True).start()
