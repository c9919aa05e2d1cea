"""Compact codes: column-major Hamming and int8 scores agree with their exact definitions."""

import numpy as np

from papershelf.store.sqlite.ann import scalar
from papershelf.store.sqlite.ann.binary import hamming, pack_signs, shortlist


def _rows(n: int, d: int = 384, seed: int = 3) -> np.ndarray:
    m = np.random.default_rng(seed).standard_normal((n, d)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_hamming_counts_differing_signs():
    m = _rows(50)
    q = _rows(1, seed=4)[0]
    naive = ((m > 0) != (q > 0)).sum(axis=1)
    codes = np.ascontiguousarray(pack_signs(m).T)
    assert (hamming(codes, pack_signs(q[None])[0]) == naive).all()


def test_shortlist_keeps_only_allowed_rows():
    d = np.array([5, 1, 3, 0, 9], dtype=np.uint16)
    allowed = np.array([True, False, True, False, True])
    assert sorted(shortlist(d, 2, allowed).tolist()) == [0, 2]
    assert sorted(shortlist(d, 2).tolist()) == [1, 3]


def test_int8_scores_track_cosine_closely():
    m, q = _rows(500), _rows(1, seed=5)[0]
    codes, scale = scalar.quantize(m)
    est = scalar.scores(codes, scale, np.arange(500), q)
    assert np.abs(est - m @ q).max() < 0.01
