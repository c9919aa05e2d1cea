"""`ask`'s learned sentence ranking: features of each candidate sentence, read against the other candidates of
the same question, combined by a small linear model (`ask_weights.RANKER`, fitted on the dev questions by
bench/ask_learn.py, leave-paper-out).

The features say how a sentence stands among this question's sentences, not only what it scores: its
cosine with the question and that cosine's gap to the best, its margin over its own passage's mean (a
passage's specific sentence stands out of it, a topic paragraph's sentences all look alike), its
neighbours' cosine, the word overlap and its gap, the rarity-weighted share of the question's specific words
it holds (alone and with its neighbours), the passage's relevance and rank, whether it is in the best paper,
the answer type, a number, a quantity with its unit, its length, and whether it states what the paper is about
rather than a detail.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from .ask_pool import Pool


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
            "length", "summary", "first", "focus", "focus_window", "named", "kind",
            "measure")


def _ranks(values: np.ndarray) -> np.ndarray:
    """0 for the largest value, ties sharing the better rank; log-scaled."""
    order = np.sort(values)[::-1]
    return np.log1p(np.searchsorted(-order, -values, side="left").astype(float))


def _unit_stats(pool: Pool, starts: np.ndarray, raw: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per candidate: its unit's mean and best raw cosine, its better neighbour's, whether it opens the unit."""
    g = pool.group
    count = np.bincount(g)
    mean = (np.bincount(g, raw) / count)[g]
    best, low = np.full(len(count), -np.inf), np.full(len(count), np.inf)
    np.maximum.at(best, g, raw)
    np.minimum.at(low, g, raw)
    order = np.lexsort((starts, g))  # unit by unit, in reading order
    gs, vs = g[order], raw[order]
    prev = np.where(np.r_[False, gs[1:] == gs[:-1]], np.r_[0.0, vs[:-1]], low[gs])
    after = np.where(np.r_[gs[1:] == gs[:-1], False], np.r_[vs[1:], 0.0], low[gs])
    near, first = np.empty(len(g)), np.zeros(len(g))
    near[order] = np.maximum(prev, after)
    first[order[np.r_[True, gs[1:] != gs[:-1]]]] = 1.0
    return mean, best[g], near, first


def features(question: str, cands: Sequence[Scored], best_paper: str | None, pool: Pool, rare: np.ndarray,
             rare_window: np.ndarray, focus: np.ndarray, focus_window: np.ndarray, names: bool,
             kind: str | None = None) -> np.ndarray:
    """The candidates' feature rows (FEATURES' order), one question's pool at a time (ask.rank_inputs gives the
    pool and the specific terms' coverage of each sentence, alone and with its neighbours)."""
    cos, raw, lex, typed = (pool.column(name, cands) for name in ("cosine", "raw", "lexical", "typed"))
    prior = pool.prior
    mean, best, near, first = _unit_stats(pool, pool.start, raw)
    paper_best = np.full(len(pool.paper_ids), -1.0)
    np.maximum.at(paper_best, pool.paper, cos)
    in_best = np.array([p == best_paper for p in pool.paper_ids], dtype=float)[pool.paper] \
        if len(cands) else np.zeros(0)
    cols = [cos, cos - cos.max(), _ranks(cos), raw - mean, best, near, lex, lex - lex.max(), _ranks(lex),
            rare, rare_window, prior, _ranks(prior), in_best, paper_best[pool.paper] - cos.max(), typed,
            pool.mark("number"), pool.mark("length"), pool.mark("summary"), first, focus, focus_window,
            pool.mark("named") * float(names), pool.mark(kind) if kind else np.zeros(len(cands)), pool.mark("measure")]
    return np.stack(cols, axis=1)


def scores(x: np.ndarray, model: dict) -> np.ndarray:
    """The model's score of each row (standardized features, a linear combination)."""
    names = model["features"]
    cols = [FEATURES.index(n) for n in names]
    z = (x[:, cols] - np.asarray(model["mean"])) / np.asarray(model["scale"])
    return z @ np.asarray(model["coef"])
