"""The PostgreSQL + pgvector backend: the same `Store` contract as the SQLite file,
for a lab or department library that lives on a server (``postgresql://…``).

One connection in autocommit mode, shared by threads under a lock; every write
goes through `transaction()`, and every paper is written or removed in exactly
one transaction, as in SQLite.  A read that finds that connection busy in another
thread (the vector list of a hybrid search beside its lexical queries, `serve`'s
searches beside a build) takes one of `READERS` more connections from a pool
(psycopg_pool), opened when first needed, rather than wait.  Papers, units and lexical search are in
`papers.py`, spaces, vectors, build state and vector search in `vectors.py`,
the schema in `schema.py`; the SQL it shares with SQLite is `store/sql/`.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from ...errors import ConnectionLost, LibraryFileError, ReadOnlyLibrary, StorageError
from ..sql import PostgresDialect
from .papers import PgPapers
from .schema import MIGRATION_LOCK, MIGRATIONS
from .vectors import PgVectors

RECONNECT_TRIES = int(os.environ.get("PAPERSHELF_PG_RECONNECT_TRIES", "5"))
READERS = int(os.environ.get("PAPERSHELF_PG_READERS", "2"))  # read connections beside the main one
READER_WAIT = 5.0  # seconds to wait for a read connection before queueing for the main one


def _options() -> dict:
    from psycopg.rows import dict_row

    # No server-side prepared statements (psycopg prepares a query run 5 times): PostgreSQL then
    # switches to a generic plan that ignores the parameters, and for a search whose best plan
    # depends on them (the 100 listed units against a GIN scan of the whole library) it was 20x slower.
    return {"autocommit": True, "row_factory": dict_row, "prepare_threshold": None}


def _connect(url: str):
    import psycopg

    try:
        return psycopg.connect(url, **_options())
    except psycopg.OperationalError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise LibraryFileError(f"cannot connect to the PostgreSQL library {_redact(url)}: {first}") from None


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _redact(url: str) -> str:
    """The URL without its password, for messages and status."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password:
        host = parts.hostname or ""
        netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
        parts = parts._replace(netloc=netloc)
    return urlunsplit(parts)


class PostgresStore(PgVectors, PgPapers):
    """A papershelf library in a PostgreSQL database with the pgvector extension."""

    sql = PostgresDialect()
    reads_at_once = True  # (a pool of read connections beside the main one)

    def __init__(self, url: str, create: bool = True):
        self.location = url
        self._lock = threading.RLock()
        self._readers: Any = None  # the read connections (psycopg_pool), opened by the first read needing one
        self._readers_lock = threading.Lock()
        # threads for the reads one search runs at once (its phrases' counts), one reader each
        self._workers = ThreadPoolExecutor(max_workers=max(1, READERS), thread_name_prefix="papershelf-pg-read")
        self.db = _connect(url)
        try:
            self._check_and_migrate(create)
        except BaseException:
            self.db.close()
            raise
        from pgvector.psycopg import register_vector

        register_vector(self.db)
        self._init_builder()

    # -- connection and schema -------------------------------------------------

    def _schema_row(self) -> int | None:
        rows = self.query("SELECT to_regclass('papershelf_schema') IS NOT NULL AS has")
        if not rows[0]["has"]:
            return None
        return self.query("SELECT version FROM papershelf_schema")[0]["version"]

    def _check_and_migrate(self, create: bool) -> None:
        version = self._schema_row()
        if version is None:
            tables = self.query("SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema()")[0]["n"]
            if tables:
                raise LibraryFileError(f"{_redact(self.location)} is a PostgreSQL database "
                                       "but not a papershelf library")
            if not create:
                raise LibraryFileError(f"no library at {_redact(self.location)}: add papers first with "
                                       "`papershelf add PATH`")
        if (version or 0) > len(MIGRATIONS):
            raise LibraryFileError(
                f"{_redact(self.location)} was written by a newer papershelf (schema {version}, this one knows "
                f"{len(MIGRATIONS)}): upgrade papershelf to open it")
        if (version or 0) < len(MIGRATIONS):
            self._migrate()

    def _migrate(self) -> None:
        import psycopg

        with self.transaction() as db:
            # Serialize with other processes migrating the same database, then re-read.
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            db.execute("CREATE TABLE IF NOT EXISTS papershelf_schema (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM papershelf_schema").fetchone()
            if row is None:
                db.execute("INSERT INTO papershelf_schema VALUES (0)")
            version = row["version"] if row else 0
            try:
                for n, script in enumerate(MIGRATIONS[version:], start=version + 1):
                    if callable(script):
                        script(db)
                    else:
                        db.execute(script)
                    db.execute("UPDATE papershelf_schema SET version = %s", (n,))
            except psycopg.errors.FeatureNotSupported as e:
                raise LibraryFileError(f"the PostgreSQL server lacks the pgvector extension ({e})") from None
            except psycopg.errors.UndefinedFile as e:
                raise LibraryFileError(f"the PostgreSQL server lacks the pgvector extension ({e})") from None

    @property
    def schema_version(self) -> int:
        return self._schema_row() or 0

    @contextmanager
    def transaction(self):
        """One transaction; a server that refuses the write (a read-only replica or role, a full
        disk) raises the same one-line errors as the SQLite backend, after the rollback.  A lost
        connection is `ConnectionLost` (nothing of the transaction was committed); the next call
        reconnects."""
        import psycopg
        import psycopg.errors as pe

        try:
            with self._lock:
                self._ensure_connected()
                with self.db.transaction():
                    yield self.db
        except (pe.ReadOnlySqlTransaction, pe.InsufficientPrivilege) as e:
            raise ReadOnlyLibrary(f"{_redact(self.location)} is read-only ({_first_line(e)}): "
                                  "this command needs to write to it") from None
        except (pe.DiskFull, pe.IoError) as e:
            raise StorageError(f"disk full or not writable: {_redact(self.location)} ({_first_line(e)}); "
                               "the last change was rolled back, the library is intact") from None
        except (psycopg.OperationalError, psycopg.InterfaceError) as e:
            raise ConnectionLost(f"lost the connection to the PostgreSQL library {_redact(self.location)} "
                                 f"({_first_line(e)}); the change in progress was not committed and the library "
                                 "is intact: run the command again") from None

    def query(self, sql: str, params=None) -> list[dict]:
        """A read; a connection lost since the last call (a server restart) is re-opened and the
        read tried once more, so long-running readers (`serve`, `mcp`) recover by themselves."""
        import psycopg

        for attempt in (1, 2):
            with self.reading() as db:
                try:
                    cur = db.execute(sql, params)
                    return cur.fetchall() if cur.description else []
                except (psycopg.OperationalError, psycopg.InterfaceError) as e:
                    if attempt == 2 or not db.broken and not db.closed:
                        raise ConnectionLost(f"lost the connection to the PostgreSQL library "
                                             f"{_redact(self.location)} during a read ({_first_line(e)}); the "
                                             "library is intact: run the command again") from None
        raise AssertionError("unreachable")

    @contextmanager
    def reading(self):
        """A connection to read on: the main one when it is free or this thread holds it (inside
        its own transaction a read sees its writes), else one of the read pool's, else (none to be
        had within READER_WAIT) the main one when it frees.  Each read statement commits on its
        own, so it sees what other transactions have committed."""
        if not self._lock.acquire(blocking=False):
            from psycopg_pool import PoolTimeout

            pool = self._reader_pool()
            try:
                db = pool.getconn(timeout=READER_WAIT)
            except PoolTimeout:
                self._lock.acquire()
            else:
                try:
                    yield db
                finally:
                    pool.putconn(db)  # a broken one is discarded; the next read opens another
                return
        try:
            self._ensure_connected()
            yield self.db
        finally:
            self._lock.release()

    def _reader_pool(self):
        with self._readers_lock:
            if self._readers is None:
                from pgvector.psycopg import register_vector
                from psycopg_pool import ConnectionPool

                # min_size 0: a command that never reads concurrently opens no second connection
                self._readers = ConnectionPool(self.location, min_size=0, max_size=max(1, READERS),
                                               kwargs=_options(), configure=register_vector, num_workers=1,
                                               check=ConnectionPool.check_connection, open=True,
                                               name="papershelf-readers")
            return self._readers

    def _ensure_connected(self) -> None:
        """Re-open a lost connection with bounded retries (`RECONNECT_TRIES`, backing off to ~4 s
        in all): a server restarting comes back within them; a server gone is one line."""
        if not (self.db.closed or self.db.broken):
            return
        self.db.close()
        last: Exception | None = None
        for attempt in range(RECONNECT_TRIES):
            if attempt:
                time.sleep(min(0.25 * 2 ** (attempt - 1), 2.0))
            try:
                db = _connect(self.location)
            except LibraryFileError as e:
                last = e
                continue
            from pgvector.psycopg import register_vector

            register_vector(db)
            self.db = db
            return
        raise ConnectionLost(f"lost the connection to the PostgreSQL library and could not reconnect after "
                             f"{RECONNECT_TRIES} tries ({last}); the library is intact: run the command again "
                             "when the server is back")

    def close(self) -> None:
        self._workers.shutdown(wait=False, cancel_futures=True)
        if self._readers is not None:
            self._readers.close()
        self.db.close()

    @property
    def display_location(self) -> str:
        return _redact(self.location)

    def _size_bytes(self) -> int:
        return self.query("SELECT pg_database_size(current_database()) AS n")[0]["n"]
