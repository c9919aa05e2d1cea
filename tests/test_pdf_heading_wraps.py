"""Headings that wrap, and headings of small print over short statements (issue 38, round heads5),
each drawn as a generated PDF: a title that needs two or three lines of a narrow column stays one
heading, in bold or in italics, and the text below it stays text; a bold small-print name over a
one-line statement ("Not applicable.") is a heading when its style heads long paragraphs too."""

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .test_pdf_heading_print import _body, _bold, _small
from .test_pdf_heading_styles import _headings, _para, _title

W, H = letter


def _lines(c: canvas.Canvas, x: float, y: float, lines: list[str], font: str, size: float) -> float:
    c.setFont(font, size)
    for line in lines:
        c.drawString(x, y, line)
        y -= 1.2 * size
    return y


def _column_paper(path, heads: list[tuple[list[str], str]]) -> None:
    """A paper set in a narrow column (200 pt): each heading's lines in its font, over two paragraphs."""
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for lines, font in heads:
        if y < 300:
            c.showPage()
            y = H - 72
        y = _lines(c, 72, y, lines, font, 10) - 3
        y = _para(c, 72, y, 200) - 3
        y = _para(c, 72, y, 200) - 14
    c.save()


def test_bold_headings_wrapped_onto_two_and_three_lines(tmp_path):
    """A numbered bold title on three lines of a narrow column and an unnumbered one of twelve words
    on two lines: each one heading with its whole title."""
    path = tmp_path / "wrapped_bold.pdf"
    _column_paper(
        path,
        [
            (["1. Introduction"], "Times-Bold"),
            (["2. Effects of the compound on", "survival of cells from the", "control cohort"], "Times-Bold"),
            (["Comparison of the model with earlier", "studies of the same pathway"], "Times-Bold"),
            (["3. Discussion"], "Times-Bold"),
        ],
    )
    assert [t for t, _ in _headings(path)] == [
        "1. Introduction",
        "2. Effects of the compound on survival of cells from the control cohort",
        "Comparison of the model with earlier studies of the same pathway",
        "3. Discussion",
    ]


def test_italic_sub_headings_wrapped_onto_two_lines(tmp_path):
    """Italic sub-headings at the body's size whose titles wrap: the second line belongs to the title,
    not to the paragraph below (which starts upright)."""
    path = tmp_path / "wrapped_italic.pdf"
    _column_paper(
        path,
        [
            (["1. Introduction"], "Times-Bold"),
            (["2. Methods"], "Times-Bold"),
            (["2.1 Dose response of the pathway in", "tissues under the conditions below"], "Times-Italic"),
            (["Comparison of the model with earlier", "studies of the same pathway"], "Times-Italic"),
            (["3. Results"], "Times-Bold"),
        ],
    )
    heads = _headings(path)
    assert ("2.1 Dose response of the pathway in tissues under the conditions below", 2) in heads
    assert ("Comparison of the model with earlier studies of the same pathway", 2) in heads
    assert len(heads) == 5


def test_long_italic_sub_heading_on_one_line(tmp_path):
    """An italic sub-heading of eleven words on one line of a wide column opens its own paragraph."""
    path = tmp_path / "long_italic.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _body(c, _title(c), "Introduction")
    y = _body(c, y, "Methods")
    y = _lines(c, 72, y, ["Comparison of the model with earlier studies of the same pathway"], "Times-Italic", 10)
    y = _para(c, 72, y - 2, 460) - 12
    _body(c, y, "Results")
    c.save()
    assert _headings(path) == [
        ("Introduction", 1),
        ("Methods", 1),
        ("Comparison of the model with earlier studies of the same pathway", 2),
        ("Results", 1),
    ]


def test_small_print_names_over_short_statements(tmp_path):
    """Declarations in 8 pt bold over 8 pt statements, each statement starting flush on the line
    below its name: two over long paragraphs make the style the small print's headings, so the
    names over "Not applicable." are headings too, and no name runs into its statement."""
    path = tmp_path / "declarations.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _body(c, _title(c), "Background")
    y = _body(c, y, "Conclusions")
    c.showPage()
    y = _small(c, H - 72, ["Authors' contributions", "Availability of data and materials"])
    for name in ("Consent for publication", "Ethics approval and consent to participate"):
        _bold(c, y, name, 8)
        y = _lines(c, 72, y - 9.6, ["Not applicable."], "Times-Roman", 8) - 8
    c.save()
    assert [t for t, _ in _headings(path)] == [
        "Background",
        "Conclusions",
        "Authors' contributions",
        "Availability of data and materials",
        "Consent for publication",
        "Ethics approval and consent to participate",
    ]


def test_small_bold_labels_over_short_values_are_no_headings(tmp_path):
    """A front page's labels in small bold over short values ("Received" / "12 May 2016"), with no
    small-print paragraph they head: not headings."""
    path = tmp_path / "labels.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _body(c, _title(c), "Background")
    for label, value in (("Received", "12 May 2016"), ("Accepted", "3 June 2016"), ("Published", "1 July 2016")):
        _bold(c, y, label, 8)
        y = _lines(c, 72, y - 9.6, [value], "Times-Roman", 8) - 8
    _body(c, y - 10, "Conclusions")
    c.save()
    assert [t for t, _ in _headings(path)] == ["Background", "Conclusions"]
