"""Queries as values (#37): a search ranks by words, a vector, a paper or a unit, on both backends; `search
--like` reaches the CLI, HTTP and MCP through the search declaration; paper vectors follow the library."""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
import numpy as np
import pytest

from papershelf import Filters, Library
from papershelf.errors import BadArgument, NotFound
from papershelf.frontends import mcp
from papershelf.models import Query
from papershelf.paper_vectors import PaperVectors, unit_length

from .citation_fixtures import write_papers
from .conftest import HASH
from .servers import cli_env, running_server
from .test_discover_doors import embedded_citation_library


@pytest.fixture
def library(lib, tmp_path):
    write_papers(tmp_path / "papers")
    assert not lib.add([str(tmp_path / "papers")]).failed
    lib.embed(HASH)
    survey = next(s.paper.id for s in lib.papers() if "survey" in (s.paper.title or "").lower())
    return lib, survey


def _whole(lib, paper_id: str) -> np.ndarray:
    """The paper's vector computed here from its stored windows: the mean of its units' mean windows."""
    space = lib.store.active_space()
    means = []
    for stored in lib.store.stored_vectors(space.id, paper_id).values():
        w = np.frombuffer(stored.vector, dtype=np.float32).reshape(-1, space.dimension)
        means.append((w / np.linalg.norm(w, axis=1, keepdims=True)).mean(axis=0))
    return unit_length(np.mean(means, axis=0))


def test_a_search_by_a_paper_is_a_search_by_its_vector_without_itself(library):
    lib, survey = library
    by_paper = lib.search(Query.paper(survey), limit=50, per_paper=50)
    assert by_paper.mode == "vector" and by_paper.query == f"like paper {survey}"
    assert by_paper.results and survey not in {h.paper_id for h in by_paper.results}
    by_vector = lib.search(Query.of_vector(_whole(lib, survey)), limit=200, per_paper=200)
    others = [(h.unit_id, round(h.score, 5)) for h in by_vector.results if h.paper_id != survey]
    assert [(h.unit_id, round(h.score, 5)) for h in by_paper.results] == others[:len(by_paper.results)]


def test_a_search_by_a_unit_leaves_out_the_unit_only(library):
    lib, survey = library
    unit = lib.search("survey", limit=1).results[0].unit_id
    hits = lib.search(Query.unit(unit), limit=100, per_paper=100).results
    assert hits and unit not in {h.unit_id for h in hits}
    space = lib.store.active_space()
    stored = lib.store.stored_vectors(space.id, lib.store.get_units([unit])[unit].paper_id)[unit]
    w = np.frombuffer(stored.vector, dtype=np.float32).reshape(-1, space.dimension)
    mine = unit_length((w / np.linalg.norm(w, axis=1, keepdims=True)).mean(axis=0))
    expected = [h.unit_id for h in lib.search(Query.of_vector(mine), limit=101, per_paper=101).results
                if h.unit_id != unit]
    assert [h.unit_id for h in hits] == expected[:len(hits)]


def test_query_values_are_checked(library):
    lib, survey = library
    with pytest.raises(BadArgument):
        lib.search(Query.of_vector([1.0, 2.0]))  # not the space's dimension
    with pytest.raises(NotFound):
        lib.search(Query.paper("no-such-paper"))
    with pytest.raises(BadArgument):
        lib.search("   ")
    year = lib.paper(survey).year
    later = lib.search(Query.paper(survey), filters=Filters(year_from=(year or 0) + 1), limit=50).results
    assert all((lib.paper(h.paper_id).year or 0) > (year or 0) for h in later)


def test_a_query_of_several_ranks_by_their_mean_and_leaves_each_out(library):
    lib, survey = library
    other = next(p for p in lib.store.paper_ids() if p != survey)
    both = lib.search(Query.together([Query.paper(survey), Query.paper(other)]), limit=50, per_paper=50)
    assert both.mode == "vector" and both.query == f"like paper {survey} + like paper {other}"
    assert both.results and not {survey, other} & {h.paper_id for h in both.results}
    mean = unit_length(_whole(lib, survey) + _whole(lib, other))
    by_vector = lib.search(Query.of_vector(mean), limit=300, per_paper=300).results
    expected = [(h.unit_id, round(h.score, 5)) for h in by_vector if h.paper_id not in (survey, other)]
    assert [(h.unit_id, round(h.score, 5)) for h in both.results] == expected[:len(both.results)]
    assert Query.together([Query.paper(survey)]) == Query.paper(survey)


def test_words_with_a_paper_search_both_ways(library):
    lib, survey = library
    words = lib.search("citation", limit=5)
    mixed = lib.search(Query.together([Query.of("citation"), Query.paper(survey)]), limit=20, per_paper=20)
    assert mixed.mode == "hybrid" and survey not in {h.paper_id for h in mixed.results}
    assert {h.unit_id for h in mixed.results} & {h.unit_id for h in words.results if h.paper_id != survey}


def test_paper_vectors_follow_the_library(library):
    lib, survey = library
    space = lib.store.active_space()
    vectors = PaperVectors(lib.store)
    papers, matrix = vectors.current(space)
    assert set(matrix.ids) == set(lib.store.paper_ids()) and np.allclose(papers[survey].whole, _whole(lib, survey))
    other = next(p for p in matrix.ids if p != survey)
    lib.remove(other)
    assert other not in vectors.current(space)[1].ids  # dropped at once, the others kept
    assert np.allclose(vectors.current(space)[0][survey].whole, _whole(lib, survey))
    assert other not in {h.paper_id for h in lib.search(Query.paper(survey), limit=50).results}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    return embedded_citation_library(tmp_path_factory.mktemp("like"))


def test_search_like_through_every_door(served):
    db, survey = served
    r = subprocess.run([sys.executable, "-m", "papershelf", "-L", str(db), "search", "--like", survey, "--json",
                        "--no-server"], env=cli_env(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    by_cli = json.loads(r.stdout)
    with running_server(db) as (url, _):
        by_http = httpx.get(f"{url}/api/search", params={"like": survey}).json()
        both = httpx.get(f"{url}/api/search", params={"like": survey, "query": "citation graph"}).json()
        assert both["mode"] == "hybrid" and both["query"] == f"citation graph + like paper {survey}"
    with Library(str(db), create=False) as lib:
        by_mcp = mcp.call(lib, "search", {"like": survey}).structured_content
    strip = [{k: v for k, v in h.items() if k != "explain"} for h in by_cli["results"]]
    assert strip and survey not in {h["paper_id"] for h in strip}
    nearest = strip[0]["paper_id"]
    two = subprocess.run([sys.executable, "-m", "papershelf", "-L", str(db), "search", "--like", survey, "--like",
                          nearest, "--json", "--no-server"], env=cli_env(), capture_output=True, text=True,
                         timeout=120)
    assert two.returncode == 0, two.stderr
    assert not {survey, nearest} & {h["paper_id"] for h in json.loads(two.stdout)["results"]}
    for other in (by_http, by_mcp):
        assert [h["unit_id"] for h in other["results"]] == [h["unit_id"] for h in strip]


def test_a_new_process_reads_the_paper_vectors_file_and_redoes_only_changed_papers(tmp_path, monkeypatch):
    import papershelf.paper_vectors as pv

    monkeypatch.setattr(pv, "FILE_MIN_PAPERS", 1)
    write_papers(tmp_path / "papers")
    with Library(str(tmp_path / "lib.db")) as lib:
        assert not lib.add([str(tmp_path / "papers")]).failed
        lib.embed(HASH)
        space = lib.store.active_space()
        first = PaperVectors(lib.store)
        papers, _ = first.current(space)
        assert list(tmp_path.glob("lib.db.papers-*.npz"))
        survey = next(p for p in papers if "survey" in p)
        asked: list = []
        real = lib.store.unit_means
        monkeypatch.setattr(lib.store, "unit_means", lambda s, ids=None: asked.append(ids) or real(s, ids))
        again = PaperVectors(lib.store).current(space)[0]  # a new process: from the file, nothing averaged
        assert asked == [] and np.allclose(again[survey].whole, papers[survey].whole)
        lib.embed(HASH, force=True, paper_ids=[survey])  # the survey's vectors written again: its stamp moves
        PaperVectors(lib.store).current(space)
        assert asked == [[survey]]


def test_section_pairs_for_the_best_candidates_score_as_for_all(library, monkeypatch):
    import papershelf.related as related

    lib, survey = library
    space = lib.store.active_space()
    vectors = PaperVectors(lib.store)
    every = related.paper_meaning(vectors, space, survey)
    assert len(every) == len(lib.store.paper_ids()) - 1
    monkeypatch.setattr(related, "CANDIDATES", 2)
    few = related.paper_meaning(vectors, space, survey)
    assert len(few) == 2 and all(few[p] == every[p] for p in few)
    closest = sorted(vectors.current(space)[1].ids, key=lambda p: -float(
        vectors.of(space, p).whole @ vectors.of(space, survey).whole))
    assert set(few) == set([p for p in closest if p != survey][:2])


def test_both_backends_give_the_same_order(tmp_path, pglib):
    """The same papers on SQLite and PostgreSQL: related and search --like rank alike (scores to 4 places)."""
    write_papers(tmp_path / "papers")
    with Library(str(tmp_path / "lib.db")) as lite:
        orders = []
        for lib in (lite, pglib):
            assert not lib.add([str(tmp_path / "papers")]).failed
            lib.embed(HASH)
            survey = next(s.paper.id for s in lib.papers() if "survey" in (s.paper.title or "").lower())
            related = [(h.paper_id, round(h.score, 4)) for h in lib.related(survey).results]
            like = [(h.unit_id, round(h.score, 4)) for h in lib.search(Query.paper(survey), limit=20).results]
            orders.append((related, like))
    assert orders[0] == orders[1] and orders[0][0] and orders[0][1]


def test_a_paper_with_more_units_than_asked_for_still_gives_others():
    """A search by a paper asks for its own units beyond the depth and leaves them out; when the paper holds
    more units than that, the vector search is asked again, deeper, so the hits are still other papers'."""
    from papershelf.models import VectorHit
    from papershelf.search.engine import _vector_list
    from papershelf.search.options import SearchOptions

    own = [VectorHit(f"p1:{i}", "p1", 1.0 - i / 1000) for i in range(500)]
    others = [VectorHit(f"p{j}:0", f"p{j}", 0.4 - j / 1000) for j in range(2, 40)]
    asked: list[int] = []

    def vector_fn(query, depth, filters):
        asked.append(depth)
        return (own + others)[:depth]

    hits, notice = _vector_list(Query.paper("p1"), SearchOptions(depth=10), vector_fn, {})
    assert notice is None and [h.paper_id for h in hits] == [f"p{j}" for j in range(2, 12)]
    assert asked[0] < 500 < asked[-1]
    hits, _ = _vector_list(Query.paper("p1"), SearchOptions(depth=100), vector_fn, {})
    assert len(hits) == len(others)  # the list ended: all there is
