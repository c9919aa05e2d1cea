"""Two-word titles ("NTRU Prime") link a citation by the same first author in the same year, on both
backends and in the graph, after an upgrade too; they never join two files and take none of the looser
rules a longer title has (another year, another author)."""

from __future__ import annotations

import sqlite3

from papershelf import Library
from papershelf.models import PaperSource
from papershelf.works import matching_paper, title_key

NTRU = """\
---
title: NTRU Prime
authors: [Daniel J. Bernstein, Chitchanok Chuengsatiansup, Tanja Lange]
year: 2017
---
# Introduction

A lattice-based cryptosystem with a ring chosen to avoid structure.
"""

CITER = """\
---
title: Lattice Signatures in Practice
authors: [Vadim Lyubashevsky]
year: 2019
---
# Introduction

Lattice schemes are fast.

# References

1. D. J. Bernstein, C. Chuengsatiansup, and T. Lange. NTRU Prime. In Selected Areas in Cryptography, 2017.
2. D. J. Bernstein. NTRU Prime. In Selected Areas in Cryptography, 2016.
3. C. Peikert. NTRU Prime. In Selected Areas in Cryptography, 2017.
4. D. J. Bernstein. NTRU Prime revisited: lessons. In Selected Areas in Cryptography, 2017.
"""


def _ids(lib) -> tuple[str, str]:
    by = {s.paper.title: s.paper.id for s in lib.papers()}
    return by["NTRU Prime"], by["Lattice Signatures in Practice"]


def test_a_two_word_title_names_a_paper_only_with_its_author_and_year():
    key = title_key("NTRU Prime", ["Daniel J. Bernstein"])
    assert key == "ntru prime|bernstein" and title_key("NTRU Prime", []) is None
    paper = PaperSource("/n.pdf", "p1", title_key=key, year=2017)
    assert matching_paper(PaperSource("", "", title_key=key, year=2017), [paper], cited=True) == "p1"
    for year in (2016, 2018, None):  # a longer title would link another version's year, or no year
        assert matching_paper(PaperSource("", "", title_key=key, year=year), [paper], cited=True) is None
    assert matching_paper(PaperSource("/m.pdf", "", title_key=key, year=2017), [paper]) is None  # no merge


def test_a_two_word_title_links_both_ways(lib, tmp_path):
    (tmp_path / "ntru.md").write_text(NTRU, encoding="utf-8")
    (tmp_path / "citer.md").write_text(CITER, encoding="utf-8")
    assert not lib.add([str(tmp_path)]).failed
    ntru, citer = _ids(lib)
    assert {r.ref.n: r.paper_id for r in lib.references(citer).references} == {1: ntru, 2: None, 3: None, 4: None}
    assert [c.paper_id for c in lib.citing(ntru).citing] == [citer]
    from papershelf.graph import build

    assert build(lib.store).cited_papers(citer) == {ntru}


def test_a_library_from_before_keys_its_two_word_titles_on_upgrade(tmp_path):
    """Migration 13: a two-word title kept no key (source and entry); the upgrade writes both."""
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "ntru.md").write_text(NTRU, encoding="utf-8")
    (tmp_path / "p" / "citer.md").write_text(CITER, encoding="utf-8")
    db = tmp_path / "old.db"
    with Library(str(db)) as lib:
        assert not lib.add([str(tmp_path / "p")]).failed
        ntru, citer = _ids(lib)
    con = sqlite3.connect(db)  # the keys as the library before wrote them: none for a two-word title
    con.execute("UPDATE paper_sources SET title_key=NULL WHERE paper_id=?", (ntru,))
    con.execute("UPDATE paper_references SET title_key=NULL WHERE title='NTRU Prime'")
    con.execute("PRAGMA user_version = 12")
    con.commit()
    con.close()
    with Library(str(db)) as lib:
        assert lib.references(citer).references[0].paper_id == ntru


def _cites_cell(title: str) -> str:
    return f"""---
title: {title}
authors: [Ada Okafor]
year: 2005
---
# Introduction

Stress in the endoplasmic reticulum.

# References

1. Y. Ma, L. M. Hendershot, Cell 107, 827 (2001).
"""


def test_a_two_word_key_does_not_make_two_entries_one_work(lib, tmp_path):
    """An entry with no title ("Cell 107", a venue read as one) keys as a short title: it may name a library
    paper, but two such entries of two papers stay two works in the graph (coupling counts shared works)."""
    (tmp_path / "a.md").write_text(_cites_cell("Unfolded Protein Response in Liver Cells"), encoding="utf-8")
    (tmp_path / "b.md").write_text(_cites_cell("Chaperones of the Secretory Pathway"), encoding="utf-8")
    assert not lib.add([str(tmp_path)]).failed
    from papershelf.graph import build

    graph = build(lib.store)
    a, b = (s.paper.id for s in sorted(lib.papers(), key=lambda s: s.paper.title or ""))
    assert lib.references(a).references[0].ref.title == "Cell 107"  # what the key is made of
    assert len(graph.cites[a]) == len(graph.cites[b]) == 1 and not graph.cites[a] & graph.cites[b]
