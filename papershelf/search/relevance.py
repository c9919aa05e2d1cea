"""A calibrated relevance in [0, 1] for every hit, and when a response has no confident match.

The fused rank score is min-max normalized per response, so the top hit of any query
scores alike, on-topic or not.  Relevance is built from evidence that means the same for a
claim, a two-word keyword, an author's name, a label or a pasted sentence, in any library:

    hybrid, vector: relevance = logistic(a * cosine + c * coverage + d * field_match + e)
    lexical only:   relevance = logistic(b * bm25_idf + c * coverage + d * field_match + e)

`cosine` is the hit's best-window cosine with the query; `bm25_idf` its BM25 over the library's
largest IDF (features.py: a term found in one unit), `coverage` the share of the query's
content words the hit holds, `field_match` whether all of them are in its paper's title field
(title, authors, venue, year) or its object label.  Nothing here grows with the library: raw
BM25 did, so small libraries flagged clear matches.  Hybrid hits are read with the vector
model (with the hit's coverage and field match, so a word-only hit of a label or an author
counts): a model of its own, fitted on the fused top hit with BM25 as a fifth input, flagged
far fewer off-topic queries on both halves (75 % vs 99 %, BENCHMARKS.md).

The parameters are calibration, not tuning to queries: four global numbers per mode,
fitted by class-balanced logistic regression on the fit half of a mix of queries — SciFact
train claims (answered: a relevant abstract in the top 10) against off-topic questions, and the
short-query set (bench/data/short_queries.jsonl: author names, keywords, labels, pasted quotes,
answered when the right paper or object is found, against short off-topic queries) — with the
intercept then moved so relevance 0.5 flags at most 5 % of the answered queries of the fit half,
and checked on the other half (`bench/fit_relevance.py`; numbers in BENCHMARKS.md).  They belong
to the default model (all-MiniLM-L6-v2): another model's cosines sit elsewhere.

A model only gives evidence about text in languages it was trained on.  all-MiniLM-L6-v2 is an
English model: on Chinese or Japanese text its cosines sit between 0.3 and 0.8 whether or not
the text is on topic (bench/cjk_search.py), so for a CJK query in hybrid mode relevance comes
from BM25 alone (`reads_query`) unless the space's model is one that reads those scripts.

A hit one list did not return gets that list's lowest score as a stand-in (an upper bound),
so a hit found by words alone cannot look more similar in meaning than the last vector hit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..index_text import has_cjk

# Fitted by bench/fit_relevance.py (see BENCHMARKS.md): the weight of each feature and the bias.
VECTOR = {"cosine": 16.8259, "coverage": 5.8923, "field_match": 9.0516, "bias": -8.6668}
LEXICAL_ONLY = {"bm25_idf": 3.0353, "coverage": 6.9011, "field_match": 10.4526, "bias": -8.4424}
CONFIDENT = 0.5  # a response whose best hit is below this has no confident match


@dataclass(frozen=True)
class Signals:
    """One hit's evidence: cosine / BM25 None when that list was not searched at all."""

    cosine: float | None
    bm25_per_term: float | None
    bm25: float | None = None  # raw, before the phrase/proximity boost (shown by --explain)
    bm25_norm: float | None = None  # BM25 per content word over the largest IDF (features.bm25_norm)
    coverage: float = 0.0
    field_match: float = 0.0
    bm25_idf: float | None = None  # BM25 over the largest IDF, not per word (features.bm25_idf)
    # The query names an object of a paper by words this hit holds none of (features.evidence_words):
    # its cosine and BM25 then measure the label ("Table 3"), which every paper has, so they count for nothing.
    label_only: bool = False


def logistic(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def relevance(s: Signals) -> float:
    """The calibrated relevance of one hit (0 when there is no evidence at all)."""
    if s.cosine is not None:
        model = VECTOR
    elif s.bm25_idf is not None:
        model = LEXICAL_ONLY
    else:
        return 0.0
    values = {"cosine": s.cosine, "bm25_norm": s.bm25_norm, "bm25_idf": s.bm25_idf, "coverage": s.coverage,
              "field_match": s.field_match}
    if s.label_only:
        values.update(cosine=0.0, bm25_norm=0.0, bm25_idf=0.0)
    return logistic(model["bias"] + sum(w * (values[f] or 0.0) for f, w in model.items() if f != "bias"))


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
