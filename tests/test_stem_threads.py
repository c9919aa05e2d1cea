"""`serve` runs searches in a thread pool; the stemmer behind relevance features must give every
thread the same stems as one thread does (a shared snowball stemmer raised IndexError there)."""

from __future__ import annotations

import itertools
import string
from concurrent.futures import ThreadPoolExecutor

from papershelf.search import features


def _words(n: int) -> list[str]:
    suffixes = ["ing", "ations", "ness", "ed", "ies", "fulness", "s", "ly"]
    roots = ("".join(p) for p in itertools.product(string.ascii_lowercase, repeat=3))
    return [r + suffixes[i % len(suffixes)] for i, r in zip(range(n), roots)]


def test_stems_are_the_same_from_many_threads():
    words = _words(12000)
    expected = [features.stem.__wrapped__(w) for w in words]
    features.stem.cache_clear()
    chunks = [words[i::8] for i in range(8)]
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda ws: [features.stem(w) for w in ws], chunks))
    assert [got[i % 8][i // 8] for i in range(len(words))] == expected
