"""What tests do to a store behind the contract's back: damage it, fake a lock holder,
count raw rows.  Only this file knows each backend's tables; the tests call these
functions, so the same test runs on every backend (a new backend adds its class here)."""

from __future__ import annotations

import socket
import sqlite3


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

    def bump_generation(self) -> None:
        """What another process's vector write does to every space's clock."""
        self.db.execute("UPDATE spaces SET generation = generation + 1")


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

    def bump_generation(self) -> None:
        self._run("UPDATE spaces SET generation = generation + 1")

    def schema_ahead(self) -> None:
        """The library as a newer papershelf leaves it."""
        self._run("UPDATE papershelf_schema SET version = version + 1")

    def has_hnsw(self, space_id: int) -> bool:
        return bool(self._run("SELECT hnsw FROM spaces WHERE id=%s", (space_id,))[0]["hnsw"])

    def add_claim(self, space_id: int, paper_id: str, token: str, pid: int, host: str, expires_at: float) -> None:
        """A claim another builder holds (or held, before it crashed)."""
        self._run("INSERT INTO embed_claims VALUES (%s, %s, %s, %s, %s, %s)",
                  (space_id, paper_id, token, pid, host, expires_at))

    def set_lock_holder(self, pid: int, host: str | None = None) -> None:
        self._run("DELETE FROM build_lock WHERE token LIKE 'tamper:%%'")
        self._run("INSERT INTO build_lock VALUES (%s, 'embed', %s, %s, 0)",
                  (f"tamper:{pid}", pid, host or socket.gethostname()))


# -- a SQLite library file from outside papershelf -------------------------------------------


def sqlite_file_facts(path: str) -> tuple[str, int, set[str]]:
    """(journal mode, schema version, table names) of a SQLite library file."""
    db = sqlite3.connect(path)
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        return db.execute("PRAGMA journal_mode").fetchone()[0], db.execute("PRAGMA user_version").fetchone()[0], tables
    finally:
        db.close()


def sqlite_set_schema_version(path: str, version: int) -> None:
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={int(version)}")
    db.commit()
    db.close()


def sqlite_foreign_file(path: str) -> None:
    """A SQLite file that is some other program's."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t(x)")
    db.commit()
    db.close()


def sqlite_back_to_schema_3(path: str) -> None:
    """The library as papershelf left it before paper sources (migration 4)."""
    db = sqlite3.connect(path)
    db.executescript("DROP TABLE paper_sources; PRAGMA user_version=3;")
    db.close()


def sqlite_half_papers(path: str) -> list[str]:
    """Papers seen half-written, read in one snapshot on a fresh read-only connection of our own."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        con.execute("BEGIN")
        expected = {r[0]: r[1] + r[2] + r[3] for r in con.execute(
            "SELECT paper_id, body_indexable, object_indexable, chunk_indexable FROM manifests")}
        indexed = dict(con.execute("SELECT paper_id, count(*) FROM search_docs GROUP BY paper_id").fetchall())
        problems = [f"{p}: {indexed.get(p, 0)} index rows of {n}"
                    for p, n in expected.items() if indexed.get(p, 0) != n]
        # vectors are written with their build state in one transaction: the counts always agree
        for space_id, paper_id, stored, recorded in con.execute(
                "SELECT v.space_id, v.paper_id, count(*), "
                "(SELECT body_expected + objects_expected + fulltext_expected FROM embed_state s "
                " WHERE s.space_id = v.space_id AND s.paper_id = v.paper_id) "
                "FROM vectors v GROUP BY v.space_id, v.paper_id"):
            if stored != recorded:
                problems.append(f"{paper_id}: {stored} vectors in space {space_id}, build state says {recorded}")
        con.execute("COMMIT")
        return problems
    finally:
        con.close()


# -- a PostgreSQL library from before ---------------------------------------------------------

PG_SCHEMA_2_PAPER = (
    "CREATE TABLE papershelf_schema (version INTEGER NOT NULL); INSERT INTO papershelf_schema VALUES (2); "
    "INSERT INTO papers(id, title, authors, year, doi, source_path, source_hash, source_format, added_at, updated_at) "
    "VALUES ('old', 'Coral Bleaching by Depth', '[\"Ana Reef\"]', 2020, '10.1/ABC', '/p/old.pdf', 'h1', 'pdf', 1, 1)")
