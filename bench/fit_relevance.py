"""Fit the relevance calibration (papershelf/search/relevance.py) and check SciFact ranking.

Runs every SciFact train claim and every off-topic query (bench/data/offtopic_queries.txt)
against a built SciFact library (as bench/calibration.py builds it; pass --keep) in hybrid,
lexical and vector mode, takes the top hit's raw signals (best-window cosine, BM25 per
content word, from --explain), and fits for each signal set a logistic regression
(class-balanced) of "answered claim" (a relevant abstract in the top 10) against "off-topic"
on the EVEN positions of each set; the intercept is then moved so relevance 0.5 flags at
most 5 % of the answered claims of that half.  The fit is checked on the ODD half.
These are 2-3 global numbers per signal set: calibration, not tuning to queries.

It also reports SciFact hybrid nDCG@10 (100 results, 1 per paper, as `bench beir`) for the
ranking before #10 and today's default, in the same run, on both halves of the claims.

    python bench/fit_relevance.py --keep /tmp/sf.db [--data ../shared/data/scifact] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np
from calibration import DEFAULT_SCIFACT, OFFTOPIC, log
from figure_queries import BEFORE

from papershelf import Library, SearchOptions
from papershelf.beir import load_beir
from papershelf.metrics import ndcg_at_k

MODES = {"hybrid": ("cosine", "bm25_per_term"), "vector": ("cosine",), "lexical": ("bm25_per_term",),
         "lexical-raw": ("bm25",), "lexical-log": ("log_bm25",)}
MAX_FALSE_FLAG = 0.05


def top_signals(lib: Library, text: str, mode: str, relevant: set[str] | None) -> dict:
    """The top hit's raw signals and, for a claim, whether a relevant abstract is in the top 10."""
    resp = lib.search(text, SearchOptions(mode=mode.split("-")[0], explain=True, snippets=False))
    top = resp.results[0].explain if resp.results else None
    feats = {f: (getattr(top, f) or 0.0) if top else 0.0 for f in MAX_FEATURES}
    feats["log_bm25"] = math.log1p(max(0.0, feats["bm25"]))
    answered = relevant is not None and any(h.paper_id in relevant for h in resp.results[:10])
    return {"x": feats, "answered": answered, "offtopic": relevant is None}


MAX_FEATURES = ("cosine", "bm25_per_term", "bm25")


def fit_logistic(x: np.ndarray, y: np.ndarray, steps: int = 50) -> np.ndarray:
    """Class-balanced logistic regression by Newton's method (a tiny ridge keeps it finite)."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.where(y == 1, 0.5 / max(1, y.sum()), 0.5 / max(1, (1 - y).sum()))
    beta = np.zeros(xb.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ beta))
        grad = xb.T @ (w * (p - y)) + 1e-4 * beta
        hess = (xb * (w * p * (1 - p))[:, None]).T @ xb + 1e-4 * np.eye(len(beta))
        beta -= np.linalg.solve(hess, grad)
    return beta


def shift_intercept(beta: np.ndarray, x_answered: np.ndarray) -> np.ndarray:
    """Move the intercept so that at most MAX_FALSE_FLAG of answered claims fall below 0.5."""
    margins = np.sort(x_answered @ beta[:-1] + beta[-1])
    allowed = int(math.floor(MAX_FALSE_FLAG * len(margins)))
    need = -margins[allowed]  # the allowed-th smallest margin must reach 0
    out = beta.copy()
    out[-1] += max(0.0, need)
    return out


def rates(beta: np.ndarray, rows: list[dict], feats: tuple[str, ...]) -> dict:
    def flagged(group: list[dict]) -> float:
        if not group:
            return 0.0
        x = np.array([[r["x"][f] for f in feats] for r in group])
        return round(float(np.mean(x @ beta[:-1] + beta[-1] < 0)), 4)
    return {"offtopic_flagged": flagged([r for r in rows if r["offtopic"]]),
            "answered_wrongly_flagged": flagged([r for r in rows if r["answered"]]),
            "ontopic_flagged": flagged([r for r in rows if not r["offtopic"]])}


def fit_mode(rows: list[dict], feats: tuple[str, ...]) -> dict:
    """Fit on the even half, check on the odd half (positions within each set)."""
    usable = [r for r in rows if r["offtopic"] or r["answered"]]
    even = [r for r in usable if r["half"] == 0]
    x = np.array([[r["x"][f] for f in feats] for r in even])
    y = np.array([0.0 if r["offtopic"] else 1.0 for r in even])
    beta = fit_logistic(x, y)
    beta = shift_intercept(beta, x[y == 1])
    return {"features": list(feats), "params": [round(float(b), 4) for b in beta],
            "fit_even": rates(beta, [r for r in rows if r["half"] == 0], feats),
            "check_odd": rates(beta, [r for r in rows if r["half"] == 1], feats)}


def ndcg_halves(lib: Library, claims: list[tuple[str, str]], qrels: dict, extra: dict) -> dict:
    scores = []
    for qid, text in claims:
        resp = lib.search(text, SearchOptions(limit=100, per_paper=1, snippets=False, **extra))
        scores.append(ndcg_at_k([h.paper_id for h in resp.results], qrels[qid], 10))
    odd, even = scores[1::2], scores[0::2]
    return {"all": round(float(np.mean(scores)), 4), "odd": round(float(np.mean(odd)), 4),
            "even": round(float(np.mean(even)), 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(DEFAULT_SCIFACT))
    ap.add_argument("--keep", required=True, help="a built SciFact library (bench/calibration.py --keep)")
    ap.add_argument("--modes", default=",".join(MODES), help="which signal sets to fit (comma-separated)")
    ap.add_argument("--no-ndcg", action="store_true", help="skip the before/after nDCG@10 runs")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    _, queries, qrels, _ = load_beir(args.data)
    claims = [(q, t) for q, t in queries.items()]
    off = [s.strip() for s in OFFTOPIC.read_text(encoding="utf-8").splitlines() if s.strip()]
    out: dict = {}
    with Library(args.keep) as lib:
        held = {s.paper.id for s in lib.store.list_papers()}
        claims = [(q, t) for q, t in claims if any(d in held for d in qrels[q])]
        lib.search("warm up")
        log(f"{len(claims)} claims with a relevant abstract in the library, {len(off)} off-topic queries")
        if not args.no_ndcg:
            out["ndcg@10"] = {"before": ndcg_halves(lib, claims, qrels, BEFORE),
                              "default": ndcg_halves(lib, claims, qrels, {})}
        for mode in args.modes.split(","):
            feats = MODES[mode]
            log(f"{mode}...")
            rows = []
            for n, (qid, text) in enumerate(claims):
                rel = {d for d, s in qrels[qid].items() if s > 0}
                rows.append({**top_signals(lib, text, mode, rel), "half": n % 2})
            for n, text in enumerate(off):
                rows.append({**top_signals(lib, text, mode, None), "half": n % 2})
            out[mode] = fit_mode(rows, feats)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    if "ndcg@10" in out:
        print(f"SciFact train hybrid nDCG@10 (all / odd / even): before #10 {out['ndcg@10']['before']}, "
              f"default {out['ndcg@10']['default']}")
    for mode in args.modes.split(","):
        r = out[mode]
        print(f"{mode}: params {r['params']} over {r['features']} + intercept; fit (even) {r['fit_even']}; "
              f"check (odd) {r['check_odd']}")


if __name__ == "__main__":
    sys.exit(main())
