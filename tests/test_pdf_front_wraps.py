"""Front matter read from where its lines break (issue #38, front9): a title whose lines were measured at
slightly different sizes (an OCR'd title, a first line set larger), a title line that reads like names
under a filled line, a label in the title's own style over a one-line title (the title's first word would
have fitted beside it: no wrap), and a byline whose second line reads in another weight (bold names with
a roman "and" or roman marks between them).  PDFs are made here with reportlab."""

from __future__ import annotations

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import abstract_body, read_drawn

W, H = letter



def _byline(c: canvas.Canvas, y: float, text: str = "Anna Berg, Carl Dahl and Eva Fors") -> None:
    c.setFont("Times-Roman", 11)
    c.drawString(72, y, text)


def test_a_title_whose_first_line_is_measured_smaller_keeps_it(tmp_path):
    """"Database Metatheory:" a little smaller than the line under it (an OCR'd title's line heights):
    the line above runs on into the title (it ends with a colon) and is its first line."""
    c = canvas.Canvas(str(tmp_path / "up.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 17.5)
    c.drawString(72, H - 90, "Database Metatheory:")
    c.setFont("Helvetica-Bold", 19)
    c.drawString(72, H - 113, "Asking the Big Queries")
    _byline(c, H - 145)
    abstract_body(c, H - 190)
    doc = read_drawn(tmp_path / "up.pdf", c)
    assert doc.title == "Database Metatheory: Asking the Big Queries"
    assert doc.authors == ["Anna Berg", "Carl Dahl", "Eva Fors"]


def test_a_title_line_that_reads_like_names_goes_on_under_a_filled_line(tmp_path):
    """A first line set a little larger, filled to the measure, over "Older Adults Of Giant Cells" in
    the title's weight at its pitch: the second line is the title's, not a byline."""
    c = canvas.Canvas(str(tmp_path / "down.pdf"), pagesize=letter)
    first = "Outcomes of Long Haul Flights and Ward Rounds Among"
    c.setFont("Helvetica-Bold", 19)
    c.drawString(72, H - 90, first)
    c.setFont("Helvetica-Bold", 17.5)
    c.drawString(72, H - 112, "Older Adults With Giant Cells")
    _byline(c, H - 145)
    abstract_body(c, H - 190)
    doc = read_drawn(tmp_path / "down.pdf", c)
    assert doc.title == f"{first} Older Adults With Giant Cells"
    assert doc.authors == ["Anna Berg", "Carl Dahl", "Eva Fors"]


def test_a_label_in_the_titles_style_over_a_one_line_title_is_no_part_of_it(tmp_path):
    """"Research Note" in the title's size and weight, at its line pitch, over a one-line title: the
    title's first word would have fitted beside the label, so the label's line was no wrap."""
    c = canvas.Canvas(str(tmp_path / "label.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 20)
    c.drawString(72, H - 90, "Field Note")
    c.drawString(72, H - 114, "Ward Rounds at Dawn in Rural Hospitals")
    _byline(c, H - 145)
    abstract_body(c, H - 190)
    doc = read_drawn(tmp_path / "label.pdf", c)
    assert doc.title == "Ward Rounds at Dawn in Rural Hospitals"


def test_a_balanced_two_line_title_keeps_its_first_line(tmp_path):
    """A title broken by hand into two lines of about one width is not a label and a title."""
    c = canvas.Canvas(str(tmp_path / "balanced.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 20)
    c.drawCentredString(W / 2, H - 90, "Deep Ward Rounds")
    c.drawCentredString(W / 2, H - 114, "for Rural Hospitals")
    c.setFont("Times-Roman", 11)
    c.drawCentredString(W / 2, H - 145, "Anna Berg, Carl Dahl and Eva Fors")
    abstract_body(c, H - 190)
    doc = read_drawn(tmp_path / "balanced.pdf", c)
    assert doc.title == "Deep Ward Rounds for Rural Hospitals"


def test_bold_names_with_a_roman_and_keep_the_second_line(tmp_path):
    """Bold names, the commas and "and" in roman: the first line reads bold, the second ("and Ida
    Juhl") roman; the list runs on across the break, so Ida Juhl is an author."""
    c = canvas.Canvas(str(tmp_path / "weights.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, H - 90, "Ward Rounds at Dawn in Rural Hospitals")
    x, y = 72.0, H - 120
    for sep, name in (("", "Anna Berg"), (", ", "Carl Dahl"), (", ", "Eva Fors"), (", ", "Gus Holm")):
        c.setFont("Times-Roman", 11)
        c.drawString(x, y, sep)
        x += c.stringWidth(sep, "Times-Roman", 11)
        c.setFont("Times-Bold", 11)
        c.drawString(x, y, name)
        x += c.stringWidth(name, "Times-Bold", 11)
    c.setFont("Times-Roman", 11)
    c.drawString(72, y - 14, "and ")
    c.setFont("Times-Bold", 11)
    c.drawString(72 + c.stringWidth("and ", "Times-Roman", 11), y - 14, "Ida Juhl")
    c.setFont("Times-Roman", 8)
    c.drawString(72, y - 34, "Department of Medicine, University of Lund, Sweden")
    abstract_body(c, H - 200)
    doc = read_drawn(tmp_path / "weights.pdf", c)
    assert doc.authors == ["Anna Berg", "Carl Dahl", "Eva Fors", "Gus Holm", "Ida Juhl"]


def test_an_affiliation_line_in_another_weight_stays_out(tmp_path):
    """Bold names closed on their line, then a roman line that reads like a name ("Naver Clova"): the
    list does not run on across the break, so it is no author."""
    c = canvas.Canvas(str(tmp_path / "affil.pdf"), pagesize=letter)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, H - 90, "Ward Rounds at Dawn in Rural Hospitals")
    c.setFont("Times-Bold", 11)
    c.drawString(72, H - 120, "Anna Berg and Carl Dahl")
    c.setFont("Times-Roman", 11)
    c.drawString(72, H - 134, "Naver Clova")
    abstract_body(c, H - 200)
    doc = read_drawn(tmp_path / "affil.pdf", c)
    assert doc.authors == ["Anna Berg", "Carl Dahl"]


def test_names_joined_by_another_languages_and_are_each_read():
    """"e", "y", "und", "et" join the last two names as "and" does; a name holding "y" whose second side
    is no name of its own stays one name; such a word closing a wrapped line is no affiliation."""
    from papershelf.ingest.pdf.front.authors import line_names

    assert line_names("João Silva^1, Ana Costa^2 e Maria Santos^1") == ["João Silva", "Ana Costa", "Maria Santos"]
    assert line_names("Juan Pérez y María López") == ["Juan Pérez", "María López"]
    assert line_names("Hans Müller und Eva Schmidt") == ["Hans Müller", "Eva Schmidt"]
    assert line_names("José Ortega y Gasset") == ["José Ortega y Gasset"]
    assert line_names("Gustav Holm^1,3, Ida Juhl^3 und") == ["Gustav Holm", "Ida Juhl"]
    assert line_names("Laboratório de Física e Química") is None
    for affiliation in ("Departamento de Física", "Facultad de Medicina", "Escola Paulista de Medicina"):
        assert line_names(affiliation) is None  # an affiliation in the names' style reads as no name


def test_marks_in_brackets_and_bars_between_names():
    from papershelf.ingest.pdf.front.authors import line_names

    assert line_names("Anna Berg [1,2], Carl Dahl [2] and Eva Fors [1]") == ["Anna Berg", "Carl Dahl", "Eva Fors"]
    assert line_names("Anna Berg^1 | Carl Dahl^2") == ["Anna Berg", "Carl Dahl"]


def test_a_title_cased_line_of_function_words_is_no_name():
    """A title in title case holds "Of", "With", "And" capitalised; no person's name does."""
    from papershelf.ingest.pdf.front.authors import line_names

    assert line_names("Older Adults Of Giant Cells") is None
    assert line_names("Ward Long Adults In And At Among Of Haul") is None
    assert line_names("Anna Berg, Duc An and Thi Do") == ["Anna Berg", "Duc An", "Thi Do"]


def test_a_centred_byline_cut_at_its_marks_keeps_its_first_name(tmp_path):
    """A byline centred under a centred title and wider than it, drawn name by name with raised marks:
    the piece that happens to start at the title's left edge is no flush-left line, and the names left
    of it are the byline's, not a column of their own."""
    c = canvas.Canvas(str(tmp_path / "centred.pdf"), pagesize=letter)
    title = "Ward Rounds at Dawn"
    c.setFont("Helvetica-Bold", 18)
    c.drawCentredString(W / 2, H - 90, title)
    edge = W / 2 - c.stringWidth(title, "Helvetica-Bold", 18) / 2
    names = ["Li Nord", "Uma Haddad", "Olle Silva", "Ida Dahl", "Petra Chen"]
    pieces = [("" if k == 0 else ", ") + n for k, n in enumerate(names)]
    widths = [c.stringWidth(p, "Times-Roman", 11) + c.stringWidth("1", "Times-Roman", 6.6) for p in pieces]
    x = edge - widths[0] - widths[1] + c.stringWidth(", ", "Times-Roman", 11) * 0  # the third piece starts at the edge
    for p, w in zip(pieces, widths, strict=True):
        c.setFont("Times-Roman", 11)
        c.drawString(x, H - 125, p)
        c.setFont("Times-Roman", 6.6)
        c.drawString(x + c.stringWidth(p, "Times-Roman", 11), H - 121, "1")
        x += w
    abstract_body(c, H - 200)
    doc = read_drawn(tmp_path / "centred.pdf", c)
    assert doc.authors == names
