"""The OpenAI-compatible provider against a real HTTP server on 127.0.0.1."""

import time

import numpy as np
import pytest

from papershelf.embed.base import ProviderSpec
from papershelf.embed.hashing import HashProvider
from papershelf.embed.openai import OpenAIProvider
from papershelf.errors import ProviderError

from .conftest import EXAMPLES
from .providers import EmbeddingServer


@pytest.fixture
def server():
    with EmbeddingServer(dimension=64) as s:
        yield s


def provider(server, **kw):
    kw.setdefault("backoff", 0.01)
    return OpenAIProvider("test-embed", base_url=server.url, **kw)


def test_encodes_in_capped_batches_with_the_api_key(server, monkeypatch):
    monkeypatch.setenv("MY_KEY", "sekrit")
    p = provider(server, batch_size=4, api_key_env="MY_KEY")
    texts = [f"text {i}" for i in range(10)]
    vecs = p.encode(texts)
    assert vecs.shape == (10, 64)
    np.testing.assert_allclose(vecs, HashProvider(dimension=64).encode(texts), rtol=1e-6)
    assert [len(r["body"]["input"]) for r in server.requests] == [4, 4, 2]
    assert all(r["auth"] == "Bearer sekrit" and r["path"] == "/v1/embeddings" for r in server.requests)


def test_retries_429_honouring_retry_after_and_5xx(server):
    server.script = [(429, {"Retry-After": "0.3"}, {"error": "slow down"}), (503, {}, {"error": "busy"})]
    p = provider(server)
    t0 = time.monotonic()
    vecs = p.encode(["a", "b"])
    assert vecs.shape == (2, 64)
    assert len(server.requests) == 3
    assert server.requests[1]["t"] - server.requests[0]["t"] >= 0.3
    assert time.monotonic() - t0 >= 0.3


def test_gives_up_after_max_retries(server):
    server.script = [(500, {}, {"error": "boom"})] * 10
    with pytest.raises(ProviderError, match="HTTP 500 after 3 attempts"):
        provider(server, max_retries=2).encode(["a"])


def test_client_errors_are_not_retried(server):
    server.script = [(401, {}, {"error": "bad key"})]
    with pytest.raises(ProviderError, match="HTTP 401"):
        provider(server).encode(["a"])
    assert len(server.requests) == 1


@pytest.mark.parametrize("payload,message", [
    (lambda body: {"data": [{"index": 0, "embedding": [0.1] * 64}]}, "1 vectors for 2 texts"),
    (lambda body: {"data": [{"index": i, "embedding": [float("nan")] * 64} for i in range(2)]}, "non-finite"),
    (lambda body: {"nope": 1}, "malformed"),
    ("not json", "malformed"),
])
def test_responses_are_validated(server, payload, message):
    server.script = [(200, {}, payload)]
    with pytest.raises(ProviderError, match=message):
        provider(server).encode(["a", "b"])


def test_wrong_dimension_is_rejected(server):
    p = provider(server, dimension=32)
    with pytest.raises(ProviderError, match="64-dimensional"):
        p.encode(["a"])


def test_timeouts_and_refused_connections_are_retried_then_reported():
    p = OpenAIProvider("m", base_url="http://127.0.0.1:9/v1", max_retries=1, backoff=0.01, timeout=1)
    with pytest.raises(ProviderError, match="unreachable after 2 attempts"):
        p.encode(["a"])


def test_server_delay_beyond_timeout_is_a_timeout(server):
    server.delay = 0.5
    with pytest.raises(ProviderError, match="unreachable"):
        provider(server, timeout=0.1, max_retries=1).encode(["a"])


def test_full_build_and_search_through_http(lib, server):
    lib.add([str(EXAMPLES)])
    spec = ProviderSpec("openai", "test-embed", (), (("base_url", server.url), ("backoff", 0.01)))
    report = lib.embed(spec, workers=3)
    assert report.complete and report.space.provider == "openai" and report.space.dimension == 64
    hits = lib.search("phosphorylated STAT3 western blot", mode="vector").results
    assert hits[0].paper_id == "okafor2024il6"


def test_provider_outage_at_query_time_degrades_to_lexical(lib, server):
    lib.add([str(EXAMPLES)])
    spec = ProviderSpec("openai", "test-embed", (), (("base_url", server.url), ("backoff", 0.01),
                                                      ("max_retries", 0)))
    lib.embed(spec)
    server.script = [(503, {}, {"error": "down"})] * 5
    resp = lib.search("western blot", mode="hybrid")
    assert resp.mode == "lexical" and resp.results
    assert any("provider unavailable" in n for n in resp.notices)
