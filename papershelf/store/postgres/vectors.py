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
import json
import os
import socket
import time
import uuid

import numpy as np

from ...models import COLLECTIONS, UNIT_KINDS, CollectionStatus, Filters, Space, SpaceCheck, VectorHit, VectorRow
from ...models import unit_kind as kind_named
from ...system import pid_alive
from ..common import pending_sql
from .papers import PgConnection, filter_sql

PENDING_SQL = pending_sql("%(space)s", '"C"')

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


class PgVectors(PgConnection):
    """Everything the embedding build and vector search store, for PostgresStore."""

    concurrent_builds = True  # several `embed` runs may share this library
    hnsw_threshold = int(os.environ.get("PAPERSHELF_PG_HNSW_THRESHOLD", "50000"))  # windows in a space
    ef_search = int(os.environ.get("PAPERSHELF_PG_EF_SEARCH", "200"))
    lease_seconds = float(os.environ.get("PAPERSHELF_CLAIM_LEASE", "900"))

    def _init_builder(self) -> None:
        self.host = socket.gethostname()
        self.token = f"{self.host}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self._dimensions: dict[int, int] = {}

    # -- spaces ------------------------------------------------------------------

    def ensure_space(self, fingerprint: str, provider: str, model: str, dimension: int,
                     text_format: str, policy_version: int, options: dict | None = None) -> Space:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO spaces(fingerprint, provider, model, dimension, text_format, policy_version, options, "
                "created_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (fingerprint) DO NOTHING",
                (fingerprint, provider, model, dimension, text_format, policy_version,
                 json.dumps(options or {}, sort_keys=True), time.time()))
        return Space.from_row(self.query("SELECT * FROM spaces WHERE fingerprint=%s", (fingerprint,))[0])

    def get_space(self, space_id: int) -> Space | None:
        rows = self.query("SELECT * FROM spaces WHERE id=%s", (space_id,))
        return Space.from_row(rows[0]) if rows else None

    def spaces(self) -> list[Space]:
        return [Space.from_row(r) for r in self.query("SELECT * FROM spaces ORDER BY id")]

    def active_space(self) -> Space | None:
        rows = self.query("SELECT * FROM spaces WHERE completed_at IS NOT NULL "
                          "ORDER BY completed_at DESC, id DESC LIMIT 1")
        return Space.from_row(rows[0]) if rows else None

    def mark_complete(self, space_id: int) -> bool:
        """Mark a space complete (and so active) when nothing is pending or failed; a large
        space gets its HNSW index first, so search on it is fast from the start."""
        if self.pending(space_id) or self.embed_failures(space_id):
            return False
        self.ensure_vector_index(space_id)
        with self.transaction() as db:
            db.execute("UPDATE spaces SET completed_at=%s WHERE id=%s", (time.time(), space_id))
        return True

    def _dimension(self, space_id: int) -> int:
        if space_id not in self._dimensions:
            self._dimensions[space_id] = self.query("SELECT dimension FROM spaces WHERE id=%s",
                                                    (space_id,))[0]["dimension"]
        return self._dimensions[space_id]

    def window_count(self, space_id: int) -> int:
        return self.query("SELECT count(*) AS n FROM vector_windows WHERE space_id=%s", (space_id,))[0]["n"]

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
            db.execute("SET LOCAL maintenance_work_mem = '2GB'")
            db.execute(f"CREATE INDEX IF NOT EXISTS vector_windows_hnsw_{sid} ON vector_windows USING hnsw "
                       f"((embedding::vector({dim})) vector_ip_ops) WITH (m = 16, ef_construction = 64) "
                       f"WHERE space_id = {sid}")
            db.execute("UPDATE spaces SET hnsw = true WHERE id=%s", (sid,))
        return True

    # -- the pending predicate ---------------------------------------------------------

    def pending(self, space_id: int, paper_ids: list[str] | None = None) -> list[tuple[str, str]]:
        params: dict = {"space": space_id}
        papers = ""
        if paper_ids is not None:
            papers = "m.paper_id = ANY(%(papers)s) AND "
            params["papers"] = list(paper_ids)
        return [(r["paper_id"], r["reason"]) for r in self.query(PENDING_SQL.format(papers=papers), params)]

    def collection_status(self, space_id: int,
                          pending: list[tuple[str, str]] | None = None) -> dict[str, CollectionStatus]:
        stored = {r["collection"]: r["n"] for r in self.query(
            "SELECT collection, count(*) AS n FROM vectors WHERE space_id=%s GROUP BY collection", (space_id,))}
        sums = self.query("SELECT coalesce(sum(body_indexable),0) AS b, coalesce(sum(object_indexable),0) AS o, "
                          "coalesce(sum(chunk_indexable),0) AS c FROM manifests")[0]
        expected = [int(sums["b"]), int(sums["o"]), int(sums["c"])]
        pending_ids = [p for p, _ in (self.pending(space_id) if pending is None else pending)]
        per = {c: 0 for c in COLLECTIONS}
        if pending_ids:
            live: dict[str, set] = {}
            for r in self.query("SELECT DISTINCT paper_id, collection FROM vectors WHERE space_id=%s "
                                "AND paper_id = ANY(%s)", (space_id, pending_ids)):
                live.setdefault(r["paper_id"], set()).add(r["collection"])
            for r in self.query("SELECT paper_id, body_indexable, object_indexable, chunk_indexable "
                                "FROM manifests WHERE paper_id = ANY(%s)", (pending_ids,)):
                counts = (r["body_indexable"], r["object_indexable"], r["chunk_indexable"])
                for n, c in enumerate(COLLECTIONS):
                    per[c] += counts[n] > 0 or c in live.get(r["paper_id"], ())
        failed = {c: 0 for c in COLLECTIONS}
        for r in self.query("SELECT m.body_indexable, m.object_indexable, m.chunk_indexable FROM embed_failures f "
                            "JOIN manifests m ON m.paper_id = f.paper_id WHERE f.space_id=%s", (space_id,)):
            counts = (r["body_indexable"], r["object_indexable"], r["chunk_indexable"])
            for n, c in enumerate(COLLECTIONS):
                failed[c] += counts[n] > 0
        return {c: CollectionStatus(stored.get(c, 0), expected[n], per[c], failed[c])
                for n, c in enumerate(COLLECTIONS)}

    # -- vectors -------------------------------------------------------------------

    def _delete_vectors(self, db, paper_id: str, space_id: int | None = None) -> None:
        """A paper's vectors (windows cascade), build state and failures, in one space or all."""
        spaces = "space_id = %s" if space_id is not None else "space_id IN (SELECT id FROM spaces)"
        params = [space_id, paper_id] if space_id is not None else [paper_id]
        for table in ("vectors", "embed_state", "embed_failures"):
            db.execute(f"DELETE FROM {table} WHERE {spaces} AND paper_id=%s", params)
        if space_id is None:
            db.execute("UPDATE spaces SET generation = generation + 1")
        else:
            db.execute("UPDATE spaces SET generation = generation + 1 WHERE id=%s", (space_id,))

    def stored_vectors(self, space_id: int, paper_id: str) -> dict[str, tuple[str, bytes]]:
        """unit_id -> (unit_hash, windows back to back as float32 bytes), as SQLite returns them."""
        parts: dict[str, list[np.ndarray]] = {}
        hashes: dict[str, str] = {}
        for r in self.query("SELECT v.unit_id, v.unit_hash, w.embedding FROM vectors v JOIN vector_windows w "
                            "ON w.space_id = v.space_id AND w.unit_id = v.unit_id "
                            "WHERE v.space_id=%s AND v.paper_id=%s ORDER BY v.unit_id, w.window_no",
                            (space_id, paper_id)):
            hashes[r["unit_id"]] = r["unit_hash"]
            parts.setdefault(r["unit_id"], []).append(np.asarray(r["embedding"].to_numpy(), dtype=np.float32))
        return {u: (hashes[u], np.concatenate(v).astype(np.float32).tobytes()) for u, v in parts.items()}

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

    def record_embed_failure(self, space_id: int, paper_id: str, reason: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO embed_failures VALUES (%s,%s,%s,%s) ON CONFLICT (space_id, paper_id) "
                       "DO UPDATE SET reason=excluded.reason, failed_at=excluded.failed_at",
                       (space_id, paper_id, reason, time.time()))

    def embed_failures(self, space_id: int) -> list[dict]:
        return [dict(r) for r in self.query(
            "SELECT paper_id, reason, failed_at FROM embed_failures WHERE space_id=%s ORDER BY paper_id COLLATE \"C\"",
            (space_id,))]

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
        where, params = filter_sql(filters, "w")
        sql = ("SELECT unit_id, paper_id, window_no, score FROM ("
               " SELECT DISTINCT ON (unit_id) unit_id, paper_id, window_no, -(embedding <#> %s) AS score"
               f" FROM vector_windows w WHERE space_id = {int(space.id)} AND vector_dims(embedding) = %s{where}"
               " ORDER BY unit_id, embedding <#> %s) best ORDER BY score DESC, unit_id LIMIT %s")
        return self._hits(self.query(sql, [q, space.dimension, *params, q, depth]), depth)

    def _hnsw_search(self, space: Space, q: np.ndarray, depth: int, filters: Filters) -> list[VectorHit]:
        """Approximate top windows from the space's HNSW index (a unit may have several windows,
        so twice `depth` windows are fetched), then the best window per unit."""
        where, params = filter_sql(filters, "w")
        dim, windows = int(space.dimension), depth * 2
        expr = f"embedding::vector({dim})"
        sql = (f"SELECT unit_id, paper_id, window_no, -({expr} <#> %s::vector({dim})) AS score "
               f"FROM vector_windows w WHERE space_id = {int(space.id)}{where} "
               f"ORDER BY {expr} <#> %s::vector({dim}) LIMIT %s")
        with self.transaction() as db:
            db.execute(f"SET LOCAL hnsw.ef_search = {max(min(1000, self.ef_search), min(1000, windows))}")
            rows = db.execute(sql, [q, *params, q, windows]).fetchall()
        return self._hits(rows, depth)

    # -- verification -------------------------------------------------------------------

    def verify_space(self, space: Space) -> SpaceCheck:
        """Each indexable unit of a complete paper has exactly one vector row whose windows all have
        the space's dimension and whose unit hash is the unit's current hash; no orphans."""
        units_sql = " UNION ALL ".join(f"SELECT id, paper_id, content_hash FROM {k.table} WHERE indexable=1"
                                       for k in UNIT_KINDS)
        pending = {p for p, _ in self.pending(space.id)}
        units = {r["id"]: (r["paper_id"], r["content_hash"]) for r in self.query(units_sql)}
        vectors = self.query(
            "SELECT v.unit_id, v.paper_id, v.unit_hash, v.windows, count(w.unit_id) AS n, "
            "coalesce(bool_and(vector_dims(w.embedding) = %s), false) AS dims_ok FROM vectors v "
            "LEFT JOIN vector_windows w ON w.space_id = v.space_id AND w.unit_id = v.unit_id "
            "WHERE v.space_id=%s GROUP BY v.unit_id, v.paper_id, v.unit_hash, v.windows",
            (space.dimension, space.id))
        stale, orphans, bad_size, seen = [], [], [], set()
        for r in vectors:
            unit_id, paper_id = r["unit_id"], r["paper_id"]
            seen.add(unit_id)
            if not r["n"] or r["n"] != r["windows"] or not r["dims_ok"]:
                bad_size.append(unit_id)
            if unit_id not in units:
                if paper_id not in pending:
                    orphans.append(unit_id)
            elif units[unit_id][1] != r["unit_hash"] and paper_id not in pending:
                stale.append(unit_id)
        complete_papers = {p for p, _ in units.values()} - pending
        missing = [u for u, (p, _) in units.items() if p in complete_papers and u not in seen]
        return SpaceCheck(len(pending), sorted(stale)[:50], sorted(orphans)[:50], sorted(bad_size)[:50],
                          sorted(missing)[:50], space)

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

    def lock_holder(self, name: str = "embed") -> dict | None:
        """A running builder (the oldest live one), if any."""
        for row in self.query("SELECT pid, host, started_at FROM build_lock WHERE name=%s ORDER BY started_at",
                              (name,)):
            d = dict(row)
            d["alive"] = d["host"] != self.host or pid_alive(d["pid"])
            if d["alive"]:
                return d
        return None

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
