"""Things set like headings that are none (issue 38, round heads7), each drawn as a generated PDF: a
body-size sidebar beside two columns on the title page (the paper's columns are wide on its other
pages), an example's labelled fields ("Id: 87_1" / "Text: The most …"), a continued figure's
"Figure 1 cont" label, and a reference list whose entries set their authors in bold on a first line
broken inside a name; and, as the reader's own lines, a numbered heading beside a display equation's
pieces."""

import dataclasses

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf.reader import _join_across_columns
from papershelf.ingest.pdf.sections.heading_style import BodyStyle, Para
from papershelf.ingest.pdf.text.lines import Line

from .test_pdf_heading_print import _bold
from .test_pdf_heading_styles import _TEXT, _headings, _para, _title

W, H = letter
_LONG = " ".join([_TEXT] * 2)


def _two_columns(c: canvas.Canvas, y: float, heads: list[str], left: float) -> None:
    """Sections in two columns from `left` to the page's right margin, bold names over paragraphs."""
    width = (W - 54 - left - 18) / 2
    x = left
    for head in heads:
        if y < 160:
            x, y = x + width + 18, H - 130
        _bold(c, y, head, 10) if x == 72 else (c.setFont("Times-Bold", 10), c.drawString(x, y, head))
        y = _para(c, x, y - 14, width, text=_LONG) - 10


def test_sidebar_of_body_size_labels_beside_two_columns(tmp_path):
    """Labels on lines of their own in bold at the body's size over roman values, in a narrow strip
    beside two columns as narrow as itself: a sidebar (page 2's columns run much wider), so its
    labels open no section and the paper's own sections are all found."""
    path = tmp_path / "sidebar2.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for label in ("Citation", "Editor", "Received", "Accepted", "Published", "Copyright",
                  "Data Availability Statement", "Funding", "Competing interests"):
        c.setFont("Helvetica-Bold", 10)
        c.drawString(54, y, label)
        c.setFont("Times-Roman", 10)
        c.drawString(54, y - 12, "stated by the authors")
        y -= 36
    _two_columns(c, H - 130, ["Introduction", "Materials and methods", "Results"], 204)
    c.showPage()
    _two_columns(c, H - 72, ["Discussion", "Conclusions"], 54)
    c.save()
    assert [t for t, _ in _headings(path)] == ["Introduction", "Materials and methods", "Results", "Discussion",
                                                "Conclusions"]


def _field(c: canvas.Canvas, y: float, label: str, value: str) -> float:
    return _para(c, 72, y, 460, (f"{label}:", "Times-Bold"), text=value) - 4


def test_example_fields_are_no_sub_headings(tmp_path):
    """An example of labelled fields, bold labels with a colon run in: the long fields' labels sit
    beside one-line fields, so none is a section; a bold run-in lead ending in a period still is."""
    path = tmp_path / "fields.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _bold(c, _title(c), "Methods", 12)
    y = _para(c, 72, H - 148, 460, ("Cell culture.", "Times-Bold")) - 6
    y = _field(c, y, "Id", "87_1")
    y = _field(c, y, "Text", _TEXT)
    y = _field(c, y, "Hypothesis", _TEXT)
    y = _field(c, y, "Answer", "a rondo")
    y = _field(c, y, "Document", _TEXT)
    _bold(c, y - 10, "Results", 12)
    _para(c, 72, y - 28, 460)
    c.save()
    assert [t for t, _ in _headings(path)] == ["Methods", "Cell culture", "Results"]


def test_continued_figure_label_is_no_heading(tmp_path):
    """ "Figure 1 cont" over a figure's second part (no caption punctuation after the number) names
    an object, not a section."""
    path = tmp_path / "figure.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _bold(c, _title(c), "Results", 12)
    y = _para(c, 72, H - 148, 460) - 12
    _bold(c, y, "Figure 1 cont", 10)
    c.rect(72, y - 130, 300, 110)
    c.setFont("Times-Roman", 9)
    c.drawString(72, y - 146, "Figure 1 cont. Survival of the cells in the second cohort.")
    y = _para(c, 72, y - 170, 460) - 12
    _bold(c, y, "Discussion", 12)
    _para(c, 72, y - 18, 460)
    c.save()
    assert [t for t, _ in _headings(path)] == ["Results", "Discussion"]


def test_bold_author_lines_of_a_reference_list_are_no_headings(tmp_path):
    """Entries whose authors fill their first line in bold and wrap: inside the list each such line
    reads as an entry (surname and initials), not as a sub-heading; a section after the list stays."""
    path = tmp_path / "refs.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _bold(c, _title(c), "Introduction", 12)
    y = _para(c, 72, H - 148, 460) - 12
    _bold(c, y, "References", 12)
    y -= 20
    for k in range(5):
        _bold(c, y, "Loughran NB, Hinde S, McCormick-Hill S, Leidal KG, Bloomberg S, Loughran", 10)
        c.setFont("Times-Roman", 10)
        c.drawString(72, y - 12, f"ST, Yang Z. 20{10 + k}. The evolution of a pathway in the cohort. Journal 12:1-9.")
        y -= 38
    _bold(c, y, "Appendix", 12)
    _para(c, 72, y - 18, 460)
    c.save()
    assert [t for t, _ in _headings(path)] == ["Introduction", "References", "Appendix"]


def test_numbered_heading_is_not_joined_with_an_equations_pieces_above_its_row():
    """ "3. Results" ends a column, and a display equation's pieces ("λ", "(7)", "θsi , n θ"), read as
    a column of their own, start above the heading's baseline: no continuation of the title (a title
    goes on below itself); text set below the heading in the next column still may be."""
    body = BodyStyle(10.0, False, "times")
    head = Para([Line(5, 116, 527, 157, 534, "3. Results", 10.0, True, face="times-bold")], text="3. Results",
                column_end=True)
    pieces = [Line(5, 311, 479, 319, 487, "λ", 10.0, False), Line(5, 465, 486, 476, 495, "(7)", 10.0, False),
              Line(5, 306, 492, 333, 501, "θsi , n θ", 10.0, False)]
    beside = Para(pieces, text="λ (7) θsi , n θ", column_start=True)
    assert len(_join_across_columns([head, beside], body)) == 2
    below = Para([dataclasses.replace(ln, top=ln.top + 80, bottom=ln.bottom + 80) for ln in pieces],
                 text="λ (7) θsi , n θ", column_start=True)
    assert len(_join_across_columns([dataclasses.replace(head), below], body)) == 1
