"""int8 weights stay one option away (issue 42: they missed the quality bar, docs/measurements/speed.md):
`embed --quantize int8|none`, PAPERSHELF_QUANTIZE for new libraries, and a library whose space has
other weights than the variable asks keeps its space (a notice, never a silent re-embedding)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from papershelf import Library
from papershelf.embed import config
from papershelf.embed.base import ProviderSpec
from papershelf.embed.onnx import INT8_RECIPE
from papershelf.errors import BadArgument
from papershelf.frontends.cli_embed import spec_for

from .conftest import EXAMPLES, HASH

FP32 = ProviderSpec("local", "all-MiniLM-L6-v2")
INT8 = ProviderSpec("local", "all-MiniLM-L6-v2", options=(("quantize", "int8"),))


def quantize_of(spec: ProviderSpec) -> str | None:
    return dict(spec.options).get("quantize")  # type: ignore[return-value]


@pytest.fixture
def empty(tmp_path):
    with Library(str(tmp_path / "l.db")) as lib:
        yield lib


@pytest.mark.parametrize(("value", "expected"), [(None, None), ("int8", "int8"), ("INT8", "int8"), ("none", None)])
def test_the_variable_chooses_a_new_librarys_weights(empty, monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv(config.QUANTIZE_ENV, raising=False)
    else:
        monkeypatch.setenv(config.QUANTIZE_ENV, value)
    spec = empty.configured_spec()
    assert (spec.provider, quantize_of(spec)) == ("local", expected)
    assert config.quantize_notice(empty.store, spec) is None  # nothing to keep yet


def test_a_bad_value_is_one_line(empty, monkeypatch):
    monkeypatch.setenv(config.QUANTIZE_ENV, "int4")
    with pytest.raises(BadArgument, match="PAPERSHELF_QUANTIZE must be int8 or none"):
        empty.configured_spec()


@pytest.mark.parametrize(("saved", "wanted"), [(FP32, "int8"), (INT8, "none")])
def test_a_library_keeps_its_space_and_says_so(empty, monkeypatch, saved, wanted):
    config.remember_spec(empty.store, saved)
    monkeypatch.setenv(config.QUANTIZE_ENV, wanted)
    spec = empty.configured_spec()
    assert spec == saved and spec_for(empty) == saved  # what `embed` builds: the library's own space
    notice = config.quantize_notice(empty.store, spec)
    assert notice and f"embed --quantize {wanted}" in notice and "keeps that space" in notice
    monkeypatch.setenv(config.QUANTIZE_ENV, "int8" if wanted == "none" else "none")
    assert config.quantize_notice(empty.store, spec) is None  # the variable agrees


def test_other_providers_ignore_it(empty, monkeypatch):
    config.remember_spec(empty.store, HASH)
    monkeypatch.setenv(config.QUANTIZE_ENV, "int8")
    assert empty.configured_spec() == HASH and config.quantize_notice(empty.store, HASH) is None


def test_the_option_switches_both_ways(empty):
    config.remember_spec(empty.store, ProviderSpec("local", options=(("window_tokens", 128),)))
    int8 = spec_for(empty, options={"quantize": "int8"})
    assert dict(int8.options) == {"window_tokens": 128, "quantize": "int8"} | (
        {"int8_recipe": INT8_RECIPE} if INT8_RECIPE != 1 else {})
    config.remember_spec(empty.store, int8)
    assert dict(spec_for(empty, options={"quantize": "none"}).options) == {"window_tokens": 128}


def test_the_cli_refuses_other_weights(tmp_path):
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(tmp_path / "l.db"))
    subprocess.run([sys.executable, "-m", "papershelf", "add", str(EXAMPLES), "--json"], env=env, check=True,
                   capture_output=True)
    p = subprocess.run([sys.executable, "-m", "papershelf", "embed", "--quantize", "int4"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "--quantize must be int8 or none" in p.stderr


def test_an_embedded_library_is_not_re_embedded_by_the_variable(tmp_path):
    """A real fp32 space (the shipped model's default), then PAPERSHELF_QUANTIZE=int8: `embed` says it
    keeps the space, encodes nothing, and search answers from the same space."""
    db = str(tmp_path / "l.db")
    env = dict(os.environ, PAPERSHELF_LIBRARY=db, HF_HUB_OFFLINE="1")
    env.pop(config.QUANTIZE_ENV, None)

    def run(*args: str, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "papershelf", *args], env=env | extra, capture_output=True,
                              text=True, timeout=300, check=True)

    run("index", str(EXAMPLES), "--json")
    before = json.loads(run("status", "--json").stdout)["embedding"]["active_space"]
    again = run("embed", "--json", PAPERSHELF_QUANTIZE="int8")
    assert "keeps that space" in again.stderr
    assert json.loads(again.stdout.splitlines()[-1])["units"] == 0
    after = json.loads(run("status", "--json", PAPERSHELF_QUANTIZE="int8").stdout)["embedding"]["active_space"]
    assert after["fingerprint"] == before["fingerprint"] and "quantize" not in (after.get("options") or {})
    hits = json.loads(run("search", "IL-6 western blot", "--json", "--no-server", PAPERSHELF_QUANTIZE="int8").stdout)
    assert hits["mode"] == "hybrid" and hits["results"]
