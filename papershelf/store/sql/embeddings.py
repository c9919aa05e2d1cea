"""Embedding spaces, the pending predicate, collection status and build failures: the SQL both
backends run.  How vectors are stored, searched and checked, and how builders coordinate, is each
backend's own (SQLite: blobs + a NumPy index + one build lock; PostgreSQL: pgvector rows + claims).
"""

from __future__ import annotations

import json
import time
from typing import Any

from ...models import COLLECTIONS, UNIT_KINDS, CollectionStatus, EmbedFailure, PendingReason, Space, SpaceCheck
from ..common import pending_sql
from .dialect import SqlConnection


class SqlEmbeddings(SqlConnection):
    """The shared part of the embedding state of the `Store` contract."""

    # -- what a backend provides -----------------------------------------------------

    def _before_complete(self, space_id: int) -> None:
        """Whatever a space needs before it answers searches (PostgreSQL: its HNSW index)."""

    def _vector_checks(self, space: Space) -> list[tuple[str, str, str, bool]]:
        """(unit id, paper id, unit hash, windows well formed) of every vector row in the space."""
        raise NotImplementedError

    # -- spaces ------------------------------------------------------------------

    def ensure_space(self, fingerprint: str, provider: str, model: str, dimension: int,
                     text_format: str, policy_version: int, options: dict | None = None) -> Space:
        columns = ("fingerprint", "provider", "model", "dimension", "text_format", "policy_version", "options",
                   "created_at")
        with self.transaction() as db:
            db.execute(self.sql.upsert("spaces", columns, ("fingerprint",), ()),
                       (fingerprint, provider, model, dimension, text_format, policy_version,
                        json.dumps(options or {}, sort_keys=True), time.time()))
        rows = self.query(f"SELECT * FROM spaces WHERE fingerprint={self.sql.mark}", (fingerprint,))
        return Space.from_row(dict(rows[0]))

    def get_space(self, space_id: int) -> Space | None:
        rows = self.query(f"SELECT * FROM spaces WHERE id={self.sql.mark}", (space_id,))
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
        self._before_complete(space_id)
        with self.transaction() as db:
            db.execute(f"UPDATE spaces SET completed_at={self.sql.mark} WHERE id={self.sql.mark}",
                       (time.time(), space_id))
        return True

    # -- the pending predicate ---------------------------------------------------------

    def pending(self, space_id: int, paper_ids: list[str] | None = None) -> list[tuple[str, PendingReason]]:
        """(paper_id, reason) for every pending paper; reason is new, changed or damaged."""
        params: dict = {"space": space_id}
        papers = ""
        if paper_ids is not None:
            sql, names = self.sql.any_named("m.paper_id", "p", paper_ids)
            papers = f"{sql} AND "
            params.update(names)
        predicate = pending_sql(self.sql.named("space"), self.sql.collation)
        return [(r["paper_id"], r["reason"]) for r in self.query(predicate.format(papers=papers), params)]

    def collection_status(self, space_id: int,
                          pending: list[tuple[str, PendingReason]] | None = None) -> dict[str, CollectionStatus]:
        """Per collection: vectors stored, vectors a complete build holds, pending papers.

        Pass `pending` when the caller already evaluated the predicate for this space.
        """
        m = self.sql.mark
        stored = {r["collection"]: r["n"] for r in self.query(
            f"SELECT collection, count(*) AS n FROM vectors WHERE space_id={m} GROUP BY collection", (space_id,))}
        sums = self.query("SELECT coalesce(sum(body_indexable),0) AS b, coalesce(sum(object_indexable),0) AS o, "
                          "coalesce(sum(chunk_indexable),0) AS c FROM manifests")[0]
        expected = [int(sums["b"]), int(sums["o"]), int(sums["c"])]
        pending_ids = [p for p, _ in (self.pending(space_id) if pending is None else pending)]
        per = {c: 0 for c in COLLECTIONS}
        for part in self.sql.batches(pending_ids):
            where, params = self.sql.any("paper_id", part)
            live: dict[str, set] = {}
            for r in self.query(f"SELECT DISTINCT paper_id, collection FROM vectors WHERE space_id={m} AND {where}",
                                [space_id, *params]):
                live.setdefault(r["paper_id"], set()).add(r["collection"])
            for r in self.query("SELECT paper_id, body_indexable, object_indexable, chunk_indexable "
                                f"FROM manifests WHERE {where}", params):
                counts = (r["body_indexable"], r["object_indexable"], r["chunk_indexable"])
                for n, c in enumerate(COLLECTIONS):
                    per[c] += counts[n] > 0 or c in live.get(r["paper_id"], ())
        failed = {c: 0 for c in COLLECTIONS}
        for r in self.query("SELECT m.body_indexable, m.object_indexable, m.chunk_indexable FROM embed_failures f "
                            f"JOIN manifests m ON m.paper_id = f.paper_id WHERE f.space_id={m}", (space_id,)):
            counts = (r["body_indexable"], r["object_indexable"], r["chunk_indexable"])
            for n, c in enumerate(COLLECTIONS):
                failed[c] += counts[n] > 0
        return {c: CollectionStatus(stored.get(c, 0), expected[n], per[c], failed[c])
                for n, c in enumerate(COLLECTIONS)}

    # -- vectors and failures ----------------------------------------------------------

    def vector_generation(self, space_id: int) -> int:
        """Moves with every vector write or removal in the space, in any process (-1: no such space)."""
        rows = self.query(f"SELECT generation FROM spaces WHERE id={self.sql.mark}", (space_id,))
        return int(rows[0]["generation"]) if rows else -1

    def vector_stamps(self, space_id: int) -> dict[str, float]:
        """paper -> when its vectors in the space were written: what moves whenever they change (a rewrite
        replaces the paper's build state, a removal deletes it), so derived paper vectors know what to redo."""
        return {r["paper_id"]: float(r["embedded_at"]) for r in self.query(
            f"SELECT paper_id, embedded_at FROM embed_state WHERE space_id={self.sql.mark}", (space_id,))}

    def _delete_vectors(self, db: Any, paper_id: str, space_id: int | None = None) -> None:
        """A paper's vectors, build state and failures, in one space or all; the spaces' clocks move."""
        m = self.sql.mark
        spaces = f"space_id = {m}" if space_id is not None else "space_id IN (SELECT id FROM spaces)"
        params = [space_id, paper_id] if space_id is not None else [paper_id]
        for table in ("vectors", "embed_state", "embed_failures"):
            db.execute(f"DELETE FROM {table} WHERE {spaces} AND paper_id={m}", params)
        if space_id is None:
            db.execute("UPDATE spaces SET generation = generation + 1")
        else:
            db.execute(f"UPDATE spaces SET generation = generation + 1 WHERE id={m}", (space_id,))

    def record_embed_failure(self, space_id: int, paper_id: str, reason: str) -> None:
        with self.transaction() as db:
            db.execute(self.sql.upsert("embed_failures", ("space_id", "paper_id", "reason", "failed_at"),
                                       ("space_id", "paper_id")),
                       (space_id, paper_id, self.sql.clean(reason), time.time()))

    def embed_failures(self, space_id: int) -> list[EmbedFailure]:
        return [EmbedFailure(**dict(r)) for r in self.query(
            f"SELECT paper_id, reason, failed_at FROM embed_failures WHERE space_id={self.sql.mark} "
            f"ORDER BY {self.sql.collate('paper_id')}", (space_id,))]

    # -- verification -------------------------------------------------------------------

    def unit_tokens(self, paper_ids: list[str]) -> dict[str, list[int]]:
        """Each paper's indexable units' token estimates (one read of every unit table): what a
        build plans its windows from (embed/eta.py) before any unit is cut."""
        wanted = set(paper_ids)
        out: dict[str, list[int]] = {p: [] for p in paper_ids}
        for k in UNIT_KINDS:
            for r in self.query(f"SELECT paper_id, token_estimate FROM {k.table} WHERE indexable=1"):
                if r["paper_id"] in wanted:
                    out[r["paper_id"]].append(int(r["token_estimate"] or 0))
        return out

    def verify_space(self, space: Space) -> SpaceCheck:
        """Check that what the space claims is true, unit by unit.

        For every paper the pending predicate calls complete, each indexable unit
        must have exactly one vector row (one or more windows of the space's
        dimension) whose unit hash is the unit's current content hash, and no
        vector may point at a unit that no longer exists.
        """
        units_sql = " UNION ALL ".join(f"SELECT id, paper_id, content_hash FROM {k.table} WHERE indexable=1"
                                       for k in UNIT_KINDS)
        pending = {p for p, _ in self.pending(space.id)}
        units = {r["id"]: (r["paper_id"], r["content_hash"]) for r in self.query(units_sql)}
        stale, orphans, bad_size, seen = [], [], [], set()
        for unit_id, paper_id, unit_hash, well_formed in self._vector_checks(space):
            seen.add(unit_id)
            if not well_formed:
                bad_size.append(unit_id)
            if unit_id not in units:
                if paper_id not in pending:
                    orphans.append(unit_id)
            elif units[unit_id][1] != unit_hash and paper_id not in pending:
                stale.append(unit_id)
        complete_papers = {p for p, _ in units.values()} - pending
        missing = [u for u, (p, _) in units.items() if p in complete_papers and u not in seen]
        return SpaceCheck(len(pending), sorted(stale)[:50], sorted(orphans)[:50], sorted(bad_size)[:50],
                          sorted(missing)[:50], space)
