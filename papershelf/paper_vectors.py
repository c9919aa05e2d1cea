"""Paper-level vectors, derived from the units' vectors: what "papers like this one" searches.

A paper's meaning is the mean of its units' mean windows, over the whole paper and over each of its largest
top-level sections (`SECTIONS`), so a hit can say "similar Methods (0.71)".  Ranking 10,000 papers is then
one product with 10,000 paper rows and one with their ~50,000 section rows — a few milliseconds — instead
of several searches of 300,000 units (bench/related_scale.py).

The vectors are derived and disposable: held in memory per space, and checked against the library before
each use (`Store.vector_stamps` moves for a paper whenever its vectors are written or removed), so a paper
that changed is averaged again, alone, and a removed one dropped at once; nothing here is trusted over the
library or written to it.  A SQLite library of many papers also keeps them in a file beside it
(``library.db.papers-<space>.npz``, named by the library's id, written whole and renamed into place), so a
new process reads it and averages only the papers whose stamps differ, instead of every vector again.
Deleting the file loses nothing.
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .errors import BadArgument, VectorUnavailable
from .models import Query, Space, UnitMean
from .store import Store

FILE_MIN_PAPERS = 500  # libraries at least this large keep their paper vectors in a file for the next process
SECTIONS = 5  # section vectors per paper besides its whole-paper mean: its largest top-level sections
_NUMBER = re.compile(r"^\s*(?:[0-9IVX]+(?:\.[0-9]+)*\.?|[A-Z]\.)\s+")


def section_label(path: str | None, object_kind: str | None = None) -> str:
    """The top-level section a unit sits in, its number dropped ("2. Methods > 2.1 Data" -> "Methods")."""
    if object_kind:
        return object_kind.capitalize() + "s"
    top = (path or "").split(" > ")[0].strip()
    return _NUMBER.sub("", top) or "text"


def unit_length(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return (v / n if n > 0 else v).astype(np.float32)


@dataclass
class PaperVector:
    """One paper's whole-paper vector and its largest sections' (name, vector), best first."""

    whole: np.ndarray
    sections: list[tuple[str, np.ndarray]]


def paper_vector(units: list[UnitMean]) -> PaperVector:
    groups: dict[str, list[np.ndarray]] = {}
    for u in units:
        groups.setdefault(section_label(u.section_path, u.object_kind), []).append(u.mean)
    whole = unit_length(np.mean([v for vs in groups.values() for v in vs], axis=0))
    largest = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:SECTIONS]
    sections = [(name, unit_length(np.mean(vs, axis=0))) for name, vs in largest]
    return PaperVector(whole, sections if len(groups) > 1 else [(largest[0][0], whole)])


@dataclass
class PaperMatrix:
    """Every paper's vectors laid out for one product each: `whole` (papers x dim) and `sections` (rows x dim,
    a paper's rows consecutive from `starts[i]`), with the section names for the hits' words."""

    ids: list[str] = field(default_factory=list)
    whole: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    sections: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    starts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    names: list[str] = field(default_factory=list)

    @property
    def counts(self) -> np.ndarray:
        """Section rows per paper."""
        return np.diff(np.append(self.starts, len(self.names)))

    @property
    def id_array(self) -> np.ndarray:
        """The ids as a NumPy array, for masks (made once)."""
        if getattr(self, "_id_array", None) is None:
            self._id_array = np.array(self.ids, dtype=object)
        return self._id_array

    @classmethod
    def of(cls, papers: dict[str, PaperVector]) -> PaperMatrix:
        ids = sorted(papers)
        if not ids:
            return cls()
        counts = np.array([len(papers[p].sections) for p in ids])
        return cls(ids, np.stack([papers[p].whole for p in ids]),
                   np.stack([v for p in ids for _, v in papers[p].sections]),
                   np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64),
                   [n for p in ids for n, _ in papers[p].sections])


def _file(store: Store, space: Space) -> str | None:
    """Where a SQLite library keeps a space's paper vectors (None: a server library, or no id to name)."""
    path, library_id = getattr(store, "path", None), getattr(store, "library_id", None)
    try:
        return f"{path}.papers-{space.id}-{library_id()}.npz" if path and library_id else None
    except Exception:  # noqa: BLE001 - a read-only library: no file, averaged in memory
        return None


def _load(path: str) -> tuple[dict[str, PaperVector], dict[str, float]]:
    """The paper vectors and their stamps as a file kept them ({} for a missing or unreadable file)."""
    try:
        with np.load(path, allow_pickle=False) as f:
            ids, stamps, starts = list(f["ids"]), f["stamps"], f["starts"]
            whole, sections, names = f["whole"], f["sections"], list(f["names"])
    except (OSError, KeyError, ValueError):
        return {}, {}
    ends = list(starts[1:]) + [len(names)]
    papers = {p: PaperVector(whole[i], [(str(names[r]), sections[r]) for r in range(starts[i], ends[i])])
              for i, p in enumerate(ids)}
    return papers, {str(p): float(t) for p, t in zip(ids, stamps, strict=True)}


def _save(path: str, m: PaperMatrix, stamps: dict[str, float]) -> None:
    """Write the file whole under a temporary name, then rename it into place (never half a file)."""
    folder = os.path.dirname(path) or "."
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".npz")
        with os.fdopen(fd, "wb") as out:
            np.savez(out, ids=np.array(m.ids), stamps=np.array([stamps[p] for p in m.ids]), starts=m.starts,
                     whole=m.whole, sections=m.sections, names=np.array(m.names))
        os.replace(tmp, path)
    except OSError:  # a full or read-only disk: the vectors stay in memory
        return


class PaperVectors:
    """The paper vectors of one library, per space, kept in step with it (thread-safe: a refresh replaces
    the matrix whole, under a lock)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._papers: dict[int, dict[str, PaperVector]] = {}
        self._stamps: dict[int, dict[str, float]] = {}
        self._matrix: dict[int, PaperMatrix] = {}
        self._generation: dict[int, int] = {}

    def current(self, space: Space) -> tuple[dict[str, PaperVector], PaperMatrix]:
        """The space's paper vectors as the library holds them now: changed papers averaged again,
        removed ones dropped."""
        generation = self.store.vector_generation(space.id)
        with self._lock:
            if self._generation.get(space.id) == generation and space.id in self._matrix:
                return self._papers[space.id], self._matrix[space.id]  # nothing written since: no paper to check
        stamps = self.store.vector_stamps(space.id)
        path = _file(self.store, space) if len(stamps) >= FILE_MIN_PAPERS else None
        with self._lock:
            if space.id not in self._papers and path:
                self._papers[space.id], self._stamps[space.id] = _load(path)
            papers = self._papers.setdefault(space.id, {})
            known = self._stamps.setdefault(space.id, {})
            if stamps == known and space.id in self._matrix:
                self._generation[space.id] = generation
                return papers, self._matrix[space.id]
            for p in set(known) - set(stamps):
                papers.pop(p, None)
            changed = [p for p, t in stamps.items() if known.get(p) != t]
            by_paper: dict[str, list[UnitMean]] = {}
            every = len(changed) == len(stamps)
            for u in self.store.unit_means(space.id, None if every else changed) if changed else []:
                by_paper.setdefault(u.paper_id, []).append(u)
            for p in changed:
                if p in by_paper:
                    papers[p] = paper_vector(by_paper[p])
                else:
                    papers.pop(p, None)  # a paper with no vector rows (nothing to embed)
            self._stamps[space.id] = {p: t for p, t in stamps.items() if p in papers}
            self._matrix[space.id] = PaperMatrix.of(papers)
            self._generation[space.id] = generation
            if path and changed:
                _save(path, self._matrix[space.id], self._stamps[space.id])
            return papers, self._matrix[space.id]

    def of(self, space: Space, paper_id: str) -> PaperVector | None:
        return self.current(space)[0].get(paper_id)


def unit_vector(store: Store, space: Space, unit_id: str) -> np.ndarray | None:
    """A unit's own vector: the mean of its windows (normalized first, as every backend reads them)."""
    unit = store.get_units([unit_id]).get(unit_id)
    means = store.unit_means(space.id, [unit.paper_id]) if unit else []
    return next((unit_length(u.mean) for u in means if u.unit_id == unit_id), None)


def query_vector(store: Store, vectors: PaperVectors, space: Space, query: Query,
                 text_vector: Callable[[Space, str], np.ndarray]) -> np.ndarray:
    """The vector a query ranks by: its words embedded (unless they carry their vector), its vector, a
    paper's whole-paper vector or a unit's own, or the normalized mean of its parts' for a query of several;
    VectorUnavailable when a paper or unit has none in this space (not embedded yet)."""
    if query.kind == "several":
        mean = np.mean([query_vector(store, vectors, space, p, text_vector) for p in query.parts], axis=0)
        return unit_length(mean.astype(np.float32))
    if query.kind == "text" and not query.vector:
        return np.asarray(text_vector(space, query.text), dtype=np.float32)
    if query.vector:  # a vector, or words already encoded (Query.encoded)
        if len(query.vector) != space.dimension:
            raise BadArgument(f"a query vector has {space.dimension} dimensions in this library, "
                              f"not {len(query.vector)}")
        return np.asarray(query.vector, dtype=np.float32)
    found = vectors.of(space, query.text) if query.kind == "paper" else unit_vector(store, space, query.text)
    if found is None:
        raise VectorUnavailable(f"{query.kind} {query.text} has no vectors yet: run `papershelf embed`")
    return found.whole if isinstance(found, PaperVector) else found
