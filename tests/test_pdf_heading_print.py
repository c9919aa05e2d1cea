"""Headings judged against the text around them (issue 38, round heads4), each drawn as a generated
PDF: a methods section and back matter set in small print with their own bold headings, and a back
sheet written bottom up read top to bottom."""

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .pdf_fixtures import read_drawn
from .test_pdf_heading_styles import _headings, _para, _title

W, H = letter


def _bold(c: canvas.Canvas, y: float, text: str, size: float) -> None:
    c.setFont("Times-Bold", size)
    c.drawString(72, y, text)


def _body(c: canvas.Canvas, y: float, head: str) -> float:
    _bold(c, y, head, 12)
    y -= 18
    for _ in range(3):
        y = _para(c, 72, y, 460) - 2
    return y - 10


def _small(c: canvas.Canvas, y: float, heads: list[str], size: float = 8) -> float:
    """Bold headings of the small print's own size, each over a paragraph of that size."""
    for head in heads:
        _bold(c, y, head, size)
        y = _para(c, 72, y - 1.3 * size, 460, size=size) - 1.2 * size
    return y


def test_small_print_methods_have_their_own_headings(tmp_path):
    """Methods set in 8 pt under 10 pt text, their sub-headings in 8 pt bold: smaller than the body,
    yet headings of their part (a bold short line with space above over a paragraph of its size)."""
    path = tmp_path / "small_methods.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _body(c, _title(c), "Introduction")
    y = _body(c, y, "Results")
    c.showPage()
    y = _body(c, H - 72, "Discussion")
    _bold(c, y, "Methods", 12)
    _small(c, y - 18, ["Cell culture", "Western blot", "Statistical analysis"])
    c.save()
    assert _headings(path) == [
        ("Introduction", 1),
        ("Results", 1),
        ("Discussion", 1),
        ("Methods", 1),
        ("Cell culture", 2),
        ("Western blot", 2),
        ("Statistical analysis", 2),
    ]


def test_small_print_back_matter_headings_stand_with_its_names(tmp_path):
    """Back matter in 7.5 pt: headings the list of standard names does not know ("Authors'
    contributions") stand at the level of the known ones beside them ("Acknowledgements")."""
    path = tmp_path / "small_back.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _body(c, _title(c), "Background")
    y = _body(c, y, "Conclusions")
    c.showPage()
    _small(c, H - 72, ["Acknowledgements", "Availability of data and materials", "Authors' contributions"], 7.5)
    c.save()
    assert _headings(path) == [
        ("Background", 1),
        ("Conclusions", 1),
        ("Acknowledgements", 1),
        ("Availability of data and materials", 1),
        ("Authors' contributions", 1),
    ]


def test_one_small_bold_line_is_no_heading(tmp_path):
    """A single bold small line over small text (a note's label) is not taken: the paper's own
    structure shows no small-print headings."""
    path = tmp_path / "small_once.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _body(c, _title(c), "Introduction")
    y = _body(c, y, "Results")
    _small(c, y, ["Further reading and notes"])
    c.save()
    assert _headings(path) == [("Introduction", 1), ("Results", 1)]


def test_back_sheet_written_bottom_up_reads_top_down(tmp_path):
    """A back sheet (the title again at the top of the last page) whose lines the file writes from
    the bottom of the page up: its text is read top to bottom, never as sections."""
    path = tmp_path / "back_up.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _body(c, _title(c), "Introduction")
    _body(c, y, "Results")
    c.showPage()
    _body(c, H - 72, "Discussion")
    c.showPage()
    rows = [f"Notice {k}: this sheet was added by the publisher and is no part of the paper." for k in range(1, 6)]
    for k in reversed(range(len(rows))):  # drawn bottom first
        c.setFont("Helvetica", 10)
        c.drawString(72, H - 160 - 12 * k, rows[k])
    c.setFont("Helvetica-Bold", 17)
    c.drawString(120, H - 80, "Dose Response of a Signalling Pathway")
    doc = read_drawn(path, c)
    assert [b.text for b in doc.blocks if b.kind == "heading"] == ["Introduction", "Results", "Discussion"]
    text = " ".join(b.text for b in doc.blocks if b.page == 3)
    at = [text.find(f"Notice {k}:") for k in range(1, 6)]
    assert -1 not in at and at == sorted(at)
    assert len([b for b in doc.blocks if b.page == 3]) == 1  # one paragraph, as printed


def _runin_first_line(c: canvas.Canvas, y: float, parts: list[tuple[str, str]]) -> float:
    x = 72.0
    for text, font in parts:
        c.setFont(font, 10)
        c.drawString(x, y, text)
        x += c.stringWidth(text, font, 10)
    return _para(c, 72, y - 12, 460) - 6


def test_italic_runin_on_a_line_ending_in_an_italic_name(tmp_path):
    """An italic run-in heading ("Bacterial strains.") whose first line ends in an italic species
    name: the paragraph still goes on in roman after the lead-in, so the lead-in is a heading."""
    path = tmp_path / "italic_runin.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _body(c, _title(c), "Methods")
    for lead, name in (("Bacterial strains. ", "Escherichia coli"), ("Growth media. ", "Bacillus subtilis")):
        y = _runin_first_line(
            c,
            y,
            [
                (lead, "Times-Italic"),
                ("Cells were grown overnight in a medium for ", "Times-Roman"),
                (name, "Times-Italic"),
            ],
        )
    c.save()
    assert _headings(path) == [("Methods", 1), ("Bacterial strains", 2), ("Growth media", 2)]


def test_runin_whose_period_is_set_in_roman(tmp_path):
    """A bold run-in heading whose closing period is set in the text's roman is judged on its last
    letter; an italic title closed by a roman period (a book's title opening a reference's second
    line) is not taken for a lead-in."""
    path = tmp_path / "roman_period.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _body(c, _title(c), "Methods")
    y = _runin_first_line(c, y, [("Western blot", "Times-Bold"), (". Lysates were run on a gel.", "Times-Roman")])
    y = _runin_first_line(
        c, y, [("Numerical Recipes", "Times-Italic"), (". Cambridge University Press.", "Times-Roman")]
    )
    c.save()
    assert _headings(path) == [("Methods", 1), ("Western blot", 2)]


def test_small_print_italic_headings(tmp_path):
    """Methods in 8 pt with their sub-headings in 8 pt italics on lines of their own."""
    path = tmp_path / "small_italic.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _body(c, _title(c), "Introduction")
    y = _body(c, y, "Results")
    c.showPage()
    _bold(c, H - 72, "Materials and methods", 12)
    y = H - 90
    for head in ("Plant material", "Field sites"):
        c.setFont("Times-Italic", 8)
        c.drawString(72, y, head)
        y = _para(c, 72, y - 10.4, 460, size=8) - 9.6
    c.save()
    assert _headings(path) == [
        ("Introduction", 1),
        ("Results", 1),
        ("Materials and methods", 1),
        ("Plant material", 2),
        ("Field sites", 2),
    ]


def test_a_list_items_number_is_no_section_number(tmp_path):
    """Sections numbered "2", "3" and a bold list item "3)" between them (a paper's three factors,
    the last set on its own line): "3)" is an item, not section 3, so the real "3 Design" keeps its
    place and "3.1" stays under it."""
    path = tmp_path / "items.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    y = _body(c, y, "1 Introduction")
    y = _body(c, y, "2 Overview")
    y = _para(c, 72, y, 460) - 2
    _bold(c, y, "3) How an array is used throughout the program.", 10)
    y = _para(c, 72, y - 14, 460) - 12
    c.showPage()
    y = _body(c, H - 72, "3 Design")
    _body(c, y, "3.1 Tiling")
    c.save()
    heads = [t for t, _ in _headings(path)]
    assert heads == ["1 Introduction", "2 Overview", "3 Design", "3.1 Tiling"], heads
