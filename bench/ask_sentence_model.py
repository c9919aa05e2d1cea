"""A learned sentence scorer for `ask` (an experiment: bench/ask_sentence_fit.py; not shipped, see
docs/measurements/ask5.md): which of the scored sentences answers the question.

The cosine of a bi-encoder (MiniLM) rates a topic sentence of the right paper ("This paper concentrates on
...") as high as the sentence that holds the specific answer.  A few more signals tell them apart: whether
the sentence holds the question's rare words (not only its common ones), how it stands among the pool's
sentences (its cosine and word overlap as a gap to the best and as a rank), its length and whether it
states a number.  `features` computes them for a pool of sentences; a linear model over them is fitted
on SciFact's training claims, whose rationale sentences are known among their abstract's other sentences
and among a few similar abstracts' sentences (claim, answering sentence, topical non-answering sentences),
none from the ask questions used to measure it.  The features reuse ask's own word and number rules.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from papershelf.ask_pool import _NOT_QUANTITY, _NUMBER, _QUANTITY, _WORD, content_terms, term_set
from papershelf.ask_refusal import specific_terms


def holds_number(sentence: str) -> bool:
    return bool(_NUMBER.search(_NOT_QUANTITY.sub(" ", sentence)))


def lexical(question: str, bags: Sequence[frozenset[str]]) -> np.ndarray:
    """Share of the question's content terms each sentence holds, weighted by rarity among the pool."""
    terms = set(content_terms(question))
    df = Counter(t for bag in bags for t in bag & terms)
    n = len(bags) or 1
    idf = {t: math.log(1 + n / (1 + df[t])) for t in terms}
    total = sum(idf.values()) or 1.0
    return np.array([sum(idf[t] for t in terms & bag) / total for bag in bags])


def rare_coverage(question: str, bags: Sequence[frozenset[str]]) -> np.ndarray:
    """The share of the question's specific terms a sentence holds, each weighted by its rarity in the pool
    (0..1, 1: no sentence holds it): the GPU or the sampling rate weigh, "model" or "trained" hardly."""
    terms = set(specific_terms(question))
    df = Counter(t for bag in bags for t in bag & terms)
    top = math.log(len(bags) + 1)
    idf = {t: math.log((len(bags) + 1) / (df[t] + 1)) / top for t in terms}
    total = sum(idf.values())
    return np.array([sum(idf[t] for t in terms & bag) / total if total else 1.0 for bag in bags])


def _log_rank(values: np.ndarray) -> np.ndarray:
    return np.log1p(np.argsort(np.argsort(-values, kind="stable"), kind="stable").astype(float))


def features(question: str, sentences: Sequence[str], cosine: np.ndarray) -> dict[str, np.ndarray]:
    """The signals of each sentence of a pool (the candidates of one question), `cosine` its cosine with the
    question (its neighbour's share included)."""
    bags = [term_set(s) for s in sentences]
    lex = lexical(question, bags)
    number = np.array([1.0 if holds_number(s) else 0.0 for s in sentences])
    return {
        "cos": cosine,
        "cos_gap": cosine - cosine.max(),
        "cos_rank": _log_rank(cosine),
        "lex": lex,
        "lex_gap": lex - lex.max(),
        "lex_rank": _log_rank(lex),
        "rare": rare_coverage(question, bags),
        "number": number,
        "typed": number * (1.0 if _QUANTITY.search(question) else 0.0),
        "length": np.log1p([len(_WORD.findall(s)) for s in sentences]),
    }


def scores(feats: dict[str, np.ndarray], m: dict) -> np.ndarray:
    """The linear model's score of each sentence (standardized features times the weights)."""
    out = np.zeros(len(next(iter(feats.values()))))
    for name, mean, scale, coef in zip(m["features"], m["mean"], m["scale"], m["coef"]):
        out += coef * (feats[name] - mean) / scale
    return out
