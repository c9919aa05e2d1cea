"""int8 recipes (papershelf/embed/onnx.py, docs/measurements/space9.md): recipe 2 keeps the feed-forward
output projections in fp32; recipe 1 (every weight MatMul int8) is what int8 spaces made before were
built with, and stays theirs.  A new `--quantize int8` gets the current recipe, an int8 library keeps
its own, and each recipe is its own space.  Run on the tiny random BERT of test_onnx (seconds, no torch)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from papershelf import Library
from papershelf.embed import config
from papershelf.embed import onnx as onnx_mod
from papershelf.embed.base import ProviderSpec
from papershelf.embed.local import LocalProvider
from papershelf.errors import BadArgument, ProviderError
from papershelf.frontends.cli_embed import spec_for

from .conftest import paper_text
from .test_onnx import SENTENCES, _tiny_model

pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")
RECIPE = {"int8_recipe": onnx_mod.INT8_RECIPE} if onnx_mod.INT8_RECIPE != 1 else {}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return _tiny_model(tmp_path_factory.mktemp("tiny8") / "model")


@pytest.fixture
def cache(tmp_path_factory, monkeypatch) -> Path:
    path = tmp_path_factory.getbasetemp() / "int8-cache"
    monkeypatch.setenv(onnx_mod.CACHE_ENV, str(path))
    return path


def float_matmuls(path: Path) -> list[str]:
    """Weights still read by a float MatMul in an export (the quantised ones are MatMulInteger /
    DynamicQuantizeMatMul)."""
    model = onnx.load(str(path))
    weights = {i.name for i in model.graph.initializer}
    return sorted(i for n in model.graph.node if n.op_type == "MatMul" for i in n.input if i in weights)


def test_tags_name_the_recipe():
    assert onnx_mod.weights_tag(None, 2) is None
    assert onnx_mod.weights_tag("int8") == onnx_mod.weights_tag("int8", 1) == "int8"  # the old spaces' export
    assert onnx_mod.weights_tag("int8", 2) == "int8r2"
    with pytest.raises(ProviderError, match="unknown int8_recipe 9"):
        onnx_mod.weights_tag("int8", 9)


def test_recipe_2_keeps_the_feed_forward_outputs_fp32(tiny, cache):
    one = onnx_mod.ensure_export(str(tiny), tiny, "int8") / "model.onnx"
    two = onnx_mod.ensure_export(str(tiny), tiny, "int8r2") / "model.onnx"
    assert float_matmuls(one) == []
    assert float_matmuls(two) == ["encoder.layer.0.output.dense.weight", "encoder.layer.1.output.dense.weight"]


def test_recipe_1_is_the_recipe_int8_spaces_were_built_with(tiny, cache, tmp_path):
    """Naming the nodes changes no number: recipe 1's weights equal main's quantize_dynamic call's."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from papershelf.embed.onnx_graph import write_bert_onnx

    plain = tmp_path / "plain.onnx"
    write_bert_onnx(tiny, plain, onnx_mod.OPSET, fused=False)
    before = tmp_path / "before.onnx"
    quantize_dynamic(str(plain), str(before), weight_type=QuantType.QInt8, per_channel=True,
                     op_types_to_quantize=["MatMul"])
    now = onnx_mod.ensure_export(str(tiny), tiny, "int8") / "model.onnx"

    def inits(p: Path) -> dict:
        return {i.name: onnx.numpy_helper.to_array(i) for i in onnx.load(str(p)).graph.initializer}

    a, b = inits(before), inits(now)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_recipes_are_close_to_fp32_and_differ(tiny, cache):
    fp32 = LocalProvider(str(tiny), backend="onnx", window_tokens=None).encode(SENTENCES)
    one = LocalProvider(str(tiny), quantize="int8", window_tokens=None).encode(SENTENCES)
    two = LocalProvider(str(tiny), quantize="int8", int8_recipe=2, window_tokens=None).encode(SENTENCES)
    assert not np.array_equal(one, two)
    assert (fp32 * two).sum(axis=1).min() > 0.95 and (fp32 * one).sum(axis=1).min() > 0.95  # a random model


def test_a_new_int8_choice_gets_the_current_recipe_an_int8_library_keeps_its_own():
    assert config.quantize_options({"window_tokens": 128}, "int8") == {
        "window_tokens": 128, "quantize": "int8"} | RECIPE
    old = {"window_tokens": 128, "quantize": "int8"}  # an int8 space from before recipe 2
    assert config.quantize_options(old, "int8") == old
    assert config.quantize_options({"quantize": "int8", "int8_recipe": 2}, "none") == {}
    with pytest.raises(BadArgument, match="int8 or none"):
        config.quantize_options({}, "int4")


def test_the_cli_option_on_fp32_and_on_an_old_int8_library(tmp_path):
    with Library(str(tmp_path / "l.db")) as lib:
        config.remember_spec(lib.store, ProviderSpec("local", options=(("window_tokens", 128),)))
        assert dict(spec_for(lib, options={"quantize": "int8"}).options) == {
            "window_tokens": 128, "quantize": "int8"} | RECIPE
        config.remember_spec(lib.store, ProviderSpec("local", options=(("quantize", "int8"),)))
        assert dict(spec_for(lib, options={"quantize": "int8"}).options) == {"quantize": "int8"}
        assert dict(spec_for(lib, options={"quantize": "none"}).options) == {}


def test_each_recipe_is_its_own_space(tiny, cache, lib, write):
    write("a.md", paper_text(key="a", intro="Interleukin-6 keeps wound macrophages inflammatory."))
    lib.add([str(write.root)])
    one = lib.embed(ProviderSpec("local", str(tiny), options=(("quantize", "int8"),)))
    two = lib.embed(ProviderSpec("local", str(tiny), options=(("int8_recipe", 2), ("quantize", "int8"))))
    assert one.embedded and two.embedded and one.space.fingerprint != two.space.fingerprint
    assert lib.embed(ProviderSpec("local", str(tiny), options=(("quantize", "int8"),))).embedded == []
