"""Compact codes: column-major Hamming and int8 scores agree with their exact definitions."""

import numpy as np
import pytest

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


def test_shortlist_is_the_smallest_distances_in_row_order_ties_first_rows():
    rng = np.random.default_rng(8)
    d = rng.integers(0, 40, 5000).astype(np.uint16)
    for size in (1, 17, 700, 4999, 5000, 6000):
        got = shortlist(d, size)
        assert len(got) == min(size, len(d)) and (np.diff(got) > 0).all()  # row order, each row once
        cut = d[got].max()
        assert (d[got] <= cut).all() and (d < cut).sum() <= len(got)
        assert set(np.flatnonzero(d < cut).tolist()) <= set(got.tolist())  # every nearer row kept
        ties = np.flatnonzero(d == cut)
        assert got[d[got] == cut].tolist() == ties[:len(got) - int((d < cut).sum())].tolist()


def test_shortlist_with_a_mask_never_returns_a_masked_row():
    d = np.array([0, 0, 1, 1, 2, 2], dtype=np.uint16)
    allowed = np.array([False, True, False, True, False, False])
    assert shortlist(d, 4, allowed).tolist() == [1, 3]
    assert shortlist(d, 1, allowed).tolist() == [1]


def test_int8_scores_in_chunks_are_the_scores_at_once():
    m, q = _rows(700), _rows(1, seed=6)[0]
    codes, scale = scalar.quantize(m)
    rows = np.arange(0, 700, 3)
    whole = (codes[rows].astype(np.float32) @ q) * scale[rows]
    assert np.allclose(scalar.scores(codes, scale, rows, q, chunk=64), whole, rtol=0, atol=1e-6)


@pytest.mark.parametrize("chunk", [8, 64, 256, 2048])
def test_int8_scores_in_buffers_are_the_numbers_of_widening_every_row(chunk):
    """Buffered chunks of a multiple of 8 rows (a last short one included) change no bit of what
    search ranks by: BLAS computes each row the same way wherever the blocks of 8 start alike."""
    m, q = _rows(700), _rows(1, seed=7)[0]
    codes, scale = scalar.quantize(m)
    rows = np.random.default_rng(3).permutation(700)[:517]
    whole = np.empty(len(rows), np.float32)
    for at in range(0, len(rows), 2048):  # the former way: new arrays per 2,048-row chunk
        part = rows[at:at + 2048]
        whole[at:at + 2048] = (codes[part].astype(np.float32) @ q) * scale[part]
    assert np.array_equal(scalar.scores(codes, scale, rows, q, chunk=chunk), whole)
    assert scalar.scores(codes, scale, rows[:0], q).shape == (0,)
