"""SQLite BM25 from the derived postings file (store/sqlite/postings*.py): FTS5's own ranking to the
bit, and never an answer from a file that is not of the library as it is now."""

from __future__ import annotations

import os
import random

import pytest

from papershelf.models import Filters, Paper
from papershelf.store.sqlite import SQLiteStore, postings_build, postings_files
from papershelf.store.sqlite.postings import exact_weights
from papershelf.units import Unit, make_manifest

STEMS = ["cell", "signal", "protein", "model", "measur", "sampl", "coral", "wound", "graph", "retriev", "network",
         "bleach", "depth", "assay", "train", "encod", "citat", "survey", "temper", "anomal", "macrophag"]
SUFFIXES = ["", "s", "ing", "ed", "ation", "er", "ly", "ness"]
WORDS = [s + x for s in STEMS for x in SUFFIXES] + [f"rare{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(300)]
WEIGHTS = [(1.0, 1.0, 1.0), (2.0, 1.0, 0.5), (0.0, 1.0, 1.0), (1.5, 0.25, 3.0)]


def _text(rng: random.Random, n: int) -> str:
    """Zipf-distributed words, "the" and "of" among them (stop words: not in the file)."""
    weights = [1.0 / (i + 1) for i in range(len(WORDS))]
    return " ".join(rng.choices(WORDS, weights, k=n)) + " of the"


def _write(s: SQLiteStore, rng: random.Random, i: int, extra: str = "") -> None:
    pid = f"p{i:04d}"
    paper = Paper(id=pid, title=_text(rng, 6), authors=["A. Author"], year=2000 + i % 20, source_format="synthetic")
    units = [Unit(id=f"{pid}:body:{n}", paper_id=pid, kind="body", ordinal=n, text=_text(rng, 40) + extra,
                  section_path=f"Section {_text(rng, 2)}", token_estimate=60) for n in range(12)]
    for n, u in enumerate(units):
        u.content_hash = f"h{i}-{n}-{extra}"
    s.write_paper(paper, units, make_manifest(units))


def _store(path, papers: int = 80) -> SQLiteStore:
    rng = random.Random(5)
    s = SQLiteStore(str(path))
    for i in range(papers):
        _write(s, rng, i)
    return s


@pytest.fixture
def small(monkeypatch):
    """Postings for any library size, built in the searching thread."""
    monkeypatch.setattr(postings_files, "MIN_UNITS", 0)
    monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "0")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    s = _store(tmp_path_factory.mktemp("postings") / "lib.db")
    assert s.postings.build() is not None
    yield s
    s.close()


def _query(rng: random.Random) -> str:
    words = rng.choices(WORDS[:10], k=2) + [rng.choice(WORDS[40:168]), rng.choice(WORDS)]
    rng.shuffle(words)
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(words))


def _fts5(store, monkeypatch, match, limit, filters=Filters(), weights=(1.0, 1.0, 1.0)):
    monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "1")
    try:
        return store.lexical_search(match, limit, filters, weights)
    finally:
        monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "0")


def _from_file(store, match, limit, filters=Filters(), weights=(1.0, 1.0, 1.0)):
    where, params = store._filter_sql(filters)
    return store.postings.search(match, limit, where, params, weights)


def _same(exact, found) -> None:
    """The same scores, bit for bit, rank by rank, and the same units but for ties at the cut."""
    assert found is not None
    assert [h.score for h in exact] == [s for _, _, s in found]
    cut = exact[-1].score if exact else 0.0
    differ = {h.unit_id for h in exact} ^ {u for u, _, _ in found}
    assert all(h.score == cut for h in exact if h.unit_id in differ)
    assert {h.unit_id: h.paper_id for h in exact if h.unit_id not in differ} == \
        {u: p for u, p, _ in found if u not in differ}


@pytest.mark.parametrize("weights", WEIGHTS)
@pytest.mark.parametrize("limit", [5, 100])
def test_scores_are_fts5s_bm25_to_the_bit(built, small, monkeypatch, weights, limit):
    rng = random.Random(limit)
    for _ in range(25):
        match = _query(rng)
        exact = _fts5(built, monkeypatch, match, limit, weights=weights)
        _same(exact, _from_file(built, match, limit, weights=weights))


@pytest.mark.parametrize("filters", [Filters(year_from=2005, year_to=2009), Filters(papers=["p0003", "p0070"]),
                                     Filters(sources=["body_unit"]), Filters(object_kind="figure")])
def test_filters_are_applied_before_the_top(built, small, monkeypatch, filters):
    rng = random.Random(3)
    for _ in range(15):
        match = _query(rng)
        _same(_fts5(built, monkeypatch, match, 20, filters), _from_file(built, match, 20, filters))


def test_the_search_door_uses_the_file(built, small, monkeypatch):
    """`lexical_search` answers from the file (the comparison above is not FTS5 with itself)."""
    calls = []
    monkeypatch.setattr(built, "query", lambda *a, **k: calls.append(a) or SQLiteStore.query(built, *a, **k))
    hits = built.lexical_search('"cell" OR "raread"', 10, Filters())
    assert hits and not any("bm25(" in str(a[0]) for a in calls)


def test_what_the_file_cannot_express_goes_to_fts5(built, small):
    assert _from_file(built, '"cell signal"', 10) is None  # a phrase
    assert _from_file(built, '"cell"*', 10) is None  # a prefix
    assert _from_file(built, '"cell" OR "nosuchword"', 10) is None  # a word the file lacks
    assert _from_file(built, '"the" OR "of"', 10) is None  # stop words are left out of the file
    assert _from_file(built, '"cell"', 10, weights=(0.3, 1.0, 1.0)) is None  # 0.3 x n is not FTS5's sum


def test_exact_weights():
    assert exact_weights((1.0, 2.0, 0.5), 1000) and exact_weights((0.0, 1.0, 1.0), 10)
    assert not exact_weights((0.3, 1.0, 1.0), 2) and not exact_weights((-1.0, 1.0, 1.0), 1)
    assert not exact_weights((2.0**-60, 1.0, 1.0), 2)


def test_a_write_moves_the_generation_in_its_transaction(tmp_path):
    s = _store(tmp_path / "lib.db", papers=3)
    keys = [postings_build.state_key(s.db)]
    _write(s, random.Random(1), 3)
    keys.append(postings_build.state_key(s.db))
    with s.transaction() as db:
        db.execute("UPDATE search_docs SET source = source WHERE rowid = 1")
    keys.append(postings_build.state_key(s.db))
    s.remove_paper("p0001")
    keys.append(postings_build.state_key(s.db))
    with pytest.raises(RuntimeError), s.transaction() as db:  # a rolled-back write moves nothing
        db.execute("DELETE FROM search_docs")
        raise RuntimeError
    keys.append(postings_build.state_key(s.db))
    assert len(set(keys[:4])) == 4 and keys[4] == keys[3]


def test_a_stale_file_never_answers(tmp_path, small, monkeypatch):
    """After a write (here and from another connection) the file stops answering at once; the new
    paper is found (by FTS5, then by the rebuilt file) and a deleted one never comes back."""
    s = _store(tmp_path / "lib.db")
    s.postings.background = False
    match = '"cell" OR "zebrafish"'
    assert _from_file(s, '"cell"', 10) is None  # no file yet: FTS5 answers, a build runs
    assert _from_file(s, '"cell"', 10) is not None
    other = SQLiteStore(s.path)
    _write(other, random.Random(9), 500, extra=" zebrafish zebrafish")
    assert _from_file(s, '"cell"', 10) is None  # stale: rebuilt in this thread, FTS5 ranks this one
    hits = s.lexical_search(match, 10, Filters())
    assert hits[0].paper_id == "p0500" and _from_file(s, match, 10) is not None
    _same(_fts5(s, monkeypatch, match, 10), _from_file(s, match, 10))
    other.remove_paper("p0500")
    assert all(h.paper_id != "p0500" for h in s.lexical_search(match, 100, Filters()))
    other.close()
    s.close()


def test_a_write_during_the_build_leaves_a_file_of_the_state_it_read(tmp_path, small, monkeypatch):
    s = _store(tmp_path / "lib.db", papers=20)
    before = postings_build.state_key(s.db)
    sizes = postings_build._sizes

    def write_meanwhile(db):
        writer = SQLiteStore(s.path)
        _write(writer, random.Random(2), 600, extra=" zebrafish")
        writer.close()
        return sizes(db)

    monkeypatch.setattr(postings_build, "_sizes", write_meanwhile)
    post = s.postings.build()
    assert post is not None and post.key == before != postings_build.state_key(s.db)
    assert post.terms.find("zebrafish") is None
    assert _from_file(s, '"zebrafish" OR "cell"', 10) is None  # FTS5 ranks
    assert s.lexical_search('"zebrafish"', 10, Filters())[0].paper_id == "p0600"


def test_a_broken_or_foreign_file_is_never_read(tmp_path, small, monkeypatch):
    s = _store(tmp_path / "lib.db", papers=20)
    post = s.postings.build()
    assert post is not None
    folder = s.postings._folder(post.key)
    assert folder is not None
    with open(os.path.join(folder, "docs.bin"), "r+b") as f:  # a file cut short (a crash, a full disk)
        f.truncate(8)
    os.makedirs(os.path.join(os.path.dirname(folder), ".building-x"))  # a build that died
    fresh = SQLiteStore(s.path)
    fresh.postings.background = False
    match = '"cell" OR "signal"'
    assert _from_file(fresh, match, 10) is None  # not loadable: rebuilt
    _same(_fts5(fresh, monkeypatch, match, 10), _from_file(fresh, match, 10))
    # a file named for this state but of another (copied by hand): its own key disagrees
    other = SQLiteStore(str(tmp_path / "other.db"))
    _write(other, random.Random(4), 1)
    foreign = other.postings.build()
    assert foreign is not None
    name = fresh.postings._folder(postings_build.state_key(fresh.db))
    assert name is not None
    fresh.postings.current = None
    os.rename(name, name + ".old")
    os.rename(other.postings._folder(foreign.key) or "", name)
    assert _from_file(fresh, match, 10) is None


def test_background_build_then_the_file_answers(tmp_path, small):
    s = _store(tmp_path / "lib.db", papers=20)
    assert s.postings.background and _from_file(s, '"cell"', 10) is None
    s.postings.wait()
    assert _from_file(s, '"cell"', 10) is not None


def test_small_libraries_and_the_off_switch_keep_fts5(tmp_path, monkeypatch):
    s = _store(tmp_path / "lib.db", papers=5)
    s.postings.background = False
    monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "0")
    assert _from_file(s, '"cell"', 10) is None and _from_file(s, '"cell"', 10) is None  # under MIN_UNITS
    assert not os.path.exists(s.path + ".lexical")
    monkeypatch.setattr(postings_files, "MIN_UNITS", 0)
    monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "1")
    assert _from_file(s, '"cell"', 10) is None and not os.path.exists(s.path + ".lexical")


def test_varints_read_sqlites_encoding():
    assert postings_build.varints(bytes([0x05, 0x81, 0x00, 0x7F])) == [5, 128, 127]
    assert postings_build.varints(bytes([0xFF] * 8 + [0x01])) == [(2**56 - 1) << 8 | 1]
