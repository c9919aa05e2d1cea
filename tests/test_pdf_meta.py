"""Metadata a PDF states about itself: PDFs made here with reportlab, and the shared real ones."""

import json
import re

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf import Filters, SearchOptions
from papershelf.ingest.pdf.front.meta import read_pdf_meta, strip_doi

from .conftest import shared
from .pdf_fixtures import draw_references

BODY = "Macrophages switch from an inflammatory to a repair phenotype as a wound heals in mice."


def make_pdf(path, top=(), bottom=(), references=(), info=None, pages=1):
    """Page 1: `top` lines under a title, body text, `bottom` lines in the footer; then a
    References heading with `references` lines; `pages` - 1 more body pages."""
    c = canvas.Canvas(str(path), pagesize=letter)
    for key, value in (info or {}).items():
        getattr(c, f"set{key}")(value)
    y = 740
    c.setFont("Helvetica", 8)
    for line in top:
        c.drawString(60, y, line)
        y -= 12
    c.setFont("Helvetica-Bold", 16)
    c.drawString(60, y - 20, "Signals That Persist in Wound Macrophages")
    c.setFont("Times-Roman", 10)
    y -= 70
    for _ in range(8):
        c.drawString(60, y, BODY)
        y -= 13
    c.setFont("Helvetica", 8)
    for i, line in enumerate(bottom):
        c.drawString(60, 60 - 11 * i, line)
    y = draw_references(c, 60, y - 20, references, 12)
    for _ in range(pages - 1):
        c.showPage()
        c.setFont("Times-Roman", 10)
        c.drawString(60, 700, BODY)
    c.save()
    return path


def meta_of(path):
    return read_pdf_meta(path.read_bytes(), str(path))


def test_arxiv_stamp_gives_id_year_and_venue(tmp_path):
    m = meta_of(make_pdf(tmp_path / "a.pdf", bottom=["arXiv:2201.13352v1 [physics.app-ph] 27 Jan 2022"]))
    assert (m.arxiv_id, m.year, m.venue) == ("2201.13352v1", 2022, "arXiv:2201.13352v1 [physics.app-ph]")


def test_proceedings_line_year_on_the_next_line_and_venue_cut_before_pages(tmp_path):
    m = meta_of(make_pdf(tmp_path / "p.pdf", top=[
        "Proceedings of the 52nd Annual Meeting of the Association for Computational Linguistics, pages 10-20,",
        "Baltimore, Maryland, June 23-25 2014.", "c 2013 Association for Computational Linguistics"]))
    assert m.year == 2014 and m.evidence["year"] == "proceedings"
    assert m.venue == "Proceedings of the 52nd Annual Meeting of the Association for Computational Linguistics"


def test_journal_citation_line_and_labelled_doi_with_trailing_punctuation(tmp_path):
    m = meta_of(make_pdf(tmp_path / "j.pdf", top=[
        "Clinical Science (2014) 126, 305-313 (Printed in Great Britain) doi: 10.1042/CS20130403.",
        "(c) 2013 The Authors"]))
    assert (m.year, m.venue, m.doi) == (2014, "Clinical Science", "10.1042/CS20130403")


def test_copyright_line_and_acronym_venue_line(tmp_path):
    m = meta_of(make_pdf(tmp_path / "c.pdf", top=["ACL 2014"], bottom=["Copyright 2014 by the author(s)."]))
    assert (m.year, m.venue) == (2014, "ACL 2014")


def test_years_in_references_or_body_are_never_the_papers_year(tmp_path):
    m = meta_of(make_pdf(tmp_path / "r.pdf", references=[
        "Smith J. Proceedings of the 30th Conference on Things, 2009.",
        "Copyright 2011. Clinical Science (2012) 12, 1-9. doi:10.1000/xyz123"],
        info={"Title": "Microsoft Word - draft.docx", "Subject": "Neural Information Processing Systems"}))
    assert (m.year, m.doi, m.venue, m.title) == (None, None, None, None)


def test_document_info_title_authors_and_venue_from_subject(tmp_path):
    m = meta_of(make_pdf(tmp_path / "i.pdf", top=["Ada Okafor and Lena Brandt"], info={
        "Title": "Signals That Persist in Wound Macrophages", "Author": "Ada Okafor ; Lena Brandt",
        "Subject": "NAACL-HLT 2013"}))
    assert m.title == "Signals That Persist in Wound Macrophages"
    assert m.authors == ["Ada Okafor", "Lena Brandt"] and m.venue == "NAACL-HLT 2013"
    assert m.year is None  # a venue field's year is not trusted as the paper's


@pytest.mark.parametrize("author", ["IT Department", "Lilongwe", "Ada Okafor ; Someone Else", "lncs_series"])
def test_document_info_author_is_believed_only_when_page_one_prints_every_name(tmp_path, author):
    """A department, a city, a series name, or a name page 1 does not print: no author at all."""
    m = meta_of(make_pdf(tmp_path / "i.pdf", top=["Ada Okafor and Lena Brandt"], info={"Author": author}))
    assert m.authors == []


def test_cite_this_article_doi_on_the_last_page(tmp_path):
    path = tmp_path / "b.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.drawString(60, 700, BODY)
    c.showPage()
    c.drawString(60, 700, "doi:10.1186/1472-6963-14-1")
    c.drawString(60, 688, "Cite this article as: Someone et al.: A title. BMC Things 2014, 14:1")
    c.save()
    assert meta_of(path).doi == "10.1186/1472-6963-14-1"


def test_page_texts_from_the_parse_give_the_metadata_reading_the_pdf_gives(tmp_path):
    """`add` hands the metadata reader the page texts the parse extracted: the same year, DOI and
    venue as reading them again; texts that do not cover every page are not used."""
    from papershelf.ingest import SourceFile, parse_source
    from papershelf.ingest.pdf import read_pdf

    path = tmp_path / "c.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.drawString(60, 740, "Proceedings of the 12th Workshop on Wound Biology, 2019")
    for page in range(1, 8):
        c.drawString(60, 700, f"{BODY} Page {page} of the study.")
        c.showPage()
    c.drawString(60, 700, "doi:10.1186/1472-6963-14-1")
    c.drawString(60, 688, "Cite this article as: Someone et al.: A title. BMC Things 2014, 14:1")
    c.save()
    data = path.read_bytes()
    texts: list[str] = []
    read_pdf(data, texts)
    assert len(texts) == 8 and "doi:10.1186" in texts[-1] and "Page 3 of" in texts[2]
    alone = read_pdf_meta(data, str(path))
    assert (alone.year, alone.doi) == (2019, "10.1186/1472-6963-14-1")
    assert read_pdf_meta(data, str(path), texts) == alone
    assert read_pdf_meta(data, str(path), texts[:-1] + ["Proceedings of Elsewhere, 2001"]) != alone  # they are read
    assert read_pdf_meta(data, str(path), texts[:3]) == alone  # too few: the pages are read again
    doc = parse_source(SourceFile(str(path), data, ""))
    assert (doc.year, doc.doi) == (2019, "10.1186/1472-6963-14-1")


def test_arxiv_file_name_gives_year_only_for_a_valid_month(tmp_path):
    assert meta_of(make_pdf(tmp_path / "2305.03393v1.pdf")).year == 2023
    assert meta_of(make_pdf(tmp_path / "2313.03393.pdf")).year is None


@pytest.mark.parametrize("raw,clean", [("10.1000/abc.", "10.1000/abc"), ("10.1000/a(b)c),", "10.1000/a(b)c"),
                                       ("10.1016/0924-4247(95)01013-Q.", "10.1016/0924-4247(95)01013-Q")])
def test_strip_doi(raw, clean):
    assert strip_doi(raw) == clean


def test_added_pdf_gets_year_so_year_filter_keeps_it(lib, tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    make_pdf(folder / "paper.pdf", top=["Proceedings of NAACL-HLT 2013, pages 211-220,"],
             bottom=["doi:10.5555/example.2013"])
    report = lib.add([str(folder)])
    paper = lib.store.get_paper(report.files[0].paper_id)
    assert (paper.year, paper.doi) == (2013, "10.5555/example.2013")
    assert paper.venue == "Proceedings of NAACL-HLT 2013"
    hits = lib.search("macrophages", SearchOptions(mode="lexical", filters=Filters(year_from=2010))).results
    assert hits and all(h.paper_id == paper.id for h in hits)


def test_shared_pdfs_no_wrong_year_or_doi():
    manifest = json.loads(shared("pdfs", "manifest.json").read_text())
    import re

    wrong = []
    for entry in manifest:
        path = shared(entry["file"])
        m = read_pdf_meta(path.read_bytes(), str(path))
        year = re.search(r"\b((?:19|20)\d\d)\b", entry["venue"])
        arxiv = re.search(r"arXiv:(\d\d)\d\d\.", entry["venue"])
        expected = int(year.group(1)) if year else 2000 + int(arxiv.group(1))
        doi = re.search(r"doi:(10\.\S+)", entry["venue"])
        if m.year not in (None, expected) or (m.doi or None) != (doi.group(1) if doi else None):
            wrong.append((entry["file"], m.year, m.doi))
    assert wrong == []


def test_a_year_written_into_the_papers_doi_dates_a_page_that_prints_none(tmp_path):
    """A journal that prints its DOI ("Doi:10.5901/mjss.2013.v4n13p867") but no dated line: the year
    the publisher wrote into the DOI is the paper's (the file of the dev corpus was made the next January).  A DOI whose
    numbers are an article number ("10.1186/1472-6963-14-1") gives none."""
    from papershelf.ingest.pdf.front.meta import doi_year

    m = meta_of(make_pdf(tmp_path / "d.pdf", top=["Mediterranean Journal of Social Sciences",
                                                  "Doi:10.5901/mjss.2013.v4n13p867"]))
    assert (m.year, m.evidence["year"]) == (2013, "year in the doi")
    assert doi_year("10.1186/1472-6963-14-1") is None and doi_year("10.1016/j.cell.2019.01.002") == 2019


def test_a_journal_logo_above_the_title_is_no_title_whatever_order_pdfium_gives():
    """Wiley's "Cladistics" set at 21 pt over the 17 pt title: the one-word label above a longer,
    larger-than-body title is the journal's logo, even where pdfium lists the logo after the title."""
    from papershelf.ingest.pdf.front.title_tiers import title_size

    title = (16.9, "The role of wood anatomy in phylogeny reconstruction of Ericales", 146.0)
    logo, names = (21.2, "Cladistics", 69.0), (13.0, "Frederic Lens, Pieter Baas and Erik Smets", 174.0)
    assert title_size([title, names, logo], 10.0) == title_size([logo, title, names], 10.0) == 16.9


def test_a_history_line_and_a_meetings_line_date_the_paper_wherever_page_one_prints_them(tmp_path):
    """A history line ("Received: …; Accepted: …; Published: …") or a meeting's line with its dates
    ("CHI 2013 Extended Abstracts, April 27–May 2, 2013, …") in the middle of page 1, far from its
    header and footer, gives the year; prose that mentions a year does not."""
    filler = [f"Keyword {i} and more words about the study, printed in the front matter." for i in range(16)]
    history = "Received: 12 March 2016; Accepted: 25 April 2016; Published: 29 April 2016"
    m = meta_of(make_pdf(tmp_path / "h.pdf", top=[*filler, history], bottom=filler))
    assert m.year == 2016 and m.evidence["year"] == "copyright"
    meeting = "CHI 2013 Extended Abstracts, April 27–May 2, 2013, Paris, France."
    m = meta_of(make_pdf(tmp_path / "m.pdf", top=[*filler, meeting], bottom=filler))
    assert m.year == 2013 and m.evidence["year"] == "venue line"
    prose = "Shazam Entertainment, Ltd. was started in 2000 with the idea of a service."
    assert meta_of(make_pdf(tmp_path / "n.pdf", top=[*filler, prose], bottom=filler)).year is None


def test_a_reference_a_year_ahead_does_not_drop_a_year_the_files_making_confirms():
    """A paper printed as 2004, its file made in 2004, citing a product named "SQL Server 2005": one
    year ahead is no contradiction then; two years ahead, or a file made later, still is."""
    from papershelf.document import Reference
    from papershelf.ingest.pdf.front.year import checked_year

    refs = [Reference(n=1, text="x", year=2003), Reference(n=2, text="y", year=2005)]
    assert checked_year(2004, refs, (2004, 6)) == (2004, None)
    assert checked_year(2004, refs, (2005, 6))[0] is None
    assert checked_year(2003, refs, (2004, 6))[0] is None


def test_a_meetings_days_on_a_line_of_their_own_date_the_paper_and_a_drafts_day_does_not(tmp_path):
    """A meeting's place and range of days in page 1's header ("Tokyo, Japan" / "September 22--24,
    2010") give the year; a draft's single day ("June 7, 2004") and a range inside prose do not."""
    m = meta_of(make_pdf(tmp_path / "r.pdf", top=["Second Language Studies Workshop", "Tokyo, Japan",
                                                    "September 22--24, 2010"]))
    assert m.year == 2010 and m.evidence["year"] == "dated line"
    assert meta_of(make_pdf(tmp_path / "d.pdf", top=["Draft", "June 7, 2004"])).year is None
    prose = "The interviews took place on June 3-5, 2009 in the three clinics of the study area."
    assert meta_of(make_pdf(tmp_path / "p.pdf", top=[prose])).year is None


def _made_in(path, year_month: str):
    """The file at `path` rewritten as made in `year_month` ("200312"): its document info's dates."""
    data = re.sub(rb"/(CreationDate|ModDate) \(D:\d{6}", lambda m: b"/" + m.group(1) + b" (D:" + year_month.encode(),
                  path.read_bytes())
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("top", "made", "year"), [
    # an issue's year and the online-first year, the file made before the year: either is the paper's
    (["Proc. R. Soc. Lond. B (2004) 271, 147-152", "Published online 27 November 2003"], "200312", None),
    # the same page in a file made in the year: the (its journal line's)
    (["Proc. R. Soc. Lond. B (2004) 271, 147-152", "Published online 27 November 2003"], "200402", 2004),
    (["Statist. Med. 2005; 24:1185-1195", "Copyright © 2004 John Wiley & Sons, Ltd."], "200503", 2005),
    # two copyright years, the file made before the later one
    (["elementary techniques. © 2003 Wiley Periodicals, Inc.", "© 2002 Wiley Periodicals, Inc."], "200211", None),
    # an arXiv stamp dates a version: beside a meeting's own year, no year
    (["Proceedings of the 36th International Conference on Machine Learning, Long Beach, 2019.",
      "arXiv:1905.01234v3 [cs.LG] 2 Mar 2020"], "202003", None),
    (["arXiv:1905.01234v1 [cs.LG] 2 May 2019"], "201905", 2019),
])
def test_a_page_printing_two_years_of_its_own_is_dated_by_the_files_making_or_not_at_all(tmp_path, top, made, year):
    """Page 1 prints two years as the paper's own (an issue's and an online-first or copyright year):
    a file made before the later one came out before its issue's year, and libraries file it under
    either, so no year (none from the DOI, XMP or file name either); a file made in the issue's year
    is the issue's.  A single year stands."""
    path = _made_in(make_pdf(tmp_path / "y.pdf", top=top), made)
    m = meta_of(path)
    assert m.year == year, m.evidence
    assert m.year_unsure == (year is None)


def test_an_undated_files_year_stands_against_a_couple_of_entries_dated_after_it():
    """A scan with no creation date printed as 1985 whose list cites two works of 1986 (a meeting of
    next January, "to appear") among 20 dated entries keeps 1985; a year printed three years before
    many entries (a reprint's first year, a received date) is still dropped, and so is a year no entry
    reaches (the list stops years before it: some other date)."""
    from papershelf.document import Reference
    from papershelf.ingest.pdf.front.year import checked_year

    years = [1977, 1978, 1979, 1980, 1981, 1981, 1982, 1982, 1983, 1983, 1984, 1984, 1984, 1985, 1985, 1985,
             1985, 1984, 1986, 1986]
    refs = [Reference(n=i, text="x", year=y) for i, y in enumerate(years, start=1)]
    assert checked_year(1985, refs, None) == (1985, None)
    assert checked_year(1982, refs, None)[0] is None
    assert checked_year(1985, refs, (1987, 3))[0] is None  # a file made later: the bound it had
    old = [Reference(n=i, text="x", year=y) for i, y in enumerate([1970, 1971, 1972] * 7 + [1990], start=1)]
    assert checked_year(1989, old, None)[0] is None
