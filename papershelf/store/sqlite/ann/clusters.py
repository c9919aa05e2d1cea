"""Clusters of unit means (an inverted file): a first pass that reads a few percent of the units.

The sign-code pass (`binary.py`) reads every unit's 48 bytes and ranks 300k distances for each
query (~2.3 ms of CPU at 10,000 papers on a quiet machine, ~4 ms under load).  Spherical k-means
over the unit means gives `k` centroids; each unit belongs to its nearest.  A query scores the
centroids (k × dim, ~0.6 MB for 1,024) and takes the units of its nearest clusters until it
holds the shortlist's size: the same generous shortlist the int8 and exact stages then narrow,
found by reading only the clusters it opens.  Which units it holds differs from the Hamming
shortlist's; recall of the exact top-k and agreement with the Hamming shortlist's results are
measured in docs/measurements/warm6.md.

Training is deterministic (a fixed seed, a fixed sample): the same means give the same clusters.
"""

from __future__ import annotations

import contextlib
import os
import zipfile
from dataclasses import dataclass

import numpy as np

# Units per cluster aimed at (k = units / this, rounded to a power of two, at least 64): 2,048
# clusters for 300k units (k-means ~9 s of CPU, once per snapshot; 1,024 and 512 gave lower recall).
UNITS_PER_CLUSTER = 150
TRAIN_SAMPLE = 40_000  # units k-means is trained on (all of them when fewer)
TRAIN_ROUNDS = 10
# Units dequantized and compared with the centroids at a time: 4,096 × 2,048 scores are 32 MB (the
# whole 40,000-unit sample at once would be 330 MB).
_CHUNK = 4096


@dataclass(frozen=True)
class Clusters:
    centroids: np.ndarray  # (k, dim) float32, unit length
    order: np.ndarray  # int32 (units,): unit indices grouped by cluster, in row order within each
    bounds: np.ndarray  # int64 (k + 1,): cluster c's units are order[bounds[c]:bounds[c + 1]]


def cluster_count(units: int) -> int:
    return max(64, 1 << int(round(np.log2(max(1, units / UNITS_PER_CLUSTER)))))


def _normalized(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1.0, norms)


def _rows(means8: np.ndarray, scale: np.ndarray, rows: slice | np.ndarray) -> np.ndarray:
    return _normalized(np.asarray(means8[rows], np.float32) * np.asarray(scale[rows])[:, None])


def _nearest(x: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Each row's nearest centroid by cosine, `_CHUNK` rows at a time."""
    out = np.empty(len(x), np.int64)
    for at in range(0, len(x), _CHUNK):
        out[at : at + _CHUNK] = np.argmax(x[at : at + _CHUNK] @ centroids.T, axis=1)
    return out


def train(means8: np.ndarray, scale: np.ndarray, k: int, seed: int = 0) -> np.ndarray:
    """Spherical k-means on a fixed sample of the int8 means: (k, dim) unit-length centroids."""
    rng = np.random.default_rng(seed)
    n = len(means8)
    sample = np.sort(rng.choice(n, min(n, TRAIN_SAMPLE), replace=False))
    x = _rows(means8, scale, sample)
    centroids = x[rng.choice(len(x), min(k, len(x)), replace=False)]
    for _ in range(TRAIN_ROUNDS):
        label = _nearest(x, centroids)
        sums = np.zeros_like(centroids)
        np.add.at(sums, label, x)
        empty = ~sums.any(axis=1)  # a centroid nothing chose keeps its place
        sums[empty] = centroids[empty]
        centroids = _normalized(sums).astype(np.float32)
    return centroids


def save(c: Clusters, path: str) -> None:
    """Written under a temporary name and renamed: a reader sees the whole file or none."""
    tmp = f"{path}.{os.getpid()}.tmp.npz"
    try:
        np.savez(tmp, centroids=c.centroids, order=c.order, bounds=c.bounds)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def load(path: str, units: int) -> Clusters | None:
    """The clusters saved at `path`, if there and of `units` units."""
    try:
        with np.load(path) as f:
            c = Clusters(f["centroids"], f["order"], f["bounds"])
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):  # absent, cut short or foreign
        return None
    ok = len(c.order) == units and len(c.bounds) == len(c.centroids) + 1 and c.bounds[-1] == units
    return c if ok else None


def build(means8: np.ndarray, scale: np.ndarray, k: int | None = None, seed: int = 0) -> Clusters:
    """Centroids trained on the means, and every unit filed under its nearest."""
    centroids = train(means8, scale, k or cluster_count(len(means8)), seed)
    label = np.empty(len(means8), np.int32)
    for at in range(0, len(means8), _CHUNK):
        rows = slice(at, at + _CHUNK)
        label[rows] = _nearest(_rows(means8, scale, rows), centroids)
    order = np.argsort(label, kind="stable").astype(np.int32)
    bounds = np.zeros(len(centroids) + 1, np.int64)
    np.cumsum(np.bincount(label, minlength=len(centroids)), out=bounds[1:])
    return Clusters(centroids, order, bounds)


def shortlist(clusters: Clusters, query: np.ndarray, size: int, allowed: np.ndarray | None = None) -> np.ndarray:
    """Indices (in row order) of the units of the clusters nearest the query, taken whole until
    they hold at least `size` units (of the `allowed` ones)."""
    sizes = np.diff(clusters.bounds)
    if allowed is not None:  # allowed units per cluster
        held = np.concatenate([[0], np.cumsum(allowed[clusters.order])])
        sizes = held[clusters.bounds[1:]] - held[clusters.bounds[:-1]]
    nearest = np.argsort(-(clusters.centroids @ query), kind="stable")
    held = np.cumsum(sizes[nearest])
    opened = nearest[: int(np.searchsorted(held, size)) + 1]
    picked = np.concatenate(
        [clusters.order[clusters.bounds[c] : clusters.bounds[c + 1]] for c in opened] or [np.zeros(0, np.int32)]
    )
    if allowed is not None:
        picked = picked[allowed[picked]]
    return np.sort(picked)
