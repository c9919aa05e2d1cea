"""The PostgreSQL server the contract tests run against, and a fresh database per test.

`.ci/run` starts a server and names it in PAPERSHELF_TEST_POSTGRES; without it, the first
test that needs PostgreSQL starts one with `pgserver` in a temporary folder (stopped and
deleted when the test run ends).  Each test gets its own database, created from a template
that is already migrated, which takes a fraction of a second.  Where no server can start,
PostgreSQL tests skip with the reason; `.ci/run` fails instead.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import pytest

ENV = "PAPERSHELF_TEST_POSTGRES"
TEMPLATE = "papershelf_test_template"
_state: dict[str, str] = {}


def with_database(url: str, name: str) -> str:
    """The same server URL, naming another database."""
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def _start_pgserver() -> str:
    import pgserver

    folder = tempfile.mkdtemp(prefix="pst", dir="/tmp")  # short: the socket path must fit 107 bytes
    server = pgserver.get_server(folder, cleanup_mode="delete")
    _state["server"] = server  # keep it alive for the session
    return server.get_uri()


def admin_url() -> str:
    """The server's maintenance URL, starting a server on first use (or skipping the test)."""
    if "url" not in _state:
        try:
            url = os.environ.get(ENV) or _start_pgserver()
            _make_template(url)
        except Exception as e:  # noqa: BLE001 - skip with the reason
            _state["error"] = f"{type(e).__name__}: {e}"
            _state["url"] = ""
        else:
            _state["url"] = url
    if not _state["url"]:
        pytest.skip(f"no PostgreSQL server could start for the postgres backend tests ({_state['error']})")
    return _state["url"]


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def _make_template(url: str) -> None:
    """A migrated, empty library to copy: a test's database starts from it."""
    from papershelf.store.postgres import PostgresStore

    _admin(url, f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)")
    _admin(url, f"CREATE DATABASE {TEMPLATE}")
    PostgresStore(with_database(url, TEMPLATE)).close()


def fresh_database() -> str:
    """The URL of a new, empty (migrated) papershelf database."""
    url = admin_url()
    name = "t_" + uuid.uuid4().hex[:16]
    _admin(url, f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
    return with_database(url, name)


def empty_database() -> str:
    """The URL of a new database with nothing in it (not even papershelf's schema)."""
    url = admin_url()
    name = "e_" + uuid.uuid4().hex[:16]
    _admin(url, f"CREATE DATABASE {name}")
    return with_database(url, name)


def drop_database(location: str) -> None:
    name = urlsplit(location).path.lstrip("/")
    _admin(admin_url(), f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


class _Inline(Executor):
    """Runs what is submitted at once, in the caller's thread (so on its connection)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        done: Future = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except Exception as e:  # noqa: BLE001 - as a pool's future, it holds any error for result()
            done.set_exception(e)
        return done


@contextmanager
def reads_in_turn(store):
    """Meanwhile the reads a search of `store` runs at once run in the caller's thread, in turn."""
    workers, store._workers = store._workers, _Inline()
    try:
        yield
    finally:
        store._workers = workers


def blocks_touched(lib, relation: str, counters: str, run) -> int:
    """How many blocks of `relation` (`counters`: a sum of pg_statio_user_tables columns, such as
    heap_blks_hit + heap_blks_read) `run()` touches; the statistics are flushed before each count.
    The store's reads run on its main connection meanwhile (a read connection of its pool would
    flush its statistics a second later)."""
    return _counted(lib, "pg_statio_user_tables", relation, counters, run)


def rows_read(lib, relation: str, run) -> int:
    """How many rows of `relation` `run()` reads, by scans of the table or lookups by an index (as
    blocks_touched: a tiny table scanned whole touches few blocks but every row)."""
    return _counted(lib, "pg_stat_user_tables", relation, "seq_tup_read + idx_tup_fetch", run)


def _counted(lib, view: str, relation: str, counters: str, run) -> int:
    def count() -> int:
        lib.store.query("SELECT pg_stat_force_next_flush()")
        return lib.store.query(f"SELECT coalesce({counters}, 0) AS n FROM {view} WHERE relname = %s",
                               (relation,))[0]["n"]
    with reads_in_turn(lib.store):
        before = count()
        run()
        return count() - before
