"""`ask`'s learned sentence ranking: features of each candidate sentence, read against the other candidates of
the same question, combined by a small linear model (`ask_weights.RANKER`, fitted on the dev questions by
bench/ask_learn.py, leave-paper-out).

The features say how a sentence stands among this question's sentences, not only what it scores: its
cosine with the question and that cosine's gap to the best, its margin over its own passage's mean (a
passage's specific sentence stands out of it, a topic paragraph's sentences all look alike), its
neighbours' cosine, the word overlap and its gap, the rarity-weighted share of the question's specific words
it holds (alone and with its neighbours), the passage's relevance and rank, whether it is in the best paper,
the answer type, a number, its length, and whether it states what the paper is about rather than a detail.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

_WORD = re.compile(r"\w+")
_SUMMARY = re.compile(r"\b(?:this (?:paper|work|article|study)|in this (?:paper|work)|we (?:propose|present|introduce|"
                      r"describe)|our (?:approach|method|system|model|framework))\b", re.I)


class Scored(Protocol):
    """What the features read of a candidate (ask.Candidate)."""

    start: int
    end: int
    prior: float
    lexical: float
    cosine: float
    raw: float
    typed: float

    @property
    def unit(self): ...


FEATURES = ("cosine", "cos_gap", "cos_rank", "unit_margin", "unit_best", "neighbour", "lexical", "lex_gap",
            "lex_rank", "rare", "rare_window", "prior", "prior_rank", "best_paper", "paper_gap", "typed", "number",
            "length", "summary", "first")


@functools.lru_cache(maxsize=16384)
def _marks(sentence: str) -> tuple[float, float]:
    """A sentence's log length in words, and whether it says what the paper is about; kept per text."""
    return math.log(1 + len(_WORD.findall(sentence))), float(bool(_SUMMARY.search(sentence)))


def _ranks(values: np.ndarray) -> np.ndarray:
    """0 for the largest value, ties sharing the better rank; log-scaled."""
    order = np.sort(values)[::-1]
    return np.log1p(np.searchsorted(-order, -values, side="left").astype(float))


def _unit_stats(cands: Sequence[Scored], raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate: its unit's mean and best raw cosine, its better neighbour's, whether it opens the unit."""
    n = len(cands)
    mean, best, near, first = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(cands):
        groups.setdefault(c.unit.id, []).append(i)
    for idx in groups.values():
        idx = sorted(idx, key=lambda i: cands[i].start)
        vals = raw[idx]
        mean[idx], best[idx] = vals.mean(), vals.max()
        pad = np.concatenate([[vals.min()], vals, [vals.min()]])
        near[idx] = np.maximum(pad[:-2], pad[2:])
        first[idx[0]] = 1.0
    return mean, best, near, first


def features(question: str, cands: Sequence[Scored], best_paper: str | None, specific: set[str],
             idf: Callable[[str], float], bags: Sequence[frozenset[str]], windows: Sequence[frozenset[str]],
             numbers: Sequence[bool]) -> np.ndarray:
    """The candidates' feature rows (FEATURES' order), one question's pool at a time."""
    cos = np.array([c.cosine for c in cands], dtype=float)
    raw = np.array([c.raw for c in cands], dtype=float)
    lex = np.array([c.lexical for c in cands], dtype=float)
    prior = np.array([c.prior for c in cands], dtype=float)
    mean, best, near, first = _unit_stats(cands, raw)
    total = sum(idf(t) for t in specific)

    def cover(bag: frozenset[str]) -> float:
        return sum(idf(t) for t in specific & bag) / total if total else 0.0

    paper_best: dict[str, float] = {}
    for c, v in zip(cands, cos):
        paper_best[c.unit.paper_id] = max(paper_best.get(c.unit.paper_id, -1.0), float(v))
    text = [c.unit.text[c.start:c.end] for c in cands]
    cols = [cos, cos - cos.max(), _ranks(cos), raw - mean, best, near, lex, lex - lex.max(), _ranks(lex),
            np.array([cover(b) for b in bags]), np.array([cover(w) for w in windows]), prior, _ranks(prior),
            np.array([float(c.unit.paper_id == best_paper) for c in cands]),
            np.array([paper_best[c.unit.paper_id] for c in cands]) - cos.max(),
            np.array([c.typed for c in cands], dtype=float), np.array(numbers, dtype=float),
            *np.array([_marks(t) for t in text]).reshape(-1, 2).T, first]
    return np.stack(cols, axis=1)


def scores(x: np.ndarray, model: dict) -> np.ndarray:
    """The model's score of each row (standardized features, a linear combination)."""
    names = model["features"]
    cols = [FEATURES.index(n) for n in names]
    z = (x[:, cols] - np.asarray(model["mean"])) / np.asarray(model["scale"])
    return z @ np.asarray(model["coef"])
