"""Standing suite: a provider that answers HTTP 500 for one paper's texts only, every time
(issue #27).  Through the real `embed`: that paper fails with the reason, its neighbours in the
shared batch are embedded, and the provider is not declared down; a real outage still is."""

from __future__ import annotations

import json

from tests.providers import EmbeddingServer

from .common import cli, openai_args, slack, write_papers


def _embed(db, url: str):
    return cli(db, "embed", *openai_args(url, "--batch-size", "8", "--json"), ok=(0, 1))


def test_a_500_for_one_papers_texts_fails_that_paper_only(tmp_path):
    db = tmp_path / "lib.db"
    write_papers(tmp_path / "papers", 6)
    cli(db, "add", str(tmp_path / "papers"))
    with EmbeddingServer() as server:
        server.poison = ["topic2"]
        p = _embed(db, server.url)
        summary = json.loads(p.stdout.strip().splitlines()[-1])
        assert p.returncode == 1 and not summary.get("provider_down"), summary
        assert list(summary["failed"]) == ["p002"], summary["failed"]
        assert "HTTP 500" in summary["failed"]["p002"] and "not an outage" in summary["failed"]["p002"]
        assert summary["embedded"] == 5 and summary["pending_after"] == 1
        server.poison = []  # the server is fixed: a rerun embeds the paper that failed
        again = json.loads(_embed(db, server.url).stdout.strip().splitlines()[-1])
    assert again["embedded"] == 1 and again["pending_after"] == 0
    assert cli(db, "verify").returncode == 0


def test_an_outage_answering_500_is_still_an_outage(tmp_path):
    db = tmp_path / "lib.db"
    write_papers(tmp_path / "papers", 6)
    cli(db, "add", str(tmp_path / "papers"))
    with EmbeddingServer() as server:
        server.script = ["ok"]  # the dimension probe is answered; then every request gets 500
        server.outage = (500, {}, {"error": "down"})
        p = cli(db, "embed", *openai_args(server.url, "--batch-size", "8", "--json"), ok=(1,), timeout=120)
        summary = json.loads(p.stdout.strip().splitlines()[-1])
        assert "is down" in (summary.get("provider_down") or ""), summary
        assert summary["embedded"] == 0 and summary["seconds"] < 30 * slack()
        assert len(server.requests) < 40, len(server.requests)
