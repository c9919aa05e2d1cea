"""The SQLite library file: papers, units, the FTS5 index and (via
`VectorTables`) embedding spaces, vectors and build state.

The SQL it shares with PostgreSQL is `store/sql/`; what is SQLite's own is here: the
connection, migrations (`migrations.py`), FTS5, and the vectors as blobs searched by NumPy
(`vectors.py`, `vector_index.py`, `snapshot.py`, compact codes in `ann/`).

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

import functools
import os
import sqlite3
import threading
import urllib.parse
from contextlib import contextmanager

from ...errors import LibraryFileError, PapershelfError, ReadOnlyLibrary, StorageError
from ...index_text import index_text
from ...models import Filters, IndexCheck, LexicalHit, Manifest, Paper
from ...units import Unit
from ..paper_fields import paper_index_title
from ..sql import Dialect, SqlPapers
from . import topk
from .migrations import APPLICATION_ID, MIGRATIONS
from .postings_files import LexicalPostings
from .vectors import VectorTables

_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 10, 13, 14


def _primary_code(e: sqlite3.Error) -> int:
    return getattr(e, "sqlite_errorcode", 0) & 0xFF


def _writable(path: str) -> bool:
    """Can this process write the file and create its -wal/-shm files beside it?"""
    folder = os.path.dirname(path) or "."
    return os.access(path, os.W_OK) and os.access(folder, os.W_OK)


class SQLiteStore(VectorTables, SqlPapers):
    """The default backend: one SQLite file (WAL) holding everything."""

    sql = Dialect()
    reads_at_once = False  # (one connection, behind a lock)

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

    @property
    def display_location(self) -> str:
        return self.path

    def _size_bytes(self) -> int:
        return sum(os.path.getsize(p) for p in (self.path, self.path + "-wal") if os.path.exists(p))

    # -- papers ------------------------------------------------------------------

    def paper_snapshot(self, paper_id: str) -> tuple[Paper | None, Manifest | None, list[Unit]]:
        """Paper, manifest and units read in one transaction: a consistent view
        even while another process rewrites the paper."""
        with self._lock:
            self.db.execute("BEGIN")
            try:
                return self.get_paper(paper_id), self.manifest(paper_id), self.paper_units(paper_id)
            finally:
                self.db.execute("COMMIT")

    # -- lexical search: FTS5 ------------------------------------------------------

    def _index_units(self, db: sqlite3.Connection, paper: Paper, units: list[Unit]) -> None:
        title = index_text(paper_index_title(paper))
        for u in units:
            if not u.indexable:
                continue
            heading, body = index_text(u.heading()), index_text(u.search_text())
            cur = db.execute(
                "INSERT INTO search_docs(unit_id, paper_id, source, object_kind, title, heading, body) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (u.id, paper.id, u.source, u.object_kind, title, heading, body))
            db.execute("INSERT INTO search_fts(rowid, title, heading, body) VALUES (?, ?, ?, ?)",
                       (cur.lastrowid, title, heading, body))

    def _unindex_paper(self, db: sqlite3.Connection, paper_id: str) -> None:
        db.execute(
            "INSERT INTO search_fts(search_fts, rowid, title, heading, body) "
            "SELECT 'delete', rowid, title, heading, body FROM search_docs WHERE paper_id=?", (paper_id,))

    def verify_index(self) -> IndexCheck:
        """SQLite's own quick check first: in a damaged file the other checks cannot run, and the
        damage is the report (`database: …`)."""
        try:
            damage = [f"database: {r[0]}" for r in self.query("PRAGMA quick_check") if r[0] != "ok"]
        except sqlite3.DatabaseError as e:
            damage = [f"database: {e}"]
        return IndexCheck(False, damage[:100]) if damage else super().verify_index()

    def _lexical_problems(self) -> list[str]:
        """FTS5's own integrity check (SQLite's quick check on a read-only file: FTS5's is an INSERT)."""
        try:
            if self.read_only:
                return [f"database: {r[0]}" for r in self.query("PRAGMA quick_check") if r[0] != "ok"]
            with self.transaction() as db:
                db.execute("INSERT INTO search_fts(search_fts, rank) VALUES ('integrity-check', 1)")
        except sqlite3.DatabaseError as e:
            return [f"full-text index: {e}"]
        return []

    def lexical_search(self, match: str, limit: int, filters: Filters,
                       weights: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> list[LexicalHit]:
        """FTS5 BM25 over the indexable units; `match` must be a safe FTS5 expression.

        Without filters the top rows are ranked inside FTS5 before joining their
        metadata (joining every match first costs more than the ranking).  A query with
        common words ranks only the units holding its rarer ones when that provably gives
        the same top `limit` (topk.py).  A large library's plain-word queries are ranked from
        its postings file when it is of the library as it is now (postings_files.py), to FTS5's
        scores.
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

        def ranked(expression: str) -> list[sqlite3.Row]:
            return self.query(sql, [expression, *params, limit])

        found = self.postings.search(match, limit, where, params, weights) if min(weights) >= 0 else None
        if found is not None:
            return [LexicalHit(unit_id, paper_id, score) for unit_id, paper_id, score in found]
        plan = self._topk_split(match, limit) if min(weights) >= 0 else None
        rows = topk.top(plan, limit, ranked) if plan is not None else None
        if rows is None:
            rows = ranked(match)
        return [LexicalHit(r["unit_id"], r["paper_id"], -r["score"]) for r in rows]

    def prepare_search(self) -> bool:
        """The postings file of the library as it is now, built when the library is large enough and
        the file is missing or stale (postings_files.py: `LexicalPostings.prepare`)."""
        return False if self.read_only else self.postings.prepare()

    @functools.cached_property
    def postings(self) -> LexicalPostings:
        """The derived postings file of this library (postings_files.py)."""
        return LexicalPostings(self)

    def _topk_split(self, match: str, limit: int) -> topk.Split | None:
        """The rare/common split of the query's words (topk.py), from document frequencies kept for
        the library's current state; None when the split is off or the vocabulary cannot be read."""
        if not topk.enabled() or " OR " not in match:
            return None
        try:
            stats = self._lexical_stats()
            return topk.split(match, stats.fts_units, limit, stats.df)
        except sqlite3.Error:
            return None

    def index_size(self) -> int:
        """How many units the lexical index holds (the N of BM25's IDF), kept while the library is unchanged."""
        return self._lexical_stats().units

    def _lexical_stats(self) -> topk.Stats:
        """Units and document frequencies as of now: kept until this or another connection writes
        (`PRAGMA data_version` moves on another's commit, `total_changes` on this one's)."""
        with self._lock:
            state = (self.db.execute("PRAGMA data_version").fetchone()[0], self.db.total_changes)
            stats = getattr(self, "_topk_stats", None)
            if stats is None or stats.state != state:
                stats = self._topk_stats = topk.Stats(state, self.query)
            return stats

    def matching(self, match: str, unit_ids: list[str]) -> set[str]:
        """Which of these units the FTS5 expression matches (phrase and NEAR evidence for a
        ranked list).  FTS5 matches the whole index, unranked, and the list's rows are kept: a
        phrase's doclists are short, while a MATCH run for each listed rowid (`rowid IN (…)`
        handed to FTS5) was 50x slower; the unary + keeps the rowid test out of FTS5."""
        if not unit_ids:
            return set()
        rows = self.query(
            "SELECT d.unit_id FROM search_fts JOIN search_docs d ON d.rowid = search_fts.rowid "
            "WHERE search_fts MATCH ? AND +search_fts.rowid IN (SELECT rowid FROM search_docs WHERE unit_id IN "
            f"({','.join('?' * len(unit_ids))}))", [match, *unit_ids])
        return {r[0] for r in rows}

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
