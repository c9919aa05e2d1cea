"""Embedding queries: one provider per embedding space, cached, built for answering quickly.

A query is encoded by the provider of the space being searched, with the library's own settings
(URLs, keys) when the space is of the configured model.  A provider that is down or broken makes
vector search unavailable (`VectorUnavailable`), never search itself.  `Library` owns one.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict

import numpy as np

from ..errors import PapershelfError, VectorUnavailable
from ..models import Paper, Space
from ..store import Store
from ..units import Unit, embedding_parts
from .base import ProviderSpec
from .config import configured_spec
from .provider import Provider, validate
from .windows import cut, token_counter

QUERY_THREADS_ENV = "PAPERSHELF_QUERY_THREADS"
# Query vectors kept per embedder, newest used last: a page turned, a filter changed or the same
# question asked again costs no encoding (~7 ms of CPU for MiniLM, a round trip for an API).
QUERY_VECTORS_KEPT = 512


def query_threads() -> int:
    """ONNX Runtime threads for encoding one query (default 1).  A query is a dozen tokens: a second
    thread halves nothing worth having, and while it waits it spins, doubling the encoding's CPU
    (8.4 -> 4.0 ms a query at 10k papers, docs/measurements/warm3.md) and taking the core BM25 runs
    on beside it.  One thread gives the same vectors to the bit."""
    try:
        return max(1, int(os.environ.get(QUERY_THREADS_ENV) or 1))
    except ValueError:
        return 1


class QueryEmbedder:
    """Thread-safe: concurrent searches share the cached providers."""

    def __init__(self, store: Store):
        self.store = store
        self._providers: dict[str, Provider] = {}
        self._lock = threading.Lock()
        # (space fingerprint, query text) -> its vector, read-only.  The fingerprint names the
        # provider, model, dimension and options (window size, quantization): another space, or the
        # same model under other options, never reads a vector encoded for this one.
        self._vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()

    def provider(self, space: Space) -> Provider:
        """The provider that embeds queries for a space (cached; created on first use)."""
        with self._lock:
            if space.fingerprint not in self._providers:
                spec = configured_spec(self.store)
                same_model = (spec.provider, spec.model_name) == (space.provider, space.model)
                settings = spec.settings if same_model else ()
                if space.provider == "local":  # its own small session, never the build's (`query_threads`)
                    settings = (*(kv for kv in settings if kv[0] != "threads"), ("threads", query_threads()))
                options = tuple(sorted(space.options.items()))
                provider = ProviderSpec(space.provider, space.model, options, settings).create()
                # A query must not wait out a build's timeouts and retries (openai: short timeout).
                self._providers[space.fingerprint] = provider.for_queries()
            return self._providers[space.fingerprint]

    def vector(self, space: Space, query: str) -> np.ndarray:
        """The query's vector in a space: encoded once, then kept (`QUERY_VECTORS_KEPT` most recent)."""
        key = (space.fingerprint, query)
        with self._lock:
            kept = self._vectors.get(key)
            if kept is not None:
                self._vectors.move_to_end(key)
                return kept
        vector = self._encode(space, query)
        vector.setflags(write=False)  # shared by every search that asks again
        with self._lock:
            self._vectors[key] = vector
            while len(self._vectors) > QUERY_VECTORS_KEPT:
                self._vectors.popitem(last=False)
        return vector

    def _encode(self, space: Space, query: str) -> np.ndarray:
        try:
            return validate(self.provider(space).encode([query]), 1, space.dimension)[0].copy()
        except PapershelfError as e:
            raise VectorUnavailable(f"embedding provider unavailable ({e})") from None
        except Exception as e:  # noqa: BLE001 - a broken provider must not break search
            raise VectorUnavailable(f"embedding provider failed ({type(e).__name__}: {e})") from None

    def passage(self, space: Space, unit: Unit, paper: Paper, window: int) -> str | None:
        """The body text of one of a unit's windows, cut exactly as the build cut it."""
        if not space.window_tokens:
            return None
        try:
            count = token_counter(self.provider(space))
            _, parts = cut(*embedding_parts(unit, paper.title), space.window_tokens, count, space.window_format)
        except Exception:  # noqa: BLE001 - a snippet must never break search
            return None
        return parts[window] if window < len(parts) else None
