"""Heading styles of real journals, each drawn as a generated PDF (one rule each): headings in
small capitals and italics, run-in italic headings, a front-page sidebar not drawn as a box, the
section sign, running heads inside the text area, centred headings after a run of their own."""

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from papershelf.ingest.pdf import read_pdf

W, H = letter
_TEXT = ("Cells were incubated with the compound for two days before the assay and the response was measured "
         "against a control group of matched samples drawn from the same cohort while the model predicts a small "
         "effect that grows with dose as earlier studies of this pathway have reported for several tissues.")


def _para(c: canvas.Canvas, x: float, y: float, width: float, lead: tuple[str, str] | None = None,
          font: str = "Times-Roman", size: float = 10, text: str = _TEXT) -> float:
    """A justified-looking paragraph at (x, y), opened by a run-in lead (text, font); the y below it."""
    words, line, first = text.split(), "", True
    lead_w = c.stringWidth(lead[0] + " ", lead[1], size) if lead else 0.0
    while words:
        room = width - (lead_w if first else 0)
        while words and c.stringWidth(f"{line} {words[0]}".strip(), font, size) <= room:
            line = f"{line} {words.pop(0)}".strip()
        at = x
        if first and lead:
            c.setFont(lead[1], size)
            c.drawString(x, y, lead[0])
            at += lead_w
        c.setFont(font, size)
        c.drawString(at, y, line)
        line, first, y = "", False, y - 1.2 * size
    return y - 4


def _title(c: canvas.Canvas) -> float:
    c.setFont("Helvetica-Bold", 17)
    c.drawCentredString(W / 2, H - 70, "Dose Response of a Signalling Pathway")
    c.setFont("Helvetica", 11)
    c.drawCentredString(W / 2, H - 90, "Ada Okafor and Lena Brandt")
    return H - 130


def _headings(path) -> list[tuple[str, int]]:
    return [(b.text, b.level) for b in read_pdf(path.read_bytes()).blocks if b.kind == "heading"]


def _smallcaps(c: canvas.Canvas, x: float, y: float, text: str, size: float = 10) -> None:
    for ch in text:
        sz = size if ch.isupper() or not ch.isalpha() else 0.78 * size
        c.setFont("Times-Roman", sz)
        c.drawString(x, y, ch.upper())
        x += c.stringWidth(ch.upper(), "Times-Roman", sz)


def test_numbered_headings_in_small_capitals_are_no_list(tmp_path):
    """"1 Introduction" in small capitals of the body's face and size: a title in capitals is a
    heading, never item 1 of a list (which a number in the body's style would otherwise be)."""
    path = tmp_path / "smallcaps.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for n, name in enumerate(("Introduction", "Materials and methods", "Results"), 1):
        _smallcaps(c, 72, y, f"{n} {name}")
        y = _para(c, 72, y - 14, 460)
    c.save()
    assert _headings(path) == [("1 INTRODUCTION", 1), ("2 MATERIALS AND METHODS", 1), ("3 RESULTS", 1)]


def test_italic_sub_headings_on_their_own_line_and_run_in(tmp_path):
    """Under bold unnumbered sections: an italic title on a line of its own ("Cell culture") and an
    italic lead-in that opens its paragraph ("Statistical analysis. The …") are sub-headings; an
    italic species name ending a sentence at a line's start is not."""
    path = tmp_path / "italic.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    c.setFont("Times-Bold", 10)
    c.drawString(72, y, "Materials and methods")
    c.setFont("Times-Italic", 10)
    c.drawString(72, y - 18, "Cell culture")
    y = _para(c, 72, y - 31, 460)
    y = _para(c, 72, y - 10, 460, ("Statistical analysis.", "Times-Italic"))
    y = _para(c, 72, y - 10, 460, ("E. coli.", "Times-Italic"), text="We grew the strain overnight in broth.")
    c.setFont("Times-Bold", 10)
    c.drawString(72, y - 14, "Results")
    _para(c, 72, y - 28, 460)
    c.save()
    assert _headings(path) == [("Materials and methods", 1), ("Cell culture", 2), ("Statistical analysis", 2),
                               ("Results", 1)]


def _sidebar(c: canvas.Canvas, y: float, size: float) -> None:
    for label in ("Citation", "Editor", "Received", "Accepted", "Published", "Copyright",
                  "Data Availability Statement", "Funding", "Competing interests"):
        c.setFont("Helvetica-Bold", size + 0.5)
        c.drawString(54, y, label)
        c.setFont("Helvetica", size)
        c.drawString(54, y - size - 2, "the authors declare as stated")
        y -= 2 * size + 12


def _sidebar_paper(path, size: float) -> None:
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    _sidebar(c, y, size)
    c.setFont("Times-Bold", 10)
    c.drawString(220, y, "Abstract")
    y = _para(c, 220, y - 14, 340)
    c.setFont("Times-Bold", 10)
    c.drawString(220, y - 10, "Introduction")
    y = _para(c, 220, y - 24, 340)
    y = _para(c, 220, y, 340)
    c.setFont("Times-Bold", 10)
    c.drawString(220, y - 10, "Materials and methods")
    _para(c, 220, y - 24, 340)
    c.save()


def test_front_page_sidebar_without_a_box_opens_no_section(tmp_path):
    """A narrow column of small labelled front matter beside the first page's text, not drawn as a
    box: its labels are no sections, and the Introduction is not filed under the last of them."""
    path = tmp_path / "sidebar.pdf"
    _sidebar_paper(path, 7)
    assert _headings(path) == [("Abstract", 1), ("Introduction", 1), ("Materials and methods", 1)]
    blocks = read_pdf(path.read_bytes()).blocks
    assert sum(b.text.count(_TEXT) for b in blocks if b.kind == "text") == 4  # no sidebar line inside a paragraph
    assert any(b.kind == "text" and b.text.startswith("Competing interests") for b in blocks)


def test_front_page_sidebar_in_the_body_size_beside_a_wide_column(tmp_path):
    """The sidebar set as large as the body (a Royal Society layout): beside a column much wider
    than itself on the first page it is still a sidebar."""
    path = tmp_path / "sidebar-large.pdf"
    _sidebar_paper(path, 10)
    assert _headings(path) == [("Abstract", 1), ("Introduction", 1), ("Materials and methods", 1)]


def test_section_sign_numbers_and_running_heads_inside_the_text_area(tmp_path):
    """"§2 Methods" continues the numbering; a running head in small capitals with the page number
    ("2 ADA OKAFOR AND LENA BRANDT"), set low enough to sit inside the text area, is no section."""
    path = tmp_path / "sections.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for n, name in enumerate(("Introduction", "Methods", "Results", "Discussion"), 1):
        if n > 1:
            c.showPage()
            c.setFont("Times-Roman", 7)
            c.drawCentredString(W / 2, H - 100, f"{n} ADA OKAFOR AND LENA BRANDT")
            y = H - 130
        c.setFont("Times-Bold", 12)
        c.drawString(72, y, f"§{n} {name}")
        _para(c, 72, y - 16, 460)
    c.save()
    assert _headings(path) == [("§1 Introduction", 1), ("§2 Methods", 1), ("§3 Results", 1), ("§4 Discussion", 1)]


def test_capitals_heading_and_the_sub_heading_under_it_are_two(tmp_path):
    """"METHODS" and, close below in the same bold, "School recruitment": a line in mixed case under
    one in capitals is a heading of its own, not the second line of a wrapped heading."""
    path = tmp_path / "caps.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    for top, sub in (("INTRODUCTION", None), ("METHODS", "School recruitment"), ("RESULTS", None)):
        c.setFont("Helvetica-Bold", 10)
        c.drawString(72, y, top)
        if sub:
            y -= 12
            c.drawString(72, y, sub)
        y = _para(c, 72, y - 14, 460) - 12
    c.save()
    assert [t for t, _ in _headings(path)] == ["INTRODUCTION", "METHODS", "School recruitment", "RESULTS"]


def test_centred_heading_after_a_run_of_its_own_has_space_above(tmp_path):
    """amsart: a displayed equation whose number sits at the right margin, then "2. Methods" centred
    in the body's size and weight over a two-line paragraph.  The equation's pieces make the heading
    and its paragraph a run of their own, too short to show the column's edge; the heading's space
    above and its centring are measured on the page all the same."""
    path = tmp_path / "amsart.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    words = _TEXT.split()
    for n, name in enumerate(("Introduction", "Methods", "Results"), 1):
        c.setFont("Times-Roman", 10)
        c.drawCentredString(W / 2, y, f"{n}. {name}")
        c.drawString(84, y - 16, " ".join(words[:14]))
        c.drawString(72, y - 28, " ".join(words[14:26]) + ":")
        c.drawString(200, y - 50, "f(x) = x + 1")
        c.drawString(520, y - 50, f"({n}.1)")
        y -= 80
    c.save()
    assert [t for t, _ in _headings(path)] == ["1. Introduction", "2. Methods", "3. Results"]


def test_supplement_contents_whose_page_numbers_start_again_are_not_headings(tmp_path):
    """A supplement's contents lists the main paper's sections (its pages) and then its own appendix
    sections from page 2 again (sections' entries in bold, sub-sections' with dot leaders, as LaTeX
    sets them): one contents list, none of its rows a heading."""
    path = tmp_path / "supplement.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    c.setFont("Times-Bold", 12)
    c.drawString(72, y, "Contents")
    rows = (("1 Online learning in two-layer networks", "3"), ("2 Asymptotic error of committees", "5"),
            ("A Proof of the first theorem", "2"), ("A.1 Outline", "2"), ("A.2 First moments", "4"),
            ("A.3 Second moments", "5"), ("B Derivation of the equations", "6"))
    for title, page in rows:
        y -= 14
        sub = "." in title.split()[0]  # sections' entries in bold without leaders, as LaTeX sets them
        c.setFont("Times-Roman" if sub else "Times-Bold", 10)
        leaders = " " + ". " * int((455 - c.stringWidth(title, "Times-Roman", 10)) / 5) if sub else ""
        c.drawString(72, y, title + leaders)
        c.drawRightString(540, y, page)
    for name in ("A Proof of the first theorem", "B Derivation of the equations"):
        c.showPage()
        c.setFont("Times-Bold", 12)
        c.drawString(72, H - 90, name)
        _para(c, 72, H - 106, 460)
    c.save()
    assert [t for t, _ in _headings(path) if t != "Contents"] == ["A Proof of the first theorem",
                                                                  "B Derivation of the equations"]


def test_heading_wrapped_with_a_hanging_indent_is_one_heading(tmp_path):
    """"3.2 Implementing a support vector machine algorithm on a" across the page, and its short
    second line "Photonic Quantum Computer" indented to the title: one heading, whole."""
    path = tmp_path / "wrapped.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, y, "1 Introduction")
    y = _para(c, 72, y - 16, 468)
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, y - 10, "2 Implementing a support vector machine algorithm on a")
    c.drawString(72 + c.stringWidth("2 ", "Helvetica-Bold", 12), y - 24, "Photonic Quantum Computer")
    _para(c, 72, y - 40, 468)
    c.save()
    assert [t for t, _ in _headings(path)] == [
        "1 Introduction", "2 Implementing a support vector machine algorithm on a Photonic Quantum Computer"]


def test_centred_italic_formula_of_single_letters_is_no_appendix_heading(tmp_path):
    """A displayed formula "A P A S" set centred in italics (a one-line paragraph) reads like
    "Appendix A: P A S" to the numbering; symbols set apart are no title, and the section after it
    is still found."""
    path = tmp_path / "formula.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    y = _title(c)
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, y, "1 Introduction")
    y = _para(c, 72, y - 16, 468)
    c.setFont("Times-Italic", 10)
    c.drawCentredString(306, y - 14, "A P A S")
    y = _para(c, 72, y - 34, 468)
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, y - 10, "2 Analysis")
    _para(c, 72, y - 26, 468)
    c.save()
    assert [t for t, _ in _headings(path)] == ["1 Introduction", "2 Analysis"]
