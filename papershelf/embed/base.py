"""The provider contract and the embedding-space fingerprint.

A provider turns a batch of texts into vectors.  The pipeline never trusts
one: `validate` checks every answer (one finite vector of the space's
dimension per text) before anything is stored.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ..errors import DimensionMismatch, ProviderError
from ..units import RETRIEVAL_POLICY_VERSION, TEXT_FORMAT

DEFAULT_PROVIDER = "local"
DEFAULT_MODELS = {"local": "all-MiniLM-L6-v2", "openai": "text-embedding-3-small", "hash": "hash-v1"}


class Provider(Protocol):
    name: str
    model: str

    @property
    def dimension(self) -> int: ...

    def encode(self, texts: list[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class ProviderSpec:
    """Which provider and model, plus options that change vectors (they enter the fingerprint)
    and settings that do not (URLs, keys, batch sizes, retries, the local model's backend:
    onnx and torch compute the same vectors, while its `quantize: int8` is an option)."""

    provider: str = DEFAULT_PROVIDER
    model: str | None = None
    options: tuple[tuple[str, object], ...] = ()
    settings: tuple[tuple[str, object], ...] = field(default=(), compare=False)

    @property
    def model_name(self) -> str:
        return self.model or DEFAULT_MODELS.get(self.provider, "")

    def create(self) -> Provider:
        opts: dict[str, Any] = dict(self.options) | dict(self.settings)
        if self.provider == "local":
            from .local import LocalProvider

            return LocalProvider(self.model_name, **opts)
        if self.provider == "openai":
            from .openai import OpenAIProvider

            return OpenAIProvider(self.model_name, **opts)
        if self.provider == "hash":
            from .testing import HashProvider

            return HashProvider(self.model_name, **opts)
        raise ProviderError(f"unknown provider {self.provider!r} (choose local, openai or hash)")

    def to_json(self) -> str:
        return json.dumps({"provider": self.provider, "model": self.model_name,
                           "options": dict(self.options), "settings": dict(self.settings)}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ProviderSpec:
        d = json.loads(text)
        return cls(d["provider"], d.get("model"), tuple(sorted(d.get("options", {}).items())),
                   tuple(sorted(d.get("settings", {}).items())))


def fingerprint(provider: str, model: str, dimension: int, options: dict | None = None,
                text_format: str = TEXT_FORMAT, policy_version: int = RETRIEVAL_POLICY_VERSION) -> str:
    payload = json.dumps({"provider": provider, "model": model, "dimension": dimension,
                          "text_format": text_format, "policy_version": policy_version,
                          "options": options or {}}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


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
