"""Porter stems, one stemmer per thread: what relevance features and label matching compare
(its own module, so search/features.py and search/labels.py need not import each other)."""

from __future__ import annotations

import threading
from functools import lru_cache

import snowballstemmer

from ..text import fold
from .query import query_terms

_STEMMERS = threading.local()  # a snowball stemmer keeps its word in itself: one per thread


@lru_cache(maxsize=1 << 17)
def stem(word: str) -> str:
    """Porter stem of `word`.  `serve` searches in a thread pool, and a shared stemmer object
    raced there (IndexError inside snowball under concurrent searches): each thread has its own.
    The cache holds a large library's vocabulary (about 40,000 words at 100,000 units): with 4,096
    the hits' words of a search kept evicting each other, and stemming them was 20 ms a search."""
    stemmer = getattr(_STEMMERS, "porter", None)
    if stemmer is None:
        stemmer = _STEMMERS.porter = snowballstemmer.stemmer("porter")
    return stemmer.stemWord(word)


@lru_cache(maxsize=8192)
def stems(text: str) -> frozenset[str]:
    """The stems of a text's words, kept per text: a warm search (or `ask`) folds and stems the same hits'
    texts again, and folding a long non-ASCII text character by character was most of a warm ask's search."""
    return frozenset(stem(w) for w in query_terms(fold(text)))
