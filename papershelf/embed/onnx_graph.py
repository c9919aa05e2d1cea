"""ONNX graphs made without torch: a BERT encoder written from its safetensors weights.

Exporting a model to ONNX through torch means a 1.5 GB install for one conversion.  A BERT encoder
(the architecture of all-MiniLM-L6-v2 and most sentence-transformers models) is a short, fixed
sequence of operators, so it is written here directly with `onnx`'s graph API from the weights read
by `safetensors`' NumPy API: embeddings (word + position + token type, LayerNorm), then per layer
self-attention (scaled dot product with the padding mask), a residual LayerNorm, the feed-forward
block with exact (erf) GELU, and a second residual LayerNorm.  The output is the last hidden state,
as the torch export's; pooling and normalisation stay in embed/onnx.py.  The graph computes what
transformers' BertModel computes (cosine >= 0.9999 to sentence-transformers, tests/test_onnx.py).

`unfold_int8_weights` turns a weight-only int8 file (int8 initializers dequantized by Cast and Mul
nodes at run time) into the equivalent fp32 graph, so the same int8 quantisation recipe applies to it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..errors import ProviderError


class GraphUnavailable(ProviderError):
    """The model is not a BERT encoder this module can write (another architecture, missing weights)."""


def _load_weights(model_dir: Path) -> dict[str, np.ndarray]:
    path = model_dir / "model.safetensors"
    if not path.is_file():
        raise GraphUnavailable(f"{model_dir.name} has no model.safetensors")
    try:
        from safetensors.numpy import load_file
    except ImportError:
        raise GraphUnavailable("writing the ONNX graph needs safetensors: pip install safetensors") from None
    weights = load_file(str(path))
    # BertModel's own files name tensors "embeddings...."; a BertFor* checkpoint prefixes "bert.".
    return {k.removeprefix("bert."): v for k, v in weights.items()}


def bert_config(model_dir: Path) -> dict:
    """The config of a BERT encoder with absolute positions and GELU, else GraphUnavailable."""
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    if config.get("model_type") != "bert":
        raise GraphUnavailable(f"the torch-free ONNX graph is written for BERT, not {config.get('model_type')!r}")
    if config.get("position_embedding_type", "absolute") != "absolute" or config.get("hidden_act") != "gelu":
        raise GraphUnavailable("the torch-free ONNX graph handles absolute positions and exact GELU only")
    return config


class _Graph:
    """Nodes and initializers accumulated in order; names made unique by a counter."""

    def __init__(self, weights: dict[str, np.ndarray]):
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.weights = weights
        self.nodes: list = []
        self.initializers: list = []
        self._n = 0

    def const(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(self.numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def weight(self, key: str, transpose: bool = False) -> str:
        try:
            value = self.weights[key]
        except KeyError:
            raise GraphUnavailable(f"the weights have no tensor {key!r}") from None
        return self.const(key, value.astype(np.float32).T if transpose else value.astype(np.float32))

    def op(self, op_type: str, *inputs: str, **attrs) -> str:
        self._n += 1
        out = f"{op_type.lower()}_{self._n}"
        self.nodes.append(self.helper.make_node(op_type, list(inputs), [out], **attrs))
        return out

    def linear(self, x: str, prefix: str) -> str:
        """x @ W^T + b, the weight stored transposed as the torch export stores it."""
        return self.op("Add", self.op("MatMul", x, self.weight(f"{prefix}.weight", transpose=True)),
                       self.weight(f"{prefix}.bias"))

    def layer_norm(self, x: str, prefix: str, eps: float) -> str:
        return self.op("LayerNormalization", x, self.weight(f"{prefix}.weight"), self.weight(f"{prefix}.bias"),
                       axis=-1, epsilon=eps)


def _embeddings(g: _Graph, eps: float) -> str:
    # Positions 0..seq-1 for every row, as a running count of ones (no shape arithmetic to fold).
    zero, one = g.const("zero", np.array(0, dtype=np.int64)), g.const("one_int", np.array(1, dtype=np.int64))
    ones = g.op("Add", g.op("Mul", "input_ids", zero), one)
    positions = g.op("Sub", g.op("CumSum", ones, g.const("axis_1", np.array(1, dtype=np.int64))), one)
    words = g.op("Gather", g.weight("embeddings.word_embeddings.weight"), "input_ids")
    where = g.op("Gather", g.weight("embeddings.position_embeddings.weight"), positions)
    types = g.op("Gather", g.weight("embeddings.token_type_embeddings.weight"), "token_type_ids")
    return g.layer_norm(g.op("Add", g.op("Add", words, types), where), "embeddings.LayerNorm", eps)


def _attention_bias(g: _Graph) -> str:
    """0 where a token is real, the float minimum where it is padding, shaped (batch, 1, 1, seq)."""
    mask = g.op("Cast", "attention_mask", to=1)
    blocked = g.op("Sub", g.const("one", np.array(1.0, dtype=np.float32)), mask)
    bias = g.op("Mul", blocked, g.const("neg", np.array(np.finfo(np.float32).min, dtype=np.float32)))
    return g.op("Unsqueeze", bias, g.const("axes_1_2", np.array([1, 2], dtype=np.int64)))


def _fused_attention(g: _Graph, x: str, mask: str, prefix: str, heads: int, hidden: int) -> str:
    """onnxruntime's own Attention operator (com.microsoft): Q, K and V as one packed MatMul, the
    scaled dot product, padding mask and softmax in one kernel.  The same function as the operators
    of `_self_attention`, in about two thirds of its CPU time (docs/measurements/build4.md);
    onnxruntime's optimizer does not fuse the plain operators into it itself."""
    parts = [f"{prefix}.self.{name}" for name in ("query", "key", "value")]
    for part in parts:
        for suffix in (".weight", ".bias"):
            if part + suffix not in g.weights:
                raise GraphUnavailable(f"the weights have no tensor {part + suffix!r}")
    packed = np.concatenate([g.weights[f"{p}.weight"].astype(np.float32).T for p in parts], axis=1)
    packed_bias = np.concatenate([g.weights[f"{p}.bias"].astype(np.float32) for p in parts])
    context = g.op("Attention", x, g.const(f"{prefix}.qkv.weight", packed), g.const(f"{prefix}.qkv.bias", packed_bias),
                   mask, num_heads=heads, domain="com.microsoft")
    return g.linear(context, f"{prefix}.output.dense")


def _self_attention(g: _Graph, x: str, bias: str, prefix: str, heads: int, hidden: int) -> str:
    size = hidden // heads
    split = g.const(f"{prefix}.split_shape", np.array([0, 0, heads, size], dtype=np.int64))
    q = g.op("Transpose", g.op("Reshape", g.linear(x, f"{prefix}.self.query"), split), perm=[0, 2, 1, 3])
    k = g.op("Transpose", g.op("Reshape", g.linear(x, f"{prefix}.self.key"), split), perm=[0, 2, 3, 1])
    v = g.op("Transpose", g.op("Reshape", g.linear(x, f"{prefix}.self.value"), split), perm=[0, 2, 1, 3])
    scale = g.const(f"{prefix}.scale", np.array(1.0 / np.sqrt(size), dtype=np.float32))
    scores = g.op("Add", g.op("Mul", g.op("MatMul", q, k), scale), bias)
    context = g.op("Transpose", g.op("MatMul", g.op("Softmax", scores, axis=-1), v), perm=[0, 2, 1, 3])
    merged = g.op("Reshape", context, g.const(f"{prefix}.merge_shape", np.array([0, 0, hidden], dtype=np.int64)))
    return g.linear(merged, f"{prefix}.output.dense")


def _gelu(g: _Graph, x: str) -> str:
    """Exact GELU: 0.5 x (1 + erf(x / sqrt 2)), as BertModel's "gelu"."""
    erf = g.op("Erf", g.op("Div", x, g.const(f"sqrt2_{g._n}", np.array(np.sqrt(2.0), dtype=np.float32))))
    one = g.const(f"one_{g._n}", np.array(1.0, dtype=np.float32))
    half = g.const(f"half_{g._n}", np.array(0.5, dtype=np.float32))
    return g.op("Mul", g.op("Mul", x, half), g.op("Add", erf, one))


def _layer(g: _Graph, x: str, bias: str, i: int, config: dict, fused: bool) -> str:
    prefix, eps = f"encoder.layer.{i}", float(config.get("layer_norm_eps", 1e-12))
    attend = _fused_attention if fused else _self_attention
    attended = attend(g, x, bias, f"{prefix}.attention", int(config["num_attention_heads"]), int(config["hidden_size"]))
    x = g.layer_norm(g.op("Add", attended, x), f"{prefix}.attention.output.LayerNorm", eps)
    inner = _gelu(g, g.linear(x, f"{prefix}.intermediate.dense"))
    return g.layer_norm(g.op("Add", g.linear(inner, f"{prefix}.output.dense"), x), f"{prefix}.output.LayerNorm", eps)


def write_bert_onnx(model_dir: Path, out: Path, opset: int, fused: bool = True) -> None:
    """The encoder (token ids -> last hidden state) of the BERT model in `model_dir`, as ONNX at `out`,
    with dynamic batch and sequence axes and the torch export's input and output names.  `fused`:
    attention as onnxruntime's Attention operator (`_fused_attention`), else standard operators only."""
    config = bert_config(model_dir)
    try:
        import onnx
        from onnx import TensorProto, helper
    except ImportError:
        raise GraphUnavailable("writing the ONNX graph needs the onnx package: pip install onnx") from None
    g = _Graph(_load_weights(model_dir))
    eps = float(config.get("layer_norm_eps", 1e-12))
    x = _embeddings(g, eps)
    # The fused operator takes the raw 0/1 mask (int32); the plain operators an additive bias.
    bias = g.op("Cast", "attention_mask", to=6) if fused else _attention_bias(g)
    for i in range(int(config["num_hidden_layers"])):
        x = _layer(g, x, bias, i, config, fused)
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    names = ["input_ids", "attention_mask", "token_type_ids"]
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"]) for n in names]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                           ["batch", "sequence", int(config["hidden_size"])])
    graph = helper.make_graph(g.nodes, "bert_encoder", inputs, [output], g.initializers)
    opsets = [helper.make_opsetid("", opset), *([helper.make_opsetid("com.microsoft", 1)] if fused else [])]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="papershelf")
    model.ir_version = min(model.ir_version, 8)  # readable by every onnxruntime this package accepts
    onnx.save(model, str(out))


def unfold_int8_weights(src: Path, out: Path) -> None:
    """A copy of `src` with every weight stored as int8 + scale (Cast then Mul by a constant) written
    back as one fp32 initializer: the same function, in a form dynamic quantisation can read."""
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError:
        raise GraphUnavailable("reading the int8 model's weights needs the onnx package: pip install onnx") from None
    model = onnx.load(str(src))
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    producers = {o: n for n in graph.node for o in n.output}
    dropped, folded = set(), []
    for node in graph.node:
        if node.op_type != "Mul" or len(node.input) != 2:
            continue
        cast = producers.get(node.input[0])
        if cast is None or cast.op_type != "Cast" or cast.input[0] not in inits or node.input[1] not in inits:
            continue
        q = numpy_helper.to_array(inits[cast.input[0]])
        if q.dtype != np.int8:
            continue
        scale = numpy_helper.to_array(inits[node.input[1]]).astype(np.float32)
        folded.append(numpy_helper.from_array((q.astype(np.float32) * scale).astype(np.float32), node.output[0]))
        dropped.update({id(node), id(cast)})
        for name in (cast.input[0], node.input[1]):
            inits.pop(name, None)
    kept = [n for n in graph.node if id(n) not in dropped]
    del graph.node[:]
    graph.node.extend(kept)
    del graph.initializer[:]
    graph.initializer.extend([*inits.values(), *folded])
    onnx.save(model, str(out))
