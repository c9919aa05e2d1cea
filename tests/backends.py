"""What tests do to a store behind the contract's back: damage it, fake a lock holder,
count raw rows.  Only this file knows each backend's tables; the tests call these
functions, so the same test runs on every backend (a new backend adds its class here)."""

from __future__ import annotations

import socket


class SQLiteTamper:
    def __init__(self, store):
        self.db = store.db

    def delete_vectors(self, unit_id: str | None = None, paper_id: str | None = None) -> None:
        if unit_id:
            self.db.execute("DELETE FROM vectors WHERE unit_id=?", (unit_id,))
        if paper_id:
            self.db.execute("DELETE FROM vectors WHERE paper_id=?", (paper_id,))

    def vector_counts(self, paper_id: str | None = None) -> dict[str, int]:
        """Vectors per collection (all spaces), optionally of one paper."""
        where, params = (" WHERE paper_id=?", (paper_id,)) if paper_id else ("", ())
        return {r[0]: r[1] for r in self.db.execute(
            f"SELECT collection, count(*) FROM vectors{where} GROUP BY collection", params)}

    def duplicate_vectors(self) -> int:
        sql = "SELECT count(*) - count(DISTINCT space_id || ':' || unit_id) FROM vectors"
        return self.db.execute(sql).fetchone()[0]

    def build_states(self) -> int:
        return self.db.execute("SELECT count(*) FROM embed_state").fetchone()[0]

    def all_vectors(self) -> list[tuple[str, bytes]]:
        return sorted((r[0], r[1]) for r in self.db.execute("SELECT unit_id, vector FROM vectors"))

    def forge_unit_hash(self, unit_id: str) -> None:
        self.db.execute("UPDATE vectors SET unit_hash='forged' WHERE unit_id=?", (unit_id,))

    def truncate_vector(self, unit_id: str) -> None:
        self.db.execute("UPDATE vectors SET vector=x'00' WHERE unit_id=?", (unit_id,))

    def copy_vector(self, unit_id: str, new_unit_id: str) -> None:
        """A vector row for a unit that does not exist, copied from one that does."""
        self.db.execute(
            "INSERT INTO vectors(space_id, collection, unit_id, paper_id, unit_kind, unit_hash, kind_hash, "
            "policy_version, token_estimate, vector) SELECT space_id, collection, ?, paper_id, unit_kind, unit_hash, "
            "kind_hash, policy_version, token_estimate, vector FROM vectors WHERE unit_id=?", (new_unit_id, unit_id))

    def delete_index_row(self, unit_id: str) -> None:
        self.db.execute("DELETE FROM search_docs WHERE unit_id=?", (unit_id,))

    def set_lock_holder(self, pid: int, host: str | None = None) -> None:
        self.db.execute("INSERT OR REPLACE INTO build_lock VALUES ('embed', ?, ?, 0)",
                        (pid, host or socket.gethostname()))


def tamper(store):
    """The tamper helper for a store's backend."""
    from papershelf.store.sqlite import SQLiteStore

    if isinstance(store, SQLiteStore):
        return SQLiteTamper(store)
    raise NotImplementedError(f"no test helpers for {type(store).__name__}")
