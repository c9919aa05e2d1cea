"""Standing suite: a Zotero data directory while Zotero writes, and damaged Zotero databases
(issue #27).  The real `papershelf add` on a directory built on Zotero's real schema, next to a
plain folder of papers: the plain papers are always indexed, Zotero's are read from a consistent
snapshot or that directory gets one line, never a traceback."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from tests.zotero_fixture import build_library

from .common import cli, write_papers

ZOTERO_PAPERS = {"JOUR1", "okafor2021"}


@pytest.fixture
def dirs(tmp_path):
    zdir = build_library(tmp_path / "Zotero")
    plain = tmp_path / "plain"
    write_papers(plain, 3)
    return zdir, plain, tmp_path / "lib.db"


def _add(db: Path, *paths: Path) -> dict:
    p = cli(db, "add", *map(str, paths), "--json", ok=(0, 1))
    return json.loads(p.stdout)


def _papers(db: Path) -> set[str]:
    return {r["id"] for r in json.loads(cli(db, "papers", "--json", "-n", "1000").stdout)}


def _zotero_writing(db_path: Path, started: threading.Event, release: threading.Event) -> None:
    """Zotero in the middle of a large transaction: many pages already spilled into the database
    file, their originals in the rollback journal, nothing committed."""
    db = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("PRAGMA cache_size=10")  # spill early, as a big transaction does
    db.execute("BEGIN")
    db.execute("UPDATE itemDataValues SET value = value || ?", ("x" * 2000,))
    db.execute("CREATE TABLE scratch(x)")
    db.executemany("INSERT INTO scratch VALUES (?)", [(random.randbytes(900),) for _ in range(3000)])
    started.set()
    release.wait(120)
    db.execute("ROLLBACK")
    db.close()


def test_add_while_zotero_writes_reads_a_consistent_snapshot(dirs):
    zdir, plain, db = dirs
    started, release = threading.Event(), threading.Event()
    writer = threading.Thread(target=_zotero_writing, args=(zdir / "zotero.sqlite", started, release))
    writer.start()
    try:
        assert started.wait(60)
        assert Path(str(zdir / "zotero.sqlite") + "-journal").exists()
        report = _add(db, zdir, plain)
    finally:
        release.set()
        writer.join()
    failed = {f["path"]: f["reason"] for f in report["files"] if f["status"] == "failed"}
    assert len(failed) == 1 and "missing from Zotero storage" in next(iter(failed.values()))  # the fixture's
    assert _papers(db) == ZOTERO_PAPERS | {f"p{i:03d}" for i in range(3)}
    assert cli(db, "verify").returncode == 0


def _damage(kind: str, path: Path) -> None:
    data = path.read_bytes()
    if kind == "truncated":
        path.write_bytes(data[: len(data) // 3])
    elif kind == "zero bytes":
        path.write_bytes(b"")
    elif kind == "random bytes":
        path.write_bytes(random.Random(3).randbytes(len(data)))
    elif kind == "pages overwritten":
        mid = len(data) // 2
        path.write_bytes(data[:4096] + random.Random(4).randbytes(mid - 4096) + data[mid:])
    elif kind == "no Zotero tables":
        path.unlink()
        sqlite3.connect(path).execute("CREATE TABLE other(x)").connection.commit()
    elif kind == "a folder":
        path.unlink()
        path.mkdir()


DAMAGE = ["truncated", "zero bytes", "random bytes", "pages overwritten", "no Zotero tables", "a folder"]


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_zotero_database_is_that_directorys_one_line(dirs, kind):
    zdir, plain, db = dirs
    _damage(kind, zdir / "zotero.sqlite")
    report = _add(db, zdir, plain)
    failed = {f["path"]: f["reason"] for f in report["files"] if f["status"] == "failed"}
    assert _papers(db) == {f"p{i:03d}" for i in range(3)}  # the other folder is indexed all the same
    assert list(failed) == [str(zdir)], failed
    assert "\n" not in failed[str(zdir)] and "zotero.sqlite" in failed[str(zdir)]


def test_zotero_sqlite_without_storage_says_so(dirs):
    zdir, plain, db = dirs
    shutil.rmtree(zdir / "storage")
    (zdir / "stray.pdf").write_bytes((plain / "p000.md").read_bytes())
    report = _add(db, zdir, plain)
    failed = {f["path"]: f["reason"] for f in report["files"] if f["status"] == "failed"}
    assert "no storage/ folder" in failed[str(zdir)]
    assert _papers(db) == {f"p{i:03d}" for i in range(3)}
