"""Lexical, vector and hybrid retrieval over body units, objects and chunks.

* Lexical: FTS5 BM25 over (title, heading, body) with per-column weights.
  Any user string is turned into a safe FTS5 expression by `fts_query`: words
  are quoted, hyphenated terms become phrases ("IL-6" -> "IL 6"), quoted
  phrases stay phrases, a trailing * is a prefix query, FTS operators are
  plain words.  No user input reaches FTS5 syntax.
* Vector: exact cosine in the active embedding space (`VectorIndex`).
* Hybrid: a weighted sum of the two lists' min-max normalized scores (convex
  fusion, the default: it beat reciprocal-rank fusion on SciFact, see
  BENCHMARKS.md), or weighted reciprocal-rank fusion.

Then one hit per unit, at most `per_paper` hits per paper (unless the search
is restricted to papers), and every hit carries where it came from.
"""

from __future__ import annotations

import math
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from .errors import BadArgument
from .store import Filters

STOPWORDS = frozenset("""
a an and are as at be but by for from has have in into is it its of on or that the their then there these
they this to was were which will with not no near we our than been can also such
""".split())
_WORD = re.compile(r"\w+", re.U)
_PHRASE = re.compile(r'"([^"]*)"')

MODES = ("lexical", "vector", "hybrid")
FUSIONS = ("convex", "rrf")
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="papershelf-query")


def _quote(tokens: list[str]) -> str:
    return '"' + " ".join(tokens) + '"'


def query_terms(text: str) -> list[str]:
    return [t.lower() for t in _WORD.findall(text)]


def fts_query(text: str) -> str | None:
    """A safe FTS5 MATCH expression for any user string (None when it has no words)."""
    clauses: list[str] = []
    for phrase in _PHRASE.findall(text):
        tokens = _WORD.findall(phrase)
        if tokens:
            clauses.append(_quote(tokens))
    rest = _PHRASE.sub(" ", text)
    plain: list[str] = []
    for word in rest.split():
        tokens = _WORD.findall(word)
        if not tokens:
            continue
        if len(tokens) > 1:
            clauses.append(_quote(tokens))  # IL-6, COVID-19, e.g. "3.5"
        elif word.endswith("*") and len(tokens[0]) >= 2:
            clauses.append(_quote(tokens) + "*")
        else:
            plain.append(tokens[0])
    content = [w for w in plain if w.lower() not in STOPWORDS]
    if not content and not clauses:
        content = plain
    clauses += [_quote([w]) for w in dict.fromkeys(content)]
    if not clauses:
        return None
    return " OR ".join(dict.fromkeys(clauses))


def rrf(lists: list[tuple[list[str], float]], k: float = 60.0) -> dict[str, float]:
    """Weighted reciprocal-rank fusion: score(d) = sum_i w_i / (k + rank_i(d)), ranks from 1."""
    scores: dict[str, float] = {}
    for ids, weight in lists:
        for rank, uid in enumerate(ids, start=1):
            scores[uid] = scores.get(uid, 0.0) + weight / (k + rank)
    return scores


def convex(lists: list[tuple[list[tuple[str, float]], float]]) -> dict[str, float]:
    """Weighted sum of min-max normalized scores: score(d) = sum_i w_i * (s_i(d) - min_i) / (max_i - min_i).

    Each list is normalized over its own candidates, so BM25's unbounded scores and
    cosines in [-1, 1] meet on one scale; a unit missing from a list gets 0 from it.
    """
    scores: dict[str, float] = {}
    for items, weight in lists:
        if not items:
            continue
        values = [s for _, s in items]
        lo, hi = min(values), max(values)
        span = hi - lo
        for uid, s in items:
            scores[uid] = scores.get(uid, 0.0) + weight * ((s - lo) / span if span > 0 else 1.0)
    return scores


def make_snippet(text: str, terms: list[str], width: int = 220) -> str:
    """A window of `text` around the first query term, terms marked with [ ]."""
    text = " ".join(text.split())
    low = text.lower()
    pos = -1
    for t in terms:
        if t in STOPWORDS or len(t) < 2:
            continue
        m = re.search(r"\b" + re.escape(t), low)
        if m and (pos < 0 or m.start() < pos):
            pos = m.start()
    start = max(0, pos - width // 3) if pos >= 0 else 0
    if start > 0:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    window = text[start:start + width]
    marked = window
    for t in sorted({t for t in terms if t not in STOPWORDS and len(t) >= 2}, key=len, reverse=True):
        marked = re.sub(r"(?<![\[\w])(" + re.escape(t) + r"\w*)", r"[\1]", marked, flags=re.I)
    return ("…" if start > 0 else "") + marked + ("…" if start + width < len(text) else "")


@dataclass
class SearchOptions:
    mode: str = "hybrid"
    limit: int = 10
    per_paper: int = 2
    filters: Filters = field(default_factory=Filters)
    # How hybrid mode fuses the lists: "convex" (weighted sum of min-max normalized
    # scores) or "rrf" (weighted reciprocal rank, constant rrf_k).  See BENCHMARKS.md.
    fusion: str = "convex"
    rrf_k: float = 60.0
    lexical_weight: float = 1.0
    vector_weight: float = 1.0
    # BM25 weights of the (title, heading, body) columns.
    field_weights: tuple[float, float, float] = (1.0, 1.0, 1.0)
    depth: int = 100  # candidates taken from each list before fusion
    explain: bool = False
    snippets: bool = True  # off for evaluation runs that only need the ranking

    def validate(self) -> SearchOptions:
        """Refuse options no search can honour (BadArgument, exit code 2), so a bad number never
        becomes an overflow, a division by zero, or NaN/Infinity in the JSON output."""
        if self.mode not in MODES:
            raise BadArgument(f"--mode must be one of {', '.join(MODES)}")
        if self.fusion not in FUSIONS:
            raise BadArgument(f"--fusion must be one of {', '.join(FUSIONS)}")
        for name, value in (("--limit", self.limit), ("--per-paper", self.per_paper), ("depth", self.depth)):
            if not isinstance(value, int) or not 1 <= value <= 1_000_000:
                raise BadArgument(f"{name} must be a whole number from 1 to 1000000, not {value}")
        numbers = [("--rrf-k", self.rrf_k), ("--lexical-weight", self.lexical_weight),
                   ("--vector-weight", self.vector_weight)]
        numbers += [("field weight", w) for w in self.field_weights]
        for name, value in numbers:
            if not isinstance(value, (int, float)) or not math.isfinite(value) or not 0 <= value <= 1e6:
                raise BadArgument(f"{name} must be a finite number from 0 to 1000000, not {value}")
        for name, year in (("--year-from", self.filters.year_min), ("--year-to", self.filters.year_max)):
            if year is not None and (not isinstance(year, int) or not -9999 <= year <= 9999):
                raise BadArgument(f"{name} must be a year from -9999 to 9999, not {year}")
        return self


@dataclass
class SearchResponse:
    query: str
    mode: str  # the mode actually used
    results: list[dict]
    notices: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"query": self.query, "mode": self.mode, "results": self.results,
                "notices": self.notices, "timings_ms": self.timings_ms}


def pages_of(unit) -> str | None:
    if unit.page_start is None:
        return None
    if unit.page_end is None or unit.page_end == unit.page_start:
        return str(unit.page_start)
    return f"{unit.page_start}-{unit.page_end}"


def run_search(store, query: str, opts: SearchOptions, vector_fn=None, passage_fn=None) -> SearchResponse:
    """Run one search.  `vector_fn(query, depth, filters)` returns ranked
    (unit_id, paper_id, score, best window) or raises `VectorUnavailable` with a
    notice; `passage_fn(unit, paper, window)` gives the text of a unit's window, so
    a hit found by meaning shows the passage that matched rather than its opening."""
    if opts.mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    if opts.fusion not in FUSIONS:
        raise ValueError(f"fusion must be one of {', '.join(FUSIONS)}")
    t0 = time.perf_counter()
    notices: list[str] = []
    mode = opts.mode
    lexical: list[dict] = []
    vector: list[tuple[str, str, float, int]] = []
    timings: dict[str, float] = {}
    match = fts_query(query)

    def run_vector():
        t = time.perf_counter()
        try:
            if vector_fn is None:
                raise VectorUnavailable("no embeddings: run `papershelf embed` for meaning-based search")
            return vector_fn(query, opts.depth, opts.filters), None
        except VectorUnavailable as e:
            return [], str(e)
        finally:
            timings["vector_ms"] = (time.perf_counter() - t) * 1000

    # Hybrid runs the query embedding (model or HTTP, GIL released) beside BM25.
    pending = _POOL.submit(run_vector) if mode in ("vector", "hybrid") else None
    if mode in ("lexical", "hybrid") and match:
        t1 = time.perf_counter()
        lexical = store.lexical(match, opts.depth, opts.filters, opts.field_weights)
        timings["lexical_ms"] = (time.perf_counter() - t1) * 1000
    if pending is not None:
        vector, problem = pending.result()
        if problem:
            notices.append(f"{problem}; showing lexical results")
            if mode == "vector" and match:
                lexical = store.lexical(match, opts.depth, opts.filters, opts.field_weights)
            mode = "lexical"

    lex_rank = {r["unit_id"]: (i + 1, r) for i, r in enumerate(lexical)}
    vec_rank = {u: (i + 1, s, w) for i, (u, _, s, w) in enumerate(vector)}
    paper_of = {r["unit_id"]: r["paper_id"] for r in lexical} | {u: p for u, p, _, _ in vector}
    if mode == "lexical":
        fused = {r["unit_id"]: r["score"] for r in lexical}
    elif mode == "vector":
        fused = {u: s for u, _, s, _ in vector}
    elif opts.fusion == "rrf":
        fused = rrf([([r["unit_id"] for r in lexical], opts.lexical_weight),
                     ([u for u, _, _, _ in vector], opts.vector_weight)], opts.rrf_k)
    else:
        fused = convex([([(r["unit_id"], r["score"]) for r in lexical], opts.lexical_weight),
                        ([(u, s) for u, _, s, _ in vector], opts.vector_weight)])
    order = sorted(fused, key=lambda u: (-fused[u], u))

    cap = None if opts.filters.papers else opts.per_paper
    picked: list[str] = []
    per: dict[str, int] = {}
    for uid in order:
        pid = paper_of[uid]
        if cap is not None and per.get(pid, 0) >= cap:
            continue
        per[pid] = per.get(pid, 0) + 1
        picked.append(uid)
        if len(picked) >= opts.limit:
            break

    units = store.get_units(picked)
    papers = store.get_papers([paper_of[u] for u in picked])
    fts_snippets = store.snippets(match, picked) if opts.snippets and match else {}
    terms = query_terms(query)
    results = []
    for rank, uid in enumerate(picked, start=1):
        unit = units.get(uid)
        paper = papers.get(paper_of[uid])
        if unit is None or paper is None:  # removed between ranking and now
            continue
        lex = lex_rank.get(uid)
        snippet = None
        if opts.snippets:
            snippet = fts_snippets.get(uid)
            if not snippet or "[" not in snippet:
                text = unit.search_text() or unit.text
                window = vec_rank[uid][2] if uid in vec_rank else 0
                if window and passage_fn is not None:  # matched by meaning past the opening window
                    text = passage_fn(unit, paper, window) or text
                snippet = make_snippet(text, terms)
            snippet = " ".join(snippet.split())
        hit = {
            "rank": rank,
            "score": round(float(fused[uid]), 6),
            "source": unit.source,
            "paper_id": paper["id"],
            "title": paper["title"],
            "authors": paper["authors"],
            "year": paper["year"],
            "unit_id": uid,
            "section_path": unit.section_path,
            "pages": pages_of(unit),
            "object_kind": unit.object_kind,
            "object_label": unit.object_label,
            "caption": unit.caption_text if unit.kind == "object" else None,
            "snippet": snippet,
        }
        if opts.explain:
            hit["explain"] = {
                "lexical_rank": lex[0] if lex else None,
                "lexical_score": round(lex[1]["score"], 6) if lex else None,
                "vector_rank": vec_rank[uid][0] if uid in vec_rank else None,
                "vector_score": round(vec_rank[uid][1], 6) if uid in vec_rank else None,
                "vector_window": vec_rank[uid][2] if uid in vec_rank else None,
            }
        results.append(hit)
    timings["total_ms"] = (time.perf_counter() - t0) * 1000
    return SearchResponse(query, mode, results, notices, {k: round(v, 2) for k, v in timings.items()})


class VectorUnavailable(Exception):
    """Vector search cannot run; the message is the notice shown to the user."""
