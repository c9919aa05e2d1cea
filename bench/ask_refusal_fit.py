"""Fit `ask`'s refusal (`no_confident_answer`) on the DEV half of bench/data/ask_questions.jsonl only.

Each dev question is asked once; what ask.probability is given (ask.refusal_features: the best sentence's
score, cosine and word overlap, its margin over the next, the best passage's calibrated relevance, the share
of the question's words no passage holds) is the input, "is it answerable" the label.  A logistic regression
(standardized features, L2, classes weighted equally, Newton's method: no dependency) gives P(answers); the
cut is the highest probability at which at most 10 % of answerable dev questions are flagged.  A few
feature sets are compared by leave-one-out on dev (the in-sample numbers flatter) and the best is kept.  `--write` puts the result in
papershelf/ask_weights.py (`REFUSAL`), so the decision ships with the code.

    python bench/ask_refusal_fit.py LIBRARY.db [--write]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ask_eval import questions, record_features  # noqa: E402

from papershelf import Library  # noqa: E402

FEATURES = ("best", "cosine", "lexical", "margin", "relevance", "unseen")
# Candidate feature sets, the simplest first: a tie on leave-one-out keeps the simpler one.
FEATURE_SETS = {"small": ("best", "margin", "relevance", "unseen_top"), "base": FEATURES,
                "all": FEATURES + ("unseen_top", "best_lexical", "best_cosine"),
                # whether the best paper holds the question's rarest word at all (a near miss names a detail
                # the paper never mentions: the GPU, the license)
                "coverage": ("best", "relevance", "paper_missing_rare")}
MAX_ANSWERABLE_FLAGGED = 0.10
L2 = 1.0


def logistic(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """Weights and intercept of an L2-regularized, class-balanced logistic regression (Newton steps)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    sw = np.where(y == 1, n / (2 * max(1, y.sum())), n / (2 * max(1, n - y.sum())))
    w = np.zeros(d + 1)
    reg = np.full(d + 1, L2)
    reg[-1] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(xb @ w, -60, 60)))
        grad = xb.T @ (sw * (p - y)) + reg * w
        hess = (xb * (sw * p * (1 - p))[:, None]).T @ xb + np.diag(reg + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:-1], float(w[-1])


def cut_for(p_ans: np.ndarray) -> float:
    """The highest cut flagging at most MAX_ANSWERABLE_FLAGGED of the answerable questions."""
    ranked = np.sort(p_ans)
    k = int(MAX_ANSWERABLE_FLAGGED * len(ranked))  # this many may fall below the cut
    if k == 0 or len(ranked) <= k:
        return float(ranked[0]) if len(ranked) else 0.5
    return float(ranked[k - 1] + ranked[k]) / 2


def fit(x: np.ndarray, y: np.ndarray, names: tuple[str, ...]) -> dict:
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    coef, intercept = logistic((x - mean) / scale, y)
    z = ((x - mean) / scale) @ coef + intercept
    p = 1 / (1 + np.exp(-z))
    return {"features": list(names), "mean": [round(float(v), 8) for v in mean],
            "scale": [round(float(v), 8) for v in scale], "coef": [round(float(v), 8) for v in coef],
            "intercept": round(intercept, 8), "cut": round(cut_for(p[y == 1]), 8)}


def predict(model: dict, x: np.ndarray) -> np.ndarray:
    z = ((x - np.array(model["mean"])) / np.array(model["scale"])) @ np.array(model["coef"]) + model["intercept"]
    return 1 / (1 + np.exp(-z))


def rates(flagged: np.ndarray, y: np.ndarray) -> dict:
    return {"unanswerable_flagged": round(float(flagged[y == 0].mean()), 3),
            "answerable_flagged": round(float(flagged[y == 1].mean()), 3)}


def write(model: dict, ranker: dict | None = None, keep_ranker: bool = True) -> None:
    """Put the refusal (and the ranker: the one shipped now unless given) in papershelf/ask_weights.py."""
    from papershelf import ask_weights

    path = ROOT / "papershelf" / "ask_weights.py"
    text = path.read_text()
    ranker = ask_weights.RANKER if ranker is None and keep_ranker else ranker
    path.write_text(text[:text.index("VERSION = ")] + f"VERSION = {ask_weights.VERSION}\nRANKER: dict | None = "
                    + json.dumps(ranker, indent=4).replace("null", "None") + "\nREFUSAL: dict = "
                    + json.dumps(model, indent=4) + "\n")


def leave_one_out(x: np.ndarray, y: np.ndarray, names: tuple[str, ...]) -> dict:
    flagged = np.zeros(len(y), dtype=bool)
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        m = fit(x[keep], y[keep], names)
        flagged[i] = predict(m, x[i:i + 1])[0] < m["cut"]
    return rates(flagged, y)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    sink: list[dict] = []
    record_features(sink)
    feats, labels = [], []
    with Library(args.library, create=False) as lib:
        for q in questions("dev"):
            before = len(sink)
            lib.ask(q["question"], limit=8)
            if len(sink) > before:
                feats.append(sink[-1])
                labels.append(1 if q["answerable"] else 0)
    y = np.array(labels)
    report, chosen = {}, None
    for name, names in FEATURE_SETS.items():  # the set chosen by leave-one-out on dev, never by test
        x = np.array([[f[n] for n in names] for f in feats], dtype=float)
        loo = leave_one_out(x, y, names)
        model = fit(x, y, names)
        report[name] = {"in_sample": rates(predict(model, x) < model["cut"], y), "leave_one_out": loo}
        key = (loo["answerable_flagged"] <= MAX_ANSWERABLE_FLAGGED + 1e-9, loo["unanswerable_flagged"],
               -loo["answerable_flagged"])
        if chosen is None or key > chosen[0]:
            chosen = (key, name, model)
    assert chosen is not None
    print(json.dumps({"dev_questions": len(y), "feature_sets": report, "chosen": chosen[1],
                      "model": chosen[2]}, indent=1))
    if args.write:
        write(chosen[2])


if __name__ == "__main__":
    main()
