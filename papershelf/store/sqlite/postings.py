"""FTS5's BM25 ranking computed from a derived postings file, to the last bit of FTS5's own `bm25()`.

FTS5 spends ~1 µs per matched row in `bm25()` (reading the row's instance lists and its size), so
an OR query of mid-frequency words over 300,000 units costs ~20 ms (docs/measurements/warm3.md).
The same numbers laid out as arrays score the same rows in well under a millisecond with NumPy:
per term, its rows (dense indexes into the library's rowids) and each row's instance count per
column; per row, BM25's length normalisation.  The file is built from the library
(postings_build.py) and is disposable (postings_files.py decides when it may be used).

The score is FTS5's (`fts5_aux.c`, fts5Bm25Function), operation for operation in float64:
idf = log((N - n + 0.5) / (n + 0.5)), 1e-6 when not positive; a row's frequency of a phrase is
the sum of its instances' column weights; its share is idf * (f * (k1 + 1)) / (f + k1 * (1 - b +
b * D / avgdl)); shares are summed in the query's phrase order, starting from 0.0.  The frequency is
computed as count x weight, which equals FTS5's instance-by-instance sum only while every partial
sum is exact: weights whose binary fractions fit (`exact_weights`), else FTS5 ranks.
"""

from __future__ import annotations

import bisect
import json
import math
import os
import threading
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

K1, B = 1.2, 0.75  # FTS5's bm25 constants
FORMAT = 1  # bump when the files' layout changes: older ones are then ignored and dropped
COLUMNS = 3  # title, heading, body (search_fts)
COMMON = 0.02  # a word in more than this share of rows is looked up, not walked, when that proves the top


class Terms:
    """The vocabulary as one UTF-8 blob in FTS5's order (bytewise), looked up by bisection: nothing
    is decoded when the file is opened."""

    def __init__(self, blob: bytes, offsets: np.ndarray):
        self.blob, self.offsets = blob, offsets

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> bytes:
        return self.blob[self.offsets[i]:self.offsets[i + 1]]

    def find(self, term: str) -> int | None:
        key = term.encode("utf-8")
        i = bisect.bisect_left(self, key)
        return i if i < len(self) and self[i] == key else None


@dataclass(repr=False)
class Postings:
    key: str  # the library state it was built from (postings_files.state_key)
    rows: int  # N as FTS5's bm25 reads it (its averages record)
    tokens: int  # every column's token total (avgdl = tokens / rows)
    rowids: np.ndarray  # int64, ascending: the dense row index -> search_docs.rowid
    norm: np.ndarray  # float64 per row: k1 * (1 - b + b * D / avgdl)
    terms: Terms
    starts: np.ndarray  # int64, terms + 1: each term's first posting
    docs: np.ndarray  # int32 per posting: dense row index, ascending within a term
    counts: np.ndarray  # uint16 (postings, COLUMNS): the term's instances in each column
    max_count: int  # the largest count (for exact_weights)
    _local: threading.local = field(default_factory=threading.local)

    @property
    def units(self) -> int:
        return len(self.rowids)

    def lists(self, terms: list[str]) -> list[tuple[int, int]] | None:
        """Each term's posting range, or None when one is not in the file (a word no unit holds,
        or a stem computed differently from FTS5's tokenizer: either way FTS5 ranks it)."""
        out = []
        for t in terms:
            i = self.terms.find(t)
            if i is None:
                return None
            out.append((int(self.starts[i]), int(self.starts[i + 1])))
        return out

    def top(self, lists: list[tuple[int, int]], weights: tuple[float, ...], n: int) -> tuple[np.ndarray, np.ndarray]:
        """The `n` best rows (rowids, scores), best first; rows tied in score in rowid order.

        As in topk.py, a common word's list (over `COMMON` of the rows) is not walked when the rarer
        words prove the top: their rows are looked up in it (binary search), and a row holding only
        common words scores below the sum of their bounds idf x (k1 + 1); when the n-th score is
        at least that sum, no such row enters.  Otherwise every list is walked."""
        w = np.zeros(COLUMNS)
        w[:len(weights)] = weights
        sizes = [e - s for s, e in lists]
        order = sorted(range(len(lists)), key=sizes.__getitem__)
        common = {i for i in order[1:] if sizes[i] > COMMON * self.units}
        got = self._scored(lists, w, n, common) if common else None
        if got is None:
            got = self._scored(lists, w, n, set())
        assert got is not None  # walking every list always answers
        return got

    def _scored(self, lists: list[tuple[int, int]], w: np.ndarray, n: int,
                common: set[int]) -> tuple[np.ndarray, np.ndarray] | None:
        """Scores summed in phrase order, as FTS5 sums, in a per-thread row array zeroed again where it
        was written (allocating and scanning all N rows cost more than the scoring)."""
        rare = [self.docs[s:e] for i, (s, e) in enumerate(lists) if i not in common]
        rows = np.concatenate(rare) if rare else np.zeros(0, np.int32)  # a row in several lists repeats
        if common:
            rows = distinct(rows)  # each once: the common lists are searched for them
            if len(rows) < n:
                return None
        acc = self._scratch()
        for i, (s, e) in enumerate(lists):
            if i in common:
                listed = self.docs[s:e]
                at = np.minimum(np.searchsorted(listed, rows), e - s - 1)
                held = listed[at] == rows
                d, f = rows[held], self.counts[s + at[held]] @ w
            else:
                d, f = self.docs[s:e], self.counts[s:e] @ w
            acc[d] += idf(self.rows, e - s) * ((f * (K1 + 1.0)) / (f + self.norm[d]))
        scores = acc[rows]
        acc[rows] = 0.0
        picked = _best(rows, scores, n, 1 if common else len(lists))
        if common:
            # 1e-9 relative margin: the bound must not fall below the float arithmetic of a sum
            bound = sum(idf(self.rows, e - s) * (K1 + 1.0) for i, (s, e) in enumerate(lists) if i in common)
            if len(picked) < n or scores[picked[-1]] < bound * (1 + 1e-9) + 1e-12:
                return None
        return self.rowids[rows[picked]], scores[picked]

    def _scratch(self) -> np.ndarray:
        acc = getattr(self._local, "acc", None)
        if acc is None:
            acc = self._local.acc = np.zeros(self.units)
        return acc


def _best(rows: np.ndarray, scores: np.ndarray, n: int, repeats: int) -> np.ndarray:
    """Indexes of the `n` best distinct rows, best first, tied rows in row order (`rows` may list a
    row up to `repeats` times, always with the same score: the cut is taken at n x repeats)."""
    if n <= 0 or not len(rows):
        return np.zeros(0, np.int64)
    wide = n * max(1, repeats)
    if len(rows) > wide:
        cut = np.partition(-scores, wide - 1)[wide - 1]
        above = np.flatnonzero(-scores < cut)
        tied = np.flatnonzero(-scores == cut)
        idx = np.concatenate([above, tied])
    else:
        idx = np.arange(len(rows))
    _, first = np.unique(rows[idx], return_index=True)  # one index per row, in row order
    idx = idx[first]
    idx = idx[np.argsort(-scores[idx], kind="stable")]
    return idx[:n]


def distinct(rows: np.ndarray) -> np.ndarray:
    """`np.unique(rows)` by a sort: NumPy 2.4's hash-based unique took 5.8 ms for 40,000 int32 rows
    where sorting takes 0.5 ms (docs/measurements/warm5.md); the same sorted array."""
    if len(rows) < 2:
        return rows.copy()
    s = np.sort(rows)
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def idf(rows: int, hits: int) -> float:
    """FTS5's idf (fts5_aux.c), floored as it floors it."""
    value = math.log((rows - hits + 0.5) / (hits + 0.5))
    return value if value > 0.0 else 1e-6


def norms(doc_tokens: np.ndarray, rows: int, tokens: int) -> np.ndarray:
    """k1 * (1 - b + b * D / avgdl) per row, in FTS5's order of operations."""
    avgdl = float(tokens) / float(rows) if rows else 1.0
    return K1 * ((1 - B) + (B * doc_tokens.astype(np.float64)) / avgdl)


def exact_weights(weights: tuple[float, ...], max_count: int) -> bool:
    """Can count x weight stand for FTS5's sum of a weight per instance, bit for bit?  Yes when the
    weights are non-negative multiples of a common power of two whose summed multiples, times the
    largest count, stay below 2**53 (every partial sum then exact).  1.0, 2.0, 0.5: yes; 0.3: no."""
    if len(weights) > COLUMNS or any(not math.isfinite(w) or w < 0 for w in weights):
        return False
    fractions = [Fraction(w) for w in weights]
    scale = max(f.denominator for f in fractions)
    return sum(int(f * scale) for f in fractions) * max(1, max_count) < 2**53


# -- files ------------------------------------------------------------------------------------


def save_meta(folder: str, meta: dict) -> None:
    with open(os.path.join(folder, "meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f)


def load(folder: str) -> Postings:
    """Map a complete postings folder; raises ValueError (or OSError) on anything inconsistent."""
    try:
        return _load(folder)
    except (OSError, ValueError):
        raise
    except Exception as e:  # noqa: BLE001 - a damaged archive (zipfile's own errors) is a damaged file
        raise ValueError(f"unreadable postings file: {e}") from None


def _load(folder: str) -> Postings:
    with open(os.path.join(folder, "meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    if meta.get("format") != FORMAT:
        raise ValueError("postings format")
    units, terms, postings = int(meta["units"]), int(meta["terms"]), int(meta["postings"])
    arrays = np.load(os.path.join(folder, "rows.npz"))
    rowids, norm, starts, offsets = arrays["rowids"], arrays["norm"], arrays["starts"], arrays["term_offsets"]
    with open(os.path.join(folder, "terms.bin"), "rb") as terms_file:
        blob = terms_file.read()

    def mapped(name: str, dtype, shape) -> np.ndarray:
        if not postings:
            return np.zeros(shape, dtype)
        return np.memmap(os.path.join(folder, name), dtype=dtype, mode="r", shape=shape)

    docs = mapped("docs.bin", np.int32, (postings,))
    counts = mapped("counts.bin", np.uint16, (postings, COLUMNS))
    if (len(rowids), len(norm), len(starts), len(offsets)) != (units, units, terms + 1, terms + 1) or \
            int(starts[-1]) != postings or int(offsets[-1]) != len(blob):
        raise ValueError("postings arrays disagree with their record")
    return Postings(meta["key"], int(meta["rows"]), int(meta["tokens"]), rowids, norm, Terms(blob, offsets),
                    starts, docs, counts, int(meta["max_count"]))
