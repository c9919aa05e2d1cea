"""BM25 statistics kept at write time on PostgreSQL (store/postgres/bm25.py): exact against a
recount after any sequence of writes, under concurrent writers and after kill -9, and a
ranking equal to BM25 computed independently from the tsvectors."""

import math
import os
import random
import signal
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

from papershelf import Filters, Library
from papershelf.document import Block, Document
from papershelf.models import Paper
from papershelf.store.postgres import bm25, forward, topk
from papershelf.store.postgres.schema import MIGRATIONS

from . import pg
from .conftest import BACKENDS

pytestmark = pytest.mark.skipif("postgres" not in BACKENDS, reason="PostgreSQL backend not available (no pgserver)")

VOCAB = ("cell cells macrophage inflammation signal western blot coral bleaching depth graph citation "
         "negative protein expression tumour growth receptor binding model training sample cohort "
         "patients mice dose response kinase pathway gene").split()


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(VOCAB) for _ in range(words)) + "."


def _add(lib: Library, rng: random.Random, pid: str) -> None:
    title = _text(rng, 4)
    blocks = [Block("heading", _text(rng, 2), level=1), Block("text", _text(rng, rng.randint(5, 60)))]
    if rng.random() < 0.5:
        blocks += [Block("heading", _text(rng, 2), level=1), Block("text", _text(rng, rng.randint(5, 60)))]
    lib.add_document(Paper(id=pid, title=title, year=rng.randint(2000, 2024), source_format="beir"),
                     Document(title=title, blocks=blocks))


def _recount_problems(lib: Library) -> list[str]:
    return bm25.problems(lib.store.query)


def _index_size_and_sql(lib: Library) -> tuple[int, list[str]]:
    seen: list[str] = []
    real = lib.store.query
    lib.store.query = lambda sql, *a: (seen.append(sql), real(sql, *a))[1]
    try:
        return lib.store.index_size(), seen
    finally:
        del lib.store.query


def test_statistics_stay_exact_through_random_adds_replacements_and_removals(pglib):
    rng = random.Random(24)
    alive: list[str] = []
    for step in range(120):
        r = rng.random()
        if r < 0.5 or len(alive) < 3:
            pid = f"p{step:03d}"
            _add(pglib, rng, pid)
            alive.append(pid)
        elif r < 0.75:
            _add(pglib, rng, rng.choice(alive))  # the same paper again, with new text
        else:
            pglib.remove(alive.pop(rng.randrange(len(alive))))
        if step % 40 == 39:
            assert _recount_problems(pglib) == [], step
            # the index size every search asks for comes from the kept totals, not a count per search
            count = pglib.store.query("SELECT count(*) AS n FROM search_docs")[0]["n"]
            size, asked = _index_size_and_sql(pglib)
            assert size == count
            assert not any("search_docs" in sql for sql in asked)
    assert pglib.verify().ok
    # The recount is a real check: a wrong df is found.
    pglib.store.query("UPDATE bm25_terms SET df = df + 1 WHERE id = (SELECT min(id) FROM bm25_terms)")
    assert any("document frequencies" in p for p in pglib.verify().index.problems)


def _oracle(lib: Library, words: list[str], filters: Filters, k: int) -> list[tuple[str, float]]:
    """BM25 from the tsvectors in Python: FTS5's idf and saturation, title/heading/body weights."""
    rows = lib.store.query("SELECT s.unit_id, s.paper_id, s.source, (SELECT array_agg(x.lexeme || ':' || w) "
                           "FROM unnest(s.tsv) x, unnest(x.weights) w) AS occ FROM search_docs s")
    terms = [r["l"] for r in lib.store.query("SELECT DISTINCT x.lexeme AS l FROM unnest(to_tsvector('papershelf_fts5', "
                                             "regexp_replace(%s, '[[:punct:]]', ' ', 'g'))) x",
                                             (" ".join(words),))]
    docs = {r["unit_id"]: (r["paper_id"], r["source"], [o.rsplit(":", 1) for o in r["occ"] or []]) for r in rows}
    n, avgdl = len(docs), sum(len(d[2]) for d in docs.values()) / len(docs)
    df = {t: sum(any(lx == t for lx, _ in d[2]) for d in docs.values()) for t in terms}
    weight = {"A": 2.0, "B": 1.5, "C": 1.0}
    out = []
    for uid, (_, source, occ) in docs.items():
        if filters.sources and source not in filters.sources:
            continue
        score, matched = 0.0, False
        for t in terms:
            tf = sum(weight[w] for lx, w in occ if lx == t)
            if tf:
                matched = True
                idf = max(1e-6, math.log((n - df[t] + 0.5) / (df[t] + 0.5)))
                score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(occ) / avgdl))
        if matched:
            out.append((uid, score))
    out.sort(key=lambda x: (-x[1], x[0]))
    return out[:k]


@pytest.mark.parametrize("filters", [Filters(), Filters(sources=["body_unit"])])
def test_pruned_ranking_equals_bm25_computed_from_the_tsvectors(pglib, monkeypatch, filters):
    rng = random.Random(7)
    for i in range(80):
        _add(pglib, rng, f"p{i:03d}")
    monkeypatch.setattr(bm25, "FULL_MAX", 0)  # prune even on a small library
    monkeypatch.setattr(bm25, "LOOKUP_COST", 0.0)
    monkeypatch.setattr(topk, "top", lambda *a: ([], False))  # (the bounded top-k has its own tests)
    tries: list[int] = []
    real = bm25._first_split
    monkeypatch.setattr(bm25, "_first_split", lambda m: tries.append(len(m) - real(m)) or real(m))
    for words in (["coral", "kinase", "cells"], ["gene", "cohort", "mice", "dose", "signal"], ["pathway"]):
        match = " OR ".join(f'"{w}"' for w in words)
        got = pglib.store.lexical_search(match, 10, filters, (2.0, 1.5, 1.0))
        want = _oracle(pglib, words, filters, 10)
        assert [h.unit_id for h in got] == [u for u, _ in want]
        assert [round(h.score, 6) for h in got] == [round(s, 6) for _, s in want]
    assert max(tries) >= 1  # MaxScore was tried, leaving lists unread (and its answer checked above)


def test_near_and_phrases_follow_fts5(pglib, monkeypatch):
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu"
    pglib.add_document(Paper(id="far", title="t", source_format="beir"),
                       Document(title="t", blocks=[Block("text", text)]))
    pglib.add_document(Paper(id="near", title="t", source_format="beir"),
                       Document(title="t", blocks=[Block("text", "alpha kappa gamma")]))
    near = [h.paper_id for h in pglib.store.lexical_search('NEAR("alpha" "kappa", 4)', 10, Filters())]
    assert near == ["near"]
    wider = pglib.store.lexical_search('NEAR("alpha" "kappa", 9)', 10, Filters())
    assert {h.paper_id for h in wider} == {"near", "far"}
    phrase = pglib.store.lexical_search('"gamma delta epsilon"', 10, Filters())
    assert [h.paper_id for h in phrase] == ["far"]
    # a phrase's units scored by reading its words' lists, or by looking them up: the same
    monkeypatch.setattr(bm25, "LOOKUP_COST", 0.0)
    assert pglib.store.lexical_search('"gamma delta epsilon"', 10, Filters()) == phrase


WRITER = """
import random, sys
from papershelf import Library
from papershelf.document import Block, Document
from papershelf.models import Paper
words = sys.argv[3].split()
rng = random.Random(int(sys.argv[2]))
with Library(sys.argv[1]) as lib:
    for i in range(int(sys.argv[4])):
        pid = f"w{sys.argv[2]}-{i % 25}"
        text = " ".join(rng.choice(words) for _ in range(rng.randint(20, 200)))
        lib.add_document(Paper(id=pid, title=text[:30], source_format="beir"),
                         Document(title=text[:30], blocks=[Block("text", text)]))
        if i % 7 == 6:
            lib.store.remove_paper(f"w{sys.argv[2]}-{(i * 3) % 25}")
        print(i, flush=True)
"""


def _writer(location: str, seed: int, papers: int) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    return subprocess.Popen([sys.executable, "-c", WRITER, location, str(seed), " ".join(VOCAB), str(papers)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_concurrent_writers_never_deadlock_and_keep_statistics_exact(pglib):
    procs = [_writer(pglib.store.location, seed, 60) for seed in (1, 2, 3)]
    for p in procs:
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0, err
    assert _recount_problems(pglib) == []
    assert pglib.store.query("SELECT count(*) AS n FROM bm25_docs")[0]["n"] > 0


def test_kill_9_in_the_middle_of_writes_leaves_exact_statistics(pglib):
    proc = _writer(pglib.store.location, 9, 100000)
    assert proc.stdout is not None
    for _ in range(30):  # let it write a few papers first
        proc.stdout.readline()
    time.sleep(0.05 * random.Random(0).randint(1, 10))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert _recount_problems(pglib) == []
    assert pglib.verify().ok
    _add(pglib, random.Random(1), "after")  # and writing goes on from there
    assert _recount_problems(pglib) == []


def _number(migration: str) -> int:
    """The number of the migration named `migration` (the first is 1)."""
    return next(i + 1 for i, m in enumerate(MIGRATIONS) if getattr(m, "__name__", "") == migration)


# The statistics' migration: the one that builds them from the existing index.
BM25_MIGRATION = _number("_m010_bm25")


def test_migration_fills_the_statistics_of_an_existing_library(pglib):
    rng = random.Random(3)
    for i in range(30):
        _add(pglib, rng, f"p{i:03d}")
    def top(lib):
        return [(h.unit_id, round(h.score, 9)) for h in lib.store.lexical_search('"coral" OR "kinase"', 20, Filters())]

    before = top(pglib)
    pglib.store.query("DROP TABLE bm25_terms, bm25_docs, bm25_postings, bm25_totals, bm25_reference; "
                      f"DROP FUNCTION papershelf_near; UPDATE papershelf_schema SET version = {BM25_MIGRATION - 1}")
    with Library(pglib.store.location) as again:
        assert again.store.schema_version == len(MIGRATIONS)
        assert _recount_problems(again) == []
        assert top(again) == before and before


@contextmanager
def _migrated(lib: Library, undo: str, migration: int):
    """The library set back to the layout before `migration` (`undo`), opened again: migrated to
    the last schema, its statistics equal to a recount."""
    lib.store.query(f"{undo}; UPDATE papershelf_schema SET version = {migration - 1}")
    with Library(lib.store.location) as again:
        assert again.store.schema_version == len(MIGRATIONS)
        assert _recount_problems(again) == []
        yield again


IMPACT_MIGRATION = _number("_m011_bm25_impacts")


def test_impact_migration_fills_the_impacts_of_a_library_kept_without_them(pglib):
    rng = random.Random(5)
    for i in range(30):
        _add(pglib, rng, f"p{i:03d}")
    before = [(h.unit_id, round(h.score, 9)) for h in pglib.store.lexical_search('"coral" OR "cells"', 20, Filters())]
    # the library as migration 10 left it: postings without impacts, indexed by term
    with _migrated(pglib, "DROP TABLE bm25_reference; DROP INDEX bm25_postings_impact; "
                   "ALTER TABLE bm25_postings DROP COLUMN impact; "
                   "CREATE INDEX bm25_postings_term ON bm25_postings(term_id) INCLUDE (doc_key)",
                   IMPACT_MIGRATION) as again:
        got = again.store.query("SELECT count(*) FILTER (WHERE impact > 0) AS ok, count(*) AS n FROM bm25_postings")[0]
        assert got["ok"] == got["n"] > 0
        assert [(h.unit_id, round(h.score, 9)) for h in again.store.lexical_search(
            '"coral" OR "cells"', 20, Filters())] == before
    # and a tampered impact is found by the recount
    pglib.store.query("UPDATE bm25_postings SET impact = impact * 0.5 WHERE doc_key = (SELECT min(doc_key) "
                      "FROM bm25_postings)")
    assert any("postings" in p for p in _recount_problems(pglib))


FORWARD_MIGRATION = _number("_m014_bm25_forward")


def test_forward_migration_derives_the_rows_ranking_looks_up_and_narrows_the_key(pglib):
    rng = random.Random(6)
    for i in range(30):
        _add(pglib, rng, f"p{i:03d}")
    query = '"coral" OR "cells" OR "kinase" OR "protein"'
    before = [(h.unit_id, round(h.score, 9)) for h in pglib.store.lexical_search(query, 20, Filters())]
    # the library as migration 13 left it: no forward rows, the key carrying the frequencies
    with _migrated(pglib, "DROP TABLE bm25_forward; ALTER TABLE bm25_postings DROP CONSTRAINT bm25_postings_pkey; "
                   "ALTER TABLE bm25_postings ADD PRIMARY KEY (doc_key, term_id) "
                   "INCLUDE (tf_title, tf_heading, tf_body, dl)", FORWARD_MIGRATION) as again:
        units = again.store.query("SELECT count(DISTINCT doc_key) AS n FROM bm25_postings")[0]["n"]
        assert again.store.query("SELECT count(*) AS n FROM bm25_forward")[0]["n"] == units > 0
        key = again.store.query("SELECT pg_get_indexdef('bm25_postings_pkey'::regclass) AS d")[0]["d"]
        assert "INCLUDE" not in key
        assert [(h.unit_id, round(h.score, 9)) for h in again.store.lexical_search(query, 20, Filters())] == before
    # a forward row that has lost a posting is found by the recount
    pglib.store.query("UPDATE bm25_forward SET tfs = tfs - (SELECT min(k) FROM jsonb_object_keys(tfs) k) "
                      "WHERE doc_key = (SELECT min(doc_key) FROM bm25_forward)")
    assert any("forward rows" in p for p in _recount_problems(pglib))


def test_a_bulk_recount_in_ranges_from_two_sessions_is_the_kept_statistics(pglib):
    """The bulk recount's phases (a benchmark runs the postings' ranges in parallel sessions) end
    where the statistics kept at write time are: the same postings, forward rows, df, totals and
    scores."""
    import psycopg
    from psycopg.rows import dict_row

    rng = random.Random(11)
    for i in range(40):
        _add(pglib, rng, f"p{i:03d}")
    query = '"coral" OR "cells" OR "kinase"'
    before = [(h.unit_id, round(h.score, 9)) for h in pglib.store.lexical_search(query, 20, Filters())]
    kept = pglib.store.query("SELECT t.term, t.df FROM bm25_terms t WHERE t.df > 0 ORDER BY 1")
    url = pglib.store.location
    with psycopg.connect(url, row_factory=dict_row, autocommit=True) as db:
        bm25.reset(db)
        bm25.count_units(db, None)
        top = db.execute("SELECT max(doc_key) AS k FROM bm25_docs").fetchone()["k"]
    for lo, hi in ((0, top // 3), (top // 3, top)):  # each range in its own session
        with psycopg.connect(url, row_factory=dict_row) as db:
            bm25.count_postings(db, lo, hi)
    with psycopg.connect(url, row_factory=dict_row) as db:
        bm25.index_postings(db)
    assert any("forward rows" in p for p in _recount_problems(pglib))  # (not derived yet)
    for lo, hi in ((0, top // 3), (top // 3, top)):
        with psycopg.connect(url, row_factory=dict_row) as db:
            forward.fill(db, "p.doc_key > %s AND p.doc_key <= %s", (lo, hi))
    assert _recount_problems(pglib) == []
    assert pglib.store.query("SELECT t.term, t.df FROM bm25_terms t WHERE t.df > 0 ORDER BY 1") == kept
    assert [(h.unit_id, round(h.score, 9)) for h in pglib.store.lexical_search(query, 20, Filters())] == before


TSV_MIGRATION = _number("_m015_tsv_in_row")


def _toast_blocks(lib: Library, column: str) -> int:
    """The TOAST blocks that reading every unit's `column` touches."""
    return pg.blocks_touched(lib, "search_docs", "toast_blks_hit + toast_blks_read",
                             lambda: lib.store.query(f"SELECT sum(length({column})) FROM search_docs"))


def test_tsv_migration_keeps_a_units_tsvector_in_its_row_and_moves_its_text_out(pglib):
    rng = random.Random(8)
    for i in range(10):  # units whose tsvector and text do not both fit a row's 2 kB share
        words = [f"{rng.choice(VOCAB)}{rng.randrange(10**6)}" for _ in range(150)]
        title = _text(rng, 4)
        pglib.add_document(Paper(id=f"p{i:02d}", title=title, source_format="beir"),
                           Document(title=title, blocks=[Block("text", " ".join(words) + ".")]))
    query = f'"{VOCAB[0]}" OR "coral"'
    before = [(h.unit_id, round(h.score, 9)) for h in pglib.store.lexical_search(query, 20, Filters())]
    assert _toast_blocks(pglib, "tsv") == 0 < _toast_blocks(pglib, "body")
    # the layout before migration 15: the tsvector moved out of the row first
    pglib.store.query("ALTER TABLE search_docs ALTER COLUMN tsv SET STORAGE EXTENDED")
    pglib.store.query("VACUUM FULL search_docs")
    assert _toast_blocks(pglib, "tsv") > 0
    with _migrated(pglib, "SELECT 1", TSV_MIGRATION) as again:
        assert _toast_blocks(again, "tsv") == 0 < _toast_blocks(again, "body")
        assert [(h.unit_id, round(h.score, 9)) for h in again.store.lexical_search(query, 20, Filters())] == before


VACUUM_MIGRATION = _number("_m016_postings_vacuum")


def _postings_options(lib: Library) -> set[str]:
    return set(lib.store.query("SELECT coalesce(reloptions, '{}') AS o FROM pg_class "
                               "WHERE oid = 'bm25_postings'::regclass")[0]["o"])


def test_the_postings_are_vacuumed_after_one_percent_new_or_dead_rows_in_new_and_migrated_libraries(pglib):
    """PostgreSQL's default waits for 20 % of a table to be new or dead before it vacuums, and until
    then the top-k's index-only scans look every posting of a page written since up in the table."""
    wanted = {"autovacuum_vacuum_insert_scale_factor=0.01", "autovacuum_vacuum_scale_factor=0.01"}
    assert _postings_options(pglib) == wanted
    _add(pglib, random.Random(9), "p000")
    with _migrated(pglib, "ALTER TABLE bm25_postings RESET (autovacuum_vacuum_insert_scale_factor, "
                   "autovacuum_vacuum_scale_factor)", VACUUM_MIGRATION) as again:
        assert _postings_options(again) == wanted
