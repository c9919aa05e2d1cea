"""A calibrated relevance in [0, 1] for every hit, and when a response has no confident match.

The fused rank score is min-max normalized per response, so the top hit of any query
scores alike, on-topic or not.  Relevance is built from evidence that means the same for a
claim, a two-word keyword, an author's name, a label or a pasted sentence, in any library:

    hybrid:        relevance = logistic(a * cosine + b * bm25_norm + c * coverage + d * field_match + e)
    vector only:   relevance = logistic(a * cosine + c * coverage + d * field_match + e)
    lexical only:  relevance = logistic(b * bm25_norm + c * coverage + d * field_match + e)

`cosine` is the hit's best-window cosine with the query; `bm25_norm` its BM25 over the
query's content words and the library's largest IDF, `coverage` the share of the query's
content words the hit holds, `field_match` whether all of them are in its paper's title field
(title, authors, venue, year) or its object label (features.py).  Nothing here grows with the
library: raw BM25 did, so small libraries flagged clear matches.

The parameters are calibration, not tuning to queries: four or five global numbers per mode,
fitted by class-balanced logistic regression on the fit half of a mix of queries — SciFact
train claims (answered: a relevant abstract in the top 10) against off-topic questions, and the
short-query set (bench/data/short_queries.jsonl: author names, keywords, labels, pasted quotes,
answered when the right paper or object is found, against short off-topic queries) — with the
intercept then moved so relevance 0.5 flags at most 5 % of the answered queries of the fit half,
and checked on the other half (`bench/fit_relevance.py`; numbers in BENCHMARKS.md).  They belong
to the default model (all-MiniLM-L6-v2): another model's cosines sit elsewhere.

A hit one list did not return gets that list's lowest score as a stand-in (an upper bound),
so a hit found by words alone cannot look more similar in meaning than the last vector hit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Fitted by bench/fit_relevance.py (see BENCHMARKS.md): (a, b, c, d, e), (a, c, d, e) and
# (b, c, d, e) as in the formulas above.
BOTH = (20.2789, 0.2503, 0.0, 0.0, -8.8087)
VECTOR_ONLY = (22.3447, 0.0, 0.0, -9.7856)
LEXICAL_ONLY = (0.5141, 0.0, 0.0, -6.8655)
CONFIDENT = 0.5  # a response whose best hit is below this has no confident match


@dataclass(frozen=True)
class Signals:
    """One hit's evidence: cosine / BM25 None when that list was not searched at all."""

    cosine: float | None
    bm25_per_term: float | None
    bm25: float | None = None  # raw, before the phrase/proximity boost (shown by --explain)
    bm25_norm: float | None = None  # what relevance reads of BM25 (features.bm25_norm)
    coverage: float = 0.0
    field_match: float = 0.0


def logistic(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def relevance(s: Signals) -> float:
    """The calibrated relevance of one hit (0 when there is no evidence at all)."""
    if s.cosine is not None and s.bm25_norm is not None:
        a, b, c, d, e = BOTH
        return logistic(a * s.cosine + b * s.bm25_norm + c * s.coverage + d * s.field_match + e)
    if s.cosine is not None:
        a, c, d, e = VECTOR_ONLY
        return logistic(a * s.cosine + c * s.coverage + d * s.field_match + e)
    if s.bm25_norm is not None:
        b, c, d, e = LEXICAL_ONLY
        return logistic(b * s.bm25_norm + c * s.coverage + d * s.field_match + e)
    return 0.0


def confident(relevances: list[float]) -> bool:
    """Whether any hit is a confident match."""
    return bool(relevances) and max(relevances) >= CONFIDENT
