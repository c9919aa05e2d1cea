"""The SQLite library file: papers, units, the FTS5 index and (via
`VectorTables`) embedding spaces, vectors and build state.

One connection in autocommit mode; every write goes through `transaction()`
(``BEGIN IMMEDIATE``), and every paper is written or removed in exactly one
transaction, so a reader in another process never sees half a paper.

A library whose file or folder is not writable opens read-only (``mode=ro``,
or ``immutable=1`` when even the folder is read-only, since WAL then cannot
create its shared-memory file): reading commands work, writes raise
`ReadOnlyLibrary`.  A full disk or an I/O error during a write rolls the
transaction back and raises `StorageError`: one line for the user, the
library as it was before that transaction.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import urllib.parse
from contextlib import contextmanager

from ..document import Paper
from ..errors import LibraryFileError, PapershelfError, ReadOnlyLibrary, StorageError
from ..units import Manifest, Unit
from . import Filters
from .migrations import APPLICATION_ID, MIGRATIONS
from .vectors import VectorTables

_COMMON = ["id", "paper_id", "ordinal", "text", "section_path", "section_title", "section_level",
           "page_start", "page_end", "token_estimate", "indexable", "veto_reason", "content_hash"]
UNIT_TABLES = {
    "body": ("body_units", _COMMON + ["part"]),
    "object": ("object_units", _COMMON + ["object_kind", "object_label", "caption_text",
                                          "nearby_body_text", "table_text"]),
    "chunk": ("fulltext_chunks", _COMMON),
}
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 10, 13, 14


def _primary_code(e: sqlite3.Error) -> int:
    return getattr(e, "sqlite_errorcode", 0) & 0xFF


def _writable(path: str) -> bool:
    """Can this process write the file and create its -wal/-shm files beside it?"""
    folder = os.path.dirname(path) or "."
    return os.access(path, os.W_OK) and os.access(folder, os.W_OK)


_PAPER_COLUMNS = ["id", "title", "authors", "year", "venue", "doi", "citekey", "source_path",
                  "source_hash", "source_format", "source_size"]


class SQLiteStore(VectorTables):
    def __init__(self, path: str, create: bool = True):
        self.path = os.path.abspath(os.path.expanduser(path))
        exists = os.path.exists(self.path) and os.path.getsize(self.path) > 0
        if not exists and not create:
            raise LibraryFileError(f"no library at {self.path}: add papers first with `papershelf add PATH`")
        if not exists:
            os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        self._lock = threading.RLock()
        self.read_only = exists and not _writable(self.path)
        try:
            self._open(exists)
        except sqlite3.OperationalError as e:
            if not exists or self.read_only or _primary_code(e) not in (_SQLITE_READONLY, _SQLITE_CANTOPEN):
                raise self._open_error(e, exists) from None
            self.db.close()
            self.read_only = True  # writable by permission bits, yet refused (e.g. a read-only mount)
            try:
                self._open(exists)
            except sqlite3.DatabaseError as e2:
                raise self._open_error(e2, exists) from None
        except sqlite3.DatabaseError as e:
            raise self._open_error(e, exists) from None

    # -- connection and schema -------------------------------------------------

    def _open(self, exists: bool) -> None:
        if self.read_only:
            target = "file:" + urllib.parse.quote(self.path) + "?mode=ro"
            if not os.access(os.path.dirname(self.path) or ".", os.W_OK) and not os.path.exists(self.path + "-wal"):
                target += "&immutable=1"  # no -shm can be created, and no WAL holds newer pages
            self.db = sqlite3.connect(target, uri=True, timeout=30, isolation_level=None, check_same_thread=False)
        else:
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self._check_and_migrate(exists)

    def _open_error(self, e: sqlite3.Error, exists: bool) -> PapershelfError:
        code = _primary_code(e)
        if not exists and code in (_SQLITE_CANTOPEN, _SQLITE_READONLY):
            return LibraryFileError(f"cannot create a library at {self.path}: the folder is not writable ({e})")
        if code in (_SQLITE_FULL, _SQLITE_IOERR):
            return StorageError(f"disk full or not writable: {self.path} ({e})")
        if code == _SQLITE_CANTOPEN:
            return LibraryFileError(f"cannot open the library {self.path} ({e})")
        return LibraryFileError(f"{self.path} is not a papershelf library ({e})")

    def _write_error(self, e: sqlite3.Error) -> Exception:
        """A storage failure as one line for the user; any other SQLite error unchanged."""
        code = _primary_code(e)
        if code in (_SQLITE_FULL, _SQLITE_IOERR):
            return StorageError(f"disk full or not writable: {self.path} ({e}); the last change was rolled back, "
                                "the library is intact")
        if code == _SQLITE_READONLY:
            return ReadOnlyLibrary(f"{self.path} is read-only ({e}): this command needs to write to it")
        return e

    def _check_and_migrate(self, existed: bool) -> None:
        db = self.db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        has_tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
        if existed and has_tables and app_id != APPLICATION_ID:
            raise LibraryFileError(f"{self.path} is a SQLite file but not a papershelf library")
        if version > len(MIGRATIONS):
            raise LibraryFileError(
                f"{self.path} was written by a newer papershelf (schema {version}, this one knows "
                f"{len(MIGRATIONS)}): upgrade papershelf to open it"
            )
        if self.read_only:
            if version < len(MIGRATIONS):
                raise ReadOnlyLibrary(f"{self.path} needs an upgrade (schema {version} to {len(MIGRATIONS)}) "
                                      "but is read-only: open it once where it is writable")
            db.execute("PRAGMA query_only=ON")
            return
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA busy_timeout=30000")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA synchronous=NORMAL")
        if version < len(MIGRATIONS):
            with self.transaction():
                # Re-read inside the write lock: another process may have migrated meanwhile.
                version = db.execute("PRAGMA user_version").fetchone()[0]
                for n, fn in enumerate(MIGRATIONS[version:], start=version + 1):
                    fn(db)
                    db.execute(f"PRAGMA user_version={n}")
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")

    @property
    def schema_version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    @contextmanager
    def transaction(self):
        if self.read_only:
            raise ReadOnlyLibrary(f"{self.path} is read-only (the file or its folder is not writable): "
                                  "this command needs to write to it")
        with self._lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    yield self.db
                    self.db.execute("COMMIT")
                except BaseException:
                    self._rollback()
                    raise
            except sqlite3.OperationalError as e:
                raise self._write_error(e) from None

    def _rollback(self) -> None:
        """Roll back if a transaction is still open (SQLite may already have, e.g. on a full disk)."""
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def close(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error:
            pass  # a failed final checkpoint loses nothing: the WAL keeps every committed page

    def query(self, sql: str, params=()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self.db.execute(sql, params).fetchall()
            except sqlite3.OperationalError as e:
                raise self._write_error(e) from None

    # -- settings ----------------------------------------------------------------

    def get_setting(self, key: str, default: str | None = None) -> str | None:
        row = self.query("SELECT value FROM settings WHERE key=?", (key,))
        return row[0][0] if row else default

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", (key, value))

    # -- papers ------------------------------------------------------------------

    def source_record(self, source_path: str) -> tuple[str, str] | None:
        rows = self.query("SELECT id, source_hash FROM papers WHERE source_path=?", (source_path,))
        return (rows[0]["id"], rows[0]["source_hash"]) if rows else None

    def paper_ids(self) -> list[str]:
        return [r[0] for r in self.query("SELECT id FROM papers ORDER BY id")]

    def count_papers(self) -> int:
        return self.query("SELECT count(*) FROM papers")[0][0]

    def manifest_paper_ids(self, with_indexable_units: bool = False) -> list[str]:
        """Papers that have a manifest (all papers), or only those with something to embed."""
        where = " WHERE body_indexable + object_indexable + chunk_indexable > 0" if with_indexable_units else ""
        return [r[0] for r in self.query(f"SELECT paper_id FROM manifests{where} ORDER BY paper_id")]

    def paper_years(self) -> dict[str, int | None]:
        return {r[0]: r[1] for r in self.query("SELECT id, year FROM papers")}

    def _delete_paper_rows(self, db: sqlite3.Connection, paper_id: str, keep_paper: bool) -> None:
        db.execute(
            "INSERT INTO search_fts(search_fts, rowid, title, heading, body) "
            "SELECT 'delete', rowid, title, heading, body FROM search_docs WHERE paper_id=?", (paper_id,))
        db.execute("DELETE FROM search_docs WHERE paper_id=?", (paper_id,))
        for table, _ in UNIT_TABLES.values():
            db.execute(f"DELETE FROM {table} WHERE paper_id=?", (paper_id,))
        db.execute("DELETE FROM manifests WHERE paper_id=?", (paper_id,))
        if not keep_paper:
            db.execute("DELETE FROM papers WHERE id=?", (paper_id,))

    def write_paper(self, paper: Paper, units: list[Unit], manifest: Manifest) -> None:
        """Replace a paper, its units, manifest and index rows in one transaction.

        Vectors are not touched: the manifest hashes now differ from the build
        state, which is exactly what makes the paper pending for `embed`.
        """
        now = time.time()
        values = [getattr(paper, c) for c in _PAPER_COLUMNS]
        values[2] = json.dumps(paper.authors, ensure_ascii=False)
        with self.transaction() as db:
            if paper.source_path:
                # The file used to be another paper (its declared id changed): that one goes.
                for row in db.execute("SELECT id FROM papers WHERE source_path=? AND id<>?",
                                      (paper.source_path, paper.id)).fetchall():
                    self._delete_paper_rows(db, row[0], keep_paper=False)
                    self._delete_vectors(db, row[0])
            self._delete_paper_rows(db, paper.id, keep_paper=True)
            cols = ", ".join(_PAPER_COLUMNS)
            updates = ", ".join(f"{c}=excluded.{c}" for c in _PAPER_COLUMNS[1:])
            db.execute(
                f"INSERT INTO papers({cols}, added_at, updated_at) VALUES ({', '.join('?' * len(values))}, ?, ?) "
                f"ON CONFLICT(id) DO UPDATE SET {updates}, updated_at=excluded.updated_at",
                values + [now, now],
            )
            for kind, (table, columns) in UNIT_TABLES.items():
                rows = [[getattr(u, c) for c in columns] for u in units if u.kind == kind]
                if rows:
                    db.executemany(
                        f"INSERT INTO {table}({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", rows)
            title = paper.title or ""
            for u in units:
                if not u.indexable:
                    continue
                cur = db.execute(
                    "INSERT INTO search_docs(unit_id, paper_id, source, object_kind, title, heading, body) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (u.id, paper.id, u.source, u.object_kind, title, u.heading(), u.search_text()))
                db.execute("INSERT INTO search_fts(rowid, title, heading, body) VALUES (?, ?, ?, ?)",
                           (cur.lastrowid, title, u.heading(), u.search_text()))
            db.execute(
                "INSERT INTO manifests VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (paper.id, manifest.counts["body"], manifest.counts["object"], manifest.counts["chunk"],
                 manifest.indexable["body"], manifest.indexable["object"], manifest.indexable["chunk"],
                 manifest.hashes["body"], manifest.hashes["object"], manifest.hashes["chunk"],
                 manifest.policy_version, now))
            if paper.source_path:
                db.execute("DELETE FROM ingest_failures WHERE source_path=?", (paper.source_path,))

    def remove_paper(self, paper_id: str) -> bool:
        """Remove a paper and everything derived from it (vectors in every space too)."""
        with self.transaction() as db:
            if not db.execute("SELECT 1 FROM papers WHERE id=?", (paper_id,)).fetchone():
                return False
            self._delete_paper_rows(db, paper_id, keep_paper=False)
            self._delete_vectors(db, paper_id)
            return True

    @staticmethod
    def _paper_dict(row: sqlite3.Row) -> dict:
        d = dict(row)
        d["authors"] = json.loads(d.get("authors") or "[]")
        return d

    def get_paper(self, paper_id: str) -> dict | None:
        rows = self.query("SELECT * FROM papers WHERE id=?", (paper_id,))
        return self._paper_dict(rows[0]) if rows else None

    def get_papers(self, paper_ids: list[str]) -> dict[str, dict]:
        out: dict[str, dict] = {}
        ids = list(dict.fromkeys(paper_ids))
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            for row in self.query(f"SELECT * FROM papers WHERE id IN ({','.join('?' * len(part))})", part):
                out[row["id"]] = self._paper_dict(row)
        return out

    def list_papers(self, limit: int | None = None) -> list[dict]:
        sql = ("SELECT p.*, m.body_count, m.object_count, m.chunk_count FROM papers p "
               "LEFT JOIN manifests m ON m.paper_id = p.id ORDER BY p.id")
        if limit:
            sql += f" LIMIT {int(limit)}"
        return [self._paper_dict(r) for r in self.query(sql)]

    def manifest(self, paper_id: str) -> dict | None:
        rows = self.query("SELECT * FROM manifests WHERE paper_id=?", (paper_id,))
        return dict(rows[0]) if rows else None

    def paper_snapshot(self, paper_id: str) -> tuple[dict | None, dict | None, list[Unit]]:
        """Paper, manifest and units read in one transaction: a consistent view
        even while another process rewrites the paper."""
        with self._lock:
            self.db.execute("BEGIN")
            try:
                return self.get_paper(paper_id), self.manifest(paper_id), self.paper_units(paper_id)
            finally:
                self.db.execute("COMMIT")

    @staticmethod
    def _unit(kind: str, row: sqlite3.Row) -> Unit:
        d = dict(row)
        d["indexable"] = bool(d["indexable"])
        return Unit(kind=kind, **d)

    def paper_units(self, paper_id: str, kinds=("body", "object", "chunk")) -> list[Unit]:
        out: list[Unit] = []
        for kind in kinds:
            table, _ = UNIT_TABLES[kind]
            out += [self._unit(kind, r) for r in
                    self.query(f"SELECT * FROM {table} WHERE paper_id=? ORDER BY ordinal", (paper_id,))]
        return out

    def get_units(self, unit_ids: list[str]) -> dict[str, Unit]:
        out: dict[str, Unit] = {}
        ids = list(dict.fromkeys(unit_ids))
        for kind, (table, _) in UNIT_TABLES.items():
            for i in range(0, len(ids), 500):
                part = ids[i:i + 500]
                for r in self.query(f"SELECT * FROM {table} WHERE id IN ({','.join('?' * len(part))})", part):
                    out[r["id"]] = self._unit(kind, r)
        return out

    def get_unit(self, unit_id: str) -> Unit | None:
        return self.get_units([unit_id]).get(unit_id)

    # -- ingest failures -----------------------------------------------------------

    def record_failure(self, source_path: str, source_hash: str | None, reason: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO ingest_failures VALUES (?, ?, ?, ?)",
                       (source_path, source_hash, reason, time.time()))

    def failure(self, source_path: str) -> dict | None:
        rows = self.query("SELECT * FROM ingest_failures WHERE source_path=?", (source_path,))
        return dict(rows[0]) if rows else None

    def failures(self) -> list[dict]:
        return [dict(r) for r in self.query("SELECT * FROM ingest_failures ORDER BY source_path")]

    # -- lexical search ------------------------------------------------------------

    @staticmethod
    def _filter_sql(filters: Filters, alias: str = "d") -> tuple[str, list]:
        clauses, params = [], []
        if filters.papers:
            clauses.append(f"{alias}.paper_id IN ({','.join('?' * len(filters.papers))})")
            params += filters.papers
        if filters.sources:
            clauses.append(f"{alias}.source IN ({','.join('?' * len(filters.sources))})")
            params += filters.sources
        if filters.object_kind:
            clauses.append(f"{alias}.object_kind = ?")
            params.append(filters.object_kind)
        if filters.year_min is not None or filters.year_max is not None:
            clauses.append(f"{alias}.paper_id IN (SELECT id FROM papers WHERE year BETWEEN ? AND ?)")
            params += [filters.year_min if filters.year_min is not None else -10**6,
                       filters.year_max if filters.year_max is not None else 10**6]
        return (" AND " + " AND ".join(clauses)) if clauses else "", params

    def lexical(self, match: str, limit: int, filters: Filters,
                weights: tuple[float, float, float] = (2.0, 2.0, 1.0)) -> list[dict]:
        """FTS5 BM25 over the indexable units; `match` must be a safe FTS5 expression.

        Without filters the top rows are ranked inside FTS5 before joining their
        metadata (joining every match first costs more than the ranking).
        """
        where, params = self._filter_sql(filters)
        w = ", ".join(str(float(x)) for x in weights)
        if where:
            sql = (f"SELECT d.unit_id, d.paper_id, d.source, d.object_kind, bm25(search_fts, {w}) AS score "
                   "FROM search_fts JOIN search_docs d ON d.rowid = search_fts.rowid "
                   f"WHERE search_fts MATCH ?{where} ORDER BY score LIMIT ?")
        else:
            sql = ("SELECT d.unit_id, d.paper_id, d.source, d.object_kind, f.score FROM "
                   f"(SELECT rowid, bm25(search_fts, {w}) AS score FROM search_fts WHERE search_fts MATCH ? "
                   "ORDER BY score LIMIT ?) f JOIN search_docs d ON d.rowid = f.rowid ORDER BY f.score")
            params = []
        rows = self.query(sql, [match, *params, limit])
        return [dict(r) | {"score": -r["score"]} for r in rows]

    def snippets(self, match: str, unit_ids: list[str]) -> dict[str, str]:
        """FTS5 snippets (terms marked with [ ]) for just the units being shown."""
        if not unit_ids:
            return {}
        rows = self.query(
            "SELECT d.unit_id, snippet(search_fts, 2, '[', ']', '…', 24) FROM search_fts "
            "JOIN search_docs d ON d.rowid = search_fts.rowid WHERE search_fts MATCH ? "
            f"AND search_fts.rowid IN (SELECT rowid FROM search_docs WHERE unit_id IN "
            f"({','.join('?' * len(unit_ids))}))", [match, *unit_ids])
        return {r[0]: r[1] for r in rows}

    def verify_index(self) -> dict:
        """FTS5's own integrity check, manifests against unit tables, index rows against indexable units."""
        problems: list[str] = []
        try:
            if self.read_only:  # FTS5's integrity-check is an INSERT: only SQLite's own check can run
                problems += [f"database: {r[0]}" for r in self.query("PRAGMA quick_check") if r[0] != "ok"]
            else:
                with self.transaction() as db:
                    db.execute("INSERT INTO search_fts(search_fts, rank) VALUES ('integrity-check', 1)")
        except sqlite3.DatabaseError as e:
            problems.append(f"full-text index: {e}")
        counts = {}
        for kind, (table, _) in UNIT_TABLES.items():
            for r in self.query(f"SELECT paper_id, count(*), sum(indexable) FROM {table} GROUP BY paper_id"):
                counts.setdefault(r[0], {})[kind] = (r[1], r[2])
        for m in self.query("SELECT * FROM manifests"):
            got = counts.get(m["paper_id"], {})
            for kind, col in (("body", "body"), ("object", "object"), ("chunk", "chunk")):
                total, live = got.get(kind, (0, 0))
                if (total, live) != (m[f"{col}_count"], m[f"{col}_indexable"]):
                    problems.append(f"{m['paper_id']}: manifest says {m[f'{col}_count']} {kind} units, "
                                    f"the library holds {total}")
        indexed = {r[0]: r[1] for r in self.query("SELECT paper_id, count(*) FROM search_docs GROUP BY paper_id")}
        for pid, kinds in counts.items():
            live = sum(v[1] or 0 for v in kinds.values())
            if indexed.get(pid, 0) != live:
                problems.append(f"{pid}: {live} indexable units but {indexed.get(pid, 0)} rows in the search index")
        orphans = self.query("SELECT count(*) FROM search_docs WHERE paper_id NOT IN (SELECT id FROM papers)")[0][0]
        if orphans:
            problems.append(f"{orphans} search index rows belong to no paper")
        return {"ok": not problems, "problems": problems[:100]}

    # -- status --------------------------------------------------------------------

    def stats(self) -> dict:
        one = lambda sql: self.query(sql)[0][0]  # noqa: E731
        units = {}
        for kind, (table, _) in UNIT_TABLES.items():
            row = self.query(f"SELECT count(*), coalesce(sum(indexable), 0) FROM {table}")[0]
            units[kind] = {"total": row[0], "indexable": row[1], "vetoed": row[0] - row[1]}
        vetoes = {r[0]: r[1] for r in self.query(
            "SELECT veto_reason, count(*) FROM (SELECT veto_reason FROM body_units UNION ALL "
            "SELECT veto_reason FROM object_units UNION ALL SELECT veto_reason FROM fulltext_chunks) "
            "WHERE veto_reason IS NOT NULL GROUP BY veto_reason")}
        size = sum(os.path.getsize(p) for p in (self.path, self.path + "-wal") if os.path.exists(p))
        return {
            "library": self.path,
            "size_bytes": size,
            "schema_version": self.schema_version,
            "papers": one("SELECT count(*) FROM papers"),
            "units": units,
            "veto_reasons": vetoes,
            "failed_files": one("SELECT count(*) FROM ingest_failures"),
        }
