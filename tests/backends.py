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
    if type(store).__name__ == "PostgresStore":
        return PostgresTamper(store)
    raise NotImplementedError(f"no test helpers for {type(store).__name__}")


class PostgresTamper:
    """The same damage as SQLiteTamper, done to the PostgreSQL tables (vectors are one row per
    unit in `vectors` plus one row per window in `vector_windows`)."""

    def __init__(self, store):
        self.store = store

    def _run(self, sql: str, params=()) -> list[dict]:
        with self.store.transaction() as db:
            cur = db.execute(sql, params)
            return cur.fetchall() if cur.description else []

    def delete_vectors(self, unit_id: str | None = None, paper_id: str | None = None) -> None:
        if unit_id:
            self._run("DELETE FROM vectors WHERE unit_id=%s", (unit_id,))
        if paper_id:
            self._run("DELETE FROM vectors WHERE paper_id=%s", (paper_id,))

    def vector_counts(self, paper_id: str | None = None) -> dict[str, int]:
        where, params = (" WHERE paper_id=%s", (paper_id,)) if paper_id else ("", ())
        return {r["collection"]: r["n"] for r in self._run(
            f"SELECT collection, count(*) AS n FROM vectors{where} GROUP BY collection", params)}

    def duplicate_vectors(self) -> int:
        return self._run("SELECT (SELECT count(*) FROM vectors) - (SELECT count(DISTINCT (space_id, unit_id)) "
                         "FROM vectors) + (SELECT count(*) FROM vector_windows) - (SELECT count(DISTINCT "
                         "(space_id, unit_id, window_no)) FROM vector_windows) AS n")[0]["n"]

    def build_states(self) -> int:
        return self._run("SELECT count(*) AS n FROM embed_state")[0]["n"]

    def all_vectors(self) -> list[tuple[str, bytes]]:
        out = []
        for space in self.store.spaces():
            for pid in self.store.paper_ids():
                out += [(u, blob) for u, (_, blob) in self.store.stored_vectors(space.id, pid).items()]
        return sorted(out)

    def forge_unit_hash(self, unit_id: str) -> None:
        self._run("UPDATE vectors SET unit_hash='forged' WHERE unit_id=%s", (unit_id,))

    def truncate_vector(self, unit_id: str) -> None:
        self._run("UPDATE vector_windows SET embedding='[0]' WHERE unit_id=%s", (unit_id,))

    def copy_vector(self, unit_id: str, new_unit_id: str) -> None:
        self._run("INSERT INTO vectors(space_id, collection, unit_id, paper_id, unit_kind, unit_hash, kind_hash, "
                  "policy_version, token_estimate, windows) SELECT space_id, collection, %s, paper_id, unit_kind, "
                  "unit_hash, kind_hash, policy_version, token_estimate, windows FROM vectors WHERE unit_id=%s",
                  (new_unit_id, unit_id))
        self._run("INSERT INTO vector_windows(space_id, unit_id, window_no, paper_id, source, object_kind, embedding) "
                  "SELECT space_id, %s, window_no, paper_id, source, object_kind, embedding FROM vector_windows "
                  "WHERE unit_id=%s", (new_unit_id, unit_id))

    def delete_index_row(self, unit_id: str) -> None:
        self._run("DELETE FROM search_docs WHERE unit_id=%s", (unit_id,))

    def set_lock_holder(self, pid: int, host: str | None = None) -> None:
        self._run("DELETE FROM build_lock WHERE token LIKE 'tamper:%%'")
        self._run("INSERT INTO build_lock VALUES (%s, 'embed', %s, %s, 0)",
                  (f"tamper:{pid}", pid, host or socket.gethostname()))
