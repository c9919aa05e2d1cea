"""Reranking through a server the user already runs (off unless the user configured one).

Two request shapes are common, and one POST tells them apart by the answer:

* Hugging Face text-embeddings-inference: POST /rerank {"query", "texts"}
  -> [{"index", "score"}, ...]
* Jina / Cohere / vLLM style: POST /v1/rerank {"query", "documents", "top_n"}
  -> {"results": [{"index", "relevance_score"}, ...]}

Both fields go in one body ("texts" and "documents"), so either server reads what it needs.
Anything else — a timeout, a refused connection, an HTTP error, an answer that does not
score every text — raises RerankFailed, and search keeps its fused order with a notice.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, replace
from typing import Any

from .options import SearchOptions

# Reranks waiting on the server at once, per process.  A hung rerank server then holds at most
# this many of `serve`'s worker threads; further searches skip reranking at once, with a notice.
MAX_CONCURRENT = 4
_in_flight = threading.BoundedSemaphore(MAX_CONCURRENT)


class RerankFailed(Exception):
    """The rerank server did not give a usable answer (the message says why)."""


def _post(url: str, body: dict[str, Any], timeout: float) -> Any:
    import urllib.error  # here, not at the top: urllib.request (http, ssl, email) costs every search
    import urllib.request  # ~15 ms, and only a configured reranker needs it

    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # the user's own URL
            return json.loads(resp.read())
    except urllib.error.HTTPError as e:
        raise RerankFailed(f"{url} answered HTTP {e.code}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise RerankFailed(f"{url} unreachable: {reason}") from None
    except ValueError:
        raise RerankFailed(f"{url} answered with something that is not JSON") from None


def _scores(answer: Any, n: int) -> list[float]:
    """Score per text, in the texts' order, from either answer shape."""
    items = answer.get("results") if isinstance(answer, dict) else answer
    if not isinstance(items, list):
        raise RerankFailed("the answer holds no list of scores")
    scores: dict[int, float] = {}
    for item in items:
        if not isinstance(item, dict):
            raise RerankFailed("the answer's scores are not objects")
        index, score = item.get("index"), item.get("score", item.get("relevance_score"))
        if not isinstance(index, int) or not isinstance(score, (int, float)) or not 0 <= index < n:
            raise RerankFailed(f"bad score entry {item!r}")
        scores[index] = float(score)
    if len(scores) != n:
        raise RerankFailed(f"the answer scores {len(scores)} of {n} texts")
    return [scores[i] for i in range(n)]


def rerank(url: str, query: str, texts: list[str], timeout: float = 10.0) -> list[float]:
    """The server's score for each text (higher is better), in the texts' order."""
    if not texts:
        return []
    if not _in_flight.acquire(blocking=False):
        raise RerankFailed(f"{MAX_CONCURRENT} reranks already waiting on {url}")
    try:
        body = {"query": query, "texts": texts, "documents": texts, "top_n": len(texts)}
        return _scores(_post(url, body, timeout), len(texts))
    finally:
        _in_flight.release()


@dataclass(frozen=True)
class Reranker:
    """The user's rerank server: configuration (`serve`/`mcp`/`search --rerank-url`, or
    PAPERSHELF_RERANK_URL), never a parameter of an HTTP or MCP request — a request that could
    name the URL could make the server POST the library's text anywhere (RELIABILITY.md)."""

    url: str
    top: int = 20
    timeout: float = 10.0

    def apply(self, opts: SearchOptions) -> SearchOptions:
        """`opts` reranked by this server (checked like the CLI's options)."""
        return replace(opts, rerank_url=self.url, rerank_top=self.top, rerank_timeout=self.timeout).validate()

    @classmethod
    def configured(cls, url: str | None, top: int = 20, timeout: float = 10.0) -> Reranker | None:
        """The reranker a command was started with, checked at once (None when no URL is set)."""
        if not url:
            return None
        SearchOptions(rerank_url=url, rerank_top=top, rerank_timeout=timeout).validate()
        return cls(url, top, timeout)
