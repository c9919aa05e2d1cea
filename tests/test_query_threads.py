"""A query is encoded by its own small ONNX session (`embed/queries.query_threads`), never the build's."""

import pytest

from papershelf.embed import queries
from papershelf.embed.base import ProviderSpec
from papershelf.embed.queries import QueryEmbedder
from papershelf.models import Space


class _Store:
    def get_setting(self, key, default=None):
        return default


def _created(monkeypatch, provider: str, settings=()) -> dict:
    made: dict = {}

    class _Made:
        def for_queries(self):
            return self

    def create(spec: ProviderSpec):
        made.update(dict(spec.settings))
        return _Made()

    monkeypatch.setattr(queries, "configured_spec",
                        lambda store: ProviderSpec(provider, "m", (), tuple(settings)))
    monkeypatch.setattr(ProviderSpec, "create", create)
    QueryEmbedder(_Store()).provider(Space(1, "f", provider, "m", 8, "t", 1))
    return made


def test_a_local_query_session_has_one_thread_whatever_the_build_has(monkeypatch):
    monkeypatch.delenv(queries.QUERY_THREADS_ENV, raising=False)
    assert _created(monkeypatch, "local", [("threads", 8), ("batch_size", 4)]) == {"threads": 1, "batch_size": 4}


@pytest.mark.parametrize("value, threads", [("2", 2), ("0", 1), ("many", 1), ("", 1)])
def test_query_threads_from_the_environment(monkeypatch, value, threads):
    monkeypatch.setenv(queries.QUERY_THREADS_ENV, value)
    assert _created(monkeypatch, "local")["threads"] == threads


def test_other_providers_get_no_thread_setting(monkeypatch):
    assert "threads" not in _created(monkeypatch, "openai", [("batch_size", 4)])
