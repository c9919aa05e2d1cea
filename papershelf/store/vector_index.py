"""The SQLite backend's vector search: exact cosine with NumPy over a space's vectors.

All vectors of a space are loaded once into one normalized float32 matrix
of window vectors (a long unit has several, see embed/windows.py; a unit
scores as its best window), with parallel per-unit arrays of unit id, paper
id, source, object kind and year, and cached until the space's generation
counter moves — every paper write bumps
it, in this process or another.  Filters become a boolean mask applied before
ranking, so a filtered search never comes back empty while matches exist.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from ..models import UNIT_KINDS, Filters, Space, VectorHit


class _Matrix:
    def __init__(self, store, space: Space):
        self.generation = store._generation(space.id)
        self.loaded_at = time.monotonic()
        ids: list[str] = []
        papers: list[str] = []
        sources: list[str] = []
        counts, mats = [], []
        for kind in UNIT_KINDS:
            u, p, n, m = store._load_collection(space.id, kind.collection, space.dimension)
            ids += u
            papers += p
            sources += [kind.source] * len(u)
            counts.append(n)
            mats.append(m)
        matrix = np.vstack(mats)
        windows = np.concatenate(counts)
        # Where each unit's windows start (and how many it has); None when every unit is one
        # vector, so no reduction is needed.
        self.windows = windows
        self.starts = None if (windows == 1).all() else np.concatenate([[0], np.cumsum(windows)[:-1]])
        # vstack made a fresh float32 array: normalize it in place (no second copy of a
        # matrix that can run to gigabytes with windows).
        norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))[:, None]  # no n x d temporary, unlike norm()
        norms[norms == 0] = 1.0
        matrix /= norms
        self.matrix = matrix
        self.unit_ids = np.array(ids, dtype=object)
        self.paper_ids = np.array(papers, dtype=object)
        self.sources = np.array(sources, dtype=object)
        kinds = store._object_kinds(space.id)
        self.object_kinds = np.array([kinds.get(u) for u in ids], dtype=object)
        years = store._paper_years()
        self.years = np.array([years.get(p) if years.get(p) is not None else -1 for p in papers], dtype=np.int64)

    def mask(self, f: Filters, labelled: list[str] | None = None) -> np.ndarray | None:
        """`labelled`: the papers that pass the collection/tag filters (the store resolves those)."""
        if f.is_empty():
            return None
        m = np.ones(len(self.unit_ids), dtype=bool)
        if labelled is not None:
            m &= np.isin(self.paper_ids, np.array(labelled, dtype=object))
        if f.papers:
            m &= np.isin(self.paper_ids, np.array(f.papers, dtype=object))
        if f.sources:
            m &= np.isin(self.sources, np.array(f.sources, dtype=object))
        if f.object_kind:
            m &= self.object_kinds == f.object_kind
        if f.year_min is not None:
            m &= self.years >= f.year_min
        if f.year_max is not None:
            m &= (self.years <= f.year_max) & (self.years >= 0)
        return m


class VectorIndex:
    """Per-space cached matrices; thread-safe to share between server threads.

    While a build is writing (the build lock is held) every paper it writes moves
    the generation; reloading the whole matrix for each query would make search
    crawl, so during a build a matrix may be up to `max_staleness` seconds old.
    Hits whose units were replaced meanwhile are dropped when results are read.
    """

    def __init__(self, store, max_staleness: float = 2.0):
        self.store = store
        self.max_staleness = max_staleness
        self._cache: dict[int, _Matrix] = {}
        self._lock = threading.Lock()

    def matrix(self, space: Space) -> _Matrix:
        with self._lock:
            cached = self._cache.get(space.id)
            if cached is None or cached.generation != self.store._generation(space.id):
                fresh_enough = cached is not None and \
                    time.monotonic() - cached.loaded_at < self.max_staleness and self.store.lock_holder() is not None
                if cached is None or not fresh_enough:
                    cached = self._cache[space.id] = _Matrix(self.store, space)
            return cached

    def search(self, space: Space, query: np.ndarray, limit: int, filters: Filters) -> list[VectorHit]:
        """Top `limit` units by exact cosine similarity; a unit scores as its best window,
        whose index comes back with it."""
        m = self.matrix(space)
        if not len(m.unit_ids):
            return []
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        n = np.linalg.norm(q)
        if n == 0 or not np.isfinite(n):
            return []
        scores = window_scores = m.matrix @ (q / n)
        if m.starts is not None:
            scores = np.maximum.reduceat(window_scores, m.starts)
        mask = m.mask(filters, self.store.labelled_paper_ids(filters) if filters.has_labels else None)
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        k = min(limit, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        hits = []
        for i in top:
            if not np.isfinite(scores[i]):
                continue
            window = 0
            if m.starts is not None:
                window = int(np.argmax(window_scores[m.starts[i]:m.starts[i] + m.windows[i]]))
            hits.append(VectorHit(m.unit_ids[i], m.paper_ids[i], float(scores[i]), window))
        return hits
