"""Heading decisions for layouts the wide corpus showed (issue 38, round heads2), each drawn as a
generated PDF: columns framed one by one, numbered run-ins opening with a symbol, a bold heading
closing in a math letter, sections and sub-sections set alike, contents pages without numbers,
and a contents entry whose title ends in a number."""

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from .test_pdf_heading_styles import _headings, _para, _title

W, H = letter


def _bold_heading(c: canvas.Canvas, y: float, text: str, x: float = 72, size: float = 10) -> None:
    c.setFont("Times-Bold", size)
    c.drawString(x, y, text)


def test_columns_framed_one_by_one_are_read_as_columns(tmp_path):
    """A recreated 1970s journal page draws a frame around each of its two columns: the frames are
    no sidebars (nothing is left beside them), so the headings inside are sections, read column by
    column."""
    path = tmp_path / "framed.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    _bold_heading(c, y, "1. Introduction")
    _para(c, 72, y - 14, 460)
    c.showPage()
    for x, heads in ((60, ("2. The File System", "2.1 Ordinary Files")), (320, ("2.2 Directories", "3. Traps"))):
        c.rect(x - 6, 60, 244, H - 130, stroke=1, fill=0)
        y = H - 90
        for head in heads:
            _bold_heading(c, y, head, x)
            y = _para(c, x, y - 14, 226) - 4
            y = _para(c, x, y - 2, 226) - 10
    c.save()
    assert _headings(path) == [("1. Introduction", 1), ("2. The File System", 1), ("2.1 Ordinary Files", 2),
                               ("2.2 Directories", 2), ("3. Traps", 1)]


def _runin_line(c: canvas.Canvas, y: float, parts: list[tuple[str, str]]) -> float:
    x = 72.0
    for text, font in parts:
        c.setFont(font, 10)
        c.drawString(x, y, text)
        x += c.stringWidth(text, font, 10)
    return _para(c, 72, y - 12, 460)


def test_numbered_runin_opening_with_a_symbol_or_lowercase(tmp_path):
    """amsart's "8.2. k-sparse vectors. Consider …" (k in math italic) and "8.3. λ-constrained case.
    Let …" (λ in a symbol font) are numbered run-in sub-sections: the symbol carries no weight, the
    words after it do; a lowercase opening is taken only with the very next number."""
    path = tmp_path / "math_runin.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    _bold_heading(c, y, "1. Example applications")
    y = _para(c, 72, y - 14, 460)
    y = _runin_line(c, y - 6, [("1.1. ", "Times-Roman"), ("Linear subspace.", "Times-Bold"),
                               (" Consider first the case of a subspace.", "Times-Roman")])
    y = _runin_line(c, y - 6, [("1.2. ", "Times-Roman"), ("k", "Times-Italic"), ("-sparse vectors.", "Times-Bold"),
                               (" Consider next the application from above.", "Times-Roman")])
    y = _runin_line(c, y - 6, [("1.3. ", "Times-Roman"), ("λ", "Symbol"), ("-constrained case.", "Times-Bold"),
                               (" Let the set be given as above.", "Times-Roman")])
    y = _runin_line(c, y - 6, [("1.5. ", "Times-Roman"), ("k", "Times-Italic"), ("-means clusters.", "Times-Bold"),
                               (" A number skipped: no heading opening in lowercase.", "Times-Roman")])
    c.save()
    heads = _headings(path)
    assert heads[:4] == [("1. Example applications", 1), ("1.1. Linear subspace", 2), ("1.2. k-sparse vectors", 2),
                         ("1.3. λ-constrained case", 2)]
    assert len(heads) == 4


def test_bold_heading_closing_in_a_math_letter_is_bold(tmp_path):
    """"A.2 First moments of the increment m" in bold, its closing m in math italic (no weight): the
    line is still a bold heading, and the appendix numbering goes on to A.3."""
    path = tmp_path / "math_end.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for head, math in (("1 Introduction", ""), ("A Proof of the theorem", ""), ("A.1 Outline", ""),
                       ("A.2 First moments of the increment ", "m"), ("A.3 Putting it all together", "")):
        _bold_heading(c, y, head)
        if math:
            c.setFont("Times-Italic", 10)
            c.drawString(72 + c.stringWidth(head, "Times-Bold", 10), y, math)
        y = _para(c, 72, y - 14, 460) - 8
    c.save()
    assert _headings(path) == [("1 Introduction", 1), ("A Proof of the theorem", 1), ("A.1 Outline", 2),
                               ("A.2 First moments of the increment m", 2), ("A.3 Putting it all together", 2)]


def test_standard_name_over_a_sub_heading_in_the_same_style(tmp_path):
    """CHI's extended abstracts set "Introduction" and its sub-heading "HCI and smartphones" in the
    same bold, one right under the other: a standard name is a whole title, so these are two
    headings; a title wrapped onto a lowercase line stays one."""
    path = tmp_path / "alike.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for lines in (("Introduction", "HCI and smartphones"), ("Methods", "Questionnaire"),
                  ("Results and", "discussion of the questionnaire")):
        for k, text in enumerate(lines):
            _bold_heading(c, y - 12 * k, text, size=9.5)
        y = _para(c, 72, y - 12 * len(lines) - 2, 460, size=8.5) - 10
    c.save()
    assert [h for h, _ in _headings(path)] == ["Introduction", "HCI and smartphones", "Methods", "Questionnaire",
                                               "Results and discussion of the questionnaire"]


def test_contents_page_without_page_numbers(tmp_path):
    """A contents page that lists the sections in their own style, without page numbers: the
    entries that come again as headings later are the contents' entries, not sections."""
    path = tmp_path / "contents.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    _bold_heading(c, y, "Contents", size=12)
    y -= 24
    for entry in ("Introduction", "Acknowledgements", "References"):
        _bold_heading(c, y, entry)
        y -= 24
    c.showPage()
    y = H - 80
    for head in ("Introduction", "Acknowledgements", "References"):
        _bold_heading(c, y, head, size=12)
        y = _para(c, 72, y - 16, 460) - 12
    c.save()
    assert _headings(path) == [("Contents", 1), ("Introduction", 1), ("Acknowledgements", 1), ("References", 1)]
    assert [b.page for b in _blocks(path) if b.kind == "heading"] == [1, 2, 2, 2]


def _blocks(path):
    from papershelf.ingest.pdf.reader import read_pdf
    return read_pdf(path.read_bytes()).blocks


def test_contents_entry_whose_title_ends_in_a_number(tmp_path):
    """A supplement's contents after the paper's sections: "A Proof of Theorem 1.1  5" among
    entries with dot leaders is an entry like the others (a title of words that ends in a number),
    not appendix A's heading on the contents page."""
    path = tmp_path / "toc_number.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for head in ("1 Introduction", "2 Results"):
        _bold_heading(c, y, head, size=12)
        y = _para(c, 72, y - 16, 460) - 12
    c.showPage()
    y = H - 80
    _bold_heading(c, y, "Contents", size=12)
    y -= 20
    rows = (("1 Introduction", "1", True), ("2 Results", "1", True), ("A Proof of Theorem 1.1", "5", True),
            ("A.1 Outline", "5", False), ("A.2 Moments of the increment", "6", False),
            ("A.3 Putting it together", "7", False), ("B Derivations", "8", True))
    for title, page, bold in rows:
        font = "Times-Bold" if bold else "Times-Roman"
        x = 72 if bold else 86
        c.setFont(font, 10)
        c.drawString(x, y, title)
        if not bold:
            end = x + c.stringWidth(title, font, 10) + 6
            c.drawString(end, y, ". " * int((515 - end) / c.stringWidth(". ", font, 10)))
        c.drawRightString(530, y, page)
        y -= 14
    c.showPage()
    y = H - 80
    for head in ("A Proof of Theorem 1.1", "A.1 Outline"):
        _bold_heading(c, y, head, size=12)
        y = _para(c, 72, y - 16, 460) - 12
    c.save()
    heads = [(b.text, b.page) for b in _blocks(path) if b.kind == "heading"]
    assert heads == [("1 Introduction", 1), ("2 Results", 1), ("Contents", 2), ("A Proof of Theorem 1.1", 3),
                     ("A.1 Outline", 3)]


def test_outline_bench_counts_levels_below_a_title_entry(tmp_path):
    """The outline bench's truth: an outline whose only top entry is the paper's title (every
    section below it) has its sections at level 1; the title entry is optional."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from pdf_outline_headings import _wrappers

    from papershelf.ingest.pdf.sections.outline import Entry

    titled = [Entry("A Trial of Mentoring", 1, 1), Entry("Introduction", 2, 1), Entry("Methods", 2, 2),
              Entry("School recruitment", 3, 2)]
    assert _wrappers(titled) == 1
    assert _wrappers([Entry("The UNIX Time-", 1, 1), Entry("Sharing System", 1, 1)] + titled[1:]) == 2
    assert _wrappers([Entry("1 Introduction", 1, 1), Entry("1.1 Aims", 2, 1), Entry("2 Methods", 1, 2)]) == 0
