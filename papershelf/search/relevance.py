"""A calibrated relevance in [0, 1] for every hit, and when a response has no confident match.

The fused rank score is min-max normalized per response, so the top hit of any query
scores alike, on-topic or not.  Relevance is built from the raw signals instead:

    hybrid:        relevance = logistic(a * cosine + b * bm25_per_term + c)
    vector only:   relevance = logistic(a * cosine + c)
    lexical only:  relevance = logistic(b * bm25 + c)

where `cosine` is the hit's best-window cosine with the query and `bm25_per_term` its BM25
divided by the query's content words (BM25 grows with query length).  Without vectors, raw
BM25 separated off-topic queries better than BM25 per word (87 % vs 35 % flagged on the
held-out half at <= 5 % of answered claims flagged): short off-topic queries matching one
common word score high per word.  BM25 depends on the corpus's word statistics, so
lexical-only relevance is the roughest of the three.  The parameters are calibration, not tuning to queries: two or
three global numbers per signal set, fitted by logistic regression on the even half of
SciFact train claims (answered: relevant abstract in the top 10) against off-topic queries,
the intercept then moved so that relevance 0.5 flags at most 5 % of answered claims, and
checked on the odd half (`bench/fit_relevance.py`; numbers in BENCHMARKS.md).  They belong
to the default model (all-MiniLM-L6-v2): another model's cosines sit elsewhere.

A hit one list did not return gets that list's lowest score as a stand-in (an upper bound),
so a hit found by words alone cannot look more similar in meaning than the last vector hit.

A model only gives evidence about text in languages it was trained on.  all-MiniLM-L6-v2 is an
English model: on Chinese or Japanese text its cosines sit between 0.3 and 0.8 whether or not
the text is on topic (bench/cjk_search.py), so for a CJK query in hybrid mode relevance comes
from BM25 alone (`reads_query`) unless the space's model is one that reads those scripts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..index_text import has_cjk

# Fitted by bench/fit_relevance.py on 2,065 SciFact abstracts (calibration.py --sample 1500),
# 2026-12-01: (a, b, c), (a, c) and (b, c) as in the formulas above.
BOTH = (20.2789, 0.2503, -8.8087)
VECTOR_ONLY = (22.3447, -9.7856)
LEXICAL_ONLY = (0.5141, -6.8655)
CONFIDENT = 0.5  # a response whose best hit is below this has no confident match


@dataclass(frozen=True)
class Signals:
    """One hit's raw evidence: None when that list was not searched at all."""

    cosine: float | None
    bm25_per_term: float | None
    bm25: float | None = None  # raw, what lexical-only relevance reads (see LEXICAL_ONLY)


def logistic(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def relevance(s: Signals) -> float:
    """The calibrated relevance of one hit (0 when there is no evidence at all)."""
    if s.cosine is not None and s.bm25_per_term is not None:
        a, b, c = BOTH
        return logistic(a * s.cosine + b * s.bm25_per_term + c)
    if s.cosine is not None:
        a, c = VECTOR_ONLY
        return logistic(a * s.cosine + c)
    if s.bm25 is not None:
        b, c = LEXICAL_ONLY
        return logistic(b * s.bm25 + c)
    return 0.0


def confident(relevances: list[float]) -> bool:
    """Whether any hit is a confident match."""
    return bool(relevances) and max(relevances) >= CONFIDENT


# Names of embedding model families trained on Chinese and Japanese among other languages (README:
# "Languages"); a model named otherwise is taken to read English (and other Latin-script text) only.
MULTILINGUAL_MODELS = ("multilingual", "bge-m3", "labse", "xlm", "me5", "jina-embeddings-v3", "nomic-embed-text-v2",
                       "text-embedding-3", "text-embedding-ada", "qwen", "bge-large-zh", "bge-small-zh",
                       "bge-base-zh", "text2vec", "ruri", "japanese", "chinese")


def reads_query(model: str | None, query: str) -> bool:
    """Whether the space's model can judge this query: any query without CJK text, and CJK
    queries only for a model trained on those languages."""
    if not has_cjk(query):
        return True
    name = (model or "").lower()
    return any(m in name for m in MULTILINGUAL_MODELS)
