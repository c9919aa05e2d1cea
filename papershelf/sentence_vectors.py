"""Sentence vectors for `ask`, kept per unit: a derived, disposable cache, never trusted over the library.

Scoring a question against the sentences of its best passages needs a vector for each sentence; encoding
them on every question was most of `ask`'s time.  A unit's sentence vectors depend only on its text, the
embedding space and how sentences are split, so they are stored under a hash of exactly those: a unit whose
text changed, another model, or a new splitter simply misses and is encoded again.  Nothing is read back
that the key does not pin down, so the cache can be deleted at any time (it costs one encoding per unit).

Two levels: a bounded in-process map (a server's warm questions), and one SQLite file in the user cache
directory (`$PAPERSHELF_CACHE_DIR` or the platform's), shared by libraries since the key is the content.
A cache that cannot be opened or written is skipped: vectors are then encoded, as before.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

SPLIT_VERSION = 3  # bump when sentences.py or ask.answer_spans would cut a text differently
MEMORY_UNITS = 4096


def unit_key(space: str, text: str) -> str:
    return hashlib.sha256(f"{SPLIT_VERSION}\0{space}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()


class SentenceVectors:
    """Thread-safe map from unit key to its sentences' vectors (unit-normalized float32 rows)."""

    def __init__(self, path: Path | None):
        self.path = path
        self._memory: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._db_failed = path is None

    def _conn(self) -> sqlite3.Connection | None:
        if self._db is None and not self._db_failed:
            try:
                assert self.path is not None
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=2)
                db.execute("CREATE TABLE IF NOT EXISTS sentence_vectors (key TEXT PRIMARY KEY, "
                           "rows INTEGER NOT NULL, dim INTEGER NOT NULL, data BLOB NOT NULL)")
                self._db = db
            except (OSError, sqlite3.Error):
                self._db_failed = True
        return self._db

    def get(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        with self._lock:
            found = {k: self._memory[k] for k in keys if k in self._memory}
            for k in found:
                self._memory.move_to_end(k)
            missing = [k for k in keys if k not in found]
            db = self._conn() if missing else None
            if db is not None:
                try:
                    marks = ",".join("?" * len(missing))
                    for key, rows, dim, data in db.execute(
                            f"SELECT key, rows, dim, data FROM sentence_vectors WHERE key IN ({marks})", missing):
                        vec = np.frombuffer(data, dtype=np.float16)
                        if vec.size == rows * dim:  # a torn row is a miss, never a wrong vector
                            found[key] = self._remember(key, vec.reshape(rows, dim).astype(np.float32))
                except sqlite3.Error:
                    pass
            return found

    def put(self, vectors: dict[str, np.ndarray]) -> None:
        with self._lock:
            for key, vec in vectors.items():
                self._remember(key, vec)
            db = self._conn()
            if db is None or not vectors:
                return
            try:
                with db:
                    db.executemany("INSERT OR REPLACE INTO sentence_vectors VALUES (?, ?, ?, ?)",
                                   [(k, v.shape[0], v.shape[1], v.astype(np.float16).tobytes())
                                    for k, v in vectors.items()])
            except sqlite3.Error:
                pass

    def _remember(self, key: str, vec: np.ndarray) -> np.ndarray:
        self._memory[key] = vec
        self._memory.move_to_end(key)
        while len(self._memory) > MEMORY_UNITS:
            self._memory.popitem(last=False)
        return vec


def normalized(vectors) -> np.ndarray:
    out = np.asarray(vectors, dtype=np.float32)
    if out.ndim != 2:
        out = out.reshape(len(out), -1)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


def vectors_for(cache: SentenceVectors, space: str, encode: Callable[[list[str]], object],
                texts: dict[str, list[str]]) -> dict[str, np.ndarray]:
    """Each unit's sentence vectors ({unit key: the sentences, in order}): cached ones read, the rest
    encoded in one batch and stored."""
    have = cache.get(list(texts))
    todo = [k for k in texts if k not in have and texts[k]]
    if todo:
        flat = [s for k in todo for s in texts[k]]
        vecs = normalized(encode(flat))
        if vecs.shape[0] != len(flat):  # a provider that answered for other texts: use nothing of it
            raise ValueError(f"the embedding provider returned {vecs.shape[0]} vectors for {len(flat)} sentences")
        # Stored as float16: fresh vectors take the same rounding, so a cold and a warm ask (or a CLI and a
        # server sharing the file) score identically.
        vecs = vecs.astype(np.float16).astype(np.float32)
        fresh, i = {}, 0
        for k in todo:
            fresh[k] = vecs[i:i + len(texts[k])]
            i += len(texts[k])
        cache.put(fresh)
        have.update(fresh)
    return have
