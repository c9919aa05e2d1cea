"""SQLite lexical top-k (store/sqlite/topk.py): the rare-word split returns the OR query's own top k."""

from __future__ import annotations

import random

import pytest

from papershelf.models import Filters, Paper
from papershelf.store.sqlite import SQLiteStore, topk
from papershelf.units import Unit, make_manifest

STEMS = ["cell", "signal", "protein", "model", "measur", "sampl", "coral", "wound", "graph", "retriev", "network",
         "bleach", "depth", "assay", "train", "encod", "citat", "survey", "temper", "anomal", "macrophag"]
SUFFIXES = ["", "s", "ing", "ed", "ation", "er", "ly", "ness"]
WORDS = [s + x for s in STEMS for x in SUFFIXES] + [f"rare{i}" for i in range(300)]


def _text(rng: random.Random, n: int) -> str:
    """Zipf-distributed words: the first few are in most units, as common words are."""
    weights = [1.0 / (i + 1) for i in range(len(WORDS))]
    return " ".join(rng.choices(WORDS, weights, k=n))


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    rng = random.Random(5)
    s = SQLiteStore(str(tmp_path_factory.mktemp("topk") / "lib.db"))
    for i in range(120):
        _write(s, rng, i)
    yield s
    s.close()


def _write(s: SQLiteStore, rng: random.Random, i: int) -> None:
    pid = f"p{i:04d}"
    paper = Paper(id=pid, title=_text(rng, 6), authors=["A. Author"], year=2000 + i % 20, source_format="synthetic")
    units = [Unit(id=f"{pid}:body:{n}", paper_id=pid, kind="body", ordinal=n, text=_text(rng, 40),
                  section_path=f"Section {n}", token_estimate=60) for n in range(12)]
    for n, u in enumerate(units):
        u.content_hash = f"h{i}-{n}"
    s.write_paper(paper, units, make_manifest(units))


def _query(rng: random.Random) -> str:
    """Common words with a mid and a rare one, in any order."""
    words = rng.choices(WORDS[:10], k=2) + [rng.choice(WORDS[40:168]), rng.choice(WORDS)]
    rng.shuffle(words)
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(words))


def _both(store, monkeypatch, match: str, limit: int, filters=Filters(), weights=(1.0, 1.0, 1.0)):
    monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "1")
    exact = store.lexical_search(match, limit, filters, weights)
    monkeypatch.setenv("PAPERSHELF_SQLITE_EXACT_LEXICAL", "0")
    return exact, store.lexical_search(match, limit, filters, weights)


def _same_top(exact, fast) -> None:
    """The same scores rank by rank (to the last bits of the sum), and the same units but for ties at the cut."""
    assert [round(h.score, 9) for h in fast] == [round(h.score, 9) for h in exact]
    cut = exact[-1].score if exact else 0.0
    differ = {h.unit_id for h in exact} ^ {h.unit_id for h in fast}
    assert all(abs(h.score - cut) < 1e-9 for h in exact + fast if h.unit_id in differ)


@pytest.mark.parametrize("limit", [10, 100])
def test_split_gives_the_or_querys_top_k(store, monkeypatch, limit):
    rng = random.Random(limit)
    split = 0
    for _ in range(60):
        match = _query(rng)
        exact, fast = _both(store, monkeypatch, match, limit)
        _same_top(exact, fast)
        plan = store._topk_split(match, limit)
        split += plan is not None and topk.top(plan, limit, lambda e: store.query(
            "SELECT d.unit_id, bm25(search_fts, 1.0, 1.0, 1.0) AS score FROM search_fts JOIN search_docs d "
            "ON d.rowid = search_fts.rowid WHERE search_fts MATCH ? ORDER BY score LIMIT ?", [e, limit])) is not None
    assert split >= 15  # the split really ran (else this test would compare the OR query with itself)


def test_split_with_filters_and_weights(store, monkeypatch):
    rng = random.Random(9)
    for _ in range(20):
        match = _query(rng)
        _same_top(*_both(store, monkeypatch, match, 20, Filters(year_from=2005), (2.0, 1.0, 0.5)))


def test_index_terms_are_the_ones_fts5_indexes(store):
    """`index_term` names the term FTS5's porter tokenizer wrote for each word (else the split's
    frequencies, and so its bound, would be another word's)."""
    words = [w for w in WORDS if not w.startswith("rare")]
    indexed = {r[0] for r in store.query("SELECT term FROM temp.search_vocab")} if store._lexical_stats().df("cell") \
        else set()
    assert indexed and all(topk.index_term(w) in indexed for w in words)


def test_frequencies_follow_a_write(tmp_path, monkeypatch):
    s = SQLiteStore(str(tmp_path / "lib.db"))
    rng = random.Random(1)
    for i in range(30):
        _write(s, rng, i)
    term = topk.index_term("cells")
    before = s._lexical_stats().df(term)
    for i in range(30, 40):
        _write(s, rng, i)
    assert s._lexical_stats().df(term) > before and s.index_size() == 40 * 12
    _same_top(*_both(s, monkeypatch, '"cells" OR "signal" OR "rare3"', 10))
    s.close()


def test_only_plain_words_are_split():
    def df(term):
        return 900 if term == "cell" else 3

    plan = topk.split('"cell" OR "rarely"', 1000, 1, df)
    assert plan is not None and plan.common == ['"cell"'] and plan.rare == ['"rarely"']
    for match in ('"cell"* OR "rarely"', '"il 6" OR "cell"', '"cell"', '"café" OR "cell"', '"cell" OR "rare1"'):
        assert topk.split(match, 1000, 1, df) is None


def test_a_bound_it_cannot_beat_falls_back(tmp_path, monkeypatch):
    """Units holding only the common word outscore those holding the rare one: the split must not
    answer (its k-th score is below the common word's bound), and the search gives the OR query's top."""
    s = SQLiteStore(str(tmp_path / "lib.db"))
    texts = ["rarely " + "filler " * 50] * 20 + ["cell " * 5] * 40 + ["filler " * 20] * 140
    for i, text in enumerate(texts):
        paper = Paper(id=f"p{i}", title="x", authors=[], year=2000, source_format="synthetic")
        unit = Unit(id=f"p{i}:body:0", paper_id=f"p{i}", kind="body", ordinal=0, text=text, token_estimate=60)
        unit.content_hash = f"h{i}"
        s.write_paper(paper, [unit], make_manifest([unit]))
    stats = s._lexical_stats()
    df = stats.df(topk.index_term("cell"))
    plan = topk.Split(['"rarely"'], ['"cell"'], topk.idf(stats.fts_units, df) * (topk.K1 + 1), False)
    assert topk.top(plan, 10, lambda e: s.query(
        "SELECT d.unit_id, bm25(search_fts) AS score FROM search_fts JOIN search_docs d ON d.rowid = search_fts.rowid "
        "WHERE search_fts MATCH ? ORDER BY score LIMIT 10", [e])) is None
    exact, fast = _both(s, monkeypatch, '"rarely" OR "cell"', 10)
    assert all(h.unit_id.startswith(tuple(f"p{i}:" for i in range(20, 60))) for h in fast)
    _same_top(exact, fast)
    s.close()
