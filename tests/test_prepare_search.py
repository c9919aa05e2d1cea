"""`add` and `index` leave a large library's postings file in place, so a one-shot CLI search (a fresh
process, gone before a background build could finish) ranks from it; a stale file is built again."""

from __future__ import annotations

import os
import random

import pytest
from typer.testing import CliRunner

from papershelf import Library
from papershelf.frontends import cli
from papershelf.models import Filters
from papershelf.store.sqlite import SQLiteStore, postings_build, postings_files

from .conftest import paper_text
from .test_sqlite_postings import _from_file, _store, _write


@pytest.fixture
def large(monkeypatch):
    """Every library counts as large enough for a postings file."""
    monkeypatch.setattr(postings_files, "MIN_UNITS", 0)
    monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "0")


def _folders(path: str) -> list[str]:
    root = path + ".lexical"
    return sorted(os.listdir(root)) if os.path.exists(root) else []


def test_prepare_builds_once_per_state_and_again_when_stale(tmp_path, large):
    s = _store(tmp_path / "lib.db", papers=20)
    assert s.prepare_search() is True and len(_folders(s.path)) == 1
    assert s.prepare_search() is False  # the file of this state is in place: nothing built
    fresh = SQLiteStore(s.path)  # another process: the file answers its first search, no build
    fresh.postings.background = False
    assert _from_file(fresh, '"cell" OR "signal"', 10) is not None
    assert fresh.postings._builder is None
    _write(s, random.Random(3), 700, extra=" zebrafish zebrafish")  # the library moved on
    assert _from_file(fresh, '"zebrafish"', 10) is None  # stale: never answers
    assert s.prepare_search() is True
    assert _folders(s.path) == [os.path.basename(s.postings._folder(postings_build.state_key(s.db)) or "")]
    again = SQLiteStore(s.path)
    hits = _from_file(again, '"zebrafish" OR "cell"', 10)
    assert hits is not None and hits[0][1] == "p0700"
    for store in (fresh, again, s):
        store.close()


def test_small_or_read_only_libraries_get_no_file(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "0")
    s = _store(tmp_path / "lib.db", papers=5)
    assert s.prepare_search() is False and _folders(s.path) == []  # under MIN_UNITS
    monkeypatch.setattr(postings_files, "MIN_UNITS", 0)
    monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "1")  # the file turned off
    assert s.prepare_search() is False and _folders(s.path) == []
    monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "0")
    s.read_only = True
    assert s.prepare_search() is False and _folders(s.path) == []
    s.close()


def test_every_backend_answers_prepare(lib, write):
    """The store contract: PostgreSQL keeps its BM25 statistics in each write, nothing to build."""
    write("p1.md", paper_text(key="p1"))
    lib.add([str(write.root)])
    assert lib.prepare_search() is False  # a small library (and PostgreSQL never) gets no file
    assert lib.search("things", mode="lexical").results


def test_the_cli_add_builds_the_file_and_says_so(tmp_path, write, large):
    for i in range(3):
        write(f"p{i}.md", paper_text(key=f"p{i}", title=f"Paper {i}", intro=f"Coral bleaching {i}."))
    library = str(tmp_path / "lib.db")
    runner = CliRunner()
    added = runner.invoke(cli.app, ["-L", library, "add", str(write.root)])
    assert added.exit_code == 0, added.output
    assert "word index for fast search built" in added.output and len(_folders(library)) == 1
    again = runner.invoke(cli.app, ["-L", library, "add", str(write.root)])  # unchanged: nothing to build
    assert again.exit_code == 0 and "word index" not in again.output
    with Library(library) as lib:  # a one-shot search: its first lexical call ranks from the file
        lib.store.postings.background = False
        assert _from_file(lib.store, '"coral" OR "bleaching"', 10) is not None
        assert lib.store.lexical_search('"bleaching"', 10, Filters())
