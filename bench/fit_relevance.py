"""Fit the relevance calibration (papershelf/search/relevance.py) and check SciFact ranking.

Two query sets, each split in a fit half and a check half:

* SciFact train claims against a built SciFact library (as bench/calibration.py builds it;
  --keep), answered when a relevant abstract is in the top 10, and the off-topic questions of
  bench/data/offtopic_queries.txt; halves by position (even fit, odd check);
* the short-query set (bench/data/short_queries.jsonl) against the shared PDFs + Zotero library
  (as bench/short_queries.py builds it; --short-keep): author names, keywords, labels and pasted
  quotes, answered when bench/short_queries.py counts them found, and short off-topic queries;
  halves by id (even fit, odd test).

For each mode the top hit's features (relevance.py: cosine, bm25_norm, coverage, field_match, from
--explain) are fitted by logistic regression on the fit halves, each of the four groups (SciFact
answered / off-topic, short answered / off-topic) weighing the same; the intercept is then moved
so that relevance 0.5 flags at most 5 % of the answered queries of either set's fit half.  The
check halves are reported.  These are four or five global numbers per mode: calibration, not
tuning to queries.

It also reports SciFact hybrid nDCG@10 (100 results, 1 per paper, as `bench beir`) for the
ranking before #10 and today's default, in the same run, on both halves of the claims.

    python bench/fit_relevance.py --keep /tmp/sf.db --short-keep /tmp/short.db [--data ../shared/data/scifact] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np
from calibration import DEFAULT_SCIFACT, OFFTOPIC, log
from figure_queries import BEFORE, Ranking
from queryset import DEFAULT_DATA, id_number
from short_queries import QUERIES as SHORT
from short_queries import file_papers, run

from papershelf import Library, SearchOptions
from papershelf.beir import load_beir
from papershelf.metrics import ndcg_at_k
from papershelf.models import SearchMode
from papershelf.search.features import idf_max

MODES = {"hybrid": ("cosine", "bm25_norm", "coverage", "field_match"),
         "vector": ("cosine", "coverage", "field_match"),
         "lexical": ("bm25_norm", "coverage", "field_match")}
MAX_FALSE_FLAG = 0.05
FEATURES = ("cosine", "bm25_norm", "bm25_idf", "coverage", "field_match")


def top_signals(lib: Library, text: str, mode: SearchMode, relevant: set[str] | None) -> dict:
    """The top hit's features and, for a claim, whether a relevant abstract is in the top 10."""
    resp = lib.search(text, SearchOptions(mode=mode, explain=True, snippets=False))
    top = resp.results[0].explain if resp.results else None
    feats = {f: (getattr(top, f, None) or 0.0) if top else 0.0 for f in FEATURES}
    feats["bm25_idf"] = (top.bm25 or 0.0) / idf_max(lib.store.index_size()) if top else 0.0
    answered = relevant is not None and any(h.paper_id in relevant for h in resp.results[:10])
    return {"x": feats, "answered": answered, "offtopic": relevant is None, "set": "scifact"}


def short_rows(keep: str, data: Path, mode: SearchMode) -> list[dict]:
    """The short-query set's rows in one mode, both halves, as bench/short_queries.py judges them."""
    queries = [json.loads(line) for line in SHORT.read_text(encoding="utf-8").splitlines() if line.strip()]
    with Library(keep) as lib:
        papers = file_papers(lib, data)
        rows = run(lib, queries, papers, mode)
        top_idf = idf_max(lib.store.index_size())
    for r in rows:
        r["signals"]["bm25_idf"] = (r["signals"].get("bm25") or 0.0) / top_idf
    return [{"x": {f: r["signals"].get(f) or 0.0 for f in FEATURES}, "answered": bool(r["answered"]),
             "offtopic": r["type"] == "offtopic", "set": "short", "half": id_number(r["id"]) % 2} for r in rows]


def fit_logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, steps: int = 50) -> np.ndarray:
    """Weighted logistic regression by Newton's method (a tiny ridge keeps it finite)."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    beta = np.zeros(xb.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ beta))
        grad = xb.T @ (w * (p - y)) + 1e-4 * beta
        hess = (xb * (w * p * (1 - p))[:, None]).T @ xb + 1e-4 * np.eye(len(beta))
        beta -= np.linalg.solve(hess, grad)
    return beta


def shift_intercept(beta: np.ndarray, answered_sets: list[np.ndarray]) -> np.ndarray:
    """Move the intercept so that at most MAX_FALSE_FLAG of each set's answered queries fall below 0.5."""
    need = 0.0
    for x_answered in answered_sets:
        if not len(x_answered):
            continue
        margins = np.sort(x_answered @ beta[:-1] + beta[-1])
        allowed = int(math.floor(MAX_FALSE_FLAG * len(margins)))
        need = max(need, -margins[allowed])  # the allowed-th smallest margin must reach 0
    out = beta.copy()
    out[-1] += need
    return out


def rates(beta: np.ndarray, rows: list[dict], feats: tuple[str, ...]) -> dict:
    def flagged(group: list[dict]) -> float | None:
        if not group:
            return None
        x = np.array([[r["x"][f] for f in feats] for r in group])
        return round(float(np.mean(x @ beta[:-1] + beta[-1] < 0)), 4)
    out = {}
    for name in ("scifact", "short"):
        part = [r for r in rows if r["set"] == name]
        out[name] = {"offtopic_flagged": flagged([r for r in part if r["offtopic"]]),
                     "answered_wrongly_flagged": flagged([r for r in part if r["answered"]])}
    return out


def fit_mode(rows: list[dict], feats: tuple[str, ...]) -> dict:
    """Fit on the fit halves (half 0), every (set, answered/off-topic) group weighing the same; check on half 1."""
    usable = [r for r in rows if r["offtopic"] or r["answered"]]
    fit = [r for r in usable if r["half"] == 0]
    x = np.array([[r["x"][f] for f in feats] for r in fit])
    y = np.array([0.0 if r["offtopic"] else 1.0 for r in fit])
    groups = [(r["set"], r["offtopic"]) for r in fit]
    sizes = {g: groups.count(g) for g in set(groups)}
    w = np.array([1.0 / (len(sizes) * sizes[g]) for g in groups])
    beta = fit_logistic(x, y, w)
    beta = shift_intercept(beta, [x[(y == 1) & np.array([g[0] == name for g in groups])]
                                  for name in ("scifact", "short")])
    return {"features": list(feats), "params": [round(float(b), 4) for b in beta],
            "fit": rates(beta, [r for r in rows if r["half"] == 0], feats),
            "check": rates(beta, [r for r in rows if r["half"] == 1], feats)}


def ndcg_halves(lib: Library, claims: list[tuple[str, str]], qrels: dict, extra: Ranking) -> dict:
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
    ap.add_argument("--short-keep", required=True, help="a built short-query library (bench/short_queries.py --keep)")
    ap.add_argument("--shared", default=str(DEFAULT_DATA), help="the shared data folder (pdfs/, zotero/)")
    ap.add_argument("--modes", default=",".join(MODES), help="which modes to fit (comma-separated)")
    ap.add_argument("--no-ndcg", action="store_true", help="skip the before/after nDCG@10 runs")
    ap.add_argument("--rows", help="write every query's features here (JSON), to refit with --from-rows")
    ap.add_argument("--from-rows", help="fit on rows written by --rows instead of searching again")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    _, queries, qrels, _ = load_beir(args.data)
    claims = [(q, t) for q, t in queries.items()]
    off = [s.strip() for s in OFFTOPIC.read_text(encoding="utf-8").splitlines() if s.strip()]
    out: dict = {}
    by_mode: dict[str, list[dict]] = {}
    if args.from_rows:
        saved = json.loads(Path(args.from_rows).read_text(encoding="utf-8"))
        for mode in args.modes.split(","):
            out[mode] = fit_mode(saved[mode], MODES[mode])
        print(json.dumps(out, indent=1))
        return
    with Library(args.keep) as lib:
        held = {s.paper.id for s in lib.store.list_papers()}
        claims = [(q, t) for q, t in claims if any(d in held for d in qrels[q])]
        lib.search("warm up")
        log(f"{len(claims)} claims with a relevant abstract in the library, {len(off)} off-topic queries")
        if not args.no_ndcg:
            out["ndcg@10"] = {"before": ndcg_halves(lib, claims, qrels, BEFORE),
                              "default": ndcg_halves(lib, claims, qrels, {})}
        for mode in args.modes.split(","):
            log(f"{mode}...")
            rows = []
            for n, (qid, text) in enumerate(claims):
                rel = {d for d, s in qrels[qid].items() if s > 0}
                rows.append({**top_signals(lib, text, mode, rel), "half": n % 2})
            for n, text in enumerate(off):
                rows.append({**top_signals(lib, text, mode, None), "half": n % 2})
            by_mode[mode] = rows
    for mode in args.modes.split(","):
        by_mode[mode] += short_rows(args.short_keep, Path(args.shared), mode)
        out[mode] = fit_mode(by_mode[mode], MODES[mode])
    if args.rows:
        Path(args.rows).write_text(json.dumps(by_mode), encoding="utf-8")
    if args.json:
        print(json.dumps(out, indent=1))
        return
    if "ndcg@10" in out:
        print(f"SciFact train hybrid nDCG@10 (all / odd / even): before #10 {out['ndcg@10']['before']}, "
              f"default {out['ndcg@10']['default']}")
    for mode in args.modes.split(","):
        r = out[mode]
        print(f"{mode}: params {r['params']} over {r['features']} + intercept; fit {r['fit']}; "
              f"check {r['check']}")


if __name__ == "__main__":
    main()
