"""Any OpenAI-compatible ``/v1/embeddings`` endpoint (OpenAI, Ollama, vLLM, TEI, LM Studio, ...).

Batches are capped, transient failures (429 honouring Retry-After, 5xx,
timeouts, refused connections) are retried with exponential backoff, and
every response is checked: one finite vector of the right dimension per text.
"""

from __future__ import annotations

import os
import time

import httpx
import numpy as np

from ..errors import ProviderError
from .base import validate


class OpenAIProvider:
    name = "openai"

    def __init__(self, model: str, base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                 batch_size: int = 64, max_retries: int = 5, timeout: float = 60.0, backoff: float = 0.5,
                 dimension: int | None = None, window_tokens: int | None = None, **_):
        self.model = model
        # API models read thousands of tokens, a whole unit: windows only when asked for.
        self.window_tokens = int(window_tokens) if window_tokens else None
        self.base_url = (base_url or os.environ.get("PAPERSHELF_OPENAI_BASE_URL")
                         or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")
        key = os.environ.get(api_key_env, "")
        self.batch_size = max(1, int(batch_size))
        self.preferred_batch = self.batch_size
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self._dimension = int(dimension) if dimension else None
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._client = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout)

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = int(self._post(["dimension probe"])[0].shape[0])
        return self._dimension

    def _post(self, texts: list[str]) -> np.ndarray:
        attempt = 0
        while True:
            attempt += 1
            try:
                r = self._client.post("/embeddings", json={"model": self.model, "input": texts})
            except (httpx.TimeoutException, httpx.TransportError) as e:
                if attempt > self.max_retries:
                    raise ProviderError(f"{self.base_url} unreachable after {attempt} attempts: {e}") from None
                time.sleep(self.backoff * 2 ** (attempt - 1))
                continue
            if r.status_code == 429 or r.status_code >= 500:
                if attempt > self.max_retries:
                    raise ProviderError(f"{self.base_url} answered HTTP {r.status_code} after {attempt} attempts")
                wait = self.backoff * 2 ** (attempt - 1)
                retry_after = r.headers.get("retry-after")
                if retry_after:
                    try:
                        wait = max(wait, min(float(retry_after), 60.0))
                    except ValueError:
                        pass
                time.sleep(wait)
                continue
            if r.status_code >= 400:
                raise ProviderError(f"{self.base_url} answered HTTP {r.status_code}: {r.text[:200]}")
            try:
                data = r.json()["data"]
                data = sorted(data, key=lambda d: d.get("index", 0))
                vectors = [d["embedding"] for d in data]
            except (ValueError, KeyError, TypeError) as e:
                raise ProviderError(f"{self.base_url} sent a malformed embeddings response ({e})") from None
            dim = self._dimension or (len(vectors[0]) if vectors and isinstance(vectors[0], list) else 0)
            return validate(vectors, len(texts), dim)

    def encode(self, texts: list[str]) -> np.ndarray:
        parts = [self._post(texts[i:i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        return np.vstack(parts) if parts else np.zeros((0, self.dimension), np.float32)
