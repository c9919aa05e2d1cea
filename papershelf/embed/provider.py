"""The provider contract: what the build pipeline and search may ask of an embedding provider.

A provider turns a batch of texts into vectors (`encode`, `dimension`, `name`, `model`).  Its
optional features are declared here with the defaults a simple provider gets, so the pipeline calls
them unconditionally instead of probing for them:

* `window_tokens`: cut long units into windows of this many tokens (None: embed a unit whole);
* `preferred_batch`: texts per call when the user does not say (a local model pads less in big calls);
* `count_tokens`: the model's own token counts (default: the word-based estimate);
* `bind_cancel`: abandon in-flight requests when a build is cancelled (default: nothing to abandon);
* `for_queries`: a variant for answering a query quickly (default: the provider itself).

The pipeline never trusts a provider: `validate` checks every answer before anything is stored.
"""

from __future__ import annotations

import threading

import numpy as np

from ..errors import DimensionMismatch, ProviderError
from ..text import estimate_tokens


class Provider:
    """Subclass and implement `encode` and `dimension`; override an optional feature where it applies."""

    name: str = ""
    model: str = ""
    window_tokens: int | None = None
    preferred_batch: int = 64

    @property
    def dimension(self) -> int:
        raise NotImplementedError

    def encode(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def count_tokens(self, texts: list[str]) -> list[int]:
        return [estimate_tokens(t) for t in texts]

    def bind_cancel(self, cancel: threading.Event) -> None:
        """Nothing to abandon: a call returns when it returns."""

    def for_queries(self) -> Provider:
        return self


def validate(vectors, n_texts: int, dimension: int) -> np.ndarray:
    """The provider's answer as an (n, dim) float32 array, or ProviderError saying what is wrong."""
    try:
        arr = np.asarray(vectors, dtype=np.float32)
    except (ValueError, TypeError) as e:
        raise ProviderError(f"provider returned something that is not a vector batch ({e})") from None
    if arr.ndim != 2 or arr.shape[0] != n_texts:
        got = arr.shape[0] if arr.ndim >= 1 else 0
        raise ProviderError(f"provider returned {got} vectors for {n_texts} texts")
    if arr.shape[1] != dimension:
        raise DimensionMismatch(f"provider returned {arr.shape[1]}-dimensional vectors; this space holds "
                                f"{dimension}-dimensional ones (a different model needs its own space)")
    if not np.isfinite(arr).all():
        raise ProviderError("provider returned non-finite numbers (NaN or infinity)")
    return arr
