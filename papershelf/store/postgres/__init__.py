"""The PostgreSQL + pgvector backend: the same `Store` contract as the SQLite file,
for a lab or department library that lives on a server (``postgresql://…``).

One connection in autocommit mode, shared by threads under a lock; every write
goes through `transaction()`, and every paper is written or removed in exactly
one transaction, as in SQLite.  Papers, units and lexical search are in
`papers.py`, spaces, vectors, build state and vector search in `vectors.py`,
the schema in `schema.py`; the SQL it shares with SQLite is `store/sql/`.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from ...errors import LibraryFileError, ReadOnlyLibrary, StorageError
from ..sql import PostgresDialect
from .papers import PgPapers
from .schema import MIGRATION_LOCK, MIGRATIONS
from .vectors import PgVectors


def _connect(url: str):
    import psycopg
    from psycopg.rows import dict_row

    try:
        return psycopg.connect(url, autocommit=True, row_factory=dict_row)
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

    def __init__(self, url: str, create: bool = True):
        self.location = url
        self._lock = threading.RLock()
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
        disk) raises the same one-line errors as the SQLite backend, after the rollback."""
        import psycopg.errors as pe

        try:
            with self._lock, self.db.transaction():
                yield self.db
        except (pe.ReadOnlySqlTransaction, pe.InsufficientPrivilege) as e:
            raise ReadOnlyLibrary(f"{_redact(self.location)} is read-only ({_first_line(e)}): "
                                  "this command needs to write to it") from None
        except (pe.DiskFull, pe.IoError) as e:
            raise StorageError(f"disk full or not writable: {_redact(self.location)} ({_first_line(e)}); "
                               "the last change was rolled back, the library is intact") from None

    def query(self, sql: str, params=None) -> list[dict]:
        with self._lock:
            cur = self.db.execute(sql, params)
            return cur.fetchall() if cur.description else []

    def close(self) -> None:
        self.db.close()

    @property
    def display_location(self) -> str:
        return _redact(self.location)

    def _size_bytes(self) -> int:
        return self.query("SELECT pg_database_size(current_database()) AS n")[0]["n"]
