"""Fusing ranked lists and capping hits per paper: pure functions, no store.

Convex fusion (a weighted sum of min-max normalized scores) is the default:
it beat reciprocal-rank fusion on both halves of SciFact train (BENCHMARKS.md).
"""

from __future__ import annotations

from collections.abc import Iterable


def rrf(lists: list[tuple[list[str], float]], k: float = 60.0) -> dict[str, float]:
    """Weighted reciprocal-rank fusion: score(d) = sum_i w_i / (k + rank_i(d)), ranks from 1."""
    scores: dict[str, float] = {}
    for ids, weight in lists:
        for rank, uid in enumerate(ids, start=1):
            scores[uid] = scores.get(uid, 0.0) + weight / (k + rank)
    return scores


def convex(lists: list[tuple[list[tuple[str, float]], float]]) -> dict[str, float]:
    """Weighted sum of min-max normalized scores: score(d) = sum_i w_i * (s_i(d) - min_i) / (max_i - min_i).

    Each list is normalized over its own candidates, so BM25's unbounded scores and
    cosines in [-1, 1] meet on one scale; a unit missing from a list gets 0 from it.
    """
    scores: dict[str, float] = {}
    for items, weight in lists:
        if not items:
            continue
        values = [s for _, s in items]
        lo, hi = min(values), max(values)
        span = hi - lo
        for uid, s in items:
            scores[uid] = scores.get(uid, 0.0) + weight * ((s - lo) / span if span > 0 else 1.0)
    return scores


def ranked(scores: dict[str, float]) -> list[str]:
    """Ids by descending score, ties broken by id so the order is deterministic."""
    return sorted(scores, key=lambda u: (-scores[u], u))


def cap_per_paper(order: Iterable[str], paper_of: dict[str, str], limit: int, per_paper: int | None) -> list[str]:
    """The first `limit` ids of `order`, at most `per_paper` from any one paper (None: no cap)."""
    picked: list[str] = []
    per: dict[str, int] = {}
    for uid in order:
        pid = paper_of[uid]
        if per_paper is not None and per.get(pid, 0) >= per_paper:
            continue
        per[pid] = per.get(pid, 0) + 1
        picked.append(uid)
        if len(picked) >= limit:
            break
    return picked
