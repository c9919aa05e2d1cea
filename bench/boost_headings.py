"""The two model kinds bench/train_headings.py fits, in NumPy alone, both deterministic.

* ``logistic``: logistic regression on standardised cues, Newton's method with an L2 penalty.
* ``trees``: gradient-boosted trees of depth 3 on the log loss, splits only at each cue's quantiles
  (16 bins), so a cue's effect may bend (space above a line helps up to a point) and cues may
  combine (bold *and* short *and* alone) where a linear model adds them up.

Both come back as the JSON the reader loads (papershelf/ingest/pdf/sections/heading_model.py evaluates them
in plain Python); `predict` here is the NumPy twin of its `probability`.  No random start, no
sampling: the same examples give the same model, to the last digit written.
"""

from __future__ import annotations

import numpy as np

L2 = 1.0
ROUNDS, DEPTH, RATE, BINS, MIN_LEAF = 60, 3, 0.2, 16, 10


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def fit_logistic(x: np.ndarray, y: np.ndarray, wt: np.ndarray) -> dict:
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], L2)
    penalty[0] = 1e-6
    for _ in range(50):
        p = _sigmoid(z @ w)
        step = np.linalg.solve((z * (wt * p * (1 - p))[:, None]).T @ z + np.diag(penalty),
                               z.T @ (wt * (p - y)) + penalty * w)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return {"kind": "logistic", "bias": _r(w[0]), "weights": [_r(v) for v in w[1:]],
            "mean": [_r(v) for v in mean], "scale": [_r(v) for v in scale]}


def _r(v: float) -> float:
    return round(float(v), 6)


def _cuts(x: np.ndarray) -> list[np.ndarray]:
    """Each cue's candidate thresholds: its quantiles, rounded as they will be written."""
    qs = np.linspace(0, 1, BINS + 1)[1:-1]
    return [np.unique(np.round(np.quantile(x[:, j], qs), 6)) for j in range(x.shape[1])]


def _split(bins: np.ndarray, cuts: list[np.ndarray], g: np.ndarray, h: np.ndarray, rows: np.ndarray):
    """(gain, cue, threshold) of the best split of `rows`, from per-bin sums of gradient and hessian."""
    gs, hs, n = g[rows], h[rows], len(rows)
    total_g, total_h = gs.sum(), hs.sum()
    base = total_g * total_g / (total_h + L2)
    best: tuple[float, int, float] = (1e-9, -1, 0.0)
    for j, cut in enumerate(cuts):
        if not len(cut):
            continue
        b = bins[rows, j]
        gl = np.cumsum(np.bincount(b, gs, minlength=len(cut) + 1))[:-1]
        hl = np.cumsum(np.bincount(b, hs, minlength=len(cut) + 1))[:-1]
        nl = np.cumsum(np.bincount(b, minlength=len(cut) + 1))[:-1]
        gain = gl * gl / (hl + L2) + (total_g - gl) ** 2 / (total_h - hl + L2) - base
        gain[(nl < MIN_LEAF) | (n - nl < MIN_LEAF)] = 0.0
        k = int(np.argmax(gain))
        if gain[k] > best[0]:
            best = (float(gain[k]), j, float(cut[k]))
    return best


def _grow(bins, cuts, g, h, rows, depth: int, nodes: list) -> int:
    me = len(nodes)
    nodes.append([])
    _, j, t = _split(bins, cuts, g, h, rows) if depth else (0.0, -1, 0.0)
    if j < 0:
        nodes[me] = [_r(-RATE * g[rows].sum() / (h[rows].sum() + L2))]
        return me
    k = int(np.searchsorted(cuts[j], t))
    left = _grow(bins, cuts, g, h, rows[bins[rows, j] <= k], depth - 1, nodes)
    right = _grow(bins, cuts, g, h, rows[bins[rows, j] > k], depth - 1, nodes)
    nodes[me] = [j, t, left, right]
    return me


def fit_trees(x: np.ndarray, y: np.ndarray, wt: np.ndarray) -> dict:
    cuts = _cuts(x)
    bins = np.stack([np.searchsorted(c, x[:, j], side="left") for j, c in enumerate(cuts)], axis=1)
    prior = float(np.clip((wt * y).sum() / wt.sum(), 1e-3, 1 - 1e-3))
    base = _r(np.log(prior / (1 - prior)))
    f = np.full(len(y), base)
    trees: list[list] = []
    rows = np.arange(len(y))
    for _ in range(ROUNDS):
        p = _sigmoid(f)
        nodes: list = []
        _grow(bins, cuts, wt * (p - y), wt * p * (1 - p), rows, DEPTH, nodes)
        trees.append(nodes)
        f = f + _tree_values(nodes, x)
    return {"kind": "trees", "base": base, "trees": trees}


def _tree_values(nodes: list, x: np.ndarray) -> np.ndarray:
    out = np.zeros(len(x))
    stack = [(0, np.arange(len(x)))]
    while stack:
        k, rows = stack.pop()
        node = nodes[k]
        if len(node) == 1:
            out[rows] = node[0]
            continue
        low = x[rows, node[0]] <= node[1]
        stack += [(node[2], rows[low]), (node[3], rows[~low])]
    return out


def predict(model: dict, xs: list[list[float]]) -> np.ndarray:
    if not xs:
        return np.zeros(0)
    x = np.array(xs, dtype=float)
    if model["kind"] == "logistic":
        z = (x - np.array(model["mean"])) / np.array(model["scale"])
        return _sigmoid(model["bias"] + z @ np.array(model["weights"]))
    f = np.full(len(x), float(model["base"]))
    for nodes in model["trees"]:
        f += _tree_values(nodes, x)
    return _sigmoid(f)
