"""Bylines and labels of page 1 as publishers set them (issue #38, front matter on unseen layouts): a
byline's second line that opens with the mark of a name the first line broke off, marks set before
the names, a sidebar's labelled fields on the byline's rows, and an article-type label set larger
than a short title.  PDFs are made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.text.script_boxes import text_size

from .pdf_fixtures import BODY, _wrap, read_drawn

W, H = letter
NAMES = ["Anna Berg", "Carl Dahl", "Eva Fors", "Gus Holm", "Ida Juhl"]


def _byline(c: canvas.Canvas, x: float, y: float, parts: list[tuple[str, str]], size: float = 11,
            font: str = "Helvetica") -> None:
    """Names in `font`, each followed by its mark raised in 60 % of the size, in the roman of its family."""
    roman = "Times-Roman" if font.startswith("Times") else "Helvetica"
    for text, mark in parts:
        c.setFont(font, size)
        c.drawString(x, y, text)
        x += c.stringWidth(text, font, size)
        if mark:
            c.setFont(roman, 0.6 * size)
            c.drawString(x, y + 0.35 * size, mark)
            x += c.stringWidth(mark, roman, 0.6 * size)


TITLE = ("A Trial of Ward Rounds at Dawn", "and Dusk in Small Hospitals")


def _paper(path, byline: list[list[tuple[str, str]]], title: tuple[str, ...] = TITLE,
           title_font: str = "Helvetica-Bold", title_size: float = 16, label: tuple[str, float] | None = None,
           left: float = 72, sidebar: list[str] = (), byline_size: float = 11, byline_font: str = "Helvetica"):
    c = canvas.Canvas(str(path), pagesize=letter)
    y = top = H - 72
    if label:
        c.setFont("Helvetica", label[1])
        c.drawString(left, y, label[0])
        y -= label[1] + 18
    c.setFont(title_font, title_size)
    for line in title:
        c.drawString(left, y, line)
        y -= 1.2 * title_size
    y -= 8
    for parts in byline:
        _byline(c, left, y, parts, byline_size, byline_font)
        y -= 1.4 * byline_size
    c.setFont("Times-Roman", 8)
    for aff in ("1 Department of Biology, University of Lund, Lund, Sweden", "2 Institute of Health, Oslo, Norway"):
        y -= 10
        c.drawString(left, y, aff)
    c.setFont("Helvetica", 7.5)
    for k, text in enumerate(sidebar):  # a column left of the title and byline, from the title's top down
        c.drawString(36, top - 9 * k, text)
    c.setFont("Helvetica-Bold", 11)
    c.drawString(left, y - 24, "Abstract")
    c.setFont("Times-Roman", 10)
    for k, text in enumerate(_wrap(" ".join([BODY] * 8), 95 if left < 100 else 60)[:30]):
        c.drawString(left, y - 40 - 12 * k, text)
    return read_drawn(path, c)


def test_a_bylines_line_opening_with_the_mark_of_the_name_above_keeps_its_names(tmp_path):
    """The first line breaks after "Eva Fors" and her marks "1,3," open the second: that line is still
    in the names' size (not the marks'), so the names after the marks are authors too."""
    doc = _paper(tmp_path / "wrapped.pdf", [[("Anna Berg", "1"), (", Carl Dahl", "2"), (", Eva Fors", "")],
                                            [("", "1,3"), (", Gus Holm", "4"), (" and Ida Juhl", "1")]])
    assert doc.authors == NAMES


def test_marks_set_before_the_names_are_no_part_of_them(tmp_path):
    doc = _paper(tmp_path / "before.pdf", [[("", "1"), ("Anna Berg, ", "2"), ("Carl Dahl, ", "1"), ("Eva Fors", "")],
                                           [("", "3"), ("Gus Holm and ", "1"), ("Ida Juhl", "")]])
    assert doc.authors == NAMES


def test_a_sidebars_labelled_fields_on_the_bylines_rows_take_no_names_from_it(tmp_path):
    """A journal's sidebar (not drawn as a box) runs down the left margin from the title's top: its
    "Editor:" field shares the first byline row and its dates the affiliations' rows.  The byline's
    names are all read, and the editor is no author."""
    sidebar = ["OPEN ACCESS", "", "Citation: Berg A, Dahl C, Fors E (2020)", "Giant Cell Arteritis. PLoS ONE 5(3).",
               "", "Editor: Peter Lund, Karolinska", "Institute, SWEDEN", "", "Received: March 3, 2020", "",
               "Accepted: May 4, 2020"]
    doc = _paper(tmp_path / "sidebar.pdf", [[("Anna Berg", "1"), (", Carl Dahl", "2*"), (", Eva Fors", "1,3")],
                                            [("Gus Holm", "2"), (" and Ida Juhl", "1")]],
                 title=("Giant Cell Arteritis in", "Young Adults"), left=200, sidebar=sidebar)
    assert doc.title == "Giant Cell Arteritis in Young Adults"
    assert doc.authors == NAMES


def test_an_article_type_label_set_above_a_short_title_is_no_title(tmp_path):
    """"Case Report" set larger than a title of three words in roman (or as large): the label is no
    title, and the title, whose words could be a name's, is no author."""
    byline = [[("Anna Berg", "1"), (", Carl Dahl", "2"), (", Eva Fors", "1")],
              [("Gus Holm", "2"), (" and Ida Juhl", "")]]
    for label, size in (("Case Report", 18), ("Research Article", 14)):
        doc = _paper(tmp_path / "label.pdf", byline, title=("Giant Cell Arteritis",), title_font="Helvetica",
                     title_size=14, label=(label, size))
        assert (doc.title, doc.authors) == ("Giant Cell Arteritis", NAMES)
    # a first line of other words set that way is the title's own
    doc = _paper(tmp_path / "plain.pdf", byline, title=("Giant Cell Arteritis",), title_font="Helvetica",
                 title_size=14, label=("Night Shifts", 18))
    assert doc.title == "Night Shifts"


def test_a_line_takes_its_texts_size_past_an_opening_mark_but_not_past_a_word():
    """A raised run in a smaller size opening a line gives the line the size after it when the run
    is a mark (digits, symbols, letters a–h); a word set small and raised (a garbled font's) is no mark."""
    sizes = {0: 6.6, 1: 6.6, 2: 6.6, 3: 6.6, 4: 11.0}
    boxes = [(72, 100, 80, 106), (82, 100, 300, 112)]  # the raised small run, then the line's main text
    assert text_size(boxes, 6.6, lambda i: sizes.get(i, 11.0), 0, "1,3, Gus Holm") == 11.0
    assert text_size(boxes, 6.6, lambda i: sizes.get(i, 11.0), 0, "HIJK LMNOP") == 6.6
    level = [(72, 100, 80, 112), (82, 100, 300, 112)]  # the run on the line's baseline, as tall: no mark
    assert text_size(level, 6.6, lambda i: sizes.get(i, 11.0), 0, "1,3, Gus Holm") == 6.6


def test_a_sidebars_reviewers_under_their_label_are_no_authors(tmp_path):
    """"Reviewed by:" ends its line and the reviewer's name stands under it, on the byline's row, in a
    sidebar whose "*Correspondence:" shares an affiliation's row: none of its names is an author."""
    sidebar = ["OPEN ACCESS", "", "Edited by:", "Peter Lund,", "Reviewed by:", "Maria Ek,", "Uppsala University,",
               "Sweden", "Johan Falk,", "Lund University, Sweden", "*Correspondence:", "Anna Berg", "",
               "Received: 3 March 2020"]
    doc = _paper(tmp_path / "reviewed.pdf", [[("Anna Berg", "1"), (", Carl Dahl", "2*"), (", Eva Fors", "1,3")],
                                             [("Gus Holm", "2"), (" and Ida Juhl", "1")]],
                 title=("Giant Cell Arteritis in", "Young Adults"), left=200, sidebar=sidebar)
    assert doc.authors == NAMES


def test_a_short_title_under_a_label_is_the_title_though_the_byline_is_set_large(tmp_path):
    """Under a "Clinical Study" label set larger, a title of three words in roman and a bold byline
    of more words set above the body's size: the title is the first text under the label, not the byline."""
    doc = _paper(tmp_path / "short.pdf", [[("Anna Berg", "1"), (", Carl Dahl", "2"), (", Eva Fors", "1")],
                                          [("Gus Holm", "2"), (" and Ida Juhl", "")]],
                 title=("Giant Cell Arteritis",), title_font="Helvetica", title_size=14, label=("Clinical Study", 18),
                 byline_size=12.5)
    assert (doc.title, doc.authors) == ("Giant Cell Arteritis", NAMES)


def test_raised_marks_before_names_in_capitals_or_initials_leave_the_names_whole(tmp_path):
    doc = _paper(tmp_path / "caps.pdf", [[("", "1,3*"), ("ANNA BERG, ", "2"), ("C. DAHL, ", "1"), ("EVA FORS", "")],
                                         [("", "3"), ("GUS HOLM & ", "1"), ("I. JUHL", "")]])
    assert doc.authors == ["Anna Berg", "C. Dahl", "Eva Fors", "Gus Holm", "I. Juhl"]


def test_a_bold_bylines_line_opening_with_a_roman_mark_is_still_bold_and_read(tmp_path):
    """Names in bold, marks in roman: a line that opens with a roman mark (of the name the line above
    broke off, or of its own first name) is in the names' weight all the same."""
    for byline in ([[("Anna Berg", "1"), (", Carl Dahl", "2"), (", Eva Fors", "")],
                    [("", "1,3"), (", Gus Holm", "4"), (" and Ida Juhl", "1")]],
                   [[("", "1"), ("Anna Berg, ", "2"), ("Carl Dahl, ", "1"), ("Eva Fors", "")],
                    [("", "3"), ("Gus Holm and ", "1"), ("Ida Juhl", "")]]):
        doc = _paper(tmp_path / "bold.pdf", byline, byline_font="Times-Bold")
        assert doc.authors == NAMES
