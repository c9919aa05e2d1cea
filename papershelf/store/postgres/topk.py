"""Exact BM25 top-k from impact-ordered postings: Fagin's threshold algorithm, in a few rounds.

Why: reading every posting of a claim's terms grows with the library (458 ms a claim at
100k units).  Each posting keeps its impact (`bm25._IMPACT`: its BM25 saturation at a
reference unit length) and each term's postings are indexed best impact first.  A round
reads the first `depth` postings of every matching term's list, scores every unit seen
exactly (its postings of all the query's terms, looked up by (unit, term)), and bounds every
unit not seen: it holds each matching term with at most the impact where that list stopped
(nothing once a list was read to its end), and a phrase's word with at most idf x (k1 + 1).
When the k-th exact score is above that bound, the top k is proven and returned; otherwise
the next round reads deeper, and after the last the caller reads every list (`bm25.rank`).

The bound is safe although the live average length and the column weights differ from the
impact's: the saturation tf(k1+1) / (tf + k1(1 - b + b dl/avgdl)) grows with avgdl by at most
avgdl/ref, and (concave, 0 at 0) with the weighted tf by at most the largest weight above 1.
So results are exactly the exhaustive pass's; the rounds only decide how much is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...models import LexicalHit

if TYPE_CHECKING:
    from .bm25 import Plan

# Postings read per matching term, round by round; a round costs about depth x terms lookups.
DEPTHS = (200, 1000, 5000)
# Float slack: impacts are stored as float4.
SLACK = 1 + 1e-5


def _sql(contrib: str, filter_where: str) -> str:
    return f"""
    WITH top AS (SELECT t.id AS term_id, p.doc_key, p.impact FROM unnest(%(read)s::int[]) AS t(id),
                 LATERAL (SELECT p.doc_key, p.impact FROM bm25_postings p WHERE p.term_id = t.id
                          ORDER BY p.impact DESC LIMIT %(depth)s) p),
    edge AS (SELECT term_id AS t, count(*) AS n, min(impact) AS last FROM top GROUP BY term_id),
    cand AS (SELECT DISTINCT doc_key FROM top),
    scored AS (SELECT c.doc_key, sum(coalesce({contrib}, 0)) AS score FROM cand c
               JOIN bm25_postings p ON p.doc_key = c.doc_key AND p.term_id = ANY(%(all)s::int[])
               GROUP BY c.doc_key),
    best AS (SELECT d.unit_id, d.paper_id, s.score FROM scored s JOIN bm25_docs d ON d.doc_key = s.doc_key
             WHERE true{filter_where} ORDER BY s.score DESC, d.unit_id LIMIT %(k)s)
    SELECT (SELECT json_agg(edge) FROM edge) AS edges,
           (SELECT json_agg(b ORDER BY b.score DESC, b.unit_id) FROM best b) AS hits"""


def scale(avgdl: float, ref: float, weights: tuple[float, float, float]) -> float:
    """How far a live score share can exceed idf x the stored impact (see the module doc)."""
    return max(1.0, avgdl / ref) * max(1.0, *weights) * SLACK


def unseen_bound(plan: Plan, edges: dict[int, tuple[int, float]], depth: int, factor: float) -> float:
    """The most a unit not seen in this round's list heads can score."""
    total = 0.0
    for t in plan.terms:
        if not t.matches:
            total += t.bound
            continue
        n, last = edges.get(t.id, (0, 0.0))
        if n >= depth:  # (a list shorter than depth was read to its end: every holder was seen)
            total += min(t.bound, t.idf * factor * last)
    return total


def top(query, plan: Plan, limit: int, contrib: str, filter_where: str, params: dict,
        weights: tuple[float, float, float]) -> list[LexicalHit] | None:
    """The proven BM25 top `limit` of the units holding a matching term, or None when no round
    proves it (then every list must be read).  `contrib` is one posting's share (alias p)."""
    matching = [t.id for t in plan.terms if t.matches]
    factor = scale(plan.avgdl, plan.ref, weights)
    sql = _sql(contrib, filter_where)
    for depth in DEPTHS:
        row = query(sql, {**params, "read": matching, "all": [t.id for t in plan.terms], "depth": depth,
                          "k": limit})[0]
        edges = {int(e["t"]): (int(e["n"]), float(e["last"])) for e in row["edges"] or []}
        hits = row["hits"] or []
        bound = unseen_bound(plan, edges, depth, factor)
        if len(hits) >= limit and hits[limit - 1]["score"] > bound:
            return [LexicalHit(h["unit_id"], h["paper_id"], float(h["score"])) for h in hits]
        if all(n < depth for n, _ in edges.values()):  # every list read to its end
            if plan.phrase_docs is None:
                return [LexicalHit(h["unit_id"], h["paper_id"], float(h["score"])) for h in hits]
            return None  # (only the exhaustive pass adds the units a phrase alone matches)
    return None
