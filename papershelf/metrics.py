"""Ranking metrics as BEIR/pytrec_eval compute them (graded relevance, log2 discount)."""

from __future__ import annotations

import math


def ndcg_at_k(ranked: list[str], qrels: dict[str, int], k: int = 10) -> float:
    dcg = sum((2 ** qrels.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)[:k]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at_k(ranked: list[str], qrels: dict[str, int], k: int = 100) -> float:
    relevant = {d for d, g in qrels.items() if g > 0}
    return len(relevant & set(ranked[:k])) / len(relevant) if relevant else 0.0


def mrr_at_k(ranked: list[str], qrels: dict[str, int], k: int = 10) -> float:
    for i, d in enumerate(ranked[:k]):
        if qrels.get(d, 0) > 0:
            return 1.0 / (i + 1)
    return 0.0


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return 0.0
    s = sorted(values)
    return s[max(0, min(len(s) - 1, math.ceil(p / 100 * len(s)) - 1))]


def bootstrap_ci(values: list[float], rounds: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95 % percentile-bootstrap interval of the mean over queries (fixed seed: reproducible)."""
    import numpy as np

    if not values:
        return 0.0, 0.0
    v = np.asarray(values, dtype=float)
    idx = np.random.default_rng(seed).integers(0, len(v), (rounds, len(v)))
    means = v[idx].mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))
