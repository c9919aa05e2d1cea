"""A process killed in the middle of a paper's write: the rerun does exactly the missing work.

The paper's rows and its source file's row (what tells a rerun the file is already in) are one
transaction.  Here the process dies (`os._exit`, no rollback, no commit: what `kill -9` does) the
moment the third paper's source row is inserted, on a real SQLite file.  Were the two rows
written in two transactions, the third paper would be committed without its source row and the
rerun would not know the file: it would add it again under another id (measured on the
two-transaction code: `plain0` was written again as `plain0a`, the old row replaced, so every link to
`plain0` broke and its vectors were built again); in one transaction it is absent, and the rerun adds it, and
only the missing papers, under the ids a clean build gives.

On PostgreSQL the server ends the session from inside that insert (`pg_terminate_backend` in a
trigger): the transaction dies with it.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from papershelf import Library

from ..pg import drop_database, fresh_database
from .common import write_papers

# Run in a child process: kill itself when the third source row goes in, mid-transaction (the
# third file, sorted by path: plain0.txt, a paper whose id is made from its title).
_SQLITE_CHILD = """
import os, sys
from papershelf import Library
seen = []
def crash():
    seen.append(1)
    if len(seen) == 3:
        os._exit(70)
    return 0
with Library(sys.argv[1]) as lib:
    lib.store.db.create_function("crash", 0, crash)
    lib.store.db.execute("CREATE TEMP TRIGGER crash_at_source AFTER INSERT ON main.paper_sources "
                         "BEGIN SELECT crash(); END")
    lib.add(sys.argv[2:])
"""

_PG_CRASH = """
CREATE FUNCTION crash_at_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM paper_sources) >= 3 THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER crash_at_source AFTER INSERT ON paper_sources FOR EACH ROW EXECUTE FUNCTION crash_at_source();
"""


def _files(tmp_path):
    """Two papers with a declared id, two with none (their id is made from title and file)."""
    folder = tmp_path / "inputs"
    paths = write_papers(folder, 2)
    for i in range(2):
        p = folder / f"plain{i}.txt"
        p.write_text(f"A plain paper number {i}\n\nIts body about plainword{i} and a second sentence.\n",
                     encoding="utf-8")
        paths.append(p)
    return folder, sorted(str(p) for p in paths)


def _state(lib: Library) -> tuple[list[str], list[tuple[str, str]]]:
    return lib.store.paper_ids(), sorted((s.path, s.paper_id) for s in lib.sources())


def _check_rerun(location: str, clean: str, files: list[str]) -> None:
    """After the crash: every paper whole or absent; the rerun adds exactly the missing ones."""
    with Library(location, create=False) as lib:
        assert lib.verify().ok
        ids, sources = _state(lib)
        assert len(ids) == len(sources) == 2, (ids, sources)  # the first two papers, whole; the third absent
        report = lib.add(files)
        statuses = sorted(f.status for f in report.files)
        assert statuses == ["added"] * (len(files) - 2) + ["unchanged"] * 2, statuses
        crashed = _state(lib)
        assert lib.verify().ok
        again = lib.add(files)
        assert {f.status for f in again.files} == {"unchanged"}
    with Library(clean) as ref:
        ref.add(files)
        assert crashed == _state(ref)  # same ids, one source row each: no duplicate


def test_crash_inside_a_papers_write_sqlite(tmp_path):
    folder, files = _files(tmp_path)
    db = str(tmp_path / "lib.db")
    p = subprocess.run([sys.executable, "-c", _SQLITE_CHILD, db, *files], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 70, p.stderr[-2000:]
    _check_rerun(db, str(tmp_path / "clean.db"), files)


def test_crash_inside_a_papers_write_postgres(tmp_path):
    url = fresh_database()
    folder, files = _files(tmp_path)
    with Library(url) as lib:
        with lib.store.transaction() as db:
            db.execute(_PG_CRASH)
        with pytest.raises(Exception, match="connection|terminat"):
            lib.add(files)
    with Library(url, create=False) as lib, lib.store.transaction() as db:
        db.execute("DROP TRIGGER crash_at_source ON paper_sources")
    try:
        _check_rerun(url, str(tmp_path / "clean.db"), files)
    finally:
        drop_database(url)
