"""`related` and `reading_list` on both backends: citations (direct, coupling, co-citation) and meaning fused,
each hit saying why; a removed paper leaves every list at once; a reading list never names a library paper."""

from __future__ import annotations

import pytest

from papershelf import Filters
from papershelf.errors import BadArgument, NotFound

from .citation_fixtures import write_papers
from .conftest import HASH

# Two more papers: one whose reference list overlaps the survey's (coupling), one citing the attention
# paper and Hinton's together (co-citation).
REVIEW = """\
---
title: Citation Signals in Retrieval
authors: [Emmy Noether]
year: 2022
---
# Introduction

Citation signals help scholarly retrieval.

# References

1. Hinton, G., Salakhutdinov, R. (2006). Reducing the dimensionality of data with neural networks. Science 313, 504-507.
2. Alan Turing. 2020. Sparse Retrieval at Scale. In Proceedings of Imitation.
3. Karen Sparck Jones. 1972. A statistical interpretation of term specificity. Journal of Documentation.
"""

PAIRING = """\
---
title: Graphs and Codes
authors: [Sofia Kovalevskaya]
year: 2023
---
# Introduction

Learned codes for citation graphs.

# References

1. Lovelace, A., Babbage, C. (2019). Graph attention for citation recommendation. doi:10.5555/graph.2019
2. Hinton, G., Salakhutdinov, R. (2006). Reducing the dimensionality of data with neural networks. Science 313, 504-507.
"""


def _ids(lib) -> dict[str, str]:
    words = {"attention": "attention", "sparse": "sparse retrieval", "survey": "survey", "hinton": "dimensionality",
             "review": "citation signals", "pairing": "graphs and codes"}
    out = {}
    for s in lib.papers():
        for name, w in words.items():
            if w in (s.paper.title or "").lower():
                out[name] = s.paper.id
    return out


@pytest.fixture
def library(lib, tmp_path):
    folder = tmp_path / "papers"
    write_papers(folder)
    (folder / "review.md").write_text(REVIEW, encoding="utf-8")
    (folder / "pairing.md").write_text(PAIRING, encoding="utf-8")
    report = lib.add([str(folder)])
    assert not report.failed, report.to_dict()
    lib.embed(HASH)
    return lib, _ids(lib)


def test_related_says_why_for_each_citation_signal(library):
    lib, ids = library
    hits = {h.paper_id: h for h in lib.related(ids["survey"]).results}
    assert ids["survey"] not in hits
    assert "cited by this paper" in hits[ids["attention"]].why
    assert hits[ids["attention"]].signals["direct"] == 1.0
    # the survey and the review both cite Hinton (in the library) and Turing's paper (not in it)
    assert "shares 2 references" in hits[ids["review"]].why
    assert hits[ids["review"]].signals["coupling"] > 0
    hinton = {h.paper_id: h for h in lib.related(ids["hinton"]).results}
    # the pairing paper and the survey cite Hinton together with the attention paper
    assert "cited together with it by 2 papers" in hinton[ids["attention"]].why
    assert any(w.startswith("similar ") for h in hits.values() for w in h.why)


def test_related_ranks_linked_papers_above_unlinked_ones(library):
    lib, ids = library
    order = [h.paper_id for h in lib.related(ids["pairing"]).results]
    assert order.index(ids["attention"]) < order.index(ids["sparse"])
    assert order.index(ids["hinton"]) < order.index(ids["sparse"])


def test_related_by_unit_and_by_text(library):
    lib, ids = library
    unit_id = lib.search("inverted indexes", mode="lexical").results[0].unit_id
    by_unit = lib.related(unit_id)
    assert by_unit.query == {"unit": unit_id}
    assert ids["sparse"] not in {h.paper_id for h in by_unit.results}
    by_text = lib.related("Inverted indexes over learned sparse weights answer queries in milliseconds.",
                          text=True)
    assert by_text.results[0].paper_id == ids["sparse"]


def test_related_filters_and_errors(library):
    lib, ids = library
    hits = lib.related(ids["survey"], filters=Filters(year_from=2021)).results
    assert hits and all((h.year or 0) >= 2021 for h in hits)
    with pytest.raises(NotFound):
        lib.related("no-such-paper-anywhere")
    with pytest.raises(BadArgument):
        lib.related(ids["survey"], limit=0)


def test_reading_list_holds_only_works_outside_the_library(library):
    lib, ids = library
    listing = lib.reading_list()
    linked = {(p, r.ref.n): r.paper_id for p in ids.values() for r in lib.references(p).references}
    assert listing.items and all(linked[(c.paper_id, c.n)] is None for i in listing.items for c in i.cited_by)
    assert len(listing.items) == listing.total  # the Turing and Hopper (2021) entries, Sparck Jones, ...
    first = listing.items[0]
    assert first.count == 2 and "sparse retrieval at scale" in (first.reference.title or "").lower()
    assert {c.paper_id for c in first.cited_by} == {ids["survey"], ids["review"]}
    # restricted to one paper's citations
    only = lib.reading_list(papers=[ids["review"]])
    assert {i.count for i in only.items} == {1}
    assert any("term specificity" in (i.reference.title or i.reference.text).lower() for i in only.items)


def test_a_removed_paper_leaves_related_and_reading_lists_at_once(library):
    lib, ids = library
    assert ids["review"] in {h.paper_id for h in lib.related(ids["survey"]).results}
    before = lib.reading_list()
    lib.remove(ids["review"])
    assert ids["review"] not in {h.paper_id for h in lib.related(ids["survey"]).results}
    after = lib.reading_list()
    assert all(ids["review"] not in {c.paper_id for c in i.cited_by} for i in after.items)
    assert after.total < before.total  # Sparck Jones was cited by the review alone
    # a paper added later that a list names leaves the reading list at once
    assert not any("dimensionality" in (i.reference.title or "").lower() for i in after.items)


def test_fused_signals_keep_fixed_scales_and_a_missing_one_takes_nothing():
    """A paper's fused score depends on its own signals only: a strongly coupled newcomer does not shrink
    another paper's coupling, and a paper with no citation signal keeps its meaning score whole."""
    from papershelf.related import WEIGHTS, fuse

    meaning = {"a": (0.62, "Methods"), "b": (0.60, "paper")}
    alone = {p: s for p, s, _ in fuse(meaning, {"b": {"coupling": 1.0}})}
    crowded = {p: s for p, s, _ in fuse(meaning, {"b": {"coupling": 1.0}, "c": {"coupling": 40.0, "cocitation": 9}})}
    assert alone["a"] == crowded["a"] == 0.62 and alone["b"] == crowded["b"]
    assert crowded["b"] == pytest.approx(0.60 + WEIGHTS["coupling"])
    assert crowded["c"] == pytest.approx(40 * WEIGHTS["coupling"] + 9 * WEIGHTS["cocitation"])  # no meaning: 0


def test_papers_with_a_citation_signal_get_their_meaning_too(library, monkeypatch):
    """Candidates are the papers closest by meaning and every paper with a citation signal; the latter are
    scored by meaning exactly as if every paper were compared, not left at 0."""
    import papershelf.related as related
    from papershelf.paper_vectors import PaperVectors

    lib, ids = library
    space = lib.store.active_space()
    vectors = PaperVectors(lib.store)
    every = related.paper_meaning(vectors, space, ids["survey"])
    farthest = min(every, key=lambda p: every[p][0])
    monkeypatch.setattr(related, "CANDIDATES", 1)
    monkeypatch.setattr(related, "DEPTH", 1)
    few = related.paper_meaning(vectors, space, ids["survey"], also={farthest})
    assert farthest in few and len(few) == 2 and all(few[p] == every[p] for p in few)
