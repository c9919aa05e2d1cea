"""The SQLite backend's vector search: unit-mean codes + exact re-score vs exact, derived files, staleness."""

import os
import subprocess
import sys

import numpy as np
import pytest

from papershelf import Library
from papershelf.models import Filters
from papershelf.store.sqlite import snapshot as vector_snapshot
from papershelf.store.sqlite import vector_index
from papershelf.store.sqlite.vector_index import VectorIndex

from .conftest import HASH, paper_text


@pytest.fixture
def many(tmp_path, write):
    for i in range(40):
        write(f"p{i:02d}.md", paper_text(key=f"p{i:02d}", title=f"Paper {i}", year=2000 + i % 5,
                                         intro=f"Topic {i} about proteins, cells and signal number {i % 7}."))
    lib = Library(str(tmp_path / "lib.db"))
    lib.add([str(write.root)])
    lib.embed(HASH)
    yield lib
    lib.close()


def _queries(n: int, dim: int = 64) -> np.ndarray:
    return np.random.default_rng(7).standard_normal((n, dim)).astype(np.float32)


def test_shortlist_search_returns_the_exact_ranking(many, monkeypatch):
    space = many.store.active_space()
    exact = VectorIndex(many.store, files=False)
    exact.matrix(space)  # built before codes are switched on below
    monkeypatch.setattr(vector_snapshot, "CODES_MIN_WINDOWS", 0)
    # a shortlist as large as the space must agree with exact search exactly
    monkeypatch.setattr(vector_index, "SHORTLIST_MIN", 10**6)
    monkeypatch.setattr(vector_index, "RESCORE_MIN", 10**6)
    coded = VectorIndex(many.store, files=False)
    assert coded.matrix(space).codes is not None and exact.matrix(space).codes is None
    for q in _queries(10):
        for f in (Filters(), Filters(sources=["object_unit"]), Filters(year_from=2003), Filters(papers=["p07"])):
            a = exact.search(space, q, 20, f)
            b = coded.search(space, q, 20, f)
            assert [(h.unit_id, round(h.score, 5), h.window) for h in a] == \
                [(h.unit_id, round(h.score, 5), h.window) for h in b]
            assert a or f.papers  # filters never empty the list while matches exist


def test_small_shortlist_still_scores_exactly(many, monkeypatch):
    """A shortlist smaller than the space: every hit's score is its exact best-window cosine."""
    space = many.store.active_space()
    monkeypatch.setattr(vector_snapshot, "CODES_MIN_WINDOWS", 0)
    monkeypatch.setattr(vector_index, "SHORTLIST_MIN", 30)
    monkeypatch.setattr(vector_index, "SHORTLIST_PER_HIT", 1)
    monkeypatch.setattr(vector_index, "RESCORE_MIN", 12)
    monkeypatch.setattr(vector_index, "RESCORE_PER_HIT", 1)
    coded, exact = VectorIndex(many.store, files=False), VectorIndex(many.store, files=False)
    coded.matrix(space)
    monkeypatch.setattr(vector_snapshot, "CODES_MIN_WINDOWS", 10**9)
    truth = {h.unit_id: h.score for h in exact.search(space, _queries(1)[0], 10**4, Filters())}
    hits = coded.search(space, _queries(1)[0], 10, Filters())
    assert hits and all(abs(h.score - truth[h.unit_id]) < 1e-5 for h in hits)


def test_derived_files_are_used_by_the_next_process_and_never_when_stale(many, tmp_path, write, monkeypatch):
    monkeypatch.setattr(vector_snapshot, "FILES_MIN_WINDOWS", 0)
    space = many.store.active_space()
    q = _queries(1)[0]
    first = VectorIndex(many.store).search(space, q, 10, Filters())
    root = vector_snapshot.files_root(many.path)
    assert len(os.listdir(root)) == 1
    # a fresh index (as a new process has) maps the files instead of rebuilding
    fresh = VectorIndex(many.store)
    snap = fresh.matrix(space)
    assert isinstance(snap.vectors, np.memmap)
    assert [h.unit_id for h in fresh.search(space, q, 10, Filters())] == [h.unit_id for h in first]
    # another process adds and embeds a paper: the next search here sees it
    write("zz.md", paper_text(key="zz", title="Zebrafish fin regrowth", intro="Zebrafish fins regrow."))
    code = ("from papershelf import Library; from papershelf.embed.base import ProviderSpec as S; "
            f"lib = Library({many.path!r}); lib.add([{str(write.root)!r}]); "
            "lib.embed(S('hash', 'hash-v1', (('dimension', 64),))); lib.close()")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    vec = many.search("Zebrafish fins regrow", mode="vector").results
    assert vec[0].paper_id == "zz"
    assert "zz" in {h.paper_id for h in fresh.search(space, q, 10**4, Filters())}
    # deleting the derived files loses nothing
    import shutil
    shutil.rmtree(root)
    assert many.search("Zebrafish fins regrow", mode="vector").results[0].paper_id == "zz"
    assert many.verify().ok


def test_a_new_library_at_the_same_path_never_reads_old_files(tmp_path, write, monkeypatch):
    monkeypatch.setattr(vector_snapshot, "FILES_MIN_WINDOWS", 0)
    write("a.md", paper_text(key="a", title="Alpha", intro="Alpha particles."))
    path = str(tmp_path / "lib.db")
    with Library(path) as lib:
        lib.add([str(write.root)])
        lib.embed(HASH)
        lib.search("alpha", mode="vector")
    os.remove(path)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    (write.root / "a.md").unlink()
    write("b.md", paper_text(key="b", title="Beta", intro="Beta decay."))
    with Library(path) as lib:  # same path, same space fingerprint, same generation numbers
        lib.add([str(write.root)])
        lib.embed(HASH)
        assert {h.paper_id for h in lib.search("alpha", mode="vector").results} == {"b"}


def test_coded_derived_files_read_windows_without_mapping_them(many, monkeypatch):
    """Large spaces' files: windows come by preadv, never through the map, and rank like memory."""
    monkeypatch.setattr(vector_snapshot, "FILES_MIN_WINDOWS", 0)
    monkeypatch.setattr(vector_snapshot, "CODES_MIN_WINDOWS", 0)
    monkeypatch.setattr(vector_index, "RESCORE_MIN", 10**6)
    space = many.store.active_space()
    memory = VectorIndex(many.store, files=False)
    VectorIndex(many.store).matrix(space)  # writes the files
    snap = VectorIndex(many.store).matrix(space)  # maps them, as a new process does
    assert snap.fd is not None and isinstance(snap.means8, np.memmap)
    monkeypatch.setattr(snap, "vectors", _Untouchable(snap.vectors))
    for q in _queries(5):
        a = [(h.unit_id, round(h.score, 5), h.window) for h in memory.search(space, q, 15, Filters())]
        b = [(h.unit_id, round(h.score, 5), h.window) for h in VectorIndex.search(_Fixed(snap), space, q, 15,
                                                                                   Filters())]
        assert a == b and a


def test_windows_read_in_runs_are_each_units_windows(many, monkeypatch):
    """Neighbouring units' windows come in one read: the same rows, in the units' order, as memory."""
    monkeypatch.setattr(vector_snapshot, "FILES_MIN_WINDOWS", 0)
    monkeypatch.setattr(vector_snapshot, "CODES_MIN_WINDOWS", 0)
    space = many.store.active_space()
    memory = VectorIndex(many.store, files=False).matrix(space)
    VectorIndex(many.store).matrix(space)
    mapped = VectorIndex(many.store).matrix(space)
    assert mapped.fd is not None and memory.units > 12
    for units in ([0, 1, 2, 5, 6, 9], [3], [0, memory.units - 1], list(range(memory.units)), []):
        picked = np.array(units, dtype=np.int64)
        assert np.array_equal(mapped.windows_of(picked), memory.windows_of(picked))
    runs = vector_snapshot._runs(memory.starts[[0, 1, 2, 5, 6, 9]], memory.counts[[0, 1, 2, 5, 6, 9]])
    assert len(runs) == 3 and sum(c for _, c in runs) == int(memory.counts[[0, 1, 2, 5, 6, 9]].sum())


class _Untouchable(np.memmap):
    """A memory map whose rows must not be read through the map (shape and offset only)."""

    def __new__(cls, m):
        obj = m.view(cls)
        obj.offset = m.offset
        return obj

    def __getitem__(self, key):
        raise AssertionError("windows read through the memory map")


class _Fixed(VectorIndex):
    def __init__(self, snap):
        self.snap = snap

    def matrix(self, space):
        return self.snap

    def _unit_mask(self, snap, f):
        return None
