"""Query vectors are kept per (space, text): asked again, no encoding; another space never reads them."""

import numpy as np
import pytest

from papershelf.embed import queries
from papershelf.embed.base import ProviderSpec

from .conftest import HASH, paper_text


@pytest.fixture
def embedded(lib, write):
    for i in range(4):
        write(f"p{i}.md", paper_text(key=f"p{i}", title=f"Paper {i}", intro=f"Topic number {i}."))
    lib.add([str(write.root)])
    lib.embed(HASH)
    return lib


def _counted(lib, space) -> list[str]:
    """The texts the space's query provider is asked to encode, from now on."""
    provider = lib.query_provider(space)
    asked: list[str] = []
    encode = provider.encode

    def counting(texts):
        asked.extend(texts)
        return encode(texts)

    provider.encode = counting
    return asked


def test_a_query_asked_again_is_not_encoded_again(embedded):
    space = embedded.store.active_space()
    asked = _counted(embedded, space)
    first = embedded.search("Topic number 2", mode="hybrid")
    again = embedded.search("Topic number 2", mode="hybrid", limit=3)
    embedded.search("Topic number 3", mode="vector")
    assert asked == ["Topic number 2", "Topic number 3"]
    assert [h.unit_id for h in again.results] == [h.unit_id for h in first.results][:3]
    kept = embedded._queries.vector(space, "Topic number 2")
    assert not kept.flags.writeable  # shared between searches: nobody may change it in place
    assert np.array_equal(kept, embedded.query_provider(space).encode(["Topic number 2"])[0])


def test_another_space_encodes_the_query_in_its_own_model(embedded):
    old = embedded.store.active_space()
    embedded.search("Topic number 1", mode="vector")
    embedded.embed(ProviderSpec("hash", "hash-v1", (("dimension", 96),)))  # the model's options changed
    new = embedded.store.active_space()
    assert new.fingerprint != old.fingerprint
    asked = _counted(embedded, new)
    resp = embedded.search("Topic number 1", mode="vector")
    assert asked == ["Topic number 1"] and resp.results[0].paper_id == "p1"
    assert embedded._queries.vector(new, "Topic number 1").shape == (96,)
    assert embedded._queries.vector(old, "Topic number 1").shape == (64,)


def test_only_the_most_recent_queries_are_kept(embedded, monkeypatch):
    monkeypatch.setattr(queries, "QUERY_VECTORS_KEPT", 2)
    space = embedded.store.active_space()
    asked = _counted(embedded, space)
    for text in ("a", "b", "a", "c", "b", "a"):  # "a" is used again before "c" pushes "b" out
        embedded._queries.vector(space, text)
    assert asked == ["a", "b", "c", "b", "a"]


def test_a_failing_provider_is_not_remembered(embedded):
    space = embedded.store.active_space()
    provider = embedded.query_provider(space)
    encode, calls = provider.encode, []

    def once_broken(texts):
        calls.append(texts)
        if len(calls) == 1:
            raise RuntimeError("down")
        return encode(texts)

    provider.encode = once_broken
    assert embedded.search("Topic number 0", mode="vector").notices  # vector search unavailable, said so
    assert embedded.search("Topic number 0", mode="vector").results[0].paper_id == "p0"
    assert len(calls) == 2
