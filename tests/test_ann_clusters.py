"""k-means clusters of unit means: deterministic, every unit filed once, shortlists of whole nearest
clusters that respect a mask, saved files checked on load, and derived files without clusters
getting them on load."""

import os

import numpy as np

from papershelf.models import Filters
from papershelf.store.sqlite import snapshot as vector_snapshot
from papershelf.store.sqlite import vector_index
from papershelf.store.sqlite.ann import clusters, scalar
from papershelf.store.sqlite.vector_index import VectorIndex

from .test_vector_index import _queries, many  # noqa: F401 - the fixture


def _grouped(n: int = 2000, groups: int = 40, d: int = 32, seed: int = 5):
    """Rows around `groups` random directions, int8-coded as a snapshot holds them."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((groups, d))
    m = centres[rng.integers(0, groups, n)] + 0.3 * rng.standard_normal((n, d))
    m = (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32)
    return m, *scalar.quantize(m)


def test_clusters_are_deterministic_and_file_every_unit_once():
    _, codes, scale = _grouped()
    a, b = clusters.build(codes, scale, 64), clusters.build(codes, scale, 64)
    assert np.array_equal(a.centroids, b.centroids) and np.array_equal(a.order, b.order)
    assert sorted(a.order.tolist()) == list(range(len(codes)))
    assert a.bounds[0] == 0 and a.bounds[-1] == len(codes) and (np.diff(a.bounds) >= 0).all()
    assert np.allclose(np.linalg.norm(a.centroids, axis=1), 1.0, atol=1e-5)
    for c in range(64):  # row order within a cluster
        part = a.order[a.bounds[c] : a.bounds[c + 1]]
        assert (np.diff(part) > 0).all()


def test_a_shortlist_is_whole_nearest_clusters_holding_the_size():
    m, codes, scale = _grouped()
    c = clusters.build(codes, scale, 64)
    q = m[17]
    picked = clusters.shortlist(c, q, 100)
    assert len(picked) >= 100 and (np.diff(picked) > 0).all()
    sizes = np.diff(c.bounds)
    nearest = np.argsort(-(c.centroids @ q), kind="stable")
    opened = nearest[: np.searchsorted(np.cumsum(sizes[nearest]), 100) + 1]
    assert set(picked.tolist()) == set(np.concatenate([c.order[c.bounds[i] : c.bounds[i + 1]] for i in opened]))
    # the exact top 10 by cosine are nearly all in a shortlist of a tenth of the rows
    top = np.argsort(-(m @ q))[:10]
    assert len(set(top.tolist()) & set(clusters.shortlist(c, q, len(m) // 10).tolist())) >= 9


def test_a_masked_shortlist_holds_only_allowed_units_and_enough_of_them():
    m, codes, scale = _grouped()
    c = clusters.build(codes, scale, 64)
    allowed = np.zeros(len(m), bool)
    allowed[::7] = True
    picked = clusters.shortlist(c, m[3], 50, allowed)
    assert allowed[picked].all() and len(picked) >= 50
    assert len(clusters.shortlist(c, m[3], 10**6, allowed)) == allowed.sum()  # every allowed unit
    assert len(clusters.shortlist(c, m[3], 10, np.zeros(len(m), bool))) == 0


def test_saved_clusters_load_only_for_their_unit_count(tmp_path):
    _, codes, scale = _grouped()
    c = clusters.build(codes, scale, 64)
    path = str(tmp_path / "clusters.npz")
    clusters.save(c, path)
    back = clusters.load(path, len(codes))
    assert back is not None and np.array_equal(back.order, c.order) and np.array_equal(back.bounds, c.bounds)
    assert clusters.load(path, len(codes) + 1) is None  # another snapshot's
    assert clusters.load(str(tmp_path / "absent.npz"), len(codes)) is None
    (tmp_path / "cut.npz").write_bytes((tmp_path / "clusters.npz").read_bytes()[:100])
    assert clusters.load(str(tmp_path / "cut.npz"), len(codes)) is None
    assert sorted(os.listdir(tmp_path)) == ["clusters.npz", "cut.npz"]  # no temporary file left


def test_derived_files_without_clusters_get_them_and_search_by_them(many, monkeypatch):  # noqa: F811
    monkeypatch.setattr(vector_snapshot, "FILES_MIN_WINDOWS", 0)
    monkeypatch.setattr(vector_snapshot, "CODES_MIN_WINDOWS", 0)
    space = many.store.active_space()
    built = VectorIndex(many.store).matrix(space)  # writes the files, clusters included
    assert built.clusters is not None
    folder = os.path.dirname(os.path.realpath(f"/proc/self/fd/{built.fd}"))
    path = os.path.join(folder, vector_snapshot.CLUSTERS_FILE)
    os.unlink(path)  # as files written before clusters existed
    again = VectorIndex(many.store).matrix(space)
    assert again.clusters is not None and os.path.exists(path)
    assert np.array_equal(again.clusters.order, built.clusters.order)
    # the shortlist comes from the clusters, not from a Hamming pass
    monkeypatch.setattr(vector_index, "hamming", None)
    index = VectorIndex(many.store)
    for q in _queries(3):
        assert index.search(space, q, 5, Filters())


def test_only_derived_files_get_clusters_and_their_small_shortlists_score_exactly(many, monkeypatch):  # noqa: F811
    monkeypatch.setattr(vector_snapshot, "FILES_MIN_WINDOWS", 0)
    monkeypatch.setattr(vector_snapshot, "CODES_MIN_WINDOWS", 0)
    monkeypatch.setattr(vector_index, "SHORTLIST_MIN", 30)
    monkeypatch.setattr(vector_index, "SHORTLIST_PER_HIT", 1)
    monkeypatch.setattr(vector_index, "RESCORE_MIN", 12)
    monkeypatch.setattr(vector_index, "RESCORE_PER_HIT", 1)
    space = many.store.active_space()
    memory, files = VectorIndex(many.store, files=False), VectorIndex(many.store)
    assert memory.matrix(space).clusters is None  # rebuilt often during a build: no k-means there
    assert files.matrix(space).clusters is not None
    monkeypatch.setattr(vector_snapshot, "CODES_MIN_WINDOWS", 10**9)
    exact = VectorIndex(many.store, files=False)
    for q in _queries(3):
        truth = {h.unit_id: h.score for h in exact.search(space, q, 10**4, Filters())}
        hits = files.search(space, q, 10, Filters())
        assert hits and all(abs(h.score - truth[h.unit_id]) < 1e-5 for h in hits)
