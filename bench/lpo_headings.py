"""Leave-publisher-out readings of the heading model on examples bench/train_headings.py collected
(`--collect --cache FILE`), at fixed thresholds, for questions train_headings does not ask (heads18):

* ``--frozen``: the wide dev outlines relabelled by bench/data/outline_headings_dev.json (caches
  collected before train_headings read that file);
* ``--extra``: cues the reader does not compute yet, derived from a paper's records in order (earlier
  candidates of the same style the rules took, numbering continued by the previous / next numbered
  candidate, gap above against the paper's median gap of non-headings);
* ``--no-rule``: the rules' verdict and level hidden from the model (a learned decision of its own);
* ``--shipped``: the shipped weights, no refit (in-sample on the dev half).

    cd bench && python lpo_headings.py CACHE [--frozen] [--extra | --no-rule | --shipped] [--drop-source hand]
"""
import argparse
import json
import math
import re
import sys

import fit_headings
from fit_headings import doc_probs, fit, folds_of, simulate_scores
from train_headings import _print, _total

from papershelf.ingest.pdf.sections import heading_model
from papershelf.ingest.pdf.sections.heading_features import NAMES

_NUM = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+\S")
COL = {n: k for k, n in enumerate(NAMES)}


def _succ(a: str, b: str) -> bool:
    """`b` may follow `a` in a numbering scheme: next sibling, first child, or next of an ancestor."""
    pa, pb = [int(x) for x in a.split(".")], [int(x) for x in b.split(".")]
    return pb == pa + [1] or any(pb == pa[:k] + [pa[k] + 1] for k in range(len(pa)))


def augment(doc: dict) -> None:
    recs = doc["records"]
    seen: dict[tuple, int] = {}
    nums = [(k, m.group(1)) for k, r in enumerate(recs) if (m := _NUM.match(r["text"]))]
    nxt_of, prv_of = {}, {}
    for (k1, a), (k2, b) in zip(nums, nums[1:]):
        nxt_of[k1] = (a, b)
        prv_of[k2] = (a, b)
    gaps = sorted(r["x"][COL["gap_above"]] for r in recs if r["x"] is not None and not r["rule"])
    med = gaps[len(gaps) // 2] if gaps else 1.0
    for k, r in enumerate(recs):
        x = r["x"]
        if x is None:
            continue
        x = x[: len(NAMES)]
        sig = (round(x[COL["size_rel"]] * 20), x[COL["bold"]], x[COL["italic"]], x[COL["other_face"]], x[COL["capitals"]])
        prior = seen.get(sig, 0)
        if r["rule"]:
            seen[sig] = prior + 1
        nx = float(k in nxt_of and _succ(*nxt_of[k]))
        pv = float(k in prv_of and _succ(*prv_of[k]))
        r["x"] = x + [math.log1p(prior), nx, pv, x[COL["gap_above"]] - med]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("cache")
    ap.add_argument("--extra", action="store_true")
    ap.add_argument("--gen-weight", type=float, default=0.3)
    ap.add_argument("--drop-source", default="")
    ap.add_argument("--shipped", action="store_true")
    ap.add_argument("--no-rule", action="store_true", help="the rules' verdict hidden from the model")
    ap.add_argument("--frozen", action="store_true", help="dev outlines graded on bench/data/outline_headings_dev.json")
    ap.add_argument("--veto", type=float, default=0.0)
    ap.add_argument("--admit", type=float, default=0.8)
    args = ap.parse_args()
    fit_headings.GENERATED_WEIGHT = args.gen_weight
    docs = json.loads(open(args.cache).read())
    if args.frozen:
        from train_headings import label
        frozen = json.loads(open("data/outline_headings_dev.json").read())
        for d in docs:
            if d["source"] == "outline" and d["name"] in frozen:
                d["truth"] = frozen[d["name"]]
                for r in d["records"]:
                    r["y"] = label(r, d["truth"]) if r["x"] is not None else None
    if args.no_rule:
        for d in docs:
            for r in d["records"]:
                if r["x"] is not None:
                    r["x"][0] = r["x"][1] = 0.0
    if args.extra:
        for d in docs:
            augment(d)
    rows = []
    shipped = heading_model.load()
    for held, train_docs, test_docs in folds_of(docs):
        train = [d for d in train_docs if d["source"] != args.drop_source]
        if args.shipped:
            probs = [[heading_model.probability(shipped, r["x"]) if r["x"] is not None else None for r in d["records"]]
                     for d in test_docs]
        else:
            model = fit(train)
            probs = [doc_probs(model, d) for d in test_docs]
        rows.append({"family": held, **simulate_scores(test_docs, {"probs": probs, "veto": args.veto,
                                                                   "admit": args.admit})})
    _print(rows + [_total(rows)], False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
