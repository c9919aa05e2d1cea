"""One paper per work for a Zotero item with several PDFs (a Zotero DB built on Zotero's schema, and the shared
library): a second download of the item's paper is another source of the item's paper; a supplement or another
paper attached by mistake stays a paper of its own.  The index's promises hold: a rerun does nothing, removing a
file hands the paper to the other, a re-add converges, and a library that held the PDFs apart converges."""

import pytest

from papershelf import works
from papershelf.document import Bibliographic
from papershelf.importer import Importer

from .conftest import shared
from .zotero_fixture import ZoteroBuilder

TITLE = "Trans-Signalling Keeps Wound Macrophages Inflammatory"


@pytest.fixture
def zdir(tmp_path):
    """Item DUP1 (two authors, DOI, a note) with four PDFs: ATT1 and ATT1B the paper downloaded twice (other
    text), ATTS its supplementary material, ATTX another paper attached by mistake."""
    z = ZoteroBuilder(tmp_path / "Zotero")
    item = z.item("journalArticle", "DUP1", title=TITLE, date="2021-03-00 March 2021", DOI="10.1234/jwb.2021.7",
                  publicationTitle="Journal of Wound Biology")
    z.creators(item, [("Ada", "Okafor"), ("Lena", "Brandt")])
    z.pdf(item, "ATT1", TITLE, "Interleukin six trans-signalling keeps macrophages inflammatory in chronic wounds.")
    z.pdf(item, "ATT1B", TITLE, "Trans-signalling by interleukin six keeps wound macrophages inflammatory.",
          name="Okafor et al. - 2021 - Trans-Signalling.pdf")
    z.pdf(item, "ATTS", "Supplementary Information", "Supplementary figures of the wound macrophage study.")
    z.pdf(item, "ATTX", "Bleaching of Coral Reefs by Depth", "Coral bleaching deepens with water temperature.")
    z.note(item, "NOTE1", "<p>Replicate the glycolysis assay.</p>")
    z.tag(item, "macrophages")
    other = z.item("journalArticle", "ONE1", title="Sediment Cores From the Outer Reef", date="2022-00-00 2022")
    z.creators(other, [("Kofi", "Mensah")])
    z.pdf(other, "ONEA", "Sediment Cores From the Outer Reef", "Sediment cores record storm layers.")
    z.close()
    return tmp_path / "Zotero"


def file_of(lib, paper_id):
    return {s.path.split("/")[-2] for s in lib.sources(paper_id)}


def sections(lib, paper_id):
    return {s.section_path for s in lib.show(paper_id).sections}


def test_same_work_by_the_rules_that_join_two_files():
    item = Bibliographic(title=TITLE, authors=["Ada Okafor", "Lena Brandt"], year=2021, doi="10.1234/jwb.2021.7")
    assert works.same_work(Bibliographic(title=TITLE.upper(), authors=["A. Okafor"]), item)  # no year: open
    assert works.same_work(Bibliographic(doi="https://doi.org/10.1234/JWB.2021.7"), item)
    assert not works.same_work(Bibliographic(title=TITLE, authors=["Ada Okafor"], doi="10.9/other"), item)
    assert not works.same_work(Bibliographic(title="Supplementary Information", authors=["Ada Okafor"]), item)
    assert not works.same_work(Bibliographic(title=TITLE, authors=["Ada Okafor"], year=2017), item)
    assert not works.same_work(Bibliographic(), item)  # a reading that finds nothing cannot tell: apart


def test_a_second_download_joins_the_item_a_supplement_and_a_stray_paper_stay_apart(lib, zdir):
    report = lib.add([str(zdir)])
    assert lib.store.paper_ids() == ["DUP1", "DUP1-ATTS", "DUP1-ATTX", "ONE1"]
    assert file_of(lib, "DUP1") == {"ATT1", "ATT1B"} and [f.joined for f in report.files].count(True) == 1
    assert "Notes" in sections(lib, "DUP1")  # the item's note, once, whichever download supplies the units
    assert "Notes" not in sections(lib, "DUP1-ATTS") and "Notes" not in sections(lib, "DUP1-ATTX")
    # a file read as another work keeps its own reading, not the item's title and DOI
    assert [(lib.paper(p).title, lib.paper(p).doi, lib.paper(p).citekey) for p in ("DUP1-ATTS", "DUP1-ATTX")] == [
        ("Supplementary Information", None, None), ("Bleaching of Coral Reefs by Depth", None, None)]
    assert lib.paper("DUP1-ATTX").tags == lib.paper("DUP1").tags == ["macrophages"]  # where the user filed it
    # every file's attachment key names its paper; the item key names the item's paper only
    refs = lib.store.zotero_refs()
    assert sorted(k for p, k in refs if p == "DUP1") == ["ATT1", "ATT1B", "DUP1"]
    assert sorted(k for p, k in refs if p == "DUP1-ATTS") == ["ATTS"]
    assert [lib.resolve_paper(k) for k in ("ATT1B", "ATTX", "DUP1")] == ["DUP1", "DUP1-ATTX", "DUP1"]
    assert {f.status for f in lib.add([str(zdir)]).files} == {"unchanged"}  # a rerun does only missing work


def test_removing_a_file_hands_the_paper_to_the_other_and_a_re_add_converges(lib, zdir):
    lib.add([str(zdir)])
    provider = lib.paper("DUP1").source_path
    assert lib.remove_source(provider) == ("DUP1", True)
    assert lib.paper("DUP1").source_path != provider and len(lib.sources("DUP1")) == 1
    assert "Notes" in sections(lib, "DUP1")  # the other download carries the item's note too
    report = lib.add([str(zdir)])
    assert [(f.path, f.status, f.joined) for f in report.files if f.status != "unchanged"] == [
        (provider, "added", True)]
    assert file_of(lib, "DUP1") == {"ATT1", "ATT1B"} and len(lib.store.paper_ids()) == 4
    assert {f.status for f in lib.add([str(zdir)]).files} == {"unchanged"}


def test_a_library_that_held_the_second_download_apart_converges_on_the_next_add(lib, zdir, monkeypatch):
    """Before: every PDF of an item its own paper (`Meta.apart`, as papershelf added them).  The next `add`
    re-reads only the item's later PDFs (their metadata changed), and the second download joins the item."""
    made = Importer._attachment_job

    def apart(a, force=False):
        job = made(a, force)
        job.meta = job.meta.apart() if job.meta is not None and job.meta.apart_id else job.meta
        return job

    monkeypatch.setattr(Importer, "_attachment_job", staticmethod(apart))
    lib.add([str(zdir)])
    assert lib.store.paper_ids() == ["DUP1", "DUP1-ATT1B", "DUP1-ATTS", "DUP1-ATTX", "ONE1"]
    monkeypatch.undo()
    report = lib.add([str(zdir)])
    redone = sorted(f.path.split("/")[-2] for f in report.files if f.status != "unchanged")
    assert redone == ["ATT1B", "ATTS", "ATTX"]  # ATT1 and ONEA are not parsed again
    assert lib.store.paper_ids() == ["DUP1", "DUP1-ATTS", "DUP1-ATTX", "ONE1"]
    assert file_of(lib, "DUP1") == {"ATT1", "ATT1B"}
    assert {f.status for f in lib.add([str(zdir)]).files} == {"unchanged"}


def test_shared_library_holds_each_work_once(lib):
    data = shared("zotero")
    lib.add([str(data)])
    papers = [s.paper for s in lib.store.list_papers()]
    keys = [k for p in papers if (k := works.title_key(p.title, p.authors))]
    dois = [p.doi.lower() for p in papers if p.doi]
    assert len(set(keys)) == len(keys) and len(set(dois)) == len(dois)
    assert {p.id for p in papers if len(lib.sources(p.id)) > 1} == {"DK3J4CF5", "UTUWL9DP"}
