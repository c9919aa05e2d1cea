"""What only the PostgreSQL backend has: its schema, HNSW search, builders sharing a library,
and `migrate` between backends.  (Everything else runs on it through the `lib` fixture.)"""

import json
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from papershelf import Filters, Library
from papershelf.embed.queries import QueryEmbedder
from papershelf.errors import LibraryFileError
from papershelf.store.migrate import migrate
from papershelf.store.postgres.schema import MIGRATIONS

from . import pg
from .backends import PG_SCHEMA_2_PAPER, tamper
from .conftest import BACKENDS, EXAMPLES, HASH, paper_text

pytestmark = pytest.mark.skipif("postgres" not in BACKENDS, reason="PostgreSQL backend not available (no pgserver)")

QUERIES = ["IL-6 western blot", "coral bleaching by depth", "citation graph negatives", "macrophage inflammation",
           "Table: bleaching", "wound closure sgp130Fc"]


@pytest.fixture
def many_pg(pglib, write):
    for i in range(16):
        write(f"p{i:02d}.md", paper_text(key=f"p{i:02d}", title=f"Paper {i}", intro=f"Topic number {i}."))
    pglib.add([str(write.root)])
    return pglib


def test_schema_version_and_foreign_or_newer_databases_are_refused(pglib):
    assert pglib.store.schema_version == len(MIGRATIONS)
    assert pglib.status().schema_version == len(MIGRATIONS)
    other = pg.empty_database()
    try:
        with pytest.raises(LibraryFileError, match="no library"):
            Library(other, create=False)
        pg._admin(other, "CREATE TABLE t(x int)")
        with pytest.raises(LibraryFileError, match="not a papershelf library"):
            Library(other)
    finally:
        pg.drop_database(other)
    tamper(pglib.store).schema_ahead()
    with pytest.raises(LibraryFileError, match="newer papershelf"):
        Library(pglib.path)


def test_an_unreachable_server_is_one_clear_line():
    with pytest.raises(LibraryFileError, match="cannot connect to the PostgreSQL library") as e:
        Library("postgresql://nobody:secret@127.0.0.1:1/nowhere?connect_timeout=2")
    assert "secret" not in str(e.value) and "\n" not in str(e.value)


def test_hnsw_search_agrees_with_exact_and_a_selective_filter_still_finds_its_matches(many_pg):
    many_pg.embed(HASH)
    store, space = many_pg.store, many_pg.store.active_space()
    q = QueryEmbedder(many_pg.store).vector(space, "Topic number 7")
    exact = store.vector_search(space, q, 10, Filters())
    assert store.ensure_vector_index(space.id, force=True)
    assert tamper(store).has_hnsw(space.id)
    # the graph as dense as the store says (m 24 / ef_construction 128 by default: BENCHMARKS.md)
    definition = store.query("SELECT indexdef FROM pg_indexes WHERE indexname = %s",
                             (f"vector_windows_hnsw_{space.id}",))[0]["indexdef"]
    assert f"m='{store.hnsw_m}'" in definition and f"ef_construction='{store.hnsw_ef_construction}'" in definition
    assert (store.hnsw_m, store.hnsw_ef_construction) == (24, 128)
    approx = store.vector_search(space, q, 10, Filters())
    assert approx[0] == exact[0] and approx[0].paper_id == "p07"
    assert [round(h.score, 5) for h in approx] == [round(h.score, 5) for h in exact]  # ties may reorder
    # Few units match this filter: HNSW's post-filtered candidates come back short, the exact scan answers.
    tables = store.vector_search(space, q, 20, Filters(object_kind="table", year_from=2020))
    assert len(tables) == 16 and all(":obj:table:" in h.unit_id for h in tables)
    assert store._exact_search(space, q / np.linalg.norm(q), 20, Filters(object_kind="table")) == tables


def test_a_claimed_paper_is_left_alone_until_its_lease_ends(many_pg):
    """A builder on another machine claimed p00 and crashed: it is skipped until the lease runs out,
    then taken over.  A claim by a dead process on this host is taken over at once."""
    many_pg.embed(HASH, paper_ids=["p15"])
    space = many_pg.target_space().id
    store = many_pg.store
    lease_ends = time.time() + 4  # longer than the first build below takes, even on a loaded machine
    tamper(store).add_claim(space, "p00", "elsewhere:1:x", 1, "other-machine", lease_ends)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    tamper(store).add_claim(space, "p01", "here:dead", dead.pid, store.host, time.time() + 900)
    first = many_pg.embed(HASH)
    assert "p00" not in first.embedded and "p01" in first.embedded and not first.complete
    assert many_pg.pending() == [("p00", "new")]
    time.sleep(max(0.0, lease_ends - time.time()) + 0.1)
    assert many_pg.embed(HASH).embedded == ["p00"] and many_pg.pending() == []


def test_a_builder_whose_claim_was_taken_over_writes_nothing(many_pg):
    many_pg.embed(HASH, paper_ids=["p15"])
    space = many_pg.target_space().id
    a, b = many_pg.store, Library(many_pg.path).store
    try:
        a.lease_seconds = 0.0  # a's lease is over the moment it is granted
        assert a.claim(space, "p00")
        assert b.claim(space, "p00")  # b takes the expired claim over
        assert not a.claim(space, "p00")  # b's lease is live: a's own lapsed lease gives it no way back
        a.lease_seconds = 900.0
        assert not a.claim(space, "p00")
        assert not a.write_paper_vectors(space, "p00", [], {"body": "", "object": "", "chunk": ""},
                                         {"body": 0, "object": 0, "chunk": 0})
        assert ("p00", "new") in many_pg.pending()
    finally:
        b.close()


def _embed_process(location: str, delay: str, tag: str) -> subprocess.Popen:
    env = dict(os.environ, PAPERSHELF_LIBRARY=location, PAPERSHELF_HASH_DELAY=delay, PAPERSHELF_TEST_TAG=tag)
    return subprocess.Popen([sys.executable, "-m", "papershelf", "embed", "--provider", "hash", "--dimension", "64",
                             "--batch-size", "2", "--workers", "1", "--json"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _summary(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def test_two_builders_on_two_machines_halve_the_time(write):
    """Two `embed` processes (as on two machines) on one library: each paper is written once, by one
    of them, `verify` is clean, and together they take about half as long as one alone."""
    for i in range(16):
        write(f"p{i:02d}.md", paper_text(key=f"p{i:02d}", title=f"Paper {i}", intro=f"Topic number {i}."))
    locations = [pg.fresh_database(), pg.fresh_database()]
    try:
        for location in locations:
            with Library(location) as lib:
                lib.add([str(write.root)])
        alone = _summary(_embed_process(locations[0], "0.15", "alone"))  # long beside start-up skew
        pair = [_embed_process(locations[1], "0.15", t) for t in ("a", "b")]
        a, b = (_summary(p) for p in pair)
        assert alone["embedded"] == 16
        with Library(locations[1]) as lib:
            assert lib.pending() == [] and lib.verify().ok and lib.store.active_space() is not None
            assert tamper(lib.store).duplicate_vectors() == 0
            written = tamper(lib.store).build_states()
        assert a["embedded"] + b["embedded"] == 16 == written and a["embedded"] and b["embedded"]
        assert max(a["seconds"], b["seconds"]) < 0.75 * alone["seconds"], (alone["seconds"], a["seconds"],
                                                                            b["seconds"])
    finally:
        for location in locations:
            pg.drop_database(location)


def _results(lib: Library, mode: str) -> list[list[tuple[str, float]]]:
    """The hits of each query; hits scoring exactly 0 (units the hash vectors share no feature
    with) are tied, and which of a tie fill the last places is the backend's choice, so they
    are left out of the comparison."""
    return [[(h.unit_id, round(h.score, 4)) for h in lib.search(q, mode=mode, limit=10).results if h.score > 0]
            for q in QUERIES]


def test_migrate_sqlite_to_postgres_and_back_without_reembedding(tmp_path, write):
    src = str(tmp_path / "src.db")
    with Library(src) as lib:
        lib.add([str(EXAMPLES)])
        lib.embed(HASH)
        write("late.md", paper_text(key="late", title="Added after the build"))
        lib.add([str(write.root)])  # pending in the source: copied without vectors, still pending
        before = {m: _results(lib, m) for m in ("lexical", "vector", "hybrid")}
        pending = lib.pending()
    assert pending == [("late", "new")]
    url = pg.fresh_database()
    back = str(tmp_path / "back.db")
    try:
        report = migrate(src, url)
        assert report.papers == 5 and sum(report.vectors.values()) > 0
        with Library(url) as lib:
            assert lib.verify().ok and lib.pending() == pending
            assert _results(lib, "vector") == before["vector"]  # same vectors, same cosine
            assert lib.embed(HASH).embedded == ["late"]  # only the owed work, nothing re-embedded
        migrate(url, back)
        with Library(back) as lib:
            assert lib.verify().ok and lib.pending() == []
            assert lib.search("Added after the build", mode="vector", limit=1).results[0].paper_id == "late"
            lib.remove("late")
            after = {m: _results(lib, m) for m in before}
        with Library(src) as lib:
            lib.remove("late")
            assert {m: _results(lib, m) for m in before} == after
    finally:
        pg.drop_database(url)


def test_migrate_refuses_a_destination_with_papers(tmp_path, pglib):
    pglib.add([str(EXAMPLES)])
    src = str(tmp_path / "src.db")
    with Library(src) as lib:
        lib.add([str(EXAMPLES)])
    from papershelf.errors import BadArgument

    with pytest.raises(BadArgument, match="already holds papers"):
        migrate(src, pglib.path)


def test_a_schema_2_library_migrates_forward_with_a_source_row_per_paper():
    """Migrations 3 (labels) and 4 (paper sources) on a library written before them."""
    url = pg.empty_database()
    try:
        setup = "; ".join(str(m) for m in MIGRATIONS[:2])
        pg._admin(url, setup + "; " + PG_SCHEMA_2_PAPER)
        with Library(url) as lib:
            assert lib.store.schema_version == len(MIGRATIONS)
            [src] = lib.store.sources("old")
            assert (src.path, src.paper_id, src.priority, src.doi, src.provides) == ("/p/old.pdf", "old", 1,
                                                                                     "10.1/abc", True)
            assert src.title_key and lib.store.source_record("/p/old.pdf") == ("old", "h1")
            assert lib.store.get_paper("old").tags == []
    finally:
        pg.drop_database(url)


def test_migrate_copies_labels_sources_and_remembered_metadata(tmp_path):
    from papershelf.models import PaperSource

    src = str(tmp_path / "src.db")
    with Library(src) as lib:
        lib.add([str(EXAMPLES)])
        pid = lib.store.paper_ids()[0]
        paper, manifest, units = lib.store.paper_snapshot(pid)
        paper.tags, paper.collections, paper.zotero_attachment = ["Reviewed", "to-read"], ["Bio/Cells"], "ABCD1234"
        lib.store.write_paper(paper, units, manifest)
        lib.store.save_source(PaperSource("/elsewhere/copy.tei.xml", pid, "tei", "h2", 10, 1.0, 2, "10.9/x", None,
                                          "k", 2020, 5.0))
        lib.store.remember_metadata("/elsewhere/copy.tei.xml", '{"meta": {}}')
        sources = [s.to_dict() for s in lib.store.sources()]
        hits = [h.paper_id for h in lib.search(paper.title, mode="lexical", filters=Filters(tags=["reviewed"]),
                                               limit=5).results]
    url = pg.fresh_database()
    try:
        migrate(src, url)
        with Library(url) as lib:
            copied = lib.store.get_paper(pid)
            assert (copied.tags, copied.collections, copied.zotero_attachment) == \
                (["Reviewed", "to-read"], ["Bio/Cells"], "ABCD1234")
            assert [s.to_dict() for s in lib.store.sources()] == sources
            assert lib.store.remembered_metadata("/elsewhere/copy.tei.xml") == '{"meta": {}}'
            assert [h.paper_id for h in lib.search(paper.title, mode="lexical", filters=Filters(tags=["REVIEWED"]),
                                                   limit=5).results] == hits == [pid] * len(hits) != []
            assert lib.store.labelled_paper_ids(Filters(collections=["bio"])) == [pid]
            assert lib.store.labelled_paper_ids(Filters(collections=["Bio/Cell"])) == []
    finally:
        pg.drop_database(url)


def test_a_read_only_server_reads_and_refuses_writes_with_one_line(pglib):
    """A read-only role or replica (here: default_transaction_read_only) acts as a read-only SQLite file."""
    from papershelf.errors import ReadOnlyLibrary

    pglib.add([str(EXAMPLES)])
    url = pglib.path + ("&" if "?" in pglib.path else "?") + "options=-c%20default_transaction_read_only%3Don"
    with Library(url, create=False) as lib:
        assert lib.status().papers == pglib.status().papers
        assert lib.search("coral bleaching", mode="lexical", limit=3).results
        with pytest.raises(ReadOnlyLibrary, match="read-only"):
            lib.remove(lib.store.paper_ids()[0])
    assert pglib.status().papers == len(pglib.store.paper_ids())


def test_a_read_does_not_wait_for_a_transaction_holding_the_connection(many_pg):
    """While one thread's transaction holds the main connection (a build writing a paper), another
    thread's reads and searches run on a read connection: at once, seeing only what is committed.
    Inside the transaction, its own thread reads its writes."""
    many_pg.embed(HASH)
    store = many_pg.store
    inside, release, seen = threading.Event(), threading.Event(), []

    def writer():
        with store.transaction() as db:
            db.execute("UPDATE papers SET title = 'not yet committed' WHERE id = 'p00'")
            seen.append(store.query("SELECT title FROM papers WHERE id = 'p00'")[0]["title"])
            inside.set()
            release.wait(20)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert inside.wait(10)
        start = time.perf_counter()
        title = store.query("SELECT title FROM papers WHERE id = 'p00'")[0]["title"]
        found = many_pg.search("Topic number", mode="hybrid", limit=3)
        elapsed = time.perf_counter() - start
    finally:
        release.set()
        thread.join()
    assert seen == ["not yet committed"]
    assert title == "Paper 0" and found.mode == "hybrid" and found.results and elapsed < 5
    assert store.query("SELECT title FROM papers WHERE id = 'p00'")[0]["title"] == "not yet committed"


def test_a_search_counts_its_phrases_at_once_on_read_connections(pglib, write):
    """A query's phrases ("IL-6", "sgp130-Fc") are counted beside each other: the two counts meet at
    a barrier before their queries, which they could not if they ran in turn; the hits are those
    found with the phrases counted one after the other."""
    write("a.md", paper_text(key="a", title="Blocking IL-6 with sgp130-Fc", intro="IL-6 trans-signalling."))
    write("b.md", paper_text(key="b", title="Coral bleaching", intro="Reef temperatures rose."))
    pglib.add([str(write.root)])
    store, query = pglib.store, '"il 6" OR "sgp130 fc" OR "blocking"'
    with pg.reads_in_turn(store):
        alone = [(h.unit_id, round(h.score, 9)) for h in store.lexical_search(query, 10, Filters())]
    meet, real = threading.Barrier(2, timeout=5), store.query

    def spy(sql, params=None):
        if "bool_or(sampled)" in sql:  # a phrase's count (phrases.count)
            meet.wait()
        return real(sql, params)

    store.query = spy
    try:
        both = [(h.unit_id, round(h.score, 9)) for h in store.lexical_search(query, 10, Filters())]
    finally:
        del store.query
    assert alone and both == alone
