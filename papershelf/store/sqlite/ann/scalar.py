"""int8 scalar codes: one byte per dimension, scaled per row.

A second, finer stage after the sign-code shortlist: a row's int8 code times
its scale estimates its cosine with a query to ~0.005, so of a shortlist of
thousands only a few hundred need reading exactly.  384 bytes per row keeps
300k unit means in ~115 MB.
"""

from __future__ import annotations

import numpy as np


def quantize(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, d) float -> ((n, d) int8, (n,) float32 scale) with row ≈ code * scale."""
    peak = np.abs(matrix).max(axis=1)
    peak[peak == 0] = 1.0
    scale = (peak / 127.0).astype(np.float32)
    codes = np.rint(matrix / scale[:, None]).astype(np.int8)
    return codes, scale


def scores(codes: np.ndarray, scale: np.ndarray, rows: np.ndarray, query: np.ndarray, chunk: int = 256) -> np.ndarray:
    """Estimated dot products of `rows` (indices into codes) with the query, a chunk of rows at a time
    into two buffers that stay in cache (gathered, widened to float32, multiplied in place: no array
    allocated per chunk).  BLAS takes a matrix's rows in blocks of 4 or 8 and its last few by another
    kernel, so the numbers are those of widening all rows at once only while `chunk` is a multiple
    of 8 (256 divides the former 2,048: the same bits, tests/test_ann.py); 8,000 rows of 300k unit
    means in ~2.2 ms instead of ~3.1 (2,048-row chunks, new arrays each; docs/measurements/warm5.md)."""
    out = np.empty(len(rows), np.float32)
    if not len(rows):
        return out
    gathered = np.empty((min(chunk, len(rows)), codes.shape[1]), codes.dtype)
    wide = np.empty(gathered.shape, np.float32)
    for at in range(0, len(rows), chunk):
        n = min(chunk, len(rows) - at)
        np.take(codes, rows[at:at + n], axis=0, out=gathered[:n])
        np.copyto(wide[:n], gathered[:n], casting="unsafe")
        np.matmul(wide[:n], query, out=out[at:at + n])
    out *= scale[rows]
    return out
