"""The `hash` provider: deterministic vectors with no model, for tests, demos and benchmarks of the plumbing.

It hashes words and word pairs into a signed bag-of-features vector, so texts sharing words are
near each other.  That is enough meaning to check that vector search works end to end, while being
exactly reproducible on every machine; it is no substitute for a model's idea of meaning.
"""

from __future__ import annotations

import hashlib
import os
import re
import time

import numpy as np

from .provider import Provider

_WORD = re.compile(r"\w+", re.U)


class HashProvider(Provider):
    name = "hash"

    def __init__(self, model: str = "hash-v1", dimension: int = 256, delay: float | None = None,
                 window_tokens: int | None = None, **_):
        self.model = model
        self._dimension = int(dimension)
        # Off unless asked for, so tests choose when long units are cut into windows.
        self.window_tokens = int(window_tokens) if window_tokens else None
        # A per-call delay, for demonstrating progress and cancellation from the CLI.
        self.delay = float(delay if delay is not None else os.environ.get("PAPERSHELF_HASH_DELAY", 0) or 0)

    @property
    def dimension(self) -> int:
        return self._dimension

    def _features(self, text: str):
        words = [w.lower() for w in _WORD.findall(text)]
        yield from words
        yield from (a + " " + b for a, b in zip(words, words[1:]))

    def encode(self, texts: list[str]) -> np.ndarray:
        if self.delay:
            time.sleep(self.delay)
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            for f in self._features(text):
                h = int.from_bytes(hashlib.blake2b(f.encode(), digest_size=8).digest(), "little")
                out[i, h % self._dimension] += 1.0 if (h >> 63) & 1 else -1.0
            if not out[i].any():
                out[i, 0] = 1.0
        out /= np.linalg.norm(out, axis=1, keepdims=True)
        return out
