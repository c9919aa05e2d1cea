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


def lift_objects(scores: dict[str, float], paper_of: dict[str, str], objects: set[str],
                 lift: float) -> dict[str, float]:
    """Move each figure/table score `lift` of the way up to its paper's best score.

    A caption is short; the paper's body text repeats its words and outscores it even
    when the query describes the figure.  The paper's best hit is evidence that the
    paper is the right one, so its objects inherit part of that score (lift 0: off;
    lift 1: every object of a paper ties with its best hit).  Order within a paper is kept.
    """
    if lift <= 0 or not objects:
        return scores
    best: dict[str, float] = {}
    for uid, s in scores.items():
        pid = paper_of[uid]
        best[pid] = max(best.get(pid, s), s)
    return {uid: s + lift * (best[paper_of[uid]] - s) if uid in objects else s for uid, s in scores.items()}


def cap_per_paper(order: Iterable[str], paper_of: dict[str, str], limit: int, per_paper: int | None,
                  objects: set[str] | None = None, objects_per_paper: int | None = None) -> list[str]:
    """The first `limit` ids of `order`, at most `per_paper` text hits from any one paper and,
    counted apart, at most `objects_per_paper` of its figures/tables (ids in `objects`).

    Counting them apart keeps a paper's own body text, which discusses its figures, from
    taking the slots of the figure a query describes.  objects_per_paper None: figures and
    tables share the text hits' cap; per_paper None: no cap at all.
    """
    apart = objects or set() if objects_per_paper is not None else set()
    picked: list[str] = []
    per: dict[tuple[str, bool], int] = {}
    for uid in order:
        key = (paper_of[uid], uid in apart)
        cap = objects_per_paper if key[1] else per_paper
        if per_paper is not None and cap is not None and per.get(key, 0) >= cap:
            continue
        per[key] = per.get(key, 0) + 1
        picked.append(uid)
        if len(picked) >= limit:
            break
    return picked
