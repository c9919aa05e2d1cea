"""Front matter read by the document's own evidence (issue #38): page 1 is the paper's unless a sheet
before it proves otherwise, and the year is one the page prints for the paper without a second one
contradicting it.  PDFs are made here with reportlab."""

from __future__ import annotations

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest import load_source, parse_source
from papershelf.units import build_units

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter

METHODS = ("We report the method and the results of a trial in which 3 groups of 2 wards each were compared "
           "over a season. ")


def _body(c: canvas.Canvas, y: float, lines: int, text: str = BODY) -> float:
    c.setFont("Times-Roman", 10)
    for ln in _wrap(" ".join([text] * 8), 95)[:lines]:
        c.drawString(72, y, ln)
        y -= 12
    return y


def _heading(c: canvas.Canvas, y: float, text: str) -> float:
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, y, text)
    return y - 20


def test_numbered_headings_on_page_two_are_no_title_set_again(tmp_path):
    """Page 2 opens with numbered section headings set larger than the body ("2 Method", "3 Results"),
    words page 1 prints too: page 1 is still the paper's own first page, not a sheet put before it,
    so its title is the title and its text stays in the units."""
    path = tmp_path / "short.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 18)
    c.drawCentredString(W / 2, H - 80, "Ward Rounds at Dawn and Dusk")
    c.setFont("Times-Roman", 11)
    c.drawCentredString(W / 2, H - 104, "Maria Lopez, John Smith")
    y = _body(c, H - 140, 6, METHODS + BODY)
    y = _heading(c, y - 10, "1 Introduction")
    _body(c, y, 40, METHODS + BODY)
    c.showPage()
    y = _heading(c, H - 80, "2 Method")
    y = _body(c, y, 25)
    y = _heading(c, y - 10, "3 Results")
    _body(c, y, 25)
    doc = read_drawn(path, c)
    assert doc.title == "Ward Rounds at Dawn and Dusk"
    assert doc.authors == ["Maria Lopez", "John Smith"]
    assert any(b.page == 1 and "Macrophages" in b.text for b in doc.blocks)
    assert any("We report the method" in u.text for u in build_units(doc, "p"))  # only page 1 prints it


def test_later_groups_names_in_bold_run_on_into_a_roman_affiliation(tmp_path):
    """Names in bold, affiliations in roman: a later group's names run on into their affiliation
    after the mark that closed the first line of names ("T. Erker and W. Jaeger ✷ Department of …"),
    so the line is mostly roman.  Every group's names are authors, and no affiliation is."""
    path = tmp_path / "groups.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 11)
    c.drawString(72, H - 90, "RESVERATROL ACTS SYNERGISTICALLY WITH ARA-C")
    rows = [("Z. Horvath, P. Saiko, and W. Bauer *", ""),
            ("", "Clinical Institute of Medical Diagnostics, General Hospital of"),
            ("", "Vienna, Vienna, Austria"),
            ("T. Erker and W. Jaeger *", " Department of Pharmaceutical Chemistry, University of"),
            ("", "Vienna, Vienna, Austria"),
            ("M. Fritzer-Szekeres and T. Szekeres *", " Clinical Institute of Medical and"),
            ("", "Chemical Laboratory Diagnostics, Vienna, Austria")]
    y = H - 130
    for bold, roman in rows:
        t = c.beginText(72, y)
        t.setFont("Times-Bold", 10)
        t.textOut(bold)
        t.setFont("Times-Roman", 10)
        t.textOut(roman)
        c.drawText(t)
        y -= 13
    c.setFont("Times-Roman", 9)
    for ln in _wrap(" ".join([BODY] * 4), 95):
        y -= 12
        c.drawString(90, y - 20, ln)
    doc = read_drawn(path, c)
    assert doc.authors == ["Z. Horvath", "P. Saiko", "W. Bauer", "T. Erker", "W. Jaeger", "M. Fritzer-Szekeres",
                           "T. Szekeres"]


def _dated_paper(path, footer: list[str]) -> int | None:
    """A one-page paper whose foot prints `footer` lines (its journal line, history, copyright); the year read."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 18)
    c.drawCentredString(W / 2, H - 80, "Odour Mixtures Learned by Honeybees")
    c.setFont("Times-Roman", 11)
    c.drawCentredString(W / 2, H - 104, "Maria Lopez, John Smith")
    _body(c, H - 140, 40)
    c.setFont("Times-Roman", 8)
    for i, ln in enumerate(footer):
        c.drawString(72, 80 - 10 * i, ln)
    c.save()
    return parse_source(load_source(str(path))).year


def test_degrees_after_the_names_are_marks_not_the_end_of_the_byline(tmp_path):
    """A clinical journal's byline: each name followed by its degree or title and affiliation numbers
    ("Paquito Bernard, PhD,1,2 Gregory Ninot, Pr,1"), over two lines.  Every name is an author; no
    degree is one, and none ends the list."""
    path = tmp_path / "degrees.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Roman", 16)
    c.drawCentredString(W / 2, H - 80, "Exercise and Counseling for Smoking Cessation")
    c.setFont("Times-Roman", 11)
    c.drawCentredString(W / 2, H - 110, "Paquito Bernard, PhD, Gregory Ninot, Pr, Fabienne Cyprien, MD, MPH,")
    c.drawCentredString(W / 2, H - 124, "Philippe Courtet, Pr, and Adrian Taylor, MSc")
    _body(c, H - 160, 40)
    doc = read_drawn(path, c)
    assert doc.authors == ["Paquito Bernard", "Gregory Ninot", "Fabienne Cyprien", "Philippe Courtet", "Adrian Taylor"]


def test_a_title_set_as_its_headings_are_takes_none_of_them_and_headings_alone_are_no_title(tmp_path):
    """A short paper whose title is set in the size and weight of its numbered section headings, the
    first three headings in the page's top half: the title is its own block, without "1 Introduction
    2 Method"; a page 1 with no title larger than the body gets none rather than "2 Method 3 Results"."""
    for k, title in enumerate(["Ward Rounds at Dawn and Dusk", None]):
        path = tmp_path / f"heads{k}.pdf"
        c = canvas.Canvas(str(path), pagesize=letter)
        y = H - 80
        if title:
            c.setFont("Helvetica-Bold", 14)
            c.drawCentredString(W / 2, y, title)
            y -= 20
        c.setFont("Times-Roman", 10)
        c.drawCentredString(W / 2, y, "Maria Lopez, John Smith")
        y = _body(c, y - 30, 5)
        for name, lines in (("1 Introduction", 4), ("2 Method", 6), ("3 Results", 20)):
            y = _body(c, _heading(c, y - 8, name), lines)
        doc = read_drawn(path, c)
        assert doc.title == title
        if title:
            assert doc.authors == ["Maria Lopez", "John Smith"]


class _Glyphs:
    """A page's glyphs as `glyphs.marked` asks for them: (font size, baseline) by pdfium index."""

    def __init__(self, glyphs: list[tuple[float, float]]):
        self.glyphs = glyphs

    def font_size(self, idx: int) -> float:
        return self.glyphs[idx][0]

    def baseline(self, idx: int) -> float:
        return self.glyphs[idx][1]


def test_an_accent_joined_to_a_capital_opens_no_superscript_and_a_mark_after_it_is_no_letter():
    """A name in capitals and small capitals with a spacing accent over a capital ("KA¨LLERSJO¨2"): the
    accent, joined to its letter, stays behind as an empty glyph in the accent's small raised place; it
    neither raises the letters after it ("KÄ^LLERSJÖ") nor hides the raised affiliation number after
    the name, and a number after a capital with an accent is a mark ("MARI KÄLLERSJÖ2")."""
    from papershelf.ingest.pdf.front.authors import line_names
    from papershelf.ingest.pdf.text.glyphs import GONE, marked

    text = f"KÄ{GONE}LLERSJÖ{GONE}2"
    places = {2: (6.0, 650.0), 10: (6.0, 650.0), 11: (6.0, 652.5)}  # the accents, and the raised "2"
    page = _Glyphs([places.get(i, (9.0, 656.0)) for i in range(len(text))])
    out = marked(page, [(ch, i) for i, ch in enumerate(text)], 9.0).replace(GONE, "")  # type: ignore[arg-type]
    assert out == "KÄLLERSJÖ^2"
    assert line_names("1 and MARI KÄLLERSJÖ2") == ["Mari Källersjö"]


def test_a_sheet_before_the_paper_is_known_by_its_title_though_a_drop_cap_is_larger(tmp_path):
    """A sheet before the paper prints its title; the paper's page (page 2) sets it larger over its
    left column, its last line in roman and its author line beside the right column's text, and opens
    its text with a drop cap larger than the title.  Page 1 is the sheet (its notes are no text of the
    paper), the title keeps all three lines, and the authors are the paper's own full list."""
    path = tmp_path / "sheet.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 12)
    c.drawString(180, H - 80, "Starvation Protects Germline Stem Cells and Extends Reproductive")
    c.drawString(180, H - 94, "Longevity in Worms")
    c.setFont("Times-Roman", 12)
    c.drawString(180, H - 110, "Giana Angelo, et al.")
    c.setFont("Times-Roman", 10)
    c.drawString(100, H - 160, "This copy is for your personal use only; order copies for your colleagues here.")
    c.showPage()
    c.setFont("Times-Bold", 22)
    c.drawString(36, H - 90, "Starvation Protects Germline Stem")
    c.drawString(36, H - 115, "Cells and Extends Reproductive")
    c.setFont("Times-Roman", 22)
    c.drawString(36, H - 140, "Longevity in Worms")
    c.setFont("Times-Roman", 9)
    c.drawString(36, H - 165, "Giana Angelo and Marc R. Van Gilst")
    for i, ln in enumerate(_wrap(" ".join([BODY] * 9), 48)[:60]):
        c.drawString(392, H - 100 - 10.5 * i, ln)
    for i, ln in enumerate(_wrap(" ".join([BODY] * 6), 60)[:40]):
        t = c.beginText(36, H - 331 - 10.5 * i)
        if i == 0:  # the drop cap and the first line: one line for pdfium, in the cap's size
            t.setFont("Times-Roman", 40)
            t.textOut("U")
        t.setFont("Times-Roman", 9)
        t.textOut(ln)
        c.drawText(t)
    doc = read_drawn(path, c)
    assert doc.title == "Starvation Protects Germline Stem Cells and Extends Reproductive Longevity in Worms"
    assert doc.authors == ["Giana Angelo", "Marc R. Van Gilst"]  # the right column's lines beside them are no cell
    assert not any("personal use" in u.text for u in build_units(doc, "p"))


def _labelled_title(path, label: str, label_font: str, label_size: float, gap: float,
                    second: str = "and Their Effect on Recovery") -> tuple[str | None, list[str]]:
    c = canvas.Canvas(str(path), pagesize=letter)
    y = H - 80
    c.setFont(label_font, label_size)
    c.drawCentredString(W / 2, y, label)
    y -= label_size + gap
    c.setFont("Helvetica-Bold", 16)
    for text in ("Ward Rounds at Dawn and Dusk in a Rural Hospital", second):
        c.drawCentredString(W / 2, y, text)
        y -= 19
    c.setFont("Times-Roman", 11)
    c.drawCentredString(W / 2, y - 8, "Maria Lopez, John Smith and Karen Olsen")
    _body(c, y - 40, 40)
    doc = read_drawn(path, c)
    return doc.title, doc.authors


def test_an_article_type_label_in_the_titles_size_and_weight_right_above_it_is_no_part_of_it(tmp_path):
    """"Research Article" set as the title is, one line's pitch above it: its words say it is a label."""
    title, authors = _labelled_title(tmp_path / "label.pdf", "Research Article", "Helvetica-Bold", 16, 4)
    assert title == "Ward Rounds at Dawn and Dusk in a Rural Hospital and Their Effect on Recovery"
    assert authors == ["Maria Lopez", "John Smith", "Karen Olsen"]
    # a first line of the title in that tier that is no article type's label stays in the title
    title, _ = _labelled_title(tmp_path / "two.pdf", "Night Shifts,", "Helvetica-Bold", 16, 4)
    assert title == "Night Shifts, Ward Rounds at Dawn and Dusk in a Rural Hospital and Their Effect on Recovery"


def test_a_supplements_label_above_the_title_opens_its_title(tmp_path):
    """A supplement prints its paper's title under a "Supporting information" label: the label opens
    the supplement's title, so the two documents do not read as one paper twice."""
    title, authors = _labelled_title(tmp_path / "esi.pdf", "Supporting information", "Helvetica-Bold", 18, 20)
    assert title == ("Supporting information: Ward Rounds at Dawn and Dusk in a Rural Hospital"
                     " and Their Effect on Recovery")
    assert authors == ["Maria Lopez", "John Smith", "Karen Olsen"]
    title, _ = _labelled_title(tmp_path / "som.pdf", "Science Supporting Online Material", "Times-Roman", 12, 4)
    assert title.startswith("Science Supporting Online Material: Ward Rounds")
    title, _ = _labelled_title(tmp_path / "plain.pdf", "Department of Surgery", "Times-Roman", 12, 4)
    assert title.startswith("Ward Rounds")


def test_a_raised_glyph_the_font_maps_to_no_character_opens_no_script():
    """A prime the font maps to no character (pdfium gives its bare code, \\x04) raised after a number
    ("∼3′"): the code is dropped and leaves no ``^`` behind ("∼3", not "∼3^"); a real superscript after
    it still opens one."""
    from papershelf.ingest.pdf.text.glyphs import marked
    from papershelf.ingest.pdf.text.lines import clean

    text = "∼3\x04 at x2"
    places = {2: (6.0, 652.5), 8: (6.0, 652.5)}  # the code and the "2" raised and small
    page = _Glyphs([places.get(i, (9.0, 656.0)) for i in range(len(text))])
    out = clean(marked(page, [(ch, i) for i, ch in enumerate(text)], 9.0))  # type: ignore[arg-type]
    assert out == "∼3 at x^2"


def test_a_notes_number_in_brackets_after_the_title_is_no_part_of_it(tmp_path):
    """"… and Their Effect on Recovery [1]": the bracketed number calls a note (a series' earlier part)."""
    title, _ = _labelled_title(tmp_path / "note.pdf", "Case Report", "Helvetica", 12, 20,
                               second="and Their Effect on Recovery [1]")
    assert title == "Ward Rounds at Dawn and Dusk in a Rural Hospital and Their Effect on Recovery"


def _masthead(path, journal: str, web: bool) -> str | None:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Roman", 8)
    c.drawCentredString(W / 2, H - 60, "Contents lists available at a library")
    c.setFont("Times-Roman", 16)
    c.drawCentredString(W / 2, H - 82, journal)
    if web:
        c.setFont("Times-Roman", 8)
        c.drawCentredString(W / 2, H - 98, "journal homepage: www.example.org/locate/journal")
    c.line(50, H - 110, W - 50, H - 110)
    c.setFont("Times-Bold", 16)
    c.drawString(72, H - 140, "Synthesis and biological evaluation of novel")
    c.drawString(72, H - 159, "pyrazole carboxamides as kinase inhibitors")
    c.setFont("Times-Roman", 11)
    c.drawString(72, H - 185, "Maria Lopez, John Smith, Karen Olsen")
    _body(c, H - 220, 40)
    return read_drawn(path, c).title


def test_a_journals_masthead_in_the_titles_size_above_it_is_no_title(tmp_path):
    """A journal's name set in the title's size at the head of page 1, its web address under it: the
    title is the block of that size below (the name is known by its form or by the address under it)."""
    title = "Synthesis and biological evaluation of novel pyrazole carboxamides as kinase inhibitors"
    assert _masthead(tmp_path / "a.pdf", "European Journal of Medicinal Chemistry", web=False) == title
    assert _masthead(tmp_path / "b.pdf", "Applied Surface Science Today", web=True) == title


def test_a_titles_translation_printed_under_it_is_no_part_of_it(tmp_path):
    """A bilingual journal prints the title, then its translation under it in the same size and weight:
    the title is the first, told from the second by the languages of their function words; a title
    in one language broken over two lines stays whole."""
    path = tmp_path / "bi.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 14)
    c.drawCentredString(W / 2, H - 80, "Avaliação do manejo de feridas crônicas em clínicas rurais")
    c.drawCentredString(W / 2, H - 98, "Assessment of chronic wound care in rural clinics and the home")
    c.setFont("Times-Roman", 11)
    c.drawCentredString(W / 2, H - 124, "Maria Lopez, João Silva, Karen Olsen")
    _body(c, H - 160, 40)
    doc = read_drawn(path, c)
    assert doc.title == "Avaliação do manejo de feridas crônicas em clínicas rurais"
    assert doc.authors == ["Maria Lopez", "João Silva", "Karen Olsen"]
    title, _ = _labelled_title(tmp_path / "en.pdf", "Case Report", "Helvetica", 12, 20,
                               second="and the Effect of the Season on Recovery")
    assert title == "Ward Rounds at Dawn and Dusk in a Rural Hospital and the Effect of the Season on Recovery"


@pytest.mark.parametrize("mark", ["★", "☆", "✩", "∗", "†"])
def test_a_note_mark_after_the_title_is_no_part_of_it(mark):
    """"… in Mice^✩": pdfium reads a raised note mark after a caret; every star a journal sets is a mark."""
    from papershelf.ingest.pdf.front.title import _TITLE_NOTE

    assert _TITLE_NOTE.sub("", f"Fungal Diseases in Mice^{mark}") == "Fungal Diseases in Mice"


@pytest.mark.parametrize(("head", "title"), [
    # a title whose first line of three words is set larger, the rest right under it at its pitch
    ([("Times-Bold", 18, 720, "Macrophage Switching Stalls"),
      ("Times-Bold", 14, 700, "in Diabetic Wounds of Aged Mice")],
     "Macrophage Switching Stalls in Diabetic Wounds of Aged Mice"),
    # an article-type label set larger right above the title, and a logo's word far above it, stay labels
    ([("Helvetica-Bold", 20, 720, "ORIGINAL ARTICLE"),
      ("Times-Bold", 16, 690, "Macrophage Switching Stalls in Wounds")],
     "Macrophage Switching Stalls in Wounds"),
    ([("Helvetica-Bold", 28, 730, "Woundcare"), ("Times-Bold", 16, 660, "Macrophage Switching Stalls in Wounds")],
     "Macrophage Switching Stalls in Wounds"),
    # a logo's words with its web address right under it, larger than the title: the address is no title's rest
    ([("Helvetica-Bold", 20, 740, "Wound Archive"), ("Helvetica", 17, 720, "http://www.wound-archive.org/archive"),
      ("Times-Bold", 16, 680, "Macrophage Switching Stalls in Wounds")], "Macrophage Switching Stalls in Wounds"),
])
def test_a_titles_first_line_set_larger_is_no_label_but_a_label_or_logo_above_it_stays_one(tmp_path, head, title):
    """A title's first line of a word or three set larger than the rest, right above it at the title's
    pitch, is the title's (it was taken for a label, and the title lost it); an article-type label or a
    logo's word set larger above the title is still no part of it.  The byline under it is read."""
    path = tmp_path / "t.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    for font, size, y, text in head:
        c.setFont(font, size)
        c.drawString(72, y, text)
    c.setFont("Times-Roman", 11)
    c.drawString(72, 640, "Ada Okafor, Karl Schmidt")
    c.setFont("Times-Bold", 11)
    c.drawString(72, 610, "Abstract")
    _body(c, 594, 30)
    doc = read_drawn(path, c)
    assert doc.title == title
    assert doc.authors == ["Ada Okafor", "Karl Schmidt"]
