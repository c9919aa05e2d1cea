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

from ..errors import LibraryFileError, PapershelfError, ReadOnlyLibrary, StorageError
from ..models import (
    UNIT_KINDS,
    Filters,
    IndexCheck,
    LexicalHit,
    LibraryStatus,
    Manifest,
    Paper,
    PaperSource,
    PaperSummary,
)
from ..text import batched
from ..units import Unit
from .common import (
    PAPER_COLUMNS,
    SOURCE_COLUMNS,
    SOURCE_FIELDS,
    UNIT_COLUMNS,
    index_problems,
    manifest_columns,
    manifest_from_row,
    manifest_row,
    paper_from_row,
    paper_summaries,
    source_from_row,
    sources_from_rows,
    unit_from_row,
    year_bounds,
)
from .migrations import APPLICATION_ID, MIGRATIONS
from .vectors import VectorTables

_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 10, 13, 14


def _primary_code(e: sqlite3.Error) -> int:
    return getattr(e, "sqlite_errorcode", 0) & 0xFF


def _writable(path: str) -> bool:
    """Can this process write the file and create its -wal/-shm files beside it?"""
    folder = os.path.dirname(path) or "."
    return os.access(path, os.W_OK) and os.access(folder, os.W_OK)


def placeholders(n: int) -> str:
    return ",".join("?" * n)


class SQLiteStore(VectorTables):
    """The default backend: one SQLite file (WAL) holding everything."""

    def __init__(self, path: str, create: bool = True):
        self.path = os.path.abspath(os.path.expanduser(path))
        self.location = self.path
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
        """(paper id, content hash) of a file that is a source of a paper, providing or not."""
        rows = self.query("SELECT paper_id, source_hash FROM paper_sources WHERE source_path=?", (source_path,))
        return (rows[0][0], rows[0][1]) if rows else None

    # -- sources: the files of one work ------------------------------------------

    def sources(self, paper_id: str | None = None) -> list[PaperSource]:
        """A paper's source files (every paper's, when None), the best first; `provides` marks the
        one whose units the paper holds."""
        where, params = ("WHERE s.paper_id=?", (paper_id,)) if paper_id else ("", ())
        rows = self.query(f"SELECT s.*, p.source_path = s.source_path AS provides FROM paper_sources s "
                          f"JOIN papers p ON p.id = s.paper_id {where} "
                          "ORDER BY s.paper_id, s.priority DESC, coalesce(s.source_mtime, 0) DESC, s.source_path",
                          params)
        return sources_from_rows(rows)

    def find_sources(self, doi: str | None, arxiv_id: str | None, title_key: str | None) -> list[PaperSource]:
        """Sources that share the DOI, the arXiv id or the title key (lowercase) with a new file."""
        rows = self.query("SELECT * FROM paper_sources WHERE doi=? OR arxiv_id=? OR title_key=? ORDER BY source_path",
                          (doi, arxiv_id, title_key))
        return [source_from_row(r) for r in rows]

    def save_source(self, source: PaperSource) -> None:
        """Record (or replace) one source file of an existing paper."""
        values = [getattr(source, c) for c in SOURCE_FIELDS]
        with self.transaction() as db:
            db.execute(f"INSERT OR REPLACE INTO paper_sources({', '.join(SOURCE_COLUMNS)}) "
                       f"VALUES ({placeholders(len(values))})", values)

    def drop_source(self, source_path: str) -> PaperSource | None:
        """Forget one source file (the paper stays: removing it is the caller's decision)."""
        with self.transaction() as db:
            row = db.execute("SELECT * FROM paper_sources WHERE source_path=?", (source_path,)).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM paper_sources WHERE source_path=?", (source_path,))
            return source_from_row(row)

    def paper_ids(self) -> list[str]:
        return [r[0] for r in self.query("SELECT id FROM papers ORDER BY id")]

    def count_papers(self) -> int:
        return self.query("SELECT count(*) FROM papers")[0][0]

    def manifest_paper_ids(self, with_indexable_units: bool = False) -> list[str]:
        """Papers that have a manifest (all papers), or only those with something to embed."""
        where = " WHERE body_indexable + object_indexable + chunk_indexable > 0" if with_indexable_units else ""
        return [r[0] for r in self.query(f"SELECT paper_id FROM manifests{where} ORDER BY paper_id")]

    def remember_metadata(self, source_path: str, meta_json: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO source_metadata VALUES (?, ?)", (source_path, meta_json))

    def remembered_metadata(self, source_path: str) -> str | None:
        rows = self.query("SELECT meta FROM source_metadata WHERE source_path=?", (source_path,))
        return rows[0][0] if rows else None

    def paper_refs(self) -> list[tuple[str, str | None, str | None]]:
        """(id, citekey, doi) of every paper: what a user may name a paper by."""
        return [(r[0], r[1], r[2]) for r in self.query("SELECT id, citekey, doi FROM papers ORDER BY id")]

    def zotero_refs(self) -> list[tuple[str, str]]:
        """(paper id, key) for each Zotero attachment key and item key a paper is known by."""
        return [(r[0], r[1]) for r in self.query(
            "SELECT paper_id, attachment_key FROM paper_zotero UNION "
            "SELECT s.paper_id, json_extract(m.meta, '$.meta.zotero_key') FROM source_metadata m "
            "JOIN paper_sources s ON s.source_path = m.source_path "
            "WHERE json_extract(m.meta, '$.meta.zotero_key') IS NOT NULL")]

    def paper_years(self) -> dict[str, int | None]:
        return {r[0]: r[1] for r in self.query("SELECT id, year FROM papers")}

    def _delete_paper_rows(self, db: sqlite3.Connection, paper_id: str, keep_paper: bool) -> None:
        db.execute(
            "INSERT INTO search_fts(search_fts, rowid, title, heading, body) "
            "SELECT 'delete', rowid, title, heading, body FROM search_docs WHERE paper_id=?", (paper_id,))
        db.execute("DELETE FROM search_docs WHERE paper_id=?", (paper_id,))
        for kind in UNIT_KINDS:
            db.execute(f"DELETE FROM {kind.table} WHERE paper_id=?", (paper_id,))
        db.execute("DELETE FROM manifests WHERE paper_id=?", (paper_id,))
        for table in ("paper_tags", "paper_collections", "paper_zotero"):
            db.execute(f"DELETE FROM {table} WHERE paper_id=?", (paper_id,))
        if not keep_paper:
            db.execute("DELETE FROM papers WHERE id=?", (paper_id,))

    @staticmethod
    def _write_labels(db: sqlite3.Connection, paper: Paper) -> None:
        """Tags, collections and Zotero attachment, in the paper's own transaction."""
        db.executemany("INSERT OR IGNORE INTO paper_tags VALUES (?, ?)", [(paper.id, t) for t in paper.tags])
        db.executemany("INSERT OR IGNORE INTO paper_collections VALUES (?, ?)",
                       [(paper.id, c) for c in paper.collections])
        if paper.zotero_attachment:
            db.execute("INSERT INTO paper_zotero VALUES (?, ?)", (paper.id, paper.zotero_attachment))

    def write_paper(self, paper: Paper, units: list[Unit], manifest: Manifest) -> None:
        """Replace a paper, its units, manifest and index rows in one transaction.

        Vectors are not touched: the manifest hashes now differ from the build
        state, which is exactly what makes the paper pending for `embed`.
        """
        now = time.time()
        values: list[object] = [getattr(paper, c) for c in PAPER_COLUMNS]
        values[2] = json.dumps(paper.authors, ensure_ascii=False)
        with self.transaction() as db:
            if paper.source_path:
                # The file used to be another paper (its declared id changed): that one goes.
                for row in db.execute("SELECT id FROM papers WHERE source_path=? AND id<>?",
                                      (paper.source_path, paper.id)).fetchall():
                    self._delete_paper_rows(db, row[0], keep_paper=False)
                    self._delete_vectors(db, row[0])
            self._delete_paper_rows(db, paper.id, keep_paper=True)
            cols = ", ".join(PAPER_COLUMNS)
            updates = ", ".join(f"{c}=excluded.{c}" for c in PAPER_COLUMNS[1:])
            db.execute(
                f"INSERT INTO papers({cols}, added_at, updated_at) VALUES ({', '.join('?' * len(values))}, ?, ?) "
                f"ON CONFLICT(id) DO UPDATE SET {updates}, updated_at=excluded.updated_at",
                values + [now, now],
            )
            self._write_labels(db, paper)
            for kind in UNIT_KINDS:
                columns = UNIT_COLUMNS[kind.name]
                rows = [[getattr(u, c) for c in columns] for u in units if u.kind == kind.name]
                if rows:
                    db.executemany(
                        f"INSERT INTO {kind.table}({', '.join(columns)}) VALUES ({placeholders(len(columns))})",
                        rows)
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
            m_cols, m_values = manifest_row(paper.id, manifest, now)
            db.execute(f"INSERT INTO manifests({', '.join(m_cols)}) VALUES ({placeholders(len(m_cols))})", m_values)
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

    def _with_labels(self, papers: list[Paper]) -> list[Paper]:
        """Each paper with its tags, collections and Zotero attachment key."""
        by_id = {p.id: p for p in papers}
        for part in batched(list(by_id), 500):
            marks = placeholders(len(part))
            for r in self.query(f"SELECT paper_id, tag FROM paper_tags WHERE paper_id IN ({marks}) ORDER BY tag", part):
                by_id[r[0]].tags.append(r[1])
            for r in self.query(f"SELECT paper_id, path FROM paper_collections WHERE paper_id IN ({marks}) "
                                "ORDER BY path", part):
                by_id[r[0]].collections.append(r[1])
            for r in self.query(f"SELECT paper_id, attachment_key FROM paper_zotero WHERE paper_id IN ({marks})",
                                part):
                by_id[r[0]].zotero_attachment = r[1]
        return papers

    def get_paper(self, paper_id: str) -> Paper | None:
        rows = self.query("SELECT * FROM papers WHERE id=?", (paper_id,))
        return self._with_labels([paper_from_row(rows[0])])[0] if rows else None

    def get_papers(self, paper_ids: list[str]) -> dict[str, Paper]:
        out: dict[str, Paper] = {}
        for part in batched(list(dict.fromkeys(paper_ids)), 500):
            for row in self.query(f"SELECT * FROM papers WHERE id IN ({placeholders(len(part))})", part):
                out[row["id"]] = paper_from_row(row)
        self._with_labels(list(out.values()))
        return out

    def list_papers(self, limit: int | None = None) -> list[PaperSummary]:
        counts = ", ".join(f"m.{manifest_columns(k)[0]}" for k in UNIT_KINDS)
        sql = f"SELECT p.*, {counts} FROM papers p LEFT JOIN manifests m ON m.paper_id = p.id ORDER BY p.id"
        if limit:
            sql += f" LIMIT {int(limit)}"
        rows = self.query(sql)
        return paper_summaries(self._with_labels([paper_from_row(r) for r in rows]), rows)

    def manifest(self, paper_id: str) -> Manifest | None:
        rows = self.query("SELECT * FROM manifests WHERE paper_id=?", (paper_id,))
        return manifest_from_row(rows[0]) if rows else None

    def paper_snapshot(self, paper_id: str) -> tuple[Paper | None, Manifest | None, list[Unit]]:
        """Paper, manifest and units read in one transaction: a consistent view
        even while another process rewrites the paper."""
        with self._lock:
            self.db.execute("BEGIN")
            try:
                return self.get_paper(paper_id), self.manifest(paper_id), self.paper_units(paper_id)
            finally:
                self.db.execute("COMMIT")

    def paper_units(self, paper_id: str) -> list[Unit]:
        out: list[Unit] = []
        for kind in UNIT_KINDS:
            out += [unit_from_row(kind, r) for r in
                    self.query(f"SELECT * FROM {kind.table} WHERE paper_id=? ORDER BY ordinal", (paper_id,))]
        return out

    def get_units(self, unit_ids: list[str]) -> dict[str, Unit]:
        """Units by id.  A unit id names its kind (`paper:body:3`, `paper:obj:...`), but ids are
        looked up in every kind's table: a declared paper id may itself contain such a word."""
        out: dict[str, Unit] = {}
        ids = list(dict.fromkeys(unit_ids))
        for kind in UNIT_KINDS:
            for part in batched(ids, 500):
                for r in self.query(f"SELECT * FROM {kind.table} WHERE id IN ({placeholders(len(part))})", part):
                    out[r["id"]] = unit_from_row(kind, r)
        return out

    # -- ingest failures -----------------------------------------------------------

    def record_failure(self, source_path: str, source_hash: str | None, reason: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO ingest_failures VALUES (?, ?, ?, ?)",
                       (source_path, source_hash, reason, time.time()))

    def failure(self, source_path: str) -> dict | None:
        rows = self.query("SELECT * FROM ingest_failures WHERE source_path=?", (source_path,))
        return dict(rows[0]) if rows else None

    # -- lexical search ------------------------------------------------------------

    @staticmethod
    def _filter_sql(filters: Filters, alias: str = "d") -> tuple[str, list]:
        clauses: list[str] = []
        params: list[object] = []
        if filters.papers:
            clauses.append(f"{alias}.paper_id IN ({placeholders(len(filters.papers))})")
            params += filters.papers
        if filters.sources:
            clauses.append(f"{alias}.source IN ({placeholders(len(filters.sources))})")
            params += filters.sources
        if filters.object_kind:
            clauses.append(f"{alias}.object_kind = ?")
            params.append(filters.object_kind)
        if (years := year_bounds(filters)) is not None:
            clauses.append(f"{alias}.paper_id IN (SELECT id FROM papers WHERE year BETWEEN ? AND ?)")
            params += list(years)
        if filters.has_labels:
            sql, label_params = SQLiteStore._labels_sql(filters)
            clauses.append(f"{alias}.paper_id IN ({sql})")
            params += label_params
        return (" AND " + " AND ".join(clauses)) if clauses else "", params

    @staticmethod
    def _labels_sql(filters: Filters) -> tuple[str, list]:
        """SELECT of the paper ids in any of the collections (or below them), with all the tags and
        an author matching each author filter."""
        parts, params = [], []
        if filters.collections:
            ors = " OR ".join("(path = ? COLLATE NOCASE OR path LIKE ? ESCAPE '\\')" for _ in filters.collections)
            parts.append(f"SELECT paper_id FROM paper_collections WHERE {ors}")
            for c in filters.collections:
                c = c.strip("/")
                params += [c, c.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%"]
        for tag in filters.tags:
            parts.append("SELECT paper_id FROM paper_tags WHERE tag = ? COLLATE NOCASE")
            params.append(tag)
        for author in filters.authors:  # LIKE is case-insensitive for ASCII; lower() covers the rest
            parts.append("SELECT p.id FROM papers p WHERE EXISTS (SELECT 1 FROM json_each(p.authors) a "
                         "WHERE lower(a.value) LIKE ? ESCAPE '\\')")
            params.append("%" + author.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
        return " INTERSECT ".join(parts), params

    def labelled_paper_ids(self, filters: Filters) -> list[str]:
        """Papers that pass the collection and tag filters (every paper when there are none)."""
        if not filters.has_labels:
            return self.paper_ids()
        sql, params = self._labels_sql(filters)
        return [r[0] for r in self.query(sql, params)]

    def lexical_search(self, match: str, limit: int, filters: Filters,
                       weights: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> list[LexicalHit]:
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
        return [LexicalHit(r["unit_id"], r["paper_id"], -r["score"]) for r in rows]

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

    def verify_index(self) -> IndexCheck:
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
        counts: dict[str, dict[str, tuple[int, int]]] = {}
        for kind in UNIT_KINDS:
            for r in self.query(f"SELECT paper_id, count(*), sum(indexable) FROM {kind.table} GROUP BY paper_id"):
                counts.setdefault(r[0], {})[kind.name] = (r[1], r[2])
        indexed = {r[0]: r[1] for r in self.query("SELECT paper_id, count(*) FROM search_docs GROUP BY paper_id")}
        orphans = self.query("SELECT count(*) FROM search_docs WHERE paper_id NOT IN (SELECT id FROM papers)")[0][0]
        problems += index_problems(counts, self.query("SELECT * FROM manifests"), indexed, orphans)
        return IndexCheck(not problems, problems[:100])

    # -- status --------------------------------------------------------------------

    def stats(self) -> LibraryStatus:
        """Papers, units per kind and veto reasons (the embedding part is the library's to add)."""
        units = {}
        for kind in UNIT_KINDS:
            row = self.query(f"SELECT count(*), coalesce(sum(indexable), 0) FROM {kind.table}")[0]
            units[kind.name] = {"total": row[0], "indexable": row[1], "vetoed": row[0] - row[1]}
        every_unit = " UNION ALL ".join(f"SELECT veto_reason FROM {k.table}" for k in UNIT_KINDS)
        vetoes = {r[0]: r[1] for r in self.query(
            f"SELECT veto_reason, count(*) FROM ({every_unit}) WHERE veto_reason IS NOT NULL GROUP BY veto_reason")}
        size = sum(os.path.getsize(p) for p in (self.path, self.path + "-wal") if os.path.exists(p))
        return LibraryStatus(library=self.path, size_bytes=size, schema_version=self.schema_version,
                             papers=self.count_papers(), units=units, veto_reasons=vetoes,
                             failed_files=self.query("SELECT count(*) FROM ingest_failures")[0][0])
