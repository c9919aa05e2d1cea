"""The citation graph inside a library, on both backends: references stored with their paper,
linked by DOI / arXiv id / title + first author + year (never a title alone), links following
papers as they come and go, `cited_by`, search scoped by citations, counts in `show`, BibTeX."""

from __future__ import annotations

import bibtexparser
import pytest

from papershelf import Filters, SearchOptions
from papershelf.errors import NotFound

from .citation_fixtures import write_papers


def paper_id(lib, title_word: str) -> str:
    ids = [s.paper.id for s in lib.papers() if title_word.lower() in (s.paper.title or "").lower()]
    assert len(ids) == 1, ids
    return ids[0]


@pytest.fixture
def graph(lib, tmp_path):
    files = write_papers(tmp_path / "papers", "attention", "sparse", "survey")
    report = lib.add([str(tmp_path / "papers")])
    assert not report.failed, report.to_dict()
    return lib, files


def test_references_are_stored_and_linked_by_doi_and_title_key(graph):
    lib, _ = graph
    survey, attention, sparse = paper_id(lib, "survey"), paper_id(lib, "attention"), paper_id(lib, "sparse")
    refs = lib.references(survey).to_dict()
    assert refs["paper_id"] == survey
    assert [r["n"] for r in refs["references"]] == [1, 2, 3, 4, 5]
    by_n = {r["n"]: r for r in refs["references"]}
    assert by_n[1]["paper_id"] == attention          # DOI (case and prefix normalized), whatever the title says
    assert by_n[1]["doi"] == "10.5555/graph.2019"
    assert by_n[2]["paper_id"] == sparse             # title + first author's surname + year
    assert by_n[3]["paper_id"] is None               # same title, another first author: a title alone is no link
    # same title and author, another year: the journal version of the paper the library holds (one
    # paper has the key); files of two years stay two papers (test_works), an entry names the work
    assert by_n[5]["paper_id"] == sparse
    assert by_n[4] == {**by_n[4], "authors": ["Hinton, G", "Salakhutdinov, R"], "year": 2006,
                       "title": "Reducing the dimensionality of data with neural networks", "paper_id": None}
    assert by_n[4]["text"].startswith("Hinton, G., Salakhutdinov, R. (2006).")
    assert set(by_n[4]) == {"n", "text", "authors", "year", "title", "venue", "doi", "arxiv_id", "paper_id"}


def test_links_follow_papers_added_and_removed(graph, tmp_path):
    lib, _ = graph
    survey = paper_id(lib, "survey")
    assert lib.references(survey).references[3].paper_id is None
    hinton_file = write_papers(tmp_path / "later", "hinton")["hinton"]
    lib.add([str(hinton_file)])
    hinton = paper_id(lib, "dimensionality")
    assert lib.references(survey).references[3].paper_id == hinton      # added later: now a link
    assert [c.paper_id for c in lib.cited_by(hinton).cited_by] == [survey]
    lib.remove(hinton)
    assert lib.references(survey).references[3].paper_id is None        # removed: unlinked
    with pytest.raises(NotFound):
        lib.cited_by(hinton)


def test_citing_answers_the_citing_papers_with_their_entry(graph):
    lib, _ = graph
    survey, attention = paper_id(lib, "survey"), paper_id(lib, "attention")
    d = lib.citing(attention).to_dict()
    assert d == {"paper_id": attention, "citing": [{"paper_id": survey, "title": "A Survey of Scholarly Search",
                                                     "year": 2021, "n": 1}]}
    assert lib.citing(survey).to_dict()["citing"] == [] and lib.cited_by(attention).to_dict() == d  # the old name


def test_search_filters_by_cites_and_cited_by(graph):
    lib, _ = graph
    survey, attention, sparse = paper_id(lib, "survey"), paper_id(lib, "attention"), paper_id(lib, "sparse")

    def hits(**f) -> set[str]:
        opts = SearchOptions(mode="lexical", limit=50, filters=Filters(**f))
        return {h.paper_id for h in lib.search("retrieval OR citation OR search OR indexes", opts).results}

    assert hits() == {survey, attention, sparse}
    assert hits(citing=attention) == {survey}
    assert hits(references_of=survey) == {attention, sparse}
    assert hits(references_of=survey, citing=attention) == set()  # both: papers meeting both
    assert hits(citing=survey) == set()                           # nothing cites the survey: no hit, not all hits
    # the names of earlier versions, with their meanings: cites = citing, cited_by = references_of
    assert hits(cites=attention) == {survey} and hits(cited_by=survey) == {attention, sparse}


def test_reference_entries_are_not_body_text(graph):
    lib, _ = graph
    survey = paper_id(lib, "survey")
    resp = lib.search("Salakhutdinov dimensionality", SearchOptions(mode="lexical", limit=20))
    assert survey not in {h.paper_id for h in resp.results}
    assert all("Salakhutdinov" not in (u.text or "") for u in lib.store.paper_units(survey))


def test_show_counts_references_links_and_citers(graph):
    lib, _ = graph
    survey, attention = paper_id(lib, "survey"), paper_id(lib, "attention")
    assert lib.show(survey).to_dict()["citations"] == {"references": 5, "in_library": 3, "citing": 0}
    assert lib.show(attention).to_dict()["citations"] == {"references": 0, "in_library": 0, "citing": 1}


def test_missing_references_as_bibtex(graph):
    from papershelf.bibtex import bibtex

    lib, _ = graph
    missing = [r for r in lib.references(paper_id(lib, "survey")).references if r.paper_id is None]
    parsed = bibtexparser.parse_string(bibtex((r.ref, r.ref.text) for r in missing))
    assert not parsed.failed_blocks
    entries = {e.key: e for e in parsed.entries}
    assert set(entries) == {"turing2020sparse", "hinton2006reducing"}  # Hopper 2021 names the library's 2020 paper
    hinton = entries["hinton2006reducing"]
    assert hinton.entry_type == "article" and hinton["year"] == "2006" and hinton["journal"].startswith("Science")
    assert hinton["author"] == "Hinton, G and Salakhutdinov, R"


def test_a_rewritten_paper_replaces_its_reference_list(graph):
    lib, files = graph
    survey = paper_id(lib, "survey")
    text = files["survey"].read_text().split("2. Grace Hopper")[0]
    files["survey"].write_text(text, encoding="utf-8")
    lib.add([str(files["survey"])])
    assert [r.ref.n for r in lib.references(survey).references] == [1]


def test_a_library_from_before_upgrades_and_reads_a_list_when_the_file_is_read_again(tmp_path):
    """Migration 5 on a library without reference lists: nothing else changes (unchanged files stay
    skipped, nothing becomes pending); a file read again brings its list."""
    import sqlite3

    from papershelf import Library

    from .conftest import HASH

    files = write_papers(tmp_path / "papers", "attention", "survey")
    db = tmp_path / "old.db"
    with Library(str(db)) as lib:
        lib.add([str(tmp_path / "papers")])
        lib.embed(HASH)
        survey = paper_id(lib, "survey")
    con = sqlite3.connect(db)  # the library as an older papershelf left it: no reference lists
    con.execute("DROP TABLE paper_references")
    con.execute("PRAGMA user_version = 4")
    con.commit()
    con.close()
    with Library(str(db)) as lib:
        assert lib.references(survey).references == []
        assert lib.add([str(tmp_path / "papers")]).count("unchanged") == 2
        files["survey"].write_text(files["survey"].read_text() + "\n", encoding="utf-8")
        lib.add([str(files["survey"])])
        assert len(lib.references(survey).references) == 5


def test_migrate_copies_reference_lists_and_their_links(graph, tmp_path):
    from papershelf import Library
    from papershelf.store.migrate import migrate

    lib, _ = graph
    survey = paper_id(lib, "survey")
    before = lib.references(survey).to_dict()
    copy = tmp_path / "copy.db"
    migrate(lib.path, str(copy))
    with Library(str(copy), create=False) as other:
        assert other.references(survey).to_dict() == before


def test_add_reread_brings_an_upgraded_librarys_lists_without_re_embedding(tmp_path):
    """`add --reread` parses unchanged files again: an upgraded library gets every reference list,
    and papers whose units come out the same stay embedded (nothing pending, no vector rewritten)."""
    import json
    import sqlite3
    import subprocess
    import sys

    from papershelf import Library

    from .conftest import HASH
    from .servers import cli_env

    write_papers(tmp_path / "papers", "attention", "survey")
    db = tmp_path / "old.db"
    with Library(str(db)) as lib:
        lib.add([str(tmp_path / "papers")])
        lib.embed(HASH)
        survey = paper_id(lib, "survey")
    con = sqlite3.connect(db)
    con.execute("DELETE FROM paper_references")  # as a papershelf before reference lists left it
    con.commit()
    con.close()
    run = subprocess.run([sys.executable, "-m", "papershelf", "-L", str(db), "add", "--reread", "--json",
                          str(tmp_path / "papers")], env=cli_env(), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["updated"] == 2
    with Library(str(db)) as lib:
        assert len(lib.references(survey).references) == 5
        assert lib.pending() == [] and lib.verify().ok


MULLER = """\
---
title: Über die Stabilität von Zellkulturen
authors: [Jürgen Müller, Łukasz Nowak]
year: 2018
---
# Introduction

Cell cultures drift over many passages.
"""

CITES_MULLER = """\
---
title: Drift in Long-Running Cultures
authors: [Ada Okafor]
year: 2022
---
# Introduction

Passage counts matter.

# References

1. Muller, J., Nowak, L. (2018). Uber die Stabilitat von Zellkulturen. Zeitschrift fur Zellbiologie 3, 1-9.
"""


def test_a_reference_printed_without_accents_links_the_paper_typed_with_them(lib, tmp_path):
    """Title keys fold accents and strokes ("Müller" -> "muller", "Ł" -> "l") instead of dropping the
    letters ("mller"), so an entry that prints the names and title in plain letters still links."""
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "muller.md").write_text(MULLER, encoding="utf-8")
    (tmp_path / "p" / "drift.md").write_text(CITES_MULLER, encoding="utf-8")
    assert not lib.add([str(tmp_path / "p")]).failed
    muller, drift = paper_id(lib, "Zellkulturen"), paper_id(lib, "Drift")
    assert [r.paper_id for r in lib.references(drift).references] == [muller]
    assert [c.paper_id for c in lib.cited_by(muller).cited_by] == [drift]


def test_a_library_with_keys_that_dropped_accents_is_keyed_again_on_upgrade(tmp_path):
    """Migration 10: title keys written when normalized_title dropped accented letters ("mller") are
    written again folded, for sources and reference rows alike, so the link shows without re-adding."""
    import sqlite3

    from papershelf import Library

    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "muller.md").write_text(MULLER, encoding="utf-8")
    (tmp_path / "p" / "drift.md").write_text(CITES_MULLER.replace("Muller, J.", "Müller, J."), encoding="utf-8")
    db = tmp_path / "old.db"
    with Library(str(db)) as lib:
        assert not lib.add([str(tmp_path / "p")]).failed
        muller, drift = paper_id(lib, "Zellkulturen"), paper_id(lib, "Drift")
    con = sqlite3.connect(db)  # the keys as the dropping normalized_title wrote them
    con.execute("UPDATE paper_sources SET title_key='ber die stabilit t von zellkulturen|mller' WHERE paper_id=?",
                (muller,))
    con.execute("UPDATE paper_references SET title_key='uber die stabilitat von zellkulturen|mller'")
    con.execute("PRAGMA user_version = 9")
    con.commit()
    con.close()
    with Library(str(db)) as lib:
        assert [r.paper_id for r in lib.references(drift).references] == [muller]
        assert [c.paper_id for c in lib.cited_by(muller).cited_by] == [drift]
    keys = sqlite3.connect(db).execute("SELECT title_key FROM paper_references").fetchall()
    assert keys == [("uber die stabilitat von zellkulturen|muller",)]


REPORT = """\
---
title: "The PageRank Citation Ranking: Bringing Order to the Web"
year: 1998
---
# Introduction

A tech report whose front page names no author.
"""

CITER = """\
---
title: Spam Detection on the Web
authors: [Zoltan Gyongyi]
year: 2004
---
# Introduction

Ranking pages by trust.

# References

1. L. Page, S. Brin, R. Motwani, and T. Winograd. The PageRank citation ranking: Bringing order to the web. 1998.
2. T. Haveliwala. Topic-sensitive PageRank. In Proceedings of WWW, 2002.
3. B. Page. The PageRank citation ranking: Bringing order. Tech. rep., 1998.
"""


def test_a_paper_with_no_authors_is_cited_by_its_long_title(lib, tmp_path):
    """A tech report with no author read has a title-only key: an entry with that title exactly (after
    folding) links it, an entry of a shorter title does not, and nothing links it the other way."""
    (tmp_path / "report.md").write_text(REPORT, encoding="utf-8")
    (tmp_path / "citer.md").write_text(CITER, encoding="utf-8")
    assert not lib.add([str(tmp_path)]).failed
    report, citer = paper_id(lib, "pagerank citation"), paper_id(lib, "spam detection")
    links = {r.ref.n: r.paper_id for r in lib.references(citer).references}
    assert links == {1: report, 2: None, 3: None}
    assert [c.paper_id for c in lib.citing(report).citing] == [citer]
    assert lib.show(report).to_dict()["citations"]["citing"] == 1


def test_a_library_from_before_title_only_keys_links_its_authorless_paper_on_upgrade(tmp_path):
    """Migration 11: a source with no author kept no title key; the upgrade writes its title-only key."""
    import sqlite3

    from papershelf import Library

    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "report.md").write_text(REPORT, encoding="utf-8")
    (tmp_path / "p" / "citer.md").write_text(CITER, encoding="utf-8")
    db = tmp_path / "old.db"
    with Library(str(db)) as lib:
        assert not lib.add([str(tmp_path / "p")]).failed
        report, citer = paper_id(lib, "pagerank citation"), paper_id(lib, "spam detection")
    con = sqlite3.connect(db)  # the key as the library before wrote it: none
    con.execute("UPDATE paper_sources SET title_key=NULL WHERE paper_id=?", (report,))
    con.execute("PRAGMA user_version = 10")
    con.commit()
    con.close()
    with Library(str(db)) as lib:
        assert lib.references(citer).references[0].paper_id == report


BIGTABLE = """\
---
title: "Bigtable: A Distributed Storage System for Structured Data"
authors: [Fay Chang, Jeffrey Dean]
year: 2006
---
# Introduction

A sparse, distributed, persistent multi-dimensional sorted map.
"""

CITES_BIGTABLE = """\
---
title: Spanner Across the Globe
authors: [James Corbett]
year: 2012
---
# Introduction

Data is versioned.

# References

1. F. Chang, J. Dean, and S. Ghemawat. Bigtable: A distributed storage system. In OSDI, 2006.
2. Chang, F. (2009). Bigtable: A distributed storage system. Operating Systems Review 4, 1-9.
3. Chang, F., & Dean, J. (2006). Bigtable: A distributed storage system revisited in practice. OSDI.
4. Dean, J., & Chang, F. (2006). Bigtable: A distributed storage system for structured data and more. OSDI.
"""


def test_a_citation_that_drops_the_subtitle_links_the_paper(lib, tmp_path):
    """An entry whose title is the paper's without its last words ("…: A distributed storage system"),
    by its first author, in its year, names it, both ways (`refs` and `citing`); the same title three
    years on, a title going on with other words, or another first author do not."""
    (tmp_path / "bigtable.md").write_text(BIGTABLE, encoding="utf-8")
    (tmp_path / "spanner.md").write_text(CITES_BIGTABLE, encoding="utf-8")
    assert not lib.add([str(tmp_path)]).failed
    bigtable, spanner = paper_id(lib, "bigtable"), paper_id(lib, "spanner")
    links = {r.ref.n: r.paper_id for r in lib.references(spanner).references}
    assert links == {1: bigtable, 2: None, 3: None, 4: None}
    assert [c.paper_id for c in lib.citing(bigtable).citing] == [spanner]
    from papershelf.graph import build

    assert build(lib.store).cited_papers(spanner) == {bigtable}  # related and reading-list read this graph
