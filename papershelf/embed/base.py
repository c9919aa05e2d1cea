"""Which provider to use (`ProviderSpec`), the name -> loader registry, and the embedding-space fingerprint.

The contract a provider fulfils is `provider.py`.  A provider is loaded by name from `PROVIDERS`
only when asked for, so `import papershelf` pulls in neither httpx nor a model runtime.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ProviderError
from ..units import RETRIEVAL_POLICY_VERSION, TEXT_FORMAT
from .provider import Provider, validate

__all__ = ["PROVIDERS", "Provider", "ProviderSpec", "fingerprint", "validate"]

DEFAULT_PROVIDER = "local"
DEFAULT_MODELS = {"local": "all-MiniLM-L6-v2", "openai": "text-embedding-3-small", "hash": "hash-v1"}


def _local() -> Callable[..., Provider]:
    from .local import LocalProvider

    return LocalProvider


def _openai() -> Callable[..., Provider]:
    from .openai import OpenAIProvider

    return OpenAIProvider


def _hash() -> Callable[..., Provider]:
    from .hashing import HashProvider

    return HashProvider


# name -> loader of the provider class (imported on first use); a new provider is one entry here.
PROVIDERS: dict[str, Callable[[], Callable[..., Provider]]] = {"local": _local, "openai": _openai, "hash": _hash}


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
        loader = PROVIDERS.get(self.provider)
        if loader is None:
            *others, last = PROVIDERS
            raise ProviderError(f"unknown provider {self.provider!r} (choose {', '.join(others)} or {last})")
        opts: dict[str, Any] = dict(self.options) | dict(self.settings)
        return loader()(self.model_name, **opts)

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
