"""Spaces, vectors, build state, claims and vector search in PostgreSQL + pgvector
(a mixin of PostgresStore).

Vectors are stored one row per window, normalized at write, so cosine is the
inner product and the best window per unit, the filters and top-k are computed
in SQL.  Small spaces are scanned exactly; a space with at least
`hnsw_threshold` windows gets a partial HNSW index (``embedding::vector(dim)``,
inner product) when a build completes it.  pgvector 0.6 filters HNSW candidates
after the index scan, so a filtered HNSW query that comes back short falls back
to the exact scan: a filtered search never misses matches that exist.

Several builders may work on one library at once (`concurrent_builds`): each
claims a paper (a row in `embed_claims` with a lease) before encoding it, under
a per-paper advisory lock that `write_paper_vectors` takes too; a builder only
writes a paper it still holds, and a claim is only granted while the paper is
pending.  So a paper is never written twice, and a crashed builder's papers
are taken over — at once on its own host (its pid is gone), elsewhere when
the lease runs out.
"""

from __future__ import annotations

import hashlib
import os
import socket
import time
import uuid
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

import numpy as np

from ...models import UNIT_KINDS, Filters, LockHolder, Space, StoredVector, UnitMean, VectorHit, VectorRow
from ...models import unit_kind as kind_named
from ...system import pid_alive
from ..sql import SqlEmbeddings

_VECTOR_COLUMNS = ["space_id", "collection", "unit_id", "paper_id", "unit_kind", "section_path", "object_kind",
                   "object_label", "unit_hash", "kind_hash", "policy_version", "token_estimate", "windows"]


def paper_key(space_id: int, paper_id: str) -> int:
    """A stable signed 64-bit advisory lock key for one paper in one space."""
    digest = hashlib.blake2b(f"{space_id}\x00{paper_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def normalized_windows(blob: bytes, dimension: int) -> np.ndarray:
    """A unit's windows (float32, back to back) as unit-length rows; a zero window stays zero."""
    m = np.frombuffer(blob, dtype=np.float32).reshape(-1, dimension).copy()
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return m / norms


class PgVectors(SqlEmbeddings):
    """Everything the embedding build and vector search store, for PostgresStore."""

    if TYPE_CHECKING:  # SqlPapers' and PostgresStore's
        def _filter_sql(self, filters: Filters, alias: str = "d") -> tuple[str, list]: ...
        def reading(self) -> AbstractContextManager: ...

    concurrent_builds = True  # several `embed` runs may share this library
    hnsw_threshold = int(os.environ.get("PAPERSHELF_PG_HNSW_THRESHOLD", "50000"))  # windows in a space
    ef_search = int(os.environ.get("PAPERSHELF_PG_EF_SEARCH", "200"))
    # the graph's density: at 1 M clustered 384-d windows m 16 / ef_construction 64 stopped at recall 0.92-0.95
    # however far a search looked (BENCHMARKS.md), so the default graph is denser
    hnsw_m = int(os.environ.get("PAPERSHELF_PG_HNSW_M", "24"))
    hnsw_ef_construction = int(os.environ.get("PAPERSHELF_PG_HNSW_EF_CONSTRUCTION", "128"))
    lease_seconds = float(os.environ.get("PAPERSHELF_CLAIM_LEASE", "900"))

    def _init_builder(self) -> None:
        self.host = socket.gethostname()
        self.token = f"{self.host}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self._dimensions: dict[int, int] = {}

    # -- spaces ------------------------------------------------------------------

    def _dimension(self, space_id: int) -> int:
        if space_id not in self._dimensions:
            self._dimensions[space_id] = self.query("SELECT dimension FROM spaces WHERE id=%s",
                                                    (space_id,))[0]["dimension"]
        return self._dimensions[space_id]

    def window_count(self, space_id: int) -> int:
        return self.query("SELECT count(*) AS n FROM vector_windows WHERE space_id=%s", (space_id,))[0]["n"]

    def _before_complete(self, space_id: int) -> None:
        """A large space gets its HNSW index first, so search on it is fast from the start."""
        self.ensure_vector_index(space_id)

    def ensure_vector_index(self, space_id: int, force: bool = False) -> bool:
        """Build the space's HNSW index when it holds `hnsw_threshold` windows or more (or `force`).
        Returns whether the space has one.  Built once; pgvector maintains it on later writes."""
        space = self.query("SELECT dimension, hnsw FROM spaces WHERE id=%s", (space_id,))[0]
        if space["hnsw"]:
            return True
        if not force and self.window_count(space_id) < self.hnsw_threshold:
            return False
        sid, dim = int(space_id), int(space["dimension"])
        with self.transaction() as db:
            # at least 2 GB for the graph (a server configured with more keeps its own)
            db.execute("SELECT set_config('maintenance_work_mem', '2GB', true) WHERE "
                       "pg_size_bytes(current_setting('maintenance_work_mem')) < pg_size_bytes('2GB')")
            db.execute(f"CREATE INDEX IF NOT EXISTS vector_windows_hnsw_{sid} ON vector_windows USING hnsw "
                       f"((embedding::vector({dim})) vector_ip_ops) WITH (m = {int(self.hnsw_m)}, "
                       f"ef_construction = {int(self.hnsw_ef_construction)}) "
                       f"WHERE space_id = {sid}")
            db.execute("UPDATE spaces SET hnsw = true WHERE id=%s", (sid,))
        return True

    # -- the pending predicate ---------------------------------------------------------

    # -- vectors -------------------------------------------------------------------

    def stored_vectors(self, space_id: int, paper_id: str) -> dict[str, StoredVector]:
        """unit_id -> (unit_hash, windows back to back as float32 bytes), as SQLite returns them."""
        parts: dict[str, list[np.ndarray]] = {}
        hashes: dict[str, str] = {}
        for r in self.query("SELECT v.unit_id, v.unit_hash, w.embedding FROM vectors v JOIN vector_windows w "
                            "ON w.space_id = v.space_id AND w.unit_id = v.unit_id "
                            "WHERE v.space_id=%s AND v.paper_id=%s ORDER BY v.unit_id, w.window_no",
                            (space_id, paper_id)):
            hashes[r["unit_id"]] = r["unit_hash"]
            parts.setdefault(r["unit_id"], []).append(np.asarray(r["embedding"].to_numpy(), dtype=np.float32))
        return {u: StoredVector(hashes[u], np.concatenate(v).astype(np.float32).tobytes()) for u, v in parts.items()}

    def unit_means(self, space_id: int, paper_ids: list[str] | None = None) -> list[UnitMean]:
        """Each unit's mean window (the stored windows are normalized), with where it sits: of the given
        papers, or of every paper in the space (None)."""
        where, params = ("", [space_id]) if paper_ids is None else (" AND v.paper_id = ANY(%s)", [space_id, paper_ids])
        rows = self.query("SELECT v.paper_id, v.unit_id, v.section_path, v.object_kind, avg(w.embedding) AS mean "
                          "FROM vectors v JOIN vector_windows w ON w.space_id = v.space_id AND w.unit_id = v.unit_id "
                          f"WHERE v.space_id=%s{where} GROUP BY v.paper_id, v.unit_id, v.section_path, v.object_kind",
                          params)
        return [UnitMean(r["paper_id"], r["unit_id"], r["section_path"], r["object_kind"],
                         np.asarray(r["mean"].to_numpy(), dtype=np.float32)) for r in rows]

    def _insert_vectors(self, db, space_id: int, paper_id: str, rows: list[VectorRow]) -> None:
        dim = self._dimension(space_id)
        units, windows = [], []
        for r in rows:
            assert r.vector is not None, "a vector row to write carries its vector"
            mat = normalized_windows(r.vector, dim)
            units.append((space_id, r.collection, r.unit_id, paper_id, r.unit_kind, r.section_path,
                          r.object_kind, r.object_label, r.unit_hash, r.kind_hash, r.policy_version,
                          r.token_estimate, len(mat)))
            source = kind_named(r.unit_kind).source
            windows += [(space_id, r.unit_id, i, paper_id, source, r.object_kind, vec) for i, vec in enumerate(mat)]
        with db.cursor() as cur:
            cur.executemany(f"INSERT INTO vectors({', '.join(_VECTOR_COLUMNS)}) "
                            f"VALUES ({', '.join(['%s'] * len(_VECTOR_COLUMNS))})", units)
            cur.executemany("INSERT INTO vector_windows(space_id, unit_id, window_no, paper_id, source, object_kind, "
                            "embedding) VALUES (%s,%s,%s,%s,%s,%s,%s)", windows)

    def write_paper_vectors(self, space_id: int, paper_id: str, rows: list[VectorRow], hashes: dict[str, str],
                            expected: dict[str, int]) -> bool:
        """Replace a paper's vectors in a space with its build state, in one transaction.

        Nothing is written (returns False) when the paper was removed meanwhile, or when
        another builder holds its claim (this builder's lease ran out and it was taken over).
        """
        self._dimension(space_id)  # cached before the pipeline, which cannot read results
        with self.transaction() as db:
            # One round trip for the checks, one pipeline for the writes: a build commits per paper,
            # and a busy server makes every round trip count.  No wait for the WAL flush either: a
            # server crash may lose the last papers' vectors, whole (state and vectors commit
            # together), and they are simply pending again, as with SQLite's WAL at synchronous=NORMAL.
            check = db.execute(
                "SELECT set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock(%s), "
                "EXISTS (SELECT 1 FROM manifests WHERE paper_id=%s) AS known, "
                "(SELECT token FROM embed_claims WHERE space_id=%s AND paper_id=%s) AS holder",
                (paper_key(space_id, paper_id), paper_id, space_id, paper_id)).fetchone()
            if not check["known"] or check["holder"] not in (None, self.token):
                return False
            with db.pipeline():
                self._delete_vectors(db, paper_id, space_id)
                self._insert_vectors(db, space_id, paper_id, rows)
                db.execute("INSERT INTO embed_state VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                           (space_id, paper_id, *(hashes[k.name] for k in UNIT_KINDS),
                            *(expected[k.name] for k in UNIT_KINDS), time.time()))
                db.execute("DELETE FROM embed_claims WHERE space_id=%s AND paper_id=%s", (space_id, paper_id))
        return True

    def vector_rows(self, space_id: int, paper_id: str) -> list[VectorRow]:
        """A paper's vector rows in a space, with the bytes their windows take instead of the windows."""
        rows = self.query(
            "SELECT v.collection, v.unit_id, v.unit_kind, v.section_path, v.object_kind, v.object_label, v.unit_hash, "
            "v.kind_hash, v.policy_version, v.token_estimate, "
            "(SELECT coalesce(sum(vector_dims(w.embedding)), 0) * 4 FROM vector_windows w "
            " WHERE w.space_id = v.space_id AND w.unit_id = v.unit_id) AS nbytes "
            "FROM vectors v WHERE v.space_id=%s AND v.paper_id=%s ORDER BY v.collection, v.unit_id COLLATE \"C\"",
            (space_id, paper_id))
        return [VectorRow(**{**r, "nbytes": int(r["nbytes"])}) for r in rows]

    # -- vector search -------------------------------------------------------------

    def vector_search(self, space: Space, query: np.ndarray, depth: int, filters: Filters) -> list[VectorHit]:
        """Top `depth` units by cosine, a unit scoring as its best window, filters applied in SQL."""
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        n = float(np.linalg.norm(q))
        if n == 0 or not np.isfinite(n) or len(q) != space.dimension:
            return []
        q = q / n
        hnsw = self.query("SELECT hnsw FROM spaces WHERE id=%s", (space.id,))
        if hnsw and hnsw[0]["hnsw"] and not filters.papers and filters.citation_scope is None:
            hits = self._hnsw_search(space, q, depth, filters)
            if len(hits) >= depth or (filters.is_empty() and hits):
                return hits
        return self._exact_search(space, q, depth, filters)

    @staticmethod
    def _hits(rows: list[dict], depth: int) -> list[VectorHit]:
        best: dict[str, VectorHit] = {}
        for r in rows:  # rows come best first: the first row of a unit is its best window
            if r["unit_id"] not in best:
                best[r["unit_id"]] = VectorHit(r["unit_id"], r["paper_id"], float(r["score"]), int(r["window_no"]))
        return sorted(best.values(), key=lambda h: -h.score)[:depth]

    def _exact_search(self, space: Space, q: np.ndarray, depth: int, filters: Filters) -> list[VectorHit]:
        where, params = self._filter_sql(filters, "w")
        sql = ("SELECT unit_id, paper_id, window_no, score FROM ("
               " SELECT DISTINCT ON (unit_id) unit_id, paper_id, window_no, -(embedding <#> %s) AS score"
               f" FROM vector_windows w WHERE space_id = {int(space.id)} AND vector_dims(embedding) = %s{where}"
               " ORDER BY unit_id, embedding <#> %s) best ORDER BY score DESC, unit_id LIMIT %s")
        return self._hits(self.query(sql, [q, space.dimension, *params, q, depth]), depth)

    def _hnsw_search(self, space: Space, q: np.ndarray, depth: int, filters: Filters) -> list[VectorHit]:
        """Approximate top windows from the space's HNSW index (a unit may have several windows,
        so twice `depth` windows are fetched), then the best window per unit."""
        where, params = self._filter_sql(filters, "w")
        dim, windows = int(space.dimension), depth * 2
        expr = f"embedding::vector({dim})"
        sql = (f"SELECT unit_id, paper_id, window_no, -({expr} <#> %s::vector({dim})) AS score "
               f"FROM vector_windows w WHERE space_id = {int(space.id)}{where} "
               f"ORDER BY {expr} <#> %s::vector({dim}) LIMIT %s")
        with self.reading() as db, db.transaction():
            db.execute(f"SET LOCAL hnsw.ef_search = {max(min(1000, self.ef_search), min(1000, windows))}")
            rows = db.execute(sql, [q, *params, q, windows]).fetchall()
        return self._hits(rows, depth)

    # -- verification -------------------------------------------------------------------

    def _vector_checks(self, space: Space) -> list[tuple[str, str, str, bool]]:
        """Each vector row with whether its windows are all there and all of the space's dimension."""
        rows = self.query(
            "SELECT v.unit_id, v.paper_id, v.unit_hash, v.windows, count(w.unit_id) AS n, "
            "coalesce(bool_and(vector_dims(w.embedding) = %s), false) AS dims_ok FROM vectors v "
            "LEFT JOIN vector_windows w ON w.space_id = v.space_id AND w.unit_id = v.unit_id "
            "WHERE v.space_id=%s GROUP BY v.unit_id, v.paper_id, v.unit_hash, v.windows",
            (space.dimension, space.id))
        return [(r["unit_id"], r["paper_id"], r["unit_hash"], bool(r["n"] and r["n"] == r["windows"] and r["dims_ok"]))
                for r in rows]

    # -- builders and claims ------------------------------------------------------------

    def acquire_lock(self, name: str = "embed") -> None:
        """Register this builder.  Never refuses: builders coordinate paper by paper (`claim`)."""
        with self.transaction() as db:
            for row in db.execute("SELECT token, pid, host FROM build_lock").fetchall():
                if row["host"] == self.host and not pid_alive(row["pid"]):
                    db.execute("DELETE FROM build_lock WHERE token=%s", (row["token"],))
            db.execute("INSERT INTO build_lock VALUES (%s,%s,%s,%s,%s) ON CONFLICT (token) DO NOTHING",
                       (self.token, name, os.getpid(), self.host, time.time()))

    def release_lock(self, name: str = "embed") -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM build_lock WHERE token=%s", (self.token,))
            db.execute("DELETE FROM embed_claims WHERE token=%s", (self.token,))

    def lock_holder(self, name: str = "embed") -> LockHolder | None:
        """A running builder (the oldest live one), if any."""
        for r in self.query("SELECT pid, host, started_at FROM build_lock WHERE name=%s ORDER BY started_at",
                            (name,)):
            if r["host"] != self.host or pid_alive(r["pid"]):
                return LockHolder(r["pid"], r["host"], r["started_at"], True)
        return None

    def live_claims(self, space_id: int, paper_ids: list[str]) -> dict[str, bool]:
        """The papers among `paper_ids` another builder holds a live claim on: True when that builder
        is another process on this host (its death is seen at once, so it is worth waiting for),
        False otherwise."""
        if not paper_ids:
            return {}
        now, out = time.time(), {}
        for r in self.query("SELECT paper_id, token, pid, host, expires_at FROM embed_claims WHERE space_id=%s "
                            "AND paper_id = ANY(%s)", (space_id, paper_ids)):
            if r["token"] == self.token or r["expires_at"] <= now:
                continue
            if r["host"] == self.host:
                if pid_alive(r["pid"]):  # worth waiting for, unless it is this very process
                    out[r["paper_id"]] = r["pid"] != os.getpid()
            else:
                out[r["paper_id"]] = False
        return out

    def claim(self, space_id: int, paper_id: str, force: bool = False) -> bool:
        """Take a paper to build: granted when nobody else holds a live claim on it and (unless
        `force`) it is still pending.  The claim lasts `lease_seconds`, or until written."""
        now = time.time()
        with self.transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(%s)", (paper_key(space_id, paper_id),))
            held = db.execute("SELECT token, pid, host, expires_at FROM embed_claims WHERE space_id=%s "
                              "AND paper_id=%s", (space_id, paper_id)).fetchone()
            if held is not None and held["token"] != self.token and held["expires_at"] > now \
                    and not (held["host"] == self.host and not pid_alive(held["pid"])):
                return False
            if not force and not self.pending(space_id, [paper_id]):
                return False
            db.execute("INSERT INTO embed_claims VALUES (%s,%s,%s,%s,%s,%s) ON CONFLICT (space_id, paper_id) DO "
                       "UPDATE SET token=excluded.token, pid=excluded.pid, host=excluded.host, "
                       "expires_at=excluded.expires_at",
                       (space_id, paper_id, self.token, os.getpid(), self.host, now + self.lease_seconds))
        return True
