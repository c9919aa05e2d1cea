"""One search: retrieve from the store, fuse, cap per paper, build typed hits.

* Lexical: the store's BM25 over (title, heading, body) with per-column weights,
  on the safe FTS5 expression from `query.fts_query`.
* Vector: the store's vector search in one embedding space (each backend pushes
  top-k and filters down; a unit scores as its best window).
* Hybrid: both lists fused (`fusion.py`); the query embedding runs beside BM25.

Then one hit per unit, at most `per_paper` hits per paper (unless the search
is restricted to papers), and every hit carries where it came from.

A query is a value (`models.Query`): words, or a vector, a paper or a unit
whose own vectors are the query.  The last three have no words, so they rank
by meaning alone, and leave out what they are (a paper is not like itself).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import TypeVar

from ..errors import VectorUnavailable
from ..index_text import has_cjk
from ..models import OBJECT, Explain, Hit, LexicalHit, Paper, Query, SearchMode, SearchResponse, VectorHit
from ..store.paper_fields import paper_index_title
from ..units import Unit, embedding_text
from .features import bm25_idf, bm25_norm, content_words, coverage, evidence_words, field_match
from .fusion import cap_per_paper, convex, lift_objects, ranked, rrf
from .labels import NamedObject, named_object, named_objects, objects_first
from .options import SearchOptions
from .query import fts_query, proximity_queries, query_terms
from .relevance import Signals, confident, reads_query, relevance
from .rerank import RerankFailed, rerank
from .snippets import make_snippet, pages_of, zotero_link

# vector_fn(query: Query, depth, filters) -> hits, or raises VectorUnavailable with the notice to show.
VectorFn = Callable[..., list[VectorHit]]
# passage_fn(unit, paper, window) -> the text of one of the unit's windows (None: unknown).
PassageFn = Callable[[Unit, Paper, int], "str | None"]
T = TypeVar("T")  # what a read started beside the others returns (`_beside`)


@dataclass
class _Retrieved:
    """The two ranked lists of one search, and what happened getting them."""

    mode: SearchMode
    lexical: list[LexicalHit] = field(default_factory=list)  # BM25, phrase/proximity boosted
    bm25: dict[str, float] = field(default_factory=dict)  # the raw BM25, for relevance
    vector: list[VectorHit] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    rerank: dict[str, float] = field(default_factory=dict)  # unit -> rerank server's score
    cosine_evidence: bool = True  # the model reads the query's language (relevance.reads_query)
    named: NamedObject | None = None  # the figure/table the query names (labels.py)
    indexed_units: int = 0  # the lexical index's size, for bm25_norm


def _vector_list(query: Query, opts: SearchOptions, vector_fn: VectorFn | None,
                 timings: dict[str, float]) -> tuple[list[VectorHit], str | None]:
    t = time.perf_counter()
    try:
        if vector_fn is None:
            raise VectorUnavailable("no embeddings: run `papershelf embed` for meaning-based search")
        papers, units = query.excluded
        # a paper's own units are its nearest: asked for beyond the depth, then left out; a paper with
        # more units than that asked again, deeper, until the list holds `depth` others or ends
        depth = opts.depth * 2 + 50 * len(papers) if papers else opts.depth + len(units)
        while True:
            got = vector_fn(query, depth, opts.filters)
            hits = [h for h in got if h.paper_id not in papers and h.unit_id not in units]
            if len(hits) >= opts.depth or len(got) < depth:
                return hits[:opts.depth], None
            depth *= 4
    except VectorUnavailable as e:
        return [], str(e)
    finally:
        timings["vector_ms"] = (time.perf_counter() - t) * 1000


def _beside(pool: Executor, store, read: Callable[..., T], *args) -> Future[T]:
    """`read(*args)` started in the pool, to run beside the caller's next reads, when the store
    answers reads at once (`Store.reads_at_once`); else run now (a thread would only wait its turn)."""
    if store.reads_at_once:
        return pool.submit(read, *args)
    done: Future[T] = Future()
    done.set_result(read(*args))
    return done


def _boost_phrases(store, query: str, hits: list[LexicalHit], opts: SearchOptions,
                   pool: Executor) -> list[LexicalHit]:
    """BM25 plus phrase and proximity evidence: a unit holding the query's words as one
    phrase gains `phrase_boost` x the best BM25 of the list (so it ranks above units that
    only hold the words), one holding its content words near one another half of that."""
    top = max(h.score for h in hits)
    bonus: dict[str, float] = {}
    paper_of = {h.unit_id: h.paper_id for h in hits}
    phrase, near = proximity_queries(query)
    # evidence for what the query matched, never a new hit: only the list's units are checked,
    # the NEAR test beside the phrase's
    pending = _beside(pool, store, store.matching, near, list(paper_of)) if near is not None else None
    found = [(1.0, store.matching(phrase, list(paper_of)))] if phrase is not None else []
    if pending is not None:
        found.append((0.5, pending.result()))
    for share, units in found:
        for uid in units:
            bonus[uid] = max(bonus.get(uid, 0.0), share * opts.phrase_boost * top)
    if not bonus:
        return hits
    base = {h.unit_id: h.score for h in hits}
    scores = {u: base.get(u, 0.0) + bonus.get(u, 0.0) for u in paper_of}
    return [LexicalHit(u, paper_of[u], scores[u]) for u in ranked(scores)]


def _retrieve(store, query: Query, match: str | None, opts: SearchOptions, vector_fn: VectorFn | None,
              pool: Executor) -> _Retrieved:
    """Both lists the mode asks for; without vectors, the lexical list and a notice saying why."""
    got = _Retrieved(opts.mode)

    def lexical() -> list[LexicalHit]:
        t = time.perf_counter()
        hits = store.lexical_search(match, opts.depth, opts.filters, opts.field_weights) if match else []
        papers, units = query.excluded  # words with a paper or a unit: like it, so never it
        hits = [h for h in hits if h.paper_id not in papers and h.unit_id not in units]
        got.bm25 = {h.unit_id: h.score for h in hits}
        if hits and opts.phrase_boost > 0:
            hits = _boost_phrases(store, query.words, hits, opts, pool)
        got.timings["lexical_ms"] = (time.perf_counter() - t) * 1000
        return hits

    # The query embedding (model or HTTP, GIL released) runs beside BM25.
    pending = pool.submit(_vector_list, query, opts, vector_fn, got.timings) \
        if opts.mode in ("vector", "hybrid") else None
    if opts.mode in ("lexical", "hybrid"):
        got.lexical = lexical()
    if pending is not None:
        got.vector, problem = pending.result()
        if problem:
            got.notices.append(f"{problem}; showing lexical results")
            if opts.mode == "vector":
                got.lexical = lexical()
            got.mode = "lexical"
    return got


def _fuse(got: _Retrieved, opts: SearchOptions) -> dict[str, float]:
    if got.mode == "lexical":
        return {h.unit_id: h.score for h in got.lexical}
    if got.mode == "vector":
        return {h.unit_id: h.score for h in got.vector}
    if opts.fusion == "rrf":
        return rrf([([h.unit_id for h in got.lexical], opts.lexical_weight),
                    ([h.unit_id for h in got.vector], opts.vector_weight)], opts.rrf_k)
    return convex([([(h.unit_id, h.score) for h in got.lexical], opts.lexical_weight),
                   ([(h.unit_id, h.score) for h in got.vector], opts.vector_weight)])


def _explain(uid: str, got: _Retrieved, signals: Signals) -> Explain:
    x = Explain(cosine=signals.cosine, bm25_per_term=signals.bm25_per_term, bm25=signals.bm25,
                bm25_norm=signals.bm25_norm, coverage=signals.coverage, field_match=signals.field_match,
                bm25_idf=signals.bm25_idf)
    for rank, h in enumerate(got.lexical, start=1):
        if h.unit_id == uid:
            x.lexical_rank, x.lexical_score = rank, h.score
            break
    for rank, v in enumerate(got.vector, start=1):
        if v.unit_id == uid:
            x.vector_rank, x.vector_score, x.vector_window = rank, v.score, v.window
            break
    return x


def _snippet(unit: Unit, paper: Paper, fts_snippet: str | None, terms: list[str], window: int,
             passage_fn: PassageFn | None) -> str:
    """The FTS5 snippet when it marks a query word; else the passage that matched by meaning."""
    snippet = fts_snippet
    # The index holds CJK text as bigrams (index_text), so its own snippet of such text is unreadable.
    if not snippet or "[" not in snippet or has_cjk(snippet):
        text = unit.search_text() or unit.text
        if window and passage_fn is not None:  # matched by meaning past the opening window
            text = passage_fn(unit, paper, window) or text
        snippet = make_snippet(text, terms)
    return " ".join(snippet.split())


def _hits(store, query: str, match: str | None, picked: list[str], paper_of: dict[str, str],
          scores: dict[str, float], got: _Retrieved, opts: SearchOptions, passage_fn: PassageFn | None,
          pool: Executor) -> list[Hit]:
    """Typed hits for the picked units, read from the store once for all of them; their snippets and
    their papers (`paper_of`: the lists name each unit's paper) beside their units."""
    pending = _beside(pool, store, store.snippets, match, picked) if opts.snippets and match and picked else None
    listed = _beside(pool, store, store.get_papers, [paper_of[u] for u in picked])
    units = store.get_units(picked)
    papers = listed.result()
    fts_snippets = pending.result() if pending is not None else {}
    windows = {v.unit_id: v.window for v in got.vector}
    terms = query_terms(query)
    words = content_words(query)
    # the object a query names "of" a paper, even when its words named none (got.named is then None)
    named = None if opts.filters.papers else got.named or named_object(query)
    hits: list[Hit] = []
    for uid in picked:
        unit = units.get(uid)
        paper = papers.get(unit.paper_id) if unit else None
        if unit is None or paper is None:  # removed between ranking and now
            continue
        snippet = _snippet(unit, paper, fts_snippets.get(uid), terms, windows.get(uid, 0), passage_fn) \
            if opts.snippets else None
        title_field = paper_index_title(paper)
        held = evidence_words(words, title_field, named)
        covered = coverage(held, title_field, unit)
        signals = _signals(uid, got, len(words), covered, field_match(held, title_field, unit, got.named),
                           label_only=held is not words and not covered)
        explain = _explain(uid, got, signals) if opts.explain else None
        hits.append(Hit(
            rank=len(hits) + 1, score=scores[uid], source=unit.source, paper_id=paper.id, title=paper.title,
            authors=paper.authors, year=paper.year, unit_id=uid, section_path=unit.section_path,
            pages=pages_of(unit), object_kind=unit.object_kind, object_label=unit.object_label,
            caption=unit.caption_text if unit.kind == "object" else None, snippet=snippet,
            tags=list(paper.tags), collections=list(paper.collections),
            zotero_link=zotero_link(paper.zotero_attachment, pages_of(unit)) if paper.zotero_attachment else None,
            explain=explain, relevance=round(relevance(signals), 4), rerank_score=got.rerank.get(uid),
            region=unit.region if unit.kind == "object" else None,
            ocr_engine=unit.ocr_engine))
    return hits


def run_search(store, value: str | Query, opts: SearchOptions, pool: Executor, vector_fn: VectorFn | None = None,
               passage_fn: PassageFn | None = None, model: str | None = None) -> SearchResponse:
    """Run one search for words or a `Query`.  `vector_fn(query, depth, filters)` returns ranked
    vector hits for a Query or raises `VectorUnavailable` with a notice; `passage_fn(unit, paper,
    window)` gives the text of a unit's window, so a hit found by meaning shows the passage that
    matched.  `model` (the space's) says whether its cosines are evidence for this query's language."""
    opts.validate()
    t0 = time.perf_counter()
    q = Query.of(value)
    if not q.words:  # no words to match (a paper, a unit, a vector): meaning alone
        opts = dataclasses.replace(opts, mode="vector")
    query = q.words
    match = fts_query(query) if query else None
    # the lexical index's size (for bm25_norm) read beside the search
    size = _beside(pool, store, store.index_size) if opts.mode != "vector" else None
    got = _retrieve(store, q, match, opts, vector_fn, pool)
    paper_of = {h.unit_id: h.paper_id for h in got.lexical} | {h.unit_id: h.paper_id for h in got.vector}
    objects = {u for u in paper_of if is_object_id(u)}
    scores = lift_objects(_fuse(got, opts), paper_of, objects, opts.object_lift)
    order = _reranked(store, query, ranked(scores), opts, got)
    got.named, named = named_objects(store, query, opts.filters, opts.field_weights, opts.depth) if query \
        else (None, [])
    if named and got.named is not None:
        order = objects_first(order, named, scores, paper_of, by_ranking=not got.named.paper_words)
        objects |= {uid for uid, _ in named}
    got.indexed_units = 0 if got.mode == "vector" else size.result() if size else store.index_size()
    picked = cap_per_paper(order, paper_of, opts.limit, None if opts.filters.papers else opts.per_paper, objects,
                           opts.objects_per_paper)
    got.cosine_evidence = got.mode != "hybrid" or reads_query(model, query)
    hits = _hits(store, query, match, picked, paper_of, scores, got, opts, passage_fn, pool)
    got.timings["total_ms"] = (time.perf_counter() - t0) * 1000
    return SearchResponse(q.label(), got.mode, hits, got.notices, {k: round(v, 2) for k, v in got.timings.items()},
                          no_confident_match=not confident([h.relevance or 0.0 for h in hits]))


def is_object_id(unit_id: str) -> bool:
    """Object units' ids are `{paper}:obj:{kind}:{n}` (units.py): the lists carry no kind."""
    return OBJECT.id_part in unit_id


def _reranked(store, query: str, order: list[str], opts: SearchOptions, got: _Retrieved) -> list[str]:
    """The fused order with its first `rerank_top` reordered by the rerank server, if one is set;
    on any failure the fused order stands and a notice says why."""
    if not opts.rerank_url or not order or not query:  # a query without words: nothing to rerank by
        return order
    head = order[:opts.rerank_top]
    units = store.get_units(head)
    head = [u for u in head if u in units]
    t = time.perf_counter()
    try:
        # what the model embeds, without the title: a figure's label and caption, a section's path and text
        scores = rerank(opts.rerank_url, query, [embedding_text(units[u], None) for u in head], opts.rerank_timeout)
    except RerankFailed as e:
        got.notices.append(f"reranking skipped ({e}); showing the fused order")
        return order
    finally:
        got.timings["rerank_ms"] = (time.perf_counter() - t) * 1000
    got.rerank = dict(zip(head, scores, strict=True))
    reordered = sorted(head, key=lambda u: -got.rerank[u])
    return reordered + [u for u in order if u not in got.rerank]


def _signals(uid: str, got: _Retrieved, content_terms: int, covered: float, in_fields: float,
             label_only: bool = False) -> Signals:
    """A hit's evidence; a list that did not return it gives its lowest score (an upper bound)."""
    cosine = None
    if got.mode in ("vector", "hybrid") and got.cosine_evidence:
        vec = {v.unit_id: v.score for v in got.vector}
        cosine = vec.get(uid, min(vec.values(), default=0.0))
    bm25 = raw = norm = None
    if got.mode in ("lexical", "hybrid"):
        raw = got.bm25.get(uid, min(got.bm25.values(), default=0.0))
        bm25 = raw / max(1, content_terms)
        norm = bm25_norm(raw, content_terms, got.indexed_units)
    idf = bm25_idf(raw, got.indexed_units) if raw is not None else None
    return Signals(cosine, bm25, raw, norm, covered, in_fields, idf, label_only)
