"""Issue #10's ranking rules: figures/tables beside their paper's text, exact phrases first,
a calibrated relevance with `no_confident_match`, and reranking through a user's server."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from papershelf import SearchOptions
from papershelf.errors import BadArgument
from papershelf.search.fusion import cap_per_paper, lift_objects
from papershelf.search.query import proximity_queries
from papershelf.search.relevance import Signals, confident, relevance
from papershelf.search.rerank import RerankFailed, rerank

from .test_cli import run

# A paper whose body text keeps discussing its figure in the figure's own words: BM25 puts
# the body sections first, and before #10 they took both of the paper's slots.
FIGURE_PAPER = """\
---
citekey: dots2025
title: Quantum dot lifetimes
---

# Results

Luminescence decay curves of cadmium dots are long. Luminescence decay curves of cadmium dots
shorten with temperature, and decay curves of cadmium dots flatten with luminescence.

# Discussion

The luminescence decay curves of cadmium dots suggest traps; decay curves of cadmium dots and
luminescence agree with the model.

# Outlook

Decay curves of cadmium dots and luminescence of cadmium will be measured again.

Figure 1. Luminescence decay curves of cadmium dots at three temperatures, with fitted lifetimes.
"""

OTHER_PAPER = """\
---
citekey: other2025
title: Another paper
---

# Results

Cadmium dots and luminescence are discussed here with decay curves once.
"""

# Two units hold the same words; only the caption holds them in the query's order.
PHRASE_PAPER = """\
---
citekey: phrase2025
title: Phrases
---

# Methods

Sediment grain, then grain sediment; the sediment and the grain cores, transport sediment grain cores
in transport, cores transport grain, sediment transport grain cores, grain transport of sediment cores.

Table 2. Observed sediment grain transport cores from the northern basin and their ages measured twice.
"""


FILLER_WORDS = ("orchard pruning ledger violin harbour tariff glacier lantern mosaic falcon meadow "
                "quarry saddle beacon timber compass velvet hammock").split()


def filler(n: int) -> str:
    """A short paper on nothing the tests ask about: BM25 needs a corpus for its word statistics
    (in a three-paper library every word is common and every BM25 small)."""
    words = " ".join(FILLER_WORDS[(n + k) % len(FILLER_WORDS)] for k in range(12))
    return f"---\ncitekey: filler{n}\ntitle: Filler {n}\n---\n\n# Notes\n\n{words}.\n"


@pytest.fixture
def papers(lib, write):
    write("dots.md", FIGURE_PAPER)
    write("other.md", OTHER_PAPER)
    write("phrase.md", PHRASE_PAPER)
    for n in range(40):
        write(f"filler{n}.md", filler(n))
    lib.add([str(write.root)])
    return lib


# -- figures and tables beside their paper's text ---------------------------------------------


def test_cap_counts_objects_apart_from_text():
    order = ["a:body:0", "a:body:1", "a:body:2", "a:obj:figure:1", "b:body:0", "a:obj:figure:2"]
    paper_of = {u: u.split(":")[0] for u in order}
    objects = {u for u in order if ":obj:" in u}
    assert cap_per_paper(order, paper_of, 10, 2, objects, 1) == ["a:body:0", "a:body:1", "a:obj:figure:1",
                                                                 "b:body:0"]
    # None: objects share the text cap (the rule before #10), so the figure is dropped
    assert cap_per_paper(order, paper_of, 10, 2, objects, None) == ["a:body:0", "a:body:1", "b:body:0"]
    # restricted to papers: no cap at all
    assert cap_per_paper(order, paper_of, 10, None, objects, 1) == order


def test_lift_moves_objects_toward_their_papers_best():
    scores = {"a:body:0": 2.0, "a:obj:figure:1": 1.0, "a:obj:figure:2": 0.5, "b:body:0": 1.6}
    paper_of = {u: u.split(":")[0] for u in scores}
    objects = {"a:obj:figure:1", "a:obj:figure:2"}
    lifted = lift_objects(scores, paper_of, objects, 0.5)
    assert lifted == {"a:body:0": 2.0, "a:obj:figure:1": 1.5, "a:obj:figure:2": 1.25, "b:body:0": 1.6}
    assert lift_objects(scores, paper_of, objects, 0.0) == scores


def test_figure_query_shows_the_figure_beside_its_papers_text(papers):
    query = "luminescence decay curves cadmium dots"
    before = papers.search(query, SearchOptions(mode="lexical", objects_per_paper=None, object_lift=0.0)).results
    assert [h.source for h in before if h.paper_id == "dots2025"] == ["body_unit", "body_unit"]
    now = papers.search(query, SearchOptions(mode="lexical")).results
    mine = [h for h in now if h.paper_id == "dots2025"]
    assert [h.source for h in mine].count("body_unit") == 2  # the text a reader may want stays
    assert any(h.object_label == "Figure 1" for h in mine[:3])
    assert now.index(next(h for h in now if h.object_label == "Figure 1")) < 4


# -- exact phrases --------------------------------------------------------------------------


def test_proximity_queries():
    assert proximity_queries("decay curves of cadmium") == ('"decay curves of cadmium"',
                                                            'NEAR("decay" "curves" "cadmium", 6)')
    assert proximity_queries("two words") == (None, 'NEAR("two" "words", 4)')
    assert proximity_queries("of the") == (None, None)


def test_a_quoted_caption_phrase_finds_its_unit_first(papers):
    query = "observed sediment grain transport cores"
    plain = papers.search(query, SearchOptions(mode="lexical", phrase_boost=0.0)).results
    assert plain[0].source == "body_unit"  # more of the words, more often: BM25 alone prefers the text
    boosted = papers.search(query, SearchOptions(mode="lexical")).results
    assert boosted[0].object_label == "Table 2"
    quoted = papers.search(f'"{query}"', SearchOptions(mode="lexical")).results
    assert [h.object_label for h in quoted] == ["Table 2"]  # "…" stays an exact phrase


# -- relevance -------------------------------------------------------------------------------


def test_relevance_is_bounded_and_grows_with_each_signal():
    def rel(cosine=None, bm25=None, coverage=0.0, field=0.0):
        return relevance(Signals(cosine, bm25, bm25, bm25, coverage, field, bm25))

    for cos in (-1.0, 0.0, 0.3, 0.6, 1.0, None):
        for bm in (0.0, 1.0, 5.0, 1e6, None):
            for cov, field in ((0.0, 0.0), (0.5, 0.0), (1.0, 1.0)):
                assert 0.0 <= rel(cos, bm, cov, field) <= 1.0
    for cos, bm in ((0.5, 1.0), (None, 1.0), (0.5, None)):  # hybrid, lexical only, vector only
        assert rel(cos, bm, 1.0) > rel(cos, bm, 0.5)
        assert rel(cos, bm, 1.0, 1.0) > rel(cos, bm, 1.0, 0.0)
    assert rel(0.7, 1.0) > rel(0.3, 1.0)
    assert rel(None, 2.0) > rel(None, 0.2)  # lexical only
    assert rel(0.8) > rel(0.2)  # vector only
    assert relevance(Signals(None, None)) == 0.0
    assert not confident([]) and confident([0.1, 0.99])


def test_responses_carry_relevance_and_the_no_match_flag(papers):
    hit = papers.search("Observed sediment grain transport cores from the northern basin", mode="lexical")
    d = hit.to_dict()
    assert d["no_confident_match"] is False
    assert all(0.0 <= h["relevance"] <= 1.0 for h in d["results"])
    assert d["results"][0]["relevance"] >= 0.5
    miss = papers.search("sediment recipe for chocolate brownies", mode="lexical").to_dict()
    assert miss["results"] and miss["no_confident_match"] is True
    assert papers.search("zzzz qqqq", mode="lexical").to_dict()["no_confident_match"] is True


def test_cli_min_score_filters_on_relevance_and_says_no_confident_match(tmp_path, write):
    write("phrase.md", PHRASE_PAPER)
    for n in range(40):
        write(f"filler{n}.md", filler(n))
    db = tmp_path / "cli.db"
    run(db, "add", str(write.root))
    # the phrase paper holds every word; the filler papers one word each (a weak match)
    q = "Observed sediment grain transport cores from the northern basin orchard"
    every = json.loads(run(db, "search", q, "--json", "--no-server").stdout)["results"]
    cut = sorted(h["relevance"] for h in every)[-1]
    kept = json.loads(run(db, "search", q, "--json", "--no-server", "--min-score", str(cut)).stdout)["results"]
    assert 0 < len(kept) < len(every) and all(h["relevance"] >= cut for h in kept)
    text = run(db, "search", "sediment recipe for chocolate brownies", "--no-server").stdout
    assert "no confident match" in text


# -- reranking through a user's server ----------------------------------------------------------


@contextmanager
def rerank_server(style: str, delay: float = 0.0) -> Iterator[tuple[str, list[dict]]]:
    """A fake rerank server on 127.0.0.1 that scores texts by how many times they say "table"."""
    seen: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(body)
            time.sleep(delay)
            if style == "error":
                self.send_response(500)
                self.end_headers()
                return
            texts = body["texts"] if style == "tei" else body["documents"]
            scores = [t.lower().count("table") for t in texts]
            items = [{"index": i, "score" if style == "tei" else "relevance_score": s} for i, s in enumerate(scores)]
            answer = items if style == "tei" else {"results": items}
            data = json.dumps(answer).encode()
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting: what the timeout test wants

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/rerank", seen
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("style", ["tei", "jina"])
def test_rerank_reorders_the_top_hits(papers, style):
    query = "sediment grain cores"
    fused = papers.search(query, SearchOptions(mode="lexical")).results
    assert fused[0].source == "body_unit"
    with rerank_server(style) as (url, seen):
        resp = papers.search(query, SearchOptions(mode="lexical", rerank_url=url))
    assert seen and seen[0]["query"] == query
    assert resp.results[0].object_label == "Table 2" and resp.results[0].rerank_score == 1
    assert not resp.notices


@pytest.mark.parametrize("style,delay", [("error", 0.0), ("tei", 2.0)])
def test_rerank_failure_keeps_the_fused_order_with_a_notice(papers, style, delay):
    query = "sediment grain cores"
    fused = [h.unit_id for h in papers.search(query, SearchOptions(mode="lexical")).results]
    with rerank_server(style, delay) as (url, _):
        resp = papers.search(query, SearchOptions(mode="lexical", rerank_url=url, rerank_timeout=0.5))
    assert [h.unit_id for h in resp.results] == fused
    assert any("reranking skipped" in n for n in resp.notices)


def test_rerank_refuses_bad_answers_and_urls():
    with pytest.raises(RerankFailed):
        rerank("http://127.0.0.1:9/rerank", "q", ["a"], timeout=0.5)  # discard port: nothing listens
    with pytest.raises(BadArgument):
        SearchOptions(rerank_url="file:///etc/passwd").validate()
