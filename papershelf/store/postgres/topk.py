"""BM25 top-k from impact-ordered postings, at a cost that does not grow with the library.

Why: reading every posting of a claim's terms grows with the library (277 ms a claim at 100k
units on a quiet machine, ~10x that at 1M).  Each posting keeps its impact (`bm25._IMPACT`: its
BM25 saturation at a reference unit length) and each term's postings are indexed best impact
first, as impact-ordered indexes keep them (Anh & Moffat; JASS).  One query reads `BUDGET`
postings in all (`depths`: every list's first `HEAD`, then the rarest terms' lists on to their
end first), sums each unit's shares from what it read, rescores the best `RESCORE` of those
units exactly (all the query's terms, looked up by (unit, term)) and returns their top k: every
score returned is the unit's exact BM25.

Exact or not: every unit not among the rescored ones scores at most `bound` (each matching term
at most the impact where its list stopped, nothing once a list was read to its end; a phrase's
word, or a sampled phrase, at most idf x (k1 + 1); a unit read but not rescored at most its
partial sum plus the rest).
When the k-th score is above that, the top k is proven (Fagin's threshold algorithm).  When it
is not - long claims of common words in a large library - the answer is the best of what was
read (BENCHMARKS.md measures how much of the exhaustive top 10 it keeps), unless
`PAPERSHELF_PG_EXACT_LEXICAL=1`, which reads every list then (`bm25.rank`'s exhaustive pass).

The bound is safe although the live average length and the column weights differ from the
impact's: the saturation tf(k1+1) / (tf + k1(1 - b + b dl/avgdl)) grows with avgdl by at most
avgdl/ref, and (concave, 0 at 0) with the weighted tf by at most the largest weight above 1.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ...models import LexicalHit
from . import forward
from .phrases import ROWS

if TYPE_CHECKING:
    from .bm25 import Plan, Term

K1 = 1.2  # (bm25.K1; bm25 imports this module)
# A term whose whole share (idf x (k1 + 1)) is below this cannot change a ranking: only its first
# posting is read (for its bound).
_NEGLIGIBLE = 1e-3

# The postings one query reads (over all its matching terms), every list's first HEAD of them,
# and the units rescored exactly.
BUDGET, HEAD, RESCORE = 16000, 200, 400
# Float slack: impacts are stored as float4.
SLACK = 1 + 1e-5


def exact_only() -> bool:
    return os.environ.get("PAPERSHELF_PG_EXACT_LEXICAL", "") not in ("", "0")


def _sql(contrib: str, rescore: str, filter_where: str, with_phrases: bool) -> str:
    # A posting read adds idf x its stored impact to its unit's partial sum (no per-posting BM25:
    # the sums only choose the units rescored exactly; `top` scales them into a bound).  A phrase's
    # postings, all read (few), add their exact share, which the rescoring takes from there (`ph`:
    # a phrase is in no forward row).  A shortlisted unit's postings of the query's other terms are
    # looked up in its forward row (`rescore`, forward.py): one compact row a unit, where the
    # postings' primary key took one or two pages of a 4.9 GB index at a million units (BENCHMARKS.md).
    phrases = "" if not with_phrases else (
        f" UNION ALL SELECT p.term_id, p.doc_key, 0::real, coalesce({contrib}, 0) FROM {ROWS}")
    # (a unit's phrase shares, summed apart only when there are phrases: an aggregate a posting)
    ph = "sum(h.s) FILTER (WHERE h.term_id < 0)" if with_phrases else "NULL::float8"
    # With filters, the units read are tested best partial sum first, each by a lookup of its row
    # (LATERAL: a nested loop, which keeps that order), and the testing stops at the RESCORE-th that
    # passes: a filter most units pass tests a few hundred of the ~14,000 read, not all (a year range
    # at 1 M: 176 -> 46 ms).  The lookup's LIMIT keeps the planner from flattening it into a hash or
    # merge join, which tests every unit read (a CI run's planner chose one on a small table); the
    # same for the hits' rows.  Ties go to the lower key, so the shortlist is the same whatever the plan.
    part = (f"(SELECT * FROM part ORDER BY s DESC, doc_key OFFSET 0) p CROSS JOIN LATERAL (SELECT 1 FROM bm25_docs d "
            f"WHERE d.doc_key = p.doc_key{filter_where} LIMIT 1) f") if filter_where else "part p"
    return f"""
    WITH head AS (SELECT p.term_id, p.doc_key, p.impact, t.idf * p.impact AS s
                  FROM unnest(%(read)s::int[], %(depths)s::int[], %(idfs)s::float8[]) AS t(id, depth, idf),
                  LATERAL (SELECT p.term_id, p.doc_key, p.impact FROM bm25_postings p WHERE p.term_id = t.id
                           ORDER BY p.impact DESC LIMIT t.depth) p
                  {phrases}),
    edge AS (SELECT term_id AS t, count(*) AS n, min(impact) AS last FROM head WHERE term_id > 0 GROUP BY term_id),
    part AS (SELECT h.doc_key, sum(h.s) AS s, {ph} AS ph FROM head h
             GROUP BY h.doc_key),
    short AS (SELECT p.doc_key, p.s, p.ph FROM {part} ORDER BY p.s DESC, p.doc_key LIMIT %(rescore)s),
    scored AS (SELECT c.doc_key, {rescore} + coalesce(c.ph, 0) AS score FROM short c),
    kth AS (SELECT score FROM scored ORDER BY score DESC OFFSET %(k1)s LIMIT 1),
    best AS (SELECT d.unit_id, d.paper_id, s.score FROM scored s CROSS JOIN LATERAL (SELECT d.unit_id, d.paper_id
             FROM bm25_docs d WHERE d.doc_key = s.doc_key LIMIT 1) d
             WHERE s.score >= coalesce((SELECT score FROM kth), 0) ORDER BY s.score DESC, d.unit_id LIMIT %(k)s)
    SELECT (SELECT json_agg(edge) FROM edge) AS edges,
           (SELECT json_agg(b ORDER BY b.score DESC, b.unit_id) FROM best b) AS hits,
           (SELECT count(*) FROM short) AS shortlisted, (SELECT min(s) FROM short) AS last_partial"""


def scale(avgdl: float, ref: float, weights: tuple[float, float, float]) -> float:
    """How far a live score share can exceed idf x the stored impact (see the module doc)."""
    return max(1.0, avgdl / ref) * max(1.0, *weights) * SLACK


def depths(terms: list[Term], budget: int, head: int) -> list[int]:
    """How many postings of each matching term's list to read: every list its first `head` (its
    best impacts: repeated words, short units), then the rest of `budget` to the rarest terms'
    lists first, each read on to its end before the next.  Why: past a list's head the impacts
    are alike (one occurrence, a length near the average), so a posting of a rarer term adds more
    to a score, by its idf - the order of score-at-a-time reading over idf x impact (JASS, Lin and
    Trotman) - and a term in most units (idf near 0) costs one posting, read for its bound."""
    out = [max(1, min(t.df, head if t.idf * (K1 + 1) > _NEGLIGIBLE else 1)) for t in terms]
    left = budget - sum(out)
    for i in sorted(range(len(terms)), key=lambda i: (-terms[i].idf, terms[i].id)):
        if left <= 0 or terms[i].idf * (K1 + 1) <= _NEGLIGIBLE:
            break
        more = min(terms[i].df - out[i], left)
        out[i] += more
        left -= more
    return out


def unseen_bound(plan: Plan, edges: dict[int, tuple[int, float]], read: dict[int, int], factor: float) -> float:
    """The most a unit not seen in the lists' heads can score (`read`: term id -> postings read)."""
    total = 0.0
    for t in plan.terms:
        if not t.matches:
            total += t.bound
            continue
        if t.id < 0:  # a phrase's postings are all read, unless it was sampled (phrases.py)
            total += t.bound if t.id in plan.sampled else 0.0
            continue
        n, last = edges.get(t.id, (0, 0.0))
        if n >= read.get(t.id, 0):  # (a list shorter than that was read to its end: every holder seen)
            total += min(t.bound, t.idf * factor * last)
    return total


def top(query, plan: Plan, limit: int, contrib: tuple[str, str], filters: str, params: dict,
        weights: tuple[float, float, float]) -> tuple[list[LexicalHit], bool]:
    """The BM25 top `limit` of the units holding a matching term found in the lists' heads, and
    whether it is proven the exact top (see the module doc).  `contrib` is one posting's share
    (alias p) and a unit c's share of the terms %(all)s (its forward row); `filters` the filters'
    condition on bm25_docs (alias d), "" for none."""
    matching = [t for t in plan.terms if t.matches and t.id > 0]  # (a phrase's postings are all read)
    read = dict(zip((t.id for t in matching), depths(matching, BUDGET, HEAD)))
    row = query(_sql(*contrib, filters, bool(plan.phrase_rows)), {
        **params, "read": list(read), "depths": list(read.values()), "idfs": [t.idf for t in matching],
        **forward.term_params("all", [t.id for t in plan.terms], [t.idf for t in plan.terms]),
        "rescore": max(RESCORE, limit), "k": limit})[0]
    edges = {int(e["t"]): (int(e["n"]), float(e["last"])) for e in row["edges"] or []}
    hits = [LexicalHit(h["unit_id"], h["paper_id"], float(h["score"])) for h in row["hits"] or []]
    factor = scale(plan.avgdl, plan.ref, weights)
    unseen = unseen_bound(plan, edges, read, factor)
    whole = all(n < read.get(t, 0) for t, (n, _) in edges.items() if t > 0)  # every list read to its end
    # a unit read but not rescored: its partial sum, plus at most what it was not seen with
    full = row["shortlisted"] >= max(RESCORE, limit)
    left_out = unseen + factor * float(row["last_partial"] or 0.0) if full else unseen
    if len(hits) >= limit and hits[limit - 1].score > left_out:
        return hits, True
    if whole and not full and plan.phrase_docs is None and not plan.sampled:
        return hits, True  # every unit holding a matching term was rescored
    return hits, False
