"""One paper per work: a PDF, its TEI and a text copy of the same paper are one paper with three sources."""

import json
import os
import re
import subprocess
import sys

from papershelf import Library
from papershelf.models import PaperSource
from papershelf.works import matching_paper, normalized_arxiv, title_key

from .backends import sqlite_back_to_schema_3
from .conftest import HASH, shared
from .pdf_fixtures import BODY, Writer

TITLE = "Macrophage Switching in Diabetic Wounds"


def md(title=TITLE, author="Ada Okafor", year=2021, doi=None, body="Macrophages stall in diabetic wounds.",
       key=None):
    front = [f"title: {title}", f"authors: [{author}, Ben Lee]"]
    front += [f"year: {year}"] if year else []
    front += [f"doi: {doi}"] if doi else []
    front += [f"citekey: {key}"] if key else []
    return "---\n" + "\n".join(front) + f"\n---\n\n# Introduction\n\n{body}\n\n# Results\n\nThe switch stalls.\n"


def tei(title=TITLE, body="GROBID parsed this paragraph about zymosan uptake."):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc>
<titleStmt><title level="a" type="main">{title}</title></titleStmt>
<sourceDesc><biblStruct><analytic>
<author><persName><forename>Ada</forename><surname>Okafor</surname></persName></author>
<author><persName><forename>Ben</forename><surname>Lee</surname></persName></author>
</analytic><monogr><imprint><date/></imprint></monogr></biblStruct></sourceDesc>
</fileDesc></teiHeader>
<text><body><div><head n="1">Introduction</head><p>{body}</p></div>
<div><head n="2">Results</head><p>The switch stalls in every wound we looked at.</p></div></body></text></TEI>
"""


def pdf(path, title=TITLE):
    w = Writer(str(path), header="Journal of Example Studies 12 (2021)")
    w.title(title, "Ada Okafor and Ben Lee")
    w.heading("1 Introduction")
    w.paragraph(BODY)
    w.save()


def ids(lib):
    return sorted(s.paper.id for s in lib.papers())


def test_pdf_then_tei_is_one_paper_the_tei_provides_and_removal_repicks(lib, write):
    pdf(write.root / "okafor.pdf")
    first = lib.add([str(write.root / "okafor.pdf")]).files[0]
    assert first.status == "added" and not first.joined
    lib.embed(HASH)
    assert lib.pending() == []
    joined = lib.add_file(str(write("okafor.tei.xml", tei())))
    assert (joined.status, joined.paper_id, joined.joined) == ("added", first.paper_id, True)
    assert ids(lib) == [first.paper_id]  # the id stays stable when the duplicate arrives
    view = lib.show(first.paper_id)
    assert [(os.path.basename(s.path), s.provides) for s in view.sources] == [("okafor.tei.xml", True),
                                                                             ("okafor.pdf", False)]
    assert view.paper.source_format == "tei"
    assert lib.search("zymosan", mode="lexical").results[0].paper_id == first.paper_id
    assert lib.pending() == [(first.paper_id, "changed")]  # new units: embed does the work again
    lib.embed(HASH)

    paper_id, remains = lib.remove_source(str(write.root / "okafor.tei.xml"))
    assert (paper_id, remains) == (first.paper_id, True)
    assert lib.show(first.paper_id).paper.source_format == "pdf"
    assert not lib.search("zymosan", mode="lexical").results
    assert lib.pending() == [(first.paper_id, "changed")]
    assert lib.remove_source(str(write.root / "okafor.pdf")) == (first.paper_id, False)
    assert ids(lib) == [] and lib.verify().ok


def test_doi_joins_whatever_the_title_and_structured_beats_text(lib, write):
    a = write("a.txt", md(title="Working Title of a Draft", doi="10.5/ABC", body="Plain text copy."))
    b = write("b.md", md(doi="https://doi.org/10.5/abc", body="The structured copy."))
    report = lib.add([str(a), str(b)])
    assert [f.joined for f in report.files] == [False, True]
    paper = lib.show(report.files[0].paper_id).paper
    assert (paper.source_format, paper.title, paper.source_path) == ("markdown", TITLE, str(b))
    assert lib.add([str(a), str(b)]).count("unchanged") == 2  # a source that does not provide is known too


def test_the_newer_of_two_equal_sources_provides(lib, write):
    old, new = write("v1.md", md(body="First version.")), write("v2.md", md(body="Second version."))
    os.utime(old, (1_600_000_000, 1_600_000_000))
    report = lib.add([str(new), str(old)])
    assert report.files[1].joined
    assert lib.show(report.files[0].paper_id).paper.source_path == str(new)


def test_near_duplicates_stay_apart(lib, write):
    write("base.md", md())
    write("other-author.md", md(author="Zoe Quist"))
    write("other-year.md", md(year=2023))
    write("longer-title.md", md(title=TITLE + " II"))
    write("doi1.md", md(title="Reef Bleaching by Depth Band", doi="10.1/one"))
    write("doi2.md", md(title="Reef Bleaching by Depth Band", doi="10.1/two"))
    write("short.md", md(title="Results", author="Ada Okafor"))
    write("short2.md", md(title="Results", author="Ada Okafor", body="Another paper."))
    assert lib.add([str(write.root)]).count("added") == 8
    assert len(ids(lib)) == 8 and not any(f.joined for f in lib.add([str(write.root)]).files)


def test_a_file_without_year_joins_only_an_unambiguous_work(lib, write):
    write("y2019.md", md(year=2019))
    write("y2021.md", md(year=2021))
    lib.add([str(write.root)])
    assert lib.add_file(str(write("grobid.tei.xml", tei()))).joined is False  # which year? not guessed
    assert len(ids(lib)) == 3


def test_named_papers_stay_apart_but_unnamed_files_join_them(lib, write):
    lib.add([str(write("a.md", md(key="okafor2021a"))), str(write("b.md", md(key="okafor2021b")))])
    assert ids(lib) == ["okafor2021a", "okafor2021b"]
    joined = lib.add_file(str(write("x.tei.xml", tei(title="Another Paper Entirely by Okafor"))))
    assert not joined.joined
    lib2 = write("c.md", md(title="Coral Reefs at Depth", key="mbeki2020"))
    lib.add_file(str(lib2))
    assert lib.add_file(str(write("c.txt", md(title="Coral reefs at depth")))).paper_id == "mbeki2020"


def test_a_changed_duplicate_that_becomes_another_work_splits_off(lib, write):
    a, b = write("a.md", md()), write("b.md", md())
    lib.add([str(a), str(b)])
    assert len(ids(lib)) == 1
    b.write_text(md(title="A Different Study of Coral Reefs"), encoding="utf-8")
    result = lib.add_file(str(b))
    assert result.status == "added" and not result.joined and len(ids(lib)) == 2  # a new paper
    assert {s.paper.source_path for s in lib.papers()} == {str(a), str(b)}


def test_removing_the_provider_of_a_paper_whose_other_file_is_gone_removes_the_paper(lib, write):
    a, b = write("a.txt", md(body="text copy")), write("b.md", md())
    lib.add([str(a), str(b)])
    a.unlink()
    assert lib.remove_source(str(b))[1] is False  # a.txt cannot take over: it is gone too
    assert ids(lib) == []


def test_arxiv_versions_are_one_work():
    assert normalized_arxiv("arXiv:2203.00130v2") == normalized_arxiv("2203.00130") == "2203.00130"
    old = PaperSource("/a.pdf", "p1", arxiv_id="2203.00130")
    assert matching_paper(PaperSource("/b.pdf", "", arxiv_id="2203.00130"), [old]) == "p1"
    assert matching_paper(PaperSource("/b.pdf", "", arxiv_id="2203.00131"), [old]) is None


def test_an_entry_names_a_work_more_loosely_than_a_file_joins_it():
    """A reference to the journal version (another year) names the preprint the library holds, and a
    long title with no author on one side names its work; neither ever merges two files."""
    key = title_key("Paper Plain: Making Medical Research Papers Approachable", ["Tal August"])
    preprint = PaperSource("/a.pdf", "p1", title_key=key, year=2022)
    journal = PaperSource("", "", title_key=key, year=2023)
    assert matching_paper(journal, [preprint]) is None  # a file: the journal version stays another paper
    assert matching_paper(journal, [preprint], cited=True) == "p1"
    assert matching_paper(PaperSource("", "", title_key=key, year=2040), [preprint], cited=True) is None
    both = [preprint, PaperSource("/b.pdf", "p2", title_key=key, year=2024)]
    assert matching_paper(journal, both, cited=True) is None  # two versions held, neither the entry's year
    assert matching_paper(PaperSource("", "", title_key=key, year=2024), both, cited=True) == "p2"

    long = "The PageRank Citation Ranking: Bringing Order to the Web"
    assert title_key(long, []) == "the pagerank citation ranking bringing order to the web|"
    assert title_key("Sparse Partitions", []) is None and title_key("Deep Learning for Graphs", []) is None
    report = PaperSource("/r.pdf", "pr", title_key=title_key(long, []))
    entry = PaperSource("", "", title_key=title_key(long, ["L. Page"]), year=1998)
    assert matching_paper(entry, [report], cited=True) == "pr"
    assert matching_paper(entry, [report]) is None
    assert matching_paper(PaperSource("/s.pdf", "", title_key=report.title_key), [report]) is None  # no merge
    other = PaperSource("", "", title_key=title_key(long + " Again", ["L. Page"]))
    assert matching_paper(other, [report], cited=True) is None


def test_libraries_from_before_get_their_sources(tmp_path, write):
    path = str(tmp_path / "old.db")
    with Library(path) as lib:
        lib.add([str(write("a.md", md()))])
    sqlite_back_to_schema_3(path)
    with Library(path) as lib:
        assert lib.add([str(write.root)]).count("unchanged") == 1
        assert [s.provides for s in lib.show(ids(lib)[0]).sources] == [True]
        assert lib.add_file(str(write("a.tei.xml", tei()))).joined  # matched by the backfilled title key


def test_cli_show_lists_sources_and_remove_of_a_file_keeps_the_paper(tmp_path, write):
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(tmp_path / "lib.db"))

    def run(*args):
        p = subprocess.run([sys.executable, "-m", "papershelf", *args], env=env, capture_output=True, text=True,
                           check=False, timeout=120)
        assert p.returncode == 0, p.stderr
        return p.stdout

    a, b = write("a.txt", md()), write("b.md", md())
    added = json.loads(run("add", str(write.root), "--json"))
    assert (added["added"], added["joined"]) == (2, 1)
    paper_id = json.loads(run("papers", "--json"))[0]["id"]
    assert f"also in {a}" in run("show", paper_id)
    removed = json.loads(run("remove", str(b), "--json"))
    assert (removed["paper_id"], removed["paper_removed"]) == (paper_id, False)
    assert json.loads(run("show", paper_id, "--json"))["source_path"] == str(a)


def test_shared_pdf_tei_and_s2orc_are_one_paper_each(lib):
    folders = [shared("pdfs"), shared("fulltext", "grobid-tei"), shared("fulltext", "s2orc-json")]
    report = lib.add([str(f) for f in folders])
    assert not report.failed and report.to_dict()["joined"] == 4
    papers = report.count("added") - 4
    assert len(lib.papers()) == papers
    for stem in ("acl-2020.acl-main.207_specter", "acl-N18-3011_literature-graph"):
        owners = {f.paper_id for f in report.files if os.path.basename(f.path).startswith(stem)}
        assert len(owners) == 1
        view = lib.show(owners.pop())
        assert sorted(s.format for s in view.sources) == ["pdf", "s2orc", "tei"]
        assert view.paper.source_format in ("tei", "s2orc")
        assert re.fullmatch(r"[a-z]+20\d\d[a-z]+", view.paper.id) and len(view.paper.id) <= 24  # readable


def test_normalized_titles_fold_accents_and_keep_every_script():
    from papershelf.text import normalized_title

    assert normalized_title("Über Müller’s Ørsted-ﬁelds, naïve") == "uber muller s orsted fields naive"
    assert normalized_title("Łódź") == normalized_title("Lodz") == "lodz"
    assert normalized_title("深度学习 for 検索") == "深度学习 for 検索"
    assert normalized_title("Ελληνικά") == "ελληνικα"
