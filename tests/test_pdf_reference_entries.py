"""Where each entry of a reference list starts (issue #38), on classes the generated lists of
bench/gen_references.py found: an author-year list whose titles end at a short line before the venue
line, entries that end with a DOI rather than a full stop, labels set small and raised (one of them read
on a line of its own), and a title ending in "-ling" (no abbreviation).  PDFs are made with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.references import parse_reference

from .pdf_fixtures import read_drawn, title_and_body

W, H = letter

# Flush author-year entries (no indent, no gap): each title ends a short line, the venue opens the next;
# the second and fourth entries end with a DOI, and the entry after opens at the column's edge.
FLUSH = [
    ["Brandt, M., Silva, J., & Mbeki, C. (1996). Distributed adaptive folding of sparse",
     "optimal inference.", "Bioinformatics 76, 721–774."],
    ["Chen, C., Kowalski, E., & Kaplan, P. T. (2005). Learning coastal adaptive networks.",
     "Proc. Natl. Acad. Sci. USA 45, 188–189. https://doi.org/10.4617/s412985"],
    ["Chen, J., & Wójcik, A. A. (2007). Adaptive networks in signalling kinetics.",
     "Computational Linguistics 62, 335–398."],
    ["Dubois, M., Tanaka, C., & Nakamura, K. (1977). Communities of adaptive learning.",
     "Nature 6, 502–599. https://doi.org/10.1444/j240305"],
    ["Fernández, E. L., & Rossi, J. C. (1980). Parsing the dynamics of coastal sediment.",
     "Computational Linguistics 35, 328–362."],
    ["Haddad, A., & Mbeki, B. B. (1984). Distributed ranking inference in robust storage.",
     "Zeitschrift für Naturforschung 118, 771–827."],
]


def _page(path) -> tuple[canvas.Canvas, float]:
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, "Observations on Coastal Sediment Transport", 5)
    c.setFont("Times-Bold", 11)
    c.drawString(72, y - 14, "Literature Cited")
    c.setFont("Times-Roman", 9)
    return c, y - 34


def test_a_flush_author_year_list_opens_entries_only_at_a_surname_after_an_entrys_end(tmp_path):
    """Six entries whose titles end a short line (the venue on the next line is no new entry) and two of
    which end with a DOI (the entry after is a new one though no full stop ends the DOI)."""
    path = tmp_path / "flush.pdf"
    c, y = _page(path)
    for entry in FLUSH:
        for line in entry:
            c.drawString(72, y, line)
            y -= 11
    refs = read_drawn(path, c).references
    assert [r.authors[0] for r in refs] == ["Brandt, M", "Chen, C", "Chen, J", "Dubois, M", "Fernández, E. L",
                                            "Haddad, A"]
    assert refs[0].text.endswith("Bioinformatics 76, 721–774.")
    assert refs[1].doi == "10.4617/s412985"


def test_raised_labels_number_the_list_even_on_a_line_of_their_own(tmp_path):
    """Labels set in 6 pt, 2.5 pt above the entry's baseline: the reader marks them ("^3") or, when the
    label stands apart, gives it a line of its own; the list is still cut at each label."""
    path = tmp_path / "raised.pdf"
    c, y = _page(path)
    for n, entry in enumerate(FLUSH, start=1):
        c.setFont("Times-Roman", 6)
        c.drawString(72, y + 2.5, str(n))
        c.setFont("Times-Roman", 9)
        for line in entry:
            c.drawString(84, y, line)
            y -= 11
    refs = read_drawn(path, c).references
    assert len(refs) == 6
    assert [r.year for r in refs] == [1996, 2005, 2007, 1977, 1980, 1984]
    assert refs[2].authors[0] == "Chen, J"


def test_a_title_ending_in_ling_is_no_abbreviation():
    """"Comput. Ling." ends no sentence, but "signalling." does: the title stops there."""
    ref = parse_reference("[4] P. Okafor. Networks of coastal signalling. Physical Review Letters 105, 186–903 "
                          "(1995).", 4)
    assert ref.title == "Networks of coastal signalling"


def test_names_with_accented_capitals_a_lone_vancouver_author_and_a_title_with_a_colon():
    """"& Özdelen, E." ends the authors as "& Ozdelen, E." would; "Lynch N." alone is a Vancouver author
    list (but "Michael J." before "Bommarito II," is a first name); "Structural-RNN:" opens a title, not an
    LNCS "Authors:" list."""
    r = parse_reference("7. Özcan, U., Cao, Q., Lee, A. & Özdelen, E. Endoplasmic reticulum stress links "
                        "obesity. Science 306, 457–461 (2004).", 7)
    assert r.authors[-1] == "Özdelen, E" and r.title == "Endoplasmic reticulum stress links obesity"
    r = parse_reference("7. Lynch N. A hundred impossibility proofs for distributed computing. PODC. 1989;1-28.", 7)
    assert r.authors == ["Lynch, N"] and r.title == "A hundred impossibility proofs for distributed computing"
    r = parse_reference("Michael J. Bommarito II, Daniel Martin Katz, and Eric M. Detterman. 2018. LexNLP: "
                        "Natural language processing for legal texts. arXiv preprint.", 1)
    assert r.authors[0].startswith("Michael J. Bommarito") and r.title.startswith("LexNLP")
    r = parse_reference("Jain, A., Zamir, A. R., Savarese, S. & Saxena, A. Structural-RNN: Deep learning on "
                        "spatio-temporal graphs. CVPR, 5308–5317 (2016).", 1)
    assert r.authors[-1] == "Saxena, A" and r.title.startswith("Structural-RNN")


SHORT = [["Brandt, M. (1996). Adaptive folding. Bioinformatics 76, 721–774."],
         ["World Health Organization (2019). Global report on coastal health. Geneva: WHO Press."],
         ["Chen, C., & Kaplan, P. T. (2005). Learning coastal networks.", "Proc. Natl. Acad. Sci. USA 45, 188–189."],
         ["Dubois, M. et al. (1977). Communities of adaptive learning. Nature 6, 502–599."],
         ["Haddad, A. (1984). Distributed ranking in robust storage. Science 118, 771–827."],
         ["NASA (2004). Mission report on thermal response. Washington, DC."],
         ["Rossi, J. C. (1980). Parsing sediment. Computational Linguistics 35, 328–362."]]


def test_short_entries_set_apart_by_a_gap_and_bodies_as_authors(tmp_path):
    """Mostly one-line entries 4 pt apart (half the steps down the list are gaps: the line pitch is the
    small step, not the median), two of them by a body with its year after its name, one "et al.": seven
    entries; and the same list with no gap at all still opens an entry at the body's name."""
    for gap in (4, 0):
        path = tmp_path / f"short{gap}.pdf"
        c, y = _page(path)
        for entry in SHORT:
            for line in entry:
                c.drawString(72, y, line)
                y -= 10.5
            y -= gap
        refs = read_drawn(path, c).references
        assert [r.year for r in refs] == [1996, 2019, 2005, 1977, 1984, 2004, 1980], gap


def test_a_year_before_the_title_a_page_range_and_authors_split_by_semicolons():
    """The Royal Society prints "Authors. 1992 Title."; MDPI "Authors; …; Last, P. Title. Journal 1996, 42,
    1953–1958." (the pages a range, no year; the last author after a semicolon ends the list)."""
    r = parse_reference("6. Kovacs KM, Lavigne DM. 1992 Maternal investment in otariid seals and walruses. "
                        "Can. J. Zool. 64, 1964–1972.", 6)
    assert (r.year, r.title) == (1992, "Maternal investment in otariid seals and walruses")
    r = parse_reference("20. Pasanen, A.L.; Lappalainen, S.; Pasanen, P. Volatile organic metabolites associated "
                        "with some toxic fungi. Can. J. Microbiol. 1996, 42, 1953–1958.", 20)
    assert (r.year, r.authors[-1]) == (1996, "Pasanen, P")
    assert r.title == "Volatile organic metabolites associated with some toxic fungi"
