"""Where a reference list starts and ends, and where its entries start, read from the list itself (issue #38):
a contents page's "References" line, a list printed with no heading, headings other journals use,
biographies after the list, flush author-year entries with no gap, lists that indent each entry's first
line.  PDFs are made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import read_references, title_and_body

W, H = letter

AUTHOR_YEAR = [
    ["Alonso, L., Galand, P. E., Casamayor, E. O. & Bertilsson, S. (2010). High bicarbonate",
     "assimilation in the dark by Arctic bacteria. ISME J 4, 1581-1590."],
    ["Brettar, I., Labrenz, M., Flavier, S., Botel, J., Kuosa, H., Christen, R. &",
     "Hofle, M. G. (2006). Identification of a denitrifying epsilonproteobacterium.",
     "Appl Environ Microbiol 72, 1364-1372."],
    ["Brinkhoff, T., Kuever, J., Muyzer, G. & Jannasch, H. W. (2005). Genus VI. Thiomicrospira.",
     "In Bergey's Manual of Systematic Bacteriology, pp. 193-199. New York: Springer."],
    ["Bruns, A., Cypionka, H. & Overmann, J. (2002). Cyclic AMP and acyl homoserine lactones",
     "increase the cultivation efficiency of heterotrophic bacteria. Appl Environ Microbiol 68, 3978-3987."],
    ["Campbell, B. J., Engel, A. S., Porter, M. L. & Takai, K. (2006). The versatile epsilon-",
     "proteobacteria: key players in sulphidic habitats. Nat Rev Microbiol 4, 458-468."],
]


def _heading(c: canvas.Canvas, text: str, y: float) -> float:
    c.setFont("Times-Bold", 12)
    c.drawString(72, y - 10, text)
    c.setFont("Times-Roman", 9)
    return y - 32


def _flush(c: canvas.Canvas, y: float, entries: list[list[str]] = AUTHOR_YEAR,
           indent: tuple[int, int] = (0, 0)) -> float:
    """Entries set line after line at one pitch, no gap between them, each line but an entry's last
    justified to the measure as print sets them; `indent`: (first line, the rest)."""
    for entry in entries:
        for k, ln in enumerate(entry):
            x = 72 + indent[0 if k == 0 else 1]
            _justified(c, x, y, ln, 540 - x if k < len(entry) - 1 else None)
            y -= 11
    return y


def _justified(c: canvas.Canvas, x: float, y: float, text: str, width: float | None) -> None:
    words = text.split(" ")
    if width is None or len(words) < 2:
        c.drawString(x, y, text)
        return
    t = c.beginText(x, y)
    t.setFont("Times-Roman", 9)
    t.setWordSpace((width - c.stringWidth(text, "Times-Roman", 9)) / (len(words) - 1))
    t.textOut(text)
    c.drawText(t)



def test_a_flush_author_year_list_with_no_gap_is_cut_at_each_first_author(tmp_path):
    """No indent and no gap tells the entries apart: a line opening "Surname, I." after a full stop opens
    an entry once the entry before has cited its year; "Hofle, M. G. (2006)." after "Christen, R. &"
    goes on with its author list."""
    path = tmp_path / "flush.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _heading(c, "References", title_and_body(c, "Sulfur Bacteria of the Baltic", 4))
    refs = read_references(path, (c, _flush(c, y))[0])
    assert [r.text[:8] for r in refs] == ["Alonso, ", "Brettar,", "Brinkhof", "Bruns, A", "Campbell"]
    assert "Hofle, M. G. (2006)" in refs[1].text


def test_a_list_that_indents_each_entrys_first_line_is_cut_at_the_indented_lines(tmp_path):
    """Old proceedings indent an entry's first line and run the rest on at the edge."""
    path = tmp_path / "indent.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _heading(c, "Bibliography", title_and_body(c, "A Universal Modular Actor Formalism", 3))
    entries = [["Balzer, R.M., \"Ports: A Method for Dynamic Interprogram Communication\" The Rand",
                "Corp., 1971."], ["Bishop, Peter, \"Data Types for Programming Generality\" M.S. June 1972."],
               ["Earley, Jay. \"Toward an Understanding of Data Structures\" Computer Science Department,",
                "University of California, Berkeley."],
               ["Hewitt, C. and Patterson M. \"Comparative Schematology\" Record of Project MAC Conference on",
                "Concurrent Systems and Parallel Computation. June 2-5, 1970."],
               ["Kay, Alan C. Private Communication."],
               ["Krutar, R. \"Conversational Systems Programming\" Proceedings of the Fall Joint",
                "Computer Conference. October 1972."]]
    refs = read_references(path, (c, _flush(c, y, entries, indent=(22, 0)))[0])
    assert [r.text.split(",")[0] for r in refs] == ["Balzer", "Bishop", "Earley", "Hewitt", "Kay", "Krutar"]


def test_biographies_after_the_list_are_no_entries(tmp_path):
    """A chapter prints its authors' biographies after the list, under "BIOSKETCHES" or straight away
    ("Jeff Mitton is an evolutionary geneticist ..."): the list ends there."""
    for i, after in enumerate((["BIOSKETCHES", "Gary Klein", "Klein Associates Inc.", "1750 Commerce Center Blvd."],
                               ["Jeff Mitton is an evolutionary geneticist whose research on plants",
                                "and animals focuses on the forces that shape genetic structure."])):
        path = tmp_path / f"bio{i}.pdf"
        c = canvas.Canvas(str(path), pagesize=letter)
        y = _heading(c, "References", title_and_body(c, "Glacial Refugia of Limber Pine", 3))
        y = _flush(c, y, AUTHOR_YEAR[:1] + AUTHOR_YEAR[2:], indent=(0, 12))
        for ln in after:
            y -= 11
            c.drawString(72, y, ln)
        refs = read_references(path, c)
        assert len(refs) == 4, after[0]
        assert not any("Klein" in r.text or "geneticist" in r.text for r in refs)


def test_a_contents_pages_references_line_does_not_open_the_list(tmp_path):
    """A survey's contents page lists "References" among its sections; the list starts at the heading
    on its own page, and the body text between is no entry."""
    path = tmp_path / "toc.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 16)
    c.drawCentredString(W / 2, H - 80, "On Understanding Types, Data Abstraction, and Polymorphism")
    c.setFont("Times-Roman", 11)
    c.drawString(72, H - 120, "Contents")
    for k, ln in enumerate(["1. From Untyped to Typed Universes", "2. The Lambda Calculus", "3. Conclusions",
                            "References", "Appendix: Type Inference Rules"]):
        c.drawString(90, H - 140 - 14 * k, ln)
    c.showPage()
    y = title_and_body(c, "1. From Untyped to Typed Universes", 12)
    c.showPage()
    y = _heading(c, "References", H - 80)
    refs = read_references(path, (c, _flush(c, y, AUTHOR_YEAR, indent=(0, 12)))[0])
    assert [r.text[:6] for r in refs] == ["Alonso", "Bretta", "Brinkh", "Bruns,", "Campbe"]


def test_headings_of_other_journals_open_the_list(tmp_path):
    """Optics journals head the list "References and links", the Royal Society's ePrints "§9 References"."""
    for head in ("References and links", "§9 References"):
        path = tmp_path / "head.pdf"
        c = canvas.Canvas(str(path), pagesize=letter)
        y = _heading(c, head, title_and_body(c, "Tympanic Membrane Vibrations", 3))
        refs = read_references(path, (c, _flush(c, y, AUTHOR_YEAR, indent=(0, 12)))[0])
        assert len(refs) == 5, head


NOTES = ["1. Novak, R., Henriques, B., Charpentier, E. & Tuomanen, E. (1999) Nature 399, 590-593.",
         "2. Bugg, T. D., Wright, G. D., Dutka-Malen, S. & Walsh, C. T. (1991) Biochemistry 30, 10408-10415.",
         "3. Arthur, M., Molinas, C. & Courvalin, P. (1992) J. Bacteriol. 174, 2582-2591.",
         "4. Walsh, C. T. (1989) J. Biol. Chem. 264, 2393-2396.",
         "5. Fan, C., Moews, P. C., Walsh, C. T. & Knox, J. R. (1994) Science 266, 439-443.",
         "6. Healy, V. L., Lessard, I. A. & Walsh, C. T. (2000) Chem. Biol. 7, R109-R119."]


def test_a_numbered_list_printed_with_no_heading_is_found_at_the_papers_end(tmp_path):
    """Letter journals print their numbered notes after the text with no heading: labels 1, 2, 3, ...
    opening lines at the end, each citing a year, are the list; numbered steps without years are not."""
    path = tmp_path / "letter.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, "Structure of the VanA Ligase", 4) - 14
    c.setFont("Times-Roman", 9)
    for ln in NOTES:
        c.drawString(72, y, ln)
        y -= 11
    assert [r.year for r in read_references(path, c)] == [1999, 1991, 1992, 1989, 1994, 2000]
    path = tmp_path / "steps.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = title_and_body(c, "Assembling the Apparatus", 4) - 14
    for k in range(1, 7):
        c.drawString(72, y, f"{k}. Fasten the bracket to the frame and check that it holds.")
        y -= 11
    assert read_references(path, c) == []
