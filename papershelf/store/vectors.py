"""Embedding spaces, vectors and per-paper build state in the SQLite library.

A *space* is one fingerprint (provider + model + dimension + text format +
policy version); vectors belong to a space.  `embed_state` records, per paper
and space, the unit hashes and vector counts a build wrote.  `PENDING_SQL`
compares that record with the paper's manifest and the vectors actually
stored: it is the one pending predicate that build, status and verify share.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from contextlib import AbstractContextManager, contextmanager

import numpy as np

from ..errors import BuildLocked
from ..models import COLLECTIONS, UNIT_KINDS, CollectionStatus, Filters, Space, SpaceCheck, VectorHit, VectorRow
from ..system import pid_alive
from ..text import batched
from .common import pending_sql, year_bounds
from .paper_fields import author_sql
from .vector_index import VectorIndex

PENDING_SQL = pending_sql(":space")


class VectorTables:
    """Mixin for SQLiteStore: everything the embedding build and vector search store.

    Vector search runs here, in the backend: exact cosine with NumPy over a cached,
    normalized matrix of the space's windows (`vector_index.py`).
    """

    db: sqlite3.Connection
    _lock: threading.RLock
    _vector_index: VectorIndex | None = None

    # Provided by SQLiteStore, whose connection these tables share.
    def query(self, sql: str, params=()) -> list[sqlite3.Row]:
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def vector_search(self, space: Space, query: np.ndarray, depth: int, filters: Filters) -> list[VectorHit]:
        if self._vector_index is None:
            self._vector_index = VectorIndex(self)
        return self._vector_index.search(space, query, depth, filters)

    # -- spaces ------------------------------------------------------------------

    def ensure_space(self, fingerprint: str, provider: str, model: str, dimension: int,
                     text_format: str, policy_version: int, options: dict | None = None) -> Space:
        with self.transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO spaces(fingerprint, provider, model, dimension, text_format, "
                "policy_version, options, created_at) VALUES (?,?,?,?,?,?,?,?)",
                (fingerprint, provider, model, dimension, text_format, policy_version,
                 json.dumps(options or {}, sort_keys=True), time.time()))
        rows = self.query("SELECT * FROM spaces WHERE fingerprint=?", (fingerprint,))
        return Space.from_row(dict(rows[0]))

    def get_space(self, space_id: int) -> Space | None:
        rows = self.query("SELECT * FROM spaces WHERE id=?", (space_id,))
        return Space.from_row(dict(rows[0])) if rows else None

    def spaces(self) -> list[Space]:
        return [Space.from_row(dict(r)) for r in self.query("SELECT * FROM spaces ORDER BY id")]

    def active_space(self) -> Space | None:
        """The space search answers from: the most recently completed one."""
        rows = self.query("SELECT * FROM spaces WHERE completed_at IS NOT NULL "
                          "ORDER BY completed_at DESC, id DESC LIMIT 1")
        return Space.from_row(dict(rows[0])) if rows else None

    def mark_complete(self, space_id: int) -> bool:
        """Mark a space complete (and so active) when nothing is pending or failed in it."""
        if self.pending(space_id) or self.embed_failures(space_id):
            return False
        with self.transaction() as db:
            db.execute("UPDATE spaces SET completed_at=? WHERE id=?", (time.time(), space_id))
        return True

    def _generation(self, space_id: int) -> int:
        """Moves with every vector write in the space, in any process: the vector cache's clock."""
        rows = self.query("SELECT generation FROM spaces WHERE id=?", (space_id,))
        return rows[0][0] if rows else -1

    # -- the pending predicate ---------------------------------------------------------

    def pending(self, space_id: int, paper_ids: list[str] | None = None) -> list[tuple[str, str]]:
        """(paper_id, reason) for every pending paper; reason is new, changed or damaged."""
        params: dict = {"space": space_id}
        papers = ""
        if paper_ids is not None:
            names = [f":p{i}" for i in range(len(paper_ids))]
            papers = f"m.paper_id IN ({','.join(names) or 'NULL'}) AND "
            params.update({f"p{i}": p for i, p in enumerate(paper_ids)})
        rows = self.query(PENDING_SQL.format(papers=papers), params)
        return [(r[0], r[1]) for r in rows]

    def collection_status(self, space_id: int,
                          pending: list[tuple[str, str]] | None = None) -> dict[str, CollectionStatus]:
        """Per collection: vectors stored, vectors a complete build holds, pending papers.

        Pass `pending` when the caller already evaluated the predicate for this space.
        """
        stored = {r[0]: r[1] for r in self.query(
            "SELECT collection, count(*) FROM vectors WHERE space_id=? GROUP BY collection", (space_id,))}
        expected = self.query("SELECT coalesce(sum(body_indexable),0), coalesce(sum(object_indexable),0), "
                              "coalesce(sum(chunk_indexable),0) FROM manifests")[0]
        pending_ids = [p for p, _ in (self.pending(space_id) if pending is None else pending)]
        per: dict[str, int] = {c: 0 for c in COLLECTIONS}
        if pending_ids:
            live: dict[str, set[str]] = {}
            for r in self.query("SELECT paper_id, collection FROM vectors WHERE space_id=? "
                                "GROUP BY paper_id, collection", (space_id,)):
                live.setdefault(r[0], set()).add(r[1])
            for part in batched(pending_ids, 500):
                for r in self.query("SELECT paper_id, body_indexable, object_indexable, chunk_indexable "
                                    f"FROM manifests WHERE paper_id IN ({','.join('?' * len(part))})", part):
                    for n, c in enumerate(COLLECTIONS):
                        if r[n + 1] > 0 or c in live.get(r[0], ()):
                            per[c] += 1
        failed: dict[str, int] = {c: 0 for c in COLLECTIONS}
        for r in self.query(
                "SELECT m.body_indexable, m.object_indexable, m.chunk_indexable FROM embed_failures f "
                "JOIN manifests m ON m.paper_id = f.paper_id WHERE f.space_id=?", (space_id,)):
            for n, c in enumerate(COLLECTIONS):
                failed[c] += r[n] > 0
        return {c: CollectionStatus(stored.get(c, 0), expected[n], per[c], failed[c])
                for n, c in enumerate(COLLECTIONS)}

    # -- vectors -------------------------------------------------------------------

    def _delete_vectors(self, db: sqlite3.Connection, paper_id: str, space_id: int | None = None) -> None:
        where, params = ("paper_id=?", [paper_id]) if space_id is None else \
            ("paper_id=? AND space_id=?", [paper_id, space_id])
        for table in ("vectors", "embed_state", "embed_failures"):
            db.execute(f"DELETE FROM {table} WHERE {where}", params)
        if space_id is None:
            db.execute("UPDATE spaces SET generation = generation + 1")
        else:
            db.execute("UPDATE spaces SET generation = generation + 1 WHERE id=?", (space_id,))

    def stored_vectors(self, space_id: int, paper_id: str) -> dict[str, tuple[str, bytes]]:
        """unit_id -> (unit_hash, vector blob) for a paper: what a rebuild may reuse."""
        return {r[0]: (r[1], r[2]) for r in self.query(
            "SELECT unit_id, unit_hash, vector FROM vectors WHERE space_id=? AND paper_id=?",
            (space_id, paper_id))}

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

    def record_embed_failure(self, space_id: int, paper_id: str, reason: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO embed_failures VALUES (?,?,?,?)",
                       (space_id, paper_id, reason, time.time()))

    def embed_failures(self, space_id: int) -> list[dict]:
        return [dict(r) for r in self.query(
            "SELECT paper_id, reason, failed_at FROM embed_failures WHERE space_id=? ORDER BY paper_id",
            (space_id,))]

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
        """Papers passing the year and label filters (None: those filters are off), read now, so a
        changed year or tag counts at once even if the paper's vectors did not change."""
        years = year_bounds(filters)
        if years is None and not filters.has_labels and not filters.author:
            return None
        where = "year BETWEEN ? AND ?" if years else "1"
        params: list[object] = list(years or ())
        if filters.author:
            sql, author_params = author_sql(filters.author, "?", postgres=False)
            where += f" AND id IN ({sql})"
            params += author_params
        ids = {r[0] for r in self.query(f"SELECT id FROM papers WHERE {where}", params)}
        if filters.has_labels:
            ids &= set(self.labelled_paper_ids(filters))
        return ids

    def labelled_paper_ids(self, filters: Filters) -> list[str]:
        raise NotImplementedError

    def library_id(self) -> str:
        """A random id made once per library file: derived files name it, so a new library at
        the same path never reads an old library's files."""
        value = self.get_setting("library.id")
        if value is None:
            with self.transaction() as db:
                db.execute("INSERT OR IGNORE INTO settings(key, value) VALUES ('library.id', ?)", (uuid.uuid4().hex,))
            value = self.get_setting("library.id")
        return value or ""

    def get_setting(self, key: str, default: str | None = None) -> str | None:
        raise NotImplementedError

    # -- verification -------------------------------------------------------------------

    def verify_space(self, space: Space) -> SpaceCheck:
        """Check that what the space claims is true, unit by unit.

        For every paper the pending predicate calls complete, each indexable unit
        must have exactly one vector row (one or more windows of the space's
        dimension) whose unit hash is the unit's current content hash, and no
        vector may point at a unit that no longer exists.
        """
        units_sql = " UNION ALL ".join(f"SELECT id, paper_id, content_hash FROM {k.table} WHERE indexable=1"
                                       for k in UNIT_KINDS)
        space_id, dimension = space.id, space.dimension
        pending = {p for p, _ in self.pending(space_id)}
        units = {r[0]: (r[1], r[2]) for r in self.query(units_sql)}
        vectors = self.query("SELECT unit_id, paper_id, unit_hash, length(vector) FROM vectors WHERE space_id=?",
                             (space_id,))
        stale, orphans, bad_size, seen = [], [], [], set()
        for unit_id, paper_id, unit_hash, nbytes in vectors:
            seen.add(unit_id)
            if not nbytes or nbytes % (dimension * 4):
                bad_size.append(unit_id)
            if unit_id not in units:
                if paper_id not in pending:
                    orphans.append(unit_id)
            elif units[unit_id][1] != unit_hash and paper_id not in pending:
                stale.append(unit_id)
        complete_papers = {p for _, (p, _) in units.items()} - pending
        missing = [u for u, (p, _) in units.items() if p in complete_papers and u not in seen]
        return SpaceCheck(len(pending), stale[:50], orphans[:50], bad_size[:50], missing[:50], space)

    # -- the build lock ------------------------------------------------------------------

    def claim(self, space_id: int, paper_id: str, force: bool = False) -> bool:
        """Every paper is this builder's: the build lock already keeps other builders out."""
        return True

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

    def lock_holder(self, name: str = "embed") -> dict | None:
        rows = self.query("SELECT pid, host, started_at FROM build_lock WHERE name=?", (name,))
        if not rows:
            return None
        d = dict(rows[0])
        d["alive"] = d["host"] != socket.gethostname() or pid_alive(d["pid"])
        return d
