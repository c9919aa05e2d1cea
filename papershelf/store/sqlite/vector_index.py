"""The SQLite backend's vector search: cosine with NumPy over a snapshot of a space.

A unit scores as its best window (MaxP).  Small spaces are scored exactly,
every window.  Large ones (≥ `CODES_MIN_WINDOWS` windows, e.g. 10,000 papers
≈ 300k units, 1.5 M windows) narrow in three stages, all on units: the
units of the k-means clusters of unit means nearest the query make a
shortlist of thousands (sign bits of each unit's mean, by Hamming distance,
where a snapshot has no clusters); int8 codes of the same means keep the
best few hundred of those; their windows are read and scored exactly in float32.  The ranking returned is
exact cosine; the stages only decide which units are looked at.  A unit's
mean is a good proxy for its best window (sentence windows of one unit lie
close together), and recall@100 against a full exact scan is measured in
bench/vector_scale.py.

The snapshot (snapshot.py) is cached per space until the space's
generation moves — every vector write bumps it, in this process or another —
and large ones are kept as derived files so the next process maps them
instead of rebuilding.  Filters become a mask applied before ranking, so a
filtered search never comes back empty while matches exist; year and label
filters are read from the library at query time.
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np

from ...models import UNIT_KINDS, Filters, Space, VectorHit
from . import snapshot as snapshots
from .ann import clusters, scalar
from .ann.binary import hamming, pack_signs, shortlist
from .snapshot import OBJECT_KIND_CODES, Snapshot

# Units kept by the sign-code scan per unit asked for (and at least SHORTLIST_MIN)...
SHORTLIST_PER_HIT = 80
SHORTLIST_MIN = 8000
# ...and of those, by their int8 mean scores, the units whose windows are read and scored exactly.
RESCORE_PER_HIT = 3
RESCORE_MIN = 300


class VectorIndex:
    """Per-space cached snapshots; thread-safe to share between server threads.

    While a build is writing (the build lock is held) every paper it writes moves
    the generation; rebuilding the snapshot for each query would make search
    crawl, so during a build a snapshot may be up to `max_staleness` seconds old.
    Hits whose units were replaced meanwhile are dropped when results are read.
    """

    def __init__(self, store, max_staleness: float = 2.0, files: bool = True):
        self.store = store
        self.max_staleness = max_staleness
        self.files = files  # keep large snapshots as derived files beside the library
        self._cache: dict[int, Snapshot] = {}
        self._lock = threading.Lock()

    # -- snapshots ------------------------------------------------------------------------

    def matrix(self, space: Space) -> Snapshot:
        """The space's current snapshot (name kept from when it was one matrix)."""
        with self._lock:
            generation = self.store._generation(space.id)
            cached = self._cache.get(space.id)
            if cached is not None and cached.generation == generation:
                return cached
            building = self.store.lock_holder() is not None
            if cached is not None and building and time.monotonic() - cached.loaded_at < self.max_staleness:
                return cached
            snap = self._load(space, generation, building)
            self._cache[space.id] = snap
            return snap

    def _load(self, space: Space, generation: int, building: bool) -> Snapshot:
        path = getattr(self.store, "path", None)
        library_id = self._library_id() if self.files and path else None
        if not (path and library_id):
            return snapshots.build(self.store, space)
        snap = snapshots.load_files(path, library_id, space, generation)
        if snap is not None:
            return snap
        snap = snapshots.build(self.store, space)
        # Worth keeping for the next process only when large, and only once the build is done
        # (during a build the generation moves with every paper).
        if len(snap.vectors) >= snapshots.FILES_MIN_WINDOWS and not building and os.access(
                os.path.dirname(path), os.W_OK):
            try:
                return snapshots.build_files(self.store, path, library_id, space)
            except OSError:
                pass  # a full or read-only disk: search from memory
        return snap

    def _library_id(self) -> str | None:
        try:
            return self.store.library_id()
        except Exception:  # noqa: BLE001 - a read-only library: no derived files, search from memory
            return None

    # -- filters --------------------------------------------------------------------------

    def _unit_mask(self, snap: Snapshot, f: Filters) -> np.ndarray | None:
        if f.is_empty():
            return None
        m = np.ones(snap.units, dtype=bool)
        papers = set(f.papers) if f.papers else None
        where = self.store._paper_ids_where(f)
        if where is not None:
            papers = where if papers is None else papers & where
        if papers is not None:
            allowed = np.array([p in papers for p in snap.paper_ids], dtype=bool)
            m &= allowed[snap.paper] if len(allowed) else False
        if f.sources:
            codes = [n for n, k in enumerate(UNIT_KINDS) if k.source in f.sources]
            m &= np.isin(snap.kind, codes)
        if f.object_kind:
            m &= snap.object_kind == OBJECT_KIND_CODES.get(f.object_kind, 255)
        return m

    # -- scoring --------------------------------------------------------------------------

    def search(self, space: Space, query: np.ndarray, limit: int, filters: Filters) -> list[VectorHit]:
        """Top `limit` units by cosine similarity; a unit scores as its best window,
        whose index comes back with it."""
        snap = self.matrix(space)
        if not snap.units:
            return []
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        n = np.linalg.norm(q)
        if n == 0 or not np.isfinite(n):
            return []
        q = q / n
        mask = self._unit_mask(snap, filters)
        if snap.codes is None:
            units, scores, best = _exact(snap, q, mask)
        else:
            sizes = max(SHORTLIST_MIN, limit * SHORTLIST_PER_HIT), max(RESCORE_MIN, limit * RESCORE_PER_HIT)
            units, scores, best = _shortlisted(snap, q, mask, *sizes)
        k = min(limit, len(units))
        if k == 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [VectorHit(snap.unit_id(int(units[i])), snap.paper_ids[snap.paper[units[i]]], float(scores[i]),
                          int(best[i])) for i in top if np.isfinite(scores[i])]


def _best_windows(window_scores: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per group of consecutive windows (sizes `counts`): the best score and its window index."""
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    best = np.maximum.reduceat(window_scores, starts)
    if (counts == 1).all():
        return best, np.zeros(len(counts), dtype=np.int64)
    # the first window reaching its unit's maximum, as an offset within the unit
    idx = np.flatnonzero(window_scores == np.repeat(best, counts))
    first = np.full(len(counts), len(window_scores), dtype=np.int64)
    np.minimum.at(first, np.repeat(np.arange(len(counts)), counts)[idx], idx)
    return best, first - starts


def _exact(snap: Snapshot, q: np.ndarray, mask: np.ndarray | None):
    """Every window scored: (units, best scores, best window per unit)."""
    best, window = _best_windows(snap.vectors @ q, snap.counts)
    units = np.arange(snap.units)
    if mask is not None:
        units, best, window = units[mask], best[mask], window[mask]
    return units, best, window


def _shortlisted(snap: Snapshot, q: np.ndarray, mask: np.ndarray | None, size: int, rescore: int):
    """The nearest clusters of unit means (or, without clusters, sign codes) pick `size` units, their
    int8 means the best `rescore` of those, whose windows are then scored exactly: (units, best
    scores, best window per unit)."""
    assert snap.codes is not None and snap.means8 is not None and snap.mean_scale is not None
    if snap.clusters is not None:
        picked = clusters.shortlist(snap.clusters, q, size, mask)
    else:
        picked = shortlist(hamming(snap.codes, pack_signs(q[None, :])[0]), size, mask)
    if len(picked) > rescore:  # in row order, the int8 rows are gathered in file order
        estimate = scalar.scores(snap.means8, snap.mean_scale, picked, q)
        picked = picked[np.argpartition(-estimate, rescore - 1)[:rescore]]
    units = np.sort(picked)
    if not len(units):
        return units, np.zeros(0, np.float32), np.zeros(0, np.int64)
    best, window = _best_windows(snap.windows_of(units) @ q, snap.counts[units])
    return units, best, window
