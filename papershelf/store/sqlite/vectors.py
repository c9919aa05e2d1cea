"""Vectors and the build lock in the SQLite library: what is SQLite's own of the embedding state.

A *space* is one fingerprint (provider + model + dimension + text format +
policy version); vectors belong to a space.  `embed_state` records, per paper
and space, the unit hashes and vector counts a build wrote; the pending
predicate (`store/common.py: pending_sql`) compares that record with the paper's
manifest and the vectors actually stored.  Spaces, the predicate, status and
failures are SQL both backends share (`store/sql/embeddings.py`); here a unit's
windows are one float32 blob, searched by NumPy (`vector_index.py`), and one
build lock keeps a second builder out.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np

from ...errors import BuildLocked
from ...models import UNIT_KINDS, Filters, LockHolder, Space, StoredVector, UnitMean, VectorHit, VectorRow
from ...system import pid_alive
from ..common import year_bounds
from ..sql import SqlEmbeddings
from .vector_index import VectorIndex


class VectorTables(SqlEmbeddings):
    """Mixin for SQLiteStore: everything the embedding build and vector search store.

    Vector search runs here, in the backend: exact cosine with NumPy over a cached,
    normalized matrix of the space's windows (`vector_index.py`).
    """

    db: sqlite3.Connection
    _lock: threading.RLock
    _vector_index: VectorIndex | None = None

    if TYPE_CHECKING:  # SqlPapers'
        def resolve_filters(self, filters: Filters) -> Filters: ...
        def get_setting(self, key: str, default: str | None = None) -> str | None: ...

    def vector_search(self, space: Space, query: np.ndarray, depth: int, filters: Filters) -> list[VectorHit]:
        if self._vector_index is None:
            self._vector_index = VectorIndex(self)
        return self._vector_index.search(space, query, depth, filters)

    # -- spaces ------------------------------------------------------------------

    def _generation(self, space_id: int) -> int:
        """Moves with every vector write in the space, in any process: the vector cache's clock."""
        rows = self.query("SELECT generation FROM spaces WHERE id=?", (space_id,))
        return rows[0][0] if rows else -1

    # -- vectors -------------------------------------------------------------------

    def stored_vectors(self, space_id: int, paper_id: str) -> dict[str, StoredVector]:
        """unit_id -> (unit_hash, vector blob) for a paper: what a rebuild may reuse."""
        return {r[0]: StoredVector(r[1], r[2]) for r in self.query(
            "SELECT unit_id, unit_hash, vector FROM vectors WHERE space_id=? AND paper_id=?",
            (space_id, paper_id))}

    def unit_means(self, space_id: int, paper_ids: list[str] | None = None) -> list[UnitMean]:
        """Each unit's mean window (windows normalized first, as PostgreSQL stores them), with where it sits:
        of the given papers, or of every paper in the space (None)."""
        out: list[UnitMean] = []
        dim = self.query("SELECT dimension FROM spaces WHERE id=?", (space_id,))
        if not dim:
            return out
        sql = "SELECT paper_id, unit_id, section_path, object_kind, vector FROM vectors WHERE space_id=?"
        chunks = [None] if paper_ids is None else [paper_ids[i:i + 500] for i in range(0, len(paper_ids), 500)]
        for chunk in chunks:
            where = "" if chunk is None else f" AND paper_id IN ({','.join('?' * len(chunk))})"
            for r in self.query(sql + where, (space_id, *(chunk or ()))):
                w = np.frombuffer(r[4], dtype=np.float32).reshape(-1, dim[0][0])
                norms = np.linalg.norm(w, axis=1, keepdims=True)
                out.append(UnitMean(r[0], r[1], r[2], r[3], (w / np.where(norms > 0, norms, 1)).mean(axis=0)))
        return out

    def write_paper_vectors(self, space_id: int, paper_id: str, rows: list[VectorRow], hashes: dict[str, str],
                            expected: dict[str, int]) -> bool:
        """Replace all of a paper's vectors in a space, with its build state, in one transaction.

        `hashes` (per kind) are the manifest hashes the vectors were built from; `expected`
        the vectors per kind a complete build of the paper holds.  If the
        paper was removed meanwhile nothing is written (returns False); if it
        changed meanwhile the state records the old hashes and it stays pending.
        """
        with self.transaction() as db:
            if not db.execute("SELECT 1 FROM manifests WHERE paper_id=?", (paper_id,)).fetchone():
                return False
            self._delete_vectors(db, paper_id, space_id)
            db.executemany(
                "INSERT INTO vectors(space_id, collection, unit_id, paper_id, unit_kind, section_path, "
                "object_kind, object_label, unit_hash, kind_hash, policy_version, token_estimate, vector) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(space_id, r.collection, r.unit_id, paper_id, r.unit_kind, r.section_path,
                  r.object_kind, r.object_label, r.unit_hash, r.kind_hash, r.policy_version,
                  r.token_estimate, r.vector) for r in rows])
            db.execute(
                "INSERT INTO embed_state VALUES (?,?,?,?,?,?,?,?,?)",
                (space_id, paper_id, *(hashes[k.name] for k in UNIT_KINDS), *(expected[k.name] for k in UNIT_KINDS),
                 time.time()))
        return True

    def vector_rows(self, space_id: int, paper_id: str) -> list[VectorRow]:
        """A paper's vector rows in a space, their blobs' sizes instead of the blobs."""
        return [VectorRow(**dict(r)) for r in self.query(
            "SELECT collection, unit_id, unit_kind, section_path, object_kind, object_label, unit_hash, "
            "kind_hash, policy_version, token_estimate, length(vector) AS nbytes FROM vectors "
            "WHERE space_id=? AND paper_id=? ORDER BY collection, unit_id", (space_id, paper_id))]

    @contextmanager
    def _vector_rows_snapshot(self, space_id: int):
        """(generation, units, windows, rows) of a space, all read in one transaction so they agree
        even while another process writes; rows stream as (collection, unit id, paper id, object
        kind, blob)."""
        with self._lock:
            self.db.execute("BEGIN")
            try:
                generation = self._generation(space_id)
                units, nbytes, dim = self.db.execute(
                    "SELECT count(*), coalesce(sum(length(vector)), 0), (SELECT dimension FROM spaces WHERE id=?) "
                    "FROM vectors WHERE space_id=?", (space_id, space_id)).fetchone()
                rows = self.db.execute("SELECT collection, unit_id, paper_id, object_kind, vector FROM vectors "
                                       "WHERE space_id=? ORDER BY rowid", (space_id,))
                yield generation, units, nbytes // (4 * (dim or 1)), rows
            finally:
                self.db.execute("COMMIT")

    def _paper_ids_where(self, filters: Filters) -> set[str] | None:
        """Papers passing the paper-level filters (None: they are off), read now, so a changed year
        or tag counts at once even if the paper's vectors did not change: the same plan as the
        SQL's (filter_plan.py)."""
        filters = self.resolve_filters(filters)
        years = year_bounds(filters)
        ids = None if years is None else {r[0] for r in self.query("SELECT id FROM papers WHERE year BETWEEN ? AND ?",
                                                                  list(years))}
        for scope in (filters.paper_scope, filters.citation_scope):
            if scope is not None:
                ids = set(scope) if ids is None else ids & set(scope)
        return ids

    def library_id(self) -> str:
        """A random id made once per library file: derived files name it, so a new library at
        the same path never reads an old library's files."""
        value = self.get_setting("library.id")
        if value is None:
            with self.transaction() as db:
                db.execute("INSERT OR IGNORE INTO settings(key, value) VALUES ('library.id', ?)", (uuid.uuid4().hex,))
            value = self.get_setting("library.id")
        return value or ""

    # -- verification -------------------------------------------------------------------

    def _vector_checks(self, space: Space) -> list[tuple[str, str, str, bool]]:
        nbytes = space.dimension * 4
        return [(r[0], r[1], r[2], bool(r[3]) and r[3] % nbytes == 0) for r in self.query(
            "SELECT unit_id, paper_id, unit_hash, length(vector) FROM vectors WHERE space_id=?", (space.id,))]

    # -- the build lock ------------------------------------------------------------------

    def claim(self, space_id: int, paper_id: str, force: bool = False) -> bool:
        """Every paper is this builder's: the build lock already keeps other builders out."""
        return True

    def live_claims(self, space_id: int, paper_ids: list[str]) -> dict[str, bool]:
        return {}  # no other builder can hold one

    def acquire_lock(self, name: str = "embed") -> None:
        """Take the build lock, or raise BuildLocked naming the live holder.

        A lock left by a dead process on this host is taken over.
        """
        host = socket.gethostname()
        with self.transaction() as db:
            row = db.execute("SELECT pid, host, started_at FROM build_lock WHERE name=?", (name,)).fetchone()
            held_by_other = row is not None and row[0] != os.getpid()
            if held_by_other and (row[1] != host or pid_alive(row[0])):
                raise BuildLocked(row[0], row[1], row[2])
            db.execute("INSERT OR REPLACE INTO build_lock VALUES (?,?,?,?)", (name, os.getpid(), host, time.time()))

    def release_lock(self, name: str = "embed") -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM build_lock WHERE name=? AND pid=?", (name, os.getpid()))

    def lock_holder(self, name: str = "embed") -> LockHolder | None:
        rows = self.query("SELECT pid, host, started_at FROM build_lock WHERE name=?", (name,))
        if not rows:
            return None
        r = rows[0]
        alive = r["host"] != socket.gethostname() or pid_alive(r["pid"])
        return LockHolder(r["pid"], r["host"], r["started_at"], alive)
