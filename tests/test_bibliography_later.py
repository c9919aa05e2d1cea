"""A bibliography added after its papers updates the papers it describes."""

from papershelf import Filters, SearchOptions


def papers_by_title(lib):
    return {s.paper.title: s.paper for s in lib.papers()}


def test_bib_added_later_updates_papers_by_path_doi_and_title(lib, write):
    write("papers/a.md", "---\ntitle: Signals in Macrophages\n---\n\n# Intro\n\nMacrophages signal.\n")
    write("papers/b.md", "---\ntitle: Coral Bleaching\ndoi: 10.5/CORAL\n---\n\n# Intro\n\nCorals bleach.\n")
    write("papers/c.md", "---\ntitle: 'Zebrafish Fins Regrow: A Study'\n---\n\n# Intro\n\nFins regrow.\n")
    write("papers/d.md", "---\ntitle: Unrelated Work on Soil\n---\n\n# Intro\n\nSoil.\n")
    lib.add([str(write.root / "papers")])
    before = {t: p.id for t, p in papers_by_title(lib).items()}
    assert all(p.year is None for p in papers_by_title(lib).values())
    bib = write("refs.bib", """
        @article{okafor2020, title={Signals in Macrophages}, year={2020}, file={papers/a.md}}
        @article{mbeki2019, title={Bleaching of Corals}, year={2019}, doi={10.5/coral}}
        @article{lee2018, title={Zebrafish fins regrow -- a study}, year={2018}, author={Lee, Ann}}
        @article{nobody2000, title={Something Else Entirely Here}, year={2000}}
        """)
    report = lib.add([str(bib)])
    assert report.count("metadata") == 1 and report.count("updated") == 3
    after = papers_by_title(lib)
    assert after["Signals in Macrophages"].year == 2020
    assert after["Bleaching of Corals"].year == 2019  # matched by DOI, case-insensitive
    assert after["Zebrafish fins regrow -- a study"].authors == ["Ann Lee"]  # matched by normalized title
    assert after["Unrelated Work on Soil"].year is None
    assert {p.id for p in after.values()} == set(before.values())  # ids stay stable
    assert lib.resolve_paper("lee2018") == before["Zebrafish Fins Regrow: A Study"]
    hits = lib.search("regrow", SearchOptions(mode="lexical", filters=Filters(year_from=2015))).results
    assert hits
    # the papers' folder added again alone keeps what the bibliography said
    assert {f.status for f in lib.add([str(write.root / "papers")]).files} == {"unchanged"}
    assert papers_by_title(lib)["Signals in Macrophages"].year == 2020
    assert {f.status for f in lib.add([str(bib)]).files} == {"metadata", "unchanged"}


def test_ambiguous_title_is_not_guessed(lib, write):
    write("p/one.md", "---\ntitle: A Study of Things\n---\n\n# Intro\n\nOne.\n")
    write("p/two.md", "---\ntitle: A Study of Things\n---\n\n# Intro\n\nTwo.\n")
    lib.add([str(write.root / "p")])
    bib = write("r.bib", "@article{x2001, title={A study of things}, year={2001}}\n")
    assert lib.add([str(bib)]).count("updated") == 0
    assert {s.paper.year for s in lib.papers()} == {None}
