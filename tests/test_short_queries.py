"""What researchers type: labels in many printed forms, author names, and relevance that holds for them."""

import pytest

from papershelf import Filters, SearchOptions
from papershelf.errors import BadArgument
from papershelf.ingest.captions import parse_caption, query_labels
from papershelf.search.features import bm25_norm, idf_max
from papershelf.search.labels import named_object, printed_forms

from .conftest import EXAMPLES, HASH, paper_text


@pytest.mark.parametrize("text, key, panel", [
    ("Table 3", ("table", False, (3,)), None),
    ("Fig. 7", ("figure", False, (7,)), None),
    ("figure 2b", ("figure", False, (2,)), "b"),
    ("table IV", ("table", False, (4,)), None),
    ("TABLE XIV", ("table", False, (14,)), None),
    ("Supplementary Figure S1", ("figure", True, (1,)), None),
    ("Fig. S2", ("figure", True, (2,)), None),
    ("supplementary table 3", ("table", True, (3,)), None),
    ("Fig 12", ("figure", False, (12,)), None),
    ("Tab. 3", ("table", False, (3,)), None),
    ("figs. 4", ("figure", False, (4,)), None),
    ("table 2 of the Bigtable paper", ("table", False, (2,)), None),
    ("the western blot in figure 3c", ("figure", False, (3,)), "c"),
    ("figure 2.1 of the thesis", ("figure", False, (2, 1)), None),
    ("Table 3.12", ("table", False, (3, 12)), None),
])
def test_query_labels_read_every_printed_form(text, key, panel):
    (label, _), = query_labels(text)
    assert label.key == key and label.panel == panel


@pytest.mark.parametrize("text", ["table salt", "figure skating", "table i", "tablespoon 3", "fig tree",
                                  "Table-top 3", "figure C", "no label here"])
def test_query_labels_ignore_words_that_are_no_label(text):
    assert query_labels(text) == []


def test_captions_and_queries_share_one_reading():
    """A caption printed "TABLE IV" and a query "table 4" name one object."""
    cap = parse_caption("TABLE IV: Results on the test set.")
    assert cap is not None and cap.label == "Table IV"
    (stored, _), = query_labels(cap.label)
    (asked, _), = query_labels("table 4")
    assert stored.key == asked.key
    assert parse_caption("Table 1 shows the results") is None  # a sentence, not a caption
    assert "Table IV" in printed_forms(asked) and "Table 4" in printed_forms(asked)
    (supp, _), = query_labels("Supplementary Figure 1")
    assert {"Figure S1", "Supplementary Figure S1", "Supplementary Figure 1"} <= set(printed_forms(supp))


def test_a_chapter_numbered_label_is_its_own_object():
    """"Figure 2.1" (a thesis's chapter 2) is neither Figure 2 nor Figure 21, in captions and queries alike."""
    cap = parse_caption("Figure 2.1. The protocol in one round.")
    assert cap is not None and (cap.label, cap.text) == ("Figure 2.1", "The protocol in one round.")
    (stored, _), = query_labels(cap.label)
    (asked, _), = query_labels("fig. 2.1")
    assert stored.key == asked.key and printed_forms(asked) == ["Figure 2.1"]
    assert {query_labels(q)[0][0].key for q in ("figure 2", "figure 21", "figure 2.1")} == {
        ("figure", False, (2,)), ("figure", False, (21,)), ("figure", False, (2, 1))}
    assert named_object("figure 9999999.1") is None  # no chapter is numbered so: searched as text


def test_named_object_needs_a_short_query():
    named = named_object("table 2 of the Bigtable paper")
    assert named is not None and named.paper_words == ["bigtable"]
    assert named_object("as Table 2 shows, accuracy rises with more training data on every one of the tasks") is None
    assert named_object("Table 1 and Figure 2") is None  # two objects: ranked as text


def _papers(lib, write):
    write("a.md", paper_text(key="alpha", title="Tablet servers for structured data", table_caption="Latency.")
          .replace("Ada Lovelace, Alan Turing", "Grace Hopper, Edsger Dijkstra")
          + "\n# More\n\nTable 2: Throughput of each server.\n\nTable 3: Memory per tablet.\n")
    write("b.md", paper_text(key="beta", title="Coral reefs under heat stress", table_caption="Bleaching.")
          .replace("Ada Lovelace, Alan Turing", "Edsger W. Dijkstra, Barbara Liskov")
          + "\n# More\n\nTable 2: Table 2 bleaching by depth, table after table.\n")
    write("c.md", paper_text(key="gamma", title="Dijkstra's shortest paths revisited", intro="Dijkstra wrote it."))
    lib.add([str(write.root), str(EXAMPLES)])  # the examples: a name in every paper would carry no IDF


def test_a_label_ranks_its_object_first_within_the_paper(lib, write):
    _papers(lib, write)
    for query in ("Table 2", "table II", "tab. 2"):
        top = lib.search(query, mode="lexical", filters=Filters(papers=["alpha"])).results[0]
        assert (top.paper_id, top.object_label) == ("alpha", "Table 2"), query
    top = lib.search("Table 1", mode="lexical", filters=Filters(papers=["beta"])).results[0]
    assert (top.paper_id, top.object_label) == ("beta", "Table 1")


def test_a_label_with_words_naming_the_paper(lib, write):
    _papers(lib, write)
    resp = lib.search("table 2 of the tablet servers paper", mode="lexical")
    assert (resp.results[0].paper_id, resp.results[0].object_label) == ("alpha", "Table 2")
    assert not resp.no_confident_match
    resp = lib.search("coral reefs table 2", mode="lexical")
    assert (resp.results[0].paper_id, resp.results[0].object_label) == ("beta", "Table 2")
    # an author's name names the paper as well
    top = lib.search("Hopper table 3", mode="lexical").results[0]
    assert (top.paper_id, top.object_label) == ("alpha", "Table 3")


def test_an_author_finds_each_of_their_papers_first(lib, write):
    _papers(lib, write)
    resp = lib.search("Dijkstra", mode="lexical", per_paper=1)
    # both co-authored papers before any other (the paper naming him in its title and text is the third):
    # a name in the authors' field is found in every paper that person wrote
    papers = list(dict.fromkeys(h.paper_id for h in resp.results))
    assert set(papers[:3]) == {"alpha", "beta", "gamma"}, papers
    assert lib.search("Liskov", mode="lexical").results[0].paper_id == "beta"
    assert lib.search("Barbara Liskov", mode="lexical").results[0].paper_id == "beta"


def test_author_filter_in_every_mode(lib, write):
    _papers(lib, write)
    lib.embed(HASH)
    for mode in ("lexical", "vector", "hybrid"):
        for name, want in (("Dijkstra", {"alpha", "beta"}), ("edsger w. dijkstra", {"beta"}), ("Liskov", {"beta"}),
                           ("dijk", {"alpha", "beta"}), ("Hopper Liskov", set())):
            resp = lib.search("table", mode=mode, filters=Filters(author=name), limit=50)
            assert {h.paper_id for h in resp.results} == want, (mode, name)
    with pytest.raises(BadArgument):
        lib.search("table", SearchOptions(filters=Filters(author="  ")))


def test_author_filter_folds_case_and_diacritics_on_every_backend(lib, write):
    """A researcher types "gyongyi" for "Gyöngyi" and "garcia molina" for "García-Molina"; SQLite's
    lower() folds ASCII only and PostgreSQL may run in the C locale, so neither may be left to it."""
    write("a.md", paper_text(key="alpha", title="Web spam").replace("Ada Lovelace, Alan Turing",
                                                                   "Zoltán Gyöngyi, Héctor García-Molina"))
    write("b.md", paper_text(key="beta", title="Coral reefs").replace("Ada Lovelace, Alan Turing", "Émile Ørsted"))
    lib.add([str(write.root)])
    for name, want in (("gyongyi", {"alpha"}), ("GYÖNGYI", {"alpha"}), ("Zoltan Gyongyi", {"alpha"}),
                       ("garcia molina", {"alpha"}), ("García-Molina", {"alpha"}), ("hector g", {"alpha"}),
                       ("emile", {"beta"}), ("ÉMILE", {"beta"}), ("gyongyi orsted", set()), ("molinas", set())):
        resp = lib.search("table", mode="lexical", filters=Filters(author=name), limit=50)
        assert {h.paper_id for h in resp.results} == want, name


def test_a_query_without_accents_finds_accented_words_on_every_backend(lib, write):
    """FTS5's unicode61 folds diacritics; PostgreSQL's index folds them the same (tsquery.words_sql)."""
    write("a.md", paper_text(key="alpha", title="Gödel numbering for naïve readers")
          .replace("Ada Lovelace, Alan Turing", "Zoltán Gyöngyi"))
    write("b.md", paper_text(key="beta", title="Coral reefs"))
    lib.add([str(write.root)])
    for query in ("godel numbering", "naive readers", "gyongyi", "GÖDEL"):
        resp = lib.search(query, mode="lexical")
        assert resp.results and resp.results[0].paper_id == "alpha", query


def test_author_option_in_the_cli(tmp_path, write):
    from typer.testing import CliRunner

    from papershelf.frontends.cli import app

    _ = write("a.md", paper_text(key="alpha", title="Tablets").replace("Ada Lovelace", "Grace Hopper"))
    write("b.md", paper_text(key="beta", title="Corals"))
    db = str(tmp_path / "lib.db")
    runner = CliRunner()
    assert runner.invoke(app, ["--library", db, "add", str(write.root)]).exit_code == 0
    out = runner.invoke(app, ["--library", db, "search", "table", "--mode", "lexical", "--author", "hopper",
                              "--json", "--no-server"])
    assert out.exit_code == 0, out.output
    import json
    assert {h["paper_id"] for h in json.loads(out.output)["results"]} == {"alpha"}


def test_lexical_relevance_does_not_depend_on_library_size():
    # the same match (BM25 = its share of the best possible score) reads alike in 100 and in 100,000 units
    assert bm25_norm(3 * idf_max(100), 3, 100) == pytest.approx(bm25_norm(3 * idf_max(100_000), 3, 100_000))
    assert idf_max(1) == 1.0


def test_calibration_invariants(tmp_path, write):
    """A top hit holding every content word in its title, label or author field is confident; an
    off-topic query is flagged; in lexical and in hybrid search with the default local model (the
    model the parameters belong to)."""
    from papershelf import Library
    from papershelf.embed.base import ProviderSpec

    with Library(str(tmp_path / "lib.db")) as lib:
        _papers(lib, write)
        lib.embed(ProviderSpec("local"))
        for mode in ("lexical", "hybrid"):
            for query in ("Mbeki", "Thandi Mbeki", "Dijkstra", "coral bleaching", "IL-6 western blot", "Table 1",
                          "table 2 of the tablet servers paper"):
                filters = Filters(papers=["alpha"]) if query == "Table 1" else Filters()
                resp = lib.search(query, mode=mode, filters=filters)
                assert not resp.no_confident_match, (mode, query, [h.relevance for h in resp.results[:3]])
            for query in ("sourdough starter hydration", "Champions League final", "Napoleon Bonaparte",
                          "what is the best way to descale a kettle with vinegar"):
                resp = lib.search(query, mode=mode)
                assert resp.no_confident_match, (mode, query, [h.relevance for h in resp.results[:3]])


def test_a_chapter_numbered_label_finds_its_object_and_its_citing_sentences(lib, write):
    write("t.md", paper_text(key="thesis", title="Tablet servers, a thesis", table_caption="Latency.")
          + "\n# Chapter two\n\nAs Table 2.1 shows, throughput doubles with a second tablet server.\n\n"
            "Table 2.1: Throughput of each server.\n\nTable 21: Memory per tablet.\n")
    lib.add([str(write.root)])
    for query, label in (("table 2.1", "Table 2.1"), ("Table 21", "Table 21")):
        top = lib.search(query, mode="lexical", filters=Filters(papers=["thesis"])).results[0]
        assert top.object_label == label, query
    objects = {u.object_label: u for u in lib.store.paper_units("thesis") if u.kind == "object"}
    assert "throughput doubles" in (objects["Table 2.1"].nearby_body_text or "")
    assert objects["Table 21"].nearby_body_text is None and "Table 2" not in objects
