"""Binary codes: one sign bit per dimension, compared by Hamming distance.

A 384-d float32 vector is 1,536 bytes; its sign bits are 48.  For normalized
sentence embeddings the Hamming distance between sign codes tracks the angle
between the vectors (the fraction of differing bits estimates angle / pi for
random hyperplanes; embedding dimensions are not random but behave closely
enough), so scanning the codes of 300k unit means costs ~14 MB of memory
reads, and a finer score of a shortlist restores the order.

Codes are kept column-major — (words, rows) — because summing six word
columns is ~10x faster in NumPy than a row-wise sum over (rows, 6).
"""

from __future__ import annotations

import numpy as np


def pack_signs(matrix: np.ndarray) -> np.ndarray:
    """(n, d) float -> (n, ceil(d/64)) uint64 of sign bits (1 where the value is > 0)."""
    bits = np.packbits(matrix > 0, axis=1)
    pad = (-bits.shape[1]) % 8
    if pad:
        bits = np.pad(bits, ((0, 0), (0, pad)))
    return np.ascontiguousarray(bits).view(np.uint64)


def hamming(codes: np.ndarray, query_code: np.ndarray) -> np.ndarray:
    """Hamming distance of every row to one query code (uint16 per row); `codes` is
    column-major, (words, rows), as `pack_signs(m).T` made contiguous."""
    distances = np.bitwise_count(codes[0] ^ query_code[0]).astype(np.uint16)
    for word, q in zip(codes[1:], query_code[1:]):
        distances += np.bitwise_count(word ^ q)
    return distances


def shortlist(distances: np.ndarray, size: int, allowed: np.ndarray | None = None) -> np.ndarray:
    """Indices of the `size` smallest distances, in row order, only among `allowed` rows; of the rows
    tied at the cut, the first in row order.  Distances are small integers, so the cut is read off
    their histogram (one pass, no partition of 300k rows: ~0.7 ms instead of ~2.5 ms with argpartition
    and a sort), and the same rows come back every time for the same query."""
    if allowed is not None:
        distances = np.where(allowed, distances, np.iinfo(distances.dtype).max)
    size = min(size, len(distances))
    if size <= 0:
        return np.zeros(0, dtype=np.int64)
    below = np.cumsum(np.bincount(distances))  # rows at each distance or nearer
    cut = int(np.searchsorted(below, size))  # the distance at which `size` rows are reached
    keep = distances < cut
    keep[np.flatnonzero(distances == cut)[:size - (int(below[cut - 1]) if cut else 0)]] = True
    if allowed is not None:
        keep &= allowed
    return np.flatnonzero(keep)
